"""The model of a variant: frozen dataclasses for a spec and what it holds (``grader.spec`` reads
a spec file into them, with errors located; everything else of the kit reads only these)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Mapping, Sequence

from grader.errors import UsageError
from grader.spec.choices import Alternative
from grader.spec.unlock import Unlock


ROLES = (
    "roll_dice", "zero_dice", "take_turn", "swap", "play", "feral_hogs", "commentary",
    "announce_highest", "always_roll", "is_always_roll", "make_averaged",
    "max_scoring_num_rolls", "zero_strategy", "swap_strategy", "final_strategy",
)
"""What a question grades. The solution sources mark each role's code with
``# BEGIN PROBLEM <role>``; hidden cases are generated per role. ``feral_hogs`` (fa19's 5b) grades
the Feral Hogs part of ``play``: its code lies in play's problem, under the same number (5)."""

FEATURES = {
    "parity_bonus": "each die whose outcome has the parity of the player's score adds a point "
                    "(nju21's Feral Hogs; roll_dice and take_turn take the current score)",
    "dice_count_bonus": "3 extra points when the dice count differs by exactly 2 from the player's "
                        "previous one (fa19's Feral Hogs; play takes feral_hogs=)",
}
"""What a rule adds beyond the common game, by identifier: the strategy engine and the
hidden cases read these from the spec (a rule's ``feature``), never from a function's parameters."""

ORIGIN_PATTERN = re.compile(r"^(?P<seed>[\w.]+\.txt): (?P<rule>[^,]+), example (?P<example>\d+)$")
ADDED = "added"


# ---------------------------------------------------------------- the models


@dataclass(frozen=True)
class Step:
    """One line typed at the prompt (possibly continued) and what it shows."""
    source: str
    want: str


@dataclass(frozen=True)
class Case:
    id: str
    question: str           # the question number, e.g. "01"
    origin: str             # "<seed file>: <rule>, example <n>" or "added"
    session: str            # the interpreter session as typed, ">>> " prompts included
    steps: tuple[Step, ...]
    hidden: bool
    note: str
    path: str               # spec file
    line: int               # line of the case in the spec file
    locked: bool = False    # the student unlocks it (predicts its answers) before running it

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def label(self) -> str:
        """Where the case comes from, in words a student can use (the handout's rules, not the
        seed file): ``rules, Pig Out, example 1``, or ``added``."""
        match = ORIGIN_PATTERN.match(self.origin)
        return f"rules, {match['rule']}, example {match['example']}" if match else self.origin

    @property
    def rule(self) -> str | None:
        match = ORIGIN_PATTERN.match(self.origin)
        return match["rule"] if match else None

    @property
    def example(self) -> int | None:
        match = ORIGIN_PATTERN.match(self.origin)
        return int(match["example"]) if match else None


@dataclass(frozen=True)
class Threshold:
    win_rate: float
    points: float


@dataclass(frozen=True)
class Question:
    number: str
    role: str
    function: str
    title: str
    phase: int
    points: float
    partial: bool
    thresholds: tuple[Threshold, ...]
    cases: tuple[Case, ...]
    line: int
    task: str = ""   # what the student does, where the function's docstring does not say it
    unlock: Unlock = Unlock()
    alternatives: tuple[Alternative, ...] = ()   # choices the rules leave open
    forbidden: tuple[str, ...] = ()              # constructs the function may not use (see CONSTRUCTS)
    name: str = ""   # how results name it where not "Question <label>": an imported okpy test's own name

    @property
    def heading(self) -> str:
        """The question as every result names it: ``Question 5``, or an okpy test's name (``Question 1``)."""
        return self.name or f"Question {self.label}"

    @property
    def locked(self) -> bool:
        """Whether the student has something to unlock in this question."""
        return bool(self.unlock.concepts) or any(case.locked for case in self.cases)

    @property
    def label(self) -> str:
        """The number as the course prints it in ``# BEGIN PROBLEM 5``."""
        return self.number.lstrip("0") or "0"

    @property
    def problem(self) -> str:
        """The problem whose code this question grades, as ``# BEGIN PROBLEM 5`` prints it: questions
        5a and 5b both grade the code under problem 5."""
        return self.label.rstrip("abcdefghijklmnopqrstuvwxyz") or self.label

    @property
    def key(self) -> str:
        """The name used on the command line and in file names: ``q05``."""
        return f"q{self.number}"


@dataclass(frozen=True)
class Rule:
    name: str                # the seed's name, as the handout shows it
    summary: str
    choices: tuple[str, ...]
    line: int
    feature: str = ""        # one of FEATURES when the rule adds one
    applies: str = ""        # the step of a turn it decides (grader.spec.explain.APPLIES), "" if not said
    explain: str = ""        # its arithmetic in words, with fields (grader.spec.explain)


@dataclass(frozen=True)
class Phase:
    number: int
    title: str


@dataclass(frozen=True)
class Composition:
    """A variant whose hog.py is a family layout filled with catalogue rules (``compose:``)."""
    layout: str
    zero_dice: str
    swap: str
    bonus: str = ""


@dataclass(frozen=True)
class Variant:
    id: str
    title: str
    course: str
    seed: str
    goal: int
    baseline: int
    setup: str
    phases: tuple[Phase, ...]
    rules: tuple[Rule, ...]
    questions: tuple[Question, ...]
    path: str
    compose: "Composition | None" = None   # a variant built from catalogue rules (hog mint)
    setup_steps: tuple[Step, ...] = ()      # ``setup`` read as a session, as each case's is

    @property
    def cases(self) -> tuple[Case, ...]:
        return tuple(case for question in self.questions for case in question.cases)

    @property
    def functions(self) -> dict[str, str]:
        """Role → function name, for the roles this variant grades."""
        return {question.role: question.function for question in self.questions}

    def question(self, key: str) -> Question:
        """Find a question by ``05``, ``5``, ``q05`` or ``q5``; raise KeyError."""
        wanted = _label(key)
        for question in self.questions:
            if question.label.lower() == wanted:
                return question
        raise KeyError(key)

    def questions_named(self, key: str) -> tuple[Question, ...]:
        """The question ``key`` names (as ``question``), or every part of the problem it names (``5``:
        5a and 5b); raise KeyError."""
        try:
            return (self.question(key),)
        except KeyError:
            parts = tuple(q for q in self.questions if q.problem != q.label and q.problem == _label(key))
            if parts:
                return parts
            raise

    @property
    def contents(self) -> str:
        """The variant as text, without where its spec was read from: what a cache of things made from it
        is keyed by (a course folder's copy of a spec, or a spec read through another working folder, is
        the same variant)."""
        questions = tuple(replace(question, cases=tuple(replace(case, path="") for case in question.cases))
                          for question in self.questions)
        return repr(replace(self, path="", questions=questions))

    @property
    def points(self) -> float:
        return sum(question.points + question.unlock.points for question in self.questions)

    def rule(self, applies: str) -> Rule | None:
        """The rule that decides step ``applies`` of a turn (grader.spec.explain.APPLIES), or None."""
        return next((rule for rule in self.rules if rule.applies == applies), None)

    @property
    def features(self) -> frozenset[str]:
        """The FEATURES this variant's rules add."""
        return frozenset(rule.feature for rule in self.rules if rule.feature)


# ---------------------------------------------------------- points of a course


def _label(key: str) -> str:
    """What ``05``, ``5``, ``q05`` and ``Q5`` name: a question's label (or a problem's), lower case."""
    return key.lower().removeprefix("q").lstrip("0") or "0"


def with_points(variant: Variant, points: Mapping[str, float], *,
                thresholds: Sequence[tuple[float, float]] | None = None, source: str = "") -> Variant:
    """The variant with other points per question: ``points`` maps a question (``"05a"``, ``"5a"``,
    ``"q05a"``, as ``Variant.question`` finds it) to its points. Every report, handout and gradebook
    reads the points from the Variant it is given, so the result grades and shows with these points.

    Changing the final strategy's points scales its thresholds' points alike, unless ``thresholds``
    gives them anew: (win rate, points) pairs, rising. A question not named keeps its points.
    Raises UsageError for a question the variant lacks, a point that is negative or not a number,
    or thresholds that do not fit; ``source`` (e.g. ``course.toml:12``) starts each message."""
    where = f"{source}: " if source else ""
    new: dict[str, float] = {}
    for key, value in points.items():
        try:
            question = variant.question(str(key))
        except KeyError:
            known = ", ".join(q.label for q in variant.questions)
            raise UsageError(f"{where}no question {key} in {variant.id} (its questions: {known})") from None
        new[question.number] = _points(value, f"{where}question {key}")
    questions = []
    for question in variant.questions:
        worth = new.get(question.number, question.points)
        kept = question.thresholds
        if question.role == "final_strategy" and thresholds is not None:
            kept = _thresholds(thresholds, worth, where)
        elif worth != question.points and kept:
            scale = worth / question.points if question.points else 0.0
            kept = tuple(replace(t, points=t.points * scale) for t in kept)
        questions.append(replace(question, points=worth, thresholds=kept))
    if thresholds is not None and not any(q.role == "final_strategy" for q in variant.questions):
        raise UsageError(f"{where}{variant.id} has no final strategy to set thresholds for (remove them)")
    return replace(variant, questions=tuple(questions))


def _points(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise UsageError(f"{what}: {value!r} is not a number of points (write a number, e.g. 2)")
    if value < 0:
        raise UsageError(f"{what}: {value:g} points is negative (points are 0 or more)")
    return float(value)


def _thresholds(pairs: Sequence[tuple[float, float]], worth: float, where: str) -> tuple[Threshold, ...]:
    found: list[Threshold] = []
    for win_rate, points in pairs:
        if isinstance(win_rate, bool) or not isinstance(win_rate, (int, float)) or not 0 <= win_rate <= 1:
            raise UsageError(f"{where}threshold win rate {win_rate!r} is not a probability "
                             f"(write a number from 0 to 1, e.g. 0.55)")
        rate = float(win_rate)
        earned = _points(points, f"{where}threshold at {rate:g}")
        if earned > worth:
            raise UsageError(f"{where}the threshold at {rate:g} gives {earned:g} points, but the final strategy "
                             f"is worth {worth:g} (keep each threshold within the question's points)")
        if found and rate <= found[-1].win_rate:
            raise UsageError(f"{where}thresholds must rise (list them from the lowest win rate to the highest)")
        found.append(Threshold(rate, earned))
    return tuple(found)
