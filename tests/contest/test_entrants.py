"""What a contest entrant's sandbox may not read: the other entrants, the contest's OUTDIR (their tables)
and a batch's results (the instructor files name hidden cases)."""

from __future__ import annotations

import stat

from grader.contest import entrants
from grader.sandbox import SandboxReport
from grader.spec import load_variant


def test_tabulating_an_entrant_protects_the_others_the_outdir_and_the_batch_results(tmp_path, monkeypatch):
    seen = tmp_path / "protected.txt"    # tabulation runs in a forked worker: it tells through a file

    def run_cases(submission, sessions, **options):
        seen.write_text(repr(tuple(str(path) for path in options["protect"])))
        return SandboxReport(cases=[], import_error="no hog.py", isolation="test", stdout_during_import="",
                             level="files")
    monkeypatch.setattr(entrants, "run_cases", run_cases)
    folder, out, results = tmp_path / "class", tmp_path / "contest", tmp_path / "graded"
    (folder / "ada").mkdir(parents=True)
    (folder / "ada" / "hog.py").write_text("def final_strategy(score, opponent_score):\n    return 4\n")
    results.mkdir()
    out.mkdir()
    found, _ = entrants.gather([folder / "ada"], load_variant("sp19"), out, jobs=1, results=results)
    assert seen.read_text() == repr((str(folder), str(out), str(results)))
    assert found[0].reason.startswith("hog.py could not be imported")


def test_a_new_contest_outdir_is_closed_to_other_users(tmp_path):
    from grader.contest.tournament import run_contest
    (tmp_path / "class").mkdir()
    run_contest(tmp_path / "class", load_variant("sp19"), tmp_path / "contest", jobs=1)
    assert not (tmp_path / "contest").stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO)
