"""`hog play`: the opponent and goal it takes, the optimal opponent's table, the page's configuration from
the spec, and a student's hog.py played against a human or its own final strategy."""


import pytest

from grader.classroom import play
from grader.publishing import build
from grader.errors import UsageError
from grader.spec import load_variant
from tests.shipped.playing import call


# ---------------------------------------------------------------- hog play


def test_hog_play_refuses_a_bad_opponent_or_goal():
    variant = load_variant("sp19")
    with pytest.raises(UsageError, match="--vs 'always:11' is not an opponent"):
        play.app(variant, vs="always:11")
    with pytest.raises(UsageError, match="--vs 'robot'"):
        play.app(variant, vs="robot")
    with pytest.raises(UsageError, match="--goal must be from 1 to 200"):
        play.app(variant, goal=0)


def test_hog_play_optimal_follows_the_reference_table():
    variant = load_variant("nju24")
    strategy, label = play.opponent(variant, "optimal", variant.goal)
    rows = build.final_rows(variant)
    assert label == "the optimal strategy"
    assert [strategy(s, 37) for s in range(0, 100, 9)] == [int(rows[s][37], 16) for s in range(0, 100, 9)]


def test_hog_play_config_speaks_the_spec(serve):
    variant = load_variant("nju21")
    app = play.app(variant, vs="final")
    status, answer = call(serve(app), app.token, "GET", "api/config")
    config = answer["config"]
    assert config["opponent"] == "computer" and config["computer"] == "the reference final_strategy"
    assert [rule["name"] for rule in config["rules"]] == [rule.name for rule in variant.rules]
    assert config["goal"] == 100 and config["title"] == f"Hog: {variant.title}"


def test_hog_play_submission_takes_a_hog_py_and_a_human_or_its_final_strategy(tmp_path):
    variant = load_variant("sp19")
    submission = tmp_path / "hog.py"
    submission.write_text("")
    with pytest.raises(UsageError, match="--vs is human or final"):
        play.app(variant, vs="optimal", submission=submission)
    with pytest.raises(UsageError, match="give a student's hog.py"):
        play.app(variant, submission=tmp_path)


def test_hog_play_with_a_bad_opponent_is_a_usage_error(capsys):
    from grader import cli
    assert cli.main(["play", "sp19", "--vs", "robot", "--no-browser"]) == 2
    assert capsys.readouterr().err == ("Error: --vs 'robot' is not an opponent "
                                       "(use human, final, optimal or always:N (N from 0 to 10))\n")
