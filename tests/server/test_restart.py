"""``hog serve`` killed with SIGKILL (web process and grader alike) in the middle of a burst, then started
again: every accepted submission is graded, once, and nothing accepted is lost."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

from grader import project
from tests.server.conftest import SOLUTION, issue, make_app

pytestmark = pytest.mark.slow
WAIT_SECONDS = 240


def start(course: Path, log: Path, database: str | None = None) -> tuple[subprocess.Popen, str]:
    """``hog serve`` on a free port (over ``database``, else SQLite in the course); the process and its address."""
    environment = {**os.environ, "PYTHONPATH": str(project.PACKAGE.parent)}
    process = subprocess.Popen([sys.executable, "-m", "grader.cli", "--course", str(course), "serve", "--port", "0",
                                "--jobs", "2", *(["--database", database] if database else [])],
                               stdout=subprocess.PIPE, stderr=log.open("ab"), text=True, env=environment)
    line = process.stdout.readline()
    found = re.search(r"at (http://127\.0\.0\.1:\d+) ", line)
    assert found, (line, log.read_text())
    return process, found[1]


def post(base: str, token: str, content: bytes) -> dict:
    """A submission as submit.py sends one: multipart, field ``file``, a Bearer token."""
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"hog.py\"\r\n"
            f"Content-Type: text/x-python\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(f"{base}/api/assignments/hog/submissions", data=body, method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": f"multipart/form-data; boundary={boundary}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 202
        return json.load(answer)


def get(base: str, token: str, path: str):
    request = urllib.request.Request(f"{base}{path}", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def state(app, log: Path) -> str:
    """What a failure shows: the server's log and each submission's row (who claimed it, how often)."""
    with app.config["hog.settings"].engine.connect() as connection:
        rows = connection.exec_driver_sql("SELECT id, status, attempt, grader FROM submissions ORDER BY id").all()
    return "\n".join([log.read_text(), *map(str, rows)])


def children(pid: int) -> list[int]:
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(each) for each in text.split()]


def test_a_server_and_grader_killed_mid_burst_grade_every_accepted_submission_once_after_a_restart(
        course, any_database, tmp_path):
    app = make_app(course, any_database)
    tokens = issue(app, "s1", "s2", "s3")
    log = tmp_path / "serve.log"
    server, base = start(course, log, any_database)
    accepted: dict[str, list[int]] = {sid: [] for sid in tokens}
    content = SOLUTION.read_bytes()
    try:
        for sid in ("s1", "s2"):
            for _ in range(4):
                accepted[sid].append(post(base, tokens[sid], content)["id"])
        graders = children(server.pid)
        assert graders, log.read_text()
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline and not any(   # killed while a submission is being graded
                s["status"] == "grading" for sid in ("s1", "s2") for s in get(base, tokens[sid], "/api/submissions")):
            time.sleep(0.05)
        for pid in [server.pid, *graders]:
            os.kill(pid, signal.SIGKILL)
        server.wait(10)
        server, base = start(course, log, any_database)
        for _ in range(4):   # the burst goes on while the jobs of the killed grader are graded again
            accepted["s3"].append(post(base, tokens["s3"], content)["id"])
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            seen = {sid: get(base, token, "/api/submissions") for sid, token in tokens.items()}
            if all(s["status"] == "graded" for listed in seen.values() for s in listed):
                break
            time.sleep(1)
        for sid, listed in seen.items():
            assert [s["id"] for s in listed] == accepted[sid]   # nothing lost, nothing made twice
            assert [s["status"] for s in listed] == ["graded"] * 4, state(app, log)
            assert [s["result"]["score"] for s in listed] == [23.0] * 4
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)
    assert server.returncode == 128 + signal.SIGTERM
    settings = app.config["hog.settings"]
    with settings.engine.connect() as connection:
        rows = connection.exec_driver_sql("SELECT status, attempt, result IS NOT NULL FROM submissions").all()
    assert len(rows) == 12 and all(status == "graded" and has for status, _, has in rows)
    assert any(attempt > 1 for _, attempt, _ in rows)   # some were claimed by the killed grader, then again
