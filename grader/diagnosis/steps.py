"""The rules of one step of the game, said with its numbers: what the reference's rule functions give, in
the words of the spec's rules (``grader.spec.explain``). Each function returns the points or the verdict
the rules give and a ``Said``: the sentences and the names of the rules that applied."""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field

from grader.spec import Variant
from grader.spec import explain


@dataclass
class Said:
    sentences: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)

    def add(self, variant: Variant, applies: str, *numbers, applied: bool = True) -> None:
        rule = variant.rule(applies)
        name = rule.name if rule else {"roll": "the dice", "zero_dice": "rolling zero dice", "bonus": "the bonus",
                                       "swap": "the swap"}[applies]
        self.sentences.append(f"{name}: " + explain.render(applies, rule.explain if rule else "", *numbers))
        if applied and rule and rule.name not in self.rules:
            self.rules.append(rule.name)

    @property
    def text(self) -> str:
        return "; ".join(self.sentences)


class Rules:
    """The reference's rule functions of a variant, called as its signatures say."""

    def __init__(self, variant: Variant, hog):
        self.variant, self.hog = variant, hog
        functions = variant.functions
        self.zero = getattr(hog, functions.get("zero_dice", ""), None)
        self.swap = getattr(hog, functions.get("swap", ""), None)
        self.swap_arity = len(inspect.signature(self.swap).parameters) if self.swap else 0
        self.parity = "parity_bonus" in variant.features
        self.dice_count = "dice_count_bonus" in variant.features

    def zero_dice(self, opponent: int, said: Said) -> int:
        points = self.zero(opponent)
        said.add(self.variant, "zero_dice", opponent, points)
        return points

    def rolled(self, outcomes: list[int], score: int, said: Said) -> int:
        points = 1 if 1 in outcomes else sum(outcomes)
        said.add(self.variant, "roll", outcomes, points, applied=1 in outcomes)
        if self.parity:
            extra = sum(1 for outcome in outcomes if outcome % 2 == score % 2)
            said.add(self.variant, "bonus", score, outcomes, len(outcomes), 0, extra, applied=extra > 0)
            points += extra
        return points

    def turn_points(self, rolled: int, outcomes: list[int], score: int, opponent: int, said: Said) -> int:
        if rolled == 0:
            return self.zero_dice(opponent, said)
        return self.rolled(outcomes, score, said)

    def swaps(self, player: int, opponent: int, said: Said | None = None) -> bool:
        verdict = bool(self.swap(player) if self.swap_arity == 1 else self.swap(player, opponent))
        if said is not None:
            said.add(self.variant, "swap", player, opponent, verdict, applied=verdict)
        return verdict

    def feral(self, rolled: int, previous: int, said: Said) -> int:
        extra = 3 if abs(rolled - previous) == 2 else 0
        if extra:
            said.add(self.variant, "bonus", 0, [], rolled, previous, extra)
        return extra


def example(variant: Variant, hog, applies: str) -> str:
    """The explanation of rule step ``applies`` with numbers of a turn where it applies, the values the
    reference gives: what the handout shows under the rule (the words a diagnosis uses, with other numbers)."""
    rules = Rules(variant, hog)
    if applies == "roll":
        numbers = ([2, 1, 6], 1)
    elif applies == "zero_dice":
        numbers = (47, rules.zero(47))
    elif applies == "swap":
        player, opponent = next(((x, b) for x in range(21, 200) for b in range(11, 100)
                                 if x != b and rules.swaps(x, b)), (43, 83))
        numbers = (player, opponent, rules.swaps(player, opponent))
    elif rules.parity:
        numbers = (21, [3, 5, 6], 3, 0, 2)
    else:
        numbers = (0, [], 3, 1, 3)
    rule = variant.rule(applies)
    return explain.render(applies, rule.explain if rule else "", *numbers)
