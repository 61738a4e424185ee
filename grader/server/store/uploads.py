"""What a student uploads: a ``.py`` file, kept as the assignment's ``hog.py`` whatever it was named (a
browser's download may have made it ``hog (1).py``), or a zip of the folder holding hog.py; checked before
anything is kept, the name it was sent as kept with it.

Refused, with a message and nothing stored: more than ``MAX_UPLOAD`` bytes, a name with a folder in it or
over ``MAX_NAME`` characters, a name ending neither in .py nor in .zip, a hog.py that is not UTF-8 text,
a zip that cannot be read, holds no hog.py, has a member outside its folder or not a plain file, or would
unpack to more than ``MAX_UNPACKED`` (a zip bomb). An accepted upload is written and flushed to disk (file
and folder) before it is acknowledged.
"""

from __future__ import annotations

import io
import os
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

MAX_UPLOAD = 1024 * 1024               # 1 MiB, the file as sent
MAX_UNPACKED = 8 * 1024 * 1024         # a zip's members together, unpacked
MAX_MEMBERS = 200
MAX_NAME = 255                         # characters of the name an upload was sent as (Submission.sent_as)
HOG = "hog.py"
ZIP = "submission.zip"


class Refused(Exception):
    """An upload that is not kept; ``str()`` says why and what to send instead."""


@dataclass(frozen=True)
class Upload:
    filename: str      # HOG or ZIP: what the file is kept as
    content: bytes
    sent_as: str       # the name it was uploaded as


def _python(text: bytes, shown: str) -> None:
    if b"\0" in text:
        raise Refused(f"{shown} is not Python source (it holds NUL bytes): upload your hog.py")
    try:
        text.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Refused(f"{shown} is not UTF-8 text (byte {error.start}): save it as UTF-8 and upload it again") \
            from None


def _zip(content: bytes) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as opened:
            members = opened.infolist()
            if len(members) > MAX_MEMBERS:
                raise Refused(f"the zip holds {len(members)} files; at most {MAX_MEMBERS} are taken")
            total = 0
            for member in members:
                path = PurePosixPath(member.filename)
                if "\\" in member.filename or path.is_absolute() or ".." in path.parts:
                    raise Refused(f"the zip member {member.filename[:100]!r} would be written outside its folder")
                kind = stat.S_IFMT(member.external_attr >> 16)
                if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
                    raise Refused(f"the zip member {member.filename[:100]!r} is not a plain file")
                total += member.file_size
                if total > MAX_UNPACKED:
                    raise Refused(f"the zip unpacks to more than {MAX_UNPACKED // (1024 * 1024)} MiB "
                                  f"(zip only your project folder)")
            hog = _hog_member(members)
            if hog is None:
                raise Refused("the zip holds no hog.py (zip the folder that holds it)")
            with opened.open(hog) as source:
                _python(source.read(MAX_UPLOAD + 1), f"the zip's {hog.filename}")
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError, EOFError) as error:
        raise Refused(f"the file is not a zip that can be read ({error})") from None


def _hog_member(members: list[zipfile.ZipInfo]) -> zipfile.ZipInfo | None:
    """The zip's hog.py: the one nearest its top (none under __MACOSX)."""
    found = [member for member in members if PurePosixPath(member.filename).name == HOG and not member.is_dir()
             and PurePosixPath(member.filename).parts[0] != "__MACOSX"]
    return min(found, key=lambda member: len(PurePosixPath(member.filename).parts), default=None)


def hog_text(kept: Path) -> str:
    """The text of a kept upload's hog.py (``kept``: the file, hog.py or the zip holding it), as checked when
    it was taken; an upload missing or unreadable reads as ''."""
    try:
        if kept.name != ZIP:
            return kept.read_text(encoding="utf-8", errors="replace")
        with zipfile.ZipFile(kept) as opened:
            member = _hog_member(opened.infolist())
            if member is None:
                return ""
            with opened.open(member) as source:
                return source.read(MAX_UPLOAD).decode("utf-8", errors="replace")
    except (OSError, zipfile.BadZipFile):
        return ""


def check(name: str | None, content: bytes) -> Upload:
    """The upload as it will be kept, or Refused."""
    if not name:
        raise Refused("no file was sent (send hog.py in the form field 'file')")
    if "/" in name or "\\" in name or "\0" in name or name in (".", ".."):
        raise Refused(f"the file name {name[:100]!r} has a folder in it: send hog.py itself")
    if len(name) > MAX_NAME:
        raise Refused(f"the file name is over {MAX_NAME} characters ({name[:40]!r}...): rename it hog.py")
    if len(content) > MAX_UPLOAD:
        raise Refused(f"the file is over {MAX_UPLOAD // 1024} KiB ({len(content)} bytes): send hog.py alone")
    if name.lower().endswith(".py"):
        _python(content, HOG if name == HOG else repr(name[:100]))
        return Upload(HOG, content, name)
    if name.lower().endswith(".zip"):
        _zip(content)
        return Upload(ZIP, content, name)
    raise Refused(f"{name[:100]!r} is neither a .py file nor a .zip: upload your hog.py")


def folder(course: Path, assignment: str, submission: int) -> Path:
    """Where a submission's upload is kept: ``server/uploads/ASSIGNMENT/ID/``."""
    return course / "server" / "uploads" / assignment / str(submission)


def store(into: Path, upload: Upload) -> Path:
    """Write the upload into its folder and flush file and folders to disk; its path. Nothing is left when
    it fails (a full disk): the caller's row is not committed, and its id may be given again."""
    into.mkdir(parents=True, mode=0o700, exist_ok=True)   # there already: left by an upload never committed
    target = into / upload.filename
    target.unlink(missing_ok=True)   # this id was just given to the caller: no kept submission owns the file
    try:
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(upload.content)
            handle.flush()
            os.fsync(handle.fileno())
        for each in (into, into.parent):
            directory = os.open(each, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
    except BaseException:
        discard(into, upload)
        raise
    return target


def discard(into: Path, upload: Upload) -> None:
    """Remove an upload that is not kept after all: its file, and its folder if nothing else is in it."""
    (into / upload.filename).unlink(missing_ok=True)
    try:
        into.rmdir()
    except OSError:
        pass
