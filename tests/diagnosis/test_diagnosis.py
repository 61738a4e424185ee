"""A failing case's diagnosis names its first wrong step and the rules deciding it, with the call's numbers,
as a student reads it; a hidden case's names the rules only. The submissions here are mutants of the
reference run in the test's process (the grader runs a submission's traced call in the sandbox)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from grader import diagnosis
from grader.cases import public_cases
from grader.diagnosis import trace
from grader.shipped.student.game_trace import turns
from grader.spec import Case, Step, load_variant
from tests.diagnosis.submissions import mutant, value_of

NEVER_SWAPS = {"sp19": "if is_swap(score, opponent_score):", "fa18": "if is_swap(score, opponent_score):",
               "fa19": "if is_swap(score, opponent_score):", "nju21": "if swine_swap(score, opponent_score):",
               "nju24": "if swine_swap(score):"}


ROLES = {"2": "zero_dice", "3": "take_turn", "5": "play", "6": "commentary", "7": "announce_highest",
         "10": "zero_strategy"}


def diagnosed(variant_id: str, number: str, names: dict, source: str, before: tuple[str, ...] = ()):
    variant = load_variant(variant_id)
    question = next(q for q in variant.questions if q.role == ROLES[number])
    steps = tuple(Step(s, "") for s in before + (source,))
    case = Case("x", question.number, "added", "", steps, False, "", "", 0)
    traced = diagnosis.traced_session(variant, question, case, len(steps) - 1)
    return diagnosis.diagnose(variant, question, traced, value_of(names, traced.session)), traced


def test_a_wrong_free_bacon_is_told_the_opponents_digits_and_the_points_they_give():
    names = mutant("sp19", "return 1 + min(tens, ones)", "return 1 + max(tens, ones)")
    found, _ = diagnosed("sp19", "2", names, "free_bacon(39)")
    assert found.text == ("free_bacon(39): Free Bacon: the opponent has 39; the smaller of 3 and 9 is 3, so rolling "
                          "zero dice scores 4; the rules give 4, the submission returns 10")
    assert found.rules == ("Free Bacon",)


def test_in_a_list_of_calls_the_first_wrong_one_is_named():
    names = mutant("nju24", "return 2 * abs(tens - ones) + 1", "return 2 * abs(tens - ones) + (tens > 5)")
    found, _ = diagnosed("nju24", "2", names, "[picky_piggy(score) for score in range(100)]")
    assert found.text.startswith("picky_piggy(0): Picky Piggy: the opponent has 0;")
    assert "the rules give 1, the submission returns 0" in found.text


def test_take_turn_names_pig_out_with_the_dice_it_rolled():
    names = mutant("fa18", "points = 1 if pig_out else total", "points = total")
    found, _ = diagnosed("fa18", "3", names, "take_turn(3, 0, make_test_dice(2, 1, 4))")
    assert found.text.startswith("take_turn(3, 0, dice) with the dice showing 2, 1, 4: Pig Out: the dice show "
                                 "2, 1, 4, a 1 among them, so the turn scores 1")
    assert found.rules == ("Pig Out",)


def test_a_strategy_is_told_the_points_against_its_cutoff():
    names = mutant("nju21", "if picky_piggy(opponent_score) >= cutoff:", "if picky_piggy(opponent_score) > cutoff:")
    found, _ = diagnosed("nju21", "10", names, "picky_piggy_strategy(2, 5, 1, 6)")
    assert "1 is at least the cutoff 1, so the strategy rolls 0" in found.text
    assert found.rules == ("Picky Piggy",)


@pytest.mark.parametrize("variant_id", sorted(NEVER_SWAPS))
def test_a_play_that_never_swaps_is_told_the_first_turn_where_the_swap_applies(variant_id):
    names = mutant(variant_id, NEVER_SWAPS[variant_id], "if False:")
    variant = load_variant(variant_id)
    swap = variant.rule("swap").name
    found, traced = diagnosed(variant_id, "5", names,
                              "play(always_roll(1), always_roll(2), dice=make_test_dice(2, 3, 4, 5, 6), goal=100)")
    assert found is not None and found.rules[-1] == swap
    rules_turns, _ = turns(trace.on_reference(variant, traced.session))
    turn = rules_turns[found.turn["turn"] - 1]
    assert (found.turn["before"], found.turn["want"]) == (turn["before"], turn["after"])
    assert found.turn["got"] != found.turn["want"]
    assert found.text.startswith(f"turn {found.turn['turn']}: player {turn['player']} moves")


@settings(max_examples=25, deadline=None)
@given(variant_id=st.sampled_from(sorted(NEVER_SWAPS)), a=st.integers(0, 10), b=st.integers(0, 10),
       outcomes=st.lists(st.integers(1, 6), min_size=1, max_size=6), start=st.integers(0, 60))
def test_every_diagnosis_of_a_game_without_swaps_names_the_state_the_rules_reach(variant_id, a, b, outcomes, start):
    names = mutant(variant_id, NEVER_SWAPS[variant_id], "if False:")
    variant = load_variant(variant_id)
    dice = ", ".join(map(str, outcomes))
    found, traced = diagnosed(variant_id, "5", names, f"play(lambda s, o: 1 + (s * {a} + o) % 10, "
                                                      f"lambda s, o: (s + o * {b}) % 11, {start}, 0, "
                                                      f"dice=make_test_dice({dice}), goal=60)")
    if found is None:   # the two games agree: no swap ever applied
        return
    rules_turns, _ = turns(trace.on_reference(variant, traced.session))
    turn = rules_turns[found.turn["turn"] - 1]
    assert found.turn["before"] == turn["before"] and found.turn["want"] == turn["after"]
    assert found.rules and found.rules[-1] == variant.rule("swap").name


def test_a_hidden_cases_diagnosis_names_the_rules_and_none_of_its_numbers():
    names = mutant("sp19", NEVER_SWAPS["sp19"], "if False:")
    found, _ = diagnosed("sp19", "5", names, "play(always_roll(2), always_roll(2), score0=90, score1=10, "
                                             "dice=make_test_dice(5))")
    hidden = found.redacted("play")
    assert hidden.text == "a hidden case of play: the first wrong turn is one where Swine Swap applies"
    assert hidden.as_json() == {"text": hidden.text, "rules": ["Swine Swap"]}
    assert not re.search(r"\d", hidden.text)


def test_a_take_turn_that_raises_mid_game_is_named_at_its_turn_and_no_rule_is_blamed():
    names = mutant("sp19", "    if num_rolls == 0:\n        return free_bacon(opponent_score)",
                   "    if num_rolls == 0:\n        return 1 // 0")
    found, _ = diagnosed("sp19", "5", names, "play(always_roll(1), lambda s, o: 0, dice=make_test_dice(3), goal=20)")
    assert found.text == "turn 2: take_turn raised ZeroDivisionError: integer division or modulo by zero"
    assert found.rules == () and not found.decided


def test_a_game_that_never_ends_is_stopped_and_named():
    names = mutant("sp19", "while score0 < goal and score1 < goal:", "while True:")
    found, _ = diagnosed("sp19", "5", names, "play(always_roll(1), always_roll(1), dice=make_test_dice(3), goal=10)")
    assert found.turn["turn"] == 8
    assert found.text.startswith("turn 8: the rules' game ends after turn 7 with the scores 12 and 9 (a score at the "
                                 "goal 10), but the submission played on")


def test_commentary_is_told_the_first_call_whose_line_differs():
    names = mutant("sp19", "print(\"Player 0 now has\", score0, \"and Player 1 now has\", score1)",
                   "print(\"Player 0 now has\", score1, \"and Player 1 now has\", score0)")
    found, _ = diagnosed("sp19", "6", names, "play(always_roll(3), always_roll(5), dice=make_test_dice(4), "
                                             "goal=25, say=say_scores)")
    assert found.turn["turn"] == 1
    assert "prints 'Player 0 now has 12 and Player 1 now has 0', but the submission's printed " \
           "'Player 0 now has 0 and Player 1 now has 12'" in found.text


def test_announce_highest_is_told_the_gain_and_the_biggest_gain_so_far_where_its_line_differs():
    names = mutant("nju21", "if gain > running_high:", "if gain >= running_high:")
    found, _ = diagnosed("nju21", "7", names, "f3 = f2(20, 20)", ("f0 = announce_highest(1)", "f1 = f0(12, 0)",
                                                                  "f2 = f1(12, 9)"))
    assert found.text == ("the commentary for Player 1 is called with 12 and 0: Player 1's score goes from 0 to 0, "
                          "a gain of 0, not more than the biggest gain so far (0), so it prints nothing; the "
                          "submission's printed \"0 point(s)! That's a record gain for Player 1!\"")
    assert found.rules == ()


@pytest.mark.parametrize("variant_id", sorted(NEVER_SWAPS))
def test_every_public_game_case_of_the_reference_is_traced(variant_id):
    variant = load_variant(variant_id)
    for case in public_cases(variant):
        question = variant.question(case.question)
        if question.role in diagnosis.GAME_ROLES:
            for index, step in enumerate(case.steps):
                if "play(" in step.source:
                    assert diagnosis.traced_session(variant, question, case, index) is not None, case.id
