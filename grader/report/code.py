"""Code as people read it on a page: highlighted by Pygments, with its line numbers (a table whose first
column is the numbers, so that copying the code leaves them behind). The colours are Pygments' own styles,
one for light and one for dark by the system's setting, written into the kit's sheet (``style``)."""

from __future__ import annotations

from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

CSS_CLASS = "code-lines"
LIGHT, DARK = "default", "github-dark"


def numbered(source: str) -> Markup:
    """``source`` (Python) as highlighted HTML with line numbers; escaped by Pygments."""
    return Markup(highlight(source, PythonLexer(), HtmlFormatter(linenos="table", cssclass=CSS_CLASS, wrapcode=True)))


def css() -> str:
    """The highlighting's colours: the light style, then the dark one under ``prefers-color-scheme: dark``."""
    light = HtmlFormatter(style=LIGHT).get_style_defs(f".{CSS_CLASS}")
    dark = HtmlFormatter(style=DARK).get_style_defs(f".{CSS_CLASS}")
    numbers = (f".{CSS_CLASS} td.linenos .normal {{ color: var(--bs-secondary-color); background: transparent; }}"
               "   /* Pygments' grey has too little contrast */")
    return f"{light}\n@media (prefers-color-scheme: dark){{\n{dark}\n}}\n{numbers}\n"
