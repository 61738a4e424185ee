"""A term of the course server compressed into minutes: uploads keep coming while the machine fails under it.

``hog serve --jobs 2`` (a subprocess, on a PostgreSQL server this run starts, or SQLite) serves a course
whose students upload the kit's corpus of real submissions (each variant's reference and its students'
files, so scores vary; an assignment's seed is fixed, so a file gets the same score each time). Students
(threads) upload through the JSON API as submit.py sends it, wait for the grade, think a moment and upload
again; an upload answered 503 or 5xx, or not answered at all, is sent again after Retry-After (or 1-2 s),
as a student runs submit.py again. Every 202 is counted as accepted. Meanwhile, at seeded moments (counts of
accepted uploads, printed), the machine fails: the server's process group killed with SIGKILL and started
again; its scratch folders removed while it runs; another ``hog grade`` in a PID namespace of its own with
the same TMPDIR; PostgreSQL restarted (``pg_ctl restart -m fast``); the disk the course folder and TMPDIR
are on (a tmpfs of its own) filled, held full, then freed (``benchmarks/chaos.py``).

Then, the queue drained (bounded), read from the database: accepted; graded exactly once (a result, status
graded, the score ``hog grade-batch`` gives the same file with the assignment's seed); lost (acknowledged,
then absent or without its upload: must be 0); retried for faults of the machine (``retries``); still
"grader failed" (must be 0 once the causes cleared); answers 5xx by status; the time from upload to grade in
the first and the last minute; each server process's memory at the start and the end of each life.
Exits 1 when anything was lost or is still "grader failed".

Run (as root): python benchmarks/soak.py [--submissions 5000] [--seed 50] [--database postgresql|sqlite]
[--students 16] [--disk 256] [--quick] [--json FILE] [--docs]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import chaos   # beside this script: the faults of the machine
from corpus import by_variant   # beside it too: the kit's corpus of submissions
from course_server import Course, Server, make_course, request, sent   # beside it too
from soak_outcome import Life, digest, read_outcome, report   # beside it too
from serve import warm_caches   # beside it too: the grader's cache of this run, warmed first

ROOT = Path(__file__).resolve().parent.parent
DONE = ("graded", "grader failed")    # submit.py's last states of a submission
PATIENCE = 300        # seconds a student keeps sending one upload the server does not take
FOLLOW = 120          # seconds a student waits for a grade before uploading the next
LOOK = 0.5            # seconds between a student's looks at their submission
THINK = 1.0           # at most this many seconds between a grade and the next upload
KINDS = ("kill", "scratch", "namespace", "postgres", "disk")


class Run:
    """What the students, the faults and the sampler share."""

    def __init__(self, course: Course, target: int, grading: list[str], environment: dict[str, str]):
        self.course, self.target, self.grading, self.environment = course, target, grading, environment
        self.lock, self.stop, self.started = threading.Lock(), threading.Event(), time.monotonic()
        self.accepted: dict[int, tuple[str, float]] = {}   # id → (sha256 of what was sent, seconds into the run)
        self.answers: Counter = Counter()   # (what was asked, HTTP status or "no answer") → count
        self.gave_up, self.patience = 0, PATIENCE   # uploads given up after PATIENCE s of trying
        self.tmp = Path(environment["TMPDIR"])
        self.left_behind: set[str] = set()   # scratch folders of killed graders
        self.lives: list[Life] = []
        self.server = self.start_server()

    def start_server(self) -> Server:
        started = time.monotonic()
        server = Server(self.course, *self.grading, environment=self.environment)
        server.sampling = False   # the run's sampler reads its processes (``Life``)
        self.lives.append(Life(server, started - self.started, time.monotonic() - started))
        return server

    def seconds(self) -> float:
        return time.monotonic() - self.started

    def enough(self) -> bool:
        with self.lock:
            return self.stop.is_set() or len(self.accepted) >= self.target

    def answered(self, what: str, status) -> None:
        with self.lock:
            self.answers[what, status] += 1


# ------------------------------------------------------------------ the students


def student(run: Run, sid: str, draw: random.Random, files: list[Path], digests: dict[Path, str]) -> None:
    """Upload, wait for the grade, think, upload again, until the run has its submissions."""
    token, assignment = run.course.tokens[sid], f"hog-{run.course.variant_of[sid]}"
    while not run.enough():
        path = draw.choice(files)
        ident = submit(run, token, assignment, path.read_bytes())
        if ident is not None:
            with run.lock:
                run.accepted[ident] = (digests[path], run.seconds())
            follow(run, token, ident)
        run.stop.wait(draw.uniform(0, THINK))


def submit(run: Run, token: str, assignment: str, source: bytes) -> int | None:
    """The upload sent until it is taken (its id) or refused for good (None), for at most PATIENCE s."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline and not run.stop.is_set():
        try:
            status, data, headers, _ = sent(run.course.port, token, assignment, source, timeout=30)
        except (OSError, http.client.HTTPException):   # the server down, restarting, or gone mid-answer
            run.answered("upload", "no answer")
            run.stop.wait(1)
            continue
        run.answered("upload", status)
        if status == 202:
            return json.loads(data)["id"]
        if status not in (429, 503) and status < 500:
            return None
        after = headers.get("Retry-After", "")
        run.stop.wait(min(float(after), 30) if after.isdigit() else 1 + random.random())
    with run.lock:
        run.gave_up += 1
    return None


def follow(run: Run, token: str, ident: int) -> None:
    """Look at the submission until it is graded or failed, or FOLLOW s have passed."""
    deadline = time.monotonic() + FOLLOW
    while time.monotonic() < deadline and not run.stop.wait(LOOK):
        try:
            status, data, _, _ = request("GET", run.course.port, f"/api/submissions/{ident}",
                                         headers={"Authorization": f"Bearer {token}"}, timeout=30)
        except (OSError, http.client.HTTPException):
            run.answered("look", "no answer")
            continue
        run.answered("look", status)
        if status == 200 and json.loads(data).get("status") in DONE:
            return


# ------------------------------------------------------------------ the faults and the sampler


def schedule(kinds: list[str], target: int, each: int, draw: random.Random) -> list[tuple[int, str]]:
    """Each kind of fault ``each`` times, at accepted counts drawn between 5% and 85% of the run."""
    return sorted((int(draw.uniform(0.05, 0.85) * target), kind) for kind in kinds for _ in range(each))


def faults(run: Run, events: list[tuple[int, str]], act: dict, log: list[str]) -> None:
    """Each fault once the accepted uploads reach its count, one at a time, each printed as it happens."""
    for count, kind in events:
        while not run.stop.is_set():
            with run.lock:
                if len(run.accepted) >= count:
                    break
            time.sleep(0.2)
        if run.stop.is_set():
            return
        started, done = run.seconds(), len(run.accepted)
        try:
            said = act[kind]()
        except Exception as error:   # a fault that could not be made is printed, never hidden
            said = f"could not be made: {type(error).__name__}: {error}"
        line = f"  {started:7.1f} s, {done:5d} accepted: {kind:9} {said}"
        print(line, flush=True)
        log.append(line)


def kill(run: Run) -> str:
    server = run.server
    count, left = chaos.kill_group(server.process.pid)
    server.process.wait(timeout=30)
    run.left_behind |= chaos.scratch_folders(run.tmp)   # a killed grader cannot remove its own
    run.lives[-1].ended = run.seconds()
    run.server = run.start_server()
    return (f"SIGKILL to the server's process group ({count} processes"
            + (f"; {len(left)} still alive 5 s later, then killed one by one" if left else "")
            + f"); a new hog serve answered after {run.lives[-1].starting:.1f} s")


def live(run: Run, tmp: Path) -> str:
    """Wait (at most 30 s) for the grader of the server's life to have made its scratch folder."""
    return "" if chaos.made_anew(tmp, run.left_behind) else "(no scratch folder of this grader's after 30 s) "


def scratch(run: Run, tmp: Path) -> str:
    waited = live(run, tmp)
    return waited + "removed " + (", ".join(chaos.remove_scratch(tmp)) or "nothing (none there)")


def fill(disk: chaos.Disk, run: Run, hold: float) -> str:
    with run.lock:
        before = Counter(run.answers)
    written = disk.fill()
    run.stop.wait(hold)
    disk.free()
    with run.lock:
        during = {key: count for key, count in (run.answers - before).items() if key[0] == "upload"}
    shown = ", ".join(f"{count} {status}" for (_, status), count in sorted(during.items(), key=str))
    return f"the disk filled ({written / 2**20:.0f} MiB more) and held full {hold:g} s, then freed; " \
           f"uploads answered meanwhile: {shown or 'none'}"


def sample(run: Run) -> None:
    """Each server life's processes read every 2 s: the first reading with its grader up, and the latest."""
    while not run.stop.wait(2):
        with contextlib.suppress(Exception):
            run.lives[-1].read()


# ------------------------------------------------------------------ the run


def soak(args, folder: Path, stack: contextlib.ExitStack) -> dict:
    draw = random.Random(args.seed)
    disk = chaos.Disk(folder / "disk", args.disk)
    stack.callback(disk.unmount)
    stack.callback(disk.free)
    tmp = disk.folder / "tmp"
    tmp.mkdir(mode=0o711)
    url = None
    if args.database == "postgresql":
        postgres = chaos.Postgres(folder / "pg")
        stack.callback(postgres.stop)
        url = postgres.url
    course = make_course(disk.folder, args.students, database=url, per_hour=1_000_000, name="A term, soaked")
    grading = ["--jobs", "2", *(["--database", url] if url else [])]
    run = Run(course, args.submissions, grading, {"TMPDIR": str(tmp)})
    stack.callback(lambda: run.server.stop())
    stack.callback(run.stop.set)
    kinds = [kind for kind in KINDS if url or kind != "postgres"]
    events = schedule(kinds, args.submissions, 1 if args.quick else max(1, args.submissions // 1250), draw)
    print(f"faults at these counts of accepted uploads (seed {args.seed}): "
          + ", ".join(f"{kind} {count}" for count, kind in events), flush=True)
    act = {"kill": lambda: kill(run), "scratch": lambda: scratch(run, tmp),
           "namespace": lambda: live(run, tmp) + chaos.other_namespace_hog(tmp, run.environment),
           "postgres": lambda: postgres.restart(),
           "disk": lambda: fill(disk, run, 8 if args.quick else 20)}
    corpus = by_variant()
    digests = {path: digest(path) for paths in corpus.values() for path in paths}
    log: list[str] = []
    threads = [threading.Thread(target=student, args=(run, sid, random.Random(f"{args.seed}-{sid}"),
                                                      corpus[course.variant_of[sid]], digests), daemon=True)
               for sid in course.tokens]
    threading.Thread(target=sample, args=(run,), daemon=True).start()
    broken = threading.Thread(target=faults, args=(run, events, act, log), daemon=True)
    broken.start()
    for thread in threads:
        thread.start()
    bound = time.monotonic() + max(900, 1.5 * args.submissions)
    for thread in threads:
        thread.join(max(0, bound - time.monotonic()))
    broken.join(max(0, bound - time.monotonic()))
    uploading = run.seconds()
    outcome = read_outcome(run, course, url, corpus, digests, drain=300 if args.quick else 600,
                           heal=60 if args.quick else 120)
    run.lives[-1].read()
    run.stop.set()
    with run.lock:
        return report(run, outcome, uploading, postgres.processes() if url else [], log)


def _stopped(signum, _frame):
    raise KeyboardInterrupt(signal.Signals(signum).name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=5000, help="accepted uploads to reach (default 5000)")
    parser.add_argument("--seed", type=int, default=50, help="the faults' moments and the students' choices")
    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--students", type=int, default=16, help="students uploading at once (default 16)")
    parser.add_argument("--disk", type=int, default=256, help="MiB of the tmpfs the course is on (default 256)")
    parser.add_argument("--quick", action="store_true", help="300 submissions, each fault once: a smoke run")
    parser.add_argument("--json", metavar="FILE", help="also write the summary there, as JSON")
    args = parser.parse_args()
    if args.quick and args.submissions == parser.get_default("submissions"):
        args.submissions = 300
    if os.geteuid() != 0:
        raise SystemExit("the soak benchmark mounts a tmpfs and enters PID namespaces: run it as root")
    print(f"$ python benchmarks/soak.py {' '.join(sys.argv[1:])}")
    print(f"{args.submissions} submissions from {args.students} students, on {args.database}; {os.cpu_count()} "
          f"cores; load average at the start {os.getloadavg()[0]:.2f}", flush=True)
    signal.signal(signal.SIGTERM, _stopped)   # cleaned up as after Ctrl-C: the mount, PostgreSQL, the server
    try:
        with contextlib.ExitStack() as stack:
            folder = Path(tempfile.mkdtemp(prefix="hog-bench-soak-"))
            folder.chmod(0o711)   # the postgres user and a sandbox's own uid pass through to their folders
            stack.callback(subprocess.run, ["rm", "-rf", "--one-file-system", str(folder)])
            os.environ["HOG_CACHE"] = str(folder / "cache")   # the server's, grade-batch's and the warm-up's
            warm_caches()
            summary = soak(args, folder, stack)
    except KeyboardInterrupt as stop:
        print(f"\nstopped ({stop or 'Ctrl-C'}): the server, PostgreSQL, the tmpfs and the run's folder are gone")
        return 130
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return 1 if summary["lost"] or summary["still_grader_failed"] else 0


if __name__ == "__main__":
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
