"""A course folder with a server config, its app over a fresh database (SQLite, or PostgreSQL: a real
server started here as the ``postgres`` user, or one given in HOG_TEST_POSTGRES_URL), and signed-in people."""

from __future__ import annotations

import functools
import io
import os
import re
import secrets
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("flask", reason="the course server's libraries: pip install 'hog-kit[server]'")

from alembic import command                                  # noqa: E402
from alembic.config import Config                            # noqa: E402

from grader import project                                   # noqa: E402
from grader.classroom.roster import Student                   # noqa: E402
from grader.sandbox import scratch_space                      # noqa: E402
from grader.server.course import people   # noqa: E402
from grader.server.lti import keys                            # noqa: E402
from grader.server.store import db
from grader.server.web.app import create_app                      # noqa: E402
from grader.spec import course as course_config               # noqa: E402

SOLUTION = project.PACKAGE.parent / "solution" / "sp19" / "hog.py"
# Debian's PostgreSQL (apt-get install postgresql): the newest version installed, or HOG_TEST_POSTGRES_BIN.
PG_BIN = Path(os.environ.get("HOG_TEST_POSTGRES_BIN") or max(
    Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    default=Path("/usr/lib/postgresql/15/bin")))
CONFIG = """name = "Server course"
variants = ["sp19"]

[server]
url = "http://hog.test"

[assignments.hog]
variant = "sp19"
due = 2099-01-01T00:00:00Z
late_days = 2
penalty_per_day = 0.5
submissions_per_hour = 4

[assignments.past]
variant = "sp19"
due = 2001-01-01T00:00:00Z
late_days = 1
"""


def make_course(tmp_path: Path) -> Path:
    """A course folder with the server config above, chosen as this run's course."""
    folder = tmp_path / "course"
    folder.mkdir()
    (folder / project.CONFIG_NAME).write_text(CONFIG)
    project.use(str(folder))
    return folder


@pytest.fixture
def course(tmp_path):
    yield make_course(tmp_path)
    project.use()


_TOOL_KEY = functools.cache(keys._made)   # the tool's LTI key, made once in a test process


@pytest.fixture(autouse=True)
def one_tool_key(monkeypatch):
    """Every course of a test process is given the same LTI tool key (written to its server/ as a new one
    would be): making an RSA key takes 50-150 ms, which each test of a launch paid again."""
    monkeypatch.setattr(keys, "_made", _TOOL_KEY)


def _postgres_binaries() -> bool:
    return (PG_BIN / "initdb").is_file() and (PG_BIN / "pg_ctl").is_file()


@pytest.fixture(scope="session")
def postgres():
    """The URL of a PostgreSQL server's maintenance database (``postgres``), for the session."""
    given = os.environ.get("HOG_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    if not _postgres_binaries():
        if os.environ.get("HOG_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"HOG_REQUIRE_POSTGRES=1 but no PostgreSQL in {PG_BIN} (apt-get install postgresql)")
        pytest.skip(f"no PostgreSQL binaries in {PG_BIN} (apt-get install postgresql, or set HOG_TEST_POSTGRES_URL)")
    # The postgres user must pass every folder on the way, whatever the mode of /tmp (0700 on some machines).
    base = scratch_space.passable_folder("hog-pg-") if os.geteuid() == 0 else Path(tempfile.mkdtemp(prefix="hog-pg-"))
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_user:
        shutil.chown(base, "postgres")
    data, sockets = base / "data", base
    try:
        subprocess.run([*as_user, str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "hog", "-E", "UTF8"],
                       check=True, capture_output=True, env=_environment())
        subprocess.run([*as_user, str(PG_BIN / "pg_ctl"), "-D", str(data), "-w", "-l", str(base / "log"), "-o",
                        f"-k {sockets} -c listen_addresses='' -c fsync=off", "start"], check=True, capture_output=True,
                       env=_environment())
        yield f"postgresql://hog@/postgres?host={sockets}"
    finally:
        subprocess.run([*as_user, str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True, env=_environment())
        shutil.rmtree(base, ignore_errors=True)


def _environment() -> dict[str, str]:
    """This process's environment but pytest's name of the running test, which a parametrized test's values make
    as long as they are (a MiB upload's): exec refuses an environment that large."""
    return {name: value for name, value in os.environ.items() if name != "PYTEST_CURRENT_TEST"}


def fresh_postgres_database(maintenance: str) -> str:
    """A new, empty database on the server of ``maintenance``; its URL."""
    import psycopg   # the PostgreSQL driver, only where PostgreSQL runs
    name = f"hog_{secrets.token_hex(4)}"
    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return re.sub(r"/postgres\?", f"/{name}?", maintenance, count=1)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def any_database(request, course):
    """Each test that takes it runs on SQLite and on PostgreSQL (a server started: slow, so only
    in the whole suite, as CI runs it)."""
    if request.param == "sqlite":
        return db.default_url(course / "server")
    return fresh_postgres_database(request.getfixturevalue("postgres"))


@pytest.fixture
def database(course):
    return db.default_url(course / "server")


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """A SQLite database with every migration applied, made once: each test's SQLite starts as a copy of it
    (applying the migrations takes longer than most server tests)."""
    file = tmp_path_factory.mktemp("migrated") / db.FILE
    engine = db.connect(f"sqlite:///{file}")
    db.upgrade(engine)
    engine.dispose()
    return file


def upgraded_to(engine, revision: str) -> None:
    """The database brought to the schema of ``revision`` (an older one, for a migration's test)."""
    config = Config()
    config.set_main_option("script_location", str(db.MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def make_app(course: Path, url: str, migrated: Path | None = None):
    """The app over ``url``; a SQLite file not there yet starts as a copy of ``migrated`` where given."""
    target = Path(url.removeprefix("sqlite:///")) if url.startswith("sqlite:///") else None
    if migrated is not None and target is not None and not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(migrated, target)
    engine = db.connect(url)
    db.upgrade(engine)   # nothing to do on a copy: it is current
    engine.dispose()
    app = create_app(course=course, server=course_config.current().server, database=url)
    app.config["TESTING"] = True
    return app


@pytest.fixture
def app(course, database, migrated_sqlite):
    return make_app(course, database, migrated_sqlite)


def issue(app, *ids: str, role: str = "student") -> dict[str, str]:
    """Sign-in tokens for these student ids: id → token."""
    settings = app.config["hog.settings"]
    with settings.sessions() as session, session.begin():
        return people.issue(session, tuple(Student(sid, f"{sid}@example.edu", "", "") for sid in ids), role)


def signed_in(app, token: str):
    client = app.test_client()
    assert client.get(f"/signin/{token}").status_code == 302
    return client


def csrf(client, page: str = "/") -> str:
    text = client.get(page).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', text)[1]


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def upload(client, token: str, content: bytes, name: str = "hog.py", assignment: str = "hog"):
    return client.post(f"/api/assignments/{assignment}/submissions", headers=bearer(token),
                       data={"file": (io.BytesIO(content), name)}, content_type="multipart/form-data")
