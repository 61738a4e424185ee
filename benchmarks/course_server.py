"""The course server as the serve benchmark drives it: a course folder of its own (``hog init``, one assignment
per variant, students and staff), ``hog serve`` started as a subprocess (with the peak resident memory and CPU
time of its processes, sampled) and stopped, and HTTP as students and staff speak it."""

from __future__ import annotations

import contextlib
import csv
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from corpus import VARIANTS   # beside this script: the variants, in the order the benchmarks print them
from processes import cpu_seconds, descendants, resident   # beside it too

ROOT = Path(__file__).resolve().parent.parent


def hog(*args: str, cwd: Path, **options) -> subprocess.CompletedProcess:
    """``hog ARGS`` from this checkout, as a subprocess in ``cwd``."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], cwd=cwd, env=environment, check=True,
                          capture_output=True, text=True, timeout=600, **options)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# ------------------------------------------------------------------ the course


@dataclass
class Course:
    folder: Path
    port: int
    tokens: dict[str, str]        # student id → token
    staff: str                    # a member of staff's token
    variant_of: dict[str, str]    # student id → the variant they submit in


def make_course(scratch: Path, students: int, *, database: str | None = None, per_hour: int = 20,
                name: str = "Deadline burst") -> Course:
    """A course in ``scratch``/course with ``students`` students and a member of staff, each assignment taking
    ``per_hour`` submissions an hour from each; its people in ``database`` (default: SQLite in the course)."""
    hog("init", "course", "--name", name, cwd=scratch)
    folder, port = scratch / "course", free_port()
    due = (datetime.now(timezone.utc) + timedelta(days=1)).replace(microsecond=0).isoformat()
    tables = [f'\n[server]\nurl = "http://127.0.0.1:{port}"\n']
    for variant in VARIANTS:
        tables.append(f'\n[assignments.hog-{variant}]\nvariant = "{variant}"\ndue = "{due}"\n'
                      f"submissions_per_hour = {per_hour}\n")
    with (folder / "hog-course.toml").open("a", encoding="utf-8") as config:
        config.write("".join(tables))
    ids = [f"s{number:04d}" for number in range(students)]
    for name, rows in (("roster.csv", ids), ("staff.csv", ["ta0001"])):
        (folder / name).write_text("student_id,email\n" + "".join(f"{sid},{sid}@example.edu\n" for sid in rows))
    where = ("--database", database) if database else ()
    hog("serve", "people", "roster.csv", *where, cwd=folder)
    hog("serve", "people", "staff.csv", "--role", "staff", *where, cwd=folder)
    with (folder / "server" / "people.csv").open(newline="", encoding="utf-8") as handle:
        links = {row["student_id"]: row["link"].rsplit("/signin/", 1)[1] for row in csv.DictReader(handle)}
    staff = links.pop("ta0001")
    return Course(folder, port, links, staff, {sid: VARIANTS[number % len(VARIANTS)] for number, sid in enumerate(ids)})


# ------------------------------------------------------------------ the server


class Server:
    """``hog serve`` as a subprocess, and the peak resident memory of its processes, sampled. ``environment``:
    variables set for it besides this process's (a TMPDIR of its own)."""

    def __init__(self, course: Course, *grading: str, environment: dict[str, str] | None = None):
        environment = {**os.environ, "PYTHONPATH": str(ROOT), **(environment or {})}
        self.process = subprocess.Popen([sys.executable, "-m", "grader.cli", "serve", "--port", str(course.port),
                                         *grading], cwd=course.folder, env=environment, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, start_new_session=True)
        self.output: list[str] = []
        threading.Thread(target=lambda: self.output.extend(self.process.stdout), daemon=True).start()
        self.peak_total = self.peak_web = 0
        self.web_cpu = 0.0                # the web process's own CPU seconds so far (not its children's)
        self.grader_cpu = 0.0             # the grader process's own (claims, results; not its workers')
        self.sampling = True
        threading.Thread(target=self._sample, daemon=True).start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"hog serve stopped: {''.join(self.output)[-3000:]}")
            with contextlib.suppress(OSError):
                request("GET", course.port, "/")
                return
            time.sleep(0.2)
        raise SystemExit("hog serve did not answer within 120 s")

    def _sample(self) -> None:
        while self.sampling:
            tree = descendants(self.process.pid)
            sizes = {pid: resident(pid) for pid in tree}
            self.web_cpu = cpu_seconds(self.process.pid) or self.web_cpu
            grader = self.grader()
            self.grader_cpu = (cpu_seconds(grader) if grader else None) or self.grader_cpu
            self.peak_total = max(self.peak_total, sum(sizes.values()))
            self.peak_web = max(self.peak_web, sizes.get(self.process.pid, 0))
            time.sleep(0.25)

    def grader(self) -> int | None:
        """The grader process: the web process's child that multiprocessing spawned (its workers are its own)."""
        for pid in descendants(self.process.pid)[1:]:
            with contextlib.suppress(OSError):
                if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    return pid
        return None

    def stop(self) -> None:
        self.sampling = False
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)


# ------------------------------------------------------------------ HTTP, as students and staff speak it


def request(method: str, port: int, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
            timeout: float = 120) -> tuple[int, bytes, http.client.HTTPMessage, float]:
    """One request on a new connection: status, body, headers, seconds to the whole answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    started = time.perf_counter()
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        data = answer.read()
        return answer.status, data, answer.headers, time.perf_counter() - started
    finally:
        connection.close()


def sent(port: int, token: str, assignment: str, source: bytes,
         timeout: float = 120) -> tuple[int, bytes, http.client.HTTPMessage, float]:
    """``hog.py`` uploaded through the JSON API as submit.py sends it: the server's whole answer (``request``)."""
    boundary = uuid.uuid4().hex
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="hog.py"\r\n'
            f"Content-Type: text/x-python\r\n\r\n").encode() + source + f"\r\n--{boundary}--\r\n".encode()
    return request("POST", port, f"/api/assignments/{assignment}/submissions", body, {
        "Authorization": f"Bearer {token}", "Content-Type": f"multipart/form-data; boundary={boundary}"}, timeout)


def upload(port: int, token: str, assignment: str, source: bytes) -> tuple[int, float, int | None]:
    status, data, _, seconds = sent(port, token, assignment, source)
    ident = json.loads(data).get("id") if status == 202 else None
    return status, seconds, ident


def signed_in(port: int, token: str) -> str:
    """The session cookie a sign-in link sets."""
    _, _, headers, _ = request("GET", port, f"/signin/{token}")
    cookies = [value.split(";", 1)[0] for key, value in headers.items() if key.lower() == "set-cookie"]
    return "; ".join(cookies)
