"""The verbs that make a course's files: variants, init, build, cases, handout, assign, mint."""

from __future__ import annotations

from typing import Callable

from grader import project
from grader.project import ISOLATION_LEVELS
from grader.cli.options import variant_help


def add(add_verb: Callable, ids: str) -> None:
    """Add the verbs of this group; ``add_verb(name, help=...)`` gives each one's parser."""
    variant_id = variant_help(ids)
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
    assign.add_argument("--suite", metavar="NAME", help="the autograder grades with the okpy suite imported as "
                        "NAME (hog import-ok); kit+NAME: with the kit's cases too")

    imported = add_verb("import-ok", help="keep an okpy assignment's tests in the course folder, to grade with "
                                          "(hog grade --suite NAME)")
    imported.add_argument("folder", metavar="FOLDER", help="the okpy assignment: the folder holding its .ok config "
                                                           "and the test files it names")
    imported.add_argument("--name", metavar="NAME", help="the suite's name (default: the config's name, as a slug)")
    imported.add_argument("--solution", metavar="PATH", help="a reference hog.py: its answers, run in the sandbox, "
                                                             "unlock the locked cases (okpy keeps only their hashes)")
    imported.add_argument("--isolation", choices=ISOLATION_LEVELS, help="with --solution: the least isolation the "
                                                                        "reference runs under")

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
