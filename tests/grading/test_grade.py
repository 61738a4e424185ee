"""Grading: the solution earns everything but nothing is given away; student bugs lose points where they belong."""

import json
import re
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader import cases as case_source
from grader import project
from grader.grading import grade
from grader.sandbox import namespaces
from grader.sandbox import Limits
from grader.spec import load_variant

FAST = Limits(case_seconds=2.0, total_seconds=60.0)


def submit(tmp_path: Path, variant_id: str, old: str = "", new: str = "", *, source: str | None = None) -> Path:
    text = source if source is not None else (project.SOLUTION / variant_id / "hog.py").read_text()
    if old:
        assert text.count(old) >= 1, f"the solution no longer contains {old!r}"
        text = text.replace(old, new)
    folder = tmp_path / "submission"
    folder.mkdir(exist_ok=True)
    (folder / "hog.py").write_text(text)
    return folder


def graded(tmp_path, variant_id, old="", new="", **kwargs):
    return grade.grade(submit(tmp_path, variant_id, old, new, **kwargs), load_variant(variant_id), limits=FAST)


def scores(result):
    return {q.question.number: q.score for q in result.questions}


@pytest.mark.slow
@pytest.mark.parametrize("variant_id", ["sp19", "nju24", "nju21", "fa19", "fa18"])
def test_the_solution_earns_every_case_and_the_skeleton_none(variant_id):
    variant = load_variant(variant_id)
    solved = grade.grade(project.SOLUTION / variant_id, variant, limits=FAST)
    assert solved.import_error is None and solved.grader_error is None
    for question in solved.questions:
        assert question.first_failure is None, (question.question.number, question.first_failure)
    started = grade.grade(project.SKELETON / variant_id, variant, limits=FAST)
    assert started.score == 0 and all(q.first_failure for q in started.questions)


BUGS = [
    ("sp19", "01", "keeps rolling only until the first 1",
     "            pig_out = True\n", "            pig_out = True\n            break\n"),
    ("sp19", "01", "forgets Pig Out", "    points = 1 if pig_out else total\n", "    points = total\n"),
    ("sp19", "02", "takes the larger digit", "    return 1 + min(tens, ones)", "    return 1 + max(tens, ones)"),
    ("sp19", "03", "rolls zero dice instead of Free Bacon",
     "        return free_bacon(opponent_score)", "        return 0"),
    ("sp19", "04", "compares the ones digit with the tens digit",
     "        if player_score % 10 == opponent_score % 10:",
     "        if player_score % 10 == opponent_score // 10 % 10:"),
    ("sp19", "05", "never swaps", "        if is_swap(score, opponent_score):", "        if False:"),
    ("sp19", "05", "stops one turn late", "    while score0 < goal and score1 < goal:",
     "    while score0 <= goal and score1 <= goal:"),
    ("sp19", "06", "keeps the first commentary function", "        say = say(score0, score1)",
     "        say(score0, score1)"),
    ("sp19", "07", "announces equal gains too", "        if gain > previous_high:", "        if gain >= previous_high:"),
    ("sp19", "08", "calls the function once too often", "        for _ in range(num_samples):",
     "        for _ in range(num_samples + 1):"),
    ("sp19", "09", "prefers more dice on a tie", "        if average > best_average:",
     "        if average >= best_average:"),
    ("sp19", "10", "needs more than the margin", "    if free_bacon(opponent_score) >= margin:",
     "    if free_bacon(opponent_score) > margin:"),
    ("sp19", "11", "ignores harmful swaps", "        if opponent_score < new_score:\n            return num_rolls\n",
     ""),
    ("fa19", "05b", "counts the bonus against the opponent's previous dice",
     "        if feral_hogs and abs(num_rolls - previous_rolls[who]) == 2:",
     "        if feral_hogs and abs(num_rolls - previous_rolls[1 - who]) == 2:"),
    ("nju21", "01", "matches parity with the number of dice",
     "        if outcome % 2 == current_score % 2:", "        if outcome % 2 == num_rolls % 2:"),
    ("nju21", "02", "counts digits from 0", "    while score > 0:", "    while score >= 0:"),
    ("nju24", "04", "does not count 0 as a square", "    root = 0\n", "    root = 1\n"),
    ("fa18", "04", "takes the difference of the first and last digit",
     "        return abs(score // 10 % 10 - score % 10)", "        return abs(int(str(score)[0]) - score % 10)"),
]


@pytest.mark.slow
@pytest.mark.parametrize("variant_id, question, bug, old, new", BUGS, ids=[f"{b[0]}-q{b[1]}-{b[2]}" for b in BUGS])
def test_a_plausible_bug_loses_the_points_of_its_question(tmp_path, variant_id, question, bug, old, new):
    result = graded(tmp_path, variant_id, old, new)
    earned = scores(result)
    assert earned[question] == 0, f"a submission that {bug} keeps question {question}"
    assert result.score < result.max_score


LIAR = '''
class Anything(int):
    def __eq__(self, other):
        return True
    __hash__ = int.__hash__
    def __repr__(self):
        return "4"

def _lie(*args, **kwargs):
    return Anything(4)

import builtins, doctest
doctest.OutputChecker.check_output = lambda *args: True
builtins.print("26/26 points. All tests passed!")
for _name in ["roll_dice", "free_bacon", "take_turn", "is_swap", "play", "announce_highest", "make_averaged",
              "max_scoring_num_rolls", "bacon_strategy", "swap_strategy", "final_strategy"]:
    globals()[_name] = _lie
'''


@pytest.mark.slow
def test_lying_objects_and_patched_checkers_earn_nothing(tmp_path):
    result = graded(tmp_path, "sp19", source=LIAR)
    assert result.score == 0
    assert "not a plain value" in result.questions[1].first_failure.got


@pytest.mark.slow
def test_reading_the_kit_files_from_inside_finds_nothing(tmp_path):
    spy = (project.SOLUTION / "sp19" / "hog.py").read_text() + f'''
def free_bacon(score):
    import glob
    for pattern in ["{project.ROOT}/solution/*/hog.py", "{project.ROOT}/specs/*.yaml", "/work/**/hog.py"]:
        if glob.glob(pattern, recursive=True):
            return "found " + pattern
    return 1 + min(score // 10 % 10, score % 10)
'''
    result = graded(tmp_path, "sp19", source=spy)
    if result.isolation_level == "process":
        pytest.skip(f"file isolation is off on this machine: {result.isolation}")
    assert scores(result)["02"] == 1


@pytest.mark.slow
@pytest.mark.parametrize("ending", ["import sys\nsys.exit(0)\n", "import os\nos._exit(0)\n",
                                    "while True:\n    pass\n", "raise SystemExit('done')\n",
                                    "def broken(:\n"])
def test_a_submission_that_does_not_import_gets_zero_and_a_clear_reason(tmp_path, ending):
    result = graded(tmp_path, "sp19", source=(project.SOLUTION / "sp19" / "hog.py").read_text() + ending)
    assert result.score == 0 and result.import_error
    assert len(result.questions) == 12


@pytest.mark.slow
def test_an_endless_play_loses_only_the_questions_that_play(tmp_path):
    result = graded(tmp_path, "sp19", "    # BEGIN PROBLEM 5\n", "    # BEGIN PROBLEM 5\n    while True:\n        pass\n")
    earned = scores(result)
    assert earned["05"] == earned["06"] == 0
    assert earned["01"] == 2 and earned["04"] == 1 and earned["10"] == 1
    assert result.score == 16 and result.max_score == 23   # only what calls play loses its points
    assert "Timeout" in result.questions[4].first_failure.got


@pytest.mark.slow
def test_a_sleeping_play_loses_only_the_questions_that_play_within_a_minute(tmp_path):
    """fa19 with the grader's own limits: play sleeps before it answers, so each question that plays
    (5a, 5b, 6 and 7, announce_highest's cases play) is out of time after a second of waiting; every
    other question earns its points."""
    started = time.monotonic()
    result = grade.grade(submit(tmp_path, "fa19", "    # BEGIN PROBLEM 5\n",
                                "    # BEGIN PROBLEM 5\n    import time\n    time.sleep(3600)\n"),
                         load_variant("fa19"))
    assert time.monotonic() - started < 60
    lost = {number: points for number, points in scores(result).items()
            if points < load_variant("fa19").question(number).points}
    assert lost == {"05a": 0, "05b": 0, "06": 0, "07": 0}
    assert result.score == 17 and result.max_score == 25
    assert result.questions[4].first_failure.got == (
        "Timeout: the case waited more than 1 s without computing (asleep or blocked)\n")


@pytest.mark.slow
def test_a_submission_whose_functions_all_sleep_finishes_within_a_minute_with_what_works(tmp_path):
    """fa19 with questions 5 to 12 asleep (final_strategy too): each question costs about a second of
    waiting, not the wall-clock backstop; questions 1 to 4 still earn everything."""
    text = (project.SOLUTION / "fa19" / "hog.py").read_text()
    for number in range(5, 13):
        marker = f"    # BEGIN PROBLEM {number}\n"
        text = text.replace(marker, marker + "    import time\n    time.sleep(3600)\n")
    started = time.monotonic()
    result = grade.grade(submit(tmp_path, "fa19", source=text), load_variant("fa19"))
    assert time.monotonic() - started < 60
    earned = scores(result)
    assert [earned[f"{number:02d}"] for number in range(1, 5)] == [2, 1, 2, 2]
    assert earned["05a"] == earned["05b"] == 0
    assert all(earned[f"{number:02d}"] == 0 for number in range(6, 13))
    assert result.grader_error is None and result.import_error is None


@pytest.mark.slow
def test_the_final_strategy_is_graded_by_its_exact_win_rate(tmp_path):
    result = graded(tmp_path, "sp19", "    return int(table[score][opponent_score], 16)", "    return 4")
    final = result.questions[-1]
    assert final.score == 0 and "exact average win rate against always_roll(4): 0.500000" in final.message


@pytest.mark.slow
def test_a_final_strategy_below_a_threshold_is_told_what_the_next_one_needs(tmp_path):
    result = graded(tmp_path, "sp19", "    return int(table[score][opponent_score], 16)", "    return 6")
    final = result.questions[-1]
    assert final.score == 0 and final.message.endswith(" (0.55 earns 1 of 3 points)")


@pytest.mark.slow
def test_a_final_strategy_that_raises_is_told_at_which_scores(tmp_path):
    result = graded(tmp_path, "sp19", "    return int(table[score][opponent_score], 16)",
                    "    if (score, opponent_score) == (37, 12):\n        raise ValueError('boom')\n    return 4")
    final = result.questions[-1]
    assert final.score == 0
    assert final.message == ("final_strategy could not be tabulated over all 100x100 score pairs: "
                             "final_strategy(37, 12) raised ValueError: boom")


@pytest.mark.slow
def test_a_slow_final_strategy_is_told_the_time_it_has(tmp_path):
    result = graded(tmp_path, "sp19", "    return int(table[score][opponent_score], 16)",
                    "    import time\n    time.sleep(0.01)\n    return 4")
    final = result.questions[-1]
    assert final.score == 0 and "final_strategy could not be tabulated" in final.message
    assert (f"(each score pair is asked twice: the 20000 calls share one case's limit of "
            f"{FAST.case_seconds:g} s of CPU time, so a call must take well under {FAST.case_seconds / 20:.2f} ms)") \
        in final.message


@pytest.mark.slow
def test_a_final_strategy_that_changes_its_mind_earns_nothing(tmp_path):
    """Graded exactly, a strategy is a function of the two scores: asked twice, it must agree."""
    result = graded(tmp_path, "sp19", "    return int(table[score][opponent_score], 16)",
                    "    final_strategy.calls = getattr(final_strategy, 'calls', 0) + 1\n"
                    "    return final_strategy.calls % 11")
    final = result.questions[-1]
    assert final.score == 0
    assert re.fullmatch(r"final_strategy must roll the same number of dice whenever it is asked about the "
                        r"same scores: at \(\d+, \d+\) it chose \d+, then \d+", final.message)


def test_a_correct_final_strategy_that_prints_once_while_tabulated_still_earns_full_points(tmp_path):
    source = (project.SOLUTION / "sp19" / "hog.py").read_text().replace(
        "    return int(table[score][opponent_score], 16)",
        "    CALLS.append(1)\n"
        "    if len(CALLS) == 15000:  # in the tabulation (it runs first: 2 x 10,000 calls)\n"
        "        print('x' * 7000)\n"
        "    return int(table[score][opponent_score], 16)") + "\nCALLS = []\n"
    result = graded(tmp_path, "sp19", source=source)
    final = result.questions[-1]
    assert result.grader_error is None and final.score == final.max_score, final.message


def test_a_huge_text_returned_by_final_strategy_is_quoted_cut(tmp_path):
    result = graded(tmp_path, "sp19", "    return int(table[score][opponent_score], 16)",
                    "    return 'y' * 46_000 if (score, opponent_score) == (3, 4) else 4")
    final = result.questions[-1]
    assert final.score == 0 and "table[3][4] = 'yyy" in final.message
    assert len(final.message) < 700 and final.message.endswith(" characters, cut)")


@pytest.mark.slow
def test_a_final_strategy_that_rolls_eleven_dice_is_told_so(tmp_path):
    result = graded(tmp_path, "sp19", "    return int(table[score][opponent_score], 16)",
                    "    return 11 if score == 50 else 4")
    final = result.questions[-1]
    assert final.score == 0 and "table[50][0] = 11" in final.message


# ---------------------------------------------------------------------------
# Submissions that try to change the grader's files
# ---------------------------------------------------------------------------

@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    """The grader's cache of hidden cases in a folder of this test's own (as HOG_CACHE would put it)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("HOG_CACHE", str(folder))
    monkeypatch.setattr(project, "CACHE", folder)
    case_source.hidden_cases.cache_clear()
    yield folder / "hidden"
    case_source.hidden_cases.cache_clear()


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


TAMPER_AT_IMPORT = '''
import glob as _glob, os as _os
_attempts = []
for _path in _glob.glob({cache!r} + "/*.json"):
    try:
        with open(_path, "w") as _out:
            _out.write("{{}}")
        _attempts.append("rewrote " + _path)
    except OSError as _error:
        _attempts.append(type(_error).__name__)
    for _attack in (lambda: _os.unlink(_path), lambda: _os.rename(_path, _path + ".old")):
        try:
            _attack()
        except OSError as _error:
            _attempts.append(type(_error).__name__)
try:
    with open({out!r} + "/other-student.json", "w") as _out:
        _out.write('{{"score": 26, "max_score": 26}}')
except OSError as _error:
    _attempts.append(type(_error).__name__)
'''


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["bwrap", "process"])
def test_a_submission_cannot_poison_the_cache_or_forge_a_result_file(tmp_path, monkeypatch, private_cache, mode):
    if mode == "process":
        monkeypatch.setenv("HOG_SANDBOX", "process")
    else:
        monkeypatch.delenv("HOG_SANDBOX", raising=False)
        if namespaces.unavailable():
            pytest.skip("bubblewrap is not available here")
    variant = load_variant("sp19")
    case_source.grading_cases(variant)  # the hidden cases are now cached in private_cache
    out = tmp_path / "batch-out"
    out.mkdir()
    (out / "other-student.json").write_text('{"score": 3}')
    cached, results = _files(private_cache), _files(out)
    assert any(name.endswith(".json") for name in cached)
    source = (project.SOLUTION / "sp19" / "hog.py").read_text() + \
        TAMPER_AT_IMPORT.format(cache=str(private_cache), out=str(out))
    result = graded(tmp_path, "sp19", source=source)
    assert result.import_error is None and result.grader_error is None
    assert len(result.questions) == 12 and result.score == result.max_score
    assert _files(private_cache) == cached and _files(out) == results
    case_source.hidden_cases.cache_clear()
    assert graded(tmp_path, "sp19").score == result.max_score


@pytest.mark.slow
def test_a_tampered_cache_file_is_detected_and_generated_again(tmp_path, private_cache, caplog):
    variant = load_variant("sp19")
    honest = case_source._cached_generation(variant)
    (path,) = private_cache.glob("sp19-*.json")
    signature, _, payload = path.read_bytes().partition(b"\n")
    forged = json.loads(payload)
    session = forged["02"][0]
    assert session[0][1] != "999\n"
    session[0][1] = "999\n"  # the expected answer of a hidden case of question 2
    for line in (signature, b"hmac-sha256:" + b"0" * 64, b""):
        path.write_bytes(line + b"\n" + json.dumps(forged).encode())
        caplog.clear()
        case_source.hidden_cases.cache_clear()
        result = grade.grade(project.SOLUTION / "sp19", variant, limits=FAST)
        assert scores(result)["02"] == 1 and result.score == result.max_score
        assert "failed their integrity check" in caplog.text
        assert case_source._cached_generation(variant) == honest  # written again, signed
    assert (private_cache / "key").stat().st_mode & 0o777 == 0o600


def test_a_linked_hog_py_scores_zero_with_the_reason_not_a_grader_fault(tmp_path):
    real = tmp_path / "real.py"
    real.write_text((project.SOLUTION / "sp19" / "hog.py").read_text())
    folder = tmp_path / "sym"
    folder.mkdir()
    (folder / "hog.py").symlink_to(real)
    result = grade.grade(folder, load_variant("sp19"), limits=FAST)
    assert result.grader_error is None and result.score == 0 and len(result.questions) == 12
    assert result.import_error.startswith("hog.py is a symbolic link")


@pytest.mark.parametrize("want, got", [
    ("4\n", "4\n"), ("4\n", "5\n"), ("1\n", "True\n"), ("0\n", "False\n"), ("'é'\n", "'é'\n"),
    ("'\\xe9'\n", "'é'\n"), ("'\\u1234'\n", "'\u1234'\n"), ("a\n<BLANKLINE>\nb\n", "a\n\nb\n"),
    ("a\n<BLANKLINE>  \nb\n", "a\n   \nb\n"), ("a\n\nb\n", "a\n  \nb\n"), ("<BLANKLINE>\n", "\n"),
    ("a <BLANKLINE>\n", "a \n"), ("4", "4\n"), ("", ""), ("", "\n"), ("x\n", "x \n"),
])
def test_output_is_compared_as_doctest_compares_it(want, got):
    import doctest
    expected = doctest.OutputChecker().check_output(want, got, doctest.DONT_ACCEPT_TRUE_FOR_1)
    assert grade.shows(want, got) == expected


PIECES = ["a", "1", " ", "\t", "\n", "é", "\\xe9", "\u1234", "\\u1234", "<BLANKLINE>", "True", "0"]


@given(st.lists(st.sampled_from(PIECES), max_size=10).map("".join),
       st.lists(st.sampled_from(PIECES[:-3] + ["True", "False", "<BLANKLINE>"]), max_size=10).map("".join))
def test_any_output_is_compared_as_doctest_compares_it(want, got):
    import doctest
    expected = doctest.OutputChecker().check_output(want, got, doctest.DONT_ACCEPT_TRUE_FOR_1)
    assert grade.shows(want, got) == expected


def test_each_spec_setup_is_the_lines_doctest_reads_from_it():
    import doctest
    for variant_id in ("sp19", "nju24", "nju21", "fa19", "fa18"):
        variant = load_variant(variant_id)
        assert grade.setup_lines(variant) == [example.source for example in
                                              doctest.DocTestParser().get_examples(variant.setup)]
