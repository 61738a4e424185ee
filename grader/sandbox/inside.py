"""The kit inside a grading container: ``python3 -m grader.sandbox.inside`` (``grader.sandbox.container``).

It says ``["ready", digest]``, then reads one JSON line per submission on its standard input (the
submission's files, the cases' steps, the setup, the support files, the limits) and grades each in a
sandbox of its own at ``files``, as the kit does on Linux: the cases' results as they come
(``["cases", [[number, run], ...]]``, a few at a time), then ``["report", report]``, or ``["fault", why]`` when the sandbox cannot
run (the grader outside makes that "grader failed"). It ends when its input does. It uses the standard
library and the sandbox alone: the image holds the kit without its requirements.
"""

from __future__ import annotations

import base64
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

from grader.errors import GraderFault, UsageError
from grader.project import package
from grader.sandbox import scratch
from grader.sandbox.container import encode_report, encode_run
from grader.sandbox.model import Limits
from grader.sandbox.local import run_cases

_NAME = re.compile(r"[A-Za-z0-9_\-]+\.py")
# Cases' results go out together, in one message at most this long after they came (each message through the
# engine's stream costs more than a case); the first at once (the final strategy's table: its rating starts on it).
FLUSH_SECONDS = 0.1


def main() -> int:
    answers = os.fdopen(os.dup(1), "wb", buffering=1 << 20)
    os.dup2(2, 1)           # whatever else writes to stdout (a warning, say) cannot break the answers
    waiting: list = []      # cases' results not sent yet
    flushed = [time.monotonic()]

    def send(message) -> None:
        answers.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        answers.flush()

    def send_waiting() -> None:
        if waiting:
            send(["cases", waiting[:]])
            waiting.clear()
        flushed[0] = time.monotonic()

    def sent(number: int, run) -> None:
        waiting.append([number, encode_run(run)])
        last[number] = run
        if number == 0 or time.monotonic() - flushed[0] >= FLUSH_SECONDS:
            send_waiting()

    send(["ready", package.digest()])
    for line in sys.stdin.buffer:
        last: dict = {}      # each case's result as last sent: the report leaves out what the grader has
        try:
            report = grade(json.loads(line), sent)
        except (GraderFault, UsageError, ValueError, TypeError, KeyError, OSError) as error:
            waiting.clear()
            send(["fault", f"{type(error).__name__}: {error}"])
            continue
        finally:
            _reap()
        send_waiting()
        send(["report", encode_report(report, last)])
    return 0


def grade(request: dict, on_result):
    """One submission's report, its files written to a folder of the private /tmp."""
    folder = Path(tempfile.mkdtemp(prefix="hog-submission-"))
    try:
        for name, data in request["files"].items():
            if not _NAME.fullmatch(name):
                raise ValueError(f"a submission file named {name!r}")
            (folder / name).write_bytes(base64.b64decode(data, validate=True))
        support = {name: base64.b64decode(data, validate=True) for name, data in request["support"].items()}
        return run_cases(folder, request["cases"], setup=request["setup"], support_files=support,
                         limits=Limits(**request["limits"]), names=request["names"], groups=request["groups"],
                         minimum="files", on_result=on_result)
    finally:
        scratch.remove(folder)


def _reap() -> None:
    """Wait for what the sandboxes left: this process is the container's first, so orphans come to it."""
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


if __name__ == "__main__":
    sys.exit(main())
