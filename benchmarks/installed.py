"""The kit as an instructor runs it: installed from this checkout into a virtual environment of its own.

A benchmark that times ``hog`` in a new process times it here, not in the environment the benchmark runs
in: a development environment loads more at every interpreter start (an editable install's import
finder, other packages' ``.pth`` files) than ``pipx install`` or ``pip install`` in a fresh venv does, and
the baselines it is compared with (okpy, in ``okpy_run``) run from a venv of their own too.

``environment(scratch)`` makes the venv (``python -m venv``, then ``pip install`` of this checkout, not
editable: a wheel is built and installed, with the kit's dependencies from the index, a few seconds once
per run) and returns it. ``Kit.hog`` is the command that starts ``hog``; ``Kit.python`` the venv's
interpreter. ``Kit.at(tree)`` runs the same interpreter on the kit at another revision (its folder first on
``PYTHONPATH``), so that two revisions are timed on one interpreter with the same start-up.
"""

from __future__ import annotations

import subprocess
import venv
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENTRY = "import sys; from grader.cli import run; sys.exit(run())"   # what the `hog` console script runs


@dataclass(frozen=True)
class Kit:
    home: Path

    @property
    def python(self) -> str:
        return str(self.home / "bin" / "python")

    @property
    def hog(self) -> list[str]:
        """``hog`` as the installed console script starts it."""
        return [str(self.home / "bin" / "hog")]

    def at(self, tree: Path) -> tuple[list[str], dict[str, str]]:
        """``hog`` of the kit at ``tree`` on this interpreter: the command and the environment it adds."""
        return [self.python, "-c", ENTRY], {"PYTHONPATH": str(tree)}


def environment(scratch: Path) -> Kit:
    """This checkout installed into a new venv under ``scratch``."""
    home = scratch / "kit-venv"
    venv.EnvBuilder(with_pip=True).create(home)
    done = subprocess.run([str(home / "bin" / "python"), "-m", "pip", "install", "--quiet",
                           "--disable-pip-version-check", "--no-warn-script-location", str(ROOT)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"could not install the kit into {home}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return Kit(home)
