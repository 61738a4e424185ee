"""The kit scores an imported okpy suite as okpy itself does: equal points per okpy test, on the kit's corpus of
real submissions (each variant's reference, then tests/submissions/allowed and buggy) and the reference with
edits where okpy's rules matter (``okpy_run.EDITS``), with okpy 1.18.1 run
as a course runs it (``ok --local --score``; installed into a venv of its own as the benchmarks install it).

The locked copy is made by okpy itself (``ok --lock``): the kit imports that copy with ``--solution`` and must
score the same as okpy on the instructor's unlocked copy."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader import project
from grader.grading import okpy_grade
from grader.sandbox import Limits
from grader.spec import load_variant, okpy_folder
from grader.grading import okpy_unlock
from tests import TESTS

sys.path.insert(0, str(project.PACKAGE.parent / "benchmarks"))
import okpy_run  # noqa: E402  (beside the benchmarks: how they find or install okpy and run it)

FIXTURES = TESTS / "data" / "okpy"
LIMITS = Limits(case_seconds=10.0, total_seconds=120.0)


@pytest.fixture(scope="module")
def okpy(tmp_path_factory):
    """The command that starts okpy 1.18.1; the tests skip, saying why, only when it cannot be installed."""
    scratch = tmp_path_factory.mktemp("okpy")
    try:
        command, _ = okpy_run.client(scratch)
    except (subprocess.CalledProcessError, OSError) as error:
        output = getattr(error, "stderr", b"") or b""
        pytest.skip(f"okpy {okpy_run.VERSION} could not be installed here: {error} {output[-300:]!r}")
    return command, scratch


def corpus(variant_id: str) -> list[Path]:
    return [project.SOLUTION / variant_id / "hog.py"] + sorted(
        path for kind in ("allowed", "buggy") for path in (TESTS / "submissions" / kind).glob(f"{variant_id}_*.py"))


def okpy_scores(okpy, assignment: Path, submission: Path, folder: Path) -> dict[str, float]:
    """okpy's points per test for ``submission`` (its ``Point breakdown``), run in a copy of the assignment
    with the submission's hog.py (and the kit's dice.py and ucb.py where the course has none)."""
    command, scratch = okpy
    okpy_run.assignment_copy(assignment, folder)
    shutil.copy(submission, folder / "hog.py")
    return okpy_run.breakdown(okpy_run.run(command, folder, scratch))


def kit_scores(suite, variant_id: str, submission: Path) -> dict[str, float]:
    result = okpy_grade.grade_suite(submission, load_variant(variant_id), suite, limits=LIMITS)
    assert result.import_error is None, result.import_error
    return {question.question.name: question.score for question in result.questions}


@pytest.mark.slow
@pytest.mark.parametrize("variant_id", ["sp19", "fa19"])
def test_the_kit_scores_every_okpy_test_as_okpy_does_on_the_corpus(okpy, tmp_path, variant_id):
    assignment = FIXTURES / variant_id
    suite = okpy_folder.suite(okpy_folder.read(assignment), variant_id, {}, {})
    compared = {}
    for number, submission in enumerate(corpus(variant_id) + okpy_run.edited(variant_id, tmp_path / "edited")):
        theirs = okpy_scores(okpy, assignment, submission, tmp_path / str(number))
        ours = kit_scores(suite, variant_id, submission)
        compared[submission.name] = (ours, theirs)
    assert {name: ours for name, (ours, _) in compared.items()} == {name: theirs for name, (_, theirs)
                                                                   in compared.items()}
    assert any(sum(ours.values()) < suite.points for ours, _ in compared.values()), "no submission lost a point"
    assert len(compared) >= 4 + len(okpy_run.EDITS[variant_id])


@pytest.mark.slow
@pytest.mark.parametrize("variant_id", ["fa18", "nju24"])
def test_tests_that_need_the_course_s_files_score_as_okpy_scores_them(okpy, tmp_path, variant_id):
    """The fixtures in the real courses' shapes: helpers in tests/ (construct_check, check_strategy, play_utils
    reading play.sol), the course's hog_gui.py and gui_files/ beside hog.py, setups that reload hog, NJU's
    multiline key and its 'import tests.construct_check as test' setup. okpy 1.18.1 refuses the multiline key,
    which NJU's client writes: it runs a copy without it (the key changes only how a student unlocks)."""
    assignment = FIXTURES / variant_id
    suite = okpy_folder.suite(okpy_folder.read(assignment), variant_id, {}, {})
    compared = {}
    for number, submission in enumerate(corpus(variant_id) + okpy_run.edited(variant_id, tmp_path / "edited")):
        compared[submission.name] = (kit_scores(suite, variant_id, submission),
                                     okpy_scores(okpy, assignment, submission, tmp_path / str(number)))
    assert {name: ours for name, (ours, _) in compared.items()} == {name: theirs for name, (_, theirs)
                                                                   in compared.items()}
    assert sum(ours == {test.name: test.points for test in suite.tests} for ours, _ in compared.values()) >= 2
    assert len([ours for ours, _ in compared.values() if sum(ours.values()) < suite.points]) >= 2


def locked_by_okpy(okpy, assignment: Path, folder: Path) -> Path:
    """``assignment`` as okpy's ``ok --lock`` hands it to students: hidden cases removed, the answers of cases
    with no ``locked`` key hashed."""
    command, scratch = okpy
    shutil.copytree(assignment, folder)
    done = subprocess.run(command + ["--local", "--no-update", "--lock", "--config", "hog.ok"], cwd=folder,
                          env={"HOME": str(scratch), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


@pytest.mark.slow
def test_a_suite_locked_by_okpy_and_unlocked_with_the_reference_scores_as_okpy(okpy, tmp_path):
    """okpy locks q04's cases; the kit recovers their answers from the reference (in the sandbox) and scores
    as okpy scores the same copy left unlocked (its cases marked 'locked': False before okpy's lock)."""
    locked = locked_by_okpy(okpy, FIXTURES / "sp19", tmp_path / "locked")
    assert "# locked" in (locked / "tests" / "q04.py").read_text()
    assert "'hidden': True" not in (locked / "tests" / "q06.py").read_text()
    plain = tmp_path / "plain"
    shutil.copytree(FIXTURES / "sp19", plain)
    q04 = plain / "tests" / "q04.py"
    q04.write_text(q04.read_text().replace("'hidden': False\n", "'hidden': False, 'locked': False\n"))
    unlocked = locked_by_okpy(okpy, plain, tmp_path / "unlocked")
    assert "# locked" not in (unlocked / "tests" / "q04.py").read_text()

    assignment = okpy_folder.read(locked)
    assert len(okpy_folder.locked_cases(assignment)) == 2
    recovered = okpy_unlock.recover(assignment, project.SOLUTION / "sp19" / "hog.py", limits=LIMITS)
    assert len(recovered) == 2
    suite = okpy_folder.suite(assignment, "sp19-locked", recovered, {"solution": "hog.py"})
    assert [line for line in suite.skipped if "locked" in line] == []
    for number, submission in enumerate(corpus("sp19")):
        assert kit_scores(suite, "sp19", submission) == okpy_scores(okpy, unlocked, submission, tmp_path / str(number))


def test_the_breakdown_okpy_prints_is_read_per_test():
    text = "Point breakdown\n    Question 1: 2.0/2\n    Question 5a: 0.5/1.5\n\nScore:\n    Total: 2.5\n"
    assert okpy_run.BREAKDOWN.findall(text) == [("Question 1", "2.0", "2"), ("Question 5a", "0.5", "1.5")]
