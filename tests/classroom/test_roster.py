"""``hog assign --roster``: a variant per section or student, the manifest, one bundle that grades each
student under their own rules; ``hog grade-batch --manifest``; rosters that are refused, with the row."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader import cli, project
from grader.reference.hog_source import solution_source
from grader.classroom.roster import read_manifest, read_roster
from grader.spec import load_variant
from tests.publishing.test_assign import unpacked
from tests import ROOT

KIT = ROOT
PICK = KIT / "grader" / "shipped" / "autograder" / "pick_variant.py"


@pytest.fixture
def root(tmp_path, monkeypatch):
    """A course folder of its own (``hog init``): the roster's minted specs, manifests and releases go there."""
    course = tmp_path / "course"
    assert cli.main(["init", str(course), "--variant", "sp19"]) == 0
    monkeypatch.setenv("HOG_COURSE", str(course))
    project.use(str(course))
    yield course
    monkeypatch.undo()
    project.use()


def write_roster(path: Path, rows: list[list[str]], header=("Student ID", "Email", "Section")) -> Path:
    with path.open("w", newline="") as handle:
        csv.writer(handle).writerows([list(header), *rows])
    return path


def twelve(path: Path) -> Path:
    return write_roster(path, [[str(1000 + i), f"s{i}@uni.edu", "ABC"[i % 3]] for i in range(12)])


# ------------------------------------------------------------------ rosters refused


@pytest.mark.parametrize("rows, header, by, message", [
    ([["1", "a@x", "A"], ["1", "b@x", "B"]], ("sid", "email", "section"), "section", ":3: student id '1' again (first on row 2)"),
    ([["1", "a@x", "A"], ["", "b@x", "B"]], ("sid", "email", "section"), "section", ":3: the student id is empty"),
    ([["1", "a@x"]], ("sid", "email"), "section", ":1: the roster has no section column"),
    ([["1", "A"]], ("sid", "section"), "student", ":1: the roster has no email column"),
    ([["a@x", "A"]], ("email", "section"), "student", ":1: the roster has no student id column"),
    ([["1", "a@x", ""]], ("sid", "email", "section"), "section", ":2: 1 has no section"),
])
def test_a_roster_with_a_fault_is_refused_naming_the_row(tmp_path, capsys, rows, header, by, message):
    roster = write_roster(tmp_path / "roster.csv", rows, header)
    assert cli.main(["assign", "--roster", str(roster), "--by", by, "--out", str(tmp_path / "out")]) == 2
    assert f"{roster}{message}" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_roster_without_sections_is_fine_per_student(tmp_path):
    roster = write_roster(tmp_path / "roster.csv", [["1", "a@x"], ["2", "b@x"]], ("SID", "E-mail"))
    assert [s.student_id for s in read_roster(roster, "student")] == ["1", "2"]


def test_a_manifest_row_without_a_variant_is_refused(tmp_path, capsys):
    manifest = tmp_path / "manifest.csv"
    manifest.write_text("student_id,email,section,variant\n1,a@x,A,sp19\n2,b@x,A,\n")
    assert cli.main(["grade-batch", str(tmp_path), "--manifest", str(manifest), "--out", str(tmp_path / "o")]) == 2
    assert f"{manifest}:3:" in capsys.readouterr().err
    manifest.write_text("student_id,email,section,variant\n1,A@X.edu,A,sp19\n")
    assert read_manifest(manifest).variant_for("a@x.edu") == "sp19" and read_manifest(manifest).variant_for("2") is None


# ------------------------------------------------------------------ the bundle's choice


def pick(tmp_path: Path, users: list[dict], manifest: str | bytes | None) -> tuple[subprocess.CompletedProcess,
                                                                                   dict | None]:
    """pick_variant.py run as the bundle runs it (None: no manifest.csv at all)."""
    (tmp_path / "meta.json").write_text(json.dumps({"users": users}))
    if manifest is not None:
        (tmp_path / "manifest.csv").write_bytes(manifest.encode() if isinstance(manifest, str) else manifest)
    results = tmp_path / "results.json"
    results.unlink(missing_ok=True)
    run = subprocess.run([sys.executable, "-I", str(PICK), str(tmp_path / "meta.json"), str(tmp_path / "manifest.csv"),
                          str(results)], capture_output=True, text=True)
    return run, json.loads(results.read_text()) if results.exists() else None


MANIFEST = "student_id,email,section,variant\n1001,ann@uni.edu,A,r0_s001\n1002,bo@uni.edu,B,r0_s002\n" \
           "1003,cy@uni.edu,A,r0_s001\n"


def test_the_bundle_picks_the_submitters_variant_by_id_or_email(tmp_path):
    run, results = pick(tmp_path, [{"sid": "1002", "email": "", "name": "Bo"}], MANIFEST)
    assert (run.returncode, run.stdout.strip(), results) == (0, "r0_s002", None)
    run, _ = pick(tmp_path, [{"email": "ANN@uni.edu", "name": "Ann"}, {"email": "cy@uni.edu"}], MANIFEST)
    assert (run.returncode, run.stdout.strip()) == (0, "r0_s001")


def test_an_unknown_submitter_or_a_group_of_two_variants_gets_a_message_and_no_grade(tmp_path):
    run, results = pick(tmp_path, [{"sid": "9", "email": "eve@uni.edu", "name": "Eve"}], MANIFEST)
    assert run.returncode == 1 and run.stdout == "" and results["tests"] == [] and results["score"] == 0
    assert "eve@uni.edu is not on this assignment's roster" in results["output"]
    run, results = pick(tmp_path, [{"email": "ann@uni.edu"}, {"email": "bo@uni.edu"}], MANIFEST)
    assert run.returncode == 1 and "different rules (ann@uni.edu: r0_s001, bo@uni.edu: r0_s002)" in results["output"]


@pytest.mark.parametrize("manifest, says", [
    (b"student_id,email,section,variant\n1002,bo@uni.edu,B,r0\xff\n", "could not read its roster, manifest.csv"),
    (b"student_id,email,section\n1002,bo@uni.edu,B\n", "manifest.csv, gives bo@uni.edu no variant"),
    (None, "could not read its roster, manifest.csv"),
])
def test_a_broken_manifest_in_the_bundle_is_a_visible_grader_fault_not_a_crash(tmp_path, manifest, says):
    run, results = pick(tmp_path, [{"sid": "1002", "email": "bo@uni.edu"}], manifest)
    assert run.returncode == 1 and "Traceback" not in run.stderr and run.stdout == ""
    output = results["output"]
    assert output.startswith("grader failed: ") and says in output and "Tell your instructor" in output


# ------------------------------------------------------------------ end to end


def unpack_bundle(bundle: Path, into: Path, hog: str, users: list[dict]) -> Path:
    root = unpacked(bundle, into / "autograder")
    (root / "submission").mkdir()
    (root / "submission/hog.py").write_text(hog)
    shutil.copy(project.SHIPPED / "dice.py", root / "submission/dice.py")
    (root / "submission_metadata.json").write_text(json.dumps({"users": users}))
    return root


def run_autograder(root: Path) -> dict:
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "HOG_KIT_PYTHON": sys.executable,
           "PYTHONDONTWRITEBYTECODE": "1", "HOG_CACHE": str(root / "cache")}
    env.pop("PYTHONPATH", None)
    subprocess.run([str(root / "source/run_autograder")], env=env, capture_output=True, text=True, timeout=600)
    return json.loads((root / "results/results.json").read_text())


@pytest.mark.slow
def test_twelve_students_in_three_sections_get_three_variants_graded_each_under_their_own(root, tmp_path, capsys):
    out = tmp_path / "release"
    assert cli.main(["assign", "--roster", str(twelve(tmp_path / "roster.csv")), "--by", "section", "--seed", "4",
                     "--out", str(out)]) == 0
    manifest = read_manifest(out / "manifest.csv")
    by_section = {s.section: s.variant for s in manifest.students}
    assert len(manifest.students) == 12 and len(set(by_section.values())) == 3
    assert (root / "rosters" / "r4_section.csv").read_text() == (out / "manifest.csv").read_text()
    assert all(s.variant == by_section[s.section] for s in manifest.students)
    variants = [load_variant(v) for v in sorted(by_section.values())]
    assert len({(v.compose.zero_dice, v.compose.swap, v.compose.bonus) for v in variants}) == 3   # distinct
    assert len({tuple((q.label, q.role, q.points) for q in v.questions) for v in variants}) == 1   # same layout
    for variant in variants:
        assert (out / variant.id / "student" / "hog.py").is_file()
        assert (out / variant.id / "student" / "handout.html").is_file()
    assert "(every variant; each student graded under their own)" in capsys.readouterr().out

    # grade-batch --manifest: each under the student's variant, whatever their hog.py says
    students = {s.section: s for s in manifest.students}
    batch = tmp_path / "submissions"
    batch.mkdir()
    for section, student in students.items():
        (batch / f"{student.student_id}.py").write_text(solution_source(load_variant(student.variant)))
    wrong = next(s for s in manifest.students if s.section == "A" and s.student_id != students["A"].student_id)
    (batch / f"{wrong.email}.py").write_text(solution_source(load_variant(by_section["B"])))  # another's rules
    (batch / "stranger.py").write_text(solution_source(variants[0]))
    results = tmp_path / "results"
    assert cli.main(["grade-batch", str(batch), "--manifest", str(out / "manifest.csv"), "--out", str(results),
                     "--isolation", "process", "--jobs", "2"]) == 0
    rows = {row["submission"]: row for row in csv.DictReader((results / "gradebook.csv").open())}
    for student in students.values():
        assert rows[student.student_id]["variant"] == student.variant
        assert rows[student.student_id]["score"] == rows[student.student_id]["max_score"]
    assert rows[wrong.email]["variant"] == by_section["A"]
    assert float(rows[wrong.email]["score"]) < float(rows[wrong.email]["max_score"])
    assert "stranger" not in rows and "stranger.py,not on the manifest" in (results / "skipped.csv").read_text()

    # the Gradescope bundle: each submitter under their own variant, an unknown one refused
    bundle = out / "autograder" / "autograder.zip"
    ann, bo = students["A"], students["B"]
    own = run_autograder(unpack_bundle(bundle, tmp_path / "ann", solution_source(load_variant(ann.variant)),
                                       [{"email": ann.email, "sid": ann.student_id, "name": "Ann"}]))
    assert own["score"] == load_variant(ann.variant).points
    other = run_autograder(unpack_bundle(bundle, tmp_path / "bo", solution_source(load_variant(ann.variant)),
                                         [{"email": bo.email, "sid": "", "name": "Bo"}]))
    assert 0 < other["score"] < load_variant(bo.variant).points
    unknown = run_autograder(unpack_bundle(bundle, tmp_path / "eve", solution_source(variants[0]),
                                           [{"email": "eve@else.edu", "sid": "1", "name": "Eve"}]))
    assert unknown["tests"] == [] and "not on this assignment's roster" in unknown["output"]


@pytest.mark.slow
def test_by_student_every_student_gets_distinct_rules_and_the_same_seed_gives_the_same(root, tmp_path):
    roster = twelve(tmp_path / "roster.csv")
    assert cli.main(["assign", "--roster", str(roster), "--by", "student", "--seed", "2", "--out",
                     str(tmp_path / "one")]) == 0
    first = read_manifest(tmp_path / "one" / "manifest.csv")
    variants = [load_variant(s.variant) for s in first.students]
    assert len({(v.compose.zero_dice, v.compose.swap, v.compose.bonus) for v in variants}) == 12
    assert len(list((tmp_path / "one").glob("*/student/hog.py"))) == 12
    rules = [v.compose for v in variants]
    for variant in variants:   # minted again from scratch
        (root / "specs" / f"{variant.id}.yaml").unlink()
        (root / "specs" / "final" / f"{variant.id}.txt").unlink()
    assert cli.main(["assign", "--roster", str(roster), "--by", "student", "--seed", "2", "--out",
                     str(tmp_path / "two")]) == 0
    assert (tmp_path / "two" / "manifest.csv").read_text() == (tmp_path / "one" / "manifest.csv").read_text()
    assert [load_variant(s.variant).compose for s in first.students] == rules


def test_the_class_report_of_a_roster_batch_shows_each_variants_scores(tmp_path):
    from grader.report import classroom
    for name, variant, score in (("1", "sp19", 26.0), ("2", "sp19", 10.0), ("3", "fa18", 20.0)):
        (tmp_path / f"{name}.json").write_text(json.dumps({
            "score": score, "max_score": 26.0, "tests": [], "graded_from": {"variant": variant}}))
    variants = classroom.figures(tmp_path)["variants"]
    assert [(v["variant"], v["count"], v["mean"]) for v in variants] == [("fa18", 1, 20.0), ("sp19", 2, 18.0)]
    classroom.write(tmp_path)
    page = (tmp_path / "report.html").read_text()
    assert 'id="variants"' in page and "variants fa18, sp19" in page
    (tmp_path / "3.json").unlink()
    assert classroom.figures(tmp_path)["variants"] == []     # one variant: no such section


@pytest.mark.slow
def test_the_contest_of_a_roster_plays_each_variants_entrants_under_their_own_rules(tmp_path, capsys):
    manifest = tmp_path / "manifest.csv"
    manifest.write_text("student_id,email,section,variant\n1,a@x,A,sp19\n2,b@x,A,sp19\n3,c@x,B,fa18\n"
                        "4,d@x,B,fa18\n")
    batch = tmp_path / "submissions"
    batch.mkdir()
    for name, variant in (("1", "sp19"), ("2", "fa18"), ("3", "fa18"), ("4", "sp19"), ("5", "sp19")):
        (batch / f"{name}.py").write_text(solution_source(load_variant(variant)))
    out = tmp_path / "contest"
    assert cli.main(["contest", str(batch), "--manifest", str(manifest), "--out", str(out),
                     "--isolation", "process", "--jobs", "1"]) == 0
    said = capsys.readouterr().out
    assert "skipped 5.py: not on the manifest" in said
    for variant, own, other in (("sp19", "1", "2"), ("fa18", "3", "4")):
        rows = list(csv.DictReader((out / variant / "leaderboard.csv").open()))
        assert {row["submission"] for row in rows} == {own, other}
        assert rows[0]["submission"] == own    # the reference of the variant beats the other's under its rules


def test_class_verbs_need_a_variant_or_a_manifest_and_not_both(tmp_path, capsys):
    manifest = tmp_path / "manifest.csv"
    manifest.write_text("student_id,email,section,variant\n1,a@x,A,sp19\n")
    (tmp_path / "subs").mkdir()
    base = ["--out", str(tmp_path / "out")]
    assert cli.main(["grade-batch", str(tmp_path / "subs"), *base]) == 2
    assert "needs --variant ID, or --manifest M" in capsys.readouterr().err
    assert cli.main(["grade-batch", str(tmp_path / "subs"), "--variant", "sp19", "--manifest", str(manifest), *base]) == 2
    assert "drop --variant sp19" in capsys.readouterr().err
    assert cli.main(["contest", str(tmp_path / "subs"), *base]) == 2
    assert "needs --variant ID, or --manifest M" in capsys.readouterr().err
    assert cli.main(["assign", "--out", str(tmp_path / "out")]) == 2
    assert "needs a variant ID, or --roster" in capsys.readouterr().err
    assert cli.main(["assign", "sp19", "--roster", str(manifest), "--out", str(tmp_path / "out")]) == 2
    assert "drop sp19" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
