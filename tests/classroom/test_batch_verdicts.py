"""The verdicts of a batch stay what they were: the kit's submission corpus (real students' choices and
bugs, and each variant's reference), graded in a batch per variant with a fixed seed, gives the same
results.json, and the same instructor records, as the goldens in tests/goldens/batch/ (refreshed with
``python -m pytest --update-goldens`` when a change of verdict is intended).

Only what depends on when, where and how fast it ran is left out: times, the kit's version, the key of
the code the hidden cases come from, and the isolation this machine reached."""

import json
import shutil
from pathlib import Path

import pytest

from grader.classroom import batch
from grader.report import instructor
from grader.spec import load_variant
from tests import ROOT, TESTS

VARIANTS = ("fa18", "fa19", "nju21", "nju24", "sp19")
SEED = 20261126
TIMING = {"execution_time", "seconds", "kit_version", batch.GRADED_FROM}
ISOLATION = ("isolation", "isolation_level", "isolation_allowlist")


def _corpus(variant: str, folder: Path) -> None:
    """The corpus files of one variant, each a submission named after its file, and the reference."""
    folder.mkdir()
    for kind in ("allowed", "buggy"):
        for path in sorted((TESTS / "submissions" / kind).glob(f"{variant}_*.py")):
            shutil.copy(path, folder / f"{kind}_{path.name}")
    shutil.copy(ROOT / "solution" / variant / "hog.py", folder / "reference.py")


def _untimed(data):
    if isinstance(data, dict):
        return {key: _untimed(value) for key, value in data.items() if key not in TIMING}
    if isinstance(data, list):
        return [_untimed(value) for value in data]
    return data


def _here(data: dict) -> dict:
    """``data`` without the isolation this machine reached, which its summary line names too."""
    isolation = data.get("isolation")
    kept = {key: value for key, value in data.items() if key not in ISOLATION}
    if isolation and "output" in kept:
        kept["output"] = kept["output"].replace(f"Isolation: {isolation}.", "Isolation: (this machine's).")
    return kept


def _verdicts(out: Path) -> dict:
    found = {}
    for path in sorted(out.glob("*.json")):
        found[path.stem] = {"results": _here(_untimed(json.loads(path.read_text()))),
                            "instructor": _here(_untimed(json.loads((out / instructor.FOLDER / path.name).read_text())))}
    return found


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_batch_grades_the_same_before_and_after(tmp_path, golden, variant):
    _corpus(variant, tmp_path / "in")
    summary = batch.grade_batch(tmp_path / "in", load_variant(variant), tmp_path / "out", jobs=2, seed=SEED)
    assert summary.failed == 0
    golden(f"batch/{variant}.json", json.dumps(_verdicts(tmp_path / "out"), indent=1, sort_keys=True) + "\n")
