"""Hidden cases only where the rules decide: the reference and every allowed alternative agree.

An allowed alternative (``alternatives:`` in a question of the spec) is a choice a correct
solution may make that the rules leave open. A generated candidate case is kept only when the
reference and every alternative show the same thing for it; one where they differ is dropped,
and more candidates are drawn to keep the question's count. A strategy table (one call over every
score pair) is not dropped whole: it leaves out the pairs where they disagree.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from typing import Callable

SCORE_PAIRS = "for s in range({goal}) for o in range({goal})"
ROUNDS = 6
"""How many times a question's generator is drawn from while alternatives disagree with the
reference on some candidates, to keep its hidden-case count."""
UNDECIDED = "undecided"
"""Key of the generated data holding, per question, what the rules left undecided."""

Run = Callable[[list[str]], list[str]]   # what a module shows for each line of a session


@dataclass(frozen=True)
class Table:
    """One call of a strategy over every score pair below the goal, as one session; or, with
    ``rows``, over the pairs whose first score is one of ``rows``.

    Where an allowed alternative answers differently for some pairs, ``skip`` leaves
    those pairs out, so the rest of the table is still graded."""
    call: str                     # e.g. "swap_strategy(s, o, 3, 5)"
    goal: int
    skip: tuple[tuple[int, int], ...] = ()
    rows: tuple[int, ...] | None = None    # the scores s covered (None: every score below the goal)

    @property
    def pairs(self) -> list[tuple[int, int]]:
        left_out = set(self.skip)
        rows = range(self.goal) if self.rows is None else self.rows
        return [(s, o) for s in rows for o in range(self.goal) if (s, o) not in left_out]

    def sources(self) -> list[str]:
        pairs = SCORE_PAIRS.format(goal=self.goal) if self.rows is None else \
            f"for s in {self.rows!r} for o in range({self.goal})"
        if self.skip:
            pairs += f" if (s, o) not in {{{', '.join(map(repr, self.skip))}}}"
        return [f"[{self.call} {pairs}]"]


def _table(shown: str) -> list:
    """The list a table's line showed (a list of dice counts reads as JSON, ten times faster)."""
    try:
        return json.loads(shown)
    except ValueError:
        return ast.literal_eval(shown)


def _lines(sources: list[str]) -> list[str]:
    return [source if source.endswith("\n") else source + "\n" for source in sources]


Decision = tuple["list[list[str]] | None", int]
"""What is made of one candidate: the session kept ([source, expected] pairs; None: dropped), and how many
pairs of a table were left out."""


def decide(reference: Run, others: list[Run], candidate) -> Decision:
    """The candidate as a session when the reference and every alternative agree on it; for a table
    where they disagree on some pairs, the table without those pairs (what the reference shows for it is
    its answers for the other pairs: a strategy's answer for a pair depends on that pair alone); else None."""
    sources = _lines(candidate.sources() if isinstance(candidate, Table) else candidate)
    expected = reference(sources)
    shown = [other(sources) for other in others]
    if all(answer == expected for answer in shown):
        return _session(sources, expected), 0
    if isinstance(candidate, Table) and not candidate.skip:
        mine = _table(expected[0])
        theirs = [_table(answer[0]) for answer in shown]
        disagree = [any(table[index] != mine[index] for table in theirs) for index in range(len(mine))]
        skip = tuple(pair for pair, differs in zip(candidate.pairs, disagree) if differs)
        kept = [answer for answer, differs in zip(mine, disagree) if not differs]
        table = Table(candidate.call, candidate.goal, skip, candidate.rows)
        return _session(_lines(table.sources()), [repr(kept) + "\n"]), len(skip)
    return None, 0


def _session(sources: list[str], expected: list[str]) -> list[list[str]]:
    return [[source, want] for source, want in zip(sources, expected)]


def decided_sessions(reference: Run, others: list[Run], draw: Callable[[], list],
                     known: dict[str, Decision] | None = None) -> tuple[list[list[list[str]]], dict[str, int]]:
    """Sessions ([source, expected] pairs) the reference and ``others`` agree on, as many as the
    first draw of candidates held; and counts: candidates dropped, table pairs left out. ``known``:
    decisions made already (``decisions``), by the candidate's ``repr``."""
    known = known or {}
    kept, seen, target = [], set(), None
    dropped = pairs_left_out = 0
    for _ in range(ROUNDS if others else 1):
        candidates = draw()
        target = target if target is not None else len(candidates)
        for candidate in candidates:
            if len(kept) >= target:
                break
            key = repr(candidate)
            if key in seen:
                continue
            seen.add(key)
            session, left_out = known[key] if key in known else decide(reference, others, candidate)
            pairs_left_out += left_out
            if session is None:
                dropped += 1
                continue
            kept.append(session)
        if len(kept) >= target:
            break
    return kept, {"dropped": dropped, "pairs_left_out": pairs_left_out}


def decisions(reference: Run, others: list[Run], draws: list[list]) -> dict[str, Decision]:
    """The decisions on the candidates every one of ``draws`` holds, by the candidate's ``repr``."""
    common = set.intersection(*({repr(candidate) for candidate in drawn} for drawn in draws))
    return {repr(candidate): decide(reference, others, candidate) for candidate in draws[0]
            if repr(candidate) in common}
