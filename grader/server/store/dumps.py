"""A consistent copy of the server's database while the server runs, and that copy put back.

SQLite is copied with its online backup API (``sqlite3.Connection.backup``: one read transaction, so the
copy is the database as it stood at one moment, writers going on meanwhile), never as a file. PostgreSQL is
copied with ``pg_dump`` in its custom format, from a snapshot this module exports and reads too: the rows it
counts are those in the dump. ``pg_restore`` puts a dump back in one transaction. What the backup needs to
know of the copy (its schema revision, its submissions) is read from the copy itself, never from the live
database after it.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url

from grader.errors import GraderFault, UsageError
from grader.server.store import db

SQLITE_COPY = "database.sqlite3"
POSTGRESQL_COPY = "database.dump"         # pg_dump --format=custom
TOOL_SECONDS = 3600                      # the longest a pg_dump or pg_restore may take
INSTALLED_POSTGRESQL = Path("/usr/lib/postgresql")   # Debian's and Ubuntu's: one bin/ for each major version
# Each submission's upload, as the copy lists it: where it is kept (uploads.folder) and what it should hold.
SUBMISSIONS = "SELECT id, assignment, filename, sha256 FROM submissions ORDER BY id"
REVISION = "SELECT version_num FROM alembic_version"


@dataclass(frozen=True)
class Copied:
    """What a copy of the database holds, read from the copy: its schema revision and its submissions, each
    ``(id, assignment, filename, sha256)``."""
    revision: str | None
    submissions: tuple[tuple[int, str, str, str], ...]


def kind(url: str) -> str:
    """``sqlite`` or ``postgresql``: the kind of database a URL names (as ``db.connect`` accepts them)."""
    return make_url(url).get_backend_name()


def sqlite_path(url: str) -> Path:
    """The file of a SQLite URL."""
    name = make_url(url).database
    if not name or name == ":memory:":
        raise UsageError(f"--database {db.shown(url)} names no file: a backup copies a database kept in a file")
    return Path(name)


def _read(connection, query: str):
    return connection.execute(query).fetchall() if isinstance(connection, sqlite3.Connection) \
        else connection.execute(text(query)).all()


def _what(connection) -> Copied:
    revision = _read(connection, REVISION)
    return Copied(revision[0][0] if revision else None,
                  tuple((int(i), str(a), str(f), str(s)) for i, a, f, s in _read(connection, SUBMISSIONS)))


def copy_sqlite(url: str, into: Path) -> Copied:
    """The live SQLite database of ``url`` copied into the new file ``into`` (a database of its own, in
    rollback-journal mode, so the copy is that one file)."""
    source_path = sqlite_path(url)
    if not source_path.is_file():
        raise UsageError(f"no database at {source_path}: this course's server has not run yet (or give the "
                         f"--database it runs with)")
    source = sqlite3.connect(os.fspath(source_path), timeout=db.BUSY_MS / 1000)
    target = sqlite3.connect(os.fspath(into))
    try:
        source.backup(target)          # every page in one step: one read transaction, one moment
        target.execute("PRAGMA journal_mode=DELETE")
        copied = _what(target)
    finally:
        target.close()
        source.close()
    return copied


def restore_sqlite(copy: Path, url: str) -> tuple[Path, str | None]:
    """The copy made the database of ``url`` (a file not there yet), brought to the newest migration; the file
    written and the revision it had. The file appears whole or not at all: it is migrated beside its place,
    then renamed into it."""
    target = sqlite_path(url)
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    staged = target.with_name(f".{target.name}.restoring")
    shutil.copyfile(copy, staged)
    os.chmod(staged, 0o600)
    try:
        opened = sqlite3.connect(staged)
        before = _what(opened).revision
        opened.close()
        engine = db.connect(f"sqlite:///{staged}")
        try:
            db.upgrade(engine)
        finally:
            engine.dispose()
        opened = sqlite3.connect(staged)
        opened.execute("PRAGMA journal_mode=DELETE")   # the write-ahead log folded back in: one file to rename
        opened.close()
        os.replace(staged, target)
    finally:
        for leftover in (staged, *(staged.with_name(staged.name + end) for end in ("-wal", "-shm", "-journal"))):
            leftover.unlink(missing_ok=True)
    return target, before


# PostgreSQL's tools


def _major(found: str) -> int:
    version = re.search(r"\(PostgreSQL\) (\d+)", found)
    return int(version[1]) if version else 0


def tool(name: str, server_major: int | None = None) -> Path:
    """The newest ``pg_dump`` or ``pg_restore`` here (on PATH or under /usr/lib/postgresql/*/bin); UsageError
    when there is none, or when it is of an older major version than the server (it refuses that server)."""
    candidates = {Path(found) for found in [shutil.which(name)] if found}
    candidates |= {each for each in INSTALLED_POSTGRESQL.glob(f"*/bin/{name}") if each.is_file()}
    versions = {}
    for each in candidates:
        try:
            said = subprocess.run([os.fspath(each), "--version"], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        versions[each] = _major(said.stdout)
    if not versions:
        raise UsageError(f"no {name} here (on PATH or in {INSTALLED_POSTGRESQL}/*/bin): install PostgreSQL's "
                         f"client programs (Debian: apt-get install postgresql-client)")
    best = max(versions, key=lambda each: (versions[each], os.fspath(each)))
    if server_major is not None and versions[best] < server_major:
        raise UsageError(f"{best} is of PostgreSQL {versions[best]}, older than the server's {server_major}, which "
                         f"it cannot copy: install the client programs of PostgreSQL {server_major} or later "
                         f"(Debian: postgresql-client-{server_major})")
    return best


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """The URL as libpq reads it (no driver, no password) and the environment that gives the password."""
    parsed = make_url(url)
    environment = {name: value for name, value in os.environ.items() if name != "PGPASSWORD"}
    if parsed.password:
        environment["PGPASSWORD"] = str(parsed.password)
    return parsed.set(drivername="postgresql", password=None).render_as_string(hide_password=False), environment


def _run(command: list[str], environment: dict[str, str], doing: str) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=TOOL_SECONDS,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise GraderFault(f"{Path(command[0]).name} did not finish {doing} within {TOOL_SECONDS} s") from None
    if done.returncode != 0:
        said = "\n".join(done.stderr.strip().splitlines()[-6:])
        raise UsageError(f"{Path(command[0]).name} failed {doing} (exit status {done.returncode}):\n{said}")


def copy_postgresql(engine: Engine, url: str, into: Path) -> Copied:
    """The PostgreSQL database of ``url`` dumped into ``into`` by pg_dump, from a snapshot of a transaction
    that reads what the dump holds before pg_dump takes the snapshot over."""
    dump = tool("pg_dump", _server_major(engine))
    address, environment = _libpq(url)
    with engine.connect().execution_options(isolation_level="REPEATABLE READ") as connection, connection.begin():
        snapshot = connection.execute(text("SELECT pg_export_snapshot()")).scalar()
        copied = _what(connection)
        _run([os.fspath(dump), "--format=custom", f"--snapshot={snapshot}", "--no-owner", "--no-privileges",
              f"--file={into}", f"--dbname={address}"], environment, f"copying {db.shown(url)}")
    return copied


def _server_major(engine: Engine) -> int:
    with engine.connect() as connection:
        return int(connection.execute(text("SHOW server_version_num")).scalar()) // 10000


def is_empty_postgresql(engine: Engine) -> bool:
    """Whether the PostgreSQL database holds no table of its users (a restore goes into an empty one)."""
    with engine.connect() as connection:
        return not connection.execute(text(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema NOT IN "
            "('pg_catalog', 'information_schema')")).scalar()


def restore_postgresql(copy: Path, engine: Engine, url: str) -> str | None:
    """The dump put into the empty database of ``url`` in one transaction (pg_restore), then brought to the
    newest migration; the revision it had. On a failure after pg_restore, what it made is dropped."""
    address, environment = _libpq(url)
    _run([os.fspath(tool("pg_restore", _server_major(engine))), "--single-transaction", "--exit-on-error", "--no-owner",
          "--no-privileges", f"--dbname={address}", os.fspath(copy)], environment, f"restoring into {db.shown(url)}")
    try:
        with engine.connect() as connection:
            before = _what(connection).revision
        db.upgrade(engine)
    except BaseException:
        drop_postgresql(engine)
        raise
    return before


def drop_postgresql(engine: Engine) -> None:
    """Every table of the users' schemas dropped: what a restore into an empty database made."""
    with engine.begin() as connection:
        tables = connection.execute(text(
            "SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) FROM information_schema.tables "
            "WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'")).scalars()
        for table in list(tables):
            connection.execute(text(f"DROP TABLE IF EXISTS {table} CASCADE"))
