"""The look of every page the kit makes: Bootstrap 5's stylesheet, as the XStatic-Bootstrap package ships it
(a requirement of the kit: never fetched from elsewhere), and the kit's own sheet after it (``kit.css``).

The kit's sheet is Bootstrap's dark colours under ``prefers-color-scheme: dark`` (Bootstrap switches them
with an attribute a script would set; read from its own file here, so the pages follow the system's
setting with no script and stay in step with the library), then ``grader/templates/kit.css``: what the
kit's pages add (a question passed, failed or not scored; the score plot).

The course server serves both (``/static/``); a report opened as a file has them written beside it
(``write_beside``), as the student's folder has them beside the game page (``hog assign``)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import xstatic.pkg.bootstrap

from grader import project
from grader.project.files import write_atomically

BOOTSTRAP = "bootstrap.min.css"
KIT = "kit.css"
SHEETS = (BOOTSTRAP, KIT)       # in the order a page links them
DARK = re.compile(r"([^{}]*\[data-bs-theme=dark\][^{}]*)\{([^{}]*)\}")


def bootstrap_path() -> Path:
    return Path(xstatic.pkg.bootstrap.BASE_DIR) / "css" / BOOTSTRAP


@functools.cache
def kit_css() -> str:
    """The kit's sheet: Bootstrap's dark theme by the system's setting, then the kit's own rules."""
    rules = []
    for selectors, body in DARK.findall(bootstrap_path().read_text(encoding="utf-8")):
        chosen = [each.strip().replace("[data-bs-theme=dark]", ":root", 1) for each in selectors.split(",")
                  if each.strip().startswith("[data-bs-theme=dark]")]
        if chosen:
            rules.append(f"{','.join(chosen)}{{{body}}}")
    dark = "@media (prefers-color-scheme: dark){" + "".join(rules) + "}\n"
    own = (project.TEMPLATES / KIT).read_text(encoding="utf-8")
    return f"/* Bootstrap {xstatic.pkg.bootstrap.VERSION}'s dark theme, by the system's setting */\n{dark}{own}"


def sheet(name: str) -> bytes:
    """One of ``SHEETS``, as it is served or written."""
    if name == BOOTSTRAP:
        return bootstrap_path().read_bytes()
    if name == KIT:
        return kit_css().encode("utf-8")
    raise KeyError(name)


def write_beside(folder: Path) -> list[Path]:
    """The sheets written into ``folder``, beside a page that links them by name; their paths."""
    written = []
    for name in SHEETS:
        write_atomically(folder / name, sheet(name))
        written.append(folder / name)
    return written
