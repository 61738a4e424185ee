"""What the instructor's pages share: the Jinja2 environment, colours, cells safe in a spreadsheet.

Submission names and what students' code returned are untrusted text: the
templates are autoescaped, and ``clip`` caps their length.
"""

from __future__ import annotations

import jinja2

from grader import project

NAME_LIMIT = 60
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def clip(text, limit: int = NAME_LIMIT) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def one_line(text, limit: int = 120) -> str:
    """A value as one line (line breaks shown as ⏎), capped."""
    return clip(" ⏎ ".join(str(text).splitlines()), limit)


def spreadsheet_cell(value):
    """A CSV cell a spreadsheet shows as text, never runs as a formula (numbers pass as they are)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def rate_colour(rate: float) -> str:
    """Red below one half, white at one half, blue above (colour-blind safe pair)."""
    rate = min(max(rate, 0.0), 1.0)
    if rate < 0.5:
        t = rate / 0.5
        red, green, blue = 202 + (255 - 202) * t, 0 + 255 * t, 32 + (255 - 32) * t
    else:
        t = (rate - 0.5) / 0.5
        red, green, blue = 255 - (255 - 5) * t, 255 - (255 - 113) * t, 255 - (255 - 176) * t
    return f"#{round(red):02x}{round(green):02x}{round(blue):02x}"


def environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(project.TEMPLATES), undefined=jinja2.StrictUndefined,
        autoescape=True, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    environment.filters.update(clip=clip, colour=rate_colour, one_line=one_line)
    return environment


def render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)
