"""``hog play ID``: the students' Hog page, served on the reference rules, for class.

The page and its server are written once, in the files every student folder gets
(``grader/shipped/student/``: ``hog_gui.py`` the server, ``hog_gui_game.py`` the
replay of a game, ``hog_gui.html``, ``.css`` and ``.js`` the page); this module
loads hog_gui.py by path and gives it the reference ``hog`` module (run in this
process: it is the kit's own code) and the instructor's choice of opponent. ``--vs optimal`` plays the exact
optimal strategy, which never reaches a student folder.

``--submission hog.py`` plays on a student's code instead, and judges every turn
against the reference rules on the same dice: "your take_turn scored 1; the rules
give 9: Free Bacon, opponent at 13". Only the kit can say that, because only the
kit holds the rules' answers. The student's code runs only in the sandbox, as
grading runs it, at the isolation minimum (``--isolation``, else
``$HOG_ISOLATION``, else ``files``): each move is one sandbox that imports the
submission and replays the game with hog_gui_game.py (the same replay as a
student's own page), the dice rolled here. A sandbox that cannot start is the
move's problem, shown on the page; the submission never runs anywhere else.
The rules played are those of the variant named on the command line, so a
hog.py whose first line names none (an older course's) plays too; where the
replay's own checks or the reference fail, the page says the kit failed, never
that the submission's code raised.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import random
import sys
import types
from pathlib import Path
from typing import Callable, TextIO

from grader import project, reference
from grader.publishing import build
from grader.reference import engine
from grader.errors import UsageError
from grader.sandbox import Limits, SandboxUnavailable, StepKind, run_cases
from grader.sandbox.level import Level, choose, minimum_from
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


def game() -> types.ModuleType:
    """hog_gui_game.py, the replay of a game, as hog_gui loaded it."""
    return gui().game_module()


class ReferenceEngine:
    """The kit's reference rules (trusted code), played in this process."""

    def __init__(self, hog, computer=None, variant: str | None = None):
        self.hog, self.computer, self.variant = hog, computer, variant

    def run(self, moves, faces, goal, computer: bool) -> dict:
        try:
            return {"ok": True, **game().run_game(self.hog, moves, faces, goal, self.computer if computer else None,
                                                  owner="the reference", variant=self.variant)}
        except Exception as error:   # the kit's own code: never "your code"
            return _problem(kit_fault(f"the reference rules could not play the move: "
                                      f"{game().describe(error)}"))


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


def app(variant: Variant, *, vs: str = "human", goal: int | None = None, submission: Path | None = None,
        isolation: str | None = None):
    """The page's application (``hog_gui.App``) on the reference rules of ``variant``, or on a
    submission's hog.py judged against them, run in the sandbox at ``isolation`` or above."""
    goal = variant.goal if goal is None else goal
    if not 1 <= goal <= 200:
        raise UsageError("--goal must be from 1 to 200")
    module, hog = gui(), reference.load(variant.id)
    config = {"title": f"Hog: {variant.title}", "source": "the kit's reference hog.py",
              "rules": [{"name": rule.name, "summary": " ".join(rule.summary.split())} for rule in variant.rules]}
    if submission is None:
        computer, label = opponent(variant, vs, goal)
        engine = ReferenceEngine(hog, computer, variant.id)
    else:
        if vs not in ("human", "final"):
            raise UsageError("with --submission, --vs is human or final (the submission's final_strategy)")
        computer, label = vs == "final", "the submission's final_strategy"
        if not submission.is_file() or submission.suffix != ".py":
            raise UsageError(f"--submission {submission}: give a student's hog.py")
        engine = CheckedEngine(SandboxEngine(submission, isolation, variant.id),
                               game().Calls(hog, variant.id, goal, "the reference"))
        config["source"] = (f"{submission.name}, judged against the reference rules "
                            f"(its code runs only in the sandbox, at isolation {engine.engine.minimum.label} or above)")
    config.update(opponent="human" if not computer else "computer", computer=label)
    return module.App(engine, config, goal)


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
                    try:
                        found = judge(self.rules, turn, previous[turn["player"]])
                    except Exception as error:   # a turn no real game has (the submission's answer)
                        found = [f"The reference rules cannot judge this turn: {type(error).__name__}: {error}"]
                    turn["warnings"] = turn["warnings"] + found
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


# ------------------------------------------------------- the submission, sandboxed

# A move may use the CPU time grading gives a case; a loop is stopped within seconds, not a minute.
MOVE_LIMITS = Limits(case_seconds=5.0, total_seconds=30.0, wall_seconds=10.0)
# Dice rolled here for each move beyond the game's so far: a human's turn and the computer's, ten each.
FRESH_FACES = 20
NOTHING_PLAYED = "Nothing was played."


class SandboxEngine:
    """The submission's game, replayed by hog_gui_game.py in a sandbox of its own for every move
    (as grading runs a submission: ``run_cases`` at the isolation minimum), on dice rolled here,
    under the rules of ``variant`` (named on the command line: a hog.py need not name its own)."""

    def __init__(self, submission: Path, isolation: str | None = None, variant: str | None = None):
        self.submission, self.minimum = submission, minimum_from(isolation, otherwise=Level.FILES)
        self.variant = variant
        self.files = {**project.support_files(submission), "hog_gui_game.py": game_file().read_text(encoding="utf-8")}

    def run(self, moves, faces, goal, computer: bool) -> dict:
        fresh = [random.randint(1, 6) for _ in range(FRESH_FACES)]
        request = json.dumps({"moves": moves, "faces": faces + fresh, "goal": goal, "computer": computer,
                              "variant": self.variant})
        try:
            report = run_cases(self.submission, [[f"hog_gui_game.answer_text({request!r})"]],
                               setup=["import hog_gui_game"], support_files=self.files, limits=MOVE_LIMITS,
                               minimum=self.minimum)
        except (SandboxUnavailable, UsageError) as error:   # unreachable, or HOG_SANDBOX below the minimum
            return _problem(f"The sandbox could not start, so the submission's code did not run "
                            f"(hog play runs it nowhere else): {error}")
        if report.import_error is not None:
            return _problem(f"The submission's hog.py did not import in the sandbox: {report.import_error.rstrip('.')}.")
        step = report.cases[0].steps[-1]
        if step.kind is StepKind.TIMEOUT:
            return _problem(f"The submission's code did not finish within {MOVE_LIMITS.case_seconds:g} s of "
                            f"CPU time ({MOVE_LIMITS.backstop:g} s in all): a loop that never ends?")
        if step.error is not None:
            return _problem(f"The submission's code stopped the move in the sandbox: {step.error.rstrip('.')}.")
        result = _answer(step.value)
        if result is None:
            return _problem("The submission's code changed the answer hog_gui_game.py gives into one that is "
                            "not a game.")
        if "unplayable" in result:   # hog_gui_game.py's own check, not the submission's code
            return _problem(kit_fault(f"hog_gui_game.py could not play the move: {result['unplayable']}"))
        if result["ok"]:
            result["notes"] = result["notes"] + [f"The submission ran in the sandbox: {report.isolation}."]
        return result


def game_file() -> Path:
    return GUI.with_name(gui().GAME)


def kit_fault(text: str) -> str:
    """A problem of the kit's own code on the page, never put down to the submission."""
    return f"Grader failed: {text}. This is a fault of the kit, not of the submission; please report it."


def _problem(text: str) -> dict:
    return {"ok": False, "problem": f"{text} {NOTHING_PLAYED}"}


def _answer(text) -> dict | None:
    """hog_gui_game's answer, read from the sandbox: a game the page can show, or None."""
    try:
        answer = json.loads(text) if type(text) is str else None
    except ValueError:
        return None
    if type(answer) is not dict or type(answer.get("ok")) is not bool:
        return None
    if not answer["ok"]:
        known = type(answer.get("problem")) is str and set(answer) <= {"ok", "problem", "unplayable"}
        return answer if known and type(answer.get("unplayable", "")) is str else None
    fields = {"ok", "moves", "faces", "turns", "next", "score", "mode", "notes"}
    if set(answer) != fields or not _moves(answer["moves"]) or not _texts(answer["notes"]) \
            or not _ints(answer["faces"], 1, 6) or answer["next"] not in (0, 1, None) \
            or not _numbers(answer["score"]) or answer["mode"] not in ("play", "turns") \
            or type(answer["turns"]) is not list or not all(_turn(turn) for turn in answer["turns"]):
        return None
    return answer


def _turn(turn) -> bool:
    return (type(turn) is dict and turn.get("player") in (0, 1) and type(turn.get("dice")) is int
            and 0 <= turn["dice"] <= 10 and _ints(turn.get("faces"), 1, 6) and len(turn["faces"]) <= 10
            and _numbers(turn.get("before")) and _numbers(turn.get("score"))
            and ("points" not in turn or type(turn["points"]) in (int, float))
            and all(_texts(turn.get(key)) for key in ("yours", "warnings"))
            and type(turn.get("rules")) is list and all(_texts(rule) and len(rule) == 2 for rule in turn["rules"])
            and set(turn) <= {"player", "dice", "faces", "before", "score", "points", "rules", "yours", "warnings"})


def _ints(values, low: int, high: int) -> bool:
    return type(values) is list and all(type(v) is int and low <= v <= high for v in values)


def _moves(values) -> bool:
    return type(values) is list and all(_ints(v, 0, 10) and len(v) == 2 and v[0] in (0, 1) for v in values)


def _numbers(values) -> bool:
    return type(values) is list and len(values) == 2 and all(type(v) in (int, float) for v in values)


def _texts(values) -> bool:
    return type(values) is list and all(type(v) is str for v in values)


# ------------------------------------------------------------------ serving


def serve(variant: Variant, *, vs: str, goal: int | None, port: int, browser: bool, out: TextIO,
          submission: str | None = None, isolation: str | None = None) -> int:
    """Serve the page until Ctrl-C."""
    if not 0 <= port <= 65535:
        raise UsageError("--port must be from 0 to 65535")
    chosen = app(variant, vs=vs, goal=goal, submission=None if submission is None else Path(submission),
                 isolation=isolation)
    if submission is not None:
        least = chosen.engine.engine.minimum.label
        try:
            reached = choose(least).level.label
            out.write(f"{submission} runs only in the sandbox, at isolation {least} or above (here: {reached}).\n")
        except SandboxUnavailable as error:
            out.write(f"{submission} runs only in the sandbox, and it cannot start here: {error} "
                      "Every move will say so on the page.\n")
    return gui().serve(chosen, port, browser, out)
