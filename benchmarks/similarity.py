"""Benchmark of ``hog similarity`` on a class of COUNT sp19 submissions, with an in-run baseline.

The class is made from the six independently written solutions of
``tests/data/similarity/sp19/``: each submission takes each function from one of
them at random (their helpers come along), with its local names renamed and its
functions shuffled, so the batch holds many fingerprints shared by a few
submissions, as a real class does (a harmless statement is added here and
there, so no two are alike all through); every 50th is a copy of the one before it
(renamed and reordered anew). The script times, in one run:

1. the baseline: ``ast.parse`` of every submission (what any structural comparison must do at least);
2. ``hog similarity`` as the command runs it (find, fingerprint, compare, write the page and JSON),
   with the default ``--max-share`` (a tenth of the batch, at most 10, as MOSS);
3. the same with nothing ignored (``--max-share COUNT``);
4. the worst case for the pair count: a class with no touches of its own (every submission only
   mixes the six solutions' functions), nothing ignored, so a fifth of all pairs are listed.

and prints each figure with its ratio to the baseline and the target (COUNT = 500 in under 60 s on
the project's 2-core machine; the comparison runs in one process).

    python benchmarks/similarity.py [--count 500] [--seed 3] [--docs]
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader import cli  # noqa: E402
from grader.similarity.batch import JSON_NAME  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "similarity" / "sp19"
INDEPENDENT = ["alder", "birch", "cedar", "dogwood", "elm", "fir"]
TARGET = 60.0   # seconds for 500 submissions
COPY_EVERY = 50  # every 50th submission copies the one before it
KEEP = {"dice", "six_sided", "four_sided", "make_test_dice", "GOAL_SCORE", "self"}


def _functions(name: str) -> tuple[str, dict[str, ast.FunctionDef]]:
    tree = ast.parse((CORPUS / f"{name}.py").read_text())
    header = ast.get_docstring(tree) or ""
    return header, {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


class _Renamer(ast.NodeTransformer):
    """Renames a function's locals (not its parameters, which tests name, nor globals)."""

    def __init__(self, rng: random.Random, globals_: set[str]):
        self.rng, self.globals, self.names = rng, globals_, {}

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id not in self.globals and node.id not in KEEP and not hasattr(__builtins__, node.id):
            node.id = self.names.setdefault(node.id, f"v{self.rng.randrange(10**6)}_{len(self.names)}")
        return node


NOISE = ["{v} = 0", "{v} = len(str({v}))", "print({v}, {v})", "{v} = [{v}, 1][0] if {v} else {v}"]


def _noise(node: ast.FunctionDef, rng: random.Random) -> None:
    """A student's own touches: a harmless statement here and there, so that no two submissions made
    from the same solutions are alike all through (and shared fingerprints are mostly a few
    submissions', as in a real class)."""
    for parent in list(ast.walk(node)):
        for field in ("body", "orelse"):
            block = getattr(parent, field, None)
            if not isinstance(block, list) or not block or not isinstance(block[0], ast.stmt):
                continue
            for index in sorted(rng.sample(range(len(block) + 1), k=min(2, len(block) + 1)), reverse=True):
                if rng.random() < 0.35:
                    line = rng.choice(NOISE).format(v=f"n{rng.randrange(100)}")
                    block.insert(index, ast.parse(line).body[0])


def make_class(count: int, seed: int, folder: Path, *, noise: bool = True) -> None:
    rng = random.Random(seed)
    solutions = [_functions(name) for name in INDEPENDENT]
    api = list(solutions[0][1])
    helpers = {name for _, functions in solutions for name in functions if name not in api}
    chosen: dict[str, ast.FunctionDef] = {}
    noisy: dict[str, ast.FunctionDef] = {}
    for number in range(count):
        if number % COPY_EVERY != COPY_EVERY - 1:    # else: a renamed, reordered copy of the one before
            chosen = {name: rng.choice([f for _, f in solutions if name in f])[name] for name in api}
        chosen.update({name: next(f[name] for _, f in solutions if name in f) for name in helpers})
        body = []
        for name, node in chosen.items():
            copy = ast.parse(ast.unparse(node)).body[0]
            if number % COPY_EVERY != COPY_EVERY - 1:
                if noise:
                    _noise(copy, rng)
                noisy[name] = copy
            else:
                copy = ast.parse(ast.unparse(noisy[name])).body[0]
            params = {a.arg for a in ast.walk(copy) if isinstance(a, ast.arg)}
            body.append(_Renamer(rng, set(chosen) | params).visit(copy))
        rng.shuffle(body)
        first = [name for name in ("silence", "always_roll") if name in chosen]   # defaults name these
        body.sort(key=lambda node: node.name not in first)
        module = ast.Module(body=ast.parse(f'"""{solutions[0][0]}"""\nfrom dice import six_sided, four_sided, '
                                           f'make_test_dice\nGOAL_SCORE = 100\n').body + body, type_ignores=[])
        (folder / f"student{number:04d}.py").write_text(ast.unparse(module) + "\n")


def timed(function) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--count", type=int, default=500)
    options.add_argument("--seed", type=int, default=3)
    args = options.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder, out = Path(scratch) / "class", Path(scratch) / "out"
        folder.mkdir()
        made = timed(lambda: make_class(args.count, args.seed, folder))
        sources = [path.read_text() for path in sorted(folder.iterdir())]
        baseline = timed(lambda: [ast.parse(source) and None for source in sources])   # no tree kept

        def command(*extra: str) -> None:
            sink = io.StringIO()
            stdout, sys.stdout = sys.stdout, sink
            try:
                assert cli.main(["similarity", str(folder), "--out", str(out), *extra]) == 0
            finally:
                sys.stdout = stdout

        default = timed(lambda: command())
        listed = json.loads((out / JSON_NAME).read_text())["pairs"]
        listed_default = len(listed)
        pairs = {(pair["a"], pair["b"]) for pair in listed}
        copies = {(f"student{n - 1:04d}", f"student{n:04d}") for n in range(COPY_EVERY - 1, args.count, COPY_EVERY)}
        worst = timed(lambda: command("--max-share", str(args.count)))
        listed_worst = len(json.loads((out / JSON_NAME).read_text())["pairs"])
        shutil.rmtree(folder)
        folder.mkdir()
        make_class(args.count, args.seed, folder, noise=False)
        plain = timed(lambda: command("--max-share", str(args.count)))
        listed_plain = (out / JSON_NAME).read_text().count('"score"')
    target = TARGET * args.count / 500
    print(f"{args.count} sp19 submissions (made in {made:.1f} s from {len(INDEPENDENT)} independent solutions)")
    print(f"baseline, ast.parse of every submission:        {baseline:7.2f} s")
    print(f"hog similarity, default --max-share:            {default:7.2f} s  ({default / baseline:5.1f}x the "
          f"baseline; {listed_default} pairs listed, {len(copies & pairs)} of the {len(copies)} planted copies; target {target:.0f} s: {'met' if default < target else 'MISSED'})")
    print(f"hog similarity, nothing ignored (--max-share {args.count}): {worst:7.2f} s  "
          f"({worst / baseline:5.1f}x the baseline; {listed_worst} pairs listed)")
    print(f"the same on a class with no touches of its own:  {plain:7.2f} s  ({plain / baseline:5.1f}x the "
          f"baseline; {listed_plain} pairs listed)")


if __name__ == "__main__":
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
