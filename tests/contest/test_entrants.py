"""A contest's OUTDIR (the entrants' tables) is the instructor's alone; an entrant's sandbox reads none of
it, nor the other entrants, by the allowlist of the files level (tests/sandbox)."""

from __future__ import annotations

import stat

from grader.spec import load_variant


def test_a_new_contest_outdir_is_closed_to_other_users(tmp_path):
    from grader.contest.tournament import run_contest
    (tmp_path / "class").mkdir()
    run_contest(tmp_path / "class", load_variant("sp19"), tmp_path / "contest", jobs=1)
    assert not (tmp_path / "contest").stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO)
