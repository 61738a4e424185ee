"""A heatmap of a strategy table as standalone SVG: dice count by own score and opponent's score."""

from __future__ import annotations

from html import escape

from grader.strategy.distributions import MAX_DICE

# Eleven steps of the viridis palette (dark to light), one per dice count 0..10;
# readable in greyscale and by readers with the common colour-vision deficiencies.
PALETTE = ("#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89",
           "#35b779", "#6ece58", "#b5de2b", "#dde318", "#fde725")
CELL = 5
MARGIN_LEFT, MARGIN_TOP, MARGIN_BOTTOM, LEGEND_WIDTH = 70, 50, 60, 110


def heatmap_svg(table: list[list[int]], title: str) -> str:
    """SVG text: ``table[score][opponent_score]`` coloured by dice count.

    The opponent's score runs left to right, the player's own score bottom to
    top; a legend names the colour of each dice count. Runs of equal cells in a
    row are drawn as one rectangle.
    """
    goal = len(table)
    size = goal * CELL
    width = MARGIN_LEFT + size + LEGEND_WIDTH
    height = MARGIN_TOP + size + MARGIN_BOTTOM
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<title>{escape(title)}</title>',
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="{MARGIN_LEFT + size / 2}" y="24" text-anchor="middle" font-size="15">'
           f'{escape(title)}</text>']
    for score, row in enumerate(table):
        y = MARGIN_TOP + (goal - 1 - score) * CELL
        start = 0
        for opponent in range(1, goal + 1):
            if opponent == goal or row[opponent] != row[start]:
                n = row[start]
                scores = f"{start}" if opponent - start == 1 else f"{start}-{opponent - 1}"
                out.append(f'<rect x="{MARGIN_LEFT + start * CELL}" y="{y}" '
                           f'width="{(opponent - start) * CELL}" height="{CELL}" fill="{PALETTE[n]}">'
                           f'<title>score {score}, opponent {scores}: {n} {"die" if n == 1 else "dice"}'
                           f'</title></rect>')
                start = opponent
    bottom = MARGIN_TOP + size
    out.append(f'<rect x="{MARGIN_LEFT}" y="{MARGIN_TOP}" width="{size}" height="{size}" '
               f'fill="none" stroke="#333333"/>')
    for tick in range(0, goal + 1, 10 if goal >= 20 else 1):
        x = MARGIN_LEFT + tick * CELL
        y = bottom - tick * CELL
        out.append(f'<line x1="{x}" y1="{bottom}" x2="{x}" y2="{bottom + 4}" stroke="#333333"/>'
                   f'<text x="{x}" y="{bottom + 17}" text-anchor="middle">{tick}</text>')
        out.append(f'<line x1="{MARGIN_LEFT - 4}" y1="{y}" x2="{MARGIN_LEFT}" y2="{y}" stroke="#333333"/>'
                   f'<text x="{MARGIN_LEFT - 7}" y="{y + 4}" text-anchor="end">{tick}</text>')
    out.append(f'<text x="{MARGIN_LEFT + size / 2}" y="{bottom + 40}" text-anchor="middle">'
               f"Opponent's score</text>")
    out.append(f'<text x="20" y="{MARGIN_TOP + size / 2}" text-anchor="middle" '
               f'transform="rotate(-90 20 {MARGIN_TOP + size / 2})">Your score</text>')
    legend_x = MARGIN_LEFT + size + 20
    out.append(f'<text x="{legend_x}" y="{MARGIN_TOP - 8}">Dice rolled</text>')
    for n in range(MAX_DICE + 1):
        y = MARGIN_TOP + n * 20
        out.append(f'<rect x="{legend_x}" y="{y}" width="16" height="16" fill="{PALETTE[n]}" '
                   f'stroke="#333333" stroke-width="0.5"/>'
                   f'<text x="{legend_x + 24}" y="{y + 12}">{n}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
