"""``hog play ID``: the students' Hog page, served on the reference rules, for class.

The page and its server are written once, in the file every student folder gets
(``grader/sources/student/hog_gui.py``); this module loads that file by path and
gives it the reference ``hog`` module (run in this process: it is the kit's own
code) and the instructor's choice of opponent. ``--vs optimal`` plays the exact
optimal strategy, which never reaches a student folder.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
import types
from typing import Callable, TextIO

from grader import build, project, reference
from grader.errors import UsageError
from grader.spec import Variant

GUI = project.SOURCES / "student" / "hog_gui.py"
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
        from grader.strategy import optimal
        return optimal.solve(variant.id, goal), f"the optimal strategy for goal {goal}"
    if vs.startswith("always:") and vs[len("always:"):].isdigit() and int(vs[len("always:"):]) <= 10:
        n = int(vs[len("always:"):])
        return (lambda score, opponent_score: n), f"always_roll({n})"
    raise UsageError(f"--vs {vs!r} is not an opponent (use {OPPONENTS})")


def app(variant: Variant, *, vs: str = "human", goal: int | None = None):
    """The page's application (``hog_gui.App``) on the reference rules of ``variant``."""
    goal = variant.goal if goal is None else goal
    if not 1 <= goal <= 200:
        raise UsageError("--goal must be from 1 to 200")
    computer, label = opponent(variant, vs, goal)
    config = {"title": f"Hog: {variant.title}", "source": "the kit's reference hog.py",
              "rules": [{"name": rule.name, "summary": " ".join(rule.summary.split())} for rule in variant.rules],
              "opponent": "human" if computer is None else "computer", "computer": label}
    module = gui()
    return module.App(module.LocalEngine(reference.load(variant.id), computer), config, goal)


def serve(variant: Variant, *, vs: str, goal: int | None, port: int, browser: bool, out: TextIO) -> int:
    """Serve the page until Ctrl-C."""
    if not 0 <= port <= 65535:
        raise UsageError("--port must be from 0 to 65535")
    return gui().serve(app(variant, vs=vs, goal=goal), port, browser, out)
