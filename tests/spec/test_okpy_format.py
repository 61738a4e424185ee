"""okpy's test files read as okpy 1.18.1 reads them, never run: prompts and their answers, expected errors,
locked answers, and what okpy itself would refuse."""

import pytest

from grader.spec import okpy_format as ok


def test_a_prompt_with_no_answer_must_show_nothing_and_continuation_lines_join_it():
    prompts = ok.prompts("""
    >>> def f(x):
    ...     return x + 1
    >>> f(1)
    2
    >>> y = f(2)
    """)
    assert [(p.source, p.answer.lines()) for p in prompts] == [
        ("def f(x):\n    return x + 1", []), ("f(1)", ["2"]), ("y = f(2)", [])]


def test_an_expected_error_keeps_its_detail_from_the_first_line_starting_with_a_letter():
    [prompt] = ok.prompts("""
          >>> roll_dice(0)
          Traceback (most recent call last):
            ...
          AssertionError: Must roll at least once.
          """)
    assert prompt.answer.exception
    assert prompt.answer.lines() == [ok.TRACEBACK, "  ...", "AssertionError: Must roll at least once."]


def test_a_locked_answer_is_marked_and_okpy_notes_are_dropped():
    [locked, noted] = ok.prompts(">>> f(1)\nabc123\n# locked\n>>> f(2)\n4\n# explanation: four\n")
    assert locked.answer.locked and locked.answer.output == ["abc123"]
    assert not noted.answer.locked and noted.answer.lines() == ["4"]


def test_okpy_hashes_a_locked_line_with_hmac_md5_keyed_by_the_assignment_name():
    assert ok.lock("Project 1: Hog", ok.normalize("  10 ")) == ok.lock("Project 1: Hog", "10")
    assert len(ok.lock("Project 1: Hog", "10")) == 32


def test_an_answer_before_any_prompt_is_refused_as_okpy_refuses_it():
    with pytest.raises(ok.Rejected, match="an answer before any '>>> ' prompt"):
        ok.prompts("10\n>>> f(1)\n")


def test_setup_is_statements_whose_output_is_not_compared():
    assert ok.statements(">>> from hog import *\n>>> dice = make_test_dice(\n...     3)\n") == [
        "from hog import *", "dice = make_test_dice(\n    3)"]


def test_a_test_file_is_read_as_a_literal_and_never_run():
    assert ok.read_test("test = {'name': 'Question 1', 'points': 1, 'suites': []}\n")["name"] == "Question 1"
    with pytest.raises(ok.Rejected, match="is not a literal: the kit reads test files, it never runs them"):
        ok.read_test("import os\ntest = {'name': os.system('echo hi'), 'points': 1, 'suites': []}\n")
    with pytest.raises(ok.Rejected, match="assigns no 'test = {...}'"):
        ok.read_test("tests = {}\n")
    with pytest.raises(ok.Rejected, match="not valid Python"):
        ok.read_test("test = {\n")


def test_keys_okpy_does_not_accept_and_values_of_the_wrong_type_are_refused():
    with pytest.raises(ok.Rejected, match="key okpy does not accept: 'pionts'"):
        ok.checked({"name": "Q", "pionts": 1, "suites": []}, ok.TEST_KEYS, "the test")
    with pytest.raises(ok.Rejected, match="has no 'points', which okpy requires"):
        ok.checked({"name": "Q", "suites": []}, ok.TEST_KEYS, "the test")
    with pytest.raises(ok.Rejected, match="its points is True, not a number"):
        ok.typed(True, (int, float), "its points")
