"""Template rendering: the one place that builds a Jinja environment.

Every product the kit renders has its folder under ``grader/templates/``:
``hog/`` (the reference ``hog.py``), ``handout/`` (the handout),
``autograder/`` (the Gradescope scripts and the GitHub workflow) and ``prairielearn/``
(the PrairieLearn question, its entrypoint and grader image). Every
environment fails loudly on a missing value (``StrictUndefined``), escapes
HTML only in ``*.html.j2`` templates, keeps a template's last newline, and
knows the kit's filters (``points``, ``percent``, ``md``).
"""

from __future__ import annotations

import functools

import jinja2

from grader import catalogue, project

PRODUCTS = ("hog", "handout", "autograder", "prairielearn")


def points(value: float) -> str:
    """``2.0`` → "2 points", ``1`` → "1 point"."""
    number = f"{value:g}"
    return f"{number} point" if value == 1 else f"{number} points"


def percent(rate: float) -> str:
    """``0.5`` → "50%"."""
    return f"{rate * 100:g}%"


def markdown(text: str) -> str:
    """Text from the spec or a docstring, safe inside a Markdown paragraph."""
    for character in ("\\", "`", "*", "<"):
        text = text.replace(character, "\\" + character)
    return text


def _is_html(name: str | None) -> bool:
    return bool(name) and name.endswith(".html.j2")


def _loader(product: str) -> jinja2.BaseLoader:
    """The product's folder; the reference ``hog.py`` also includes rules from the catalogue
    (``catalogue/<rule id>.py.j2``)."""
    folder = jinja2.FileSystemLoader(project.TEMPLATES / product)
    return jinja2.ChoiceLoader([folder, catalogue.loader()]) if product == "hog" else folder


@functools.cache
def environment(product: str, *, trim_blocks: bool = True) -> jinja2.Environment:
    """The environment for the templates of ``grader/templates/<product>/``.

    ``trim_blocks`` (with ``lstrip_blocks``) drops the newline after a block tag and
    the indentation before it; the autograder's shell and YAML templates are written
    without it, the Python and handout templates with it.
    """
    if product not in PRODUCTS:
        raise ValueError(f"unknown template folder {product!r} (one of: {', '.join(PRODUCTS)})")
    made = jinja2.Environment(
        loader=_loader(product),
        undefined=jinja2.StrictUndefined,
        autoescape=_is_html,
        trim_blocks=trim_blocks, lstrip_blocks=trim_blocks,
        keep_trailing_newline=True,
    )
    made.filters.update(points=points, percent=percent, md=markdown)
    return made
