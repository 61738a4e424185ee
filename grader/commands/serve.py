"""The course server's verbs: ``hog serve``, ``hog serve people ROSTER.csv``, ``hog serve regrade NAME``,
``hog serve release NAME``, ``hog serve groups NAME GROUPS.csv``, ``hog serve backup DEST``,
``hog serve restore SRC`` and ``hog serve unit`` (its systemd service).

``hog serve`` brings the database to the newest schema, puts back in the queue the jobs of graders that
died (and those a fault of the kit failed), starts the grader process (restarted if it dies) and the thread
that sends counted scores back to LTI platforms (``lti.passback``), and serves the web application on
waitress until stopped. ``hog serve lti ...`` is ``grader.commands.lti``.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import signal
import sys
import threading
import time
from pathlib import Path
from typing import TextIO

from grader import project
from grader.classroom import pool
from grader.classroom import roster as roster_module
from grader.commands.grading import isolation_level
from grader.errors import UsageError
from grader.spec import course, load_variant, okpy_suite
from grader.spec.config_error import ConfigError

try:   # the server's libraries are an extra: pip install 'hog-kit[server]'
    import waitress
    from sqlalchemy.engine import make_url
    from grader.server.course import group_lists, groups as group_rules, people as tokens, reviews
    from grader.server.grading import graders, queue
    from grader.server.lti import passback
    from grader.server.store import backup as backups, db
    from grader.server.web import intake
    from grader.server.web.app import create_app
except ImportError as missing:   # said when a serve verb runs, not when the command line is parsed
    waitress = None
    MISSING = missing.name
UNIT = project.DATA / "server" / "hog-serve.service"   # the systemd unit, its braces filled in by hog serve unit
THREADS = 16                # requests served at once
WATCH_SECONDS = 1.0         # how often the grader process is checked


def _course() -> tuple[Path, course.Course]:
    if waitress is None:
        raise UsageError(f"the course server needs {MISSING} (pip install 'hog-kit[server]')")
    place = project.here()
    config = course.current()
    if place.root is None or place.checkout or config is None:
        raise UsageError("not in a course folder: hog serve serves a course (run 'hog init DIR', then work "
                         "inside DIR or give --course DIR)")
    for assignment in config.server.assignments:   # a suite named but never imported: said now, not per job
        okpy_suite.chosen(assignment.suite)
        _checkpoint_questions(config, assignment)
    return place.root, config


def _checkpoint_questions(config: course.Course, assignment) -> None:
    """A checkpoint's questions, where named, are questions of the variants the assignment grades."""
    if assignment.checkpoint is None or assignment.checkpoint.questions is None:
        return
    for variant_id in [assignment.variant] if assignment.variant else course.used_variants():
        labels = [q.label for q in load_variant(variant_id).questions]
        missing = [q for q in assignment.checkpoint.questions if q not in labels]
        if missing:
            where = f"assignments.{assignment.name}.checkpoint.questions"
            raise ConfigError(project.display(config.path), config.lines.get(where),
                              f"{where} names {', '.join(missing)}, not a question of {variant_id}",
                              f"its questions are {', '.join(labels)}")


def _database(root: Path, database: str | None):
    url = database or db.default_url(root / "server")
    engine = db.connect(url)
    try:
        db.upgrade(engine)
    except Exception as error:   # the database cannot be reached or refuses: the operator's to fix
        raise UsageError(f"cannot open the database {engine.url.render_as_string(hide_password=True)}: "
                         f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}") from None
    return url, engine


def people(*, roster: str, role: str, database: str | None, out: TextIO) -> int:
    """``hog serve people ROSTER.csv``: a new sign-in link for each person, written to server/people.csv."""
    root, config = _course()
    students = roster_module.read_roster(Path(roster), "student")
    _, engine = _database(root, database)
    target = root / "server" / tokens.PEOPLE_CSV
    target.parent.mkdir(mode=0o700, exist_ok=True)   # SQLite's file makes it; a course on PostgreSQL may have none
    with db.sessions(engine)() as session, session.begin():
        issued = tokens.issue(session, students, role)
        # Written before the tokens are committed: links that cannot be written down are never issued.
        tokens.write_csv(target, {s.student_id: (s.email, role, tokens.link(config.server.url, issued[s.student_id]))
                                  for s in students})
    out.write(f"issued {len(students)} {role} sign-in links (any earlier link of theirs no longer works); "
              f"send each person their row of {project.display(target)}\n")
    return 0


def regrade(*, assignment: str, database: str | None, out: TextIO) -> int:
    """``hog serve regrade NAME``: every submission of the assignment back in the queue."""
    root, config = _course()
    _assignment(config, assignment)
    _, engine = _database(root, database)
    count = queue.regrade(engine, assignment, config.server.assignment(assignment))
    out.write(f"{count} submissions of {assignment} queued to be graded again (a running hog serve grades them)\n")
    return 0


def release(*, assignment: str, database: str | None, out: TextIO) -> int:
    """``hog serve release NAME``: the assignment's grades given by hand released (as the staff's button does)."""
    root, config = _course()
    _assignment(config, assignment)
    _, engine = _database(root, database)
    with db.sessions(engine)() as session, session.begin():
        db.writing(session)
        when = reviews.release(session, assignment, None)
        sent = passback.refresh_assignment(session, config.server, assignment)
    out.write(f"{assignment}'s grades given by hand are released (since {when.isoformat(timespec='seconds')}): "
              f"students see their reviews; {sent} totals to send to the LMS\n")
    return 0


def groups(*, assignment: str, groups_csv: str, database: str | None, out: TextIO) -> int:
    """``hog serve groups NAME GROUPS.csv``: the assignment's groups made those of the file (columns
    ``student_id,group``), every line checked before anything changes; what changed, a line a student."""
    root, config = _course()
    rules = _assignment(config, assignment)
    path = Path(groups_csv)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read {groups_csv}: {error}") from None
    _, engine = _database(root, database)
    with db.sessions(engine)() as session, session.begin():
        db.writing(session)
        try:
            changes = group_lists.set_groups(session, rules, group_lists.read_csv(text, groups_csv),
                                             intake.variant_of(root, rules), groups_csv)
            for person_id in changes.people:
                passback.refresh(session, config.server, person_id, rules.name)
        except group_rules.Refused as refused:
            raise UsageError(f"{refused.message}; nothing was changed") from None
    out.writelines(f"{line}\n" for line in changes.lines)
    out.write(f"{len(changes.lines)} students of {assignment} changed group\n" if changes.lines else
              f"the groups of {assignment} are those of {groups_csv} already: nothing changed\n")
    return 0


def _assignment(config, name: str):
    found = config.server.assignment(name)
    if found is None:
        names = ", ".join(a.name for a in config.server.assignments) or "none yet"
        raise UsageError(f"no [assignments.{name}] in {project.display(config.path)} (its assignments: {names})")
    return found


def backup(*, dest: str, database: str | None, out: TextIO) -> int:
    """``hog serve backup DEST``: the database (a consistent copy, the server running or not), the uploads and
    the server's keys, in a new folder only its owner can read."""
    root, _ = _course()
    url = database or db.default_url(root / "server")
    summary = backups.backup(course=root, url=url, dest=Path(dest))
    out.write(f"backed up {project.display(root / 'server')}/ into {dest}: {summary.said()}\n")
    return 0


def restore(*, source: str, database: str | None, out: TextIO) -> int:
    """``hog serve restore SRC``: a backup put back into this course's empty server folder (and database)."""
    root, _ = _course()
    url = database or db.default_url(root / "server")
    summary, head = backups.restore(course=root, url=url, source=Path(source))
    brought = f"schema {summary.revision} brought to {head}" if summary.revision != head else f"schema {head}"
    out.write(f"restored {source} into {project.display(root / 'server')}/ ({db.shown(url)}): {summary.said()}; "
              f"{brought}; start it with hog serve\n")
    return 0


def unit(*, user: str, host: str, port: int, database: str | None, out: TextIO) -> int:
    """``hog serve unit``: the systemd unit that runs this course's server as a service, printed."""
    root, config = _course()
    if re.search(r"[\s\"'\\%$;]", str(root)):
        raise UsageError(f"the course folder's path {str(root)!r} holds a space or one of \"'\\%$;, which a "
                         f"systemd unit would read otherwise: move the course to a plain path")
    if not re.fullmatch(r"[a-z_][a-z0-9_-]{0,31}", user):
        raise UsageError(f"--user {user!r} is not a name useradd takes (lower case letters, digits, _ and -)")
    if database and make_url(database).password:
        raise UsageError("--database holds a password, which the unit (readable by every user) would show: give "
                         "the URL without it and put the password in the service user's ~/.pgpass")
    own = Path(sys.executable).parent / "hog"
    hog = str(own) if own.is_file() else f"{sys.executable} -m grader.cli"
    text = UNIT.read_text(encoding="utf-8").format(
        name=(config.name or root.name).replace("%", "%%"), user=user, course=root, hog=hog, host=host, port=port,
        database=f" --database {database.replace('%', '%%')}" if database else "")
    out.write(text)
    return 0


def listening(app, host: str, port: int):
    """waitress serving ``app`` on ``host``:``port`` (not yet run). It hands the proxies' headers to the app
    untouched: the app decides whom to believe (``grader.server.web.forwarded``, ``[server] proxies``)."""
    return waitress.create_server(app, host=host, port=port, threads=THREADS, clear_untrusted_proxy_headers=False)


def _grader(root: Path, url: str, jobs: int, level: str, scheduler, workers):
    process = multiprocessing.get_context("spawn").Process(
        target=graders.run, name="hog-grader", daemon=False,
        kwargs=dict(course=str(root), database=url, jobs=jobs, isolation=level, scheduler=scheduler,
                    workers=workers, parent=os.getpid()))
    process.start()
    return process


def serve(*, host: str, port: int, database: str | None, jobs: int, scheduler: str | None, workers: int | None,
          out: TextIO) -> int:
    """``hog serve``: the web application and its grader process, until SIGINT or SIGTERM."""
    root, config = _course()
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if scheduler is not None and workers is not None:
        raise UsageError("give --scheduler ADDRESS or --workers N, not both")
    level = isolation_level(None)
    url, engine = _database(root, database)
    queue.requeue_dead(engine, failed=True)
    passback.refresh_all(engine, config.server)   # a penalty changed in the config changes counted scores
    engine.dispose()
    app = create_app(course=root, server=config.server, database=url)
    try:
        server = listening(app, host, port)
    except OSError as error:
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error} (choose another --port, "
                         f"or stop what listens there)") from None
    running = {"grader": _grader(root, url, jobs, level, scheduler, workers), "stop": False}
    sender = passback.Sender(url, root / "server").start()   # scores to the LMSs, apart from any request

    def watch() -> None:   # a grader process that died is started again; its jobs go back to the queue
        while not running["stop"]:
            time.sleep(WATCH_SECONDS)
            if not running["stop"] and not running["grader"].is_alive():
                print(f"the grader process ended (exit status {running['grader'].exitcode}); starting another",
                      file=sys.stderr)
                running["grader"] = _grader(root, url, jobs, level, scheduler, workers)
    threading.Thread(target=watch, daemon=True).start()
    where = f"http://{host}:{server.effective_port}"
    out.write(f"serving {config.name or project.display(root)} at {where} (public address {config.server.url}); "
              f"{len(config.server.assignments)} assignments; database {db.shown(url)}; grading "
              f"{'on a Dask cluster' if scheduler or workers else f'{jobs} at a time'} at isolation {level}\n")
    out.flush()
    received: list[int] = []

    def stop(signum, _frame):   # waitress ends its loop on KeyboardInterrupt, which Stopped is
        received.append(signum)
        pool.raise_stop(signum)
    previous = {number: signal.signal(number, stop) for number in pool.STOPPING}
    try:
        server.run()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        running["stop"] = True
        server.close()
        running["grader"].terminate()
        sender.stop()
        running["grader"].join(10)
    if received:
        raise pool.Stopped(received[0])
    return 0


def run(*, action: str | None, host: str, port: int, database: str | None, jobs: int, scheduler: str | None,
        workers: int | None, roster: str | None, role: str | None, assignment: str | None, folder: str | None,
        user: str | None, out: TextIO, groups_csv: str | None = None) -> int:
    """``hog serve [people|regrade|release|groups|backup|restore|unit]``: the verb its action names."""
    if action == "people":
        return people(roster=roster, role=role, database=database, out=out)
    if action == "regrade":
        return regrade(assignment=assignment, database=database, out=out)
    if action == "release":
        return release(assignment=assignment, database=database, out=out)
    if action == "groups":
        return groups(assignment=assignment, groups_csv=groups_csv, database=database, out=out)
    if action == "backup":
        return backup(dest=folder, database=database, out=out)
    if action == "restore":
        return restore(source=folder, database=database, out=out)
    if action == "unit":
        return unit(user=user, host=host, port=port, database=database, out=out)
    return serve(host=host, port=port, database=database, jobs=jobs, scheduler=scheduler, workers=workers, out=out)
