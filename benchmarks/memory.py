"""The grader's own peak memory and time against the size of a submitted hog.py, nju24 against sp19.

Run: python benchmarks/memory.py [--sizes 1K,30K,300K,1M,3M,10M,30M] [--repeat 1] [--docs]

For each size, one hog.py: the nju24 reference padded with short assignments to that size (1 KB: a
hog.py of assignments only). It is graded with `hog grade` as nju24 (whose picky_piggy is checked for
forbidden constructs, a parse outside the sandbox) and, the baseline of the same run, as sp19 (no
construct check), each in a new process. Printed per grade: the grader process's own peak resident
memory (getrusage RUSAGE_SELF: neither the sandbox nor the construct check's interpreter, whose memory
the sandbox's RLIMIT_AS bounds), the peak of its child processes (RUSAGE_CHILDREN), the wall time, the
score and what picky_piggy's line says; then the ratios nju24 / sp19. The issue's target for the 28 MB
file: the grader's own peak at most 1 GiB and nju24's time at most 3x sp19's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from grader import project

DRIVER = r"""
import io, json, resource, sys, time
started = time.perf_counter()
from grader import cli
out, sys.stdout = sys.stdout, io.StringIO()
status = cli.main(sys.argv[1:])
seconds = time.perf_counter() - started
result = json.loads(open(sys.argv[sys.argv.index("--output") + 1]).read())
piggy = [line for test in result.get("tests", []) for line in test.get("output", "").splitlines()
         if line.startswith("picky_piggy ")]     # what the construct check said, if anything
out.write(json.dumps({"status": status, "seconds": seconds,
                      "self": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10,
                      "children": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss << 10,
                      "score": result.get("score"), "piggy": piggy[0][:90] if piggy else ""}))
"""
UNITS = {"K": 1 << 10, "M": 1 << 20}


def size_of(text: str) -> int:
    return int(float(text[:-1]) * UNITS[text[-1].upper()]) if text[-1].upper() in UNITS else int(text)


def submission(folder: Path, size: int) -> Path:
    """Written a piece at a time: this process's own peak would carry over into the grader's
    (Linux keeps a process's peak resident memory across fork and exec)."""
    reference = (project.SOLUTION / "nju24" / "hog.py").read_text(encoding="utf-8")
    head = reference if size > len(reference) else '"""The Game of Hog (NJU SICP Fall 2024 rules)"""\n'
    path = folder / "hog.py"
    with path.open("w", encoding="utf-8") as out:
        out.write(head)
        total, number, piece = len(head), 0, []
        while True:                      # up to the size, not past it
            line = f"a{number} = {number}\n"
            if total + len(line) > size:
                break
            piece.append(line)
            total += len(line)
            number += 1
            if len(piece) == 10_000:
                out.write("".join(piece))
                piece.clear()
        out.write("".join(piece))
    return path


def grade(hog: Path, variant: str, out: Path) -> dict:
    command = [sys.executable, "-P", "-c", DRIVER, "grade", str(hog), "--variant", variant, "--force-variant",
               "--format", "json", "--output", str(out), "--seed", "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise SystemExit(f"hog grade failed: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout.splitlines()[-1])


def mib(count: int) -> str:
    return f"{count / (1 << 20):8.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1K,30K,300K,1M,3M,10M,30M")
    parser.add_argument("--repeat", type=int, default=1, help="grades per figure (the median is shown)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hog-memory-") as scratch:
        folder = Path(scratch)
        grade(project.SOLUTION / "sp19" / "hog.py", "sp19", folder / "warm.json")   # caches, not measured
        print(f"{'size':>8} {'variant':>7} {'own MiB':>8} {'children':>8} {'seconds':>8} {'score':>6}  picky_piggy")
        rows = []
        for text in args.sizes.split(","):
            size = size_of(text)
            hog = submission(folder, size)
            figures = {}
            for variant in ("sp19", "nju24"):
                runs = [grade(hog, variant, folder / "out.json") for _ in range(args.repeat)]
                figure = {key: statistics.median(run[key] for run in runs) for key in ("seconds", "self", "children")}
                figure.update(score=runs[0]["score"], piggy=runs[0]["piggy"])
                figures[variant] = figure
                print(f"{hog.stat().st_size:>8,} {variant:>7} {mib(figure['self'])} {mib(figure['children'])} "
                      f"{figure['seconds']:8.2f} {figure['score']:>6}  {figure['piggy']}", flush=True)
            rows.append((hog.stat().st_size, figures))
        print("\nnju24 / sp19 in the same run (own peak memory, time):")
        for size, figures in rows:
            nju, sp = figures["nju24"], figures["sp19"]
            print(f"{size:>11,} bytes: memory {nju['self'] / sp['self']:.2f}x ({mib(nju['self']).strip()} MiB), "
                  f"time {nju['seconds'] / sp['seconds']:.2f}x ({nju['seconds']:.2f} s against {sp['seconds']:.2f} s)")


if __name__ == "__main__":
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
