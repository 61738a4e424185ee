"""Straightforward re-derivations of the game, written apart from the engine, for checks.

Turn distributions come from rolling the dice one at a time; games are solved
by plain memoised recursion (every turn scores) or, when zero-point turns make
cycles possible, by exact linear algebra over Fractions. Rules are the
reference module's own functions, called directly.
"""

from __future__ import annotations

import functools
from fractions import Fraction


def turn_distribution(num_rolls: int, parity: int | None) -> dict[int, Fraction]:
    """Points of a turn rolling num_rolls fair dice, die by die."""
    states = {(False, 0, 0): Fraction(1)}  # (saw a 1, sum, dice of the player's parity)
    for _ in range(num_rolls):
        step: dict = {}
        for (one, total, same), p in states.items():
            for face in range(1, 7):
                key = (one or face == 1, total + face,
                       same + (parity is not None and face % 2 == parity))
                step[key] = step.get(key, 0) + p / 6
        states = step
    result: dict[int, Fraction] = {}
    for (one, total, same), p in states.items():
        points = (1 if one else total) + same
        result[points] = result.get(points, 0) + p
    return result


class Game:
    """A variant's rules from plain functions; scores are (mover, other)."""

    def __init__(self, goal, zero_dice, swap, parity_bonus=False, feral=False):
        self.goal, self.zero_dice, self.swap = goal, zero_dice, swap
        self.parity_bonus, self.feral = parity_bonus, feral
        self.dists = {(n, parity): turn_distribution(n, parity if parity_bonus else None)
                      for n in range(1, 11) for parity in (0, 1)}
        self.float_dists = {key: {points: float(p) for points, p in dist.items()}
                            for key, dist in self.dists.items()}

    def outcomes(self, a, b, n, exact=True):
        """(probability, mover's score after the turn's points) for rolling n."""
        if n == 0:
            return [(Fraction(1) if exact else 1.0, a + self.zero_dice(b))]
        dist = self.dists[n, a % 2] if exact else self.float_dists[n, a % 2]
        return [(p, a + points) for points, p in dist.items()]

    def settle(self, x, b):
        """After the points: ('win' | 'lose' | None, next mover's score, other's score)."""
        if self.swap(x, b):
            x, b = b, x
        if x >= self.goal:
            return "win", None, None
        if b >= self.goal:
            return "lose", None, None
        return None, b, x  # the other player moves next


def optimal_value(game: Game) -> float:
    """Optimal value from 0-0 by recursion (needs every turn to score; floats)."""
    bonus = 3 if game.feral else 0

    @functools.lru_cache(maxsize=None)
    def value(a, b, pm, po):
        best = -1.0
        for n in range(11):
            extra = bonus if abs(n - pm) == 2 else 0
            v = 0.0
            for p, x in game.outcomes(a, b, n, exact=False):
                end, c, d = game.settle(x + extra, b)
                v += p * (1.0 if end == "win" else 0.0 if end == "lose"
                                 else 1.0 - (value(c, d, po, n) if game.feral else value(c, d, 0, 0)))
            best = max(best, v)
        return best

    return value(0, 0, 0, 0)


def match_by_recursion(game: Game, strategy0, strategy1) -> Fraction:
    """P(first player wins) by recursion with Fractions (every turn must score)."""
    strategies = (strategy0, strategy1)
    bonus = 3 if game.feral else 0

    @functools.lru_cache(maxsize=None)
    def first_wins(who, a, b, pm, po):
        n = strategies[who](a, b)
        extra = bonus if abs(n - pm) == 2 else 0
        total = Fraction(0)
        for p, x in game.outcomes(a, b, n):
            end, c, d = game.settle(x + extra, b)
            if end is None:
                total += p * (first_wins(1 - who, c, d, po, n) if game.feral
                              else first_wins(1 - who, c, d, 0, 0))
            elif (end == "win") == (who == 0):
                total += p
        return total

    return first_wins(0, 0, 0, 0, 0)


def match_by_linear_algebra(game: Game, strategy0, strategy1) -> tuple[Fraction, Fraction, Fraction]:
    """(first wins, second wins, never ends) by solving the absorbing chain exactly."""
    strategies = (strategy0, strategy1)
    states = [(w, a, b) for w in (0, 1) for a in range(game.goal) for b in range(game.goal)]
    moves = {}
    for who, a, b in states:
        entries = {}
        for p, x in game.outcomes(a, b, strategies[who](a, b)):
            end, c, d = game.settle(x, b)
            key = ("end", (end == "win") == (who == 0)) if end else (1 - who, c, d)
            entries[key] = entries.get(key, 0) + p
        moves[who, a, b] = entries
    # States that can reach the end of the game.
    ending = {s for s in states if any(k[0] == "end" for k in moves[s])}
    grew = True
    while grew:
        grew = False
        for s in states:
            if s not in ending and any(k in ending for k in moves[s] if k[0] != "end"):
                ending.add(s)
                grew = True
    order = sorted(ending)
    index = {s: i for i, s in enumerate(order)}
    results = []
    for first in (True, False):
        size = len(order)
        rows = [[Fraction(0)] * (size + 1) for _ in range(size)]
        for s in order:
            i = index[s]
            rows[i][i] += 1
            for key, p in moves[s].items():
                if key[0] == "end":
                    rows[i][size] += p if key[1] == first else 0
                elif key in index:
                    rows[i][index[key]] -= p
        results.append(_solve(rows).get(index.get((0, 0, 0)), Fraction(0))
                       if (0, 0, 0) in index else Fraction(0))
    return results[0], results[1], 1 - results[0] - results[1]


def _solve(rows):
    size = len(rows)
    for col in range(size):
        pivot = next(r for r in range(col, size) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                rows[r] = [v - f * w for v, w in zip(rows[r], rows[col])]
    return {i: rows[i][size] for i in range(size)}


def game_for(module, variant_id: str, goal: int, feral: bool = True) -> Game:
    """The rules of a variant as VARIANTS.md names them in its reference module."""
    zero = module.free_bacon if variant_id in ("sp19", "fa19", "fa18") else module.picky_piggy
    if variant_id == "nju24":
        def swap(player_score, opponent_score):
            return module.swine_swap(player_score)
    elif variant_id == "nju21":
        swap = module.swine_swap
    else:
        swap = module.is_swap
    return Game(goal, zero, swap, parity_bonus=variant_id == "nju21",
                feral=feral and variant_id == "fa19")
