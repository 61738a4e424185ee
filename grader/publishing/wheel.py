"""The kit as a wheel, made from the kit that is running: what the Gradescope bundle installs.

It works the same whether the kit was installed from a wheel (read-only site-packages) or runs from its
checkout (an editable install): the package's files as they are, the built-in variants' specs as
``grader/specs/``, and the ``.dist-info`` of the installed distribution (its METADATA names the
requirements ``pip`` installs with it). The result is byte for byte the same for the same kit.

``from_installed`` makes a wheel the same way of any distribution installed from one (the kit's
requirements, say): with them, a machine that reaches no package index installs the kit with
``pip install --no-index --find-links FOLDER`` (the bundle's setup.sh: ``HOG_PIP_OPTIONS``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import stat
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from grader import project
from grader.errors import GraderFault, UsageError
from grader.project.files import zip_bytes
from grader.project.package import package_files

TAG = "py3-none-any"


def _metadata() -> bytes:
    """The installed kit's METADATA (its requirements among it). An installation's .dist-info comes first:
    a build in the checkout leaves a hog_kit.egg-info there, whose PKG-INFO lists no requirements (they
    are in its requires.txt), and the checkout is on the import path of whatever runs from it."""
    found = _installations(project.DISTRIBUTION)
    text = next((text for text in (each.read_text("METADATA") for each in found) if text), None) \
        or next((text for text in (_with_requirements(each) for each in found) if text), None)
    if not text:
        raise GraderFault(f"the kit is not installed as {project.DISTRIBUTION} (run 'pip install .' or "
                          f"'pip install -e .' in its checkout), so its requirements are unknown")
    return text.encode("utf-8")


def _installations(name: str) -> list[metadata.Distribution]:
    """Every installation of ``name`` on sys.path, in its order, found by the standard library's own finder:
    one that another package puts on sys.meta_path (the importlib_metadata backport, which Dask brings)
    would answer with distributions of its own kind, which read RECORD otherwise."""
    return list(metadata.MetadataPathFinder.find_distributions(metadata.DistributionFinder.Context(name=name)))


def _with_requirements(found: metadata.Distribution) -> str | None:
    """An egg-info's PKG-INFO with the Requires-Dist lines of its requires.txt, as a METADATA would have them."""
    text = found.read_text("PKG-INFO")
    if not text or "\nRequires-Dist:" in text:
        return text
    head, _, body = text.partition("\n\n")
    lines = "".join(f"\nRequires-Dist: {requirement}" for requirement in found.requires or ())
    return f"{head}{lines}\n\n{body}"


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _stem() -> str:
    """``hog_kit-<version>``: how the wheel's file and its .dist-info folder begin."""
    return f"{project.DISTRIBUTION.replace('-', '_')}-{project.version()}"


def name() -> str:
    """The wheel's file name, as pip expects it."""
    return f"{_stem()}-{TAG}.whl"


def build() -> bytes:
    """The running kit as a wheel (its bytes)."""
    info = f"{_stem()}.dist-info"
    files = package_files()
    files[f"{info}/METADATA"] = _metadata()
    files[f"{info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: hog-kit {project.version()}\n"
                              f"Root-Is-Purelib: true\nTag: {TAG}\n").encode()
    files[f"{info}/entry_points.txt"] = b"[console_scripts]\nhog = grader.cli:run\n"
    files[f"{info}/top_level.txt"] = b"grader\n"
    record = "".join(f"{path},{_digest(data)},{len(data)}\n" for path, data in files.items())
    files[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode()
    return zip_bytes({path: (data, 0o644) for path, data in files.items()})


# What an installer writes into a .dist-info for itself; a wheel does not carry them (RECORD is made anew).
INSTALLED_ONLY = ("INSTALLER", "REQUESTED", "direct_url.json", "RECORD")


@dataclass(frozen=True)
class Repacked:
    """An installed distribution as a wheel."""
    name: str                   # the wheel's file name, as pip expects it (name, version, the original tags)
    data: bytes                 # the wheel
    dropped: tuple[str, ...]    # what it installed outside site-packages (RECORD's paths), left out


def _installed_wheel(distribution: str) -> tuple[metadata.Distribution, list[str]]:
    """The installed ``distribution`` and the tags of the wheel it was installed from."""
    found = next(iter(_installations(distribution)), None)
    if found is None:
        raise UsageError(f"{distribution} is not installed here (pip install {distribution})")
    tags = [line.split(":", 1)[1].strip() for line in (found.read_text("WHEEL") or "").splitlines()
            if line.startswith("Tag:")]
    if not tags or not found.read_text("RECORD"):
        raise UsageError(f"{distribution} was not installed from a wheel (its .dist-info has no WHEEL with tags "
                         f"or no RECORD): reinstall it with 'pip install --force-reinstall {distribution}'")
    if json.loads(found.read_text("direct_url.json") or "{}").get("dir_info", {}).get("editable"):
        raise UsageError(f"{distribution} is installed in editable mode (its files are its checkout's): "
                         f"install it from a wheel ('pip install {distribution}') to repack it")
    return found, tags


def from_installed(distribution: str, *, compress: bool = True) -> Repacked:
    """The installed ``distribution`` as a wheel that installs it as it is installed here.

    Its files are those its .dist-info's RECORD lists under site-packages, as they are now, without byte
    code; its .dist-info keeps METADATA, WHEEL (with the tags of the wheel it came from: the new one installs
    only where that one did) and the rest, but not what the installer wrote for itself; RECORD is written
    anew with each file's hash. What it installed outside site-packages (scripts in bin/, headers) is left
    out and named in ``dropped``: pip makes console scripts again from entry_points.txt, not the others.
    ``compress=False`` stores the files as they are: much faster for a wheelhouse used on the same machine.
    """
    found, tags = _installed_wheel(distribution)
    site = Path(found.locate_file(""))
    info = next(entry.parts[0] for entry in found.files
                if len(entry.parts) == 2 and entry.parts[0].endswith(".dist-info") and entry.name == "METADATA")
    files, dropped = {}, []
    for entry in found.files:
        if entry.is_absolute() or ".." in entry.parts:
            dropped.append(str(entry))
        elif "__pycache__" in entry.parts or entry.suffix == ".pyc" \
                or (entry.parts[0] == info and entry.name in INSTALLED_ONLY):
            continue
        else:
            path = site / entry
            try:
                files[entry.as_posix()] = (path.read_bytes(), stat.S_IMODE(path.stat().st_mode))
            except OSError as error:
                raise UsageError(f"{distribution}'s installation is incomplete ({path}: {error.strerror}): "
                                 f"reinstall it with 'pip install --force-reinstall {distribution}'") from None
    files = dict(sorted(files.items(), key=lambda item: item[0].startswith(f"{info}/")))   # .dist-info last
    record = "".join(f"{path},{_digest(data)},{len(data)}\n" for path, (data, mode) in files.items())
    files[f"{info}/RECORD"] = ((record + f"{info}/RECORD,,\n").encode(), 0o644)
    # A compressed tag set (PEP 425): each part's values, in the order the tags give them.
    tag = "-".join(".".join(dict.fromkeys(part)) for part in zip(*(tag.split("-") for tag in tags)))
    stem = f"{re.sub(r'[-_.]+', '_', found.metadata['Name'])}-{found.version}"
    return Repacked(f"{stem}-{tag}.whl", zip_bytes(files, compress=compress), tuple(dropped))
