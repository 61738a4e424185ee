"""What in a batch folder is a submission, what is not (and why), and how a .zip becomes one.

A submission is a folder, a ``.py`` file, or a ``.zip`` file (what a student
uploads to Gradescope). Anything else is skipped, with the reason, so that an
instructor sees it instead of wondering where a student went. A zip is
extracted the way Gradescope would use it, but safely: into a private folder,
regular files only, no member outside that folder, a cap on members and bytes,
on the zip's own size and its list of members (checked before that list is read),
and on names (length, nesting; no member both a file and a folder). Whatever in a
zip cannot be used is the submission's zero with the reason, never a grader fault.
"""

from __future__ import annotations

import hashlib
import os
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

MAX_MEMBERS = 1000
MAX_BYTES = 20 * 1024 * 1024          # all members together, uncompressed
MAX_ARCHIVE_BYTES = 2 * MAX_BYTES     # the zip file itself: its members compressed, their names and headers
# Its list of members (the zip's central directory), which reading a zip turns into an object per member
# before any can be counted: 1,000 members with names of 255 bytes take a quarter of this. A zip listing
# 3,000,000 members made the grader hold 1.8 GB.
MAX_DIRECTORY_BYTES = 1 << 20
MAX_NAME_BYTES = 1024                 # a member's name (each of its parts at most 255, the file system's limit)
MAX_NESTING = 32                      # folders a member may be in
IGNORED_IN_ZIP = "__MACOSX"           # resource forks a Mac adds to a zip, never the student's code


@dataclass(frozen=True)
class Skipped:
    """An entry of the batch folder that is not a submission, and why."""
    name: str
    why: str


class UnusableZip(Exception):
    """A zip the grader refuses to extract; the message says why (the submission's fault)."""


def scan(folder: Path, *, out: Path | None = None) -> tuple[list[Path], list[Skipped]]:
    """The submissions in ``folder`` (sorted), and every other entry with the reason it was skipped."""
    found, skipped = [], []
    out_folder = out.resolve() if out is not None else None
    for entry in sorted(folder.iterdir()):
        if out_folder is not None and entry.resolve() == out_folder:
            continue
        why = _not_a_submission(entry)
        if why is None:
            found.append(entry)
        else:
            skipped.append(Skipped(entry.name, why))
    return found, skipped


def _not_a_submission(entry: Path) -> str | None:
    if entry.name.startswith("."):
        return "a hidden file (its name starts with '.')"
    try:
        mode = entry.stat().st_mode
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    if stat.S_ISDIR(mode):
        return None
    if not stat.S_ISREG(mode):
        return "not a regular file or a folder"
    if entry.suffix == ".py" or entry.suffix.lower() == ".zip":
        return None
    return "not a submission (a submission is a folder, a .py file or a .zip)"


def submission_name(submission: Path) -> str:
    """What a submission is called in results, rosters and contests: a file's stem, a folder's name."""
    return submission.stem if submission.is_file() else submission.name


def result_name(submission: Path) -> str:
    return submission_name(submission) + ".json"


def clashes(found: list[Path]) -> list[list[Path]]:
    """Groups of submissions that would share one result file (``alice/`` and ``alice.py``)."""
    by_name: dict[str, list[Path]] = {}
    for submission in found:
        by_name.setdefault(result_name(submission), []).append(submission)
    return [group for group in by_name.values() if len(group) > 1]


def digest(submission: Path) -> str:
    """SHA-256 over the files the grader reads: a .py or .zip file, or a folder's top-level *.py files."""
    sha = hashlib.sha256()
    files = sorted(submission.glob("*.py")) if submission.is_dir() else [submission]
    for path in files:
        try:
            if path.is_symlink():
                content = hashlib.sha256(b"link:" + os.readlink(path).encode())
            else:
                # in pieces (a large file never sits in memory); a FIFO is not waited on
                with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC), "rb") as handle:
                    regular = stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
                    content = hashlib.file_digest(handle, "sha256") if regular else hashlib.sha256(b"not a file")
        except OSError as error:
            content = hashlib.sha256(f"unreadable: {error.strerror}".encode())
        sha.update(path.name.encode("utf-8") + b"\0" + content.digest())
    return sha.hexdigest()


# ------------------------------------------------------------------ zips


def extract(archive: Path, into: Path) -> Path | None:
    """Extract a zip into the folder ``into`` (which must be private); the folder holding its hog.py
    (the shallowest one outside __MACOSX), or None if it holds none. Raises UnusableZip."""
    try:
        _check_archive(archive)
        with zipfile.ZipFile(archive) as opened:
            members = opened.infolist()
            _check(members)
            for member in members:
                if member.is_dir() or _ignored(member.filename):
                    continue
                _extract_member(opened, member, into)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError, EOFError,
            zlib.error) as error:
        raise UnusableZip(f"{archive.name} is not a zip that can be read ({error})") from None
    except UnicodeDecodeError:   # a name marked as UTF-8 that is not
        raise UnusableZip(f"{archive.name} names a member in text that is not UTF-8, though it says it is") from None
    except FileExistsError as error:
        raise UnusableZip(f"the zip holds {Path(error.filename).name!r} twice") from None
    found = sorted(into.rglob("hog.py"), key=lambda path: (len(path.parts), str(path)))
    found = [path for path in found if path.is_file() and not path.is_symlink()]
    return found[0].parent if found else None


def _ignored(name: str) -> bool:
    return PurePosixPath(name).parts[:1] == (IGNORED_IN_ZIP,)


def _check_archive(archive: Path) -> None:
    """Refuse, before reading its list of members, a zip file too large for its members to be within bounds,
    or whose list is (its end record, the last bytes of the file, says how long the list is)."""
    size = archive.stat().st_size
    if size > MAX_ARCHIVE_BYTES:
        raise UnusableZip(f"the zip is {size / (1 << 20):.0f} MB; at most {MAX_ARCHIVE_BYTES >> 20} MB are accepted")
    with open(archive, "rb") as handle:
        end = zipfile._EndRecData(handle)   # as zipfile.ZipFile reads it, zip64 included; None: not a zip
    if end is not None and end[zipfile._ECD_SIZE] > MAX_DIRECTORY_BYTES:
        raise UnusableZip(f"the zip's list of members takes {end[zipfile._ECD_SIZE]:,} bytes, more than "
                          f"{MAX_MEMBERS} members need; at most {MAX_MEMBERS} are accepted")


def _check(members: list[zipfile.ZipInfo]) -> None:
    """Refuse, before writing anything, a zip that is too big or has a member that is not a plain file."""
    if len(members) > MAX_MEMBERS:
        raise UnusableZip(f"the zip holds {len(members)} members; at most {MAX_MEMBERS} are accepted")
    total = 0
    files = {PurePosixPath(member.filename).parts for member in members if not member.filename.endswith("/")}
    for member in members:
        name = member.filename
        path = PurePosixPath(name)
        if not path.parts:
            raise UnusableZip("the zip holds a member with no name")
        if "\\" in name or "\0" in name or path.is_absolute() or ".." in path.parts or name.startswith("/"):
            raise UnusableZip(f"the zip member {name[:100]!r} would be written outside its folder")
        if len(name.encode("utf-8", "surrogateescape")) > MAX_NAME_BYTES or len(path.parts) > MAX_NESTING + 1 \
                or any(len(part.encode("utf-8", "surrogateescape")) > 255 for part in path.parts):
            raise UnusableZip(f"the zip member {name[:100]!r} has a name longer or deeper than accepted (parts of "
                              f"at most 255 bytes, {MAX_NESTING} folders, {MAX_NAME_BYTES} bytes in all)")
        inside = next((path.parts[:end] for end in range(1, len(path.parts)) if path.parts[:end] in files), None)
        if inside is not None:
            raise UnusableZip(f"the zip holds {'/'.join(inside)[:100]!r} both as a file and as a folder")
        kind = stat.S_IFMT(member.external_attr >> 16)
        if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
            what = "a symbolic link" if kind == stat.S_IFLNK else "not a regular file"
            raise UnusableZip(f"the zip member {name[:100]!r} is {what}; only files and folders are accepted")
        total += member.file_size
        if total > MAX_BYTES:
            raise UnusableZip(f"the zip's files add up to more than {MAX_BYTES // (1024 * 1024)} MB")


def _extract_member(opened: zipfile.ZipFile, member: zipfile.ZipInfo, into: Path) -> None:
    """One regular member, written as a new file (never through a link), at most its declared size."""
    target = into.joinpath(*PurePosixPath(member.filename).parts)
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(descriptor, "wb") as out, opened.open(member) as source:
        remaining = member.file_size
        while chunk := source.read(min(65536, remaining + 1)):
            remaining -= len(chunk)
            if remaining < 0:  # more bytes than the zip declared
                raise UnusableZip(f"the zip member {member.filename[:100]!r} is larger than it says")
            out.write(chunk)

