"""A submission's code as the grading pages show it: highlighted by Pygments (its HTML formatter, classes
only: the pages' policy loads no inline style; their colours are ``/code.css``), one line at a time, so that
each line has its number and the comments anchored to it."""

from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

SCOPE = ".code"          # the CSS rules apply inside the listing's table
LONGEST_LINES = 20_000   # lines shown at most (a hog.py is a few hundred)


@dataclass
class Line:
    number: int
    html: Markup
    comments: list[dict] = field(default_factory=list)   # those ending on this line


def lines(source: str, comments: list[dict] = ()) -> list[Line]:
    """The numbered, highlighted lines of ``source``, each with the comments that end on it (one past the
    last line: on the last)."""
    formatted = highlight(source, PythonLexer(stripnl=False, ensurenl=True), HtmlFormatter(nowrap=True))
    # The formatter closes each token's span at the end of its line: every line is whole HTML.
    found = [Line(number, Markup(text)) for number, text in enumerate(formatted.split("\n")[:-1], 1)][:LONGEST_LINES]
    if not found:
        found = [Line(1, Markup(""))]
    for comment in comments:
        found[min(comment["end_line"], len(found)) - 1].comments.append(comment)
    return found


LAYOUT = """
.code { font-size: .9em; }
.code pre { margin: 0; padding: 0 .5rem; background: none; }
.code th[scope=row] { text-align: right; color: var(--bs-secondary-color, #666); font-weight: normal; }
.code tr.comment td { background: var(--bs-warning-bg-subtle, #fff8dc); }
.beside { display: grid; grid-template-columns: minmax(14rem, 1fr) 3fr; gap: 1rem; align-items: start; }
@media (max-width: 50rem) { .beside { grid-template-columns: 1fr; } }
"""


DARK = "github-dark"     # Pygments' style for a system set to dark (the pages follow it: grader.report.style)


def style() -> str:
    """The grading pages' own style sheet: the listing's colours (Pygments' default style, and DARK by the
    system's setting) and its layout (the autograder's result beside the code)."""
    dark = HtmlFormatter(style=DARK).get_style_defs(SCOPE)
    return (HtmlFormatter().get_style_defs(SCOPE) + f"\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n"
            + LAYOUT)
