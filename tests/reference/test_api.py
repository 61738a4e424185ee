"""Each reference solution offers the student API of its course, as VARIANTS.md lists it.

The signatures below are transcribed from VARIANTS.md ("names and signatures as in
the course of origin"); a renamed parameter breaks students' code and the cases.
"""

import inspect

import pytest

from grader import reference

CS61A = [
    "roll_dice(num_rolls, dice=six_sided)", "free_bacon(score)",
    "take_turn(num_rolls, opponent_score, dice=six_sided)", "is_swap(player_score, opponent_score)",
    "other(player)", "silence(score0, score1)",
    "play(strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE, say=silence)",
    "say_scores(score0, score1)", "announce_lead_changes(previous_leader=None)", "both(f, g)",
    "announce_highest(who, previous_high=0, previous_score=0)",
    "always_roll(n)", "make_averaged(fn, num_samples=1000)",
    "max_scoring_num_rolls(dice=six_sided, num_samples=1000)", "winner(strategy0, strategy1)",
    "average_win_rate(strategy, baseline=always_roll(4))",
    "bacon_strategy(score, opponent_score, margin=8, num_rolls=4)",
    "swap_strategy(score, opponent_score, margin=8, num_rolls=4)", "final_strategy(score, opponent_score)",
]
FA19_PLAY = ("play(strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE, say=silence, "
             "feral_hogs=True)")
API = {
    "sp19": CS61A,
    "fa18": CS61A,
    "fa19": [FA19_PLAY if line.startswith("play(") else line for line in CS61A],
    "nju21": [
        "roll_dice(current_score, num_rolls, dice=six_sided)", "picky_piggy(score)",
        "take_turn(num_rolls, current_score, opponent_score, dice=six_sided, goal=GOAL_SCORE)",
        "swine_swap(player_score, opponent_score)", "next_player(who)", "silence(score0, score1)",
        "play(strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE, say=silence)",
        "say_scores(score0, score1)", "announce_lead_changes(last_leader=None)", "both(f, g)",
        "announce_highest(who, last_score=0, running_high=0)",
        "always_roll(n)", "make_averaged(original_function, trials_count=1000)",
        "max_scoring_num_rolls(current_score=0, dice=six_sided, trials_count=1000)",
        "winner(strategy0, strategy1)", "average_win_rate(strategy, baseline=always_roll(6))",
        "picky_piggy_strategy(score, opponent_score, cutoff=8, num_rolls=6)",
        "swine_swap_strategy(score, opponent_score, cutoff=8, num_rolls=6)", "final_strategy(score, opponent_score)",
    ],
    "nju24": [
        "roll_dice(num_rolls, dice=six_sided)", "picky_piggy(opponent_score)",
        "take_turn(num_rolls, opponent_score, dice=six_sided)", "swine_swap(score)",
        "play(strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE)",
        "always_roll_5(score, opponent_score)", "always_roll(n)", "catch_up(score, opponent_score)",
        "is_always_roll(strategy, goal=GOAL_SCORE)",
        "make_averaged(original_function, trials_count=1000)",
        "max_scoring_num_rolls(dice=six_sided, total_samples=1000)", "winner(strategy0, strategy1)",
        "average_win_rate(strategy, baseline=always_roll(6))",
        "picky_strategy(score, opponent_score, threshold=8, num_rolls=6)",
        "swine_strategy(score, opponent_score, threshold=8, num_rolls=6)", "final_strategy(score, opponent_score)",
    ],
}


def written(module, name: str) -> str:
    """A function's signature as VARIANTS.md writes it (defaults by name)."""
    function = getattr(module, name)
    parts = []
    for parameter in inspect.signature(function).parameters.values():
        default = parameter.default
        if default is inspect.Parameter.empty:
            parts.append(parameter.name)
            continue
        if default is getattr(module, "six_sided", None):
            shown = "six_sided"
        elif default is getattr(module, "silence", None):
            shown = "silence"
        elif parameter.name == "goal" and default == module.GOAL_SCORE:
            shown = "GOAL_SCORE"
        elif callable(default) and default.__qualname__.startswith("always_roll."):
            shown = f"always_roll({default(0, 0)})"
        else:
            shown = repr(default)
        parts.append(f"{parameter.name}={shown}")
    return f"{name}({', '.join(parts)})"


@pytest.mark.parametrize("variant_id", sorted(API))
def test_the_solution_has_the_courses_signatures(variant_id):
    module = reference.load(variant_id)
    for line in API[variant_id]:
        name = line.split("(")[0]
        assert hasattr(module, name), f"{variant_id}: no {name}"
        assert written(module, name) == line
    assert module.GOAL_SCORE == 100
