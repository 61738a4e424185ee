"""Benchmark of the Hog contest's round robin, of a batch on a Dask cluster, and of the class report,
with in-run baselines.

1. A contest of COUNT strategies (always_roll(0..10), threshold strategies,
   strategies that roll more when behind, random tables) with the variant's
   rules: every pair exactly, both seats (``grader.contest.engine``), with one
   process and with two; next to it, one single-pair ``win_rate`` call measured
   in the same run, and the ratio of the contest's cost per matchup to it.
   A sample of pairs is checked against ``win_rate``.
2. fa19 (Feral Hogs: the state holds previous dice counts): COUNT entrants whose
   final strategies are 100x100 tables as students submit them (the optimal table
   with some of its cells changed, threshold and catch-up tables, random tables),
   with two processes (target: under 60 s), against the pair-by-pair cost of
   ``win_rate`` measured on a sample in the same run; the same tables replayed as
   sp19 pairs (target: fa19 at most 3x as costly); then the same contest on a local
   Dask cluster of two workers, and its leaderboard figures compared.
3. ``hog grade-batch`` of BATCH sp19 submissions: one process (the baseline), then a
   local Dask cluster of 1 and of 2 workers; results compared with the baseline's.
4. A cost model: matchups and seconds for N = 200, 2,000, 20,000 from the measured
   per-matchup costs.
5. ``hog report`` on REPORTS synthetic results written by this script.

    python benchmarks/contest.py [--count 200] [--variant sp19] [--batch 60] [--reports 200] [--no-cluster] [--docs]
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

from grader import project  # noqa: E402
from grader.classroom import batch, cluster
from grader.contest import engine  # noqa: E402
from grader.report import classroom, instructor  # noqa: E402
from grader.spec import load_variant  # noqa: E402
from grader.strategy.match import win_rate  # noqa: E402
from grader.reference.engine import rules_for  # noqa: E402
from grader.reference.hog_source import final_rows  # noqa: E402

CONTEST_TARGET = 60.0   # seconds, 200 strategies, sp19, on the 2-core machine
FERAL_TARGET = 60.0     # seconds, 200 fa19 entrants with students' tables, on the 2-core machine
REPLAY_TARGET = 3.0     # fa19 pairs at most this many times as costly as the same number of sp19 pairs
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


def student_tables(count: int, goal: int = 100, seed: int = 19) -> np.ndarray:
    """Final strategies as students submit them: the optimal table with 5-50% of its cells changed,
    Free Bacon thresholds, catch-up tables, and random tables, in turn."""
    optimal = np.array([[int(c, 16) for c in line] for line in final_rows(load_variant("fa19"))])
    rng = np.random.default_rng(seed)
    score, opponent = np.indices((goal, goal))
    bacon = 10 - np.minimum(opponent // 10 % 10, opponent % 10)
    tables = []
    for index in range(count):
        kind = index % 4
        if kind == 0:
            table = optimal.copy()
            changed = rng.random((goal, goal)) < rng.uniform(0.05, 0.5)
            table[changed] = rng.integers(0, 11, int(changed.sum()))
        elif kind == 1:
            table = np.where(bacon >= rng.integers(6, 11), 0, rng.integers(3, 8)) + 0 * score
        elif kind == 2:
            table = np.clip(rng.integers(3, 7) + (opponent - score) // rng.integers(5, 20), 1, 10)
        else:
            table = rng.integers(0, 11, size=(goal, goal))
        tables.append(table)
    return np.array(tables, dtype=np.intp)


def timed(function):
    """(seconds, result) of one call."""
    return best_of(1, function)


def feral(count: int, use_cluster: bool) -> dict:
    """fa19 entrants with students' tables: batched, pair by pair (sampled), replayed as sp19, on a cluster."""
    tables = student_tables(count)
    pairs = count * (count - 1) // 2
    fa19, sp19 = rules_for("fa19", 100), rules_for("sp19", 100)
    warm, _ = timed(lambda: engine.first_mover_matrix(fa19, tables[:2]))   # loads (or compiles) the loop
    seconds, first = timed(lambda: engine.first_mover_matrix(fa19, tables, jobs=2))
    rng = random.Random(3)
    sample = [tuple(rng.sample(range(count), 2)) for _ in range(4)]
    single, worst = [], 0.0
    for i, j in sample:
        spent, rate = timed(lambda: win_rate(fa19, tables[i].tolist(), tables[j].tolist()))
        single.append(spent)
        worst = max(worst, abs(rate.as_first - first[i, j]), abs(rate.as_second - (1 - first[j, i])))
    per_pair = sum(single) / len(single)
    replay, _ = timed(lambda: engine.first_mover_matrix(sp19, tables, jobs=2))
    print(f"fa19: {count} entrants with students' tables, {pairs} matchups, both seats, exact")
    print(f"  2 processes: {seconds:6.1f} s (target {FERAL_TARGET:g} s: {'met' if seconds <= FERAL_TARGET else 'MISSED'}); "
          f"per matchup {seconds / pairs * 1000:.2f} ms (the compiled loop loaded in {warm:.1f} s before)")
    print(f"  pair by pair (win_rate, {len(sample)} sampled pairs): {per_pair * 1000:.0f} ms a matchup; "
          f"{per_pair * pairs / 60:.0f} min for all; batched is {per_pair * pairs / seconds:.0f}x faster; "
          f"largest difference from win_rate {worst:.1e}")
    print(f"  the same tables as sp19 pairs: {replay:.1f} s; fa19 / sp19 = {seconds / replay:.2f} "
          f"(target at most {REPLAY_TARGET:g}: {'met' if seconds / replay <= REPLAY_TARGET else 'MISSED'})")
    # The issue's replay: 60 entrants' cached tables, 1,770 pairs, one process each, fa19 and sp19 taken in
    # turn twice (the best of each), so a burst of load on the shared machine does not decide the ratio.
    some = tables[:60]
    fa19_best = sp19_best = float("inf")
    for _ in range(2):
        fa19_best = min(fa19_best, timed(lambda: engine.first_mover_matrix(fa19, some))[0])
        sp19_best = min(sp19_best, timed(lambda: engine.first_mover_matrix(sp19, some))[0])
    ratio = fa19_best / sp19_best
    print(f"  replay of {len(some)} entrants' tables ({len(some) * (len(some) - 1) // 2:,} pairs, 1 process, best of 2 "
          f"taken in turn): fa19 {fa19_best:.2f} s, "
          f"sp19 {sp19_best:.2f} s, fa19 / sp19 = {ratio:.2f} "
          f"(target at most {REPLAY_TARGET:g}: {'met' if ratio <= REPLAY_TARGET else 'MISSED'})")
    figures = {"fa19": seconds / pairs, "sp19": replay / pairs}
    if use_cluster:
        started = time.perf_counter()
        with cluster.connect(workers=2) as two:
            up = time.perf_counter() - started
            engine.first_mover_matrix(fa19, tables[:2], cluster=two)
            there, spread = timed(lambda: engine.first_mover_matrix(fa19, tables, cluster=two))
        print(f"  local Dask cluster, 2 workers: {there:6.1f} s (started in {up:.1f} s), ratio to 2 processes "
              f"{there / seconds:.2f}; the same matrix: {'yes' if np.array_equal(spread, first) else 'NO'}")
    return figures


def batch_throughput(count: int) -> None:
    """grade-batch of COUNT sp19 submissions: one process, then a local cluster of 1 and 2 workers."""
    variant = load_variant("sp19")
    sources = sorted((project.ROOT / "tests" / "submissions").glob("*/sp19_*.py"))
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        submissions = root / "in"
        submissions.mkdir()
        for index in range(count):
            source = sources[index % len(sources)] if index % 2 else project.SOLUTION / "sp19" / "hog.py"
            (submissions / f"s{index:03d}.py").write_bytes(source.read_bytes())
        runs = [("one process (--jobs 1)", None)] + [(f"local Dask cluster, {n} worker{'s' * (n > 1)}", n)
                                                     for n in (1, 2)] + [("one process again", None)]
        measured, gradebook = [], None
        print(f"grade-batch: {count} sp19 submissions, files isolation, one seed (a cluster's time includes its "
              f"workers' cold start: imports, the reference, the cached hidden cases)")
        for index, (label, workers) in enumerate(runs):
            out = root / f"out-{index}"
            with cluster.connect(workers=workers) as where:
                seconds, summary = timed(lambda: batch.grade_batch(
                    submissions, variant, out, jobs=1, seed=7, progress=open(os.devnull, "w"), cluster=where))
            same = gradebook is None or (out / "gradebook.csv").read_bytes() == gradebook
            gradebook = gradebook or (out / "gradebook.csv").read_bytes()
            measured.append((label, seconds, summary.failed, same))
        baseline = (measured[0][1] + measured[-1][1]) / 2
        for label, seconds, failed, same in measured:
            print(f"  {label:32} {seconds:5.1f} s, {count / seconds:4.1f} a second, {baseline / seconds:.2f}x the "
                  f"baseline (the mean of the two one-process runs); {failed} grader faults; gradebook as the "
                  f"first run's: {'yes' if same else 'NO'}")


def cost_model(per_pair: dict) -> None:
    print("cost model (from the per-matchup costs above, 2 processes on 2 cores: core-seconds = 2 x wall):")
    for entrants in (200, 2_000, 20_000):
        matchups = entrants * (entrants - 1) // 2
        cells = ", ".join(f"{variant} {matchups * cost * 2 / 3600:.2f} core-hours "
                          f"({matchups * cost:.0f} s here, {matchups * cost * 2 / 64:.0f} s on 64 cores)"
                          for variant, cost in per_pair.items())
        print(f"  N = {entrants:6,}: {matchups:,} matchups: {cells}; the matrices {2 * entrants ** 2 * 8 / 2**30:.2f} GiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--variant", default="sp19")
    parser.add_argument("--batch", type=int, default=60)
    parser.add_argument("--no-cluster", action="store_true", help="leave out the Dask runs")
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

    per_pair = feral(args.count, not args.no_cluster)
    if not args.no_cluster:
        batch_throughput(args.batch)
    cost_model(per_pair)

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
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
