"""What each isolation level costs: the reference sp19 graded at process, files, bubblewrap and container levels.

Run: python benchmarks/isolation.py [--repeat 3] [--batch 60] [--rounds 3] [--docs]
Every figure is measured in this run (median wall time of grading the reference of sp19,
public and hidden cases and the final-strategy tabulation); ratios compare each level with
the process level of this run.  The container level's first grade starts its container
(``first``); the median is of the grades after it, in the same container.  Then a batch
(``hog grade-batch --jobs 2``, reference and skeleton copies) at files and at container,
in alternating rounds, their median rates compared (target: container at no less than 0.7x files), and what starting a
container costs, alone and shared by the batch's submissions (one container per worker).
The container level needs an engine and the kit's image (built first if missing, on
HOG_CONTAINER_BASE where no registry is reachable).
A level the machine cannot reach is reported as such.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from grader import cli, project
from grader.errors import HogError
from grader.publishing import image
from grader.sandbox import Limits, SandboxUnavailable, container, engine as engines
from grader.grading import grade
from grader.spec import load_variant

LEVELS = ["process", "files", "bubblewrap", "container"]
JOBS = 2


def measure(level: str, repeat: int) -> tuple[float, float] | str:
    """(median wall seconds, score) of grading at ``level``, or why it cannot be reached."""
    os.environ["HOG_SANDBOX"] = level
    variant = load_variant("sp19")
    walls, score = [], 0.0
    try:
        for _ in range(repeat + (level == "container")):
            started = time.perf_counter()
            result = grade.grade(project.SOLUTION / "sp19", variant, minimum=level)
            walls.append(time.perf_counter() - started)
            score = result.score
    except SandboxUnavailable as error:
        return str(error)
    if level == "container":
        print(f"container: the first grade, which starts the container, took {walls[0]:.2f}s")
        walls = walls[1:]
    return statistics.median(walls), score


def container_ready() -> str | None:
    """None once the container level can run here (its image built first if missing), else why not."""
    try:
        image.ensure(out=io.StringIO())
    except HogError as error:
        return str(error)
    return engines.unavailable()


def start_seconds(repeat: int) -> float:
    """Median wall time for a grading container to start and say it is ready, then stop."""
    walls = []
    for _ in range(repeat):
        started = time.perf_counter()
        session = container.Session(engines.find(), engines.image(), Limits())
        walls.append(time.perf_counter() - started)
        session.close()
    return statistics.median(walls)


def batch(level: str, size: int) -> tuple[float, float]:
    """(wall seconds, submissions a second) of ``hog grade-batch --jobs 2`` over ``size`` submissions."""
    os.environ["HOG_SANDBOX"] = level
    folder = Path(tempfile.mkdtemp(prefix="hog-bench-batch-"))
    try:
        for number in range(size):
            (folder / "class" / f"s{number:03d}").mkdir(parents=True)
            source = project.SKELETON if number % 10 == 9 else project.SOLUTION
            shutil.copy(source / "sp19" / "hog.py", folder / "class" / f"s{number:03d}")
        started = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            status = cli.main(["grade-batch", str(folder / "class"), "--variant", "sp19", "--out",
                               str(folder / "out"), "--jobs", str(JOBS), "--isolation", level])
        wall = time.perf_counter() - started
        if status != 0:
            raise SystemExit(f"grade-batch at {level} exited {status}")
        return wall, size / wall
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--batch", type=int, default=60, help="submissions in the batch (default 60)")
    parser.add_argument("--rounds", type=int, default=3, help="batches at each level (default 3)")
    options = parser.parse_args()
    repeat = options.repeat
    unready = container_ready()
    figures = {level: (unready if level == "container" and unready else measure(level, repeat)) for level in LEVELS}
    base = figures["process"]
    print(f"{'level':11} {'wall':>8} {'score':>6} {'wall x':>7}")
    for level, figure in figures.items():
        if isinstance(figure, str):
            print(f"{level:11} not reachable here: {figure[:120]}")
            continue
        wall, score = figure
        ratio = wall / base[0] if not isinstance(base, str) else float("nan")
        print(f"{level:11} {wall:7.2f}s {score:6g} {ratio:6.2f}x")
    if unready:
        return
    container._close()
    start = start_seconds(repeat)
    runs: dict[str, list[tuple[float, float]]] = {"files": [], "container": []}
    for _ in range(options.rounds):      # alternately, so that a change in the machine's load touches both
        for level in runs:
            runs[level].append(batch(level, options.batch))
    rates = {level: sorted(found, key=lambda run: run[1])[len(found) // 2] for level, found in runs.items()}
    print(f"\nA batch of {options.batch} (hog grade-batch --jobs {JOBS}; every tenth a skeleton; "
          f"the median of {options.rounds} rounds, the levels alternating):")
    print(f"{'level':11} {'wall':>8} {'per s':>7} {'rate x':>7}")
    for level, (wall, rate) in rates.items():
        print(f"{level:11} {wall:7.2f}s {rate:7.2f} {rate / rates['files'][1]:6.2f}x")
    print(f"\nStarting a container (until the kit in it is ready): {start:.2f}s (median of {repeat}); "
          f"one per worker, so {JOBS * start / options.batch:.3f}s of container start per submission in this batch")
    ratio = rates["container"][1] / rates["files"][1]
    print(f"container batch rate / files batch rate: {ratio:.2f}x (target: at least 0.70x): "
          f"{'met' if ratio >= 0.7 else 'NOT met'}")


if __name__ == "__main__":
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
