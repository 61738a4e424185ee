"""``hog serve backup DEST`` and ``hog serve restore SRC``: a course server's state copied while it runs, and
put back into an empty course server folder.

A backup is a folder, readable by its owner alone::

    manifest.json        what, when, the kit's version, the schema revision, the database's kind, and the
                         sha256 of every other file (written last: a backup without it did not finish)
    database.sqlite3     SQLite's online backup of the database (or database.dump: pg_dump's custom format)
    server/...           the server folder's own files: secret_key (signs the session cookies), people.csv
                         (every sign-in link), and whatever else the server keeps there (keys to come)
    uploads/A/ID/FILE    the upload of each submission of the database's copy, copied after it

The database is copied first, then the uploads of its submissions: an upload is written before its row is
committed, so each row of the copy has its upload in the copy; an upload made after the database was copied
has no row there and is left out. A restore checks every file against the manifest before it writes anything, writes
the keys, the uploads and the database in that order, brings the database to the newest migration (a
backup of an older kit restores into a newer one), and on any failure removes what it wrote.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Engine

from grader import project
from grader.errors import UsageError
from grader.project.files import write_atomically
from grader.server.store import db, dumps, liveness

MANIFEST = "manifest.json"
WHAT = "hog serve backup"
FORMAT = 1
SERVER, UPLOADS = "server", "uploads"        # the backup's folders of the server's files and of the uploads
COPIES = {"sqlite": dumps.SQLITE_COPY, "postgresql": dumps.POSTGRESQL_COPY}
LIVE_ENDINGS = ("", "-wal", "-shm", "-journal")   # a SQLite database's files while it is open
CHUNK = 1024 * 1024


@dataclass(frozen=True)
class Summary:
    """What a backup holds (or a restore put back): for the line each verb prints."""
    database: str                      # sqlite or postgresql
    revision: str | None               # the schema revision of the copy
    submissions: int
    uploads: int
    server_files: tuple[str, ...]      # relative to server/
    missing: tuple[int, ...] = ()      # submissions of the copy whose upload was not found as its row says

    def said(self) -> str:
        keys = ", ".join(self.server_files) or "none"
        line = (f"{self.database} database (schema {self.revision or 'none'}, {self.submissions} submissions), "
                f"{self.uploads} uploads, server files: {keys}")
        if self.missing:
            shown = ", ".join(map(str, self.missing[:10])) + (" and more" if len(self.missing) > 10 else "")
            line += (f"; {len(self.missing)} submissions had no upload matching their sha256 in server/uploads "
                     f"(ids {shown})")
        return line


def _folder(path: Path, made: list[Path] | None = None) -> None:
    """``path`` and the folders above it that are missing, each made readable by its owner alone."""
    missing = []
    while not path.exists():
        missing.append(path)
        path = path.parent
    for each in reversed(missing):
        each.mkdir(mode=0o700)
        each.chmod(0o700)
        if made is not None:
            made.append(each)


def _sha256(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _copy(source: Path, target: Path, made: list[Path] | None = None) -> str:
    """``source`` copied into the new file ``target`` (mode 0600, flushed to disk); its sha256."""
    _folder(target.parent, made)
    digest = hashlib.sha256()
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    if made is not None:
        made.append(target)
    with os.fdopen(os.open(source, os.O_RDONLY | os.O_NOFOLLOW), "rb") as reading, \
            os.fdopen(descriptor, "wb") as writing:
        while chunk := reading.read(CHUNK):
            digest.update(chunk)
            writing.write(chunk)
        writing.flush()
        os.fsync(writing.fileno())
    return digest.hexdigest()


def _files(folder: Path) -> list[Path]:
    """The regular files under ``folder`` (symbolic links are not followed), sorted; none if it is missing."""
    found = []
    for where, folders, names in os.walk(folder):
        folders.sort()
        found += [Path(where, name) for name in sorted(names) if Path(where, name).is_file()
                  and not Path(where, name).is_symlink()]
    return found


def _own_files(server: Path, url: str) -> list[Path]:
    """The server folder's own state: every file but the uploads, the live SQLite database's files, the
    running graders' locks (``liveness``: they say who runs on this machine now) and a write's temporary
    (``.NAME.HEX.tmp``)."""
    live = {server / f"{db.FILE}{ending}" for ending in LIVE_ENDINGS}
    if dumps.kind(url) == "sqlite":
        database = dumps.sqlite_path(url).absolute()
        live |= {database.with_name(database.name + ending) for ending in LIVE_ENDINGS}
    return [path for path in _files(server)
            if path.absolute() not in {each.absolute() for each in live}
            and path.relative_to(server).parts[0] not in (UPLOADS, liveness.FOLDER)
            and not (path.name.startswith(".") and path.name.endswith((".tmp", ".restoring")))]


def backup(*, course: Path, url: str, dest: Path) -> Summary:
    """A backup of the server of ``course`` over ``url`` (running or not) in the new folder ``dest``."""
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise UsageError(f"{dest} already exists and is not an empty folder: a backup goes into a new folder "
                         f"(name another, e.g. one with today's date)")
    made = not dest.exists()
    _folder(dest)
    dest.chmod(0o700)
    try:
        return _write(course / "server", url, dest)
    except BaseException:
        if made:
            shutil.rmtree(dest, ignore_errors=True)
        else:
            for each in dest.iterdir():
                shutil.rmtree(each) if each.is_dir() and not each.is_symlink() else each.unlink()
        raise


def _write(server: Path, url: str, dest: Path) -> Summary:
    kind = dumps.kind(url)
    copy = dest / COPIES[kind]
    os.close(os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))   # the copy's mode, before it holds any
    if kind == "sqlite":
        copied = dumps.copy_sqlite(url, copy)
    else:
        engine = db.connect(url)
        try:
            copied = dumps.copy_postgresql(engine, url, copy)
        finally:
            engine.dispose()
    files = {copy.name: _sha256(copy)}
    own = _own_files(server, url)
    for path in own:
        files[f"{SERVER}/{path.relative_to(server).as_posix()}"] = _copy(path, dest / SERVER / path.relative_to(server))
    # After the database, the folder of each submission of the copy: an upload is written before its row is
    # committed, so every row's is there. Those of later rows are left out: restored, they would hold the
    # folder of the id the restored database gives its next submission (SQLite gives the highest one plus 1).
    sent = [path for number, assignment, _, _ in copied.submissions
            for path in _files(server / UPLOADS / assignment / str(number))]
    for path in sent:
        name = f"{UPLOADS}/{path.relative_to(server / UPLOADS).as_posix()}"
        files[name] = _copy(path, dest / name)
    missing = tuple(number for number, assignment, filename, sha256 in copied.submissions
                    if files.get(f"{UPLOADS}/{assignment}/{number}/{filename}") != sha256)
    summary = Summary(kind, copied.revision, len(copied.submissions), len(sent),
                      tuple(path.relative_to(server).as_posix() for path in own), missing)
    manifest = {"what": WHAT, "format": FORMAT, "made_at": db.now().isoformat(timespec="seconds"),
                "kit_version": project.version(), "database": kind, "schema_revision": copied.revision,
                "submissions": summary.submissions, "counts": {"uploads": summary.uploads, "server": len(own)},
                "missing_uploads": list(missing), "files": files}
    write_atomically(dest / MANIFEST, json.dumps(manifest, indent=1) + "\n", mode=0o600)
    directory = os.open(dest, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
    return summary


def _damaged(source: Path, why: str) -> UsageError:
    return UsageError(f"{source} is not a backup that can be restored: {why}")


def _name(source: Path, name: str) -> PurePosixPath:
    """A path the manifest lists, checked to stay inside the backup and in one of its parts."""
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or "" in path.parts or "\\" in name or not (
            name in COPIES.values() or (len(path.parts) > 1 and path.parts[0] in (SERVER, UPLOADS))):
        raise _damaged(source, f"its manifest lists {name[:100]!r}, which is no file of a backup")
    return path


def _plain(source: Path) -> None:
    """Every entry inside the backup a folder or a regular file: a symbolic link (which a restore would follow
    out of the backup), a device, a pipe or a socket is refused, named."""
    for where, folders, names in os.walk(source):
        for name in sorted(folders + names):
            entry = Path(where, name)
            kind = os.lstat(entry).st_mode
            if stat.S_ISLNK(kind) or not (stat.S_ISDIR(kind) or stat.S_ISREG(kind)):
                what = "a symbolic link" if stat.S_ISLNK(kind) else "a device, pipe or socket"
                raise _damaged(source, f"it holds {entry.relative_to(source).as_posix()}, {what}, which no backup "
                                       f"holds: a restore copies regular files only (was the backup changed?)")


def check(source: Path) -> dict:
    """The manifest of the backup ``source``, once every file it lists is there with its sha256 and no other
    file is, and it holds nothing but folders and regular files; UsageError saying what differs otherwise."""
    _plain(source)
    try:
        manifest = json.loads((source / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _damaged(source, f"it holds no {MANIFEST} (not a folder hog serve backup wrote, or a backup that "
                               f"did not finish)") from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise _damaged(source, f"its {MANIFEST} cannot be read ({error})") from None
    if not isinstance(manifest, dict) or manifest.get("what") != WHAT or not isinstance(manifest.get("files"), dict):
        raise _damaged(source, f"its {MANIFEST} is not one hog serve backup writes")
    if manifest.get("format") != FORMAT:
        raise _damaged(source, f"its format is {manifest.get('format')!r}, this kit reads format {FORMAT} (restore "
                               f"it with the kit that made it, {manifest.get('kit_version')})")
    if manifest.get("database") not in COPIES or COPIES[manifest["database"]] not in manifest["files"]:
        raise _damaged(source, f"its {MANIFEST} names no database copy")
    listed = {_name(source, name): sha256 for name, sha256 in manifest["files"].items()}
    present = {PurePosixPath(path.relative_to(source).as_posix()) for path in _files(source)}
    present.discard(PurePosixPath(MANIFEST))
    for extra in sorted(present - set(listed))[:1]:
        raise _damaged(source, f"it holds {extra}, which its manifest does not list (was the backup changed?)")
    for name, sha256 in sorted(listed.items()):
        path = source / name
        if not path.is_file():
            raise _damaged(source, f"{name} is missing (its manifest lists it)")
        if _sha256(path) != sha256:
            raise _damaged(source, f"{name} does not match its sha256 in the manifest: it was changed or damaged "
                                   f"since the backup was written (restore from another backup)")
    revision = manifest.get("schema_revision")
    try:
        known = revision is None or (isinstance(revision, str)
                                     and ScriptDirectory(str(db.MIGRATIONS)).get_revision(revision) is not None)
    except CommandError:
        known = False
    if not known:
        raise _damaged(source, f"its database has schema {revision!r}, which this kit ({project.version()}) does "
                               f"not know: it was made by a newer kit ({manifest.get('kit_version')}); restore it "
                               f"with that kit or a newer one")
    return manifest


def _occupied(server: Path, url: str, engine: Engine | None) -> str | None:
    """Why the course's server cannot take a restore (it already holds something), or None."""
    held = _files(server) + [path for path in server.rglob("*") if path.is_symlink()] if server.is_dir() else []
    if held:
        names = ", ".join(path.relative_to(server).as_posix() for path in held[:3])
        return f"{project.display(server)} already holds {names}{' and more' if len(held) > 3 else ''}"
    if engine is None and dumps.sqlite_path(url).exists():
        return f"{dumps.sqlite_path(url)} already exists"
    if engine is not None and not dumps.is_empty_postgresql(engine):
        return f"the database {db.shown(url)} already holds tables"
    return None


def restore(*, course: Path, url: str, source: Path) -> tuple[Summary, str]:
    """The backup ``source`` put back as the server of ``course`` over ``url`` (empty, both); what it holds
    and the schema revision the database was brought to."""
    manifest = check(source)
    kind = dumps.kind(url)
    if kind != manifest["database"]:
        raise UsageError(f"{source} holds a {manifest['database']} database; {db.shown(url)} is {kind} (give "
                         f"--database of a {manifest['database']} database, or none for SQLite in server/)")
    server = course / "server"
    engine = db.connect(url) if kind == "postgresql" else None
    try:
        occupied = _occupied(server, url, engine)
        if occupied:
            raise UsageError(f"cannot restore into this course: {occupied}. A restore goes into an empty course "
                             f"server folder and an empty database: move those away, or restore into a new course "
                             f"folder")
        written: list[Path] = []
        try:
            for name, sha256 in sorted(manifest["files"].items()):
                if name in COPIES.values():
                    continue
                path = PurePosixPath(name)
                target = server.joinpath(*path.parts[1:]) if path.parts[0] == SERVER else server.joinpath(*path.parts)
                if _copy(source / name, target, written) != sha256:
                    raise _damaged(source, f"{name} changed while it was restored")
            copy = source / COPIES[kind]
            if engine is None:
                restored, before = dumps.restore_sqlite(copy, url)
                written.append(restored)
            else:
                before = dumps.restore_postgresql(copy, engine, url)
        except BaseException:
            for path in reversed(written):
                path.rmdir() if path.is_dir() else path.unlink(missing_ok=True)
            raise
    finally:
        if engine is not None:
            engine.dispose()
    head = ScriptDirectory(str(db.MIGRATIONS)).get_current_head()
    names = [name for name in manifest["files"] if name.startswith(f"{SERVER}/")]
    summary = Summary(kind, before, int(manifest.get("submissions") or 0), int(manifest["counts"]["uploads"]),
                      tuple(name.removeprefix(f"{SERVER}/") for name in names))
    return summary, head
