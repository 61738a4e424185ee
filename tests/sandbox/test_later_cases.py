"""Cases given late (``run_cases``'s ``later``): worked out while the sandbox runs the first ones.

``hog grade`` draws a fresh seed's hidden cases this way while the sandbox runs the tabulation and the
public cases. What a user sees must not change: every case reported, in order, under the same limits.
"""

from __future__ import annotations

import os

import pytest

from grader.sandbox import child, run_cases
from tests.sandbox.sandboxed import (A_THEN_B, FAST, LINKED, SHARES, Step, leftovers,
                                     assert_a_ran_out_of_its_share_and_b_ran, errors, submit)


def test_the_later_cases_are_run_after_the_first_and_reported_in_order(tmp_path, mode, monkeypatch):
    sent: list[bytes] = []
    real_send_lines = child.Child.send_lines

    def recording(self, lines):
        sent.extend(lines)
        return real_send_lines(self, lines)

    monkeypatch.setattr(child.Child, "send_lines", recording)

    def later():
        assert any(b'"case":0' in line for line in sent), "worked out only once the first case is on its way"
        return [["chatty(1)"], ["square(4)"]], None

    report = run_cases(submit(tmp_path, """
        def square(x):
            return x * x

        def chatty(x):
            print("rolling", x)
            return x + 1
    """), [["square(3)"]], limits=FAST, later=later)
    assert [case.steps for case in report.cases] == [[Step("9\n")], [Step("rolling 1\n2\n")], [Step("16\n")]]


@pytest.mark.slow   # its cases spend 1.1 s of CPU time, at every level
def test_the_groups_of_later_cases_share_the_submissions_time(tmp_path, mode):
    """As in the sandbox's own test of the shares: question b, known only later, still has its half of the
    1.6 s, so question a's second case runs out of a's 0.8 s."""
    report = run_cases(submit(tmp_path, hostile="loops.py"), A_THEN_B[:3], groups=["a", "a", "a"], limits=SHARES,
                       later=lambda: (A_THEN_B[3:], ["b", "b"]))
    assert_a_ran_out_of_its_share_and_b_ran(report)


def test_a_submission_that_does_not_import_fails_the_later_cases_too(tmp_path, mode):
    report = run_cases(submit(tmp_path, hostile="import_raises.py"), [["square(3)"]], limits=FAST,
                       later=lambda: ([["square(4)"], ["square(5)"]], None))
    assert len(report.cases) == 3
    assert len(set(errors(report))) == 1 and errors(report)[0].startswith("the submission did not import")


def test_a_submission_whose_files_cannot_be_used_reports_the_later_cases_too(tmp_path):
    (tmp_path / "real.py").write_text("def square(x):\n    return x * x\n")
    folder = tmp_path / "linked"
    folder.mkdir()
    (folder / "hog.py").symlink_to(tmp_path / "real.py")
    report = run_cases(folder, [["square(3)"]], limits=FAST, later=lambda: ([["square(4)"]], None))
    assert [case.steps for case in report.cases] == [
        [Step("", f"the submission did not import: {LINKED}", None)]] * 2


def test_later_cases_that_break_the_rules_are_refused_like_the_first(tmp_path):
    with pytest.raises(TypeError, match="a list of steps"):
        run_cases(submit(tmp_path, "x = 1\n"), [["x"]], limits=FAST, later=lambda: (["x"], None))
    with pytest.raises(ValueError, match="groups exactly when"):
        run_cases(submit(tmp_path, "x = 1\n"), [["x"]], groups=["a"], limits=FAST, later=lambda: ([["x"]], None))


def test_a_later_that_fails_ends_the_run_with_its_error_and_leaves_nothing_behind(tmp_path, mode, made):
    def broken():
        raise RuntimeError("the spec's generator failed")

    with pytest.raises(RuntimeError, match="generator failed"):
        run_cases(submit(tmp_path, "x = 1\n"), [["x"]], limits=FAST, later=broken)
    assert made and not any(os.path.exists(folder) for folder in made)
    assert leftovers(made) == []
