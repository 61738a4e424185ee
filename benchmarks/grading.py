"""Grading speed: one submission per variant, a batch with 1 and 2 jobs, and the cost of isolation.

Run: python benchmarks/grading.py [--batch 200] [--okpy-only] [--docs]
Every figure is measured in this run; ratios compare figures of this run.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from grader import cases, project
from grader.grading import grade, tabulate
from grader.commands import batch as commands
from grader.sandbox import run_cases
from grader.spec import load_variant

VARIANTS = ["sp19", "nju24", "nju21", "fa19", "fa18"]


def timed(function, repeat: int = 3) -> float:
    """The median wall time of a few calls."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def in_process(variant, folder: Path, sessions: list[list[str]]) -> None:
    """Run the same sessions inside this process, as a client without isolation would."""
    sys.path.insert(0, str(folder))
    for name in ("hog", "dice"):
        sys.modules.pop(name, None)
    try:
        import hog  # noqa: F401  (the submission, imported into the grader: what isolation avoids)
        for steps in sessions:
            namespace: dict = {}
            exec("from hog import *", namespace)
            for source in steps:
                with contextlib.redirect_stdout(io.StringIO()):
                    try:
                        code = compile(source, "<case>", "eval")
                    except SyntaxError:
                        exec(compile(source, "<case>", "exec"), namespace)
                    else:
                        repr(eval(code, namespace))
    finally:
        sys.path.remove(str(folder))
        for name in ("hog", "dice"):
            sys.modules.pop(name, None)


def single(args) -> None:
    print("One submission: the reference solution of each variant, all questions, isolated")
    print("(cold: a new `hog grade` process; 'empty cache' also generates the hidden cases,")
    print(" 'cached' finds them in the grader's cache; warm: grade() in a process that has graded before)")
    print(f"{'variant':8} {'cases':>6} {'cold, empty cache':>18} {'cold, cached':>13} {'warm grade()':>13} "
          f"{'sandbox only':>13} {'in-process':>11} {'isolation x':>12}")
    scratch_cache = tempfile.mkdtemp(prefix="hog-bench-cache-")
    for variant_id in VARIANTS:
        variant = load_variant(variant_id)
        folder = project.SOLUTION / variant_id
        command = [sys.executable, "-m", "grader.cli", "grade", str(folder), "--variant", variant_id,
                   "--format", "json"]
        environment = {**os.environ, "HOG_CACHE": os.path.join(scratch_cache, variant_id)}
        empty = timed(lambda: subprocess.run(command, check=True, capture_output=True, env=environment), repeat=1)
        cold = timed(lambda: subprocess.run(command, check=True, capture_output=True, env=environment))
        grade.grade(folder, variant)  # hidden cases and the engine are ready from here on
        warm = timed(lambda: grade.grade(folder, variant))
        graded = cases.grading_cases(variant)
        sessions = [[step.source for step in case.steps] for case in graded] + [tabulate.table_session(variant)]
        dice = project.DICE.read_text()
        sandboxed = timed(lambda: run_cases(folder, sessions, support_files={"dice.py": dice}))
        inside = timed(lambda: in_process(variant, folder, sessions))
        print(f"{variant_id:8} {len(sessions):6d} {empty:17.2f}s {cold:12.2f}s {warm:12.2f}s {sandboxed:12.2f}s "
              f"{inside:10.2f}s {sandboxed / inside:11.1f}x")
    shutil.rmtree(scratch_cache, ignore_errors=True)
    print(f"isolation: {run_cases(project.SOLUTION / 'sp19', [['1']]).isolation}")


OKPY_LIKE = """\
import contextlib, doctest, io, sys
sys.path.insert(0, sys.argv[1])
import hog
for session in sys.argv[2:]:
    namespace = {}
    exec("from hog import *", namespace)
    test = doctest.DocTestParser().get_doctest(session, namespace, "case", "case", 0)
    with contextlib.redirect_stdout(io.StringIO()):
        doctest.DocTestRunner(verbose=False).run(test, out=lambda text: None)
"""
TARGETS = {"sp19": 0.45, "nju24": 0.45, "nju21": 0.45, "fa19": 0.6, "fa18": 0.45}   # issue 11, seconds


def against_okpy() -> None:
    """hog grade in a new process against an okpy-like run of the same public cases (a new process
    that imports hog.py and runs them in-process, as the course's ok client does), and hog --help
    against the bare interpreter's start-up, all measured in this run."""
    # As after any first run (or a regular install): the kit's bytecode is written, even where
    # PYTHONDONTWRITEBYTECODE keeps the interpreter from writing it itself.
    compileall.compile_dir(str(project.PACKAGE), quiet=1)
    print("\nhog grade (a new process; its hidden cases, the rendered reference and the spec cached, as after")
    print("a first run) against an okpy-like run of the public cases in a new process, without isolation;")
    print("'new table': the same, with the final strategy's win rate not cached (a table never graded")
    print("before: the exact engine loads and solves it); 'fresh seed': without --seed, as by default (the")
    print("run draws its own seed and generates its hidden cases); median of 5")
    print(f"{'variant':8} {'hog grade':>10} {'new table':>10} {'fresh seed':>11} {'okpy-like':>10} {'ratio':>6} "
          f"{'target':>7}  met")
    cache = tempfile.mkdtemp(prefix="hog-bench-cache-")
    environment = {**os.environ, "HOG_CACHE": cache}
    for variant_id in VARIANTS:
        variant = load_variant(variant_id)
        folder = project.SOLUTION / variant_id
        command = [sys.executable, "-m", "grader.cli", "grade", str(folder), "--variant", variant_id,
                   "--format", "json", "--seed", "1"]

        def graded() -> None:
            subprocess.run(command, check=True, capture_output=True, env=environment)

        def forget_win_rates() -> None:
            shutil.rmtree(os.path.join(cache, "win-rates"), ignore_errors=True)

        graded()   # fills the caches for this seed
        hog_seconds = timed(graded, repeat=5)
        new_table = statistics.median(_timed_after(graded, forget_win_rates) for _ in range(5))
        fresh = timed(lambda: subprocess.run(command[:-2], check=True, capture_output=True, env=environment),
                      repeat=5)
        sessions = [case.session for case in cases.public_cases(variant)]
        okpy = [sys.executable, "-c", OKPY_LIKE, str(folder), *sessions]
        okpy_seconds = timed(lambda: subprocess.run(okpy, check=True, capture_output=True), repeat=5)
        target = TARGETS[variant_id]
        print(f"{variant_id:8} {hog_seconds:9.2f}s {new_table:9.2f}s {fresh:10.2f}s {okpy_seconds:9.2f}s "
              f"{hog_seconds / okpy_seconds:5.1f}x {target:6.2f}s  {'yes' if hog_seconds <= target else 'no'}")
    shutil.rmtree(cache, ignore_errors=True)
    bare = timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), repeat=5)
    helped = timed(lambda: subprocess.run([sys.executable, "-m", "grader.cli", "--help"], check=True,
                                          capture_output=True), repeat=5)
    print(f"hog --help: {helped:.3f} s (target 0.1 s: {'met' if helped <= 0.1 else 'not met'}); "
          f"the bare interpreter's start-up in this run: {bare:.3f} s ({helped / bare:.1f}x)")
    print(f"load average while measuring: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


def _timed_after(function, prepare) -> float:
    """The wall time of ``function`` alone (``prepare`` runs first, untimed)."""
    prepare()
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def make_batch(folder: Path, size: int) -> None:
    """A class of submissions: solutions, skeletons and solutions with a bug, in turn."""
    solution = (project.SOLUTION / "sp19" / "hog.py").read_text()
    kinds = [solution, (project.SKELETON / "sp19" / "hog.py").read_text(),
             solution.replace("    return 1 + min(tens, ones)", "    return 1 + max(tens, ones)"),
             solution.replace("        if is_swap(score, opponent_score):", "        if False:")]
    for number in range(size):
        student = folder / f"student{number:03d}"
        student.mkdir()
        (student / "hog.py").write_text(kinds[number % len(kinds)])


def batch_throughput(size: int) -> None:
    variant = load_variant("sp19")
    cases.grading_cases(variant)
    print(f"\nA batch of {size} sp19 submissions (hog grade-batch), {os.cpu_count()} cores")
    rates = {}
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "in"
        source.mkdir()
        make_batch(source, size)
        for jobs in (1, 2):
            out = Path(scratch) / f"out{jobs}"
            started = time.perf_counter()
            with contextlib.redirect_stdout(io.StringIO()):
                commands.grade_batch(folder=str(source), variant="sp19", jobs=jobs, out_dir=str(out),
                                     out=io.StringIO())
            seconds = time.perf_counter() - started
            rates[jobs] = size / seconds
            print(f"--jobs {jobs}: {seconds:6.1f} s, {rates[jobs]:5.2f} submissions/s")
    print(f"--jobs 2 / --jobs 1 throughput: {rates[2] / rates[1]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=200, help="submissions in the batch (default 200)")
    parser.add_argument("--okpy-only", action="store_true", help="only hog grade against okpy and hog --help")
    args = parser.parse_args()
    print(f"$ python benchmarks/grading.py --batch {args.batch}{' --okpy-only' if args.okpy_only else ''}\n")
    against_okpy()
    if not args.okpy_only:
        single(args)
        batch_throughput(args.batch)


if __name__ == "__main__":
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
