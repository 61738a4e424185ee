"""The final strategy's exact win rate: computed once per table and rules, kept signed, rated early."""

import logging

import pytest

from grader import project
from grader.grading import tabulate
from grader.project import signed_cache
from grader.reference import engine
from grader.sandbox import CaseRun, Limits, StepResult
from grader.spec import load_variant

ALWAYS_FIVE = [[5] * 100 for _ in range(100)]


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(project, "CACHE", tmp_path)
    return tmp_path / "win-rates"


def tabulated(table) -> CaseRun:
    """The run of the tabulation case as the sandbox reports it: the definition, then both tables."""
    return CaseRun([StepResult("", None, None), StepResult("", None, None, value=(table, table))], 0.1)


def refuse_to_solve(monkeypatch):
    def solve(*_args, **_kwargs):
        raise AssertionError("the engine was asked again")
    monkeypatch.setattr(engine, "win_rate", solve)


def test_a_table_rated_before_is_not_solved_again(private_cache, monkeypatch):
    variant = load_variant("sp19")
    first = tabulate.win_rate(variant, ALWAYS_FIVE)
    assert first == pytest.approx(engine.win_rate("sp19", ALWAYS_FIVE).average, abs=1e-15)
    stored = [path for path in private_cache.iterdir() if path.name != signed_cache.KEY_FILE]
    assert len(stored) == 1 and stored[0].name.startswith("sp19-")
    refuse_to_solve(monkeypatch)
    assert tabulate.win_rate(variant, ALWAYS_FIVE) == first


def test_a_changed_win_rate_file_is_noticed_and_solved_again(private_cache, caplog):
    variant = load_variant("sp19")
    first = tabulate.win_rate(variant, ALWAYS_FIVE)
    stored, = (path for path in private_cache.iterdir() if path.name != signed_cache.KEY_FILE)
    signature, _ = stored.read_text().split("\n", 1)
    stored.write_text(f"{signature}\n0.99")       # a forged rate under the old signature
    with caplog.at_level(logging.WARNING):
        assert tabulate.win_rate(variant, ALWAYS_FIVE) == first
    assert "failed their integrity check" in caplog.text


def test_other_rules_or_another_table_are_solved_anew(private_cache, monkeypatch, caplog):
    variant = load_variant("sp19")
    tabulate.win_rate(variant, ALWAYS_FIVE)
    other = [[6] * 100 for _ in range(100)]
    assert tabulate.win_rate(variant, other) != tabulate.win_rate(variant, ALWAYS_FIVE)
    monkeypatch.setattr(tabulate, "_rules_key", lambda variant: "rules-changed")
    refuse_to_solve(monkeypatch)
    with caplog.at_level(logging.WARNING), pytest.raises(AssertionError, match="asked again"):
        tabulate.win_rate(variant, ALWAYS_FIVE)
    assert caplog.text == ""     # a rate kept under other rules is not taken for a changed file


def test_a_rating_started_early_gives_what_rating_at_the_end_gives(private_cache):
    variant = load_variant("sp19")
    run = tabulated(ALWAYS_FIVE)
    early = tabulate.Rating(variant, Limits())
    early.start(run)
    assert early.result(run) == tabulate.rated(variant, run, Limits())
    # A run replaced after the rating started (a case run again) is rated as it is at the end.
    again = tabulated([[4] * 100 for _ in range(100)])
    assert early.result(again) == tabulate.rated(variant, again, Limits())
    assert early.result(again)[2] == pytest.approx(0.5)
