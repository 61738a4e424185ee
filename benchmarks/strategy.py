"""Benchmark of the exact strategy engine (grader/strategy) against sampling with the reference play.

Per variant, at goal 100: the time to tabulate the rules from the reference
solution, to solve the optimal strategy, to compute one exact match and one
exact win rate (going first and second), the peak memory of a solve, and the
time a make_averaged-style estimate with the reference ``play`` needs for
+-0.001 at 95% confidence (about 960,000 games), extrapolated linearly from a
smaller number of games actually played. Every figure is measured in this run.

    python benchmarks/strategy.py [--variants sp19 fa19] [--games 2000] [--repeats 3] [--docs]
"""

from __future__ import annotations

import argparse
import math
import random
import shlex
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader import reference  # noqa: E402
from grader.reference.engine import exact_match, rules_for, solve, win_rate  # noqa: E402
from grader.strategy import always_roll_table  # noqa: E402

VARIANTS = ("sp19", "nju24", "nju21", "fa19", "fa18")
# Targets (seconds): optimal solve and one exact win rate; fa19's state is 121 times larger.
SOLVE_TARGET = {"fa19": 0.250}
RATE_TARGET = {"fa19": 0.100}
DEFAULT_SOLVE_TARGET, DEFAULT_RATE_TARGET = 0.025, 0.020
GAMES_FOR_0_001 = math.ceil(1.96 ** 2 * 0.25 / 0.001 ** 2)  # worst case p = 1/2


def best_of(repeats: int, function):
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
    return min(times), result


def measure(variant: str, games: int, repeats: int) -> dict:
    goal = 100
    started = time.perf_counter()
    rules = rules_for(variant, goal)
    tabulate = time.perf_counter() - started
    solves = [solve(rules) for _ in range(repeats)]
    optimal = solves[-1]
    solve_time = min(result.solve_seconds for result in solves)
    projection = min(getattr(result, "projection_seconds", 0.0) for result in solves)
    tracemalloc.start()
    solve(rules)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    baseline = always_roll_table(rules_for(variant).baseline, goal)
    other = always_roll_table(6 if rules_for(variant).baseline == 4 else 4, goal)
    match_time, _ = best_of(repeats, lambda: exact_match(rules, other, baseline))
    rate_time, rate = best_of(repeats, lambda: win_rate(rules, optimal.table, baseline))
    hog = reference.load(variant)
    table = optimal.table
    strategy = lambda score, opponent_score: table[score][opponent_score]  # noqa: E731
    base = hog.always_roll(rules_for(variant).baseline)
    random.seed(2024)
    started = time.perf_counter()
    wins = 0
    for game in range(games):
        first = game % 2 == 0  # half the games going first, half second, as average_win_rate
        score0, score1 = hog.play(strategy, base) if first else hog.play(base, strategy)
        wins += (score0 > score1) == first
    sampled_time = time.perf_counter() - started
    per_game = sampled_time / games
    return dict(variant=variant, tabulate=tabulate, solve=solve_time, projection=projection, peak=peak,
                match=match_time, rate=rate_time, exact_rate=rate.average, sampled_rate=wins / games,
                per_game=per_game, extrapolated=per_game * GAMES_FOR_0_001)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--games", type=int, default=2000, help="games of reference play to time")
    parser.add_argument("--repeats", type=int, default=3, help="best of this many timings")
    args = parser.parse_args(argv)
    print("$ python " + " ".join(shlex.quote(part) for part in [sys.argv[0], *(argv or sys.argv[1:])]))
    print(f"Python {sys.version.split()[0]}, goal 100, best of {args.repeats} for the engine timings; "
          f"sampling: {args.games} games of the reference play timed, extrapolated linearly to "
          f"{GAMES_FOR_0_001:,} games (+-0.001 at 95%).")
    header = (f"{'variant':8}{'rules':>9}{'solve':>10}{'target':>8}{'(proj.)':>9}{'peak MiB':>10}"
              f"{'match':>9}{'win rate':>10}{'target':>8}{'exact':>9}{'sampled':>9}{'sampling 1M':>13}"
              f"{'ratio':>9}")
    print(header)
    missed = []
    for variant in args.variants:
        row = measure(variant, args.games, args.repeats)
        solve_target = SOLVE_TARGET.get(variant, DEFAULT_SOLVE_TARGET)
        rate_target = RATE_TARGET.get(variant, DEFAULT_RATE_TARGET)
        missed += [f"{variant} solve"] * (row["solve"] > solve_target)
        missed += [f"{variant} win rate"] * (row["rate"] > rate_target)
        print(f"{variant:8}{row['tabulate'] * 1e3:7.0f}ms{row['solve'] * 1e3:8.0f}ms"
              f"{solve_target * 1e3:6.0f}ms{row['projection'] * 1e3:7.0f}ms{row['peak'] / 2 ** 20:10.1f}"
              f"{row['match'] * 1e3:7.0f}ms{row['rate'] * 1e3:8.0f}ms{rate_target * 1e3:6.0f}ms"
              f"{row['exact_rate']:9.4f}{row['sampled_rate']:9.4f}{row['extrapolated']:12.0f}s"
              f"{row['extrapolated'] / row['rate']:8.0f}x", flush=True)
    print("targets: " + ("missed: " + ", ".join(missed) if missed else "all met"))
    print("rules: tabulating the reference zero-dice and swap rules (once per variant and goal); "
          "solve: optimal strategy (fa19: the full-state optimum; its projection to a "
          "(score, opponent_score) table is timed apart); peak: memory of a solve with its projection; "
          "match: one exact "
          "game between always_roll tables; win rate: the optimal (score, opponent_score) table vs the "
          "baseline, going first and second (fa19: the projection of its full-state optimum); "
          "exact/sampled: that win rate, exact and from the games played; ratio: extrapolated "
          "sampling time / exact win-rate time.")


if __name__ == "__main__":
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
