"""A user trusts the engine's dice: its turn distributions are the reference roll_dice's, exactly."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, strategies as st

from grader.strategy.distributions import roll_counts, roll_distribution
from grader.reference.engine import rules_for
from .conftest import load_reference
from .independent import turn_distribution


@pytest.mark.parametrize("num_rolls", range(1, 11))
@pytest.mark.parametrize("parity", [None, 0, 1])
def test_probabilities_sum_to_one(num_rolls, parity):
    lo, probs = roll_distribution(num_rolls, parity)
    assert sum(roll_counts(num_rolls, parity).values()) == 6 ** num_rolls
    assert sum(probs) == pytest.approx(1.0, abs=1e-15)
    assert all(p >= 0 for p in probs)


@pytest.mark.parametrize("num_rolls", range(1, 5))
def test_counts_match_every_outcome_of_reference_roll_dice(variant, num_rolls):
    """All 6**n dice sequences through the reference roll_dice with make_test_dice."""
    hog = load_reference(variant)
    parities = (0, 1) if variant == "nju21" else (None,)
    for parity in parities:
        seen: dict[int, int] = {}
        for outcomes in itertools.product(range(1, 7), repeat=num_rolls):
            dice = hog.make_test_dice(*outcomes)
            if parity is None:
                points = hog.roll_dice(num_rolls, dice)
            else:
                points = hog.roll_dice(20 + parity, num_rolls, dice)
            seen[points] = seen.get(points, 0) + 1
        assert seen == roll_counts(num_rolls, parity)


def test_nju21_seed_example_pig_out_with_parity_bonus():
    """Seed example: score 21 rolling 1, 3, 5 scores 1 + 3 = 4 (Pig Out, three odd dice)."""
    assert roll_counts(3, 1)[4] >= 1
    hog = load_reference("nju21")
    assert hog.roll_dice(21, 3, hog.make_test_dice(1, 3, 5)) == 4


def test_rules_tables_use_these_distributions(variant):
    rules = rules_for(variant)
    parity_dependent = rules.rolls[0] != rules.rolls[1]
    assert parity_dependent == (variant == "nju21")
    assert rules.rolls[1][6] == roll_distribution(6, 1 if variant == "nju21" else None)


@given(st.integers(1, 6), st.sampled_from([None, 0, 1]))
def test_counts_agree_with_die_by_die_convolution(num_rolls, parity):
    independent = turn_distribution(num_rolls, parity)
    counts = roll_counts(num_rolls, parity)
    assert {points: p * 6 ** num_rolls for points, p in independent.items()} == counts
