"""The ``hog`` command: argument parsing only; each verb calls one function."""

from __future__ import annotations

import argparse
import json
import os
import sys

from grader import commands
from grader.build import BuildError
from grader.errors import OutputError, UsageError
from grader.spec import SpecError, variant_ids

USAGE_ERROR = 2
BROKEN_PIPE = 128 + 13   # as a shell reports a process ended by SIGPIPE


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own errors exit 2 with our wording
        self.print_usage(sys.stderr)
        self.exit(USAGE_ERROR, f"Error: {message}\n")


def parser() -> argparse.ArgumentParser:
    ids = ", ".join(variant_ids())
    variant_id = f"the variant id, one of: {ids}"
    top = _Parser(prog="hog", description="Hog kit: specs, solutions, skeletons, cases and grading for Hog. "
                                          f"Variants: {ids}. 'hog VERB --help' explains a verb.")
    verbs = top.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    verbs.required = True

    verbs.add_parser("variants", help="list the variants (id, title, rules, seed file)")

    build = verbs.add_parser("build", help="generate solution/, skeleton/ (and docs/) from specs and sources")
    build.add_argument("--check", action="store_true", help="only report generated files that are stale; exit 1 if any")
    build.add_argument("--variant", action="append", metavar="ID",
                       help=f"only this variant (repeatable; default: all): {ids}")
    build.add_argument("--solve", action="store_true",
                       help="first recompute the optimal tables of the reference final_strategy (slow)")

    cases = verbs.add_parser("cases", help="list a variant's cases")
    cases.add_argument("variant", metavar="ID", help=variant_id)
    cases.add_argument("--json", action="store_true", help="print a JSON list")
    cases.add_argument("--hidden", action="store_true",
                       help="also list the hidden cases the grader generates (for instructors only)")

    handout = verbs.add_parser("handout", help="render a variant's handout (HTML or Markdown)")
    handout.add_argument("variant", metavar="ID", help=variant_id)
    handout.add_argument("--format", choices=("html", "md"),
                         help="html or md (default: from the --out suffix, else html)")
    handout.add_argument("--out", metavar="PATH", help="write to this file (default: standard output)")
    handout.add_argument("--with-strategy", action="store_true",
                         help="instructor's edition: add the picture of the optimal strategy (it gives away "
                              "the final strategy question; the Markdown edition writes it beside --out)")

    grade = verbs.add_parser("grade", help="grade a submission (a hog.py or a folder holding one)")
    grade.add_argument("submission", metavar="SUBMISSION",
                       help="a hog.py, or a folder holding one (with the student's other .py files)")
    grade.add_argument("--variant", metavar="ID",
                       help=f"the rules to grade under (default: the variant hog.py declares): {ids}")
    grade.add_argument("--force-variant", action="store_true",
                       help="grade under --variant even when hog.py declares another variant")
    grade.add_argument("--format", choices=("text", "json", "junit"), default="text",
                       help="text (as the ok client), json (Gradescope) or junit (default: text)")
    grade.add_argument("--output", metavar="FILE", help="write the report here (default: standard output)")

    test = verbs.add_parser("test", help="run the public cases against your hog.py (all questions, or -q N)")
    test.add_argument("-q", "--question", metavar="N", help="only this question, e.g. 3 or 05")
    test.add_argument("--variant", metavar="ID", help=f"the variant (default: read from hog.py): {ids}")
    test.add_argument("path", nargs="?", default=".", metavar="PATH", help="hog.py or its folder (default: .)")

    batch = verbs.add_parser("grade-batch", help="grade every submission in a folder, in parallel, resumably")
    batch.add_argument("folder", metavar="DIR", help="a folder of submissions: a folder or a .py file each")
    batch.add_argument("--variant", required=True, metavar="ID", help=variant_id)
    batch.add_argument("--jobs", type=int, default=2, metavar="N", help="submissions graded at once (default 2)")
    batch.add_argument("--out", required=True, metavar="OUTDIR", help="where results and gradebook.csv go")

    analyze = verbs.add_parser("analyze", help="exact win rates and optimal play of a variant")
    analyze.add_argument("variant", metavar="ID", help=variant_id)
    analyze.add_argument("--json", action="store_true", help="print a JSON object")
    analyze.add_argument("--goal", type=int, metavar="N", help="the goal score (default: the spec's)")

    assign = verbs.add_parser("assign", help="write the student folder and the autograder bundle of a variant")
    assign.add_argument("variant", metavar="ID", help=variant_id)
    assign.add_argument("--out", metavar="DIR", required=True, help="a new or empty folder to write into")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.verb == "variants":
            return commands.variants(out=sys.stdout)
        if args.verb == "build":
            return commands.build(check=args.check, variants=args.variant, solve=args.solve, out=sys.stdout)
        if args.verb == "cases":
            return commands.cases(variant=args.variant, as_json=args.json, hidden=args.hidden, out=sys.stdout)
        if args.verb == "handout":
            return commands.handout(variant=args.variant, fmt=args.format, path=args.out,
                                    with_strategy=args.with_strategy, out=sys.stdout)
        if args.verb == "grade":
            return commands.grade(submission=args.submission, variant=args.variant, fmt=args.format,
                                  output=args.output, force_variant=args.force_variant, out=sys.stdout)
        if args.verb == "test":
            return commands.test(path=args.path, variant=args.variant, question=args.question, out=sys.stdout)
        if args.verb == "grade-batch":
            return commands.grade_batch(folder=args.folder, variant=args.variant, jobs=args.jobs,
                                        out_dir=args.out, out=sys.stdout)
        if args.verb == "analyze":
            return commands.analyze(variant=args.variant, as_json=args.json, goal=args.goal, out=sys.stdout)
        if args.verb == "assign":
            return commands.assign(variant=args.variant, path=args.out, out=sys.stdout)
    except (SpecError, BuildError, OutputError, UsageError) as error:
        print(f"Error: {error}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:
        # The reader went away (``hog cases sp19 | head``): stop quietly, as a shell tool does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE
    raise AssertionError(f"verb {args.verb} has no handler")


if __name__ == "__main__":
    sys.exit(main())
