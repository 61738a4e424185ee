"""The kit's own files, as its wheel carries them, and one digest of them.

One list for two readers: ``grader.publishing.wheel`` packs these files into the kit's wheel, and the
container level (``grader.sandbox.engine``) names its image after their digest, so a kit whose files
change (a new version, or an edited checkout) builds a new image instead of running an old one.
"""

from __future__ import annotations

import functools
import hashlib

from grader import project


def package_files() -> dict[str, bytes]:
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


@functools.lru_cache(maxsize=1)
def digest() -> str:
    """SHA-256 (hex) of the kit's version and every file ``package_files`` gives, names included;
    read once a process."""
    hashed = hashlib.sha256(project.version().encode() + b"\0")
    for name, data in package_files().items():
        hashed.update(name.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return hashed.hexdigest()
