"""`hog grade-batch` as an instructor reruns it: clashing names, changed submissions, other variants,
faults of the kit, file modes."""

import csv
import errno
import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from grader import cli, project
from grader.classroom import batch, cluster, pool
from grader.grading import grade as grade_module
from grader.sandbox import SandboxUnavailable
from grader.project import files
from grader.spec import load_variant
from tests.processes import living


def hog(*args, env=None, umask=0o022, cwd=None):
    """``hog ARGS`` in a new process (from the checkout unless ``cwd``), ``env`` added to this one's."""
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], capture_output=True, text=True,
                          cwd=cwd or project.ROOT, timeout=600, env={**os.environ, **(env or {})}, umask=umask)


def gradebook(out: Path) -> dict[str, dict]:
    return {row["submission"]: row for row in csv.DictReader((out / "gradebook.csv").open())}


def result(out: Path, name: str) -> dict:
    return json.loads((out / f"{name}.json").read_text())


@pytest.mark.slow
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


@pytest.mark.slow
def test_the_output_folder_inside_the_submissions_is_not_a_submission(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    shutil.copy(project.SKELETON / "sp19" / "hog.py", subs / "bob.py")
    for _ in range(2):
        done = hog("grade-batch", str(subs), "--variant", "sp19", "--out", str(subs / "results"))
        assert done.returncode == 0, done.stderr
    assert "graded 0, skipped 1 already graded" in done.stdout
    assert list(gradebook(subs / "results")) == ["bob"]


@pytest.mark.slow
def test_a_rerun_with_another_variant_regrades_everything_then_skips_it(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    shutil.copy(project.SOLUTION / "fa18" / "hog.py", subs / "ada.py")
    shutil.copy(project.SKELETON / "fa18" / "hog.py", subs / "bob.py")
    out = tmp_path / "out"
    assert "graded 2, skipped 0" in hog("grade-batch", str(subs), "--variant", "sp19", "--out", str(out)).stdout
    assert result(out, "ada")["max_score"] == load_variant("sp19").points
    again = hog("grade-batch", str(subs), "--variant", "fa18", "--out", str(out))
    assert again.returncode == 0 and "graded 2, skipped 0 already graded" in again.stdout
    fa18 = load_variant("fa18").points
    assert result(out, "ada")["score"] == result(out, "ada")["max_score"] == fa18
    assert {row["max_score"] for row in gradebook(out).values()} == {str(float(fa18))}
    third = hog("grade-batch", str(subs), "--variant", "fa18", "--out", str(out))
    assert "graded 0, skipped 2 already graded" in third.stdout


@pytest.mark.slow
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


@pytest.mark.slow
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
    """A copy of the kit's checkout (its specs: the built-in variants) where sp19's question 4 names a
    function the reference does not have."""
    shutil.copytree(project.SPECS, root / "specs")
    shutil.copy(project.ROOT / "pyproject.toml", root / "pyproject.toml")
    spec = root / "specs" / "sp19.yaml"
    text = spec.read_text()
    assert "    function: is_swap\n" in text
    spec.write_text(text.replace("    function: is_swap\n", "    function: is_swapp\n"))


@pytest.mark.slow
def test_a_fault_of_the_grader_gives_each_submission_a_visible_zero_a_gradebook_and_exit_1(tmp_path):
    broken_spec(tmp_path / "kit")
    subs = tmp_path / "in"
    shutil.copytree(project.SOLUTION / "sp19", subs / "ada")
    shutil.copy(project.SOLUTION / "sp19" / "hog.py", subs / "bob.py")
    out = tmp_path / "out"
    env = {"HOG_COURSE": str(tmp_path / "kit"), "HOG_CACHE": str(tmp_path / "cache")}
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


def fails_on_bob(variant, submission: Path, **options) -> tuple[dict, bool]:
    if submission.stem == "bob":
        raise RuntimeError("the worker broke")
    return {"score": 1.0, "max_score": 26.0, "execution_time": 0.0, "output": "", "tests": [], "grader_failed": False}, False


@pytest.mark.slow
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


@pytest.mark.slow
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


# ------------------------------------------------------------------ seeds, faults by field, OUT, signals


def scored(variant, submission: Path, **options) -> tuple[dict, bool]:
    """A stand-in for grading: full marks, with the seed it was given."""
    return {"score": 26.0, "max_score": 26.0, "execution_time": 0.0, "output": "", "tests": [],
            "isolation": "test", "seed": options["seed"], "grader_failed": False}, False


@pytest.mark.slow
def test_each_result_and_the_gradebook_record_the_runs_seed_and_a_rerun_keeps_other_seeds(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    shutil.copy(project.SKELETON / "sp19" / "hog.py", subs / "bob.py")
    out = tmp_path / "out"
    first = hog("grade-batch", str(subs), "--variant", "sp19", "--seed", "11", "--out", str(out))
    assert first.returncode == 0 and "hidden cases drawn from seed 11" in first.stdout
    assert result(out, "bob")["seed"] == 11 and gradebook(out)["bob"]["seed"] == "11"
    assert result(out, "bob")["isolation"] == "bubblewrap" or "process" in result(out, "bob")["isolation"]
    again = hog("grade-batch", str(subs), "--variant", "sp19", "--out", str(out))
    assert "graded 0, skipped 1 already graded" in again.stdout and "seed 11;" not in again.stdout
    assert gradebook(out)["bob"]["seed"] == "11"


@pytest.mark.slow
def test_without_a_seed_each_run_draws_its_own(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    for name in ("ada", "bob"):
        (subs / f"{name}.py").write_text("x = 1\n")
    seeds = set()
    for run in range(2):
        summary = batch.grade_batch(subs, load_variant("sp19"), tmp_path / f"out{run}", jobs=2, grade=scored)
        assert {result(tmp_path / f"out{run}", name)["seed"] for name in ("ada", "bob")} == {summary.seed}
        seeds.add(summary.seed)
    assert len(seeds) == 2


@pytest.mark.slow
def test_a_result_is_known_as_a_grader_fault_by_its_field_not_its_test_names(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    for name in ("ada", "bob", "cy"):
        (subs / f"{name}.py").write_text("x = 1\n")
    out = tmp_path / "out"
    variant = load_variant("sp19")
    assert batch.grade_batch(subs, variant, out, jobs=1, grade=scored).graded == 3
    ada = result(out, "ada")
    ada["grader_failed"] = True
    (out / "ada.json").write_text(json.dumps(ada))
    bob = result(out, "bob")
    del bob["grader_failed"]   # written by a kit that did not say: graded again, to be sure
    (out / "bob.json").write_text(json.dumps(bob))
    cy = result(out, "cy")
    cy["tests"] = [{"name": "grader failed", "number": "1", "score": 2, "max_score": 2}]  # a student's title
    (out / "cy.json").write_text(json.dumps(cy))
    summary = batch.grade_batch(subs, variant, out, jobs=1, grade=scored)
    assert (summary.graded, summary.skipped) == (2, 1)
    assert result(out, "cy")["tests"][0]["name"] == "grader failed"


@pytest.mark.slow
def test_entries_that_are_not_submissions_are_listed_as_skipped_with_why(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    (subs / "ada.py").write_text("x = 1\n")
    (subs / "notes.txt").write_text("late: bob")
    os.mkfifo(subs / "pipe")
    out = tmp_path / "out"
    summary = batch.grade_batch(subs, load_variant("sp19"), out, jobs=1, grade=scored)
    assert [s.name for s in summary.not_submissions] == ["notes.txt", "pipe"]
    rows = list(csv.DictReader((out / "skipped.csv").open()))
    assert rows == [{"entry": "notes.txt", "why": "not a submission (a submission is a folder, a .py file or a .zip)"},
                    {"entry": "pipe", "why": "not a regular file or a folder"}]
    assert list(gradebook(out)) == ["ada"]


@pytest.mark.slow
def test_submission_names_a_spreadsheet_would_run_are_written_as_text(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    for name in ('=HYPERLINK("x")', "+1", "-2", "@SUM(A1)"):
        (subs / f"{name}.py").write_text("x = 1\n")
    out = tmp_path / "out"
    batch.grade_batch(subs, load_variant("sp19"), out, jobs=2, grade=scored)
    names = [row[0] for row in csv.reader((out / "gradebook.csv").open())][1:]
    assert sorted(names) == sorted(["'+1", "'-2", "'=HYPERLINK(\"x\")", "'@SUM(A1)"])


@pytest.mark.slow
def test_a_full_or_read_only_out_stops_with_one_line_naming_the_file_and_keeps_the_results(
        tmp_path, monkeypatch, capsys):
    subs = tmp_path / "in"
    subs.mkdir()
    for name in ("ada", "bob", "cy"):
        (subs / f"{name}.py").write_text("x = 1\n")
    out = tmp_path / "out"
    written = []

    def fills_up(path, data, **options):
        if len(written) == 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(path)
        files.write_atomically(path, data, **options)
    monkeypatch.setattr(batch, "write_atomically", fills_up)
    monkeypatch.setattr(batch, "grade_one", scored)
    status = cli.main(["grade-batch", str(subs), "--variant", "sp19", "--jobs", "1", "--out", str(out)])
    err = capsys.readouterr().err
    assert status == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"Error: cannot write {out / 'bob.json'}: the device is full; the results written "
                          f"before it are kept")
    assert [path.name for path in out.iterdir()] == ["ada.json"] and result(out, "ada")["score"] == 26

    def read_only(path, data, **options):
        raise OSError(errno.EROFS, "Read-only file system")
    monkeypatch.setattr(batch, "write_atomically", read_only)
    assert cli.main(["grade-batch", str(subs), "--variant", "sp19", "--jobs", "1", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"Error: cannot write {out / 'bob.json'}: Read-only file system;") and err.count("\n") == 1
    assert result(out, "ada")["score"] == 26


@pytest.mark.slow
def test_an_out_that_cannot_be_made_is_one_line_and_exit_1_and_a_file_is_a_usage_error(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    (subs / "ada.py").write_text("x = 1\n")
    done = hog("grade-batch", str(subs), "--variant", "sp19", "--out", "/proc/self/hog-results")
    assert done.returncode == 1 and done.stderr.startswith("Error: cannot create /proc/self/hog-results: ")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    (tmp_path / "file").write_text("")
    done = hog("grade-batch", str(subs), "--variant", "sp19", "--out", str(tmp_path / "file"))
    assert done.returncode == 2 and "is not a folder" in done.stderr


def test_a_fault_of_the_machine_is_tried_again_after_a_pause_with_the_level_chosen_afresh(tmp_path, monkeypatch):
    faults, forgotten, slept = ["the sandbox (files) did not start, twice"] * 2, [], []

    def flaky(submission, variant, **options):
        if faults:
            raise SandboxUnavailable(faults.pop())
        return grade_module.GradeResult(variant, str(submission), [], "process", 0.0, seed=1), False
    monkeypatch.setattr(batch, "grade_safely", flaky)
    monkeypatch.setattr(batch.level, "forget", lambda: forgotten.append(True))
    monkeypatch.setattr(batch.time, "sleep", slept.append)
    (tmp_path / "hog.py").write_text("x = 1\n")
    data, fault = batch.grade_one(load_variant("sp19"), tmp_path / "hog.py", isolation="process", seed=1)
    assert (fault, data["grader_failed"], data[batch.RETRIED]) == (False, False, 2)
    assert (slept, len(forgotten)) == ([0.5, 1.0], 2)


def test_a_fault_of_the_machine_that_stays_is_grader_failed_with_why_after_three_tries_again(tmp_path, monkeypatch):
    def unavailable(*args, **options):
        raise SandboxUnavailable("the scratch folder /tmp/x was removed 5 times while a sandbox's folder was made")
    monkeypatch.setattr(batch, "grade_safely", unavailable)
    monkeypatch.setattr(batch.level, "forget", lambda: None)
    monkeypatch.setattr(batch.time, "sleep", lambda seconds: None)
    (tmp_path / "hog.py").write_text("x = 1\n")
    data, fault = batch.grade_one(load_variant("sp19"), tmp_path / "hog.py", isolation="process", seed=1)
    assert (fault, data["grader_failed"], data[batch.RETRIED]) == (True, True, len(batch.RETRY_SECONDS))
    assert data["output"].startswith("grader failed: SandboxUnavailable: the scratch folder /tmp/x was removed")


def test_a_bug_of_the_kit_is_grader_failed_at_once_not_tried_again(tmp_path, monkeypatch):
    def broken(*args, **options):
        raise KeyError("a bug")
    monkeypatch.setattr(grade_module, "grade", broken)
    monkeypatch.setattr(batch.time, "sleep", lambda seconds: pytest.fail("a bug of the kit was tried again"))
    (tmp_path / "hog.py").write_text("x = 1\n")
    data, fault = batch.grade_one(load_variant("sp19"), tmp_path / "hog.py", isolation="process", seed=1)
    assert (fault, data[batch.RETRIED]) == (True, 0) and data["output"] == "grader failed: KeyError: 'a bug'"


def test_grade_batch_counts_the_tries_again_and_leaves_them_out_of_the_results(tmp_path, monkeypatch):
    def once_unavailable(variant, submission, **options):
        data, fault = scored(variant, submission, **options)
        return {**data, batch.RETRIED: 1}, fault
    subs = tmp_path / "in"
    subs.mkdir()
    for name in ("ada", "bo"):
        (subs / f"{name}.py").write_text("x = 1\n")
    summary = batch.grade_batch(subs, load_variant("sp19"), tmp_path / "out", jobs=1, grade=once_unavailable)
    assert summary.retried == 2 and summary.graded == 2
    assert batch.RETRIED not in result(tmp_path / "out", "ada")


@pytest.mark.slow
def test_a_runs_scratch_folder_removed_between_submissions_and_the_next_is_still_graded(tmp_path, monkeypatch):
    """The reported case: a cleaner of /tmp (or rm -rf) removes a living run's scratch folder; every later
    submission was "grader failed" until the run was started again."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    subs = tmp_path / "in"
    subs.mkdir()
    for name in ("ada", "bo", "cy"):
        shutil.copy(project.SOLUTION / "sp19" / "hog.py", subs / f"{name}.py")

    def removing_it_first(variant, submission, **options):
        shutil.rmtree(tempfile.gettempdir(), ignore_errors=True)   # the run's scratch folder, by the worker that grades
        return batch.grade_one(variant, submission, **options)
    summary = batch.grade_batch(subs, load_variant("sp19"), tmp_path / "out", jobs=2, isolation="process",
                                grade=removing_it_first)
    assert [result(tmp_path / "out", name)["output"][:300] for name in ("ada", "bo", "cy") if result(tmp_path / "out", name)["score"] != 23.0] == []
    assert (summary.graded, summary.failed) == (3, 0)   # a sandbox whose folder went under it was tried again
    assert [result(tmp_path / "out", name)["output"][:300] for name in ("ada", "bo", "cy") if result(tmp_path / "out", name)["score"] != 23.0] == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "out"]


@pytest.mark.slow
def test_sandboxes_of_a_batch_are_made_in_its_own_scratch_folder_which_goes_with_it(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    seen = []

    def records(variant, submission, **options):
        seen.append(tempfile.mkdtemp(prefix="hog-sandbox-"))
        return scored(variant, submission, **options)
    subs = tmp_path / "in"
    subs.mkdir()
    (subs / "ada.py").write_text("x = 1\n")
    batch.grade_batch(subs, load_variant("sp19"), tmp_path / "out", jobs=1, grade=lambda *a, **o: records(*a, **o))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "out"]


def started_batch(tmp_path: Path, count: int, *options: str):
    """``hog grade-batch`` of ``count`` copies of the fa18 reference with ``options``, running until its
    first result is written: the process, the folders (submissions, TMPDIR, OUTDIR) and its descendants."""
    subs, scratch, out = tmp_path / "in", tmp_path / "tmp", tmp_path / "out"
    subs.mkdir()
    scratch.mkdir()
    for number in range(count):
        shutil.copy(project.SOLUTION / "fa18" / "hog.py", subs / f"s{number:02d}.py")
    run = subprocess.Popen([sys.executable, "-m", "grader.cli", "grade-batch", str(subs), "--variant", "fa18",
                            *options, "--out", str(out)], cwd=project.ROOT, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "TMPDIR": str(scratch)})
    deadline = time.monotonic() + 300
    while not list(out.glob("*.json")) and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.05)
    return run, subs, scratch, out, pool._descendants(run.pid)


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_the_batch_keeping_what_is_graded_and_killing_every_worker_and_sandbox(tmp_path, signum):
    run, subs, scratch, out, started = started_batch(tmp_path, 8, "--jobs", "2")
    run.send_signal(signum)
    stdout, stderr = run.communicate(timeout=120)
    assert run.returncode == 128 + signum, stderr
    assert "Traceback" not in stderr
    assert f"Stopped by {signal.Signals(signum).name}: the results written are kept" in stdout
    kept = sorted(path.stem for path in out.glob("*.json"))
    assert 1 <= len(kept) < 8 and sorted(gradebook(out)) == kept
    assert all(result(out, name)["score"] == load_variant("fa18").points for name in kept)
    assert started and living(started) == []
    assert list(scratch.iterdir()) == []
    again = hog("grade-batch", str(subs), "--variant", "fa18", "--out", str(out))
    assert f"graded {8 - len(kept)}, skipped {len(kept)} already graded, 0 grader faults" in again.stdout


@pytest.mark.slow
def test_grade_batch_grades_with_an_okpy_suite_s_course_files_and_again_when_one_of_them_changes(tmp_path):
    """The suite's tests import the course's helpers and read its data: every submission is graded with them
    (on two workers), and a rerun after the course's data file changed (imported again) grades again."""
    course = tmp_path / "course"
    assert cli.main(["init", str(course), "--variant", "fa18"]) == 0
    okpy = tmp_path / "okpy"
    shutil.copytree(project.PACKAGE.parent / "tests" / "data" / "okpy" / "fa18", okpy)
    assert hog("--course", str(course), "import-ok", str(okpy), "--name", "ok").returncode == 0
    subs = tmp_path / "in"
    subs.mkdir()
    shutil.copy(project.SOLUTION / "fa18" / "hog.py", subs / "ada.py")
    shutil.copy(project.SOLUTION / "fa18" / "hog.py", subs / "bob.py")
    out = tmp_path / "out"
    run = ["--course", str(course), "grade-batch", str(subs), "--variant", "fa18", "--out", str(out), "--jobs", "2",
           "--suite", "ok"]
    assert "graded 2, skipped 0" in hog(*run).stdout
    assert [gradebook(out)[name]["score"] for name in ("ada", "bob")] == ["8.0", "8.0"]
    games = okpy / "tests" / "play.sol"
    games.write_text(games.read_text().replace("3; 2; 4 4 3; 110; 66", "3; 2; 4 4 3; 110; 67"))
    assert hog("--course", str(course), "import-ok", str(okpy), "--name", "ok").returncode == 0
    assert "graded 2, skipped 0" in hog(*run).stdout
    assert gradebook(out)["ada"]["Question 5"] == "1.5"


@pytest.mark.slow
def test_grade_batch_with_an_okpy_suite_scores_its_tests_and_regrades_when_the_suite_changes(tmp_path):
    """--suite NAME: the gradebook has a column per okpy test, named by its name; a rerun keeps the results
    graded with the same suite and grades again those graded with the kit's cases or with kit+NAME."""
    course = tmp_path / "course"
    assert cli.main(["init", str(course), "--variant", "sp19"]) == 0
    okpy = project.PACKAGE.parent / "tests" / "data" / "okpy" / "sp19"
    assert hog("--course", str(course), "import-ok", str(okpy), "--name", "ok").returncode == 0
    subs = tmp_path / "in"
    subs.mkdir()
    shutil.copy(project.SOLUTION / "sp19" / "hog.py", subs / "ada.py")
    shutil.copy(project.PACKAGE.parent / "tests" / "submissions" / "buggy" / "sp19_is_swap_function_object.py",
                subs / "bob.py")
    out = tmp_path / "out"
    run = ["--course", str(course), "grade-batch", str(subs), "--variant", "sp19", "--out", str(out), "--jobs", "2"]
    assert "graded 2, skipped 0" in hog(*run, "--suite", "ok").stdout
    rows = gradebook(out)
    assert (rows["ada"]["score"], rows["bob"]["score"], rows["bob"]["Question 7"]) == ("14.0", "12.0", "1.0")
    assert list(rows["ada"])[-7:] == [f"Question {n}" for n in range(1, 8)]
    assert "graded 0, skipped 2" in hog(*run, "--suite", "ok").stdout
    assert "graded 2, skipped 0" in hog(*run, "--suite", "kit+ok").stdout
    assert gradebook(out)["ada"]["score"] == str(float(load_variant("sp19").points + 14))
