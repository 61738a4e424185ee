"""The grading benchmark's hidden cases of a fresh seed: the CPU time to draw and decide them, per variant, in a
process that has graded before; with a git revision, the kit at that revision alongside."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from grader import project

import revisions   # beside this script: the kit at another revision
from corpus import VARIANTS   # beside this script: the grading benchmark's variants, in the order it prints


FRESH_SEEDS = (101, 202, 303, 404, 505)
GENERATION = """\
import json, statistics, sys, time
from grader import cases
from grader.spec import load_variant
seeds, times = json.loads(sys.argv[1]), {}
for variant_id in json.loads(sys.argv[2]):
    variant = load_variant(variant_id)
    cases.hidden_cases(variant, 0)   # what every seed shares (probes; where kept, the decisions) is ready
    spent = []
    for seed in seeds:
        started = time.process_time()
        cases._generate(variant, seed)
        spent.append(time.process_time() - started)
    times[variant_id] = statistics.median(spent)
print(json.dumps(times))
"""


def _generation_times(tree: Path) -> dict[str, float]:
    """The median CPU time to draw and decide a fresh seed's hidden cases, per variant, with the kit at
    ``tree`` (CPU time: on a shared, loaded machine the wall time mostly says how busy the others were)."""
    cache = tempfile.mkdtemp(prefix="hog-bench-cache-")
    try:
        done = subprocess.run([sys.executable, "-c", GENERATION, json.dumps(FRESH_SEEDS), json.dumps(VARIANTS)],
                              check=True, capture_output=True, text=True, cwd=tree,
                              env={**os.environ, "HOG_CACHE": cache, "PYTHONPATH": str(tree)})
        return json.loads(done.stdout.splitlines()[-1])
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def hidden_case_generation(before: str | None) -> None:
    """The hidden cases of a fresh seed, in a process that has graded before (what a batch worker or
    a warm grader pays per seed); with ``before``, the kit at that git revision alongside."""
    print("\nHidden cases of a fresh seed: drawn and decided (the reference's answers, the agreement of the")
    print(f"allowed alternatives), the median of {len(FRESH_SEEDS)} seeds, in a process that has graded before")
    print("(CPU seconds of the grading process; the least of 3 runs, the revisions' runs taking turns)")
    runs: dict[str, list[dict[str, float]]] = {"now": [], "then": []}
    with revisions.tree_at(before) as tree:
        for _ in range(3):
            runs["now"].append(_generation_times(project.ROOT))
            if tree is not None:
                runs["then"].append(_generation_times(tree))
    now = {variant_id: min(run[variant_id] for run in runs["now"]) for variant_id in VARIANTS}
    then = {variant_id: min(run[variant_id] for run in runs["then"]) for variant_id in VARIANTS} if before else None
    print(f"{'variant':8} {'now':>8}" + (f" {before[:12]:>12} {'speed-up':>9}" if then else ""))
    for variant_id in VARIANTS:
        line = f"{variant_id:8} {now[variant_id] * 1000:6.0f}ms"
        if then:
            line += f" {then[variant_id] * 1000:10.0f}ms {then[variant_id] / now[variant_id]:8.1f}x"
        print(line)
