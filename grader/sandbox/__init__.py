"""Run a student's hog.py against cases in a sandbox and bring back plain data.

A submission is untrusted code.  It may loop forever, sleep, exit, crash,
fork, allocate without end, write huge files, read the kit's own files, reach
the network, rebind builtins at import time, return objects that lie about
their value, write forged results to any descriptor it can find, or rewrite
the harness that runs it.  It never runs in the grader's process, and nothing
it does may turn a failure into a pass or move one case's result to another.

One module per layer, each readable alone:

=================  ==========================================================
``level``          choosing the isolation level (process < files < bubblewrap; container)
``namespaces``     bubblewrap: arguments and the start-up probe
``user``           a uid of its own per concurrent sandbox (root graders)
``landlock``       inside: Landlock, the file layer without namespaces
``syscall_filter`` inside: the seccomp filter, the same at every level
``limits``         inside: resource limits, parent-death signal, capabilities
``harness``        inside: captures builtins, imports hog, runs the cases
``channel``        the grader's bounded reading and rebuilding of results
``boot``           how the interpreter gets the harness (its compiled code, or its text)
``case_code``      the cases' steps compiled by the grader, once per process, sent beside their text
``child``          the child process's life and death, its pipes, its CPU time
``processes``      every process of a sandbox, found and killed
``early``          a sandbox started while the grader still reads the spec
``scratch``        the scratch folder and the checked arguments (later cases' too)
``scratch_space``  a run's scratch folder: held by a lock, made again when removed, where a uid can pass
``run``            the run loop: one submission's cases, in as few processes as it allows
``local``          ``run_cases`` here: the level, the scratch folder, a uid, a sandbox started early
``engine``         the container engine (Docker or Podman) and the kit's image name
``container``      the container level: one container per grading process, results as plain data
``inside``         the kit inside that container (``python3 -m grader.sandbox.inside``)
``entry``          ``run_cases`` at the level asked: ``local``'s, or ``container``'s
``model``          the data: Limits, StepKind, StepResult, CaseRun, SandboxReport
=================  ==========================================================

"inside" modules run only in the child: their text is joined into the
harness that ``boot`` gives the interpreter, so no file can stand in for them.
"""

from grader.sandbox.level import Level
from grader.sandbox.model import (NOT_RUN, SKIPPED_AFTER_TIMEOUT, TAMPERED, CaseRun, Limits, SandboxReport,
                                  SandboxUnavailable, StepKind, StepResult, cap)


def __getattr__(name: str):
    """``run_cases``, loaded when first asked for: it brings the cases, the reference and the spec, which a
    sandbox started early (``grader.sandbox.early``) does not need to start."""
    if name == "run_cases":
        from grader.sandbox.entry import run_cases
        return run_cases
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Limits", "StepKind", "StepResult", "CaseRun", "SandboxReport", "SandboxUnavailable", "Level",
           "run_cases", "cap", "NOT_RUN", "SKIPPED_AFTER_TIMEOUT", "TAMPERED"]
