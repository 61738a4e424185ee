"""The files level without Landlock: a tree holding only the Python runtime, entered with chroot.

What a submission sees there is the interpreter, its standard library, the libraries it loads and its
own folder; a world-readable copy of the solutions elsewhere on the machine does not exist for it.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path

import pytest

from grader import project
from grader.sandbox import Limits, level, namespaces, run_cases, tree
from tests import ROOT

pytestmark = pytest.mark.skipif(sys.platform != "linux" or os.geteuid() != 0,
                                reason="a chroot tree is entered by a grader that runs as root, on Linux")


@pytest.fixture(scope="module")
def cache():
    """One cache (and so one tree, made once) for this module's tests."""
    folder = Path(tempfile.mkdtemp(prefix="hog-tree-test-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def in_tree(cache, monkeypatch):
    """The files level as where Landlock is refused: the tree, made in ``cache``."""
    monkeypatch.setattr(project, "CACHE", cache)
    monkeypatch.setattr(level, "landlock_unavailable", lambda: "the kernel offers no Landlock")
    monkeypatch.setenv("HOG_SANDBOX", "files")
    tree._checked.clear()
    yield tree.prepared(namespaces.interpreter())
    tree._checked.clear()


@pytest.mark.slow
def test_the_tree_holds_the_python_runtime_and_nothing_of_the_kit_or_installed_packages(in_tree):
    stdlib = Path(os.path.realpath(__import__("sysconfig").get_paths()["stdlib"]))
    inside = in_tree / str(stdlib).lstrip("/")
    assert (inside / "json" / "__init__.py").is_file() and (inside / "random.py").is_file()
    assert not (inside / "site-packages").exists()
    assert not (in_tree / str(project.PACKAGE).lstrip("/")).exists()
    assert not (in_tree / str(ROOT).lstrip("/")).exists()
    assert not [path for path in in_tree.rglob("*") if path.name in ("grader", "solution", "specs")]
    assert (in_tree / namespaces.interpreter().lstrip("/")).is_file()


@pytest.mark.slow
def test_the_folders_on_the_way_to_the_runtime_can_be_passed_through_but_not_listed(in_tree):
    stdlib = os.path.realpath(__import__("sysconfig").get_paths()["stdlib"])
    assert stat.S_IMODE((in_tree / stdlib.lstrip("/")).stat().st_mode) == 0o755
    assert stat.S_IMODE((in_tree / stdlib.lstrip("/") / "json").stat().st_mode) == 0o755
    assert stat.S_IMODE((in_tree / Path(stdlib).parent.as_posix().lstrip("/")).stat().st_mode) == 0o711
    assert stat.S_IMODE(in_tree.stat().st_mode) == 0o711
    assert stat.S_IMODE((in_tree / tree.SANDBOXES).stat().st_mode) == 0o711


@pytest.mark.slow
def test_a_submission_in_the_tree_finds_no_copy_of_the_solutions_the_machine_holds(in_tree, tmp_path):
    """As root without Landlock: a world-readable copy of the reference in /var/tmp, the kit's checkout,
    /proc and the home folder are all absent for the submission; its own folder and the standard
    library are there, and it runs as a uid of its own."""
    planted = Path(tempfile.mkdtemp(prefix="hog-planted-", dir="/var/tmp"))
    try:
        shutil.copy(ROOT / "solution" / "sp19" / "hog.py", planted / "hog.py")
        os.chmod(planted, 0o755)
        os.chmod(planted / "hog.py", 0o644)
        (tmp_path / "hog.py").write_text("import os, json\n\ndef square(x):\n    return x * x\n")
        probes = [[f"os.path.exists({str(planted / 'hog.py')!r})"], [f"os.path.exists({str(ROOT)!r})"],
                  ["os.path.exists('/proc/self')"], ["os.path.exists(os.path.expanduser('~root'))"],
                  ["os.getuid() >= 1_900_000_000"], ["square(3)"], ["sorted(os.listdir('.'))"]]
        report = run_cases(tmp_path, probes, limits=Limits(case_seconds=10.0), minimum="files")
    finally:
        shutil.rmtree(planted, ignore_errors=True)
    assert (report.level, report.allowlist) == ("files", "chroot"), report.isolation
    assert report.layers[0] == "chroot" and report.layers[1].startswith("own uid ")
    shown = [case.steps[-1].output or case.steps[-1].error for case in report.cases]
    assert shown == ["False\n", "False\n", "False\n", "False\n", "True\n", "9\n", "['hog.py']\n"]


@pytest.mark.slow
def test_an_unfinished_tree_is_made_again(cache, monkeypatch):
    monkeypatch.setattr(project, "CACHE", cache)
    python = namespaces.interpreter()
    made = tree.prepared(python)
    (made / tree.COMPLETE).unlink()           # a build that was stopped before its end
    again = tree.prepared(python)
    assert again == made and (again / tree.COMPLETE).is_file()


def test_a_grader_that_is_not_root_cannot_enter_a_tree_and_says_why(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert tree.unavailable(namespaces.interpreter()) == \
        "the grader does not run as root, so it cannot enter a tree of its own (chroot)"


def test_a_scratch_folder_is_seen_inside_the_tree_from_its_root(tmp_path):
    assert tree.inside(tmp_path / "sandboxes" / "hog-sandbox-1", tmp_path) == "/sandboxes/hog-sandbox-1"


def test_the_bundle_closes_the_cache_but_leaves_the_trees_modes_as_made():
    """setup.sh closes the kit's cache to other users; a recursive chmod of the tree would make the standard
    library unreadable inside it, so the tree's folder is left as the kit made it."""
    setup = (project.PACKAGE / "shipped" / "autograder" / "setup.sh").read_text()
    assert f"! -name {tree.FOLDER} -exec chmod -R go-rwx" in setup and 'chmod -R go-rwx "$cache"' not in setup
