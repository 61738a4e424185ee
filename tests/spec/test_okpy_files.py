"""What of an okpy assignment folder the kit carries with the suite (the whole tests/ package, the course's
own modules beside hog.py) and what it leaves out, one line each with why; and the bounds on what is read:
a test inside the folder only, each file under 2 MiB, the folder under 50 MiB, literals at most 100 deep."""

import os
import shutil
from pathlib import Path

import pytest

from grader.errors import UsageError
from grader.spec import okpy_files, okpy_folder
from grader.spec import okpy_format as ok
from tests import TESTS

FA18 = TESTS / "data" / "okpy" / "fa18"
NJU24 = TESTS / "data" / "okpy" / "nju24"


def copy(folder: Path, tmp_path: Path) -> Path:
    target = tmp_path / folder.name
    shutil.copytree(folder, target)
    return target


def test_the_tests_package_and_the_course_modules_beside_hog_py_are_carried():
    assignment = okpy_folder.read(FA18)
    assert set(assignment.carried) == {
        "dice.py", "ucb.py", "hog_gui.py", "gui_files/__init__.py", "gui_files/common_server.py",
        "tests/__init__.py", "tests/construct_check.py", "tests/check_strategy.py", "tests/play_utils.py",
        "tests/play.sol", "tests/q01.py", "tests/q05.py", "tests/q05b.py", "tests/q08.py"}
    assert "hog.ok: the okpy config, read into suite.json" in assignment.left_out


def test_the_submission_s_file_the_ok_client_caches_links_hidden_and_large_files_are_left_out(tmp_path):
    folder = copy(FA18, tmp_path)
    (folder / "hog.py").write_text("def roll_dice(n, dice=None):\n    return 0\n")
    (folder / "ok").write_bytes(b"PK\x03\x04 the ok client, a zip")
    (folder / "tests" / "__pycache__").mkdir()
    (folder / "tests" / "__pycache__" / "q01.cpython-311.pyc").write_bytes(b"\0")
    (folder / ".ok_storage").write_text("{}")
    (folder / "helper.py").symlink_to(folder / "ucb.py")
    with open(folder / "tests" / "games.sol", "wb") as big:
        big.truncate(3 << 20)
    (folder / "my notes.txt").write_text("a name with a space")
    assignment = okpy_folder.read(folder)
    assert not {"hog.py", "ok", "helper.py", ".ok_storage", "tests/games.sol", "my notes.txt"} & set(
        assignment.carried)
    assert not [name for name in assignment.carried if "__pycache__" in name]
    assert set(assignment.left_out) >= {
        "hog.py: the submission's own (the config's src): each submission brings its own",
        "ok: okpy's client itself, not the course's code",
        "tests/__pycache__/: compiled files Python makes again",
        ".ok_storage: a hidden file",
        "helper.py: a symbolic link: only files themselves are carried",
        "tests/games.sol: 3.0 MiB, over the 2 MiB a carried file may be",
        "my notes.txt: a name the sandbox does not take (letters, digits, '.', '_' and '-' only)"}


def test_a_case_may_say_multiline_as_the_courses_ok_clients_write_it():
    assignment = okpy_folder.read(NJU24)
    assert [test.name for test in assignment.tests] == ["Problem 1", "Problem 2"]
    with pytest.raises(ok.Rejected, match=r"Case 1's multiline is 'yes', not True or False"):
        okpy_folder._case({"code": ">>> 1\n1", "multiline": "yes"}, 1, "Case 1")


def refused(folder: Path) -> str:
    with pytest.raises(UsageError) as error:
        okpy_folder.read(folder)
    return str(error.value)


def test_a_glob_leading_out_of_the_folder_is_refused_naming_the_config(tmp_path):
    folder = copy(FA18, tmp_path)
    (tmp_path / "elsewhere").mkdir()
    shutil.copy(folder / "tests" / "q01.py", tmp_path / "elsewhere" / "q09.py")
    config = (folder / "hog.ok").read_text()
    (folder / "hog.ok").write_text(config.replace('"tests/q*.py": "ok_test"',
                                                  '"tests/q*.py": "ok_test", "../elsewhere/q*.py": "ok_test"'))
    message = refused(folder)
    assert "hog.ok: its tests name '../elsewhere/q*.py', which leads out of " in message
    assert message.endswith("nothing was written")


def test_a_test_file_that_is_a_link_leading_out_of_the_folder_is_refused(tmp_path):
    folder = copy(FA18, tmp_path)
    shutil.copy(folder / "tests" / "q01.py", tmp_path / "q01.py")
    (folder / "tests" / "q01.py").unlink()
    (folder / "tests" / "q01.py").symlink_to(tmp_path / "q01.py")
    assert "tests/q01.py is a symbolic link leading out of " in refused(folder)


def test_a_test_file_over_2_mib_and_a_folder_over_50_mib_are_refused_naming_the_file(tmp_path):
    folder = copy(FA18, tmp_path)
    q08 = folder / "tests" / "q08.py"
    q08.write_text(q08.read_text() + "#" * (2 << 20))
    assert "tests/q08.py: 2.0 MiB, over the 2 MiB a test file may be; nothing was written" in refused(folder)
    folder = copy(NJU24, tmp_path / "again")
    for number in range(26):
        with open(folder / f"data{number:02}.bin", "wb") as part:
            part.truncate((2 << 20) - 1)
    message = refused(folder)
    assert f"{folder}: more than 50 MiB of files (at data" in message and message.endswith("nothing was written")


def test_a_folder_of_too_many_files_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(okpy_files, "FOLDER_FILES", 5)
    message = refused(copy(FA18, tmp_path))
    assert "fa18: more than 5 files: an okpy folder is carried with its suite whole" in message


def test_a_literal_nested_deeper_than_100_is_refused_without_a_traceback():
    with pytest.raises(ok.Rejected, match="nested deeper than 100 levels"):
        ok.read_test("test = " + "[" * 101 + "]" * 101 + "\n")
    with pytest.raises(ok.Rejected, match="nested deeper than 100 levels"):
        ok.read_test("test = " + "[" * 5000 + "]" * 5000 + "\n")
    assert ok.read_test("test = " + "{'a': " * 99 + "{}" + "}" * 99 + "\n")


def test_a_config_naming_a_test_that_is_not_there_names_the_config(tmp_path):
    folder = copy(NJU24, tmp_path)
    os.remove(folder / "tests" / "q02.py")
    assert "hog.ok: its default_tests name q02, but no test file of that name is in" in refused(folder)


def test_a_glob_matching_a_folder_or_a_file_that_is_not_python_is_refused_as_okpy_refuses_it(tmp_path):
    folder = copy(NJU24, tmp_path)
    config = (folder / "hog.ok").read_text()
    (folder / "hog.ok").write_text(config.replace('"tests/q*.py": "ok_test"', '"tests/*": "ok_test"'))
    (folder / "tests" / "games.sol").write_text("1; 2\n")
    assert "hog.ok: its tests name 'tests/*', which matches tests/games.sol, not a Python test file (okpy " \
           "refuses it too: 'Cannot import tests/games.sol as an OK test'); nothing was written" in refused(folder)
    (folder / "tests" / "games.sol").unlink()
    (folder / "tests" / "data").mkdir()
    assert "which matches tests/data, not a Python test file" in refused(folder)
