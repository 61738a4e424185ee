"""Where the kit's files are: one place for every path the kit reads or writes."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ROOT = Path(os.environ.get("HOG_ROOT", PACKAGE.parent)).resolve()
SPECS = ROOT / "specs"
SOLUTION = ROOT / "solution"
SKELETON = ROOT / "skeleton"
DOCS = ROOT / "docs"
ROSTERS = ROOT / "rosters"               # hog assign --roster keeps each manifest here too: r<seed>_<by>.csv
TEMPLATES = PACKAGE / "templates"        # Jinja sources, one folder per product: hog/, handout/, autograder/
SHIPPED = PACKAGE / "shipped"            # files shipped as they are: dice.py, student/, autograder/
DATA = PACKAGE / "data"                  # tables the kit computes and keeps: final/<id>.txt
DICE = SHIPPED / "dice.py"
CACHE = Path(os.environ.get("HOG_CACHE") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "hog-kit")
SEEDS = Path(os.environ.get("HOG_SEEDS", ROOT.parent / "shared" / "seeds")).resolve()


def display(path: Path) -> str:
    """A path as the user should see it: relative to the project where possible."""
    path = Path(path).resolve()
    for base in (ROOT, Path.cwd()):
        try:
            return str(path.relative_to(base))
        except ValueError:
            continue
    return str(path)

# The isolation levels a grading run can require, weakest first (grader/sandbox/level.py says what each means).
ISOLATION_LEVELS = ("process", "files", "bubblewrap")


def variant_ids() -> list[str]:
    """The ids of the variants the project holds: one spec each in specs/."""
    return sorted(path.stem for path in SPECS.glob("*.yaml"))
