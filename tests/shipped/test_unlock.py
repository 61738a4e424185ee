"""Unlocking, as a student meets it: `python3 unlock.py -q 01` in the terminal, then pytest runs what was
unlocked; the student folder never shows a locked answer; the grader reports what was unlocked."""

import html
import io
import json
import os
import re
import select
import shutil
import subprocess
import sys
import time

import pytest

from grader import project
from grader.cases import unlocking
from grader.publishing import assign, build
from grader.commands import authoring
from grader.report import text as text_report
from grader.shipped.student import unlock as shipped
from grader.spec import all_variants, load_variant

VARIANTS = all_variants()
IDS = [variant.id for variant in VARIANTS]


def answers_of(variant, item):
    """The right answers of a locked item, one per '?' prompt, from the spec."""
    question = variant.question(item["question"])
    if item["kind"] == "concept":
        index = int(item["id"].rsplit("-c", 1)[1])
        return [str(question.unlock.concepts[index - 1].answer)]
    case = next(case for case in question.cases if case.id == item["id"])
    return [line for step in case.steps for line in step.want.splitlines()]


def pytest_in(folder, *args):
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)


class Terminal:
    """A program run on a pseudo-terminal, driven the way a student types."""

    def __init__(self, args, cwd):
        import pty
        self.master, slave = pty.openpty()
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "TERM": "dumb"}
        self.process = subprocess.Popen(args, cwd=cwd, stdin=slave, stdout=slave, stderr=slave, env=env,
                                        start_new_session=True)
        os.close(slave)
        self.seen = ""

    def expect(self, wanted, timeout=60):
        """Read until `wanted` shows; return what came before it."""
        deadline = time.monotonic() + timeout
        while wanted not in self.seen:
            ready, _, _ = select.select([self.master], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                raise AssertionError(f"waited for {wanted!r}; the terminal shows:\n{self.seen}")
            try:
                data = os.read(self.master, 4096)
            except OSError:
                data = b""
            if not data:
                raise AssertionError(f"the program ended before {wanted!r}; it showed:\n{self.seen}")
            self.seen += data.decode("utf-8", "replace").replace("\r\n", "\n")
        before, _, self.seen = self.seen.partition(wanted)
        return before

    def type(self, line):
        os.write(self.master, line.encode() + b"\n")

    def ctrl_d(self):
        os.write(self.master, b"\x04")

    def close(self):
        code = self.process.wait(timeout=30)
        os.close(self.master)
        return code


@pytest.fixture(scope="module")
def assigned(tmp_path_factory):
    """`hog assign` output of every variant: id → the student folder."""
    folders = {}
    for variant in VARIANTS:
        out = tmp_path_factory.mktemp(variant.id) / "bundle"
        assign.assign(variant, out)
        folders[variant.id] = out / "student"
    return folders


# ------------------------------------------------------------ the answer rule


@pytest.mark.parametrize("expected, typed, right", [
    ("1", "1", True), ("1", " 1 ", True), ("1", "1.0", False), ("1.0", "1.0", True), ("1", "01", False),
    ("True", "True", True), ("True", "1", False), ("'hog'", '"hog"', True), ("(18, 12)", "(18,12)", True),
    ("(18, 12)", "[18, 12]", False), ("Player 0 now has 12", "Player 0 now has 12   ", True),
    ("Player 0 now has 12", "player 0 now has 12", False),
])
def test_answers_are_compared_by_the_value_they_denote_as_the_grader_would(expected, typed, right):
    assert (shipped.digest("salt", typed) == shipped.digest("salt", expected)) is right
    assert (shipped.canonical(typed) == shipped.canonical(expected)) is right


# ------------------------------------------------------------ the session


def unlock_folder(assigned, variant, tmp_path):
    folder = tmp_path / "student"
    shutil.copytree(assigned[variant.id], folder)
    shutil.copy(project.SOLUTION / variant.id / "hog.py", folder / "hog.py")
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_a_full_unlock_session_then_pytest_runs_the_unlocked_cases(assigned, variant, tmp_path):
    folder = unlock_folder(assigned, variant, tmp_path)
    items = shipped.items(folder / "tests" / "q01.md")
    concepts = [item for item in items if item["kind"] == "concept"]
    cases = [item for item in items if item["kind"] == "case"]
    assert concepts and len(cases) >= 2
    before = pytest_in(folder, "-k", "q01")
    assert f"{len(cases)} skipped" in before.stdout and "locked: run python3 unlock.py -q 01" in before.stdout

    terminal = Terminal([sys.executable, "unlock.py", "-q", "01"], folder)
    first = concepts[0]
    terminal.expect(first["prompt"])
    terminal.expect("? ")
    right = answers_of(variant, first)[0]
    terminal.type("1" if right != "1" else "2")                      # a wrong choice
    terminal.expect("-- Not quite. Try again! --")
    terminal.expect("? ")
    terminal.type(right)
    terminal.expect("-- OK! --")
    for item in concepts[1:] + cases[:1]:
        for answer in answers_of(variant, item):
            shown = terminal.expect("? ")
            terminal.type(" " + answer)                              # a space before: the same value
            terminal.expect("-- OK! --")
    shown = terminal.expect("? ")                                   # the second locked case asks ...
    assert cases[1]["steps"][0]["source"].split("\n")[0] in shown
    terminal.ctrl_d()                                               # ... and the student stops
    terminal.expect("Progress saved in .hog_unlock.json; run 'python3 unlock.py -q 01' to go on.")
    assert terminal.close() == 1

    middle = pytest_in(folder, "-k", "q01")
    assert middle.returncode == 0 and f"{len(cases) - 1} skipped" in middle.stdout, middle.stdout
    saved = json.loads((folder / ".hog_unlock.json").read_text())["answers"]
    assert cases[0]["id"] in saved and cases[1]["id"] not in saved

    terminal = Terminal([sys.executable, "unlock.py"], folder)     # resumes at the next locked item
    for item in cases[1:]:
        for answer in answers_of(variant, item):
            terminal.expect("? ")
            terminal.type(answer)
            terminal.expect("-- OK! --")
    terminal.expect("Question 01 is unlocked. Run its cases: python -m pytest -k q01")
    assert terminal.close() == 0
    after = pytest_in(folder, "-k", "q01")
    assert after.returncode == 0 and "skipped" not in after.stdout, after.stdout
    assert f"{1 + len(cases)} passed" in after.stdout, after.stdout


@pytest.mark.slow
def test_an_unlocked_case_that_fails_reads_like_the_ok_client(assigned, tmp_path):
    variant = load_variant("sp19")
    folder = unlock_folder(assigned, variant, tmp_path)
    shutil.copy(project.SKELETON / "sp19" / "hog.py", folder / "hog.py")
    item = next(item for item in shipped.items(folder / "tests" / "q01.md") if item["kind"] == "case")
    shipped.save_progress({item["id"]: answers_of(variant, item)}, folder)
    result = pytest_in(folder, "-k", "q01")
    assert "q01 > Case q01-1\n(rules, Pig Out, example 1)\n" in result.stdout
    assert ">>> roll_dice(7, make_test_dice(2, 1, 1, 4, 1, 1, 1))\n\n# Error: expected\n#     1\n# but got\n" \
           in result.stdout


def test_a_progress_file_with_wrong_answers_unlocks_nothing(assigned, tmp_path):
    variant = load_variant("sp19")
    folder = unlock_folder(assigned, variant, tmp_path)
    items = [item for item in shipped.items(folder / "tests" / "q01.md") if item["kind"] == "case"]
    shipped.save_progress({item["id"]: ["2"] * len(answers_of(variant, item)) for item in items}, folder)
    assert all(shipped.revealed(item, shipped.load_progress(folder)) is None for item in items)
    assert unlocking.still_locked(folder, variant) >= {item["id"] for item in items}
    (folder / ".hog_unlock.json").write_text("not json")
    assert shipped.load_progress(folder) == {}


@pytest.mark.slow
def test_hog_test_skips_locked_cases_and_unlocks_with_u(assigned, tmp_path):
    variant = load_variant("sp19")
    folder = unlock_folder(assigned, variant, tmp_path)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    plain = subprocess.run([sys.executable, "-m", "grader.cli", "test", "-q", "2"], cwd=folder, env=env,
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert "Question 02: locked cases skipped (unlock them: hog test -q 02 -u)" in plain.stdout
    terminal = Terminal([sys.executable, "-m", "grader.cli", "test", "-q", "2", "-u"], folder)
    for item in unlocking.items(variant, variant.question("02")):
        for answer in answers_of(variant, item):
            terminal.expect("? ")
            terminal.type(answer)
            terminal.expect("-- OK! --")
    terminal.expect("Question 02 is unlocked.")
    terminal.expect("Unlock     2  unlocked")
    assert terminal.close() == 0
    again = subprocess.run([sys.executable, "-m", "grader.cli", "test", "-q", "2"], cwd=folder, env=env,
                           capture_output=True, text=True, timeout=300)
    assert "locked cases skipped" not in again.stdout
    public = sum(not case.hidden for case in variant.question("02").cases)
    assert f"({public}/{public} cases)" in again.stdout


# ------------------------------------------------------------ nothing in clear


def shown_after(text, source):
    """The next non-empty line after each line that ends a call, tags stripped (for the HTML handout)."""
    lines = [html.unescape(re.sub(r"<[^>]+>", "", line)).strip() for line in text.splitlines()]
    found = []
    for index, line in enumerate(lines):
        if line.endswith(source):
            following = [later for later in lines[index + 1:index + 4] if later]
            found.append(following[0] if following else "")
    return found


def leaks(files, variant):
    """(file, what) for each locked answer a folder shows in clear."""
    found = []
    for case in variant.cases:
        if not case.locked:
            continue
        for name, text in files.items():
            for step in case.steps:
                last = step.source.rstrip("\n").split("\n")[-1]
                wants = step.want.splitlines()
                if wants and wants[0].strip() in shown_after(text, last):
                    found.append((name, f"{last} -> {wants[0]}"))
                found += [(name, want) for want in wants if len(want) > 12 and want in text]
            if case.note and case.note in text:
                found.append((name, case.note))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_no_answer_of_a_locked_case_appears_in_clear_in_the_student_folder(assigned, variant):
    folder = assigned[variant.id]
    files = {path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8")
             for path in folder.rglob("*") if path.is_file()}
    assert "unlock.py" in files and any("<!-- locked " in text for text in files.values())
    assert leaks(files, variant) == []
    # the same check catches the answers where they are in clear (the solution's case files)
    assert leaks(build.case_files(variant, locked=False), variant)


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_the_student_folder_names_no_seed_file_and_no_spec_line(variant):
    """Students see where a case comes from in the handout's words ("rules, Pig Out, example 1"),
    locked cases and their comments included; the seed file and the spec stay the instructor's."""
    files = assign.student_files(variant)
    seeds = {other.seed for other in VARIANTS}
    found = [(name, word) for name, text in files.items() for word in seeds | {"specs/", ".yaml"} if word in text]
    assert found == []
    locked = [case for case in variant.cases if case.locked and case.rule]
    assert locked, "a locked case from the rules' examples"
    for case in locked:
        text = files[f"tests/q{case.question}.md"]
        assert f"({case.label}): locked" in text and f'"label": "{case.label}"' in text
    listing = io.StringIO()   # the instructor keeps the origins: hog cases
    authoring.cases(variant=variant.id, as_json=False, out=listing)
    assert all(f"{case.origin}  ({case.where})" in listing.getvalue() for case in locked)


def test_the_solution_folder_keeps_every_case_unlocked_and_the_skeleton_locks_them():
    for variant in VARIANTS:
        solution = (project.SOLUTION / variant.id / "tests" / "q01.md").read_text()
        skeleton = (project.SKELETON / variant.id / "tests" / "q01.md").read_text()
        assert "<!-- locked " not in solution and "<!-- concept " not in solution
        assert "<!-- locked " in skeleton and "<!-- concept " in skeleton
        assert (project.SOLUTION / variant.id / "unlock.py").is_file()


# ------------------------------------------------------------ for instructors


def test_the_grader_reports_which_questions_were_unlocked(tmp_path):
    variant = load_variant("sp19")
    question = variant.question("01")
    (tmp_path / "hog.py").write_text("")
    right = {item["id"]: answers_of(variant, item) for item in unlocking.items(variant, question)}
    shipped.save_progress(right, tmp_path)
    found = {status.question.number: status for status in unlocking.status(tmp_path, variant)}
    assert found["01"].unlocked and (found["01"].done, found["01"].total) == (len(right), len(right))
    assert not found["02"].unlocked and found["02"].done == 0
    assert text_report.unlock_line(found["01"]) == "Unlock     1  unlocked"
    assert text_report.unlock_line(found["02"]) == "Unlock     2  locked: 0/4 answered (python3 unlock.py -q 02)"
    assert found["01"].score == 0   # the shipped specs give no points for unlocking


def test_unlock_points_from_the_spec_count_when_unlocked(tmp_path):
    import dataclasses
    variant = load_variant("sp19")
    question = variant.question("01")
    worth = dataclasses.replace(question, unlock=dataclasses.replace(question.unlock, points=0.5))
    variant = dataclasses.replace(variant, questions=(worth,) + variant.questions[1:])
    (tmp_path / "hog.py").write_text("")
    status, = [s for s in unlocking.status(tmp_path, variant) if s.question.number == "01"]
    assert status.score == 0
    shipped.save_progress({item["id"]: answers_of(variant, item) for item in unlocking.items(variant, worth)},
                          tmp_path)
    status, = [s for s in unlocking.status(tmp_path, variant) if s.question.number == "01"]
    assert status.score == 0.5 and text_report.unlock_line(status).endswith("unlocked  0.5/0.5")
