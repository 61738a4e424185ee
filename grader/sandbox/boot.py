"""How the sandboxed interpreter gets its harness: compiled code down the control pipe, or the text.

The harness is tree_entry.py, limits.py, landlock.py, syscall_filter.py and harness.py joined
(``harness_text``), run with ``python -S -s -B -P -c``, so no file in the
submission's folder can stand in for any of it.  Compiling that text takes the
interpreter about 12 ms each start, so where the sandbox's interpreter is this
very one, the grader compiles it once, keeps the code in its signed cache
(``grader.project.signed_cache``), and starts the interpreter with ``-c BOOT`` instead:
BOOT reads the code's length and the code from the control pipe (before any
other message, and before anything of the submission's exists in the process)
and runs it.  Elsewhere the text goes on the command line as before.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from pathlib import Path

from grader.project import signed_cache

# The files joined, in this order, into the harness.
HARNESS_PARTS = ("tree_entry.py", "limits.py", "landlock.py", "syscall_filter.py", "harness.py")
HARNESS = Path(__file__).with_name("harness.py")
BOOT = """\
import marshal, os, sys
def _take(size):
    data = b""
    while len(data) < size:
        chunk = os.read(int(sys.argv[1]), size - len(data))
        if not chunk:
            os._exit(72)
        data += chunk
    return data
_harness = marshal.loads(_take(int.from_bytes(_take(8), "big")))
del _take
exec(_harness)
"""
# Compiled harnesses kept in the cache (one per harness text and Python version).
KEPT = 4
_made: dict[str, object] = {}


def harness_text() -> str:
    """The harness: its parts joined, then the call of main (read once per grader process)."""
    if "text" not in _made:
        folder = Path(__file__).parent
        parts = [(folder / name).read_text(encoding="utf-8") for name in HARNESS_PARTS]
        _made["text"] = "\n\n".join(parts) + "\n\nimport sys as _startup_sys\nmain(_startup_sys.argv[1:])\n"
    return _made["text"]


def start(python: str) -> tuple[list[str], bytes]:
    """(the interpreter's arguments after its options, the bytes to send before the configuration)."""
    code = compiled(python)
    if code is None:
        return ["-c", harness_text()], b""
    return ["-c", BOOT], len(code).to_bytes(8, "big") + code


def compiled(python: str) -> bytes | None:
    """The harness's code (marshal) for ``python``, or None when that is not this interpreter
    (marshal's format belongs to one Python version)."""
    if not same_interpreter(python):
        return None
    if "code" not in _made:
        _made["code"] = _cached_code(harness_text())
    return _made["code"]


def same_interpreter(python: str) -> bool:
    """Whether ``python`` is the grader's own interpreter (so code marshalled here loads there)."""
    return os.path.realpath(sys.executable) == os.path.realpath(python)


def _cached_code(text: str) -> bytes:
    key = hashlib.sha256(f"{sys.version}\n{text}".encode("utf-8")).hexdigest()[:24]
    return signed_cache.kept("harness", f"harness-{key}.marshal", key, "compiled harness",
                             lambda: marshal.dumps(compile(text, "<harness>", "exec", dont_inherit=True)),
                             load=lambda payload: payload, dump=lambda code: code,
                             keep=("harness-*.marshal", KEPT))
