"""The ``hog`` command: argument parsing only; each verb calls one function."""

from __future__ import annotations

import argparse
import json
import sys

from grader import commands
from grader.assign import OutputError
from grader.build import BuildError
from grader.spec import SpecError

USAGE_ERROR = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own errors exit 2 with our wording
        self.print_usage(sys.stderr)
        self.exit(USAGE_ERROR, f"Error: {message}\n")


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="hog", description="Hog kit: specs, solutions, skeletons, cases and grading for Hog.")
    verbs = top.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    verbs.required = True

    verbs.add_parser("variants", help="list the variants (id, title, rules, seed file)")

    build = verbs.add_parser("build", help="generate solution/, skeleton/ (and docs/) from specs and sources")
    build.add_argument("--check", action="store_true", help="only report generated files that are stale; exit 1 if any")
    build.add_argument("--variant", action="append", help="only this variant (repeatable)")

    cases = verbs.add_parser("cases", help="list a variant's cases")
    cases.add_argument("variant", metavar="ID")
    cases.add_argument("--json", action="store_true", help="print a JSON list")

    handout = verbs.add_parser("handout", help="render a variant's handout (HTML or Markdown)")
    handout.add_argument("variant", metavar="ID")
    handout.add_argument("--format", choices=("html", "md"),
                         help="html or md (default: from the --out suffix, else html)")
    handout.add_argument("--out", metavar="PATH", help="write to this file (default: standard output)")

    assign = verbs.add_parser("assign", help="write the student folder and the autograder bundle of a variant")
    assign.add_argument("variant", metavar="ID")
    assign.add_argument("--out", metavar="DIR", required=True, help="a new or empty folder to write into")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.verb == "variants":
            return commands.variants(out=sys.stdout)
        if args.verb == "build":
            return commands.build(check=args.check, variants=args.variant, out=sys.stdout)
        if args.verb == "cases":
            return commands.cases(variant=args.variant, as_json=args.json, out=sys.stdout)
        if args.verb == "handout":
            return commands.handout(variant=args.variant, fmt=args.format, path=args.out, out=sys.stdout)
        if args.verb == "assign":
            return commands.assign(variant=args.variant, path=args.out, out=sys.stdout)
    except (SpecError, BuildError, OutputError) as error:
        print(f"Error: {error}", file=sys.stderr)
        return USAGE_ERROR
    raise AssertionError(f"verb {args.verb} has no handler")


if __name__ == "__main__":
    sys.exit(main())
