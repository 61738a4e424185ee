"""What a soak run (``benchmarks/soak.py``) came to: each life of the server and its processes' memory, the
database read once the queue drained, each accepted file's score as ``hog grade-batch`` gives it with the
assignment's seed, and the figures printed (and returned, for ``--json``)."""

from __future__ import annotations

import csv
import hashlib
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import inspect, text

from grader.server.store import db, uploads

from processes import descendants, resident   # beside this script: read from /proc

ROOT = Path(__file__).resolve().parent.parent
OPEN, GRADED, FAILED = ("queued", "grading"), "graded", "grader failed"
MINUTE = 60.0


def digest(path: Path) -> str:
    """The sha256 the server records of an upload's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ------------------------------------------------------------------ the server's lives


@dataclass(frozen=True)
class Reading:
    web: int                  # resident bytes of each
    grader: int
    workers: tuple[int, ...]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


@dataclass
class Life:
    """One life of ``hog serve``: from its start (``began`` seconds into the run, answering ``starting`` s
    later) to its kill or the run's end; its processes' memory first (grader and workers up) and last."""
    server: object
    began: float
    starting: float
    ended: float | None = None
    first: Reading | None = None
    last: Reading | None = None

    def read(self) -> None:
        """The web process, the grader and its workers (forked from it: the same command line; a
        sandbox under a worker runs another program)."""
        grader = self.server.grader()
        if grader is None or self.server.process.poll() is not None:
            return
        own = _cmdline(grader)
        workers = tuple(resident(pid) for pid in descendants(grader)[1:] if _cmdline(pid) == own)
        reading = Reading(resident(self.server.process.pid), resident(grader), tuple(w for w in workers if w))
        if not reading.workers or not reading.web:
            return
        self.first = self.first or reading
        self.last = reading


def _mib(size: int) -> str:
    return f"{size / 2**20:.0f}"


# ------------------------------------------------------------------ the database at the end


@dataclass
class Outcome:
    rows: dict[int, dict]                    # submission id → its row
    expected: dict[tuple[str, str], float | None]   # (assignment, sha256) → the score grade-batch gives it
    columns: set[str]
    drained: float                           # seconds from the last upload until nothing was open
    healed: float                            # seconds then waited for "grader failed" ones to go
    lost_files: list[int] = field(default_factory=list)   # acknowledged, row there, upload file gone


def _states(engine) -> dict[str, int]:
    with engine.connect() as connection:
        return dict(connection.execute(text("SELECT status, count(*) FROM submissions GROUP BY status")).all())


def _wait(engine, until, seconds: float) -> float:
    """Look every second, for at most ``seconds``, until ``until(states)``; the seconds it took."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        try:
            if until(_states(engine)):
                break
        except Exception:   # the database a moment away (restarting): look again
            pass
        time.sleep(1)
    return time.monotonic() - started


def read_outcome(run, course, url: str | None, corpus: dict[str, list[Path]], digests: dict[Path, str],
                 drain: float, heal: float) -> Outcome:
    """Wait (bounded) for the queue to drain and the "grader failed" to go; then read every submission."""
    engine = db.connect(url or db.default_url(course.folder / "server"))
    try:
        drained = _wait(engine, lambda states: not any(states.get(state) for state in OPEN), drain)
        healed = _wait(engine, lambda states: not any(states.get(state) for state in (*OPEN, FAILED)), heal)
        columns = {column["name"] for column in inspect(engine).get_columns("submissions")}
        wanted = ["id", "assignment", "variant", "sha256", "status", "score", "attempt", "submitted_at",
                  "graded_at", "filename", "result", *(["retries"] if "retries" in columns else [])]
        with engine.connect() as connection:
            rows = {row["id"]: row for row in (dict(r._mapping) for r in connection.execute(
                text(f"SELECT {', '.join(wanted)} FROM submissions")))}
            seeds = dict(connection.execute(text("SELECT assignment, seed FROM seeds")).all())
    finally:
        engine.dispose()
    paths = {sha: path for path, sha in digests.items()}
    wanted_files: dict[str, set[str]] = {}
    for ident in run.accepted:
        row = rows.get(ident)
        if row is not None:
            wanted_files.setdefault(row["assignment"], set()).add(row["sha256"])
    expected = {}
    for assignment, shas in sorted(wanted_files.items()):
        variant = assignment.removeprefix("hog-")
        expected.update(_expected(assignment, variant, seeds.get(assignment), {sha: paths[sha] for sha in shas}))
    lost_files = [ident for ident in run.accepted if ident in rows and not (
        uploads.folder(course.folder, rows[ident]["assignment"], ident) / rows[ident]["filename"]).is_file()]
    return Outcome(rows, expected, columns, drained, healed, lost_files)


def _expected(assignment: str, variant: str, seed: int | None,
              files: dict[str, Path]) -> dict[tuple[str, str], float | None]:
    """``hog grade-batch`` of these files (sha256 → path) with the assignment's seed: each one's score."""
    if seed is None:
        return dict.fromkeys(((assignment, sha) for sha in files), None)
    with tempfile.TemporaryDirectory(prefix="hog-bench-soak-expected-") as scratch:
        source, named = Path(scratch) / "in", {}
        source.mkdir()
        for number, (sha, path) in enumerate(sorted(files.items())):
            shutil.copy(path, source / f"f{number:03d}.py")
            named[f"f{number:03d}"] = sha
        subprocess.run([sys.executable, "-m", "grader.cli", "grade-batch", str(source), "--variant", variant,
                        "--seed", str(seed), "--out", str(Path(scratch) / "out"), "--jobs", "2"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
        book = Path(scratch) / "out" / "gradebook.csv"
        scores = {}
        if book.is_file():
            with book.open(newline="", encoding="utf-8") as handle:
                scores = {row["submission"]: float(row["score"]) for row in csv.DictReader(handle)
                          if row["status"] == GRADED and row["score"]}
    return {(assignment, sha): scores.get(name) for name, sha in named.items()}


# ------------------------------------------------------------------ the figures


def _times(rows: list[dict]) -> dict:
    seconds = sorted((db.utc(row["graded_at"]) - db.utc(row["submitted_at"])).total_seconds() for row in rows)
    if not seconds:
        return {"count": 0}
    return {"count": len(seconds), "median": statistics.median(seconds),
            "p95": seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))]}


def _shown_times(figures: dict) -> str:
    if not figures["count"]:
        return "no graded submission"
    return f"median {figures['median']:.2f} s, p95 {figures['p95']:.2f} s ({figures['count']} graded)"


def _said(row: dict) -> str:
    """What a submission's result says first (``hog grade``'s summary), on one line."""
    try:
        output = json.loads(row["result"] or "{}").get("output", "")
    except ValueError:
        output = row["result"] or ""
    return " | ".join(line.strip() for line in output.splitlines() if line.strip())[:300]


def _errors(lives: list[Life]) -> Counter:
    """The last line of each traceback the server printed (the exception and its message), by count."""
    found: Counter = Counter()
    for life in lives:
        inside = False
        for line in "".join(life.server.output).splitlines():
            if line.startswith("Traceback"):
                inside = True
            elif inside and line and not line[0].isspace() and not line.startswith(("During handling", "The above")):
                found[line[:160]] += 1
                inside = False
    return found


def report(run, outcome: Outcome, uploading: float, postgres: list[int], log: list[str]) -> dict:
    """Print the run's figures; return them as a summary."""
    rows, accepted = outcome.rows, run.accepted
    mine = [rows[ident] for ident in accepted if ident in rows]
    absent = [ident for ident in accepted if ident not in rows]
    altered = [ident for ident in accepted if ident in rows and rows[ident]["sha256"] != accepted[ident][0]]
    lost = sorted(set(absent + outcome.lost_files + altered))
    exact = [row for row in mine if row["status"] == GRADED and row["score"] is not None
             and outcome.expected.get((row["assignment"], row["sha256"])) is not None
             and abs(row["score"] - outcome.expected[row["assignment"], row["sha256"]]) < 1e-9]
    wrong = [row for row in mine if row["status"] == GRADED and row not in exact]
    failed = [row for row in mine if row["status"] == FAILED]
    still_open = [row for row in mine if row["status"] in OPEN]
    unacknowledged = sorted(set(rows) - set(accepted))
    retried = sum(row.get("retries") or 0 for row in mine) if "retries" in outcome.columns else None
    claimed_again = sum((row["attempt"] or 0) > 1 for row in mine)
    fives = {f"{what} {status}": count for (what, status), count in sorted(run.answers.items(), key=str)
             if isinstance(status, int) and status >= 500}
    silent = {what: count for (what, status), count in run.answers.items() if status == "no answer"}
    graded = [row for row in mine if row["status"] == GRADED and row["graded_at"] is not None]
    start = min((db.utc(row["submitted_at"]) for row in mine), default=None)
    end = max((db.utc(row["submitted_at"]) for row in mine), default=None)
    first = _times([r for r in graded if (db.utc(r["submitted_at"]) - start).total_seconds() < MINUTE])
    last = _times([r for r in graded if (end - db.utc(r["submitted_at"])).total_seconds() < MINUTE])
    uploads_sent = sum(count for (what, _), count in run.answers.items() if what == "upload")
    print(f"\nuploads: {len(accepted)} accepted (202) in {uploading:.0f} s ({len(accepted) / uploading:.2f}/s) of "
          f"{uploads_sent} sent; {run.gave_up} given up after {run.patience} s of trying")
    print(f"graded exactly once:     {len(exact)} of {len(accepted)} (status graded, the score grade-batch gives "
          f"the same file with the assignment's seed)")
    print(f"lost:                    {len(lost)}" + (f" (ids {lost[:10]}: {len(absent)} absent, {len(outcome.lost_files)} "
                                                    f"without their upload, {len(altered)} another file's)" if lost else ""))
    print(f"still 'grader failed':   {len(failed)}" + (f" (ids {[r['id'] for r in failed[:10]]})" if failed else "")
          + f"; waited {outcome.healed:.0f} s for them after the queue drained")
    print(f"graded, another score:   {len(wrong)}" + "".join(
        f"\n    {r['id']} {r['assignment']}: {r['score']} where grade-batch gives "
        f"{outcome.expected.get((r['assignment'], r['sha256']))}: {_said(r)}" for r in wrong[:5]))
    print(f"still queued or grading: {len(still_open)} after waiting {outcome.drained:.0f} s for the queue")
    print("retried (retries, for faults of the machine): "
          + (f"{retried}" if retried is not None else "no retries column in this database")
          + f"; claimed more than once: {claimed_again}")
    print(f"stored, never acknowledged: {len(unacknowledged)} (a 202 that did not reach the student: sent again)")
    print("answered 5xx:            " + (", ".join(f"{count} x {key}" for key, count in fives.items()) or "none")
          + "; no answer (refused, reset, timed out): "
          + (", ".join(f"{count} {what}s" for what, count in sorted(silent.items())) or "none"))
    print(f"upload to grade, first minute: {_shown_times(first)}")
    print(f"upload to grade, last minute:  {_shown_times(last)}")
    lives = []
    print(f"memory (MiB resident) of each life of hog serve: web, grader, workers; first reading -> last")
    for number, life in enumerate(run.lives, 1):
        ended = life.ended if life.ended is not None else uploading + outcome.drained + outcome.healed
        how = "killed" if life.ended is not None else "to the end"
        lives.append({"began": life.began, "ended": ended, "how": how,
                      "first": life.first.__dict__ if life.first else None,
                      "last": life.last.__dict__ if life.last else None})
        if life.first is None:
            print(f"  life {number} ({life.began:.0f}-{ended:.0f} s, {how}): no reading with its workers up")
            continue
        a, b = life.first, life.last
        print(f"  life {number} ({life.began:.0f}-{ended:.0f} s, {how}): web {_mib(a.web)} -> {_mib(b.web)}, "
              f"grader {_mib(a.grader)} -> {_mib(b.grader)}, {len(a.workers)} -> {len(b.workers)} workers "
              f"{'+'.join(map(_mib, a.workers))} -> {'+'.join(map(_mib, b.workers))}")
    print(f"  PostgreSQL at the end: {_mib(sum(resident(pid) for pid in postgres))} MiB in {len(postgres)} processes"
          if postgres else "  (SQLite: in the web and grader processes)")
    errors = _errors(run.lives)
    print(f"the server printed {sum(errors.values())} tracebacks" + "".join(
        f"\n    {count} x {line}" for line, count in errors.most_common(5)))
    return {"accepted": len(accepted), "graded_exactly_once": len(exact), "lost": len(lost),
            "still_grader_failed": len(failed), "graded_another_score": len(wrong), "still_open": len(still_open),
            "retried": retried, "claimed_more_than_once": claimed_again, "stored_unacknowledged": len(unacknowledged),
            "answered_5xx": fives, "no_answer": silent, "gave_up": run.gave_up, "uploading_seconds": uploading,
            "first_minute": first, "last_minute": last, "lives": lives, "faults": [line.strip() for line in log]}
