"""The grading benchmark's batch of the kit's corpus of real students' submissions: ``hog grade-batch`` with 1
and 2 jobs and on a 2-worker Dask cluster, each run a new process, with the CPU time the whole machine spent
on each run (the batch, its workers, their sandboxes, a cluster's own processes)."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from grader import project

import processes   # beside this script: the machine's CPU time in use
import revisions   # beside this script: the kit at another revision

VARIANTS = ["sp19", "nju24", "nju21", "fa19", "fa18"]   # the grading benchmark's too, in the order it prints
CORPUS_ROUNDS = 3   # runs of the corpus batch each way, taking turns: its figures are their medians


def by_variant() -> dict[str, list[Path]]:
    """The kit's corpus by variant: each variant's reference, then its real students' submissions
    (tests/submissions/allowed, then buggy; a submission's name starts with its variant)."""
    found: dict[str, list[Path]] = {variant_id: [project.SOLUTION / variant_id / "hog.py"] for variant_id in VARIANTS}
    for kind in ("allowed", "buggy"):
        for path in sorted((project.ROOT / "tests" / "submissions" / kind).glob("*.py")):
            found[path.name.split("_")[0]].append(path)
    return found


def _corpus(folder: Path, copies: int) -> dict[str, str]:
    """The corpus (``by_variant``), ``copies`` times, in ``folder``: name → variant."""
    variants, corpus = {}, by_variant()
    for copy in range(copies):
        for variant_id, paths in corpus.items():
            for path in paths:
                name = f"{copy}-{variant_id}-{path.stem}"
                shutil.copy(path, folder / f"{name}.py")
                variants[name] = variant_id
    return variants


def corpus_batch(copies: int, dask: bool, before: str | None) -> None:
    """``hog grade-batch`` of the corpus, each submission under its own variant, one fresh seed per run, each
    run in a new process; with ``before``, the kit at that revision too, the two taking turns."""
    with tempfile.TemporaryDirectory() as scratch, revisions.tree_at(before) as then:
        source = Path(scratch) / "in"
        source.mkdir()
        named = _corpus(source, copies)
        print(f"\nA batch of the kit's corpus of students' submissions, {copies} times ({len(named)} submissions, "
              f"every variant), {os.cpu_count()} cores, a fresh seed each run, each run a new process"
              + (f"; the kit now and at {before[:12]}, taking turns" if before else ""))
        runs = [("--jobs 1", 1, False), ("--jobs 2", 2, False)] + ([("Dask, 2 workers", 2, True)] if dask else [])
        trees = [("now", project.ROOT)] + ([(before[:12], then)] if before else [])
        for _, tree in trees:
            revisions.compile_tree(tree)
        seconds: dict[tuple[str, str], list[float]] = {}
        used: dict[tuple[str, str], list[float]] = {}
        for round_number in range(CORPUS_ROUNDS):   # the runs take turns: a slow moment of the machine is shared
            for label, jobs, on_dask in runs:
                for name, tree in trees:
                    out = Path(scratch) / f"out-{round_number}-{jobs}-{on_dask}-{name}"
                    taken, cpu = processes.machine_spent(
                        lambda: revisions.corpus_run(tree, source, out, named, jobs, on_dask))
                    seconds.setdefault((label, name), []).append(taken)
                    used.setdefault((label, name), []).append(cpu)
        rates = {key: len(named) / statistics.median(taken) for key, taken in seconds.items()}
        print(f"(the median of {CORPUS_ROUNDS} runs each, taking turns; every run's rate: "
              + "; ".join(f"{label} " + ", ".join(f"{len(named) / t:.2f}" for t in seconds[label, 'now'])
                          for label, _, _ in runs) + ")")
        for label, _, _ in runs:
            line = f"{label:16}: {len(named) / rates[label, 'now']:6.1f} s, {rates[label, 'now']:5.2f} submissions/s"
            if before:
                line += (f"; at {before[:12]}: {rates[label, before[:12]]:5.2f}/s "
                         f"({rates[label, 'now'] / rates[label, before[:12]]:.2f}x)")
            print(line + " (target at 2: 15)")
        print(f"--jobs 2 / --jobs 1: {rates['--jobs 2', 'now'] / rates['--jobs 1', 'now']:.2f}x" +
              (f"; Dask / --jobs 2: {rates['Dask, 2 workers', 'now'] / rates['--jobs 2', 'now']:.2f}x (target 0.9)"
               if dask else ""))
        machine_cpu(used, [label for label, _, _ in runs], len(named), dask)
        if dask:
            start_up(seconds)
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


def machine_cpu(used: dict[tuple[str, str], list[float]], labels: list[str], submissions: int, dask: bool) -> None:
    """The CPU time the machine spent per submission in each way of running the batch (median of the runs).
    On cores kept busy, a way's rate is bound by it: a way that spends more CPU per submission than the pool
    is slower by at least that ratio when both keep every core busy."""
    per = {label: statistics.median(used[label, "now"]) / submissions for label in labels}
    print("the machine's CPU time per submission (/proc/stat: the batch, its workers, their sandboxes and, on Dask, "
          "the cluster's own processes; median of the runs): "
          + ", ".join(f"{label} {per[label] * 1000:.0f} ms" for label in labels))
    if dask:
        print(f"Dask spent {per['Dask, 2 workers'] / per['--jobs 2']:.2f}x the pool's CPU per submission: with both "
              f"cores busy throughout, its rate is at most {per['--jobs 2'] / per['Dask, 2 workers']:.2f}x the pool's")


CLUSTER_START = """\
import time
from grader.classroom import batch, cluster
if __name__ == "__main__":
    began = time.perf_counter()
    with cluster.connect(workers=2, preload=batch.WORKER_MODULES) as workers:
        workers.client.wait_for_workers(2)
        print(time.perf_counter() - began)
"""


LOAD_DASK = """\
import time
began = time.perf_counter()
import distributed
print(time.perf_counter() - began)
"""


def start_up(seconds: dict) -> None:
    """What of the corpus batch on Dask is its cluster's start: a 2-worker cluster up (both workers connected,
    as a batch starts it) in a new process that has loaded the kit's batch modules; and the ratio to the pool
    once that start is taken out of the Dask runs (the pool's workers fork in milliseconds). And what the 0.9x
    target leaves a cluster's start, against what loading Dask's ``distributed`` alone takes a new process
    (the batch's process loads it, and so do the workers' fork server: two of the machine's cores)."""
    with tempfile.TemporaryDirectory(prefix="hog-bench-start-") as scratch:
        script = Path(scratch) / "start.py"   # a file, as the cluster's fork server starts from the main module
        script.write_text(CLUSTER_START, encoding="utf-8")
        started = [float(subprocess.run([sys.executable, str(script)], check=True, capture_output=True, text=True,
                                        cwd=project.ROOT).stdout.split()[-1]) for _ in range(3)]
    loading = [float(subprocess.run([sys.executable, "-c", LOAD_DASK], check=True, capture_output=True,
                                    text=True).stdout) for _ in range(3)]
    start, load = statistics.median(started), statistics.median(loading)
    pool, dask = (statistics.median(seconds[label, "now"]) for label in ("--jobs 2", "Dask, 2 workers"))
    print(f"a 2-worker cluster's start (both workers connected): {start:.2f} s (median of 3); "
          f"Dask / --jobs 2 without it: {pool / (dask - start):.2f}x")
    print(f"at 0.9x the pool's {pool:.2f} s, a Dask run may take {pool / 0.9:.2f} s: {pool / 0.9 - pool:.2f} s more "
          f"than the pool for its cluster's start and its work; loading Dask's distributed alone takes a new "
          f"process {load:.2f} s (median of 3; the batch's process and the workers' fork server each load it)")
