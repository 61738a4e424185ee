"""What each isolation level costs: the reference sp19 graded at process, files and bubblewrap levels.

Run: python benchmarks/isolation.py [--repeat 3] [--docs]
Every figure is measured in this run (median wall time of grading the reference of sp19,
public and hidden cases and the final-strategy tabulation); ratios compare each level with
the process level of this run.
A level the machine cannot reach is reported as such.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from grader import project
from grader.grading import grade
from grader.sandbox import SandboxUnavailable
from grader.spec import load_variant

LEVELS = ["process", "files", "bubblewrap"]


def measure(level: str, repeat: int) -> tuple[float, float] | str:
    """(median wall seconds, score) of grading at ``level``, or why it cannot be reached."""
    os.environ["HOG_SANDBOX"] = level
    variant = load_variant("sp19")
    walls, score = [], 0.0
    try:
        for _ in range(repeat):
            started = time.perf_counter()
            result = grade.grade(project.SOLUTION / "sp19", variant, minimum=level)
            walls.append(time.perf_counter() - started)
            score = result.score
    except SandboxUnavailable as error:
        return str(error)
    return statistics.median(walls), score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    figures = {level: measure(level, repeat) for level in LEVELS}
    base = figures["process"]
    print(f"{'level':11} {'wall':>8} {'score':>6} {'wall x':>7}")
    for level, figure in figures.items():
        if isinstance(figure, str):
            print(f"{level:11} not reachable here: {figure[:120]}")
            continue
        wall, score = figure
        ratio = wall / base[0] if not isinstance(base, str) else float("nan")
        print(f"{level:11} {wall:7.2f}s {score:6g} {ratio:6.2f}x")


if __name__ == "__main__":
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
