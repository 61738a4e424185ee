"""The kit as a wheel, made from the kit that is running: what the Gradescope bundle installs.

It works the same whether the kit was installed from a wheel (read-only site-packages) or runs from its
checkout (an editable install): the package's files as they are, the built-in variants' specs as
``grader/specs/``, and the ``.dist-info`` of the installed distribution (its METADATA names the
requirements ``pip`` installs with it). The result is byte for byte the same for the same kit.
"""

from __future__ import annotations

import base64
import hashlib
from importlib import metadata

from grader import project
from grader.errors import GraderFault
from grader.project.files import zip_bytes

TAG = "py3-none-any"


def _package_files() -> dict[str, bytes]:
    """Path in the wheel → bytes: the ``grader`` package (no byte code) and the built-in specs."""
    files = {}
    for path in sorted(project.PACKAGE.rglob("*")):
        relative = path.relative_to(project.PACKAGE)
        if path.is_file() and "__pycache__" not in relative.parts and path.suffix != ".pyc" \
                and relative.parts[0] != "specs":
            files[f"grader/{relative.as_posix()}"] = path.read_bytes()
    for path in sorted(project.BUILTIN_SPECS.glob("*.yaml")):
        if project.table_path(path.stem, minted=False).is_file():   # minted in a checkout: not built in
            files[f"grader/specs/{path.name}"] = path.read_bytes()
    return files


def _metadata() -> bytes:
    try:
        found = metadata.distribution(project.DISTRIBUTION)
        text = found.read_text("METADATA") or found.read_text("PKG-INFO")   # a wheel's, or an egg-info's
    except metadata.PackageNotFoundError:
        text = None
    if not text:
        raise GraderFault(f"the kit is not installed as {project.DISTRIBUTION} (run 'pip install .' or "
                          f"'pip install -e .' in its checkout), so its requirements are unknown")
    return text.encode("utf-8")


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
    files = _package_files()
    files[f"{info}/METADATA"] = _metadata()
    files[f"{info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: hog-kit {project.version()}\n"
                              f"Root-Is-Purelib: true\nTag: {TAG}\n").encode()
    files[f"{info}/entry_points.txt"] = b"[console_scripts]\nhog = grader.cli:run\n"
    files[f"{info}/top_level.txt"] = b"grader\n"
    record = "".join(f"{path},{_digest(data)},{len(data)}\n" for path, data in files.items())
    files[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode()
    return zip_bytes({path: (data, 0o644) for path, data in files.items()})
