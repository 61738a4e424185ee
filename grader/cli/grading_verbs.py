"""The verbs that grade and play: grade, test, grade-batch, report, similarity, contest, analyze, play."""

from __future__ import annotations

from typing import Callable

from grader.cli.options import CORES, ISOLATION_HELP, SEED_HELP, SUITE_HELP, add_cluster_options, variant_help
from grader.project import ISOLATION_LEVELS as LEVELS


def add(add_verb: Callable, ids: str) -> None:
    """Add the verbs of this group; ``add_verb(name, help=...)`` gives each one's parser."""
    variant_id = variant_help(ids)
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
    grade.add_argument("--suite", metavar="NAME", help=SUITE_HELP)
    grade.add_argument("--no-diagnoses", action="store_true",
                       help="show failing cases without their diagnosis (the first wrong step and the rules "
                            "deciding it)")

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
    batch.add_argument("--suite", metavar="NAME", help=SUITE_HELP)
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
