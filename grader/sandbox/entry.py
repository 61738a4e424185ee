"""``run_cases``, the sandbox's one entry: the kit's own sandbox (``grader.sandbox.local``), or, when the
container level is named (``--isolation container``, ``HOG_SANDBOX=container``), the same sandbox inside a
container (``grader.sandbox.container``). Same arguments, same report, either way."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping, Sequence

from grader.sandbox import container, level, local, run, scratch
from grader.sandbox.early import Early
from grader.sandbox.level import Level
from grader.sandbox.model import CaseRun, Limits, SandboxReport


def run_cases(submission: Path, cases: Sequence[Sequence[str]], *,
              setup: Sequence[str] = ("from hog import *",),
              support_files: Mapping[str, str] = {}, limits: Limits = Limits(),
              names: Sequence[str] | None = None, groups: Sequence[str] | None = None,
              minimum: "str | Level | None" = None,
              on_result: "Callable[[int, CaseRun], object] | None" = None,
              early: Early | None = None, later: scratch.Later | None = None) -> SandboxReport:
    """See ``grader.sandbox.local.run_cases``: the arguments and the report are the same at every level (the
    container's sandbox is sent every case at once: ``later``'s are worked out first)."""
    if not level.container_named(minimum):
        return local.run_cases(submission, cases, setup=setup, support_files=support_files, limits=limits,
                               names=names, groups=groups, minimum=minimum, on_result=on_result, early=early,
                               later=later)
    checked, setup_steps, name_list = scratch.check_arguments(cases, setup, support_files, limits, names, groups)
    checked, groups = scratch.with_later(checked, None if groups is None else list(groups), later, setup_steps,
                                         name_list, limits)
    choice = level.choose(minimum)
    return container.run_cases(Path(submission), checked, setup_steps, support_files, limits, name_list, groups,
                               on_result, choice.engine, choice.image, run.STARTUP_SECONDS)
