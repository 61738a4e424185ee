"""Mint variants for many seeds in a temporary course folder, and check each end to end.

    python benchmarks/mint_seeds.py [--seeds 20] [--keep] [--docs]

For each seed: ``hog mint`` (balance figures shown), ``hog build --variant``,
``hog build --check --variant``, the solution graded (full marks expected),
the skeleton graded (0 expected), ``hog assign``, the handout rendered. Then the compositions
must all differ. The variants are minted in a course folder of their own (``hog init``), so nothing
here touches the project.
Exit 1 if any seed fails a check.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

KIT = Path(__file__).resolve().parent.parent


def hog(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(KIT), "HOG_COURSE": str(root), "HOG_CACHE": str(root / ".cache")}
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], cwd=root, env=env,
                          capture_output=True, text=True)


def new_course(into: Path) -> Path:
    """A new course folder for the minted variants."""
    subprocess.run([sys.executable, "-m", "grader.cli", "init", str(into)], check=True, capture_output=True,
                   env={**os.environ, "PYTHONPATH": str(KIT)})
    return into


def score(result: subprocess.CompletedProcess) -> tuple[float, float]:
    data = json.loads(result.stdout)
    return data["score"], data["max_score"]


def check_seed(root: Path, seed: int) -> dict:
    vid = f"m{seed:02d}"
    started = time.perf_counter()
    row = {"seed": seed, "id": vid, "problems": []}
    minted = hog(root, "mint", vid, "--seed", str(seed))
    row["mint_output"] = minted.stdout
    if minted.returncode:
        row["problems"].append(f"mint failed: {minted.stderr.strip()}")
        return row
    spec = yaml.safe_load((root / "specs" / f"{vid}.yaml").read_text(encoding="utf-8"))
    row["compose"] = spec["compose"]
    row["thresholds"] = [t["win_rate"] for q in spec["questions"] for t in q.get("thresholds", [])]
    row["draws"] = minted.stdout.count("\ndraw ") + 1
    lines = minted.stdout.splitlines()
    last = max(i for i, line in enumerate(lines) if line.startswith("  different from"))
    row["figures"] = [line.strip() for line in lines[last - 6:last]]
    for args, what in ((("build", "--variant", vid), "build"),
                       (("build", "--check", "--variant", vid), "build --check")):
        result = hog(root, *args)
        if result.returncode:
            row["problems"].append(f"{what} failed: {result.stdout[-300:]}{result.stderr[-300:]}")
            return row
    got, total = score(hog(root, "grade", f"solution/{vid}", "--variant", vid, "--format", "json"))
    row["solution"] = f"{got:g}/{total:g}"
    if got != total:
        row["problems"].append(f"solution scored {got}/{total}")
    got, total = score(hog(root, "grade", f"skeleton/{vid}", "--variant", vid, "--format", "json"))
    row["skeleton"] = f"{got:g}/{total:g}"
    if got != 0:
        row["problems"].append(f"skeleton scored {got}/{total}")
    assigned = hog(root, "assign", vid, "--out", str(root / "release" / vid))
    if assigned.returncode or not (root / "release" / vid / "autograder" / "autograder.zip").exists():
        row["problems"].append(f"hog assign failed: {assigned.stderr.strip()[-300:]}")
    handout = hog(root, "handout", vid, "--format", "md")
    zero_rule = " ".join(spec["rules"][1]["summary"].split()[:8])
    if handout.returncode or zero_rule not in handout.stdout or "example 1" not in handout.stdout:
        row["problems"].append("the handout did not render the rules")
    row["seconds"] = time.perf_counter() - started
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--keep", action="store_true", help="keep the temporary project and print its path")
    args = parser.parse_args()
    root = new_course(Path(tempfile.mkdtemp(prefix="hog-mint-")))
    rows = []
    for seed in range(1, args.seeds + 1):
        row = check_seed(root, seed)
        rows.append(row)
        compose = row.get("compose", {})
        print(f"seed {seed:2}: {compose.get('zero_dice', '-')}, {compose.get('swap', '-')}, "
              f"bonus {compose.get('bonus', 'none')}; draws {row.get('draws', '-')}; solution "
              f"{row.get('solution', '-')}, skeleton {row.get('skeleton', '-')}; thresholds "
              f"{row.get('thresholds', '-')}; {row.get('seconds', 0):.0f} s", flush=True)
        for line in row.get("figures", []):
            print(f"         {line}")
        for problem in row["problems"]:
            print(f"         PROBLEM: {problem}")
    compositions = [tuple(sorted(r["compose"].items())) for r in rows if "compose" in r]
    distinct = len(set(compositions))
    failed = [r["seed"] for r in rows if r["problems"]]
    print(f"\n{len(rows)} seeds: {distinct} distinct compositions, {len(rows) - len(failed)} passed every check"
          + (f"; failed: {failed}" if failed else ""))
    if args.keep:
        print(f"course folder kept in {root}")
    else:
        shutil.rmtree(root)
    return 0 if not failed and distinct == len(rows) else 1


if __name__ == "__main__":
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
