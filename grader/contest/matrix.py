"""The contest's pairwise matrix as an inline SVG heatmap, rows and columns in rank order.

Built here rather than in the template: 200 entrants make 39,800 cells. Every name is
escaped (``markupsafe.escape``) and clipped once; the rest is numbers.
"""

from __future__ import annotations

import numpy as np
from markupsafe import Markup, escape

from grader.contest.standings import Standing
from grader.report.html import clip, rate_colour

MIN_SPREAD = 0.01


def spread(rates: np.ndarray) -> float:
    """The widest margin from one half in the matrix: full colour there."""
    return max(float(np.abs(rates - 0.5).max()) if rates.size else 0.0, MIN_SPREAD)


def matrix_svg(table: list[Standing], rates: np.ndarray, width: int = 640) -> Markup:
    count = len(table)
    cell = max(3, min(40, width // max(count, 1)))
    margin = 30 if cell >= 10 else 4
    size = margin + cell * count
    widest = spread(rates)
    labels = [f"{row.rank}. {escape(clip(row.name, 24))}" for row in table]
    parts = [f'<svg id="matrix" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" '
             f'height="{size}" role="img" aria-label="pairwise win rates">']
    for y, row in enumerate(table):
        top = margin + y * cell
        if cell >= 10:
            parts.append(f'<text x="{margin - 4}" y="{top + cell * 0.75:g}" font-size="{min(cell * 0.7, 14):g}" '
                         f'text-anchor="end">{row.rank}</text>')
        for x, column in enumerate(table):
            if row.index == column.index:
                continue
            rate = float(rates[row.index, column.index])
            fill = rate_colour(0.5 + (rate - 0.5) / widest / 2)
            parts.append(f'<rect x="{margin + x * cell}" y="{top}" width="{cell}" height="{cell}" fill="{fill}">'
                         f'<title>{labels[y]} vs {labels[x]}: {rate:.4f}</title></rect>')
    parts.append("</svg>")
    return Markup("\n".join(parts))
