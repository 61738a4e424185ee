"""The course server under a deadline burst: 200 students submitting 3 times each within 60 s.

A course folder of its own (``hog init``, one assignment per variant, ``hog serve people``), and ``hog
serve`` on SQLite, started as students start it. 200 students, each a thread with ``http.client``, upload
the kit's corpus of real submissions (tests/submissions/allowed and buggy, and each variant's reference)
three times each at random moments of the same 60 s, to the assignment of the submission's variant.
Meanwhile a signed-in student reloads their assignment's page and a member of staff the live gradebook.

Printed: how many uploads were accepted (202), the p95 of the time to the 202, of the student page and of
the gradebook while grading runs (target 200 ms each), the time until the queue is drained and the drain
rate as a ratio to ``hog grade-batch``'s rate on the same files in the same run (target 0.9 or more; the
batch runs once before the burst and once after, and its rate is over both). The drain rate is the rate
while every worker had a submission and its next one (``benchmarks/backlog.py``): a server that grades faster than the
uploads come drains the queue a moment after the last one, and the uploads over the time from the first
to the drain then say how fast they came, which is printed too. Then the server's memory (the
peak of its processes' resident memory, all of them together, and of the web process alone), and the
machine's CPU time per graded submission (every process: the web, the grader, its sandboxes) against
grade-batch's, with the web process's own. The grader's cache is this run's own (``HOG_CACHE``), warmed
first by a grade-batch of each file once, so that the server and grade-batch (a new process, as ``hog
grade-batch`` runs) meet it alike. Then the same burst graded by ``hog serve --workers 2`` (a local
2-worker Dask cluster).

Run: python benchmarks/serve.py [--students 200] [--times 3] [--within 60] [--jobs 2] [--no-dask] [--docs]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import revisions   # beside this script: grade-batch in a new process
from course_server import Course, Server, make_course, request, signed_in, upload   # beside it too
from corpus import by_variant   # beside it too: the kit's corpus of submissions
from backlog import FullLoad, full_load, spans_of   # beside it too
from processes import cpu_seconds, machine_spent, machine_times   # beside it too

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS, TARGET_RATIO = 200, 0.9
STUDENT_PAGE = "/assignments/{assignment}"
STAFF_GRADEBOOK = "/staff/assignments/{assignment}"
OPEN = ("queued", "grading")



# ------------------------------------------------------------------ the burst


@dataclass
class Burst:
    uploads: list[tuple[int, float, int | None]] = field(default_factory=list)   # status, seconds, id
    student_page: list[float] = field(default_factory=list)
    gradebook: list[float] = field(default_factory=list)
    page_errors: list[int] = field(default_factory=list)
    started: float = 0.0
    drained: float = 0.0
    client_cpu: float = 0.0          # this process's CPU seconds over the burst (the students and the observer)
    busy: float = 0.0                # the share of the machine's CPU time in use over the burst (/proc/stat)
    machine_cpu: float = 0.0         # the machine's CPU seconds in use over the burst
    web_cpu: float = 0.0             # the web process's own CPU seconds over the burst
    grader_cpu: float = 0.0          # the grader process's own CPU seconds over the burst (not its workers')
    states: dict[str, int] = field(default_factory=dict)
    within: float = 60.0             # the seconds the uploads were spread over


def plan(course: Course, times: int, within: float, seed: int = 28) -> dict[str, list[tuple[float, Path]]]:
    """Each student's uploads: moments in the burst (sorted) and a corpus file of their variant each."""
    draw, files = random.Random(seed), by_variant()
    return {sid: [(moment, draw.choice(files[course.variant_of[sid]]))
                  for moment in sorted(draw.uniform(0, within) for _ in range(times))] for sid in course.tokens}


def queue_states(course: Course) -> dict[str, int]:
    """Submissions by status, read from the server's SQLite database (read-only)."""
    database = course.folder / "server" / "hog.sqlite3"
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)) as connection:
        return dict(connection.execute("SELECT status, count(*) FROM submissions GROUP BY status").fetchall())


def observe(course: Course, burst: Burst, stop: threading.Event) -> None:
    """A student reloading their assignment's page and staff the gradebook, each about twice a second."""
    student = next(iter(course.tokens))
    assignment = f"hog-{course.variant_of[student]}"
    pages = [(signed_in(course.port, course.tokens[student]), STUDENT_PAGE.format(assignment=assignment),
              burst.student_page),
             (signed_in(course.port, course.staff), STAFF_GRADEBOOK.format(assignment=assignment), burst.gradebook)]
    while not stop.is_set():
        for cookie, path, seconds in pages:
            status, _, _, took = request("GET", course.port, path, headers={"Cookie": cookie})
            (seconds.append(took) if status == 200 else burst.page_errors.append(status))
        stop.wait(0.5)


def run_burst(course: Course, schedule: dict[str, list[tuple[float, Path]]]) -> Burst:
    burst, lock = Burst(), threading.Lock()

    def student(sid: str) -> None:
        for moment, path in schedule[sid]:
            time.sleep(max(0.0, burst.started + moment - time.perf_counter()))
            sent = upload(course.port, course.tokens[sid], f"hog-{course.variant_of[sid]}", path.read_bytes())
            with lock:
                burst.uploads.append(sent)

    stop = threading.Event()
    watcher = threading.Thread(target=observe, args=(course, burst, stop), daemon=True)
    threads = [threading.Thread(target=student, args=(sid,), daemon=True) for sid in schedule]
    burst.started = time.perf_counter()
    began, machine = os.times(), machine_times()
    watcher.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    while True:
        burst.states = queue_states(course)
        if not any(burst.states.get(state) for state in OPEN):
            break
        time.sleep(0.5)
    burst.drained = time.perf_counter() - burst.started
    ended = os.times()
    burst.client_cpu = ended.user + ended.system - began.user - began.system
    used, whole = (now - then for now, then in zip(machine_times(), machine))
    burst.busy, burst.machine_cpu = (used / whole if whole else 0.0), used
    stop.set()
    watcher.join()
    return burst


def p95(samples: list[float]) -> str:
    if not samples:
        return "no sample"
    ordered = sorted(samples)
    value = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000
    return f"{value:6.0f} ms ({'met' if value <= TARGET_MS else 'not met'}; {len(samples)} requests)"


def report(label: str, burst: Burst, server: Server, batch: "Batch | None", load: FullLoad) -> float:
    """Print the burst's figures; return the rate under full load (``benchmarks/backlog.py``)."""
    accepted = sum(status == 202 for status, _, _ in burst.uploads)
    refused = sorted({status for status, _, _ in burst.uploads if status != 202})
    graded = sum(burst.states.values())
    rate = graded / burst.drained
    print(f"\n{label}")
    print(f"  uploads accepted (202): {accepted} of {len(burst.uploads)}"
          + (f"; refused with {refused}" if refused else ""))
    print(f"  time to the 202, p95:   {p95([seconds for status, seconds, _ in burst.uploads if status == 202])}")
    print(f"  student page, p95:      {p95(burst.student_page)}")
    print(f"  staff gradebook, p95:   {p95(burst.gradebook)}" + (f"; pages refused: {sorted(set(burst.page_errors))}"
                                                                    if burst.page_errors else ""))
    print(f"  queue drained after:    {burst.drained:6.1f} s from the first upload; "
          f"{', '.join(f'{count} {state}' for state, count in sorted(burst.states.items()))}")
    print(f"  from the first upload:  {rate:6.2f} submissions/s (no faster than the uploads came: "
          f"{len(burst.uploads) / burst.within:.0f}/s)")
    if load.graded:
        ratio = f"; {load.rate / batch.rate:.2f}x grade-batch's rate (target {TARGET_RATIO})" if batch else ""
        print(f"  drain rate:             {load.rate:6.2f} submissions/s while every worker had a submission and "
              f"its next one ({load.graded} graded in {load.seconds:.1f} s){ratio}")
    else:
        print("  drain rate:             not measured: the workers never all had a submission and "
              "their next one at once")
    print(f"  the queue:              at most {load.most} submissions in it at once; the last result "
          f"{load.lag:.1f} s after the last upload")
    print(f"  memory, peak:           {server.peak_total / 2**20:6.0f} MiB in all its processes, "
          f"{server.peak_web / 2**20:.0f} MiB the web process")
    count = max(graded, 1)
    per = f"{burst.machine_cpu / count * 1000:.0f} ms"
    print(f"  the machine's CPU:      {per} per graded submission over the burst, everything included (the web "
          f"process's own: {burst.web_cpu:.1f} s; the benchmark's clients: {burst.client_cpu:.1f} s)"
          + (f"; grade-batch: {batch.cpu_per_submission * 1000:.0f} ms" if batch else "")
          + f"; the machine busy {burst.busy:.0%} of the time")
    print(f"  per graded submission:  the web process {burst.web_cpu / count * 1000:.1f} ms, the grader process "
          f"(claims and results, its workers not included) {burst.grader_cpu / count * 1000:.1f} ms"
          + (f" (grade-batch's own process: {batch.own_per_submission * 1000:.1f} ms)" if batch else "")
          + f", the benchmark's clients {burst.client_cpu / count * 1000:.1f} ms")
    return load.rate


@dataclass
class Batch:
    """grade-batch of the burst's files, once before the burst and once after: their rates, and the baseline
    (all the files over both runs' seconds: the machine's drift over a run weighs on both sides alike)."""
    runs: list[tuple[float, float, float]]   # (seconds, the machine's CPU seconds in use, its own) of each run
    files: int

    @property
    def rate(self) -> float:
        return self.files * len(self.runs) / sum(seconds for seconds, _, _ in self.runs)

    @property
    def cpu_per_submission(self) -> float:
        return sum(cpu for _, cpu, _ in self.runs) / (self.files * len(self.runs))

    @property
    def own_per_submission(self) -> float:
        return sum(own for _, _, own in self.runs) / (self.files * len(self.runs))


def grade_batch_run(files: list[tuple[str, str, Path]], jobs: int, label: str = "") -> tuple[float, float, float]:
    """``hog grade-batch`` of the same files (each under its variant), with ``jobs`` workers, in a new process
    with the same cache as the server's: its seconds, the machine's CPU seconds in use meanwhile, and the
    grade-batch process's own (not its workers')."""
    with tempfile.TemporaryDirectory(prefix="hog-bench-batch-") as scratch:
        source, variant_of = Path(scratch) / "in", {}
        source.mkdir()
        for number, (_, variant, path) in enumerate(files):
            name = f"{number:04d}-{variant}"
            shutil.copy(path, source / f"{name}.py")
            variant_of[name] = variant
        (seconds, own), cpu = machine_spent(
            lambda: revisions.corpus_run_cpu(ROOT, source, Path(scratch) / "out", variant_of, jobs, False))
    if label:
        print(f"{label}hog grade-batch --jobs {jobs} of the same {len(files)} files: {seconds:.1f} s, "
              f"{len(files) / seconds:.2f} submissions/s, {cpu / len(files) * 1000:.0f} ms of the machine's CPU each "
              f"({own / len(files) * 1000:.1f} ms of them the grade-batch process's own)")
    return seconds, cpu, own


def warm_caches() -> None:
    """The grader's cache (its own folder, ``HOG_CACHE``) made as a course's is after its first submissions:
    every variant's shared hidden-case decisions and probes, the win rate of each table of the corpus. The
    server and grade-batch then find the same cache, whichever runs first."""
    started = time.perf_counter()
    files = [("", variant, path) for variant, paths in by_variant().items() for path in paths]
    grade_batch_run(files, 2)
    print(f"the grader's cache warmed first (a grade-batch of each file once, {time.perf_counter() - started:.1f} s), "
          "for the server and grade-batch alike")


def serve_once(label: str, students: int, times: int, within: float, grading: list[str],
               batch_jobs: int | None) -> tuple[float, Batch | None]:
    with tempfile.TemporaryDirectory(prefix="hog-bench-serve-") as scratch:
        course = make_course(Path(scratch), students)
        schedule = plan(course, times, within)
        files = [(sid, course.variant_of[sid], path) for sid, sent in schedule.items() for _, path in sent]
        runs = [grade_batch_run(files, batch_jobs, "\nin the same run, before the burst: ")] if batch_jobs else []
        server = Server(course, *grading)
        try:
            started = cpu_seconds(server.process.pid) or 0.0
            grader = server.grader()
            grader_started = (cpu_seconds(grader) if grader else None) or 0.0
            burst = run_burst(course, schedule)
            burst.within = within
            workers = int(grading[-1])   # --jobs N or --workers N
            load = full_load(spans_of(course.folder / "server" / "hog.sqlite3"), workers)
            # the web and grader processes' part of the burst (not their start: imports, migrations, preparing)
            burst.web_cpu = (cpu_seconds(server.process.pid) or server.web_cpu) - started
            burst.grader_cpu = ((cpu_seconds(grader) if grader else None) or server.grader_cpu) - grader_started
        finally:
            server.stop()
        if batch_jobs:
            runs.append(grade_batch_run(files, batch_jobs, "in the same run, after the burst:  "))
        batch = Batch(runs, len(files)) if runs else None
        if batch:
            print(f"grade-batch's rate, both runs: {batch.rate:.2f} submissions/s")
        return report(label, burst, server, batch, load), batch


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200, help="students in the burst (default 200)")
    parser.add_argument("--times", type=int, default=3, help="uploads per student (default 3)")
    parser.add_argument("--within", type=float, default=60, help="seconds the uploads are spread over (default 60)")
    parser.add_argument("--jobs", type=int, default=2, help="hog serve --jobs, and grade-batch's (default 2)")
    parser.add_argument("--no-dask", action="store_true", help="leave out the burst graded by --workers 2")
    args = parser.parse_args()
    print(f"$ python benchmarks/serve.py {' '.join(sys.argv[1:])}")
    print(f"{args.students} students x {args.times} uploads within {args.within:g} s; {os.cpu_count()} cores; "
          f"load average at the start {os.getloadavg()[0]:.2f}")
    cache = tempfile.mkdtemp(prefix="hog-bench-cache-")
    os.environ["HOG_CACHE"] = cache   # the server's, grade-batch's and the warm-up's: this run's own
    try:
        warm_caches()
        _measure(args)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    return 0


def _measure(args) -> None:
    rate, batch = serve_once(f"hog serve --jobs {args.jobs} (SQLite)", args.students, args.times,
                             args.within, ["--jobs", str(args.jobs)], args.jobs)
    if not args.no_dask:
        dask_rate, _ = serve_once("hog serve --workers 2 (a local 2-worker Dask cluster; SQLite)", args.students,
                                  args.times, args.within, ["--workers", "2"], None)
        if dask_rate:
            print(f"  drain rate against grade-batch --jobs {args.jobs}'s above: {dask_rate / batch.rate:.2f}x")


if __name__ == "__main__":
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
