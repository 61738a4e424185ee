"""``hog play ID``: the students' Hog page, served on the reference rules, for class.

The page and its server are written once, in the file every student folder gets
(``grader/shipped/student/hog_gui.py``); this module loads that file by path and
gives it the reference ``hog`` module (run in this process: it is the kit's own
code) and the instructor's choice of opponent. ``--vs optimal`` plays the exact
optimal strategy, which never reaches a student folder.

``--submission hog.py`` plays on a student's code instead (in hog_gui's worker
process, never in this one) and judges every turn against the reference rules on
the same dice: "your take_turn scored 1; the rules give 9: Free Bacon, opponent
at 13". Only the kit can say that, because only the kit holds the rules' answers.
"""

from __future__ import annotations

import atexit
import functools
import importlib.util
import shutil
import sys
import tempfile
import types
from pathlib import Path
from typing import Callable, TextIO

from grader import build, engine, project, reference
from grader.errors import UsageError
from grader.spec import Variant

GUI = project.SHIPPED / "student" / "hog_gui.py"
OPPONENTS = "human, final, optimal or always:N (N from 0 to 10)"


@functools.cache
def gui() -> types.ModuleType:
    """hog_gui.py as a module (loaded once)."""
    spec = importlib.util.spec_from_file_location("hog_kit_gui", GUI)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("hog_kit_gui", module)
    spec.loader.exec_module(module)
    return module


def opponent(variant: Variant, vs: str, goal: int) -> tuple[Callable | None, str]:
    """The computer's strategy for ``--vs`` and how the page names it (None: two humans)."""
    if vs == "human":
        return None, "nobody"
    if vs == "final":
        return reference.load(variant.id).final_strategy, "the reference final_strategy"
    if vs == "optimal":
        if goal == variant.goal:
            rows = build.final_rows(variant)
            return (lambda score, opponent_score: int(rows[score][opponent_score], 16)), "the optimal strategy"
        return engine.solve(variant.id, goal), f"the optimal strategy for goal {goal}"
    if vs.startswith("always:") and vs[len("always:"):].isdigit() and int(vs[len("always:"):]) <= 10:
        n = int(vs[len("always:"):])
        return (lambda score, opponent_score: n), f"always_roll({n})"
    raise UsageError(f"--vs {vs!r} is not an opponent (use {OPPONENTS})")


def app(variant: Variant, *, vs: str = "human", goal: int | None = None, submission: Path | None = None):
    """The page's application (``hog_gui.App``) on the reference rules of ``variant``, or on a
    submission's hog.py judged against them."""
    goal = variant.goal if goal is None else goal
    if not 1 <= goal <= 200:
        raise UsageError("--goal must be from 1 to 200")
    module, hog = gui(), reference.load(variant.id)
    config = {"title": f"Hog: {variant.title}", "source": "the kit's reference hog.py",
              "rules": [{"name": rule.name, "summary": " ".join(rule.summary.split())} for rule in variant.rules]}
    if submission is None:
        computer, label = opponent(variant, vs, goal)
        engine = module.LocalEngine(hog, computer)
    else:
        if vs not in ("human", "final"):
            raise UsageError("with --submission, --vs is human or final (the submission's final_strategy)")
        computer, label = vs == "final", "the submission's final_strategy"
        engine = CheckedEngine(module.StudentEngine(_submission_folder(submission)),
                               module.Calls(hog, variant.id, goal, "the reference"))
        config["source"] = f"{submission.name}, judged against the reference rules"
    config.update(opponent="human" if not computer else "computer", computer=label)
    return module.App(engine, config, goal)


def _submission_folder(submission: Path) -> Path:
    """A private folder holding the submission as hog.py and the kit's dice.py."""
    if not submission.is_file() or submission.suffix != ".py":
        raise UsageError(f"--submission {submission}: give a student's hog.py")
    folder = Path(tempfile.mkdtemp(prefix="hog-play-"))
    atexit.register(shutil.rmtree, folder, True)
    shutil.copyfile(submission, folder / "hog.py")
    shutil.copyfile(project.DICE, folder / "dice.py")
    return folder


class CheckedEngine:
    """A student's engine whose every turn is judged against the reference on the same dice."""

    def __init__(self, engine, rules):
        self.engine, self.rules = engine, rules

    def run(self, moves, faces, goal, computer: bool) -> dict:
        result = self.engine.run(moves, faces, goal, computer)
        if result.get("ok"):
            previous = [0, 0]
            for turn in result["turns"]:
                if "points" in turn:
                    turn["warnings"] = turn["warnings"] + judge(self.rules, turn, previous[turn["player"]])
                previous[turn["player"]] = turn["dice"]
        return result


def judge(rules, turn: dict, previous: int) -> list[str]:
    """Where a turn of the submission's game differs from the reference rules on the same dice."""
    who, n, faces = turn["player"], turn["dice"], turn["faces"]
    mine, theirs = turn["before"][who], turn["before"][1 - who]
    extra = 3 if rules.vid == "fa19" and abs(n - previous) == 2 else 0
    points = rules.points(n, mine, theirs, faces)
    theirs_points = turn["points"] - extra
    found = []
    if theirs_points != points:
        why = (f"{rules.zero_rule}, opponent at {theirs}" if n == 0 else
               "Pig Out" if 1 in faces else "the sum of the dice")
        if rules.vid == "nju21" and n and any(face % 2 == mine % 2 for face in faces):
            why += f" and Feral Hogs at a score of {mine}"
        found.append(f"Your take_turn scored {theirs_points:g}; the rules give {points:g}: {why}.")
    total = mine + points + extra
    swapped = rules.swaps(total, theirs)
    ends = (theirs, total) if swapped else (total, theirs)
    expected = [ends[0], ends[1]] if who == 0 else [ends[1], ends[0]]
    if expected != turn["score"]:
        found.append(f"Your game ended this turn at {turn['score'][0]:g} to {turn['score'][1]:g}; the rules give "
                     f"{expected[0]:g} to {expected[1]:g}" + (" (Swine Swap)." if swapped else " (no swap)."))
    return found


def serve(variant: Variant, *, vs: str, goal: int | None, port: int, browser: bool, out: TextIO,
          submission: str | None = None) -> int:
    """Serve the page until Ctrl-C."""
    if not 0 <= port <= 65535:
        raise UsageError("--port must be from 0 to 65535")
    chosen = app(variant, vs=vs, goal=goal, submission=None if submission is None else Path(submission))
    return gui().serve(chosen, port, browser, out)
