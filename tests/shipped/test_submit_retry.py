"""``python3 submit.py`` against a real course server (the app on a local port) that cannot take an upload
for a moment: a 503 is tried again after its Retry-After, saying so, and the upload is then accepted; a 429
is not tried again."""

from __future__ import annotations

import errno
import os
import threading

import pytest

pytest.importorskip("flask", reason="the course server needs pip install 'hog-kit[server]'")

pytestmark = pytest.mark.slow   # each runs submit.py in a process of its own (1.2-1.3 s)

from werkzeug.serving import make_server                                       # noqa: E402

from grader.server.store import uploads   # noqa: E402
from grader.server.web import faults
from tests.server.conftest import app, course, database, issue, migrated_sqlite   # noqa: E402, F401 (fixtures)
from tests.shipped.test_submit import run_submit, student_folder               # noqa: E402


@pytest.fixture
def local_server(app):
    """The app on a free local port, in a thread; its address."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(10)


def test_a_503_is_tried_again_after_its_retry_after_and_the_upload_is_then_accepted(app, local_server, tmp_path,
                                                                                      monkeypatch):
    token = issue(app, "s1")["s1"]
    real, failures = os.fsync, []

    def full_once(descriptor):
        if not failures:
            failures.append(descriptor)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(descriptor)

    monkeypatch.setattr(uploads.os, "fsync", full_once)
    monkeypatch.setattr(faults, "DISK_RETRY", 1)
    done = run_submit(student_folder(tmp_path, local_server), "--wait", "0", env={"HOG_TOKEN": token})
    assert done.returncode == 3, done.stderr   # accepted, not graded yet (no grader here)
    assert ("The course server cannot take hog.py now (the course server's disk is full (No space left on device): "
            "nothing was stored; try again later, and tell your course staff); trying again in 1 s (1 of 5, "
            "Ctrl-C stops).") in done.stderr
    assert "Submitted hog.py to hog: submission 1, queued." in done.stderr and len(failures) == 1


def test_past_the_limit_per_hour_submit_py_is_not_tried_again(app, local_server, tmp_path):
    token = issue(app, "s1")["s1"]
    script = student_folder(tmp_path, local_server)
    for _ in range(4):   # the course's submissions_per_hour
        assert run_submit(script, "--wait", "0", env={"HOG_TOKEN": token}).returncode == 3
    done = run_submit(script, "--wait", "0", env={"HOG_TOKEN": token})
    assert done.returncode == 1 and "submit.py: too many submissions for now" in done.stderr
    assert "trying again" not in done.stderr
