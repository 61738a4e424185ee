"""The kit at another git revision, for a benchmark that compares it with the kit now in the same run."""

from __future__ import annotations

import compileall
import contextlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def tree_at(revision: str | None):
    """The kit's files at a git revision, in a temporary folder (None without a revision)."""
    if revision is None:
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="hog-bench-before-") as tree:
        archive = subprocess.run(["git", "archive", revision], check=True, capture_output=True, cwd=ROOT)
        subprocess.run(["tar", "-x", "-C", tree], input=archive.stdout, check=True)
        compileall.compile_dir(str(Path(tree) / "grader"), quiet=1)
        yield Path(tree)


CORPUS_RUN = """\
import json, sys, time
from pathlib import Path
from grader.classroom import batch, cluster
from grader.spec import load_variant
source, out, named, jobs, dask = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3]), int(sys.argv[4]), \\
    sys.argv[5] == "dask"
loaded = {variant_id: load_variant(variant_id) for variant_id in set(named.values())}
started = time.perf_counter()
# As grade-batch connects: a local cluster's workers start with the batch's modules loaded (where the kit has that).
preload = {"preload": batch.WORKER_MODULES} if hasattr(batch, "WORKER_MODULES") else {}
with cluster.connect(workers=jobs if dask else None, **preload) as workers:
    summary = batch.grade_batch(source, loaded["sp19"], out, jobs=jobs, choose=lambda name: (loaded[named[name]], ""),
                                cluster=workers)
assert summary.failed == 0, summary
print(json.dumps([time.perf_counter() - started, time.process_time()]))
"""


def compile_tree(tree: Path) -> None:
    """The kit's bytecode at ``tree`` written, as an installed kit has it, before its runs are timed."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "grader")], check=True,
                   stdout=subprocess.DEVNULL)


def corpus_run(tree: Path, source: Path, out: Path, named: dict[str, str], jobs: int, dask: bool) -> float:
    """The seconds of one ``grade-batch`` of the corpus (a fresh seed, the cluster's start included) in a
    new process, with the kit at ``tree``."""
    return corpus_run_cpu(tree, source, out, named, jobs, dask)[0]


def corpus_run_cpu(tree: Path, source: Path, out: Path, named: dict[str, str], jobs: int,
                   dask: bool) -> tuple[float, float]:
    """``corpus_run``'s seconds, and the CPU seconds of the grade-batch process itself (its start, its
    spec and cases, its results written; not its workers')."""
    # With bytecode written, as an installed kit has it: a run does not compile the kit's modules anew in each of
    # its processes (where the environment says not to write it, every one of them did).
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-c", CORPUS_RUN, str(source), str(out), json.dumps(named), str(jobs),
                           "dask" if dask else "pool"], check=True, capture_output=True, text=True, cwd=tree,
                          env={**environment, "PYTHONPATH": str(tree)})
    seconds, own = json.loads(done.stdout.splitlines()[-1])
    return seconds, own
