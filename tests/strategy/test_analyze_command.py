"""`hog analyze ID [--json]`: the exact figures other tools read."""

import json

import pytest

from grader import cli


@pytest.mark.slow
def test_analyze_json_has_the_contracted_fields(capsys):
    assert cli.main(["analyze", "nju21", "--json", "--goal", "30"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"goal", "optimal_first_player_win_rate", "always_roll_win_rates", "optimal_vs_baseline",
            "solve_seconds"} <= set(data)
    assert data["goal"] == 30 and data["baseline_rolls"] == 6
    assert len(data["always_roll_win_rates"]) == 11 and all(len(row) == 11 for row in data["always_roll_win_rates"])
    assert 0 < data["optimal_first_player_win_rate"] < 1 and data["never_ending_probability"] >= 0
    assert isinstance(data["optimal_vs_baseline"], float) and data["optimal_vs_baseline"] > 0.5
    seats = data["optimal_vs_baseline_by_seat"]
    assert data["optimal_vs_baseline"] == seats["average"] == (seats["as_first"] + seats["as_second"]) / 2


@pytest.mark.slow
def test_analyze_prints_a_readable_report(capsys):
    assert cli.main(["analyze", "sp19", "--goal", "25"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Hog sp19, goal 25") and "optimal vs always_roll(4):" in text


def test_analyze_rejects_a_goal_it_cannot_use(capsys):
    assert cli.main(["analyze", "sp19", "--goal", "0"]) == 2
    assert "--goal must be from 1 to 200" in capsys.readouterr().err
