"""Grading speed: one submission per variant, a batch with 1 and 2 jobs, and the cost of isolation.

Run: python benchmarks/grading.py [--batch 200] [--okpy-only] [--cases-only] [--before REV] [--corpus 3] [--docs]
Every figure is measured in this run; ratios compare figures of this run. ``--before REV`` also times
the hidden cases of a fresh seed, ``hog grade`` with a fresh seed and the corpus batch with the kit as
it was at git revision REV, in this run, the two kits taking turns. ``hog`` in a new process is the kit
installed from this checkout into a venv of its own (``installed``), as okpy, its baseline, is.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
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

import corpus   # beside this script: the batch of the kit's corpus of students' submissions
import generation   # beside this script: the hidden cases of a fresh seed
import installed   # beside this script: the kit installed from this checkout, as instructors install it
import okpy_run   # beside this script: the course's okpy run
import processes   # beside this script: the machine's CPU time in use
import revisions   # beside this script: the kit at another revision

VARIANTS = corpus.VARIANTS   # every section times these, in this order


def timed(function, repeat: int = 3) -> float:
    """The median wall time of a few calls."""
    return timed_children(function, repeat)[0]


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


def single(kit: installed.Kit) -> None:
    print("One submission: the reference solution of each variant, all questions, isolated")
    print("(cold: a new `hog grade` process; 'empty cache' also generates the hidden cases,")
    print(" 'cached' finds them in the grader's cache; warm: grade() in a process that has graded before)")
    print(f"{'variant':8} {'cases':>6} {'cold, empty cache':>18} {'cold, cached':>13} {'warm grade()':>13} "
          f"{'sandbox only':>13} {'in-process':>11} {'isolation x':>12}")
    scratch_cache = tempfile.mkdtemp(prefix="hog-bench-cache-")
    for variant_id in VARIANTS:
        variant = load_variant(variant_id)
        folder = project.SOLUTION / variant_id
        command = kit.hog + ["grade", str(folder), "--variant", variant_id, "--format", "json"]
        environment = {**os.environ, "HOG_CACHE": os.path.join(scratch_cache, variant_id)}
        environment.pop("PYTHONPATH", None)
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


def against_okpy(kit: installed.Kit, before: str | None = None) -> dict[str, float]:
    """hog grade in a new process against the course's okpy run of the same public cases (okpy's ``ok``
    client, in a course folder of its own: see ``okpy_run``) and, for reference, an okpy-like run (a new
    process that imports hog.py and runs them in-process), and hog --help against the bare interpreter's
    start-up, all measured in this run. ``hog`` is the kit installed from this checkout into a venv of its
    own (``installed``), as okpy is: both start as their users start them. Gives okpy's time by variant."""
    scratch = Path(tempfile.mkdtemp(prefix="hog-bench-okpy-"))
    ok_command, origin = okpy_run.client(scratch)
    print("\nhog grade (the kit installed from this checkout into a venv of its own, as `pip install` does; a new")
    print("process; its hidden cases, the rendered reference and the spec cached, as after a first run) against")
    print(f"the course's okpy run of the public cases (`ok --local --no-update --score`, okpy {okpy_run.VERSION}")
    print(f"from {origin}; 'score': what okpy gave the reference) and an okpy-like run of them in")
    print("a new process without isolation, for reference;")
    print("'new table': the same, with the final strategy's win rate not cached (a table never graded")
    print("before: the exact engine loads and solves it); 'fresh seed': without --seed, as by default (the")
    print("run draws its own seed and generates its hidden cases); 'CPU': the CPU time the whole machine spent")
    print("on one `hog grade` (the grader and its sandbox; /proc/stat, median of the 5), and 'floor/okpy' that")
    print(f"time over the {os.cpu_count()} cores against okpy: no grade of this kit can take less wall time than")
    print("its CPU time shared perfectly by every core; median of 5, each a new process" +
          (f"; 'fresh then': a fresh seed with the kit at {before[:12]} on the same interpreter, taking turns"
           if before else ""))
    print(f"{'variant':8} {'hog grade':>10} {'new table':>10} {'fresh seed':>11} {'okpy-like':>10} {'ratio':>6} "
          f"{'target':>7}  met  {'okpy':>6} {'score':>13} {'grade/okpy':>10} {'fresh/okpy (target 0.5x)':>24} "
          f"{'CPU':>8} {'floor/okpy':>11}"
          + (f" {'fresh then':>11} {'now/then':>9}" if before else ""))
    cache = tempfile.mkdtemp(prefix="hog-bench-cache-")
    environment = {**os.environ, "HOG_CACHE": cache}
    environment.pop("PYTHONPATH", None)   # the installed kit, not this checkout
    with revisions.tree_at(before) as then:
        okpy_seconds = {variant_id: _against_okpy(variant_id, kit=kit, command_environment=environment, cache=cache,
                                                  then=then, okpy=(ok_command, scratch)) for variant_id in VARIANTS}
    shutil.rmtree(cache, ignore_errors=True)
    bare = timed(lambda: subprocess.run([kit.python, "-c", "pass"], check=True), repeat=5)
    helped = timed(lambda: subprocess.run(kit.hog + ["--help"], check=True, capture_output=True), repeat=5)
    shutil.rmtree(scratch, ignore_errors=True)
    print(f"hog --help: {helped:.3f} s (target 0.1 s: {'met' if helped <= 0.1 else 'not met'}); "
          f"the bare interpreter's start-up in this run (the same venv's): {bare:.3f} s ({helped / bare:.1f}x)")
    print(f"load average while measuring: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    return okpy_seconds


def _okpy_seconds(variant_id: str, command: list[str], scratch: Path) -> tuple[float, str]:
    """The median time of the course's okpy run of a variant's public cases, and the score it gave."""
    folder, home = scratch / variant_id, scratch / "home"
    home.mkdir(exist_ok=True)
    points = okpy_run.course(variant_id, folder)
    outputs: list[str] = []
    seconds = timed(lambda: outputs.append(okpy_run.run(command, folder, home)), repeat=5)
    totals = [okpy_run.scored(output) for output in outputs]
    total, short = min(totals)
    if short:
        print(f"  okpy took points from the {variant_id} reference: {', '.join(short)}")
    return seconds, f"{total:g}/{points:g} {'full' if total == points else 'SHORT'}"


def _against_okpy(variant_id: str, *, kit: installed.Kit, command_environment: dict, cache: str,
                  then: Path | None, okpy: tuple[list[str], Path]) -> float:
    """One variant's line of ``against_okpy``; okpy's time."""
    environment = command_environment
    variant = load_variant(variant_id)
    folder = project.SOLUTION / variant_id
    arguments = ["grade", str(folder), "--variant", variant_id, "--format", "json"]
    command = kit.hog + arguments + ["--seed", "1"]

    def graded() -> None:
        subprocess.run(command, check=True, capture_output=True, env=environment)

    def forget_win_rates() -> None:
        shutil.rmtree(os.path.join(cache, "win-rates"), ignore_errors=True)

    graded()   # fills the caches for this seed
    hog_seconds, machine = _timed_machine(graded, repeat=5)
    new_table = statistics.median(_timed_after(graded, forget_win_rates) for _ in range(5))
    fresh_runs: dict[str, list[float]] = {"now": [], "then": []}
    then_command, then_adds = kit.at(then) if then is not None else ([], {})
    then_environment = {**environment, "HOG_CACHE": os.path.join(cache, "then"), **then_adds}
    for _ in range(5):   # the two kits take turns
        fresh_runs["now"].append(timed(lambda: subprocess.run(kit.hog + arguments, check=True, capture_output=True,
                                                              env=environment), repeat=1))
        if then is not None:
            fresh_runs["then"].append(timed(lambda: subprocess.run(then_command + arguments, check=True,
                                                                   capture_output=True, env=then_environment,
                                                                   cwd=then), repeat=1))
    fresh = statistics.median(fresh_runs["now"])
    sessions = [case.session for case in cases.public_cases(variant)]
    okpy_like = [kit.python, "-c", OKPY_LIKE, str(folder), *sessions]
    like_seconds = timed(lambda: subprocess.run(okpy_like, check=True, capture_output=True), repeat=5)
    ok_seconds, score = _okpy_seconds(variant_id, *okpy)
    target = TARGETS[variant_id]
    line = (f"{variant_id:8} {hog_seconds:9.2f}s {new_table:9.2f}s {fresh:10.2f}s {like_seconds:9.2f}s "
            f"{hog_seconds / like_seconds:5.1f}x {target:6.2f}s  {'yes' if hog_seconds <= target else 'no':3}  "
            f"{ok_seconds:5.2f}s {score:>13} {hog_seconds / ok_seconds:9.2f}x "
            f"{fresh / ok_seconds:13.2f}x {'met' if fresh <= 0.5 * ok_seconds else 'not met':>9} "
            f"{machine:7.2f}s {machine / os.cpu_count() / ok_seconds:11.2f}x")
    if then is not None:
        fresh_then = statistics.median(fresh_runs["then"])
        line += f" {fresh_then:10.2f}s {fresh / fresh_then:8.2f}x"
    print(line)
    return ok_seconds


def _timed_machine(function, repeat: int) -> tuple[float, float]:
    """The median wall time of a few calls, and the median CPU time the whole machine spent on one."""
    walls, used = [], []
    for _ in range(repeat):
        wall, cpu = processes.machine_spent(lambda: timed(function, repeat=1))
        walls.append(wall)
        used.append(cpu)
    return statistics.median(walls), statistics.median(used)


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


def timed_children(function, repeat: int = 3) -> tuple[float, float]:
    """The median wall time of a few calls of ``function``, and the median CPU time (user and system) of the
    processes it waited for: where it runs a command, the command's own process, with any of its own children
    it waited for (not a sandbox it killed)."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        function()
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


KNOWN = """\
import sys
from grader.cases import hidden_cases, new_seed
from grader.spec import load_variant
hidden_cases(load_variant(sys.argv[1]), new_seed())
"""


def outside_the_code(kit: installed.Kit, okpy: dict[str, float] | None = None, repeat: int = 3) -> None:
    """The share of a grade spent outside the student's code: ``hog grade`` of the reference (the installed
    kit) in a new process with a fresh seed, against the same cases run in this process without isolation;
    and the chain a fresh seed's grade takes at least, when its hidden cases run once drawn: those cases known
    (a new process of the installed kit that loads what drawing needs, the spec, and draws them), then their
    code run. With
    ``okpy`` (okpy's time by variant, from ``against_okpy``), that chain against okpy's time."""
    print("\nOutside the student's code: `hog grade` of the reference (a new process, a fresh seed) against")
    print("its own code's time (the same sessions, tabulation included, run in one process without isolation);")
    print(f"the rest is start-up, case generation, the sandbox, comparison and scoring; median of {repeat};")
    print("'grader CPU': the CPU time of the `hog grade` process itself (not its sandbox's), and its share of the")
    print("wall time: near 100%, the grader's own process is what a grade waits for;")
    print("'known': a new process of the installed kit that loads what drawing needs and the spec, and draws a")
    print("fresh seed's hidden cases (the earliest they can reach a sandbox); 'hidden code': those cases' code")
    print("alone, run as 'its code'; 'chain': the two in turn: the least a fresh seed's grade takes when its hidden")
    print("cases run once drawn (they are drawn outside the sandbox; only running the first drawn while the rest are")
    print("drawn would overlap the two)"
          + ("; 'chain/okpy': against okpy's run above (target 0.5x for the whole grade)" if okpy else ""))
    print(f"{'variant':8} {'hog grade':>10} {'its code':>9} {'outside':>8} {'share':>6} {'grader CPU':>11} "
          f"{'of wall':>8} {'known':>6} {'hidden code':>12} {'chain':>6}" + (f" {'chain/okpy':>11}" if okpy else ""))
    cache = tempfile.mkdtemp(prefix="hog-bench-cache-")
    environment = {**os.environ, "HOG_CACHE": cache}
    environment.pop("PYTHONPATH", None)   # the installed kit, not this checkout
    for variant_id in VARIANTS:
        variant = load_variant(variant_id)
        folder = project.SOLUTION / variant_id
        command = kit.hog + ["grade", str(folder), "--variant", variant_id, "--format", "json"]
        subprocess.run(command + ["--seed", "1"], check=True, capture_output=True, env=environment)  # a first run
        whole, grader_cpu = timed_children(lambda: subprocess.run(command, check=True, capture_output=True,
                                                                  env=environment), repeat)
        graded = cases.grading_cases(variant, 1)
        sessions = [[step.source for step in case.steps] for case in graded] + [tabulate.table_session(variant)]
        own = timed(lambda: in_process(variant, folder, sessions), repeat)
        known = timed(lambda: subprocess.run([kit.python, "-c", KNOWN, variant_id], check=True, capture_output=True,
                                             env=environment), repeat)
        hidden = [[step.source for step in case.steps] for case in cases.hidden_cases(variant, 1)]
        hidden_code = timed(lambda: in_process(variant, folder, hidden), repeat)
        chain = known + hidden_code
        print(f"{variant_id:8} {whole:9.2f}s {own:8.2f}s {whole - own:7.2f}s {(whole - own) / whole:5.0%} "
              f"{grader_cpu:10.2f}s {grader_cpu / whole:7.0%} {known:5.2f}s {hidden_code:11.2f}s {chain:5.2f}s"
              + (f" {chain / okpy[variant_id]:10.2f}x" if okpy else ""))
    shutil.rmtree(cache, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=200, help="submissions in the batch (default 200)")
    parser.add_argument("--okpy-only", action="store_true", help="only hog grade against okpy and hog --help")
    parser.add_argument("--cases-only", action="store_true",
                        help="only the hidden cases of a fresh seed, the share outside the student's code and "
                             "the corpus batch")
    parser.add_argument("--before", metavar="REV", help="also time, with the kit at git revision REV, a fresh seed's "
                                                        "hidden cases, hog grade and the corpus batch")
    parser.add_argument("--corpus", type=int, default=3, help="copies of the corpus in its batch (default 3)")
    parser.add_argument("--dask", action="store_true", help="also grade the corpus batch on a 2-worker Dask cluster")
    args = parser.parse_args()
    print(f"$ python benchmarks/grading.py {' '.join(sys.argv[1:])}\n")
    print(f"load average at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    generation.hidden_case_generation(args.before)
    with tempfile.TemporaryDirectory(prefix="hog-bench-kit-") as scratch:
        kit = installed.environment(Path(scratch))   # `hog` as instructors install it
        okpy = None if args.cases_only else against_okpy(kit, args.before)
        outside_the_code(kit, okpy)
        corpus.corpus_batch(args.corpus, args.dask, args.before)
        if not (args.okpy_only or args.cases_only):
            single(kit)
            batch_throughput(args.batch)


if __name__ == "__main__":
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
