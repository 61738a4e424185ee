"""Each verb's handler: the parsed arguments become the keyword arguments of one function of
``grader.commands``."""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
from pathlib import Path
from typing import Callable


def _verbs(group: str):
    """The module of a group of verbs (``grader/commands/<group>.py``), imported only when one of its
    verbs runs: ``hog --help`` and argument errors import none of what the verbs need."""
    return importlib.import_module(f"grader.commands.{group}")


# A grade's process lives a fraction of a second and makes little cyclic garbage, but the collector's passes over
# its young objects (its modules, spec and cases: about 50 of them) took 7-10 ms of its CPU. It now collects after
# this many new objects rather than 700: none while grading a reference.
GRADE_COLLECTION_THRESHOLD = 50_000


def _grade(args: argparse.Namespace) -> int:
    """``hog grade``, its sandbox started before the grading verbs' modules load (``grader.commands.starting``)."""
    gc.set_threshold(GRADE_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])
    from grader.commands import starting
    with starting.started(Path(args.submission)) as early:
        return _verbs("grading").grade(submission=args.submission, variant=args.variant, fmt=args.format,
                                       output=args.output, isolation=args.isolation, seed=args.seed,
                                       force_variant=args.force_variant, out=sys.stdout, early=early,
                                       suite=args.suite)


HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "variants": lambda args: _verbs("authoring").variants(out=sys.stdout),
    "init": lambda args: _verbs("authoring").init(folder=args.folder, variants=args.variant, name=args.name,
                                                  out=sys.stdout),
    "build": lambda args: _verbs("authoring").build(check=args.check, variants=args.variant, solve=args.solve,
                                         out=sys.stdout),
    "cases": lambda args: _verbs("authoring").cases(variant=args.variant, as_json=args.json, hidden=args.hidden,
                                                    seed=args.seed, out=sys.stdout),
    "handout": lambda args: _verbs("authoring").handout(variant=args.variant, fmt=args.format, path=args.out,
                                             with_strategy=args.with_strategy, out=sys.stdout),
    "grade": lambda args: _grade(args),
    "test": lambda args: _verbs("grading").test(path=args.path, variant=args.variant, question=args.question,
                                       out=sys.stdout, unlock=args.unlock),
    "grade-batch": lambda args: _verbs("batch").grade_batch(folder=args.folder, variant=args.variant, jobs=args.jobs,
                                                     out_dir=args.out, isolation=args.isolation, seed=args.seed,
                                                     report=args.report, manifest=args.manifest, scheduler=args.scheduler,
                                                     workers=args.workers, suite=args.suite, out=sys.stdout),
    "report": lambda args: _verbs("batch").class_report(out_dir=args.out, canvas=args.canvas,
                                                        assignment=args.assignment, manifest=args.manifest,
                                                        out=sys.stdout),
    "similarity": lambda args: _verbs("batch").similarity(folder=args.folder, out_dir=args.out,
                                                          variant=args.variant, manifest=args.manifest,
                                                          threshold=args.threshold, max_share=args.max_share,
                                                          out=sys.stdout),
    "contest": lambda args: _verbs("strategy").contest(folder=args.folder, variant=args.variant, out_dir=args.out,
                                             jobs=args.jobs, results=args.results, isolation=args.isolation,
                                             manifest=args.manifest, scheduler=args.scheduler, workers=args.workers,
                                             out=sys.stdout),
    "analyze": lambda args: _verbs("strategy").analyze(variant=args.variant, as_json=args.json, goal=args.goal,
                                             out=sys.stdout),
    "play": lambda args: _verbs("strategy").play(variant=args.variant, vs=args.vs, goal=args.goal, port=args.port,
                                       browser=not args.no_browser, submission=args.submission,
                                       isolation=args.isolation, out=sys.stdout),
    "mint": lambda args: _verbs("authoring").mint(variant=args.variant, seed=args.seed, zero_dice=args.zero_dice,
                                       swap=args.swap, bonus=args.bonus, goal=args.goal, like=args.like,
                                       band=tuple(args.band), force=args.force, out=sys.stdout),
    "container": lambda args: _verbs("container").build(action=args.action, base=args.base, out=sys.stdout),
    "doctor": lambda args: _verbs("container").doctor(out=sys.stdout),
    "assign": lambda args: _verbs("authoring").assign(variant=args.variant, path=args.out, roster=args.roster,
                                                      platform=args.platform, server=args.server,
                                                      assignment=args.assignment,
                                                      by=args.by, seed=args.seed, like=args.like, suite=args.suite,
                                                      out=sys.stdout),
    "import-ok": lambda args: _verbs("okpy_import").import_ok(folder=args.folder, name=args.name,
                                                              solution=args.solution, isolation=args.isolation,
                                                              out=sys.stdout),
    "serve": lambda args: _verbs("lti").run(
        action=args.lti_action, issuer=getattr(args, "issuer", None), client_id=getattr(args, "client_id", None),
        deployment_id=getattr(args, "deployment_id", None), auth_url=getattr(args, "auth_url", None),
        token_url=getattr(args, "token_url", None), jwks_url=getattr(args, "jwks_url", None),
        lms_url=getattr(args, "lms_url", None), contexts=tuple(getattr(args, "contexts", ())),
        context_id=getattr(args, "context_id", None),
        trust_email=getattr(args, "trust_email", None), service_origins=tuple(getattr(args, "service_origin", ())),
        switch=getattr(args, "switch", None), new_id=getattr(args, "new_id", None),
        roster_id=getattr(args, "roster_id", None), database=args.database, out=sys.stdout)
    if args.action == "lti" else _verbs("serve").run(
        action=args.action, host=args.host, port=args.port, database=args.database, jobs=args.jobs,
        scheduler=args.scheduler, workers=args.workers, roster=getattr(args, "roster", None),
        role=getattr(args, "role", None), assignment=getattr(args, "assignment", None),
        folder=getattr(args, "folder", None), user=getattr(args, "user", None),
        groups_csv=getattr(args, "groups_csv", None), out=sys.stdout),
}

