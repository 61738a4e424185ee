"""``hog contest`` on a folder: strategies grading would refuse are disqualified with grading's
reason, the rest play; a second run tabulates nothing again."""

from __future__ import annotations

import csv
import subprocess
import sys

import pytest

from grader import cli, project

STRATEGIES = {
    "raises": "def final_strategy(score, opponent_score):\n"
              "    if score > 50:\n        raise ValueError('no plan')\n    return 4\n",
    "loops": "def final_strategy(score, opponent_score):\n    while score == 7:\n        pass\n    return 4\n",
    "out_of_range": "def final_strategy(score, opponent_score):\n    return 11 if opponent_score == 99 else 5\n",
    # (a strategy that samples dice with random plays: the tabulation seeds random alike both times)
    "counter": "CALLS = []\n\ndef final_strategy(score, opponent_score):\n"
               "    CALLS.append(1)\n    return len(CALLS) % 11\n",
    "four": "def final_strategy(score, opponent_score):\n    return 4\n",
    "six": "def final_strategy(score, opponent_score):\n    return 6\n",
}
REASONS = {
    "raises": "final_strategy(51, 0) raised ValueError: no plan",
    "loops": "Timeout",
    "out_of_range": "table[0][99] = 11: a dice count must be an int from 0 to 10",
    "counter": "must roll the same number of dice whenever it is asked about the same scores",
}


def hog(*args):
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], capture_output=True, text=True,
                          cwd=project.ROOT, timeout=600)


@pytest.mark.slow
def test_refused_strategies_are_listed_with_their_reasons_and_the_rest_play(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name, source in STRATEGIES.items():
        (folder / f"{name}.py").write_text(source)
    out = tmp_path / "out"
    done = hog("contest", str(folder), "--variant", "sp19", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr and "\x1b" not in done.stderr   # piped: no bar
    rows = {row["submission"]: row for row in csv.DictReader((out / "leaderboard.csv").open())}
    assert [(rows[n]["rank"], rows[n]["wins"]) for n in ("six", "four")] == [("1", "1"), ("2", "0")]
    for name, reason in REASONS.items():
        assert rows[name]["rank"] == "" and reason in rows[name]["disqualified"], rows[name]
    page = (out / "contest.html").read_text()
    assert all(reason.split(":")[0] in page for reason in REASONS.values())
    again = hog("contest", str(folder), "--variant", "sp19", "--out", str(out))
    assert again.returncode == 0 and "0 tables tabulated in the sandbox" in again.stdout


def test_a_missing_folder_is_a_usage_error(tmp_path, capsys):
    assert cli.main(["contest", str(tmp_path / "nowhere"), "--variant", "sp19", "--out", str(tmp_path / "o")]) == 2
    assert "is not a folder of submissions" in capsys.readouterr().err


@pytest.mark.slow
def test_a_contest_after_grade_batch_reuses_the_tables_grading_recorded(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("four", "six"):
        (folder / f"{name}.py").write_text(STRATEGIES[name])
    results = tmp_path / "results"
    graded = hog("grade-batch", str(folder), "--variant", "sp19", "--out", str(results), "--report")
    assert graded.returncode == 0, graded.stderr
    assert (results / "report.html").is_file() and (results / "report.json").is_file()
    assert "table" not in (results / "six.json").read_text()          # the student-visible result
    played = hog("contest", str(folder), "--variant", "sp19", "--out", str(tmp_path / "out"),
                 "--results", str(results))
    assert played.returncode == 0, played.stderr
    assert "0 tables tabulated in the sandbox" in played.stdout and "1. six: 1 won" in played.stdout
