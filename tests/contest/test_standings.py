"""The leaderboard is exactly what the exact pairwise win rates give: most matchups won first,
ties by average win rate; names cannot run as spreadsheet formulas."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from grader.classroom.batch import GRADED_FROM
from grader.classroom.submissions import digest as submission_digest
from grader.contest.entrants import Entrant, gather
from grader.contest.standings import leaderboard_csv, standings
from grader.contest.tournament import Contest, page, play
from grader.report import instructor
from grader.spec import load_variant
from grader.strategy.match import win_rate
from grader.reference.engine import rules_for

GOAL = 100


def table(choose) -> list[list[int]]:
    return [[choose(score, opponent) for opponent in range(GOAL)] for score in range(GOAL)]


THREE = {
    "four": table(lambda score, opponent: 4),
    "six": table(lambda score, opponent: 6),
    "bacon": table(lambda score, opponent: 0 if 1 + min(opponent // 10 % 10, opponent % 10) >= 8 else 5),
}


@pytest.mark.slow
def test_three_strategies_rank_as_their_exact_pairwise_rates_imply():
    variant = load_variant("sp19")
    rules = rules_for("sp19", GOAL)
    names = list(THREE)
    expected = {(a, b): win_rate(rules, THREE[a], THREE[b]).average for a in names for b in names if a != b}
    wins = {a: sum(expected[a, b] > 0.5 for b in names if b != a) for a in names}
    average = {a: sum(expected[a, b] for b in names if b != a) / 2 for a in names}
    order = sorted(names, key=lambda a: (-wins[a], -average[a]))

    table_, rates, _ = play(variant, [Entrant(name, name, THREE[name]) for name in names])

    assert [row.name for row in table_] == order
    assert [row.rank for row in table_] == [1, 2, 3]
    for row in table_:
        assert row.wins == wins[row.name]
        assert row.average == pytest.approx(average[row.name], abs=1e-12)
    for (a, b), rate in expected.items():
        assert rates[names.index(a), names.index(b)] == pytest.approx(rate, abs=1e-12)
    rows = list(csv.DictReader(io.StringIO(leaderboard_csv(table_, []))))
    assert [(r["rank"], r["submission"], r["wins"]) for r in rows] == \
        [(str(i + 1), name, str(wins[name])) for i, name in enumerate(order)]
    assert [float(r["average_win_rate"]) for r in rows] == pytest.approx([average[n] for n in order], abs=1e-11)


def test_equal_strategies_tie_their_matchup_and_share_a_rank():
    rates = np.array([[0.5, 0.5, 0.7], [0.5, 0.5, 0.7], [0.3, 0.3, 0.5]])
    table_ = standings(["b", "a", "c"], rates)
    assert [(row.rank, row.name, row.wins, row.ties) for row in table_] == [(1, "a", 1, 1), (1, "b", 1, 1),
                                                                          (3, "c", 0, 0)]


def test_names_and_reasons_cannot_run_as_spreadsheet_formulas():
    rates = np.array([[0.5, 0.6], [0.4, 0.5]])
    text = leaderboard_csv(standings(["=cmd()", "+1"], rates), [("@sum", "-bad: final_strategy raised")])
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells)
    assert "'=cmd()" in cells and "'-bad: final_strategy raised" in cells


def test_the_page_states_the_rule_and_escapes_names():
    variant = load_variant("sp19")
    rates = np.array([[0.5, 0.6], [0.4, 0.5]])
    entrants = [Entrant("<script>x</script>", "1", [[4]]), Entrant("b", "2", [[4]]),
                Entrant("<b>c</b>", "3", None, "final_strategy(1, 2) raised <oops>")]
    text = page(Contest(variant, entrants, standings(["<script>x</script>", "b"], rates), rates, 0, 0.0))
    assert "<script>x" not in text and "&lt;script&gt;x" in text and "&lt;oops&gt;" in text
    assert "Ranked by the number of matchups won" in text and "then by the average" in text
    assert text.count("<rect") == 2


def test_known_tables_are_not_tabulated_again(tmp_path):
    variant = load_variant("sp19")
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("ada", "bo"):
        (folder / f"{name}.py").write_text(f"def final_strategy(score, opponent_score):\n    return 4  # {name}\n")
    results = tmp_path / "batch"
    (results / instructor.FOLDER).mkdir(parents=True)
    (results / instructor.FOLDER / "ada.json").write_text(json.dumps({
        "final_strategy": {"table": instructor.encode_table(THREE["four"]), "win_rate": 0.5},
        GRADED_FROM: {"variant": "sp19", "submission_sha256": submission_digest(folder / "ada.py")}}))
    out = tmp_path / "out"
    (out / "tables").mkdir(parents=True)
    (out / "tables" / f"sp19-{submission_digest(folder / 'bo.py')}.json").write_text(
        json.dumps({"variant": "sp19", "table": None, "reason": "final_strategy(0, 0) raised ValueError"}))
    entrants, tabulated = gather(sorted(folder.iterdir()), variant, out, results=results)
    assert tabulated == 0
    assert [(e.name, e.table == THREE["four"], e.reason) for e in entrants] == [
        ("ada", True, None), ("bo", False, "final_strategy(0, 0) raised ValueError")]
    assert (out / "tables" / f"sp19-{submission_digest(folder / 'ada.py')}.json").is_file()
