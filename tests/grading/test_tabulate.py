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


def run_session(variant, final_strategy):
    """The tabulation session's value, run here as the sandbox runs it (the steps in one namespace)."""
    namespace = {"final_strategy": final_strategy}
    definitions, call = tabulate.table_session(variant)
    exec(definitions, namespace)
    return eval(call, namespace)


def test_two_equal_tables_come_back_as_one_and_are_read_as_before():
    variant = load_variant("sp19")
    value = run_session(variant, lambda score, opponent: (score + opponent) % 11)
    assert type(value) is tuple and len(value) == 1
    run = CaseRun([StepResult("", None, None), StepResult("", None, None, value=value)], 0.1)
    assert tabulate.tables_from(variant, run) == (value[0], "")


def test_a_strategy_that_changes_its_mind_sends_both_tables_and_is_told_where():
    variant = load_variant("sp19")
    calls = []

    def counting(score, opponent):
        calls.append(1)
        return 4 if len(calls) <= 10_000 or (score, opponent) != (2, 3) else 5
    value = run_session(variant, counting)
    assert len(value) == 2
    run = CaseRun([StepResult("", None, None), StepResult("", None, None, value=value)], 0.1)
    assert tabulate.tables_from(variant, run) == (None, "final_strategy must roll the same number of dice whenever "
                                                        "it is asked about the same scores: at (2, 3) it chose 4, then 5")


def test_tables_of_other_values_than_whole_numbers_come_back_whole_and_are_refused_as_before():
    variant = load_variant("sp19")
    value = run_session(variant, lambda score, opponent: score > opponent)   # bools: equal, yet both are sent
    assert len(value) == 2
    run = CaseRun([StepResult("", None, None), StepResult("", None, None, value=value)], 0.1)
    table, why = tabulate.tables_from(variant, run)
    assert table is None and why.startswith("final_strategy: ")


@pytest.mark.parametrize("value", [(), (ALWAYS_FIVE,) * 3, ALWAYS_FIVE])
def test_a_tabulation_of_another_shape_is_a_tampered_channel(value):
    run = CaseRun([StepResult("", None, None), StepResult("", None, None, value=value)], 0.1)
    assert tabulate.tables_from(load_variant("sp19"), run) == (
        None, "final_strategy could not be tabulated: the result channel was tampered with")


def test_only_the_newest_win_rates_are_kept(private_cache, monkeypatch):
    monkeypatch.setattr(tabulate, "KEPT_WIN_RATES", 2)
    variant = load_variant("sp19")
    for dice in (4, 5, 6):
        tabulate.win_rate(variant, [[dice] * 100 for _ in range(100)])
        kept = [path for path in private_cache.iterdir() if path.name != signed_cache.KEY_FILE]
        assert len(kept) == min(dice - 3, 2)
    refuse_to_solve(monkeypatch)
    for dice in (6, 5):                     # the newest two are read back, not solved again
        tabulate.win_rate(variant, [[dice] * 100 for _ in range(100)])
    with pytest.raises(AssertionError, match="asked again"):
        tabulate.win_rate(variant, [[4] * 100 for _ in range(100)])   # the oldest was removed
