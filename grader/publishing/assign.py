"""What an instructor hands out for a variant: ``hog assign ID --out DIR``.

``DIR/student/`` is the student's folder: the skeleton ``hog.py``, ``dice.py``,
the handout, the public cases and the pytest wiring that runs them. Nothing
hidden and no solution code goes there. With a course server to submit to
(``--server URL --assignment NAME``), also ``submit.py`` with both written in.

``DIR/autograder/`` holds ``autograder.zip`` for Gradescope (``setup.sh``,
``run_autograder``, the kit as a wheel made from the kit that runs (``grader.publishing.wheel``) in
``kit/``, and the course in ``course/``: its config, and the specs and optimal tables of the
variants minted in it), the GitHub Actions
workflow ``.github/workflows/grade.yml`` for GitHub Classroom, and a README on
how to use both. Gradescope grades with ``hog grade`` (hidden cases, exact
final strategy); the workflow, which runs where students can edit it, runs the
public cases only and holds no secret.

Output is written into a temporary sibling of ``DIR`` and renamed at the end,
so a failure leaves nothing half-written behind.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from grader import project
from grader.publishing import build, handout, wheel
from grader.reference import rendering
from grader.report import style
from grader.spec import course, okpy_suite
from grader.errors import OutputError
from grader.project.files import write_atomically, zip_bytes
from grader.spec import Variant

SHIPPED = project.SHIPPED / "autograder"
SUBMIT = project.SHIPPED / "student" / "submit.py"
SUBMIT_SETTINGS = ("SERVER", "ASSIGNMENT")   # the lines of submit.py that name where it submits
EXECUTABLE = 0o755


@dataclass(frozen=True)
class Submitting:
    """Where a student folder's ``submit.py`` sends ``hog.py``: the course server's public address
    (``http(s)://host[:port][/path]``, no trailing slash) and the assignment's name on it."""
    url: str
    assignment: str
    diagnoses: bool = True   # the assignment's: the folder's pytest diagnoses a failing public case


# ------------------------------------------------------------------ contents


def student_files(variant: Variant, submitting: Submitting | None = None) -> dict[str, str]:
    """The student's folder: skeleton, dice, handout, public cases, pytest wiring, the game page's
    stylesheets; with ``submitting``, submit.py (and a .gitignore that keeps the token it stores out of a
    repository).
    No picture of the optimal strategy: it would be the answer to the final strategy question."""
    files = build.student_folder(variant, build.skeleton_source(variant),
                                 diagnosing=submitting is None or submitting.diagnoses)
    files.update(handout.documents(variant, build.solution_source(variant)))
    files.update({name: style.sheet(name).decode("utf-8") for name in style.SHEETS})   # the game page's look
    if submitting is not None:
        files["submit.py"] = submit_script(submitting)
        files[".gitignore"] = "# The token submit.py keeps: whoever has it can submit as you.\n.hog-token\n"
    return files


def submit_script(submitting: Submitting) -> str:
    """The shipped submit.py with the server's address and the assignment written in as Python literals."""
    text = SUBMIT.read_text(encoding="utf-8")
    for name, value in zip(SUBMIT_SETTINGS, (submitting.url, submitting.assignment)):
        text, count = re.subn(rf'^{name} = ""$', lambda _: f"{name} = {value!r}", text, count=1, flags=re.M)
        assert count == 1, f"{SUBMIT} has no line {name} = \"\" to fill in"   # the kit's own file
    return text


def _render(name: str, variant: Variant | None, **context) -> str:
    template = rendering.environment("autograder", trim_blocks=False).get_template(name)
    return template.render(variant=variant, **{"roster": False, "suite": None, **context})


def kit_files() -> dict[str, bytes]:
    """The kit as the autograder installs it: one wheel, made from the kit that runs."""
    return {f"kit/{wheel.name()}": wheel.build(), "kit/README.md": (SHIPPED / "kit-README.md").read_bytes()}


def course_files(*variants: Variant, suite: str | None = None) -> dict[str, bytes]:
    """The course the autograder grades for (``run_autograder`` names it with ``--course``): the course's
    config (outside a course, one with the variants' own points), the minted variants' specs and tables, and
    the imported okpy suite ``suite`` names (``NAME`` or ``kit+NAME``: its ``suites/NAME/suite.json`` and the
    course's files it carries, ``suites/NAME/files/``)."""
    config, place = course.current(), project.here()
    title = variants[0].title if len(variants) == 1 else "Hog"
    text = config.path.read_bytes() if config else course.config_text(title, list(variants)).encode()
    files = {f"course/{project.CONFIG_NAME}": text}
    # The course's own variants (the wheel holds the built-in ones): its config may name any of them.
    own = place.own_specs() if config else []
    for variant in variants:
        if variant.compose is not None and project.spec_path(variant.id) not in own:
            own.append(project.spec_path(variant.id))   # minted in the checkout
    for spec in own:
        files[f"course/specs/{spec.name}"] = spec.read_bytes()
        table = project.table_path(spec.stem, minted=True)
        if table.is_file():
            files[f"course/specs/final/{table.name}"] = table.read_bytes()
    if suite is not None:
        chosen, _ = okpy_suite.chosen(suite)   # refused here, before anything is written, if never imported
        files[f"course/suites/{chosen.name}/{okpy_suite.FILE}"] = \
            (project.suite_path(chosen.name) / okpy_suite.FILE).read_bytes()
        for name, content in chosen.files:    # the course's files it carries, as loaded (each one checked)
            files[f"course/suites/{chosen.name}/{okpy_suite.FILES}/{name}"] = content
    if config and config.isolation not in (None, "files"):   # run_autograder requires files unless told
        files["isolation"] = f"{config.isolation}\n".encode()
    return files


def autograder_zip(variant: Variant | None, *, manifest: str | None = None,
                   variants: Sequence[Variant] = (), suite: str | None = None) -> bytes:
    """Gradescope's autograder.zip: setup.sh and run_autograder at the top, the kit's wheel in kit/, the
    course in course/. With a roster's ``manifest`` (no ``variant``; its ``variants`` all carried),
    run_autograder grades each student under the variant the manifest gives them (``hog assign --roster``)."""
    carried = [variant] if variant is not None else list(variants)
    entries = {
        "setup.sh": ((SHIPPED / "setup.sh").read_bytes(), EXECUTABLE),
        "run_autograder": (_render("run_autograder.j2", variant, wheel=wheel.name(),
                                   roster=manifest is not None, suite=suite).encode(), EXECUTABLE),
        "grading_failed.py": ((SHIPPED / "grading_failed.py").read_bytes(), 0o644),
    }
    if manifest is not None:
        entries["manifest.csv"] = (manifest.encode(), 0o644)
        entries["pick_variant.py"] = ((SHIPPED / "pick_variant.py").read_bytes(), 0o644)
    carried_files = {**kit_files(), **course_files(*carried, suite=suite)}
    entries.update({name: (data, 0o644) for name, data in carried_files.items()})
    return zip_bytes(entries)


def _workflow_questions(variant: Variant) -> list[dict]:
    """What the GitHub workflow needs of each question; the final strategy's points need the
    kit's exact engine, so its public cases there are feedback only."""
    return [{"key": q.key, "label": q.label, "title": q.title, "points": q.points,
             "graded_here": q.role != "final_strategy"} for q in variant.questions]


def autograder_files(variant: Variant, suite: str | None = None) -> dict[str, bytes]:
    return {
        "autograder.zip": autograder_zip(variant, suite=suite),
        ".github/workflows/grade.yml": _render("grade.yml.j2", variant, questions=_workflow_questions(variant),
                                               summarise_script=(SHIPPED / "summarise_public_cases.py").read_text(encoding="utf-8")).encode(),
        "README.md": _render("README.md.j2", variant).encode(),
    }


def bundle(variant: Variant, submitting: Submitting | None = None, suite: str | None = None) -> dict[str, bytes]:
    """Everything ``hog assign`` writes, by path relative to DIR (``suite``: ``--suite``, graded with)."""
    files = {f"student/{name}": text.encode() for name, text in student_files(variant, submitting).items()}
    files.update({f"autograder/{name}": data for name, data in autograder_files(variant, suite).items()})
    return files


# ------------------------------------------------------------------- writing


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def _parent(out: Path):
    """The folder that will hold ``out``, created if needed; folders created here are
    removed again if writing fails, so a failure leaves nothing behind."""
    parent = out.parent
    missing = [folder for folder in (parent, *parent.parents) if not folder.exists()]
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocking = next(path for path in (parent, *parent.parents) if path.exists() and not path.is_dir())
        raise OutputError(f"{blocking} is a file, not a folder "
                          f"(choose an --out inside a folder you can write to)") from None
    except OSError as error:
        _remove(missing)
        raise OutputError(f"cannot create {parent}: {error.strerror} "
                          f"(choose an --out inside a folder you can write to)") from None
    try:
        yield parent
    except BaseException:
        _remove(missing)
        raise


def _remove(created: list[Path]) -> None:
    if created:
        shutil.rmtree(created[-1], ignore_errors=True)   # the outermost folder this run made


def write_folder(out: Path, files: dict[str, bytes]) -> None:
    """Write ``files`` as the new folder ``out``, all or nothing.

    ``out`` must not exist, or be an empty folder.
    """
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out} is a file (choose a new folder for --out)")
    if out.exists() and any(out.iterdir()):
        raise OutputError(f"{out} already exists and is not empty "
                          f"(choose a new folder for --out, or remove {out} first)")
    with _parent(out) as parent:
        try:
            staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=parent))
        except OSError as error:
            raise OutputError(f"cannot write in {parent}: {error.strerror} "
                              f"(choose an --out inside a folder you can write to)") from None
        try:
            staging.chmod(0o777 & ~_umask())
            for name, data in files.items():
                path = staging / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            if out.is_dir():
                out.rmdir()
            staging.rename(out)
        except OSError as error:
            raise OutputError(f"cannot write {out}: {error.strerror} "
                              f"(check the free space and permissions of {parent})") from None
        finally:
            if staging.exists():
                shutil.rmtree(staging)


def write_file(out: Path, text: str) -> None:
    """Write one file, replacing ``out`` only once the new text is complete."""
    if out.is_dir():
        raise OutputError(f"{out} is a folder (give --out a file name, e.g. {out / 'handout.html'})")
    with _parent(out) as parent:
        try:
            write_atomically(out, text)
        except OSError as error:
            if not os.access(parent, os.W_OK | os.X_OK):
                raise OutputError(f"cannot write in {parent}: {error.strerror} "
                                  f"(choose an --out inside a folder you can write to)") from None
            raise OutputError(f"cannot write {out}: {error.strerror} "
                              f"(check the free space and permissions of {parent})") from None


def assign(variant: Variant, out: Path, submitting: Submitting | None = None,
           suite: str | None = None) -> dict[str, bytes]:
    """Write the student folder and the autograder bundle of ``variant`` into ``out``."""
    files = bundle(variant, submitting, suite)
    write_folder(out, files)
    return files
