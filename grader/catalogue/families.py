"""Rule families with parameters: each makes a catalogue member from a few whole numbers.

A family is a function ``params -> (source, summary, choices, explain)``:
the rule's Python text, the handout's words, and ``explain(*args)`` which
classifies an input as ``(branch, sentence)``. The member's branches are the
first input of each branch class met in a fixed scan of scores, so they
exercise every branch (the catalogue checks every line runs) and never are
written by hand.
"""

from __future__ import annotations

import random
import textwrap
from dataclasses import dataclass
from typing import Callable

from grader.catalogue.model import CatalogueError, Member, make

ZERO_DOC = '''{words}

    score:  The opponent's current score.
    """
'''
SWAP_DOC = '''{words}
    """
'''
DIGITS = "    tens, ones = score // 10 % 10, score % 10\n"
ONE_DIGIT = "A one-digit score has a tens digit of 0; a score of 100 or more uses its last two digits."
SWAP_CHOICES = ("The swap is judged once the turn's points are added and before the game checks for a winner, "
                "so a swap can hand the opponent the win.",)


@dataclass(frozen=True)
class Family:
    name: str
    kind: str
    ranges: dict[str, tuple[int, ...]]     # parameter → allowed values (drawn from these)
    make: Callable[..., tuple[str, str, tuple[str, ...], Callable]]
    check: Callable[..., str] = lambda **params: ""   # a reason the parameters do not fit, or ""


def _term(coefficient: int, name: str) -> str:
    return "" if coefficient == 0 else name if coefficient == 1 else f"{coefficient} * {name}"


def _words(coefficient: int, name: str) -> str:
    return "" if coefficient == 0 else f"the {name}" if coefficient == 1 else f"{coefficient} times the {name}"


def _clamped(expression: str, k: int) -> str:
    return f"    return min(max({expression}, 1), {k})\n"


def _doc(text: str) -> str:
    return textwrap.fill(text, width=80, initial_indent='    """', subsequent_indent="    ")


def _zero_source(words: str, k: int, expression: str) -> str:
    doc = ZERO_DOC.format(words=_doc(f"Return the points scored from rolling 0 dice: {words}, using the digits "
                                     f"of the opponent's score, kept between 1 and {k}."))
    return f"def zero_dice(score):\n{doc}{DIGITS}{_clamped(expression, k)}"


def _zero_summary(words: str, k: int) -> str:
    return (f"Rolling zero dice scores {words}, using the digits of the opponent's score, but never less than "
            f"1 point and never more than {k}.")


def _digits(score: int) -> tuple[int, int]:
    return score // 10 % 10, score % 10


def _explain_clamp(raw: Callable[[int], int], k: int) -> Callable:
    def explain(score):
        value = raw(score)
        if value < 1:
            return "low", f"Against {score} the formula gives {value}, below 1, so the rule scores 1."
        if value > k:
            return "high", f"Against {score} the formula gives {value}, above {k}, so the rule scores {k}."
        if score < 10:
            return "one", f"Against {score}, a one-digit score (tens digit 0), the formula gives {value}."
        if score >= 100:
            return "big", f"Against {score} only the last two digits count: the formula gives {value}."
        return "mid", f"Against {score} the formula gives {value}."
    return explain


def digits_linear(a: int, b: int, c: int, k: int):
    expression = " + ".join(t for t in (_term(a, "tens"), _term(b, "ones"), str(c) if c else "") if t)
    words = " plus ".join(t for t in (_words(a, "tens digit"), _words(b, "ones digit"), str(c) if c else "") if t)
    source = _zero_source(words, k, expression)
    summary = _zero_summary(words, k)
    raw = lambda s: a * _digits(s)[0] + b * _digits(s)[1] + c  # noqa: E731
    return source, summary, (ONE_DIGIT,), _explain_clamp(raw, k)


def digits_extreme(largest: int, a: int, c: int, k: int):
    which = "max" if largest else "min"
    word = "larger" if largest else "smaller"
    expression = " + ".join(t for t in (_term(a, f"{which}(tens, ones)"), str(c) if c else "") if t)
    words = f"{'' if a == 1 else f'{a} times '}the {word} of the tens and ones digits" + (f" plus {c}" if c else "")
    source = _zero_source(words, k, expression)
    summary = _zero_summary(words, k)
    pick = max if largest else min
    raw = lambda s: a * pick(*_digits(s)) + c  # noqa: E731
    return source, summary, (ONE_DIGIT,), _explain_clamp(raw, k)


def digits_distance(a: int, c: int, k: int):
    expression = " + ".join(t for t in (_term(a, "abs(tens - ones)"), str(c)) if t)
    words = (f"{'' if a == 1 else f'{a} times '}the distance between the tens and ones digits plus {c}")
    source = _zero_source(words, k, expression)
    summary = _zero_summary(words, k)
    raw = lambda s: a * abs(_digits(s)[0] - _digits(s)[1]) + c  # noqa: E731
    return source, summary, (ONE_DIGIT,), _explain_clamp(raw, k)


def digit_sum_mod(m: int, c: int):
    words = f"the remainder of the sum of the tens and ones digits divided by {m}, plus {c}"
    doc = ZERO_DOC.format(words=_doc(f"Return the points scored from rolling 0 dice: {words}, "
                                     f"using the digits of the opponent's score."))
    source = f"def zero_dice(score):\n{doc}{DIGITS}    return (tens + ones) % {m} + {c}\n"
    summary = f"Rolling zero dice scores {words}, where the digits are those of the opponent's score."

    def explain(score):
        tens, ones = _digits(score)
        if tens + ones >= m:
            return "wrap", f"Against {score} the digits sum to {tens + ones}, which leaves {(tens + ones) % m}."
        return ("one" if score < 10 else "mid"), f"Against {score} the digits sum to {tens + ones}."
    return source, summary, (ONE_DIGIT,), explain


# ------------------------------------------------------------------- swaps


def _swap(body: str, words: str) -> str:
    doc = SWAP_DOC.format(words=_doc(f"Return whether the two scores should be swapped: {words}."))
    return f"def swap(player_score, opponent_score):\n{doc}{body}"


def _explain_swap(test: Callable[[int, int], bool], say: Callable[[int, int], str]) -> Callable:
    def explain(p, o):
        result = test(p, o)
        edge = "zero" if 0 in (p, o) else "big" if p >= 100 else ""
        return f"{result}{edge}", ("Swap: " if result else "No swap: ") + say(p, o)
    return explain


def sum_divisible(m: int):
    words = f"the sum of both scores is a multiple of {m}"
    body = f"    return (player_score + opponent_score) % {m} == 0\n"
    summary = f"Once the turn's points are added, the scores trade places when {words}."
    return (_swap(body, words), summary, SWAP_CHOICES,
            _explain_swap(lambda p, o: (p + o) % m == 0, lambda p, o: f"{p} + {o} = {p + o}."))


def difference_multiple(m: int):
    words = f"the two scores differ by a multiple of {m} (equal scores differ by 0, also a multiple)"
    body = f"    return abs(player_score - opponent_score) % {m} == 0\n"
    summary = f"Once the turn's points are added, the scores trade places when they differ by a multiple of {m}."
    return (_swap(body, words), summary, SWAP_CHOICES + ("Equal scores differ by 0, a multiple of every number; "
                                                         "their swap changes nothing.",),
            _explain_swap(lambda p, o: abs(p - o) % m == 0, lambda p, o: f"{p} and {o} differ by {abs(p - o)}."))


def digit_sums_equal(m: int):
    words = f"the sums of their digits leave the same remainder when divided by {m}"
    body = ("    def digit_sum(score):\n        total = 0\n        while score > 0:\n"
            "            total, score = total + score % 10, score // 10\n        return total\n"
            f"    return digit_sum(player_score) % {m} == digit_sum(opponent_score) % {m}\n")
    summary = f"Once the turn's points are added, the scores trade places when {words}."

    def digit_sum(n):
        return sum(int(d) for d in str(n))
    choices = SWAP_CHOICES + ("Every digit counts, the hundreds digit too; 0 has a digit sum of 0.",)
    return (_swap(body, words), summary, choices,
            _explain_swap(lambda p, o: digit_sum(p) % m == digit_sum(o) % m,
                          lambda p, o: f"digit sums {digit_sum(p)} and {digit_sum(o)}."))


def ones_product(d: int):
    words = f"the product of their ones digits ends in {d}"
    body = f"    return player_score % 10 * (opponent_score % 10) % 10 == {d}\n"
    summary = f"Once the turn's points are added, the scores trade places when {words}."
    return (_swap(body, words), summary, SWAP_CHOICES,
            _explain_swap(lambda p, o: p % 10 * (o % 10) % 10 == d,
                          lambda p, o: f"{p % 10} * {o % 10} = {p % 10 * (o % 10)}."))


def _sum_sentence(c: int) -> Callable[[int, int], str]:
    return lambda p, o: f"{p} + {o}{f' + {c}' if c else ''} = {p + o + c}."


def sum_square(c: int):
    words = f"the sum of both scores{f' plus {c}' if c else ''} is a perfect square"
    body = (f"    total = player_score + opponent_score{f' + {c}' if c else ''}\n    root = 0\n"
            "    while root * root < total:\n        root = root + 1\n    return root * root == total\n")
    summary = f"Once the turn's points are added, the scores trade places when {words} (0, 1, 4, 9, 16, ...)."

    def square(n):
        return round(n ** 0.5) ** 2 == n
    return (_swap(body, words), summary, SWAP_CHOICES,
            _explain_swap(lambda p, o: square(p + o + c), _sum_sentence(c)))


def prime_sum(c: int):
    words = f"the sum of both scores plus {c} is a prime number" if c else "the sum of both scores is a prime number"
    small = "    if total < 2:\n        return False\n" if c < 2 else ""
    body = (f"    total = player_score + opponent_score{f' + {c}' if c else ''}\n{small}"
            "    divisor = 2\n    while divisor * divisor <= total:\n        if total % divisor == 0:\n"
            "            return False\n        divisor = divisor + 1\n    return True\n")
    summary = f"Once the turn's points are added, the scores trade places when {words} (2, 3, 5, 7, 11, ...)."

    def prime(n):
        return n > 1 and all(n % k for k in range(2, int(n ** 0.5) + 1))
    explain = _explain_swap(lambda p, o: prime(p + o + c), _sum_sentence(c))

    def explain_with_small(p, o):
        branch, sentence = explain(p, o)
        return (branch + ("tiny" if p + o + c < 2 else ""), sentence)
    return _swap(body, words), summary, SWAP_CHOICES, explain_with_small


FAMILIES = {family.name: family for family in (
    Family("digits_linear", "zero_dice",
           {"a": (0, 1, 2, 3), "b": (0, 1, 2, 3), "c": (0, 1, 2, 3), "k": tuple(range(8, 14))},
           digits_linear, lambda a, b, c, k: "a and b cannot both be 0" if a == b == 0 else ""),
    Family("digits_extreme", "zero_dice", {"largest": (0, 1), "a": (1, 2), "c": (0, 1, 2, 3), "k": tuple(range(8, 14))},
           digits_extreme),
    Family("digits_distance", "zero_dice", {"a": (1, 2, 3), "c": (1, 2, 3), "k": tuple(range(8, 14))}, digits_distance),
    Family("digit_sum_mod", "zero_dice", {"m": tuple(range(5, 13)), "c": (1, 2, 3)}, digit_sum_mod),
    Family("sum_divisible", "swap", {"m": tuple(range(7, 16))}, sum_divisible),
    Family("difference_multiple", "swap", {"m": tuple(range(9, 20))}, difference_multiple),
    Family("digit_sums_equal", "swap", {"m": tuple(range(4, 10))}, digit_sums_equal),
    Family("ones_product", "swap", {"d": tuple(range(0, 10))}, ones_product),
    Family("sum_square", "swap", {"c": tuple(range(0, 6))}, sum_square),
    Family("prime_sum", "swap", {"c": tuple(range(0, 4))}, prime_sum),
)}


def member_id(family: str, params: dict[str, int]) -> str:
    return f"{family}(" + ",".join(f"{key}={value}" for key, value in params.items()) + ")"


def build(family_name: str, params: dict[str, int]) -> Member:
    """The member of a family with these parameters; CatalogueError says what does not fit."""
    family = FAMILIES[family_name]
    if set(params) != set(family.ranges):
        raise CatalogueError(f"{family_name} takes the parameters {', '.join(family.ranges)}, "
                             f"not {', '.join(params) or 'none'} (write e.g. {_example(family)})")
    for key, value in params.items():
        if value not in family.ranges[key]:
            allowed = family.ranges[key]
            raise CatalogueError(f"{family_name}: {key}={value} is outside {min(allowed)}..{max(allowed)} "
                                 f"(pick a value in that range)")
    params = {key: params[key] for key in family.ranges}
    reason = family.check(**params)
    if reason:
        raise CatalogueError(f"{family_name}: {reason} (pick other parameters)")
    source, summary, choices, explain = family.make(**params)
    branches = _branches(family.kind, explain)
    return make(family.kind, source=source, summary=summary, choices=choices, branches=branches,
                id=member_id(family_name, params), family=family_name, params=tuple(params.items()),
                where=f"grader/catalogue/families.py ({family_name})")


def _example(family: Family) -> str:
    return member_id(family.name, {key: values[0] for key, values in family.ranges.items()})


def _branches(kind: str, explain: Callable) -> list[tuple[tuple[int, ...], str]]:
    """The first input of each branch class, in a fixed scan that favours small, varied scores."""
    rng = random.Random(0)
    if kind == "zero_dice":
        candidates = [(s,) for s in (0, 7)] + [(s,) for s in rng.sample(range(10, 100), 90)] + [(117,)]
    else:
        pool = list(range(1, 100))
        candidates = [(rng.choice(pool), rng.choice(pool)) for _ in range(400)]
        candidates += [(0, rng.choice(pool)) for _ in range(10)] + [(100 + rng.randrange(30), rng.choice(pool))
                                                                     for _ in range(40)]
        candidates += [(1, 0), (0, 0)]
    seen, branches = set(), []
    for args in candidates:
        branch, sentence = explain(*args)
        if branch not in seen:
            seen.add(branch)
            branches.append((args, sentence))
    return branches


def draw(kind: str, rng: random.Random) -> Member:
    """A member of a random family of this kind, with random parameters that fit."""
    names = sorted(name for name, family in FAMILIES.items() if family.kind == kind)
    while True:
        family = FAMILIES[rng.choice(names)]
        params = {key: rng.choice(values) for key, values in family.ranges.items()}
        if not family.check(**params):
            return build(family.name, params)
