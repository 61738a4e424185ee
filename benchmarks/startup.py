"""What `hog grade` costs outside the sandbox: from the interpreter's start to the sandbox's start,
and from the sandbox's end to the exit, against the bare interpreter's start-up in the same run.

Run: python benchmarks/startup.py [--variant sp19] [--repeat 7] [--docs]
Each figure is the median of the runs, each run a new process. The sandbox's own time is shown
for scale, not judged here (benchmarks/grading.py times the whole command).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from grader import project

# Runs `hog grade` in this process, timing the call of the sandbox (grader.sandbox.run_cases).
DRIVER = r"""
import time
started = time.perf_counter()
import io, json, sys
import grader.sandbox as sandbox
marks = {}
run_cases = sandbox.run_cases
def timed(*args, **options):
    marks["enter"] = time.perf_counter()
    try:
        return run_cases(*args, **options)
    finally:
        marks["exit"] = time.perf_counter()
sandbox.run_cases = timed
from grader import cli
out, sys.stdout = sys.stdout, io.StringIO()
status = cli.main(sys.argv[1:])
ended = time.perf_counter()
out.write(json.dumps({"status": status, "before": marks["enter"] - started,
                      "sandbox": marks["exit"] - marks["enter"], "after": ended - marks["exit"]}))
"""


def wall(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="sp19")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    grade = ["grade", str(project.SOLUTION / args.variant), "--variant", args.variant, "--format", "json",
             "--seed", "1"]
    subprocess.run([sys.executable, "-m", "grader.cli", *grade], check=True, capture_output=True)  # caches
    runs, bare, whole = [], [], []
    for _ in range(args.repeat):   # interleaved, so a change of load hits every figure alike
        bare.append(wall([sys.executable, "-c", "pass"]))
        whole.append(wall([sys.executable, "-m", "grader.cli", *grade]))
        result = subprocess.run([sys.executable, "-c", DRIVER, *grade], check=True, capture_output=True, text=True)
        runs.append(json.loads(result.stdout))
    before = statistics.median(run["before"] for run in runs)
    after = statistics.median(run["after"] for run in runs)
    sandbox = statistics.median(run["sandbox"] for run in runs)
    print(f"$ python benchmarks/startup.py --variant {args.variant} --repeat {args.repeat}")
    print(f"hog grade {args.variant} (a new process, caches warm), median of {args.repeat}:")
    print(f"  bare interpreter start-up (python -c pass) {1000 * statistics.median(bare):6.1f} ms")
    print(f"  the whole command                          {1000 * statistics.median(whole):6.1f} ms")
    print(f"  after start-up, until the sandbox starts   {1000 * before:6.1f} ms")
    print(f"  the sandbox run (for scale)                {1000 * sandbox:6.1f} ms")
    print(f"  after the sandbox, until the report is out {1000 * after:6.1f} ms")
    print(f"  outside the sandbox, over the bare start-up {1000 * (before + after):5.1f} ms "
          f"(the interpreter's exit is in the whole command only)")
    compiled = Path(importlib.util.cache_from_source(str(project.PACKAGE / "grade.py"))).exists()
    print(f"load average while measuring: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; the kit's "
          f"modules {'have' if compiled else 'have no'} bytecode files (without, each run compiles them: "
          f"python -m compileall grader)")


if __name__ == "__main__":
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
