"""The course's okpy run of a variant's public cases, as the baseline of ``benchmarks/grading.py``.

okpy (the ok client, ``pip install okpy``, 1.18.1 on PyPI) runs a course folder that holds the submission
(``hog.py`` and the ``dice.py`` it imports), ``hog.ok`` (the assignment) and ``tests/qNN.py`` (each question's
doctest suite). ``course()`` writes such a folder for a variant's reference with the spec's public cases;
``client()`` finds okpy: in the running environment if it is installed there, else it installs it into a
virtual environment of its own under the benchmark's temporary folder (``python -m venv`` then
``pip install okpy==1.18.1`` from the index, a few seconds once per run).

For comparing the kit with okpy on an imported okpy assignment (``benchmarks/okpy_courses.py``, the agreement
tests): ``assignment_copy()`` is the copy of an assignment okpy 1.18.1 runs, ``EDITS`` the references edited
where okpy's rules or a course's files matter, ``breakdown()`` okpy's points per test.

The run is ``ok --local --no-update --score --config hog.ok``: every test, scored, with no server, no
authentication, no backup and no update check (it opens no connection). ``python -m client`` does not
start on Python 3.11 (okpy's ``__main__`` reads certifi's bundle with a loader call that no longer
accepts that path), so the client is started the way the ``ok`` console script starts it. okpy keeps its
configuration under ``~/.config/ok``: HOME points into the temporary folder, so the run writes nothing
outside it.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

from grader import cases, project
from grader.grading import grade
from grader.spec import load_variant

VERSION = "1.18.1"
ENTRY = "import sys; from client.cli.ok import main; sys.argv[0] = 'ok'; sys.exit(main())"   # the `ok` script
ARGUMENTS = ["--local", "--no-update", "--score", "--config", "hog.ok"]


def client(scratch: Path) -> tuple[list[str], str]:
    """The command that starts okpy, and where it comes from (the running environment or a venv of its own)."""
    try:
        installed = importlib.metadata.version("okpy")
    except importlib.metadata.PackageNotFoundError:
        installed = None
    if installed is not None:
        return [sys.executable, "-c", ENTRY], f"the running environment (okpy {installed})"
    home = scratch / "okpy-venv"
    venv.EnvBuilder(with_pip=True).create(home)
    python = home / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    f"okpy=={VERSION}"], check=True, capture_output=True)
    return [str(python), "-c", ENTRY], f"a venv of its own ({home.name}, pip install okpy=={VERSION})"


def course(variant_id: str, folder: Path) -> float:
    """Write the course folder okpy runs for a variant's reference; return the points its tests are worth."""
    variant = load_variant(variant_id)
    folder.mkdir(parents=True)
    for name in ("hog.py", "dice.py"):   # the reference and the dice it imports
        shutil.copy(project.SOLUTION / variant_id / name, folder / name)
    tests = folder / "tests"
    tests.mkdir()
    (tests / "__init__.py").write_text("")   # okpy imports each test as tests.qNN
    setup = "".join(f">>> {line.rstrip()}\n" for line in grade.setup_lines(variant))
    public = cases.public_cases(variant)
    names, points = [], 0.0
    for question in variant.questions:
        sessions = [case.session for case in public if case.question == question.number]
        if not sessions:
            continue
        name = f"q{question.number}"
        names.append(name)
        points += question.points
        test = {"name": f"Question {question.number}", "points": question.points,
                "suites": [{"type": "doctest", "scored": True, "setup": setup, "teardown": "",
                            "cases": [{"code": session, "hidden": False, "locked": False} for session in sessions]}]}
        (tests / f"{name}.py").write_text(f"test = {test!r}\n")
    assignment = {"name": f"Hog ({variant_id})", "endpoint": "", "src": ["hog.py"],
                  "tests": {"tests/q*.py": "ok_test"}, "default_tests": names,
                  "protocols": ["file_contents", "grading", "scoring", "backup"]}
    (folder / "hog.ok").write_text(json.dumps(assignment, indent=2))
    return points


# The reference edited as students' code goes wrong where okpy's rules matter: an expected error not raised,
# Pig Out never scored, a printed line changed, a setup that fails (make_test_dice missing), a prompt that
# raises where a value was expected; builtins shadowed by names hog.py defines; a loop the course's
# construct_check finds, a strategy its check_strategy refuses, a hog.py that prints as each setup reloads it.
EDITS = {
    "sp19": [("    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'\n", ""),
             ("        if outcome == 1:\n            pig_out = True\n", ""),
             ('print("Player 0 now has", score0', 'print("Player 0 has", score0'),
             ("from dice import six_sided, four_sided, make_test_dice",
              "from dice import six_sided, four_sided\nmake_test_dice = None"),
             ("    tens, ones = score // 10 % 10, score % 10\n", "    tens, ones = score // 10 % 10, score % 10\n"
                                                                 "    assert score != 49\n")],
    "fa18": [("    tens, ones = score // 10 % 10, score % 10\n    return max(2 * tens - ones, 1)\n",
              "    for tens, ones in [(score // 10 % 10, score % 10)]:\n        return max(2 * tens - ones, 1)\n"),
             ("    if free_bacon(opponent_score) >= margin:\n        return 0\n",
              "    if score == 99:\n        return 11\n"
              "    if free_bacon(opponent_score) >= margin:\n        return 0\n"),
             ("        if is_swap(score, opponent_score):\n", "        if False:\n"),
             ("GOAL_SCORE = 100", "GOAL_SCORE = 100\nprint('hog.py loaded')")],   # each reload prints
    "nju24": [("    tens, ones = opponent_score // 10 % 10, opponent_score % 10\n",
               "    tens = ones = 0\n    while not tens and not ones:\n"
               "        tens, ones = opponent_score // 10 % 10, opponent_score % 10\n        break\n"),
              ("    return 2 * abs(tens - ones) + 1\n", "    return 2 * abs(tens - ones)\n")],
    "fa19": [("        if outcome == 1:\n            pig_out = True\n", ""),
             ("GOAL_SCORE = 100", "GOAL_SCORE = 100\nrepr = str = type = eval = compile = None"),
             ('print("Player 0 now has", score0', 'print("Player 0 has", score0')],
}


def edited(variant_id: str, folder: Path) -> list[Path]:
    """The variant's reference with each of its EDITS, one file each."""
    text = (project.SOLUTION / variant_id / "hog.py").read_text()
    folder.mkdir()
    paths = []
    for number, (old, new) in enumerate(EDITS[variant_id]):
        if old not in text:
            raise RuntimeError(f"solution/{variant_id}/hog.py no longer holds {old!r}: edit okpy_run.EDITS")
        paths.append(folder / f"{variant_id}_edit{number}.py")
        paths[-1].write_text(text.replace(old, new))
    return paths


MULTILINE = re.compile(r"^\s*'multiline': (True|False),?\n", re.MULTILINE)


def assignment_copy(assignment: Path, folder: Path) -> None:
    """A copy of an okpy assignment folder that okpy 1.18.1 runs: the kit's dice.py and ucb.py where the course
    has none, and no case's ``multiline`` key (NJU's ok client and CS 61A's of later terms write it; 1.18.1
    refuses it, and it changes only how a student unlocks). A case left ending in ``,`` after its last key
    is still a literal."""
    shutil.copytree(assignment, folder, symlinks=True)
    for name, kit in (("dice.py", project.DICE), ("ucb.py", project.SHIPPED / "ucb.py")):
        if not (folder / name).exists():
            shutil.copy(kit, folder / name)
    for test in (folder / "tests").rglob("*.py") if (folder / "tests").is_dir() else ():
        text = test.read_text(encoding="utf-8", errors="replace")
        if "'multiline'" in text:
            test.write_text(MULTILINE.sub("", text), encoding="utf-8")


def run(command: list[str], folder: Path, home: Path, more: list[str] = ()) -> str:
    """One okpy run of every test in ``folder`` (``more``: okpy's own arguments, ``-q q05`` for one test), in
    a new process; what it printed."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}   # as a student runs it
    environment["HOME"] = str(home)
    done = subprocess.run(command + ARGUMENTS + list(more), cwd=folder, env=environment, capture_output=True, text=True,
                          timeout=120)
    return done.stdout + done.stderr


BREAKDOWN = re.compile(r"^    (.+): ([0-9.]+)/([0-9.]+)$", re.MULTILINE)


def breakdown(output: str) -> dict[str, float]:
    """okpy's points per test, from the ``Point breakdown`` it prints; RuntimeError when it printed none."""
    parts = output.split("Point breakdown", 1)
    if len(parts) != 2:
        raise RuntimeError(f"okpy printed no point breakdown:\n{output[-2000:]}")
    return {name: float(got) for name, got, _ in BREAKDOWN.findall(parts[1])}


def scored(output: str) -> tuple[float, list[str]]:
    """The total okpy printed, and its questions that lost points ("Question 05: 1.0/2.0")."""
    total = re.search(r"^\s*Total: ([0-9.]+)\s*$", output, re.MULTILINE)
    if total is None:
        raise RuntimeError(f"okpy printed no score:\n{output[-2000:]}")
    short = [f"{name}: {got}/{worth}" for name, got, worth
             in re.findall(r"^\s*(Question \S+): ([0-9.]+)/([0-9.]+)\s*$", output, re.MULTILINE)
             if float(got) < float(worth)]
    return float(total.group(1)), short
