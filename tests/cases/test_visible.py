"""Probes of the public cases: each public session again with one number changed, in every grading run,
so that a program reciting what a public case shows fails wherever the right answer is another."""

import ast
import functools
from pathlib import Path

import pytest

from grader import cases
from grader.cases import session_text, visible
from grader.spec import load_variant


def _probes(variant_id: str, number: str) -> list[str]:
    """The sessions of one question's probes, as a grading run has them."""
    return [case.session for case in cases.question_hidden_cases(load_variant(variant_id), number)
            if case.origin != cases.GENERATED]


def _probing(variant_id: str, function: str) -> visible.Probing:
    api = cases.Api(load_variant(variant_id))
    return visible.Probing(functools.partial(cases.run_reference, api), [], function,
                           tuple(api.params(function)), 99)


def test_a_score_reached_with_the_public_gain_is_probed_with_another_gain():
    """fa18's public case shows f1(12, 11) announcing 11 points after f0(12, 0); a probe reaches the
    same call after another gain, where 11 points is not the announcement."""
    probes = _probes("fa18", "07")
    assert any(">>> f1 = f0(12, 1)\n1 point(s)!" in session and ">>> f2 = f1(12, 11)\n10 point(s)!" in session
               for session in probes)


def test_an_input_of_one_public_example_is_passed_to_the_same_parameter_in_another():
    """bacon_strategy(0, 77) shows 0: with 77 as the opponent's score in the example with margin 10,
    the answer is 5, so a program that rolls 0 whenever the opponent has 77 fails."""
    probes = _probes("sp19", "10")
    assert ">>> bacon_strategy(50, 77, margin=10, num_rolls=5)\n5\n" in probes
    assert ">>> bacon_strategy(0, 77, margin=10)\n4\n" in probes


def test_a_keyword_only_one_public_example_passes_is_passed_in_the_others():
    assert ">>> is_always_roll(catch_up, goal=99)\nFalse\n" in _probes("nju24", "07")


def test_the_probes_are_the_same_for_every_seed_and_come_after_the_drawn_cases():
    variant = load_variant("fa18")
    first, second = (cases.question_hidden_cases(variant, "07", seed) for seed in (1, 2))
    probes = [case for case in first if case.origin != cases.GENERATED]
    assert probes and [c.session for c in probes] == [c.session for c in second if c.origin != cases.GENERATED]
    assert first[-len(probes):] == tuple(probes) and first != second
    assert all(case.origin.startswith("public case fa18-q07-") for case in probes)


@pytest.mark.slow
def test_one_questions_hidden_cases_are_its_part_of_the_whole_variants():
    variant = load_variant("fa19")
    for number in ("05a", "07"):
        assert cases.question_hidden_cases(variant, number, 5) == \
            tuple(case for case in cases.hidden_cases(variant, 5) if case.question == number)


def test_no_probe_repeats_a_public_session():
    variant = load_variant("nju24")
    public = {case.session for case in variant.question("04").cases}
    probes = _probes("nju24", "04")
    assert probes and not public & set(probes)
    assert ">>> swine_swap(4)\nTrue\n" in public and ">>> swine_swap(3)\nFalse\n" in probes


def test_feral_hogs_is_off_in_the_probes_of_fa19s_other_questions():
    """Question 5b grades Feral Hogs alone: a changed dice count in a game of 5a must not bring it in."""
    probes = [case for case in cases.question_hidden_cases(load_variant("fa19"), "05a")
              if case.origin != cases.GENERATED]
    plays = [call for case in probes for step in case.steps for call in ast.walk(ast.parse(step.source))
             if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "play"]
    assert plays and all(any(keyword.arg == "feral_hogs" and keyword.value.value is False
                             for keyword in call.keywords) for call in plays)


def test_a_probe_keeps_the_numbers_of_a_call_another_question_grades_as_typed():
    """fa19's announce_highest case inside play: the game (no swap, no Feral Hogs, so questions 5b and
    6 play no part) stays as typed; only the number passed to announce_highest changes."""
    public, = [case.steps[0].source for case in load_variant("fa19").question("07").cases if "play(" in case.session]
    probes = [case.steps[0].source for case in cases.question_hidden_cases(load_variant("fa19"), "07")
              if "play(" in case.session and case.origin != cases.GENERATED]
    assert probes and all(source.replace("announce_highest(1)", "announce_highest(0)") == public
                          for source in probes)


def test_the_games_of_feral_hogs_and_commentary_start_as_their_public_ones_do():
    """Whether a game starts at its goal is question 5a's rule: 5b's and 6's probes keep the starting
    scores and the goal of their public games."""
    def starts(sources):
        return {(keyword.arg, keyword.value.value) for source in sources for call in ast.walk(ast.parse(source))
                if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "play"
                for keyword in call.keywords if keyword.arg in cases.GAME_START}
    variant = load_variant("fa19")
    for number in ("05b", "06"):
        public = starts(step.source for case in variant.question(number).cases for step in case.steps)
        probes = [case for case in cases.question_hidden_cases(variant, number) if case.origin != cases.GENERATED]
        assert probes and all(starts(step.source for step in case.steps) <= public for case in probes)


def test_a_session_of_separate_calls_is_probed_call_by_call():
    assert session_text.pieces(["free_bacon(19)\n", "free_bacon(0)\n"]) == [[0], [1]]
    assert session_text.pieces(["dice = make_test_dice(5, 6)\n", "take_turn(2, 0, make_test_dice(4, 6))\n",
                           "take_turn(0, 47, dice)\n", "dice()\n"]) == [[0, 2, 3], [1]]
    assert session_text.pieces(["calls = []\n", "def record(x):\n    calls.append(x)\n    return x\n",
                           "make_averaged(record, 5)(2)\n", "len(calls)\n"]) == [[0, 1, 2, 3]]


def test_a_number_is_changed_where_it_is_typed_and_everything_else_stays_as_typed():
    sources = ["play(always_roll(2), always_roll(0), score0=41, dice=make_test_dice(4), goal=84)\n"]
    numbers = session_text.numbers(sources, "play", ("strategy0", "strategy1", "score0", "score1", "dice", "goal"))
    assert [(number.value, number.slot) for number in numbers] == \
        [(2, ""), (0, ""), (41, "score0"), (4, ""), (84, "goal")]
    assert (numbers[3].low, numbers[3].high) == (1, 6)    # a face of a test die stays one
    held = session_text.numbers(sources, "play", ("strategy0", "strategy1", "score0", "score1", "dice", "goal"),
                                frozenset({"always_roll"}), frozenset({"goal"}))
    assert [number.held for number in held] == [True, True, False, False, True]
    assert session_text.with_value(sources, numbers[2], 7) == \
        ["play(always_roll(2), always_roll(0), score0=7, dice=make_test_dice(4), goal=84)\n"]
    assert session_text.with_keyword("play(a, b)\n", "play", "feral_hogs", "False") == "play(a, b, feral_hogs=False)\n"
    assert session_text.with_keyword("f(1, 2)\n", "f", "goal", "5", position=1) == "f(1, 2)\n"   # passed by position
    assert session_text.with_keyword("f(1,\n  2,)\n", "f", "goal", "5") == "f(1,\n  2, goal=5)\n"


def test_a_session_that_rolls_fair_dice_raises_or_never_ends_is_no_probe():
    probing = _probing("sp19", "take_turn")
    assert visible.settled(probing.reference, ["take_turn(0, 39)\n"]) == ["4\n"]
    assert visible.settled(probing.reference, ["take_turn(2, 39)\n"]) is None          # six_sided
    assert visible.settled(probing.reference, ["take_turn(11, 39, make_test_dice(3))\n"]) is None   # an assert
    endless = ["def turn(n):\n    return n\n", "while True:\n    turn(1)\n"]
    assert visible.settled(probing.reference, endless) is None


def test_every_module_the_hidden_cases_come_from_is_part_of_their_key():
    """A change to any of them changes the key, so a cached generation is never served for new code."""
    modules = {path.name for path in Path(cases.__file__).parent.glob("*.py")} - {"unlocking.py"}
    assert {path.name for path in cases.GENERATED_BY} == modules
