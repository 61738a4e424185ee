"""`hog grade-batch` as an instructor reruns it: clashing names, changed submissions, other variants,
faults of the kit, file modes."""

import csv
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from grader import batch, files, project
from grader.spec import load_variant


def hog(*args, env=None, umask=0o022):
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], capture_output=True, text=True,
                          cwd=project.ROOT, timeout=600, env={**os.environ, **(env or {})}, umask=umask)


def gradebook(out: Path) -> dict[str, dict]:
    return {row["submission"]: row for row in csv.DictReader((out / "gradebook.csv").open())}


def result(out: Path, name: str) -> dict:
    return json.loads((out / f"{name}.json").read_text())


def test_a_folder_and_a_file_with_one_name_are_refused_before_anything_is_graded(tmp_path):
    subs = tmp_path / "in"
    shutil.copytree(project.SOLUTION / "sp19", subs / "alice")
    shutil.copy(project.SKELETON / "sp19" / "hog.py", subs / "alice.py")
    shutil.copy(project.SKELETON / "sp19" / "hog.py", subs / "bob.py")
    out = tmp_path / "out"
    done = hog("grade-batch", str(subs), "--variant", "sp19", "--out", str(out))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
    assert "alice/ and alice.py would both write alice.json" in done.stderr and "rename one" in done.stderr
    assert not out.exists()


def test_the_output_folder_inside_the_submissions_is_not_a_submission(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    shutil.copy(project.SKELETON / "sp19" / "hog.py", subs / "bob.py")
    for _ in range(2):
        done = hog("grade-batch", str(subs), "--variant", "sp19", "--out", str(subs / "results"))
        assert done.returncode == 0, done.stderr
    assert "graded 0, skipped 1 already graded" in done.stdout
    assert list(gradebook(subs / "results")) == ["bob"]


def test_a_rerun_with_another_variant_regrades_everything_then_skips_it(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    shutil.copy(project.SOLUTION / "fa18" / "hog.py", subs / "ada.py")
    shutil.copy(project.SKELETON / "fa18" / "hog.py", subs / "bob.py")
    out = tmp_path / "out"
    assert "graded 2, skipped 0" in hog("grade-batch", str(subs), "--variant", "sp19", "--out", str(out)).stdout
    assert result(out, "ada")["max_score"] == 26
    again = hog("grade-batch", str(subs), "--variant", "fa18", "--out", str(out))
    assert again.returncode == 0 and "graded 2, skipped 0 already graded" in again.stdout
    fa18 = load_variant("fa18").points
    assert result(out, "ada")["score"] == result(out, "ada")["max_score"] == fa18
    assert {row["max_score"] for row in gradebook(out).values()} == {str(float(fa18))}
    third = hog("grade-batch", str(subs), "--variant", "fa18", "--out", str(out))
    assert "graded 0, skipped 2 already graded" in third.stdout


def test_a_resubmitted_file_is_regraded_and_the_others_are_skipped(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    shutil.copy(project.SKELETON / "fa18" / "hog.py", subs / "ada.py")
    shutil.copytree(project.SKELETON / "fa18", subs / "bob")
    out = tmp_path / "out"
    hog("grade-batch", str(subs), "--variant", "fa18", "--out", str(out))
    assert float(gradebook(out)["ada"]["score"]) == 0
    shutil.copy(project.SOLUTION / "fa18" / "hog.py", subs / "ada.py")
    again = hog("grade-batch", str(subs), "--variant", "fa18", "--out", str(out))
    assert "graded 1, skipped 1 already graded" in again.stdout
    assert float(gradebook(out)["ada"]["score"]) == load_variant("fa18").points
    shutil.copy(project.SOLUTION / "fa18" / "hog.py", subs / "bob" / "hog.py")
    third = hog("grade-batch", str(subs), "--variant", "fa18", "--out", str(out))
    assert "graded 1, skipped 1 already graded" in third.stdout
    assert float(gradebook(out)["bob"]["score"]) == load_variant("fa18").points


def test_each_result_keeps_gradescopes_fields_and_says_what_it_was_graded_from(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    shutil.copy(project.SOLUTION / "nju24" / "hog.py", subs / "ada.py")
    out = tmp_path / "out"
    hog("grade-batch", str(subs), "--variant", "nju24", "--out", str(out))
    data = result(out, "ada")
    assert {"score", "max_score", "execution_time", "output", "tests"} <= set(data)
    source = data["graded_from"]
    assert source["variant"] == "nju24" and len(source["cases"]) == 24 and source["kit"]
    assert source["submission_sha256"] == batch.submission_digest(subs / "ada.py")
    content = hashlib.sha256((subs / "ada.py").read_bytes()).digest()
    assert source["submission_sha256"] == hashlib.sha256(b"ada.py\0" + content).hexdigest()


def broken_spec(root: Path) -> None:
    """A copy of the specs where question 4 names a function the reference does not have."""
    shutil.copytree(project.SPECS, root / "specs")
    spec = root / "specs" / "sp19.yaml"
    text = spec.read_text()
    assert "    function: is_swap\n" in text
    spec.write_text(text.replace("    function: is_swap\n", "    function: is_swapp\n"))


def test_a_fault_of_the_grader_gives_each_submission_a_visible_zero_a_gradebook_and_exit_1(tmp_path):
    broken_spec(tmp_path / "kit")
    subs = tmp_path / "in"
    shutil.copytree(project.SOLUTION / "sp19", subs / "ada")
    shutil.copy(project.SOLUTION / "sp19" / "hog.py", subs / "bob.py")
    out = tmp_path / "out"
    env = {"HOG_ROOT": str(tmp_path / "kit"), "HOG_CACHE": str(tmp_path / "cache")}
    done = hog("grade-batch", str(subs), "--variant", "sp19", "--out", str(out), env=env)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "graded 2, skipped 0 already graded, 2 grader faults" in done.stdout
    for name in ("ada", "bob"):
        data = result(out, name)
        assert data["score"] == 0 and data["tests"][0]["name"] == "grader failed"
        assert "NameError" in data["tests"][0]["output"] and data["tests"][0]["visibility"] == "visible"
    assert {name: row["status"] for name, row in gradebook(out).items()} == {"ada": "grader failed",
                                                                             "bob": "grader failed"}
    fixed = hog("grade-batch", str(subs), "--variant", "sp19", "--out", str(out))
    assert fixed.returncode == 0 and "graded 2, skipped 0 already graded, 0 grader faults" in fixed.stdout
    assert {row["status"] for row in gradebook(out).values()} == {"graded"}


def fails_on_bob(variant_id: str, submission: Path) -> tuple[dict, bool]:
    if submission.stem == "bob":
        raise RuntimeError("the worker broke")
    return {"score": 1.0, "max_score": 26.0, "execution_time": 0.0, "output": "", "tests": []}, False


def test_a_worker_that_breaks_costs_only_its_submission_a_visible_zero(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    for name in ("ada", "bob", "cy"):
        (subs / f"{name}.py").write_text("x = 1\n")
    out = tmp_path / "out"
    summary = batch.grade_batch(subs, load_variant("sp19"), out, jobs=2, grade=fails_on_bob)
    assert (summary.graded, summary.failed) == (3, 1)
    assert result(out, "bob")["tests"][0]["output"] == "RuntimeError: the worker broke"
    assert {name: row["status"] for name, row in gradebook(out).items()} == {
        "ada": "graded", "bob": "grader failed", "cy": "graded"}


def test_results_and_the_gradebook_follow_the_umask_like_any_new_file(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    (subs / "bob.py").write_text("x = 1\n")
    out = tmp_path / "out"
    assert hog("grade-batch", str(subs), "--variant", "sp19", "--out", str(out), umask=0o022).returncode == 0
    assert {path.name: stat.S_IMODE(path.stat().st_mode) for path in out.iterdir()} == {
        "bob.json": 0o644, "gradebook.csv": 0o644, "instructor": 0o755}
    assert stat.S_IMODE((out / "instructor" / "bob.json").stat().st_mode) == 0o644
    previous = os.umask(0o027)
    try:
        files.write_atomically(tmp_path / "report.json", "{}\n")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "report.json").stat().st_mode) == 0o640
    assert [path.name for path in tmp_path.iterdir() if path.name.endswith(".tmp")] == []
