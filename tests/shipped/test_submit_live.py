"""``python3 submit.py`` in a student folder against a live ``hog serve`` (SQLite, in a course folder of its
own): it prints the grade and keeps the token asked for, ``--status`` shows the latest result, and each
refusal (a wrong token, no such assignment, too large, too many, closed) or a grade not ready in time is
said in words, nothing submitted where it is refused."""

from __future__ import annotations

import ast
import json
import os
import signal
import stat
import subprocess
import sys
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

import grader

pytest.importorskip("flask", reason="the course server needs pip install 'hog-kit[server]'")
pytestmark = pytest.mark.slow

CHECKOUT = Path(grader.__file__).resolve().parent.parent
START_SECONDS = 120


def hog(*args: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "grader.cli", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(CHECKOUT)}, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


class Live:
    """A course folder and its hog serve: the server's address, each person's token."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.process = subprocess.Popen([sys.executable, "-m", "grader.cli", "serve", "--port", "0", "--jobs", "2"],
                                        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        env={**os.environ, "PYTHONPATH": str(CHECKOUT)}, start_new_session=True)
        first = self.process.stdout.readline()   # "serving ... at http://127.0.0.1:PORT (public address ...)"
        assert " at http://127.0.0.1:" in first, first + self.process.stdout.read()
        self.url = first.split(" at ", 1)[1].split(" ", 1)[0]
        rows = (folder / "server" / "people.csv").read_text().splitlines()[1:]
        self.tokens = {row.split(",")[0]: row.rsplit("/signin/", 1)[1] for row in rows}

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def submissions(self, person: str) -> list[dict]:
        request = urllib.request.Request(f"{self.url}/api/submissions",
                                         headers={"Authorization": f"Bearer {self.tokens[person]}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("live")
    hog("init", "cs88", "--variant", "fa18", "--name", "CS 88", cwd=scratch)
    folder = scratch / "cs88"
    now = datetime.now(timezone.utc).replace(microsecond=0)
    with (folder / "hog-course.toml").open("a") as config:
        config.write(f'\n[assignments.hog]\nvariant = "fa18"\ndue = {(now + timedelta(days=7)).isoformat()}\n'
                     f'\n[assignments.quota]\nvariant = "fa18"\ndue = {(now + timedelta(days=7)).isoformat()}\n'
                     f'submissions_per_hour = 1\n'
                     f'\n[assignments.closed]\nvariant = "fa18"\nopens = {(now - timedelta(days=9)).isoformat()}\n'
                     f'due = {(now - timedelta(days=2)).isoformat()}\n')
    (folder / "roster.csv").write_text("student_id,email\n" + "".join(f"{sid},{sid}@example.edu\n"
                                                                   for sid in ("ada", "bob", "cyd", "dee")))
    hog("serve", "people", "roster.csv", cwd=folder)
    server = Live(folder)
    try:
        yield server
    finally:
        server.stop()


def student_folder(live: Live, assignment: str = "hog") -> Path:
    """A student folder of hog assign --server --assignment (an assignment the config may not have is
    written in by hand, as an out-of-date submit.py would have it)."""
    out = live.folder / "release" / f"{assignment}-{len(list((live.folder / 'release').iterdir()))}"
    declared = assignment in ("hog", "quota", "closed")
    hog("assign", "fa18", "--out", str(out), "--server", live.url, "--assignment",
        assignment if declared else "hog", cwd=live.folder)
    if not declared:
        script = out / "student" / "submit.py"
        script.write_text(script.read_text().replace("ASSIGNMENT = 'hog'", f"ASSIGNMENT = {assignment!r}"))
    return out / "student"


def submit(folder: Path, *args: str, token: str | None = None, typed: str = "") -> subprocess.CompletedProcess:
    """python3 submit.py as a student runs it in their folder; ``token`` in HOG_TOKEN, else ``typed``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("HOG_", "PYTHON"))}
    if token is not None:
        env["HOG_TOKEN"] = token
    return subprocess.run([sys.executable, "submit.py", *args], cwd=folder, capture_output=True, text=True,
                          input=typed, env=env, timeout=START_SECONDS + 300)


def test_a_submission_prints_its_grade_and_the_token_typed_once_is_kept(live):
    folder = student_folder(live)
    done = submit(folder, typed=f"{live.url}/signin/{live.tokens['ada']}\n")   # the whole link, pasted
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Submission ") and lines[0].endswith(": graded")
    assert lines[2] == "Hog (CS 61A Fall 2018 rules): hog.py"
    assert "Score: 0/23" in lines and "Question 1 > Case q01-1" in lines   # the skeleton, its first failure
    assert "Submitted hog.py to hog: submission" in done.stderr
    token = folder / ".hog-token"
    assert token.read_text() == live.tokens["ada"] + "\n" and stat.S_IMODE(token.stat().st_mode) == 0o600
    (graded,) = live.submissions("ada")
    assert graded["status"] == "graded" and graded["result"]["score"] == 0

    status = submit(folder, "--status")   # the token from .hog-token now
    assert status.returncode == 0, status.stderr
    assert status.stdout == done.stdout


def test_unlock_py_answers_in_the_folder_are_handed_in_with_hog_py_and_count(live):
    from grader.shipped.student import unlock
    from grader.spec import load_variant
    from tests.shipped.test_unlock import answers_of
    folder, variant = student_folder(live), load_variant("fa18")
    first = next(iter(unlock.questions(folder).values()))   # every locked item of the first question, answered
    unlock.save_progress({item["id"]: answers_of(variant, item) for item in first}, folder)
    done = submit(folder, token=live.tokens["dee"])
    assert done.returncode == 0, done.stderr
    assert "Submitted hog.py and .hog_unlock.json to hog: submission" in done.stderr
    (graded,) = live.submissions("dee")
    states = {test["number"]: test["status"] for test in graded["result"]["tests"] if test["number"].endswith(".u")}
    label = variant.question(first[0]["question"]).label
    assert states.pop(f"{label}.u") == "passed"
    assert states and set(states.values()) == {"failed"}   # the questions not unlocked


def test_status_before_any_submission_says_so(live):
    done = submit(student_folder(live), "--status", token=live.tokens["cyd"])
    assert done.returncode == 0 and done.stdout == "No submission to hog yet: python3 submit.py uploads your hog.py.\n"


def test_a_wrong_token_is_refused_and_nothing_is_kept(live):
    folder = student_folder(live)
    done = submit(folder, typed="not-a-token\n")
    assert done.returncode == 1
    assert done.stderr.startswith("submit.py: your token was refused (the server says: ")
    assert "check that you typed the token of your latest sign-in link" in done.stderr
    assert not (folder / ".hog-token").exists()
    done = submit(folder, token="not-a-token")
    assert "set HOG_TOKEN to the token of your sign-in link" in done.stderr


def test_a_grade_not_ready_in_time_is_still_accepted(live):
    before = len(live.submissions("bob"))
    done = submit(student_folder(live), "--wait", "0", token=live.tokens["bob"])
    assert done.returncode == 3, done.stderr
    assert "is accepted and queued, not graded within 0 s. It will be graded all the same: run python3 " \
           "submit.py --status later to see its result." in done.stderr
    assert len(live.submissions("bob")) == before + 1


def test_an_assignment_the_server_does_not_have_is_said_so(live):
    done = submit(student_folder(live, "proj9"), token=live.tokens["bob"])
    assert done.returncode == 1
    assert "submit.py: the server has no assignment proj9 (the server says: " in done.stderr


def test_a_file_too_large_is_refused_with_the_servers_message(live):
    folder = student_folder(live)
    (folder / "hog.py").write_text("#" * (2 << 20))
    before = len(live.submissions("bob"))
    done = submit(folder, token=live.tokens["bob"])
    assert done.returncode == 1
    assert "submit.py: hog.py is too large for the server (the server says: " in done.stderr
    assert "nothing was submitted" in done.stderr and len(live.submissions("bob")) == before


def test_too_many_submissions_and_a_closed_assignment_are_refused_with_the_servers_message(live):
    folder = student_folder(live, "quota")
    assert submit(folder, "--wait", "0", token=live.tokens["bob"]).returncode in (0, 3)
    done = submit(folder, token=live.tokens["bob"])
    assert done.returncode == 1
    assert "submit.py: too many submissions for now (the server says: " in done.stderr
    closed = submit(student_folder(live, "closed"), token=live.tokens["bob"])
    assert closed.returncode == 1
    assert "submit.py: hog.py was refused (the server says: " in closed.stderr
    assert "nothing was submitted" in closed.stderr


def test_the_folder_submit_py_is_filled_in_with_the_live_address(live):
    script = (student_folder(live) / "submit.py").read_text()
    values = {node.targets[0].id: ast.literal_eval(node.value) for node in ast.parse(script).body
              if isinstance(node, ast.Assign) and node.targets[0].id in ("SERVER", "ASSIGNMENT")}
    assert values == {"SERVER": live.url, "ASSIGNMENT": "hog"}
