"""The database: an engine for a URL (SQLite in the course folder by default, or PostgreSQL), the schema
brought to the newest migration at start (Alembic's command API), and sessions handed to each request."""

from __future__ import annotations

import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Sequence

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, InterfaceError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from grader.errors import UsageError

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
FILE = "hog.sqlite3"
BUSY_MS = 30_000    # how long an SQLite writer waits for another to finish
IDLE_IN_TRANSACTION_SECONDS = 60   # PostgreSQL ends a transaction whose client is silent this long
IMMEDIATE = "hog_write"   # an execution option: this transaction writes (SQLite: BEGIN IMMEDIATE)


def default_url(folder: Path) -> str:
    """SQLite in the course's server folder."""
    return f"sqlite:///{folder / FILE}"


def connect(url: str) -> Engine:
    """An engine for ``url``: SQLite (WAL, synchronous FULL: a commit is on disk) or PostgreSQL (psycopg 3)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise UsageError(f"--database {url!r} is not a database URL (e.g. sqlite:///server/hog.sqlite3 or "
                         f"postgresql://user@host/hog)") from None
    if parsed.get_backend_name() == "sqlite":
        if parsed.database:
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        engine = create_engine(parsed, connect_args={"timeout": BUSY_MS / 1000})

        @event.listens_for(engine, "connect")
        def _pragmas(connection, _record) -> None:
            connection.isolation_level = None   # transactions are begun below, not by the driver
            cursor = connection.cursor()
            for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", f"busy_timeout={BUSY_MS}"):
                cursor.execute(f"PRAGMA {pragma}")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _begin(connection) -> None:
            # A transaction that will write takes the write lock first: one that read first and wrote
            # later would fail at once (not wait) whenever another wrote in between.
            immediate = connection.get_execution_options().get(IMMEDIATE)
            connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
        return engine
    if parsed.get_backend_name() == "postgresql":
        # A transaction whose client stopped answering (a killed process whose socket something else still
        # holds) would keep its rows locked for ever, and a claim skips locked rows: the server ends it.
        given = parsed.query.get("options", ())   # a URL that repeats options= gives a tuple of them
        options = " ".join([*([given] if isinstance(given, str) else given),
                            f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_SECONDS}s"])
        return create_engine(parsed.set(drivername="postgresql+psycopg"), pool_pre_ping=True,
                             connect_args={"options": options})
    raise UsageError(f"--database {parsed.get_backend_name()}: the server keeps its data in SQLite or PostgreSQL "
                     f"(give sqlite:///PATH or postgresql://...)")


def gone(error: BaseException) -> bool:
    """Whether a database error is the database not answering (PostgreSQL restarting, a connection it dropped,
    SQLite's file out of reach or its disk full: the driver's OperationalError and InterfaceError, or a
    connection found dead), rather than a fault of the kit."""
    return isinstance(error, (OperationalError, InterfaceError)) or (
        isinstance(error, DBAPIError) and error.connection_invalidated)


def patiently(call: Callable, *args, seconds: float, pauses: Sequence[float],
              said: Callable[[BaseException, float], object] | None = None):
    """``call(*args)``, tried again while the database does not answer (``gone``) for up to ``seconds``,
    waiting each of ``pauses`` in turn between tries (the last repeats) and telling ``said(error, pause)`` of
    each wait; past that, or on any other error, the error is raised."""
    deadline, waits, pause = time.monotonic() + seconds, iter(pauses), pauses[0]
    while True:
        try:
            return call(*args)
        except DBAPIError as error:
            if not gone(error) or time.monotonic() > deadline:
                raise
            pause = next(waits, pause)
            if said is not None:
                said(error, pause)
            time.sleep(pause)


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply every migration the database has not had yet (none: it is current), up to ``revision``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def writing(session: Session) -> None:
    """Say, before its first query, that the session's transaction will write."""
    session.connection(execution_options={IMMEDIATE: True})


def sessions(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def now() -> datetime:
    return datetime.now(timezone.utc)


def utc(moment: datetime | None) -> datetime | None:
    """A time read back from the database, in UTC (SQLite keeps no time zone: what it keeps is UTC)."""
    if moment is None:
        return None
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)


def shown(url: str) -> str:
    """A database URL as it may be printed (no password)."""
    return make_url(url).render_as_string(hide_password=True)
