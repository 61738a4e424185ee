"""The class report's figures are those of the results it was made from, on crafted results:
scores per bin, full points per question, the commonest failures, win rates against the thresholds."""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import assume, given, settings, strategies as st

from grader import cli
from grader.classroom import batch
from grader.report import classroom, html, instructor
from grader.spec import load_variant

VARIANT = load_variant("sp19")
QUESTIONS = [q.label for q in VARIANT.questions]
FINAL = next(q.label for q in VARIANT.questions if q.role == "final_strategy")


def craft(out: Path, name: str, scores: dict[str, float], *, failed=(), rate=None, seconds=1.0,
          isolation="bubblewrap", import_error=None) -> None:
    """A result as grade-batch writes it (Gradescope's fields, graded_from) and its instructor facts."""
    maxima = {q.label: q.points for q in VARIANT.questions}
    graded_from = {"variant": "sp19", "submission_sha256": name, "cases": "k", "kit": "test"}
    tests = [{"name": f"Question {n}", "number": n, "score": scores.get(n, 0.0), "max_score": maxima[n],
              "status": "passed" if scores.get(n, 0.0) >= maxima[n] else "failed", "output": "",
              "visibility": "visible"} for n in QUESTIONS]
    result = {"score": sum(scores.values()), "max_score": VARIANT.points, "execution_time": seconds,
              "output": "", "tests": tests, batch.GRADED_FROM: graded_from}
    (out / f"{name}.json").write_text(json.dumps(result))
    questions = [{"number": n, "score": scores.get(n, 0.0), "max_score": maxima[n],
                  "failed": [{"case": case, "hidden": "hidden" in case, "step": 0, "got": got}
                             for number, case, got in failed if number == n]} for n in QUESTIONS]
    private = {"format": 1, "variant": "sp19", "isolation": isolation, "seconds": seconds,
               "import_error": import_error, "grader_error": None, "questions": questions,
               "final_strategy": None if rate is None else {"table": None, "win_rate": rate, "message": ""},
               batch.GRADED_FROM: graded_from}
    (out / instructor.FOLDER).mkdir(exist_ok=True)
    (out / instructor.FOLDER / f"{name}.json").write_text(json.dumps(private))


@pytest.fixture
def out(tmp_path) -> Path:
    full = {q.label: q.points for q in VARIANT.questions}
    craft(tmp_path, "ada", full, rate=0.66, seconds=2.0)
    craft(tmp_path, "bo", {**full, "5": 0.0}, failed=[("5", "sp19-q05-3", "(12, 8)")], rate=0.61, seconds=4.0)
    craft(tmp_path, "cy", {"1": full["1"]}, failed=[("5", "sp19-q05-3", "(12, 8)"), ("5", "sp19-q05-hidden-2", "0"),
                                                   ("2", "sp19-q02-1", "")], rate=0.5, seconds=0.5)
    craft(tmp_path, "<i>dee", {}, failed=[("5", "sp19-q05-3", "<script>alert(1)</script>")],
          isolation="process only", import_error="SyntaxError: invalid syntax (hog.py, line 3)")
    (tmp_path / "broken.json").write_text("{not json")
    (tmp_path / "gradebook.csv").write_text("submission,score\n")
    return tmp_path


def test_scores_fall_in_the_bins_they_belong_to(out):
    figures = classroom.figures(out)
    assert figures["submissions"] == 4 and figures["variant"] == "sp19"
    bins = figures["score"]["histogram"]
    assert len(bins) == classroom.score_bins(VARIANT.points)[1] and sum(b["count"] for b in bins) == 4
    total = VARIANT.points
    for score in (total, total - VARIANT.question("5").points, VARIANT.question("1").points, 0.0):
        matching = [b for b in bins if b["low"] <= score < b["high"] or (score == total and b is bins[-1])]
        assert matching and matching[0]["count"] >= 1
    # ada full and bo (21 points of 23) in the last bin, 21 to 24; cy (2 points) and dee (0) in the first, 0 to 3
    assert bins[-1]["count"] == 2 and bins[0]["count"] == 2


@pytest.mark.parametrize("top, width, count", [(23, 3, 8), (25, 3, 9), (20, 2, 10), (10, 1, 10), (3, 1, 3),
                                                (2403, 250, 10), (1.5, 1, 2)])
def test_score_bins_are_whole_points_wide(top, width, count):
    high, bins = classroom.score_bins(top)
    assert (high, bins) == (width * count, count) and high >= top


def axis_labels(html: str, chart: str) -> list[str]:
    """The labels under the x axis of one chart of the page."""
    svg = html[html.index(f'<svg id="{chart}"'):]
    svg = svg[:svg.index("</svg>")]
    return re.findall(r'<text x="[\d.]+" y="216" font-size="11" text-anchor="(?:middle|end)">([^<]*)</text>', svg)


def test_the_score_axis_is_ticked_at_round_values_over_bins_of_whole_points(out):
    """sp19's 23 points: the axis reads 0, 5, 10, ... 25 (not 0, 4.6, 9.2, ...), the bars are 3 whole
    points wide (not 2.3), a dashed line marks full marks, and every bar's tooltip names whole points."""
    page, _ = classroom.write(out)
    html = page.read_text(encoding="utf-8")
    assert axis_labels(html, "scores") == ["0", "5", "10", "15", "20", "25"]
    chart = html[html.index('<svg id="scores"'):]
    chart = chart[:chart.index("</svg>")]
    assert re.findall(r"<title>([^<]*) to ([^<]*):", chart)[:3] == [("0", "3"), ("3", "6"), ("6", "9")]
    assert ">full marks</text>" in chart


def test_the_time_axis_is_ticked_at_round_values_and_binned_in_round_widths(tmp_path):
    """The longest grading took 1.182 s: the axis reads 0, 0.5, 1, 1.5 s (not 0.1182, 0.2364, ...), and
    the bars are 0.2 s wide."""
    full = {q.label: q.points for q in VARIANT.questions}
    for name, seconds in (("ada", 0.0591), ("bo", 0.3546), ("cy", 1.182)):
        craft(tmp_path, name, full, seconds=seconds)
    page, _ = classroom.write(tmp_path)
    html = page.read_text(encoding="utf-8")
    assert axis_labels(html, "times") == ["0", "0.5", "1", "1.5 s"]
    bins = classroom.figures(tmp_path)["time"]["histogram"]
    assert [(b["low"], b["high"], b["count"]) for b in bins] == [
        (0.0, 0.2, 1), (0.2, 0.4, 1), (0.4, 0.6, 0), (0.6, 0.8, 0), (0.8, 1.0, 0), (1.0, 1.2, 1)]
    assert axis_labels(html, "win-rates") == ["0", "0.2", "0.4", "0.6", "0.8", "1"]


@pytest.mark.parametrize("top, width, count", [(1.182, 0.2, 6), (4.0, 0.5, 8), (10, 1, 10), (0.003, 0.0005, 6),
                                                (123.4, 20, 7), (0, 0.1, 10)])
def test_time_bins_are_round_widths(top, width, count):
    high, bins = classroom.time_bins(top)
    assert bins == count and high == pytest.approx(width * count) and high >= top


def decimal_places(label: str) -> int:
    return len(label.split(".")[1]) if "." in label else 0


@settings(max_examples=500, deadline=None)
@given(low=st.one_of(st.just(0.0), st.floats(0, 1e6)), span=st.floats(1e-6, 1e6))
def test_ticks_are_round_multiples_of_one_step_covering_the_range(low, span):
    high = low + span
    assume(high > low)
    ticks = html.ticks(low, high)
    values = [Decimal(t.label) for t in ticks]
    step = values[1] - values[0]
    digits = step.normalize().as_tuple().digits
    assert len(digits) == 1 and digits[0] in (1, 2, 5)                      # 1, 2 or 5 times a power of ten
    assert all(b - a == step for a, b in zip(values, values[1:]))            # one step throughout
    assert all(value % step == 0 for value in values)                        # on multiples of it
    noise = 1e-9 * float(step) + 4 * math.ulp(high)                        # what float arithmetic blurs
    assert ticks[0].value <= low + noise and ticks[-1].value >= high - noise  # covering the range
    assert (4 if low == 0 else 3) <= len(ticks) <= 6
    places = max(0, -step.normalize().as_tuple().exponent)
    for tick, value in zip(ticks, values):                                   # written as by hand
        assert tick.value == float(value) and decimal_places(tick.label) <= places
        assert len(tick.label) <= len(str(int(high))) + decimal_places(tick.label) + 2


def test_ticks_read_as_written_by_hand():
    labels = lambda low, high: [t.label for t in html.ticks(low, high)]  # noqa: E731
    assert labels(0, 0.15) == ["0", "0.05", "0.1", "0.15"]
    assert labels(0, 0.3546) == ["0", "0.1", "0.2", "0.3", "0.4"]
    assert labels(0, 2403) == ["0", "500", "1000", "1500", "2000", "2500"]
    with pytest.raises(ValueError, match="an axis needs a low end below its high end"):
        html.ticks(1.0, 1.0)


def test_full_points_are_counted_per_question(out):
    by_number = {q["number"]: q for q in classroom.figures(out)["questions"]}
    assert [by_number[n]["number"] for n in QUESTIONS] == QUESTIONS
    assert (by_number["1"]["full_points"], by_number["1"]["graded"]) == (3, 4)
    assert by_number["5"]["full_points"] == 1 and by_number["5"]["share_full"] == 0.25
    assert by_number["2"]["full_points"] == 2


def test_the_commonest_failures_are_grouped_by_case_and_by_value(out):
    cases = {q["number"]: q["cases"] for q in classroom.figures(out)["questions"]}
    first = cases["5"][0]
    assert first["case"] == "sp19-q05-3" and first["submissions"] == 3 and not first["hidden"]
    assert first["values"][0] == {"got": "(12, 8)", "count": 2}
    assert cases["5"][1]["case"] == "sp19-q05-hidden-2" and cases["5"][1]["hidden"]


def test_win_rates_are_counted_against_the_thresholds(out):
    final = classroom.figures(out)["final_strategy"]
    assert final["rates"]["count"] == 3 and final["not_tabulated"] == 1
    reached = {t["win_rate"]: t["reached"] for t in final["thresholds"]}
    assert reached == {t.win_rate: sum(r >= t.win_rate for r in (0.66, 0.61, 0.5))
                       for t in VARIANT.question(FINAL).thresholds}
    assert sum(b["count"] for b in final["histogram"]) == 3


def test_time_isolation_faults_and_skipped_files_are_reported(out):
    figures = classroom.figures(out)
    assert figures["time"]["max"] == 4.0 and figures["time"]["slowest"][0]["submission"] == "bo"
    assert figures["isolation"] == {"bubblewrap": 3, "process only": 1}
    assert [s["file"] for s in figures["skipped"]] == ["broken.json"]
    assert figures["import_errors"][0]["submission"] == "<i>dee"


def test_the_page_escapes_names_and_values_and_names_hidden_cases(out):
    page, data = classroom.write(out)
    text = page.read_text()
    assert "<script>alert" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "<i>dee" not in text and "&lt;i&gt;dee" in text and "sp19-q05-hidden-2" in text
    assert "sp19-q05-3</strong>: 3 submissions; 2 of them returned <code>(12, 8)</code>" in text
    assert json.loads(data.read_text())["submissions"] == 4
    assert "http" not in text.replace("http://www.w3.org/2000/svg", "")


def test_results_of_a_submission_named_report_are_never_overwritten(out, capsys):
    (out / "report.json").write_text((out / "ada.json").read_text())
    assert cli.main(["report", str(out)]) == 2
    assert "submission named 'report'" in capsys.readouterr().err


def test_a_grade_failed_result_is_listed_as_a_grader_fault(tmp_path):
    fault = {"score": 0, "max_score": 26, "execution_time": 0, "output": "grader failed: KeyError: x",
             "tests": [{"name": batch.GRADER_FAILED, "number": "0", "score": 0, "max_score": 26,
                        "status": "failed", "output": "KeyError: x", "visibility": "visible"}]}
    (tmp_path / "zed.json").write_text(json.dumps(fault))
    figures = classroom.figures(tmp_path)
    assert figures["grader_faults"] == [{"submission": "zed", "message": "KeyError: x"}]
    assert classroom.GRADED_FROM == batch.GRADED_FROM and classroom.GRADER_FAILED == batch.GRADER_FAILED


def test_unlocking_is_its_own_table_not_rows_of_questions(out):
    """A result's unlock entries (Gradescope's "Question 1: unlocked", number "1.u") show as how many
    submissions unlocked each question, never as questions nobody got full points on."""
    for name, done in (("ada", True), ("bo", False)):
        result = json.loads((out / f"{name}.json").read_text())
        result["tests"].append({"name": "Question 1: unlocked", "number": "1.u", "score": 0.0, "max_score": 0.0,
                                "status": "passed" if done else "failed", "output": "", "visibility": "visible"})
        (out / f"{name}.json").write_text(json.dumps(result))
    figures = classroom.figures(out)
    assert [q["number"] for q in figures["questions"]] == QUESTIONS
    assert figures["unlocking"] == [{"number": "1", "title": VARIANT.questions[0].title, "graded": 2,
                                     "unlocked": 1, "share_unlocked": 0.5}]
    classroom.write(out)
    page = (out / "report.html").read_text()
    assert "1.u" not in page
    unlocking = page.split('<table id="unlocking">', 1)[1].split("</table>", 1)[0]
    assert re.search(r"<td>1</td><td>Rolling dice</td>\s*<td class=\"number\">1 of 2</td>", unlocking)
