"""What a move of `hog play --submission` costs now that the submission runs in the sandbox.

Run: python benchmarks/play.py [--repeat 20] [--docs]
Each move starts one sandbox, imports the submission and replays the game so far with
hog_gui_game.py (the same work a student's own page does in a plain Python process per move).
Every figure is measured in this run: the median and the slowest wall time of a move, at
move 1 and at move 30 of a game between two people (a longer game replays more turns), at each isolation level, against the student's own unsandboxed worker
(``python3 -I hog_gui_game.py``) on the same moves and dice. Target: every move under 0.5 s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from grader import project
from grader.classroom import play
from grader.publishing import assign
from grader.sandbox import level as levels
from grader.spec import load_variant

LEVELS = ["process", "files", "bubblewrap"]
TARGET = 0.5


def timed(engine, moves_made: int, repeat: int) -> list[float]:
    """Wall seconds of the move after ``moves_made`` one-die moves of two players, ``repeat`` times
    (the same dice every time, so the game is the same and far from its end)."""
    rng = random.Random(7)
    moves, faces = [[turn % 2, 1] for turn in range(moves_made)], [rng.randint(1, 6) for _ in range(moves_made + 1)]
    walls = []
    for _ in range(repeat):
        started = time.perf_counter()
        answer = engine.run(moves + [[moves_made % 2, 1]], faces, 100, False)
        walls.append(time.perf_counter() - started)
        assert answer.get("ok") and len(answer["turns"]) == moves_made + 1 and answer["next"] is not None, answer
    return walls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    repeat = parser.parse_args().repeat
    variant = load_variant("sp19")
    source = project.SOLUTION / "sp19" / "hog.py"
    with tempfile.TemporaryDirectory() as folder:
        for name, text in assign.student_files(variant).items():
            (Path(folder) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(folder) / name).write_text(text, encoding="utf-8")
        (Path(folder) / "hog.py").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
        engines = {"unsandboxed worker (baseline)": play.gui().StudentEngine(Path(folder))}
        for name in LEVELS:
            os.environ["HOG_SANDBOX"] = name
            try:
                levels.choose(name)
            except Exception as error:   # a level this machine cannot reach
                print(f"{name}: not reachable here: {str(error)[:120]}")
                continue
            engines[f"sandbox, {name}"] = _Pinned(play.SandboxEngine(source, name), name)
        print(f"sp19 reference as the submission; {repeat} moves each; "
              f"load average {os.getloadavg()[0]:.2f}")
        print(f"{'engine':32} {'move 1':>8} {'slowest':>8} {'move 30':>8} {'slowest':>8} {'x base':>7}")
        base = None
        for name, engine in engines.items():
            first, later = timed(engine, 0, repeat), timed(engine, 29, repeat)
            median = statistics.median(later)
            base = base or median
            verdict = "" if max(first + later) < TARGET else f"  over the {TARGET} s target"
            print(f"{name:32} {statistics.median(first):7.3f}s {max(first):7.3f}s {median:7.3f}s "
                  f"{max(later):7.3f}s {median / base:6.2f}x{verdict}")


class _Pinned:
    """A SandboxEngine run with HOG_SANDBOX naming its level."""

    def __init__(self, engine, name: str):
        self.engine, self.name = engine, name

    def run(self, *args):
        os.environ["HOG_SANDBOX"] = self.name
        return self.engine.run(*args)


if __name__ == "__main__":
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
