"""``hog import-ok``: an okpy assignment kept in the course folder, what was not imported said line by line, and
bad input refused with the file and the test named and nothing written."""

import json
import shutil
from pathlib import Path

import pytest

from grader import project
from grader.cli import main
from grader.spec import okpy_suite
from grader.spec.okpy_format import lock, normalize
from tests import TESTS

FIXTURE = TESTS / "data" / "okpy" / "sp19"
FA18 = TESTS / "data" / "okpy" / "fa18"
KIT = project.PACKAGE.parent   # the checkout: its references, whatever course a test chose
REFERENCE = KIT / "solution" / "sp19" / "hog.py"
LOCKED_Q04 = """test = {
  'name': 'Question 4',
  'points': 1,
  'suites': [
    {
      'cases': [
        {
          'code': r\"\"\"
          >>> is_swap(2, 4)
          %s
          # locked
          >>> is_swap(11, 1)
          %s
          # locked
          \"\"\",
          'hidden': False,
          'locked': True
        }
      ],
      'scored': True,
      'setup': '>>> from hog import *',
      'teardown': '',
      'type': 'doctest'
    }
  ]
}
"""


@pytest.fixture
def course(tmp_path):
    folder = tmp_path / "course"
    assert main(["init", str(folder), "--variant", "sp19"]) == 0
    return folder


def okpy_copy(tmp_path) -> Path:
    folder = tmp_path / "okpy"
    shutil.copytree(FIXTURE, folder)
    return folder


def imported(course, *args) -> int:
    return main(["--course", str(course), "import-ok", *map(str, args)])


def test_import_writes_the_suite_and_says_what_it_imported_and_what_not(course, capsys):
    assert imported(course, FIXTURE) == 0
    out = capsys.readouterr().out
    assert out.startswith("Imported 'Project 1: Hog' from ") and " as suite 'project-1-hog' " in out
    assert "7 tests, 13 doctest suites, 21 cases, 14 points" in out
    assert "  Question 5: 3 points over 2 scored suite(s), 3 cases (tests/q05.py)\n" in out
    assert "Not imported: Question 2 > Suite 2: 1 concept (multiple-choice) case(s): nothing to run\n" in out
    data = json.loads((course / "suites" / "project-1-hog" / "suite.json").read_text())
    assert data["assignment"] == "Project 1: Hog" and data["provenance"]["config"] == "hog.ok"
    assert set(data["provenance"]["files"]) == {"hog.ok"} | {f"tests/q0{n}.py" for n in range(1, 8)}
    project.use(str(course))
    suite = okpy_suite.load("project-1-hog")
    q03 = suite.tests[2]
    assert (q03.name, q03.points, q03.suites[0].setup, q03.suites[0].teardown) == (
        "Question 3", 2.0, ("from hog import *", "dice = make_test_dice(2, 4, 1)"), ("del dice",))
    assert q03.suites[0].cases[2].prompts[0].want == (
        "Traceback (most recent call last):", "  ...", "AssertionError: Cannot roll more than 10 dice.")


def test_a_locked_case_without_solution_is_listed_and_with_it_unlocked_from_the_reference(course, tmp_path, capsys):
    folder = okpy_copy(tmp_path)
    hashed = tuple(lock("Project 1: Hog", normalize(answer)) for answer in ("False", "True"))
    (folder / "tests" / "q04.py").write_text(LOCKED_Q04 % hashed)
    assert imported(course, folder, "--name", "locked") == 0
    out = capsys.readouterr().out
    assert "Not imported: Question 4 > Suite 1 > Case 1: locked, and its answer is unknown without --solution " \
           "PATH (a reference hog.py)\n" in out
    assert imported(course, folder, "--name", "locked", "--solution", REFERENCE) == 0
    out = capsys.readouterr().out
    assert "; 1 locked cases unlocked from " in out and "locked, and" not in out
    project.use(str(course))
    case = okpy_suite.load("locked").tests[3].suites[0].cases[0]
    assert [prompt.want for prompt in case.prompts] == [("False",), ("True",)]
    # a hog.py that shows other answers unlocks nothing: the skeleton returns None
    assert imported(course, folder, "--name", "wrong", "--solution", KIT / "skeleton" / "sp19" / "hog.py") == 0
    assert "locked, and the reference did not show what okpy's hash holds" in capsys.readouterr().out


BAD = [
    (lambda folder: (folder / "hog.ok").unlink(), "holds no .ok file: it is not an okpy assignment"),
    (lambda folder: (folder / "tests" / "q03.py").unlink(),
     "hog.ok: its default_tests name q03, but no test file of that name is in"),
    (lambda folder: (folder / "tests" / "q02.py").write_text("import os\ntest = {'name': os.getcwd()}\n"),
     "tests/q02.py: its 'test = ...' (line 2) is not a literal: the kit reads test files, it never runs them"),
    (lambda folder: (folder / "tests" / "q05.py").write_text(
        (folder / "tests" / "q05.py").read_text().replace("'code': r\"\"\"\n", "'code': r\"\"\"(105, 80)\n", 1)),
     "tests/q05.py (test 'Question 5'): Suite 1 > Case 1: its code starts with '(105, 80)', an answer before "
     "any '>>> ' prompt"),
    (lambda folder: (folder / "tests" / "q01.py").write_text(
        (folder / "tests" / "q01.py").read_text().replace("'hidden': True", "'hiden': True")),
     "tests/q01.py (test 'Question 1'): Suite 2 > Case 1 has a key okpy does not accept: 'hiden'"),
    (lambda folder: (folder / "tests" / "q07.py").write_text(
        (folder / "tests" / "q07.py").read_text().replace("'type': 'doctest'", "'type': 'doctests'", 1)),
     "tests/q07.py (test 'Question 7'): Suite 1 has type 'doctests', which okpy does not know"),
]


@pytest.mark.parametrize("spoil, message", BAD, ids=["no .ok", "test missing", "not a literal", "answer first",
                                                     "unknown key", "unknown type"])
def test_bad_input_names_the_file_and_the_test_and_writes_nothing(course, tmp_path, capsys, spoil, message):
    folder = okpy_copy(tmp_path)
    spoil(folder)
    assert imported(course, folder) == 2
    err = capsys.readouterr().err
    assert message in err and err.rstrip().endswith("nothing was written"), err
    assert "Traceback" not in err
    assert not (course / "suites").exists()


def test_a_test_file_is_read_never_run(course, tmp_path, capsys):
    """Code beside the literal (okpy would import the file and run it) is never run: only the literal is read."""
    folder = okpy_copy(tmp_path)
    marker = tmp_path / "ran"
    q01 = folder / "tests" / "q01.py"
    q01.write_text(f"open({str(marker)!r}, 'w').write('ran')\n" + q01.read_text())
    assert imported(course, folder) == 0
    assert not marker.exists()
    assert "7 tests, 13 doctest suites, 21 cases, 14 points" in capsys.readouterr().out


def test_a_suite_of_another_type_is_listed_and_a_scored_concept_suite_counts_as_passed(course, tmp_path, capsys):
    folder = okpy_copy(tmp_path)
    q07 = folder / "tests" / "q07.py"
    q07.write_text(q07.read_text().replace("'type': 'doctest'", "'type': 'scheme'", 1))
    q02 = folder / "tests" / "q02.py"
    q02.write_text(q02.read_text().replace("'scored': False,\n      'type': 'concept'", "'scored': True,\n      "
                                                                                    "'type': 'concept'"))
    assert imported(course, folder) == 0
    out = capsys.readouterr().out
    assert "Not imported: Question 7 > Suite 1: a scheme suite: the kit runs Python doctest suites only; the " \
           "test's points are spread over its other suites\n" in out
    assert "Not imported: Question 2 > Suite 2: 1 concept (multiple-choice) case(s): nothing to run; scored, so it " \
           "counts as passed, as okpy scores an unlocked concept suite\n" in out
    assert "  Question 7: 3 points over 2 scored suite(s), 2 cases (tests/q07.py)\n" in out
    assert "  Question 2: 1 points over 2 scored suite(s), 2 cases (tests/q02.py)\n" in out


def test_an_unknown_suite_is_refused_naming_the_imported_ones(course, capsys):
    assert imported(course, FIXTURE, "--name", "hog-sp19") == 0
    assert main(["--course", str(course), "grade", str(REFERENCE), "--suite", "hog"]) == 2
    assert "no suite 'hog' in this course (suites: hog-sp19; import one with" in capsys.readouterr().err
    assert main(["--course", str(course), "grade", str(REFERENCE), "--suite", "all+hog-sp19"]) == 2
    assert "give NAME (an imported okpy suite) or kit+NAME" in capsys.readouterr().err


def test_import_carries_the_course_s_files_beside_the_suite_and_says_each_one_carried_or_left_out(course, tmp_path,
                                                                                                  capsys):
    folder = tmp_path / "fa18"
    shutil.copytree(FA18, folder)
    (folder / "hog.py").write_text("# the course's reference\n")
    (folder / "ok").write_bytes(b"PK\x03\x04")
    assert imported(course, folder, "--name", "fa18") == 0
    out = capsys.readouterr().out
    assert "Carried: tests/play.sol (beside the test files, as okpy's tests package holds it)\n" in out
    assert "Carried: tests/check_strategy.py (beside the test files, as okpy's tests package holds it)\n" in out
    assert "Carried: hog_gui.py (the course's, beside hog.py)\n" in out
    assert "Carried: dice.py (the course's, beside hog.py; it replaces the kit's)\n" in out
    assert "Carried: gui_files/common_server.py (the course's, beside hog.py)\n" in out
    assert "Left out: hog.py (the submission's own (the config's src): each submission brings its own)\n" in out
    assert "Left out: ok (okpy's client itself, not the course's code)\n" in out
    kept = course / "suites" / "fa18" / "files"
    assert (kept / "tests" / "play.sol").read_bytes() == (FA18 / "tests" / "play.sol").read_bytes()
    assert not (kept / "hog.py").exists() and not (kept / "ok").exists()
    data = json.loads((course / "suites" / "fa18" / "suite.json").read_text())
    assert set(data["files"]) == {path.relative_to(FA18).as_posix() for path in FA18.rglob("*")
                                  if path.is_file()} - {"hog.ok"}
    # imported again without a helper: it is no longer carried
    (folder / "tests" / "play_utils.py").unlink()
    assert imported(course, folder, "--name", "fa18") == 0
    assert not (kept / "tests" / "play_utils.py").exists() and (kept / "tests" / "play.sol").is_file()
    project.use(str(course))
    assert dict(okpy_suite.load("fa18").files)["tests/play.sol"].startswith(b"# rolls0")


def test_a_carried_file_changed_in_the_course_folder_is_refused_naming_it(course, capsys):
    assert imported(course, FA18, "--name", "fa18") == 0
    (course / "suites" / "fa18" / "files" / "tests" / "check_strategy.py").write_text("def check_strategy(s): pass\n")
    assert main(["--course", str(course), "grade", str(KIT / "solution" / "fa18" / "hog.py"), "--variant", "fa18",
                 "--suite", "fa18"]) == 2
    err = capsys.readouterr().err
    assert "suites/fa18/suite.json: its file files/tests/check_strategy.py changed since it was imported: import " \
           "the suite again with 'hog import-ok'" in err and "Traceback" not in err


BOUNDS = [
    (lambda folder: (folder / "tests" / "q01.py").write_text("test = " + "[" * 150 + "]" * 150 + "\n"),
     "tests/q01.py: its literal is nested deeper than 100 levels"),
    (lambda folder: (folder / "hog.ok").write_text((folder / "hog.ok").read_text().replace(
        '"tests/q*.py"', '"../*/tests/q*.py"')), "hog.ok: its tests name '../*/tests/q*.py', which leads out of"),
    (lambda folder: (folder / "tests" / "q05.py").write_bytes(b"#" * (2 << 20)),
     "tests/q05.py: 2.0 MiB, over the 2 MiB a test file may be"),
]


@pytest.mark.parametrize("spoil, message", BOUNDS, ids=["too deep", "glob out", "too large"])
def test_past_a_bound_the_file_is_named_and_nothing_is_written(course, tmp_path, capsys, spoil, message):
    folder = tmp_path / "fa18"
    shutil.copytree(FA18, folder)
    spoil(folder)
    assert imported(course, folder) == 2
    err = capsys.readouterr().err
    assert message in err and err.rstrip().endswith("nothing was written") and "Traceback" not in err, err
    assert not (course / "suites").exists()
