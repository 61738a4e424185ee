"""Where the kit's files are: one place for every path the kit reads or writes.

The installed package is read-only code and data: its templates, shipped files, the built-in
variants' specs (``specs/``, mapped into the package as ``grader/specs/`` when a wheel is built) and
their optimal tables (``grader/data/final/``). Everything else is the *place* the kit runs for:

- a **course folder**: the folder holding ``hog-course.toml`` (``hog init`` makes one), found from the
  working directory upward as git finds a repository, or named by ``--course DIR`` / ``HOG_COURSE``.
  Its ``specs/`` holds the variants minted for it (and ``specs/final/`` their optimal tables);
  ``solution/``, ``skeleton/`` and ``docs/`` what ``hog build`` generates there.
- the **kit's own checkout**: a folder holding a ``pyproject.toml`` whose project is ``hog-kit``. It acts as
  the built-in course: its ``specs/`` are the built-in variants, and ``hog build`` regenerates its
  ``solution/``, ``skeleton/`` and ``docs/`` (``hog build --check`` in CI).
- **nowhere**: outside both, the built-in variants and defaults apply and nothing is generated.

Caches go to the user's cache folder (``HOG_CACHE``, else ``$XDG_CACHE_HOME/hog-kit``), never the package.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from pathlib import Path
from typing import NamedTuple

from grader.errors import UsageError

PACKAGE = Path(__file__).resolve().parent.parent
TEMPLATES = PACKAGE / "templates"        # Jinja sources, one folder per product: hog/, handout/, autograder/
SHIPPED = PACKAGE / "shipped"            # files shipped as they are: dice.py, student/, autograder/
DATA = PACKAGE / "data"                  # tables the kit computes and keeps: final/<id>.txt
DICE = SHIPPED / "dice.py"
CACHE = Path(os.environ.get("HOG_CACHE") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "hog-kit")
DISTRIBUTION = "hog-kit"                 # the kit's name on a package index
CONFIG_NAME = "hog-course.toml"          # the file that makes a folder a course folder

# The isolation levels a grading run can require, weakest first (grader/sandbox/level.py says what each means
# and how container, which is only used when named, stands beside bubblewrap).
ISOLATION_LEVELS = ("process", "files", "bubblewrap", "container")


def support_files(submission: Path) -> dict[str, str]:
    """The files the grader puts beside hog.py: the kit's dice.py always, and a
    standard-library ucb.py (main, trace, interact, as the courses' skeletons import)
    unless the submission brings its own."""
    files = {"dice.py": DICE.read_text(encoding="utf-8")}
    if not (submission.is_dir() and (submission / "ucb.py").is_file()):
        files["ucb.py"] = (SHIPPED / "ucb.py").read_text(encoding="utf-8")
    return files


def is_checkout(folder: Path) -> bool:
    """Whether ``folder`` is the kit's own source tree (its pyproject.toml names the project hog-kit)."""
    try:
        text = (folder / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return re.search(r'(?m)^name\s*=\s*"hog-kit"\s*$', text) is not None and (folder / "specs").is_dir()


# The built-in variants' specs: inside the installed package, or at the top of the checkout it runs from.
BUILTIN_SPECS = PACKAGE / "specs" if (PACKAGE / "specs").is_dir() else PACKAGE.parent / "specs"


class Place(NamedTuple):   # not a dataclass: `hog --help` need not import dataclasses
    """Where the kit runs for: a course folder, the kit's checkout, or neither (``root`` None)."""
    root: Path | None
    checkout: bool = False
    ignored: tuple[Path, ...] = ()       # course configs passed over because they lie inside what is graded

    @property
    def config(self) -> Path | None:
        return None if self.root is None or self.checkout else self.root / CONFIG_NAME

    @property
    def specs(self) -> Path | None:
        return None if self.root is None else self.root / "specs"

    def own_specs(self) -> list[Path]:
        """The specs of the course's own variants (minted, or written by the course), in name order;
        none in the checkout (its specs/ are the built-in ones) or outside a course."""
        return [] if self.specs is None or self.checkout else sorted(self.specs.glob("*.yaml"))

    def folder(self, name: str) -> Path:
        """``solution``, ``skeleton`` or ``docs`` of this place; a usage error outside any course."""
        if self.root is None:
            raise UsageError(f"not in a course folder: nothing to write {name}/ into (run 'hog init DIR' and "
                             f"work inside DIR, or give --course DIR)")
        return self.root / name


def _search(start: Path, below: Path | None = None) -> Place:
    """The place for ``start``: the nearest folder from ``start`` upward holding a course config or the
    kit's checkout. A config inside ``below`` (what is being graded) is passed over and recorded."""
    ignored = []
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / CONFIG_NAME).is_file():
            if below is not None and folder.is_relative_to(below):
                ignored.append(folder / CONFIG_NAME)
                continue
            return Place(folder, ignored=tuple(ignored))
        if is_checkout(folder):
            return Place(folder, checkout=True, ignored=tuple(ignored))
    return Place(None, ignored=tuple(ignored))


def _named(folder: str, source: str) -> Place:
    path = Path(folder).expanduser().resolve()
    if is_checkout(path):
        return Place(path, checkout=True)
    if not (path / CONFIG_NAME).is_file():
        raise UsageError(f"{source} {folder}: no {CONFIG_NAME} there (run 'hog init {folder}' to make it a "
                         f"course folder)")
    return Place(path)


_chosen: dict[str, Place] = {}


def use(course: str | None = None, *, graded: Path | None = None) -> Place:
    """Choose the place for this run: ``course`` (``--course``), else ``HOG_COURSE``, else the nearest
    course folder from the working directory upward. ``graded``: a submission (or folder of them) being
    graded; a course config inside it is never taken (grading reads the course's config, not one a
    student handed in)."""
    if course:
        place = _named(course, "--course")
    elif os.environ.get("HOG_COURSE"):
        place = _named(os.environ["HOG_COURSE"], "HOG_COURSE")
    else:
        place = _search(Path.cwd(), Path(graded).resolve() if graded is not None else None)
    _chosen["place"] = place
    return place


def here() -> Place:
    """The place chosen for this run (``use``), found from the working directory if none was chosen."""
    if "place" not in _chosen:
        use()
    return _chosen["place"]


def variant_paths() -> dict[str, Path]:
    """Every variant this place sees, by id: the built-in ones, then the course's own (``specs/``).
    In the checkout, its ``specs/`` are the built-in ones. A course spec with a built-in id is left out
    here; ``clash`` names it."""
    place = here()
    if place.checkout:
        return {path.stem: path for path in sorted(place.specs.glob("*.yaml"))}
    found = {path.stem: path for path in sorted(BUILTIN_SPECS.glob("*.yaml"))}
    for path in place.own_specs():
        found.setdefault(path.stem, path)
    return found


def clash(variant_id: str) -> Path | None:
    """A course spec that takes a built-in variant's id (refused), or None."""
    place = here()
    if place.checkout or place.specs is None or not (BUILTIN_SPECS / f"{variant_id}.yaml").is_file():
        return None
    path = place.specs / f"{variant_id}.yaml"
    return path if path.is_file() else None


def variant_ids() -> list[str]:
    """The ids of the variants this place sees: the built-in ones and the course's own."""
    return sorted(variant_paths())


def spec_path(variant_id: str) -> Path:
    """Where the spec of ``variant_id`` is (or a minted one would go: the course's ``specs/``)."""
    known = variant_paths().get(variant_id)
    return known if known is not None else here().folder("specs") / f"{variant_id}.yaml"


def suite_path(name: str) -> Path:
    """Where the okpy suite imported as ``name`` is kept: the course's ``suites/NAME/`` (``hog import-ok``)."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name):
        raise UsageError(f"suite name {name!r}: use lower-case letters, digits, '-' and '_' (e.g. hog-sp24)")
    return here().folder("suites") / name


def table_path(variant_id: str, *, minted: bool) -> Path:
    """The optimal table of a variant: a minted one's beside its spec, a built-in one's in the package."""
    if minted:
        return spec_path(variant_id).parent / "final" / f"{variant_id}.txt"
    return DATA / "final" / f"{variant_id}.txt"


def display(path: Path) -> str:
    """A path as the user should see it: relative to the course (or checkout), or the working directory."""
    path = Path(path).resolve()
    bases = [base for base in (here().root, Path.cwd()) if base is not None]
    for base in bases:
        try:
            return str(path.relative_to(base))
        except ValueError:
            continue
    return str(path)


@functools.cache
def version() -> str:
    """The kit's version, from its package metadata (``unknown`` when it runs uninstalled): the
    ``Version:`` line of the METADATA of the first ``<name>-<version>.dist-info`` on sys.path, read
    directly; importlib.metadata (whose email parser costs a short run about 20 ms to import) only
    where a sys.path entry holds the kit's metadata in another form."""
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        ours = [name for name in names if _distribution_name(name) == _distribution_name(DISTRIBUTION)]
        if not ours:
            continue
        if len(ours) == 1 and ours[0].endswith(".dist-info"):
            try:
                text = Path(entry or ".", ours[0], "METADATA").read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                break
            head = text.split("\n\n", 1)[0].splitlines()
            found = [line.split(":", 1)[1].strip() for line in head if line.startswith("Version:")]
            if len(found) == 1 and found[0]:
                return found[0]
        break
    from importlib import metadata   # only here: see above
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def _distribution_name(name: str) -> str:
    """A distribution's name as its metadata's folder is matched (``hog_kit-0.1.0.dist-info``, ``hog-kit``):
    before the version, lower case, runs of ``-_.`` as one ``_``; "" for a name of no such folder."""
    if name.endswith((".dist-info", ".egg-info")):
        name = name.rsplit(".", 1)[0].split("-", 1)[0]
    elif "." in name:
        return ""
    return re.sub(r"[-_.]+", "_", name).lower()


def __getattr__(name: str) -> Path:
    """``project.SPECS``, ``SOLUTION``, ``SKELETON``, ``DOCS``, ``ROSTERS``, ``ROOT``: the chosen place's folders."""
    folders = {"SPECS": "specs", "SOLUTION": "solution", "SKELETON": "skeleton", "DOCS": "docs",
               "ROSTERS": "rosters"}   # hog assign --roster keeps each manifest there too: r<seed>_<by>.csv
    if name in folders:
        return here().folder(folders[name])
    if name == "ROOT":
        return here().folder("").resolve()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
