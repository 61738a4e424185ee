"""Where a final strategy gains the most: each change named is a state its games reach, and its gain is exact."""

from grader.reference import engine
from grader.strategy import advice, match
from grader.strategy.tables import always_roll_table


def test_each_change_gains_exactly_what_the_changed_table_wins_more_and_the_best_comes_first():
    rules = engine.rules_for("nju24")
    table = always_roll_table(5, rules.goal)
    changes = advice.best_changes(rules, table)
    assert len(changes) == 3 and len({(c.score, c.opponent_score) for c in changes}) == 3
    assert [c.gain for c in changes] == sorted((c.gain for c in changes), reverse=True)
    before = match.win_rate(rules, table).average
    for change in changes:
        changed = [list(row) for row in table]
        changed[change.score][change.opponent_score] = change.better
        assert change.rolls == 5 and change.better != 5
        assert abs(match.win_rate(rules, changed).average - before - change.gain) < 1e-12
