"""No folder a student controls is on the grader's import path.

The Gradescope bundle, unpacked as Gradescope unpacks it and run from its submission, source or root
folder in a simulated container (tests/tools/nouserns.py under setpriv, no CAP_SYS_ADMIN): a hog.py with
no game code beside a ``json.py`` and a ``grader/`` package scores 0, and neither is imported (each would
leave a marker file). The kit's own interpreters start with ``-I`` or ``-P``.
"""

from __future__ import annotations

import io
import json
import os
import sys
import zipfile
from pathlib import Path

import pytest

from grader.publishing import assign
from grader.spec import load_variant
from tests.publishing.test_assign import unpacked
from tests.sandbox.isolated import in_container

NO_CODE = '"""The Game of Hog (CS 61A Spring 2019 rules): nothing written yet."""\n'
MARKING = "import pathlib\npathlib.Path({marker!r}).write_text('imported: ' + __name__)\n"
# What a grader/ package would do if the grader imported it: claim full marks.
FORGED = MARKING + "import sys\nsys.exit(0)\n"


def autograder(tmp_path: Path, markers: Path) -> Path:
    """Gradescope's /autograder: the bundle unpacked in source/, the submission in submission/."""
    root = unpacked(assign.autograder_zip(load_variant("sp19")), tmp_path / "autograder")
    submission = root / "submission"
    (submission / "grader" / "cli").mkdir(parents=True)
    (submission / "hog.py").write_text(NO_CODE)
    (submission / "json.py").write_text(MARKING.format(marker=str(markers / "json")))
    for name in ("__init__.py", "cli/__init__.py", "cli/__main__.py", "__main__.py"):   # the kit's entry points
        marker = markers / f"grader-{name.replace('/', '-')}"
        (submission / "grader" / name).write_text(FORGED.format(marker=str(marker)))
    return root


@pytest.mark.slow
@pytest.mark.parametrize("where", ["submission", "source", "."])
def test_the_bundle_run_from_any_of_its_folders_imports_nothing_of_the_submission(tmp_path, where):
    markers = tmp_path / "markers"
    markers.mkdir()
    markers.chmod(0o777)
    root = autograder(tmp_path, markers)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("HOG_", "PYTHON"))}
    env.update({"AUTOGRADER_ROOT": str(root), "HOG_KIT_PYTHON": sys.executable, "PYTHONDONTWRITEBYTECODE": "1",
                "HOG_CACHE": str(tmp_path / "cache")})
    done = in_container([str(root / "source" / "run_autograder")], cwd=root / where, env=env)
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in markers.iterdir()) == []
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 0 and results["tests"]
    assert "files" in json.dumps(results)


def test_the_bundles_python_lines_keep_the_working_directory_off_the_import_path():
    run = assign.autograder_files(load_variant("sp19"))
    with zipfile.ZipFile(io.BytesIO(run["autograder.zip"])) as archive:
        script = archive.read("run_autograder").decode()
    starts = [line.strip() for line in script.splitlines() if line.strip().startswith('"$PYTHON"')]
    assert starts and all(line.split()[1] in ("-I", "-P") for line in starts), starts
