"""The grader's private cache: files only its user can read, each signed so a change is noticed.

The cache lives in the grader user's own cache folder (``project.CACHE``, mode 0700), which
the sandbox never mounts and cannot reach at the ``files`` level; the sandbox's system call
filter refuses every change to files at every level.  Each file is also signed: an
HMAC-SHA256 of its key and content, with a random secret kept in a 0600 file of the folder.
A file whose signature does not match (edited, truncated, or written by anything without the
secret) is reported and made again.  This cannot stop code that runs as the grader's user
with no isolation at all (such code could read the secret, or edit the kit itself).  A cache
that cannot be read or written is skipped: the caller computes what it wanted.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import stat
from pathlib import Path
from typing import Callable, TypeVar

from grader import project

T = TypeVar("T")
KEY_FILE = "key"      # in each cache folder: the secret that signs its files (mode 0600)


def folder(name: str) -> Path:
    return project.CACHE / name


def secret(where: Path) -> bytes | None:
    """The folder's signing secret, made on first use; None if the cache cannot be trusted or used."""
    try:
        if not where.parent.exists():    # the cache itself, closed to other users too (not only its folders)
            where.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = where.stat()
        if info.st_uid != os.geteuid() or info.st_mode & 0o022:
            return None  # someone else could replace files in it
        path = where / KEY_FILE
        if not path.exists():
            temporary = where / f".{KEY_FILE}.{os.getpid()}.tmp"
            with contextlib.suppress(FileNotFoundError):
                temporary.unlink()
            import secrets   # only the first run of a cache folder makes its secret
            _write_private(temporary, secrets.token_hex(32).encode("ascii"))
            try:
                os.link(temporary, path)  # never replaces a secret another grader just made
            except FileExistsError:
                pass
            finally:
                temporary.unlink()
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(descriptor, "rb") as handle:
            info = os.fstat(handle.fileno())
            found = handle.read(200)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077 \
            or len(found) != 64:
        return None
    return found


def read(path: Path, key: str, key_secret: bytes, what: str) -> bytes | None:
    """The payload of a cached file if it exists and its signature holds, else None."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    signature, _, payload = data.partition(b"\n")
    try:
        if hmac.compare_digest(signature.decode("ascii"), "hmac-sha256:" + _signature(key_secret, key, payload)):
            return payload
    except UnicodeDecodeError:
        pass
    import logging   # only to warn: a grading run that finds its cache intact never loads it
    logging.getLogger(__name__).warning("hog: the cached %s %s failed their integrity check (changed since the "
                                        "grader wrote them); making them again", what, path)
    return None


def write(path: Path, key: str, key_secret: bytes, payload: bytes) -> None:
    """Write a signed file in one rename; a cache that cannot be written is skipped."""
    data = b"hmac-sha256:" + _signature(key_secret, key, payload).encode("ascii") + b"\n" + payload
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        _write_private(temporary, data)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()


def kept(name: str, file: str, key: str, what: str, make: Callable[[], T], *,
         load: Callable[[bytes], T | None], dump: Callable[[T], bytes], keep: tuple[str, int] | None = None) -> T:
    """What cache folder ``name`` keeps in ``file`` under ``key``, read back by ``load`` (None:
    not usable); else ``make()``, written by ``dump`` for next time, and only the newest
    ``keep = (pattern, count)`` files of the folder kept. A cache that cannot be used costs the making."""
    known = found(name, file, key, what, load)
    if known is not None:
        return known
    made = make()
    store(name, file, key, dump(made), keep)
    return made


def found(name: str, file: str, key: str, what: str, load: Callable[[bytes], T | None]) -> T | None:
    """What cache folder ``name`` keeps in ``file`` under ``key``, read back by ``load``; None when there is
    nothing usable (for a value made later than asked for: else ``kept``)."""
    where = folder(name)
    key_secret = secret(where)
    payload = read(where / file, key, key_secret, what) if key_secret is not None else None
    return load(payload) if payload is not None else None


def store(name: str, file: str, key: str, payload: bytes, keep: tuple[str, int] | None = None) -> None:
    """Keep ``payload`` in cache folder ``name``'s ``file`` under ``key``, and only the newest
    ``keep = (pattern, count)`` files of the folder; nothing when the cache cannot be used."""
    where = folder(name)
    key_secret = secret(where)
    if key_secret is None:
        return
    write(where / file, key, key_secret, payload)
    if keep is not None:
        prune(where, *keep)


def json_of(kind: type) -> Callable[[bytes], object]:
    """A ``load`` for ``kept``: the JSON value of the payload when it is exactly of ``kind``, else None."""
    def load(payload: bytes):
        try:
            value = json.loads(payload)
        except ValueError:
            return None
        return value if type(value) is kind else None
    return load


def prune(where: Path, pattern: str, keep: int) -> None:
    """Remove all but the newest ``keep`` files matching ``pattern``."""
    def age(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return 0.0
    matching = list(where.glob(pattern))
    if len(matching) <= keep:   # the common case: nothing to remove, and no file's age to read
        return
    for path in sorted(matching, key=age, reverse=True)[keep:]:
        with contextlib.suppress(OSError):
            path.unlink()


def _signature(key_secret: bytes, key: str, payload: bytes) -> str:
    return hmac.new(key_secret, key.encode("ascii") + b"\n" + payload, hashlib.sha256).hexdigest()


def _write_private(path: Path, data: bytes) -> None:
    """A new file only this user can read (fails if the name is taken)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(data)
