"""The ``hog`` command: argument parsing only; each verb calls one function."""

from __future__ import annotations

import argparse
import errno
import gc
import importlib
import os
import signal
import sys
from pathlib import Path
from typing import Callable

from grader import project
from grader.errors import HogError, UsageError
from grader.project import ISOLATION_LEVELS as LEVELS
from grader.project import variant_ids

USAGE_ERROR = 2
GRADER_FAULT = 1
BROKEN_PIPE = 128 + 13   # as a shell reports a process ended by SIGPIPE
STDOUT_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)   # standard output cannot take more
ISOLATION_HELP = ("the least isolation the submission may run under: process, files (the kit's files out of its "
                  "reach), bubblewrap, or container (files in Docker or Podman: macOS, Windows); below it, grading "
                  "fails (exit 1) instead of scoring (default: $HOG_ISOLATION, else the course config's, else files)")
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
"""The cores this process may run on: a batch's workers by default."""
SEED_HELP = "draw the hidden cases from this seed (default: a fresh one, recorded in the report)"


def _verbs(group: str):
    """The module of a group of verbs (``grader/commands/<group>.py``), imported only when one of its
    verbs runs: ``hog --help`` and argument errors import none of what the verbs need."""
    return importlib.import_module(f"grader.commands.{group}")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own errors exit 2 with our wording
        self.print_usage(sys.stderr)
        self.exit(USAGE_ERROR, f"Error: {message}\n")


class _Version(argparse.Action):
    """``hog --version``: the version is read from the package metadata only when asked for."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"hog-kit {project.version()}")
        parser.exit(0)


class _Unused:
    """A verb that is not on the command line: its arguments are not needed to parse it."""

    def add_argument(self, *args, **kwargs) -> None:
        pass

    def add_mutually_exclusive_group(self, *args, **kwargs) -> "_Unused":
        return self
    add_subparsers = add_parser = add_mutually_exclusive_group


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``hog`` command line; with ``only`` (the verb a command line names), that verb alone:
    building every verb's arguments and help costs more than a short run should pay."""
    ids = ", ".join(variant_ids())
    variant_id = f"the variant id, one of: {ids}"
    top = _Parser(prog="hog", description="Hog kit: specs, solutions, skeletons, cases and grading for Hog. "
                                          f"Variants: {ids}. 'hog VERB --help' explains a verb.")
    top.add_argument("--version", action=_Version, nargs=0, help="print the kit's version and exit")
    top.add_argument("--course", metavar="DIR", help="the course folder (default: $HOG_COURSE, else the nearest "
                                                     f"folder from here upward holding {project.CONFIG_NAME})")
    verbs = top.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    verbs.required = True

    def add_verb(name: str, **options):
        return verbs.add_parser(name, **options) if only in (None, name) else _Unused()

    add_verb("variants", help="list the variants (id, title, rules, seed file)")

    init = add_verb("init", help=f"make a course folder: {project.CONFIG_NAME} (points, isolation, thresholds) "
                                 "and the folders its files go to")
    init.add_argument("folder", metavar="DIR", help="a new or empty folder")
    init.add_argument("--variant", action="append", metavar="ID",
                      help="a built-in variant the course uses (repeatable; default: all)")
    init.add_argument("--name", default="", metavar="NAME", help="the course's name, e.g. 'CS 61A Fall 2026'")

    build = add_verb("build", help="generate solution/, skeleton/ (and docs/) from specs and sources")
    build.add_argument("--check", action="store_true", help="only report generated files that are stale; exit 1 if any")
    build.add_argument("--variant", action="append", metavar="ID",
                       help=f"only this variant (repeatable; default: all): {ids}")
    build.add_argument("--solve", action="store_true",
                       help="first recompute the optimal tables of the reference final_strategy (slow)")

    cases = add_verb("cases", help="list a variant's cases")
    cases.add_argument("variant", metavar="ID", help=variant_id)
    cases.add_argument("--json", action="store_true", help="print a JSON list")
    cases.add_argument("--hidden", action="store_true",
                       help="also list the hidden cases the grader generates (for instructors only)")
    cases.add_argument("--seed", type=int, metavar="N",
                       help="with --hidden: the hidden cases drawn from seed N, as a report records it (default 0)")

    handout = add_verb("handout", help="render a variant's handout (HTML or Markdown)")
    handout.add_argument("variant", metavar="ID", help=variant_id)
    handout.add_argument("--format", choices=("html", "md"),
                         help="html or md (default: from the --out suffix, else html)")
    handout.add_argument("--out", metavar="PATH", help="write to this file (default: standard output)")
    handout.add_argument("--with-strategy", action="store_true",
                         help="instructor's edition: add the picture of the optimal strategy (it gives away "
                              "the final strategy question; the Markdown edition writes it beside --out)")

    grade = add_verb("grade", help="grade a submission (a hog.py or a folder holding one)")
    grade.add_argument("submission", metavar="SUBMISSION",
                       help="a hog.py, or a folder holding one (with the student's other .py files)")
    grade.add_argument("--variant", metavar="ID",
                       help=f"the rules to grade under (default: the variant hog.py declares): {ids}")
    grade.add_argument("--force-variant", action="store_true",
                       help="grade under --variant even when hog.py declares another variant")
    grade.add_argument("--format", choices=("text", "json", "junit", "prairielearn"), default="text",
                       help="text (as the ok client), json (Gradescope), junit, or prairielearn (PrairieLearn's "
                            "external grading results) (default: text)")
    grade.add_argument("--output", metavar="FILE", help="write the report here (default: standard output)")
    grade.add_argument("--isolation", choices=LEVELS, help=ISOLATION_HELP)
    grade.add_argument("--seed", type=int, metavar="N", help=SEED_HELP)

    test = add_verb("test", help="run the public cases against your hog.py (all questions, or -q N)")
    test.add_argument("-q", "--question", metavar="N", help="only this question, e.g. 3 or 05")
    test.add_argument("-u", "--unlock", action="store_true",
                      help="first unlock the locked cases (say what each shows), then run the cases")
    test.add_argument("--variant", metavar="ID", help=f"the variant (default: read from hog.py): {ids}")
    test.add_argument("path", nargs="?", default=".", metavar="PATH", help="hog.py or its folder (default: .)")

    batch = add_verb("grade-batch", help="grade every submission in a folder, in parallel, resumably")
    batch.add_argument("folder", metavar="DIR", help="a folder of submissions: a folder or a .py file each")
    batch.add_argument("--variant", metavar="ID", help=variant_id + " (required unless --manifest)")
    batch.add_argument("--manifest", metavar="M",
                       help="manifest.csv of hog assign --roster: grade each student under their own variant")
    batch.add_argument("--jobs", type=int, default=CORES, metavar="N",
                       help=f"submissions graded at once (default: this machine's cores, {CORES})")
    batch.add_argument("--out", required=True, metavar="OUTDIR", help="where results and gradebook.csv go")
    batch.add_argument("--isolation", choices=LEVELS, help=ISOLATION_HELP)
    batch.add_argument("--seed", type=int, metavar="N", help=SEED_HELP.replace("a fresh one", "a fresh one per run"))
    batch.add_argument("--report", action="store_true", help="then write the class report (as hog report OUTDIR)")
    add_cluster_options(batch, "submissions graded in chunks")

    report = add_verb("report", help="the class report of a grade-batch: OUTDIR/report.html and report.json")
    report.add_argument("out", metavar="OUTDIR")
    report.add_argument("--canvas", metavar="EXPORT",
                        help="Canvas's gradebook export (Grades, Export): also write OUTDIR/canvas.csv, the scores "
                             "as one assignment column to import, matched by SIS User ID or SIS Login ID")
    report.add_argument("--assignment", metavar="NAME",
                        help="with --canvas: the Canvas column's name (default: Hog (VARIANT))")
    report.add_argument("--manifest", metavar="M",
                        help="with --canvas: manifest.csv of hog assign --roster, to match a submission named "
                             "after a student id or email")

    similar = add_verb("similarity", help="compare every pair of submissions by structure: similarity.html and "
                                          "similarity.json (a lead for a human, not a verdict)")
    similar.add_argument("folder", metavar="DIR", help="a folder of submissions, as for grade-batch")
    similar.add_argument("--out", required=True, metavar="OUTDIR", help="where similarity.html and .json go")
    similar.add_argument("--variant", metavar="ID",
                         help=f"the variant of a submission whose hog.py declares none: {ids}")
    similar.add_argument("--manifest", metavar="M",
                         help="manifest.csv of hog assign --roster: each student's variant (instead of hog.py's)")
    similar.add_argument("--threshold", type=float, metavar="T",
                         help="list the pairs scoring at least T, from 0 to 1 (default 0.5)")
    similar.add_argument("--max-share", type=int, metavar="M",
                         help="ignore code found in more than M submissions (default 10, as MOSS)")

    contest = add_verb("contest", help="play every submission's final_strategy against every other, "
                                               "exactly, both seats: leaderboard.csv and contest.html")
    contest.add_argument("folder", metavar="DIR")
    contest.add_argument("--variant", metavar="ID", help="the rules every entrant plays under (required unless "
                                                        "--manifest)")
    contest.add_argument("--manifest", metavar="M", help="manifest.csv of hog assign --roster: each variant's "
                                                         "entrants play among themselves, in OUTDIR/<variant>/")
    contest.add_argument("--out", required=True, metavar="OUTDIR",
                         help="where leaderboard.csv, contest.html and the cached tables go")
    contest.add_argument("--jobs", type=int, default=2, metavar="N", help="processes (default 2)")
    contest.add_argument("--results", metavar="OUTDIR",
                         help="an earlier grade-batch's OUTDIR: reuse the tables it recorded")
    contest.add_argument("--isolation", choices=LEVELS, help=ISOLATION_HELP)
    add_cluster_options(contest, "blocks of pairs played")

    analyze = add_verb("analyze", help="exact win rates and optimal play of a variant")
    analyze.add_argument("variant", metavar="ID", help=variant_id)
    analyze.add_argument("--json", action="store_true", help="print a JSON object")
    analyze.add_argument("--goal", type=int, metavar="N", help="the goal score (default: the spec's)")

    play = add_verb("play", help="play a variant in the browser on the reference rules")
    play.add_argument("variant", metavar="ID")
    play.add_argument("--vs", default="human", metavar="WHO",
                      help="human (default), final, optimal or always:N: who plays Player 1")
    play.add_argument("--goal", type=int, metavar="N", help="the goal score (default: the spec's)")
    play.add_argument("--port", type=int, default=0, metavar="N", help="port on 127.0.0.1 (default: any free)")
    play.add_argument("--no-browser", action="store_true", help="print the address only")
    play.add_argument("--submission", metavar="HOG.PY",
                      help="play on a student's hog.py (run only in the sandbox), every turn judged against the "
                           "reference rules")
    play.add_argument("--isolation", choices=LEVELS,
                      help="the least isolation the submission's code runs under, as grading: process, files, "
                           "bubblewrap or container; below it, no move is played (default: $HOG_ISOLATION, else "
                           "the course config's, else files)")
    container = add_verb("container", help="build this kit's image for --isolation container (Docker or Podman)")
    container.add_argument("action", choices=("build",), help="build: now (the first grading at that level does)")
    container.add_argument("--base", metavar="IMAGE", help="the image to build on, with Python 3.11 or later "
                                                           "(default: $HOG_CONTAINER_BASE, else python:3.11-slim)")
    add_verb("doctor", help="which isolation levels this machine can reach, and why not")
    assign = add_verb("assign", help="write the student folder and the autograder bundle of a variant")
    assign.add_argument("variant", metavar="ID", nargs="?", help=variant_id + " (none with --roster)")
    assign.add_argument("--out", metavar="DIR", required=True, help="a new or empty folder to write into")
    assign.add_argument("--platform", choices=("gradescope", "prairielearn"), default="gradescope",
                        help="gradescope (default): the student folder, autograder.zip and a GitHub workflow; "
                             "prairielearn: a PrairieLearn question and its grader image")
    assign.add_argument("--roster", metavar="ROSTER.csv",
                        help="mint a variant per section or student of this roster (a header row; a student id "
                             "and an email column; a section column for --by section)")
    assign.add_argument("--by", choices=("section", "student"), default="section",
                        help="with --roster: one variant per section (default) or per student")
    assign.add_argument("--seed", type=int, default=0, metavar="N",
                        help="with --roster: the course seed the variants are minted from (default 0)")
    assign.add_argument("--like", default="sp19", metavar="ID",
                        help="with --roster: the layout and questions every variant follows (default sp19)")
    assign.add_argument("--assignment", metavar="NAME", help="add submit.py to the student folder: it submits "
                        "hog.py to this assignment of the course server (hog serve)")
    assign.add_argument("--server", metavar="URL", help="with --assignment: the address students reach the "
                        "server at (default: the course config's [server] url)")
    mint = add_verb("mint", help="compose a new balanced variant from the rule catalogue (docs/rules.md)")
    mint.add_argument("variant", metavar="ID")
    mint.add_argument("--seed", type=int, default=0, metavar="N", help="draws the choices not given (default 0)")
    mint.add_argument("--zero-dice", default="", metavar="RULE", help="a zero-dice rule id from docs/rules.md")
    mint.add_argument("--swap", default="", metavar="RULE", help="a swap rule id from docs/rules.md")
    mint.add_argument("--bonus", default="", metavar="RULE", help="a turn bonus id, or 'none'")
    mint.add_argument("--goal", type=int, default=100, metavar="N", help="the goal score (default 100)")
    mint.add_argument("--like", default="sp19", metavar="ID", help="the variant whose layout and questions to follow")
    mint.add_argument("--band", type=float, nargs=2, default=(0.45, 0.55), metavar=("LOW", "HIGH"),
                      help="the optimal first player's win rate must lie in this band (default 0.45 0.55)")
    mint.add_argument("--force", action="store_true", help="replace specs/ID.yaml if it exists")
    serve = add_verb("serve", help="the course server: students submit, graded at once (pip install 'hog-kit[server]')")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1, this machine)")
    serve.add_argument("--port", type=int, default=8000, metavar="N", help="the port (default 8000; 0: any free)")
    serve.add_argument("--jobs", type=int, default=CORES, metavar="N", help="submissions graded at once (default: the cores)")
    add_cluster_options(serve, "submissions graded")
    actions = serve.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser)
    people = actions.add_parser("people", help="a new sign-in link for each person of a roster: server/people.csv")
    people.add_argument("roster", metavar="ROSTER.csv", help="a roster as for hog assign --roster")
    people.add_argument("--role", choices=("student", "staff"), default="student", help="(default: student)")
    regrade = actions.add_parser("regrade", help="grade every submission of an assignment again")
    regrade.add_argument("assignment", metavar="ASSIGNMENT", help="an [assignments.NAME] of the course config")
    for each in (serve, people, regrade):
        each.add_argument("--database", metavar="URL", help="sqlite:///PATH or postgresql://... (default: SQLite in server/)")
    return top


def add_cluster_options(verb: argparse.ArgumentParser, what: str) -> None:
    where = verb.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help=f"a Dask scheduler (e.g. tls://10.0.0.5:8786, with the certificates of Dask's "
                            f"distributed.comm.tls configuration): {what} on its workers "
                            f"(pip install 'hog-kit[cluster]')")
    where.add_argument("--workers", type=int, metavar="N",
                       help=f"start a local Dask cluster of N worker processes, which only this command can use "
                            f"(TLS with a certificate of its own): {what} there")


# verb → handler: the parsed arguments become the keyword arguments of one function of grader.commands.
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
    "grade": lambda args: _verbs("grading").grade(submission=args.submission, variant=args.variant, fmt=args.format,
                                         output=args.output, isolation=args.isolation, seed=args.seed,
                                         force_variant=args.force_variant, out=sys.stdout),
    "test": lambda args: _verbs("grading").test(path=args.path, variant=args.variant, question=args.question,
                                       out=sys.stdout, unlock=args.unlock),
    "grade-batch": lambda args: _verbs("batch").grade_batch(folder=args.folder, variant=args.variant, jobs=args.jobs,
                                                     out_dir=args.out, isolation=args.isolation, seed=args.seed,
                                                     report=args.report, manifest=args.manifest, scheduler=args.scheduler,
                                                     workers=args.workers, out=sys.stdout),
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
                                                      by=args.by, seed=args.seed, like=args.like, out=sys.stdout),
    "serve": lambda args: _verbs("serve").run(
        action=args.action, host=args.host, port=args.port, database=args.database, jobs=args.jobs,
        scheduler=args.scheduler, workers=args.workers, roster=getattr(args, "roster", None),
        role=getattr(args, "role", None), assignment=getattr(args, "assignment", None), out=sys.stdout),
}


def exit_status(error: HogError) -> int:
    """The exit status of an error the user is told about: 2 for usage errors (bad input,
    a spec, a file that cannot be written), 1 for a fault of the kit."""
    return USAGE_ERROR if isinstance(error, UsageError) else GRADER_FAULT


# The verbs that grade what a folder holds: a course config inside it is never read.
GRADED = {"grade": "submission", "grade-batch": "folder", "contest": "folder"}


def _before_verb(argv: list[str]) -> tuple[str | None, str | None]:
    """What a command line gives before its verb: ``--course DIR`` (read first: the verb list's help names
    the course's variants), and the verb itself (its first word that is no option nor --course's value),
    each None if absent or unknown."""
    course, words = None, iter(argv)
    for word in words:
        if word == "--course":
            course = next(words, None)
        elif word.startswith("--course="):
            course = word.split("=", 1)[1]
        elif not word.startswith("-"):
            return course, (word if word in HANDLERS else None)
    return course, None


def _choose_place(args: argparse.Namespace) -> None:
    """The course this run is for; a grading verb passes over a course config inside what it grades."""
    graded = getattr(args, GRADED[args.verb]) if args.verb in GRADED else None
    graded = Path(graded) if graded else None
    if graded is not None and graded.name == "hog.py":
        graded = graded.parent   # a student's hog.py: its folder is the submission, config and all
    place = project.use(args.course, graded=graded)
    for ignored in place.ignored:
        print(f"Note: ignored {ignored}: a course config inside what is graded is never read (using "
              f"{project.display(place.config) if place.config else 'the built-in defaults'})", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    course, verb = _before_verb(argv)
    try:
        project.use(course)
    except HogError as error:
        print(f"Error: {error}", file=sys.stderr)
        return exit_status(error)
    args = parser(verb).parse_args(argv)
    try:
        _choose_place(args)
        status = HANDLERS[args.verb](args)
        sys.stdout.flush()
        return status
    except HogError as error:
        print(f"Error: {error}", file=sys.stderr)
        return exit_status(error)
    except BrokenPipeError:
        # The reader went away (``hog cases sp19 | head``): stop quietly, as a shell tool does.
        _drop_stdout()
        return BROKEN_PIPE
    except OSError as error:
        if error.filename is not None or error.errno not in STDOUT_FULL:
            raise  # not standard output: a bug of the kit
        # Standard output cannot be written (``hog grade ... > /dev/full``): one line, nothing half-said.
        _drop_stdout()
        print(f"Error: cannot write to standard output: {error.strerror}", file=sys.stderr)
        return GRADER_FAULT
    except KeyboardInterrupt as stop:
        number = getattr(stop, "signum", signal.SIGINT)
        print(f"Stopped by {signal.Signals(number).name}.", file=sys.stderr)
        return 128 + number


def _drop_stdout() -> None:
    """Send what is left in standard output's buffer nowhere, so that exiting does not fail again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def run() -> None:
    """The ``hog`` command (and ``python -m grader.cli``): ``main``, then exit with its status."""
    status = main()
    # The process ends here. What it made stays alive until then, so the interpreter's last garbage
    # collection need not walk it all: with NumPy and a variant's rules loaded that walk is about 30 ms
    # of a grade's wall time. Exit handlers and the flushing of standard output run as usual.
    gc.freeze()
    sys.exit(status)


if __name__ == "__main__":
    run()
