"""``run_cases`` with the kit's own sandbox on this machine: the level chosen, the scratch folder made and
handed to a uid of its own where there is one, a sandbox started early taken over; then the run loop
(``grader.sandbox.run``). ``grader.sandbox.entry`` calls it, and so does the kit inside a container
(``grader.sandbox.inside``)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Callable, Mapping, Sequence

from grader.sandbox import level, scratch as scratch_folder, scratch_space, tree, user
from grader.sandbox.early import Early, EarlyFailed
from grader.sandbox.level import Level
from grader.sandbox.model import CaseRun, Limits, SandboxReport, SandboxUnavailable
from grader.sandbox.run import Batch


def run_cases(submission: Path, cases: Sequence[Sequence[str]], *,
              setup: Sequence[str] = ("from hog import *",),
              support_files: Mapping[str, str] = {}, limits: Limits = Limits(),
              names: Sequence[str] | None = None, groups: Sequence[str] | None = None,
              minimum: "str | Level | None" = None,
              on_result: "Callable[[int, CaseRun], object] | None" = None,
              early: Early | None = None, later: scratch_folder.Later | None = None) -> SandboxReport:
    """Run each case (a list of steps typed at the >>> prompt) against a submission.

    ``submission`` is a hog.py file or a folder holding one (then the student's
    other top-level *.py files come along, except names in ``support_files``).
    Every case gets a CaseRun, in order, whatever happened.  Bad arguments
    raise TypeError, ValueError or FileNotFoundError with a message for the user.
    A submission whose files cannot be used (hog.py is a symbolic link, not a
    regular file, or unreadable) is the submission's fault, not the caller's:
    it is reported like an import error (``import_error`` says why, every case
    fails with it) and nothing is run.

    ``groups`` labels each case (e.g. with its question); once a case runs out of time, the later cases
    of its group are not run, so one endless loop costs one case's time limit per group, not per case.

    ``on_result(index, run)`` is called as each case's result comes in (again for a case run
    again after tampering); the report holds the final ones.

    ``minimum`` is the least isolation level accepted ("process", "files",
    "bubblewrap"; ``HOG_ISOLATION`` when it is None; default "process").  An
    unknown name raises UsageError; a level that cannot be reached, or a
    sandbox that fails to start twice, raises SandboxUnavailable (a GraderFault).

    ``early``: a sandbox started before the cases were known (``grader.sandbox.early``), used
    when it is for this submission at an accepted level and reaches "ready".

    ``later``: more cases, run after ``cases``, that ``later()`` gives with their groups; it is called
    once the sandbox has been sent its first cases, so that it works them out (the hidden cases of a
    fresh seed) while the sandbox runs those. The report holds every case, ``cases`` first.

    """
    checked, setup_steps, name_list = scratch_folder.check_arguments(cases, setup, support_files, limits, names, groups)
    started = early.take(Path(submission), support_files, level.minimum_from(minimum)) if early else None
    if started is not None:
        batch = Batch(started.folder, started.choice, None, checked, setup_steps, name_list, limits, groups,
                      on_result, first=started.handed_over(), later=later)
        try:
            return batch.run()
        except EarlyFailed:
            # bwrap cannot start here after all: the level is chosen as always, below
            checked, groups, later = batch.cases, batch.groups, batch.later
        finally:
            started.discard()
    choice = level.choose(minimum)
    try:
        hog, others = scratch_folder.submission_files(Path(submission))
    except scratch_folder.Unusable as problem:
        every, _ = scratch_folder.with_later(checked, groups, later, setup_steps, name_list, limits)
        return scratch_folder.not_run(every, str(problem))
    slot = user.acquire() if choice.uid_drop else None
    if slot is None and not choice.landlock:
        raise SandboxUnavailable(f"the files level without Landlock needs a uid of the sandbox's own, and all "
                                 f"{user.SLOTS} are taken ({user.SLOT_FOLDER}); grade fewer at a time")
    folder = None
    try:
        # Where the sandbox's uid can pass, in the run's scratch folder (made again if it was removed); in a
        # chroot tree, under its sandboxes/ (the uid is switched once inside, so the way there is the tree's).
        folder = Path(tempfile.mkdtemp(prefix=scratch_space.SANDBOX_PREFIX, dir=Path(choice.tree) / tree.SANDBOXES)) \
            if choice.tree else scratch_space.sandbox_folder(other_uid=slot is not None)
        try:
            # A folder for another uid stays closed (mkdtemp's 0700) until it is handed over.
            scratch_folder.prepare(folder, hog, others, support_files, opened=slot is None)
            if slot is not None:
                user.hand_over(folder, slot.uid)
            batch = Batch(folder, choice, slot and slot.uid, checked, setup_steps, name_list, limits, groups,
                          on_result, later=later)
            report = batch.run()
        except scratch_folder.Unusable as problem:
            every, _ = scratch_folder.with_later(checked, groups, later, setup_steps, name_list, limits)
            return scratch_folder.not_run(every, str(problem))
        except FileNotFoundError:
            if (folder / "hog.py").exists():
                raise
            report = None
        if not (folder / "hog.py").exists():   # its import may have failed for it: not the submission's doing
            raise SandboxUnavailable(f"the sandbox's folder {folder} was removed while the submission was graded: "
                                     "something removes the grader's temporary folders (a cleaner of /tmp?)")
        return report
    finally:
        if folder is not None:
            scratch_folder.remove(folder)
        if slot is not None:
            slot.release()
