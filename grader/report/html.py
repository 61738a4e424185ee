"""What the instructor's pages share: the Jinja2 environment, colours, axis ticks.

Submission names and what students' code returned are untrusted text: the
templates are autoescaped, and ``clip`` caps their length.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from grader import project

if TYPE_CHECKING:
    import jinja2

NAME_LIMIT = 60
TICKS = 5              # an axis gets about this many ticks: 4 to 6 from zero, 3 to 6 from elsewhere
ROUND_STEPS = (1, 2, 5)   # times a power of ten: the steps between ticks
SLACK = 1e-9           # of a step: how far float noise may put a value past a multiple of it


@dataclass(frozen=True)
class Tick:
    value: float
    label: str     # the value as written by hand: 0.15, never 0.15000000000000002


def ticks(low: float, high: float, count: int = TICKS) -> list[Tick]:
    """Ticks at round values from ``low`` or below to ``high`` or above: the multiples of one step of 1,
    2 or 5 times a power of ten, the step whose ticks number nearest ``count`` (on a tie, the one
    covering less beyond the data). 0 to 1.182 s: 0, 0.5, 1, 1.5; 0 to 0.35: 0, 0.1, 0.2, 0.3, 0.4."""
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise ValueError(f"an axis needs a low end below its high end, not {low} to {high}")
    power = math.floor(math.log10((high - low) / count))
    options = []
    for exponent in (power - 1, power, power + 1):
        for base in ROUND_STEPS:
            step = base * 10.0 ** exponent
            first, last = math.floor(low / step + SLACK), math.ceil(high / step - SLACK)
            options.append((abs(last - first + 1 - count), (last - first) * step, base, exponent, first, last))
    _, _, base, exponent, first, last = min(options)
    return [Tick(k * base * 10 ** exponent if exponent >= 0 else k * base / 10 ** -exponent,
                 format(Decimal(k * base).scaleb(exponent).normalize(), "f")) for k in range(first, last + 1)]


def clip(text, limit: int = NAME_LIMIT) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def one_line(text, limit: int = 120) -> str:
    """A value as one line (line breaks shown as ⏎), capped."""
    return clip(" ⏎ ".join(str(text).splitlines()), limit)


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
    import jinja2   # loaded by what renders a page, not by a batch that writes none (30 ms of every start)

    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(project.TEMPLATES), undefined=jinja2.StrictUndefined,
        autoescape=True, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    environment.filters.update(clip=clip, colour=rate_colour, one_line=one_line)
    environment.globals.update(ticks=ticks)
    return environment


def render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)
