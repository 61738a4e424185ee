"""Benchmark of the Hog contest's round robin and of the class report, with in-run baselines.

1. A contest of COUNT strategies (always_roll(0..10), threshold strategies,
   strategies that roll more when behind, random tables) with the variant's
   rules: every pair exactly, both seats (``grader.contest.engine``), with one
   process and with two; next to it, one single-pair ``win_rate`` call measured
   in the same run, and the ratio of the contest's cost per matchup to it.
   A sample of pairs is checked against ``win_rate``.
2. fa19 (Feral Hogs, played pair by pair): a smaller contest, its cost per matchup,
   and what COUNT strategies would take at that cost (marked as extrapolated).
3. ``hog report`` on REPORTS synthetic results written by this script.

    python benchmarks/contest.py [--count 200] [--variant sp19] [--feral-count 12] [--reports 200]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader.contest import engine  # noqa: E402
from grader.report import classroom, instructor  # noqa: E402
from grader.spec import load_variant  # noqa: E402
from grader.strategy.match import win_rate  # noqa: E402
from grader.engine import rules_for  # noqa: E402

CONTEST_TARGET = 60.0   # seconds, 200 strategies, sp19, on the 2-core machine
REPORT_TARGET = 2.0     # seconds, hog report on 200 results


def strategies(count: int, goal: int, seed: int = 61) -> np.ndarray:
    """A mix as a class would submit: always_roll, thresholds, catch-up strategies, random tables."""
    rng = np.random.default_rng(seed)
    score, opponent = np.indices((goal, goal))
    bacon = 1 + np.minimum(opponent // 10 % 10, opponent % 10)
    tables = [np.full((goal, goal), n) for n in range(11)]
    for cutoff in range(3, 11):
        for n in (3, 4, 5, 6, 7):
            tables.append(np.where(bacon >= cutoff, 0, n))
    for step in (5, 8, 10, 15, 20):
        for base in (3, 4, 5, 6):
            tables.append(np.clip(base + (opponent - score) // step, 1, 10))
    while len(tables) < count:
        tables.append(rng.integers(0, 11, size=(goal, goal)))
    return np.array(tables[:count], dtype=np.intp)


def best_of(repeats: int, function):
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
    return min(times), result


def contest(variant: str, count: int, jobs: int) -> tuple[float, np.ndarray, np.ndarray]:
    rules = rules_for(variant, 100)
    tables = strategies(count, 100)
    started = time.perf_counter()
    first = engine.first_mover_matrix(rules, tables, jobs=jobs)
    return time.perf_counter() - started, first, tables


def single_pair(variant: str, tables: np.ndarray) -> float:
    rules = rules_for(variant, 100)
    mine, theirs = tables[-1].tolist(), tables[-2].tolist()
    win_rate(rules, mine, theirs)
    seconds, _ = best_of(5, lambda: win_rate(rules, mine, theirs))
    return seconds


def check(variant: str, tables: np.ndarray, first: np.ndarray, pairs: int = 6) -> float:
    rules = rules_for(variant, 100)
    rng = random.Random(7)
    worst = 0.0
    for _ in range(pairs):
        i, j = rng.sample(range(len(tables)), 2)
        rate = win_rate(rules, tables[i].tolist(), tables[j].tolist())
        worst = max(worst, abs(rate.as_first - first[i, j]), abs(rate.as_second - (1 - first[j, i])))
    return worst


def synthetic_results(out: Path, count: int, seed: int = 5) -> None:
    """COUNT results as grade-batch writes them, with plausible scores, failures and win rates."""
    variant = load_variant("sp19")
    rng = random.Random(seed)
    (out / instructor.FOLDER).mkdir(parents=True)
    for index in range(count):
        name = f"student{index:03d}"
        skill = rng.random()
        graded_from = {"variant": "sp19", "submission_sha256": f"{index:064x}", "cases": "k", "kit": "bench"}
        tests, questions = [], []
        for question in variant.questions:
            full = rng.random() < 0.4 + 0.6 * skill
            score = question.points if full else 0.0
            tests.append({"name": f"Question {question.label}: {question.title}", "number": question.label,
                          "score": score, "max_score": question.points,
                          "status": "passed" if full else "failed", "output": "", "visibility": "visible"})
            failed = [] if full else [
                {"case": f"sp19-q{question.number}-{'hidden-' if rng.random() < 0.5 else ''}{rng.randint(1, 6)}",
                 "hidden": False, "step": 0, "got": rng.choice(["(12, 8)", "None", "7", "(0, 0)", "True"])}
                for _ in range(rng.randint(1, 4))]
            questions.append({"number": question.label, "score": score, "max_score": question.points,
                              "failed": failed})
        seconds = round(rng.uniform(1.5, 6.0), 3)
        result = {"score": sum(t["score"] for t in tests), "max_score": variant.points, "execution_time": seconds,
                  "output": "", "tests": tests, "graded_from": graded_from}
        rate = round(rng.uniform(0.45, 0.72), 6)
        private = {"format": 1, "variant": "sp19", "isolation": "bubblewrap", "seconds": seconds,
                   "import_error": None, "grader_error": None, "questions": questions,
                   "final_strategy": {"table": instructor.encode_table(
                       [[rng.randint(0, 10) for _ in range(100)] for _ in range(100)]),
                                      "win_rate": rate, "message": ""},
                   "graded_from": graded_from}
        (out / f"{name}.json").write_text(json.dumps(result, indent=2))
        (out / instructor.FOLDER / f"{name}.json").write_text(json.dumps(private))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--variant", default="sp19")
    parser.add_argument("--feral-count", type=int, default=12)
    parser.add_argument("--reports", type=int, default=200)
    args = parser.parse_args()

    pairs = args.count * (args.count - 1) // 2
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores "
          f"(the ratios hold under load; the seconds do not)")
    print(f"Contest: {args.count} strategies, {args.variant}, goal 100, {pairs} matchups, both seats, exact")
    for jobs in (1, 2):
        seconds, first, tables = contest(args.variant, args.count, jobs)
        single = single_pair(args.variant, tables)
        per_pair = seconds / pairs
        print(f"  {jobs} process{'es' if jobs > 1 else ''}: {seconds:6.1f} s (target {CONTEST_TARGET:g} s: "
              f"{'met' if seconds <= CONTEST_TARGET else 'MISSED'}); per matchup {per_pair * 1000:.2f} ms; "
              f"one win_rate call {single * 1000:.2f} ms; ratio {per_pair / single:.3f}; "
              f"pair by pair would take {single * pairs:.0f} s")
    print(f"  largest difference from win_rate on 6 sampled pairs: {check(args.variant, tables, first):.1e}")

    feral = args.feral_count
    feral_pairs = feral * (feral - 1) // 2
    seconds, first, tables = contest("fa19", feral, 2)
    single = single_pair("fa19", tables)
    print(f"fa19 (pair by pair, 2 processes: the state holds previous dice counts): {feral} strategies, {feral_pairs} matchups "
          f"in {seconds:.1f} s, {seconds / feral_pairs * 1000:.1f} ms per matchup "
          f"(one win_rate call {single * 1000:.1f} ms); {args.count} strategies extrapolated: "
          f"{seconds / feral_pairs * pairs / 60:.0f} min")

    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        synthetic_results(out, args.reports)
        seconds, _ = best_of(3, lambda: classroom.write(out))
        size = (out / "report.html").stat().st_size
        print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        print(f"hog report on {args.reports} results: {seconds:.2f} s (target {REPORT_TARGET:g} s: "
              f"{'met' if seconds <= REPORT_TARGET else 'MISSED'}), report.html {size / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
