"""``hog similarity``: copies are found whatever was renamed, reordered or reworded; independent
solutions, the skeleton's code and what many share are not; the page and JSON say what an instructor
needs, escaped; untrusted sources are bounded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from grader import cli, project
from grader.reference.hog_source import skeleton_source, solution_source
from grader.report import classroom
from grader.similarity import fingerprint as fp
from grader.similarity.batch import similarity
from grader.similarity.compare import MAX_SHARE, THRESHOLD
from grader.spec import load_variant
from tests import TESTS

CORPUS = TESTS / "data" / "similarity" / "sp19"
INDEPENDENT = ["alder", "birch", "cedar", "dogwood", "elm", "fir"]     # written apart, in different styles
PLANTED = {f"{name}_copy": name for name in ["alder", "birch", "cedar", "elm", "fir"]}


def run(folder: Path, out: Path, *extra: str) -> dict:
    assert cli.main(["similarity", str(folder), "--out", str(out), *extra]) == 0
    return json.loads((out / "similarity.json").read_text(encoding="utf-8"))


def test_every_planted_copy_is_at_the_top_and_no_independent_pair_is_listed(tmp_path):
    report = run(CORPUS, tmp_path / "out", "--variant", "sp19")
    found = {frozenset((pair["a"], pair["b"])) for pair in report["pairs"]}
    assert found == {frozenset(pair) for pair in PLANTED.items()}
    scores = [pair["score"] for pair in report["pairs"]]
    assert scores == sorted(scores, reverse=True) and min(scores) >= 0.9
    assert report["threshold"] == THRESHOLD and report["submissions"] == len(INDEPENDENT) + len(PLANTED)
    assert report["max_share"] == MAX_SHARE


def test_the_work_shows_the_submissions_fingerprinted_then_the_pairs_compared(tmp_path, recorded_progress):
    similarity(CORPUS, tmp_path / "out", variant_of=lambda name, text: "sp19", progress=recorded_progress)
    count = len(INDEPENDENT) + len(PLANTED)
    (fingerprinted, *counts), (compared, pairs, done) = recorded_progress.done()
    assert (fingerprinted, *counts) == ("fingerprinting submissions", count, count)
    assert compared == "comparing pairs" and 0 < pairs == done <= count * (count - 1) // 2


def test_independent_solutions_stay_far_below_the_threshold_even_with_nothing_ignored(tmp_path):
    folder = tmp_path / "independent"
    folder.mkdir()
    for name in INDEPENDENT:
        shutil.copy(CORPUS / f"{name}.py", folder)
    (folder / "reference.py").write_text(solution_source(load_variant("sp19")))   # written apart too
    report = run(folder, tmp_path / "out", "--variant", "sp19", "--threshold", "0.01", "--max-share", "100")
    scores = {frozenset((pair["a"], pair["b"])): pair["score"] for pair in report["pairs"]}
    assert max(score for pair, score in scores.items() if "reference" not in pair) < 0.1
    assert max(score for pair, score in scores.items() if "reference" in pair) < THRESHOLD / 2


def test_a_pair_names_its_functions_and_its_regions_side_by_side(tmp_path):
    report = run(CORPUS, tmp_path / "out", "--variant", "sp19")
    pair = next(p for p in report["pairs"] if {p["a"], p["b"]} == {"alder", "alder_copy"})
    assert {"play", "announce_highest", "max_scoring_num_rolls", "swap_strategy"} <= set(pair["functions"])
    play = next(r for r in pair["regions"] if r["a"]["function"] == "play")
    assert play["b"]["function"] == "play" and play["a"]["lines"][0] <= play["a"]["lines"][1]
    page = (tmp_path / "out" / "similarity.html").read_text(encoding="utf-8")
    assert "a lead for a human" in page and "alder_copy" in page
    lines = (CORPUS / "alder.py").read_text().splitlines()
    first = lines[play["a"]["lines"][0] - 1].strip().replace("'", "&#39;").replace('"', "&#34;")
    assert first in page


def test_renaming_literals_comments_docstrings_layout_and_function_order_change_no_fingerprint():
    original = '''
def total(values, start=0):
    """Sum of values."""
    result = start
    for value in values:
        if value > 1:
            result = result + value * 2
    return result

def count(values):
    n = 0
    while n < len(values):
        n += 1
    return n
'''
    disguised = '''
# helpers
def how_many(xs):
    k = 0
    while k < len(xs):   # count up
        k += 1
    return k


def add_up(nums, first=5):
    result_so_far = first
    for x in nums:
        if (x > 7):
            result_so_far = (result_so_far
                             + x * 3)
    return result_so_far
'''
    one, other = fp.fingerprint(original, "one"), fp.fingerprint(disguised, "other")
    assert set(one.fingerprints) == set(other.fingerprints) and one.fingerprints


def test_a_changed_statement_changes_fingerprints():
    one = fp.fingerprint("def f(x):\n    y = x + 1\n    if y > 2:\n        return y\n    return x * y - 1\n", "one")
    other = fp.fingerprint("def f(x):\n    y = x + 1\n    while y > 2:\n        y -= 1\n    return [x, y]\n", "other")
    assert set(one.fingerprints) != set(other.fingerprints)


def test_winnowing_keeps_the_least_hash_of_every_window():
    hashes = [77, 74, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 74, 42, 17, 98]
    assert fp.winnow(hashes, 4) == [3, 6, 8, 11, 15]   # the example of Schleimer et al.


def write_skeletons(folder: Path, count: int) -> None:
    skeleton = skeleton_source(load_variant("sp19"))
    for number in range(count):
        (folder / f"student{number}.py").write_text(skeleton)


def test_the_skeletons_code_is_left_out(tmp_path):
    folder = tmp_path / "batch"
    folder.mkdir()
    write_skeletons(folder, 2)
    report = run(folder, tmp_path / "out", "--threshold", "0.01", "--max-share", "100")
    assert report["pairs"] == [] and report["variants"] == ["sp19"]   # the variant its hog.py declares


def test_by_default_what_more_than_ten_submissions_share_is_ignored(tmp_path):
    folder = tmp_path / "batch"
    folder.mkdir()
    reference = solution_source(load_variant("sp19"))
    for number in range(11):
        (folder / f"student{number:02d}.py").write_text(reference)
    assert run(folder, tmp_path / "out")["pairs"] == []
    (folder / "student10.py").unlink()
    assert len(run(folder, tmp_path / "out")["pairs"]) == 45


def test_what_more_than_max_share_submissions_share_is_ignored(tmp_path):
    folder = tmp_path / "batch"
    folder.mkdir()
    reference = solution_source(load_variant("sp19"))
    for number in range(4):
        (folder / f"student{number}.py").write_text(reference)
    assert len(run(folder, tmp_path / "out", "--max-share", "4")["pairs"]) == 6
    assert run(folder, tmp_path / "out", "--max-share", "3")["pairs"] == []


def test_across_variants_only_the_functions_both_share_are_compared_and_the_report_says_so(tmp_path):
    folder = tmp_path / "batch"
    folder.mkdir()
    (folder / "sam.py").write_text(solution_source(load_variant("sp19")))
    (folder / "fay.py").write_text(solution_source(load_variant("fa18")))
    report = run(folder, tmp_path / "out")
    shared = report["shared_across_variants"]
    assert [item["variants"] for item in shared] == [["fa18", "sp19"]]
    assert "free_bacon" not in shared[0]["functions"] and "roll_dice" in shared[0]["functions"]
    [pair] = report["pairs"]
    assert pair["compared"] == shared[0]["functions"]
    assert set(pair["functions"]) <= set(shared[0]["functions"])
    assert "differ by design" in (tmp_path / "out" / "similarity.html").read_text(encoding="utf-8")


def headerless(folder: Path) -> Path:
    """The six independent solutions with an older course's first line: their hog.py names no rules."""
    folder.mkdir()
    for name in INDEPENDENT:
        lines = (CORPUS / f"{name}.py").read_text().splitlines(keepends=True)
        assert lines[0] == '"""The Game of Hog (CS 61A Spring 2019 rules)."""\n'
        (folder / f"{name}.py").write_text('"""CS 61A Presents The Game of Hog."""\n' + "".join(lines[1:]))
    return folder


@pytest.fixture
def back_in_the_checkout():
    """A test that names a course leaves the next one in the checkout, as a new `hog` run would be."""
    yield
    project.use()


def test_in_a_course_of_one_variant_hog_py_files_that_name_no_rules_have_its_skeletons_code_left_out(
        tmp_path, capsys, back_in_the_checkout):
    folder = headerless(tmp_path / "batch")
    course = tmp_path / "course"
    assert cli.main(["init", str(course), "--variant", "sp19"]) == 0
    assert cli.main(["--course", str(course), "similarity", str(folder), "--out", str(tmp_path / "out"),
                     "--threshold", "0.01"]) == 0
    report = json.loads((tmp_path / "out" / "similarity.json").read_text(encoding="utf-8"))
    assert report["variants"] == ["sp19"] and report["skeleton_kept"] == []
    assert max(pair["score"] for pair in report["pairs"]) < 0.1
    assert "skeleton's code not left out" not in capsys.readouterr().out


def test_outside_a_course_each_hog_py_that_names_no_rules_is_said_to_keep_the_skeletons_code_with_the_fix(
        tmp_path, capsys):
    folder = headerless(tmp_path / "batch")
    capsys.readouterr()
    report = run(folder, tmp_path / "out", "--threshold", "0.01")
    assert report["variants"] == [] and [item["entry"] for item in report["skeleton_kept"]] == INDEPENDENT
    assert all("--variant ID" in item["why"] for item in report["skeleton_kept"])
    assert min(pair["score"] for pair in report["pairs"]) > 0.25     # what every student was handed, counted
    said = capsys.readouterr().out
    for name in INDEPENDENT:
        assert f"skeleton's code not left out of {name}: its variant is unknown" in said
    page = (tmp_path / "out" / "similarity.html").read_text(encoding="utf-8")
    assert 'id="skeleton-kept"' in page and all(f"<td>{name}</td>" in page for name in INDEPENDENT)
    assert "--variant ID" in page
    report = run(folder, tmp_path / "other", "--variant", "sp19", "--threshold", "0.01")
    assert report["skeleton_kept"] == [] and max(pair["score"] for pair in report["pairs"]) < 0.1
    assert "skeleton" not in capsys.readouterr().out
    assert 'id="skeleton-kept"' not in (tmp_path / "other" / "similarity.html").read_text(encoding="utf-8")


def test_untrusted_sources_are_bounded_and_what_cannot_be_read_is_listed(tmp_path, capsys):
    folder = tmp_path / "batch"
    folder.mkdir()
    (folder / "huge.py").write_text("x = 1\n" * (fp.MAX_SOURCE_BYTES // 6 + 10))
    (folder / "broken.py").write_text("def f(:\n")
    (folder / "deep.py").write_text("x = " + "(" * 5000 + ")" * 5000 + "\n")
    (folder / "empty").mkdir()
    (tmp_path / "secret.py").write_text("password = 'hunter2'\n")
    (folder / "link.py").symlink_to(tmp_path / "secret.py")
    report = run(folder, tmp_path / "out")
    why = {item["entry"]: item["why"] for item in report["skipped"]}
    assert set(why) == {"huge.py", "broken.py", "deep.py", "empty", "link.py"}
    assert "hunter2" not in (tmp_path / "out" / "similarity.html").read_text()
    assert f"at most {fp.MAX_SOURCE_BYTES:,}" in why["huge.py"]
    assert why["broken.py"].startswith("broken.py:1: does not parse")
    assert "not compared huge.py" in capsys.readouterr().out


def test_the_page_escapes_names_and_code(tmp_path):
    folder = tmp_path / "batch"
    folder.mkdir()
    source = (CORPUS / "alder.py").read_text() + "\n\ndef extra():\n    return '<script>alert(1)</script>'\n"
    (folder / "<b>one.py").write_text(source)
    (folder / "two.py").write_text(source)
    run(folder, tmp_path / "out", "--variant", "sp19")
    page = (tmp_path / "out" / "similarity.html").read_text(encoding="utf-8")
    assert "<b>one" not in page and "&lt;b&gt;one" in page and "<script>" not in page


def test_a_manifest_gives_each_submission_its_variant_and_a_bad_one_names_its_row(tmp_path, capsys):
    folder = tmp_path / "batch"
    folder.mkdir()
    for name in ("s1", "s2"):
        (folder / f"{name}.py").write_text((CORPUS / "alder.py").read_text())
    manifest = tmp_path / "manifest.csv"
    manifest.write_text("student_id,email,section,variant\ns1,a@x.edu,A,sp19\ns2,b@x.edu,B,fa18\n")
    report = run(folder, tmp_path / "out", "--manifest", str(manifest))
    assert report["variants"] == ["fa18", "sp19"] and report["pairs"][0]["compared"] != "all functions"
    manifest.write_text("student_id,email,section,variant\ns1,a@x.edu,A,\n")
    assert cli.main(["similarity", str(folder), "--out", str(tmp_path / "out"), "--manifest", str(manifest)]) == 2
    assert f"{manifest}:2:" in capsys.readouterr().err


def test_bad_arguments_are_usage_errors(tmp_path, capsys):
    assert cli.main(["similarity", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o")]) == 2
    assert cli.main(["similarity", str(CORPUS), "--out", str(tmp_path / "o"), "--threshold", "1.5"]) == 2
    assert cli.main(["similarity", str(CORPUS), "--out", str(tmp_path / "o"), "--max-share", "1"]) == 2
    assert "would ignore every copy" in capsys.readouterr().err


def test_the_class_report_lists_the_most_similar_pairs_when_the_batch_was_compared(tmp_path):
    out = tmp_path / "out"
    run(CORPUS, out, "--variant", "sp19")
    section = classroom.figures(out)["similarity"]
    assert section["pairs_above"] == len(PLANTED) and section["top"][0]["score"] >= 0.9
    assert not any(item["file"] == "similarity.json" for item in classroom.figures(out)["skipped"])
    classroom.write(out)
    page = (out / "report.html").read_text(encoding="utf-8")
    assert 'id="similarity"' in page and "similarity.html" in page
    assert classroom.figures(tmp_path)["similarity"] is None    # no similarity.json: no section
