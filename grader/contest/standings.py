"""The contest's ranking, as the courses ran it: most matchups won, ties by average win rate.

A matchup is won by the strategy whose exact win rate against the other,
averaged over both seats, is above one half; within ``TIE`` of one half it is a
tie and counts for neither. Entrants equal on wins and on average (to
``DIGITS`` decimals) share a rank.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import numpy as np

from grader.report.spreadsheet import spreadsheet_cell

TIE = 1e-12
DIGITS = 12
RULE = (f"Ranked by the number of matchups won (a matchup is won by the strategy whose exact win rate "
        f"against the other, averaged over going first and going second, is above 0.5; within {TIE:g} of 0.5 "
        f"it is a tie, won by neither), then by the average of those win rates over all opponents. "
        f"Every pair plays exactly, both seats; no game is sampled.")


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    wins: int
    ties: int
    average: float | None   # None for a lone entrant: it has no opponent
    index: int              # the entrant's row in the rate matrix


def standings(names: list[str], rates: np.ndarray) -> list[Standing]:
    """Entrants in rank order, from ``rates[i, j]``: i's win rate against j, both seats averaged."""
    count = len(names)
    others = ~np.eye(count, dtype=bool)
    wins = ((rates > 0.5 + TIE) & others).sum(axis=1)
    ties = ((np.abs(rates - 0.5) <= TIE) & others).sum(axis=1)
    average = np.where(others, rates, 0.0).sum(axis=1) / max(count - 1, 1)
    keys = [(-int(wins[i]), -round(float(average[i]), DIGITS)) for i in range(count)]
    order = sorted(range(count), key=lambda i: (keys[i], names[i]))
    result, rank = [], 0
    for place, i in enumerate(order):
        if place == 0 or keys[i] != keys[order[place - 1]]:
            rank = place + 1
        result.append(Standing(rank, names[i], int(wins[i]), int(ties[i]),
                               float(average[i]) if count > 1 else None, i))
    return result


def leaderboard_csv(table: list[Standing], disqualified: list[tuple[str, str]]) -> str:
    """rank, submission, wins, average exact win rate; the disqualified last, with the reason."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["rank", "submission", "wins", "ties", "average_win_rate", "disqualified"])
    for row in table:
        writer.writerow([row.rank, spreadsheet_cell(row.name), row.wins, row.ties,
                         "" if row.average is None else f"{row.average:.{DIGITS}f}", ""])
    for name, reason in disqualified:
        writer.writerow(["", spreadsheet_cell(name), "", "", "", spreadsheet_cell(reason)])
    return buffer.getvalue()
