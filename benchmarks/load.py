"""Grading under load: does every reference solution still score full when the cores are busy?

Grades the reference solution of every variant with ``hog grade`` (each grade its
own process, a fresh seed each time, as Gradescope runs it), 4 at a time, pinned
to 2 cores, first on those cores left idle by this script, then while other
processes keep both cores busy. Prints, for each phase, how many grades scored
full and the time per grade, and the ratio between the phases. Every figure is
measured in this run; the machine's load average at the start is printed, since
other users' work counts as load too.

Run: python benchmarks/load.py [--runs 50] [--idle-runs 5] [--jobs 4] [--isolation files] [--docs]
(--runs and --idle-runs are grades per variant.)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ["sp19", "nju24", "nju21", "fa19", "fa18"]
BURN = "while True:\n    pass\n"


@dataclass(frozen=True)
class Grade:
    variant: str
    seconds: float
    full: bool
    detail: str


def grade_once(variant: str, isolation: str) -> Grade:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(ROOT / "solution" / variant),
                           "--variant", variant, "--format", "json", "--isolation", isolation],
                          capture_output=True, text=True, cwd=ROOT, timeout=900)
    seconds = time.perf_counter() - started
    try:
        data = json.loads(done.stdout)
    except ValueError:
        return Grade(variant, seconds, False, f"exit {done.returncode}: {done.stderr.strip()[-300:]}")
    full = done.returncode == 0 and data.get("score") == data.get("max_score") and not data.get("grader_failed")
    lost = [f"{t['name']}: {t['output'][:200]}" for t in data.get("tests", []) if t.get("score") != t.get("max_score")]
    return Grade(variant, seconds, full, f"seed {data.get('seed')}: " + " | ".join(lost) if lost else "")


def phase(name: str, runs: int, jobs: int, isolation: str) -> list[Grade]:
    tasks = [variant for _ in range(runs) for variant in VARIANTS]
    started = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        grades = list(pool.map(lambda variant: grade_once(variant, isolation), tasks))
    wall = time.perf_counter() - started
    times = [g.seconds for g in grades]
    full = sum(g.full for g in grades)
    print(f"{name}: {full}/{len(grades)} grades scored full; per grade: median {statistics.median(times):.2f} s, "
          f"mean {statistics.mean(times):.2f} s, max {max(times):.2f} s; wall {wall:.1f} s for {len(grades)} "
          f"grades, {jobs} at a time", flush=True)
    for variant in VARIANTS:
        mine = [g for g in grades if g.variant == variant]
        print(f"  {variant:6} {sum(g.full for g in mine)}/{len(mine)} full, median "
              f"{statistics.median(g.seconds for g in mine):.2f} s", flush=True)
    for grade in grades:
        if not grade.full:
            print(f"  NOT FULL {grade.variant} ({grade.seconds:.1f} s): {grade.detail}", flush=True)
    return grades


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50, help="grades per variant under load (default 50)")
    parser.add_argument("--idle-runs", type=int, default=5, help="grades per variant without load (default 5)")
    parser.add_argument("--jobs", type=int, default=4, help="grades at a time (default 4)")
    parser.add_argument("--cores", type=int, default=2, help="cores to pin to (default 2)")
    parser.add_argument("--isolation", default="files", help="--isolation of each grade (default files)")
    args = parser.parse_args()
    cores = sorted(os.sched_getaffinity(0))[:args.cores]
    os.sched_setaffinity(0, cores)  # every grade, sandbox and burner started from here inherits it
    print(f"pinned to cores {cores}; load average at start: {os.getloadavg()[0]:.2f} "
          f"(other users' work counts as load too)", flush=True)
    idle = phase("idle (no burners)", args.idle_runs, args.jobs, args.isolation)
    burners = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in cores]
    try:
        busy = phase(f"busy ({len(burners)} processes spinning on the {len(cores)} cores)", args.runs, args.jobs,
                     args.isolation)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    ratio = statistics.median(g.seconds for g in busy) / statistics.median(g.seconds for g in idle)
    print(f"busy/idle median time per grade: {ratio:.2f}x; full under load: "
          f"{sum(g.full for g in busy)}/{len(busy)}", flush=True)
    return 0 if all(g.full for g in busy + idle) else 1


if __name__ == "__main__":
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
