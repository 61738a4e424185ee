"""A sandbox started before its cases are known, while the grader still reads the spec.

``hog grade`` knows the submission as soon as its command line is read, well
before it has the spec, the reference and the hidden cases.  ``Early`` starts
the sandbox's interpreter then, at the level it is expected to reach here:
bubblewrap, where bwrap is installed and no level is forced (``HOG_SANDBOX``).
The harness waits for its configuration, so nothing of the submission's runs
before ``run_cases`` sends it.  ``run_cases`` takes the started process when it
is for the same submission and support files at a level the caller accepts;
when that process does not reach "ready" (bwrap cannot start here), it is
dropped and the level is chosen as always, with the probe.  Whatever is not
taken is killed, and its folder removed, on leaving the ``with`` block.
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

from grader.sandbox import level, scratch, scratch_space
from grader.sandbox.child import Child, spawn
from grader.sandbox.level import Level
from grader.sandbox.model import SandboxUnavailable


class EarlyFailed(Exception):
    """The sandbox started early did not reach "ready"; args: why."""


class Early:
    def __init__(self, submission: Path, support_files: Mapping[str, str]):
        self.submission, self.support_files = Path(submission), dict(support_files)
        self.folder: Path | None = None
        self.child: Child | None = None
        self.choice = level.expected()
        if self.choice is None:
            return
        try:
            hog, others = scratch.submission_files(self.submission)
            self.folder = scratch_space.sandbox_folder()
            scratch.prepare(self.folder, hog, others, self.support_files)
            self.child = spawn(self.folder, self.choice)
        except (scratch.Unusable, OSError, SandboxUnavailable):
            self.discard()   # run_cases meets the problem again and says it

    def take(self, submission: Path, support_files: Mapping[str, str], least: Level) -> Early | None:
        """This sandbox, when it is running for these arguments at ``least`` or above; else None
        (and it is discarded)."""
        if self.child is not None and Path(submission) == self.submission \
                and dict(support_files) == self.support_files and self.choice.level >= least:
            return self
        self.discard()
        return None

    def handed_over(self) -> Child:
        """The started process, now the caller's to run (and to kill)."""
        child, self.child = self.child, None
        return child

    def discard(self) -> None:
        if self.child is not None:
            self.child.kill()
            self.child = None
        if self.folder is not None:
            scratch.remove(self.folder)
            self.folder = None

    def __enter__(self) -> Early:
        return self

    def __exit__(self, *_exception) -> None:
        self.discard()

