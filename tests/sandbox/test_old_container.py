"""An older container engine or kernel, as Gradescope's and schools' graders may still run: no
namespaces, and the Landlock system calls refused. A root grader still reaches the files level there,
by a tree holding only the Python runtime, entered with chroot before the switch to a uid of the
sandbox's own: the reference grades full, a submission that hunts for the kit (or for a world-readable
copy of the solutions elsewhere on the machine) gets nothing, and the report names the layers that
held. A grader that is not root cannot reach files there and says so.

The engine is simulated with tests/tools/nouserns.py --no-landlock under setpriv, in a mount
namespace of its own with a /tmp of its own (see OLD_CONTAINER); the rest of the machine stays as it is.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

from grader.publishing import assign
from grader.sandbox import level, namespaces
from grader.spec import load_variant
from tests.sandbox.isolated import hunter   # tests/submissions/hostile/steal_kit.py, told where the cache is
from tests import ROOT


# Run as root in a mount namespace of its own (unshare): /tmp is a container's own (without this machine's
# other graders' folders); the interpreter and the folders the kit's requirements come from are mounted
# where other users can reach them (a container's Python lives under /usr). Everything else of the machine
# stays where it is, this checkout and every other copy of the solutions included: the allowlist, not a
# tidy image, is what keeps them from the submission. Then it runs argv[1:] with that interpreter.
OLD_CONTAINER = r"""
import os, subprocess, sys
from pathlib import Path
prefix, *rest = sys.argv[1:]
separator = rest.index("--")
sites, command = rest[:separator], rest[separator + 1:]
def mount(*arguments):
    subprocess.run(["mount", *arguments], check=True)
mount("-t", "tmpfs", "-o", "mode=755", "none", "/mnt")
os.makedirs("/mnt/python")
mount("--bind", prefix, "/mnt/python")
paths = []
for number, site in enumerate(sites):
    os.makedirs(f"/mnt/site{number}")
    mount("--bind", site, f"/mnt/site{number}")
    paths.append(f"/mnt/site{number}")
mount("-t", "tmpfs", "-o", "mode=1777", "none", "/tmp")
os.environ["HOG_TEST_SITES"] = os.pathsep.join(paths)
os.execv(command[0], command)
"""
# In the container: grade the reference and the hunter at files (root), and say what the hunter got.
GRADE_IN_CONTAINER = r"""
import json, os, sys
sys.path[:0] = [sys.argv[1]] + [p for p in os.environ["HOG_TEST_SITES"].split(os.pathsep) if p]
from pathlib import Path
from grader.grading import grade
from grader.sandbox import Limits, run_cases
from grader.spec import load_variant
variant = load_variant("sp19")
found = {}
for name in ("reference", "hunter"):
    result = grade.grade(Path(sys.argv[2 if name == "reference" else 3]), variant, minimum="files")
    found[name] = [result.score, result.max_score, result.isolation_level, result.isolation, result.grader_error]
# A neighbour: the reference, waiting in its sandbox (its own uid, its own folder) while the hunter hunts.
import threading, time
neighbour = threading.Thread(target=run_cases, args=(sys.argv[2], [["__import__('time').sleep(0.6)"]] * 6),
                             kwargs={"minimum": "files"})
neighbour.start()
time.sleep(1.0)
report = run_cases(sys.argv[3], [["loot()"], ["'play' in dir()"], ["reach_out()"], ["__import__('os').getuid()"]],
                   minimum="files", limits=Limits(case_seconds=20.0))
neighbour.join()
found["hunt"] = [report.level, list(report.layers)] + [case.steps[-1].output or case.steps[-1].error
                                                        for case in report.cases]
print(json.dumps(found))
"""
HUNT_FURTHER = r"""

def reach_out():
    '''What the grader's process, other sandboxes and the kit's places give away to this uid.'''
    import glob, os
    opened = []
    grader = os.getppid()
    for name in ("environ", "cmdline", "cwd", "root", "maps", "mem", "fd", "fdinfo"):
        path = f"/proc/{grader}/{name}"
        try:
            if name in ("cwd", "root"):
                os.listdir(path)
            elif name in ("fd", "fdinfo"):
                os.listdir(path)
            else:
                with open(path, "rb") as handle:
                    handle.read(1)
            opened.append(name)
        except OSError:
            pass
    mine = str(os.getpid())
    try:
        pids = [entry for entry in os.listdir("/proc") if entry.isdigit() and entry != mine]
    except OSError:
        pids = []                                             # no /proc at all
    for pid in pids:
        for name in ("environ", "cwd", "root", "maps", "fd"):  # of every other process, the grader's too
            try:
                if name in ("cwd", "root", "fd"):
                    os.listdir(f"/proc/{pid}/{name}")
                else:
                    with open(f"/proc/{pid}/{name}", "rb") as handle:
                        if not handle.read(1):
                            continue                       # a kernel thread: nothing there
                opened.append(f"/proc/{pid}/{name}")
            except OSError:
                pass
    for folder in glob.glob("/tmp/*/"):                       # other sandboxes' folders, by name
        try:
            with open(folder + "hog.py", "rb") as handle:
                handle.read(1)
            if not folder.startswith(os.getcwd()):
                opened.append(folder + "hog.py")
        except OSError:
            pass
    for pattern in ("/tmp/*", "/tmp/*/*", "/tmp/*/*/*", "/tmp/*/*/*/*"):
        for path in glob.glob(pattern):
            if (path.endswith(".py") or path.endswith("key")) and not path.startswith(os.getcwd()):
                try:
                    with open(path, "rb") as handle:
                        handle.read(1)
                    opened.append(path)
                except OSError:
                    pass
    for name in KIT_PLACES:
        try:
            os.listdir(name)
            opened.append(name)
        except OSError:
            pass
    return sorted(opened), len(glob.glob("/tmp/hog-sandbox-*"))
"""


def NOUSERNS_COPY(place: Path) -> Path:
    """tests/tools/nouserns.py where the container can run it (this checkout is hidden there)."""
    copy = place / "tools" / "nouserns.py"
    if not copy.exists():
        copy.parent.mkdir()
        shutil.copy(ROOT / "tests" / "tools" / "nouserns.py", copy)
    return copy


CONTAINER_PYTHON = f"/mnt/python/bin/python{sys.version_info.major}.{sys.version_info.minor}"


@pytest.fixture
def place():
    """A folder that other users may enter (as /autograder is), outside /tmp."""
    folder = Path(tempfile.mkdtemp(prefix="hog-test-", dir="/var/tmp"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _old_container(tmp_path: Path, command: list[str], landlock: bool = False, **env: str) -> subprocess.CompletedProcess:
    """``command`` (a first word "python" is the container's interpreter) in the simulated container:
    no namespaces, no Landlock (unless ``landlock``: a current engine), no CAP_SYS_ADMIN; ``env`` added."""
    setpriv, unshare = shutil.which("setpriv"), shutil.which("unshare")
    if setpriv is None or unshare is None or os.geteuid() != 0:
        pytest.skip("needs root, setpriv and unshare to simulate an older container engine")
    prefix = os.path.realpath(sys.base_prefix)
    sites = sorted({os.path.realpath(path) for path in sys.path if path.endswith("-packages")
                    and os.path.isdir(path) and not path.startswith(prefix)})
    python = f"/mnt/python/{Path(os.path.realpath(sys.executable)).relative_to(prefix)}" \
        if os.path.realpath(sys.executable).startswith(prefix) else None
    if python is None:
        python = f"/mnt/python/bin/python{sys.version_info.major}.{sys.version_info.minor}"
    inner = [setpriv, "--bounding-set", "-sys_admin", "--inh-caps", "-sys_admin", python,
             str(NOUSERNS_COPY(tmp_path)), *([] if landlock else ["--no-landlock"]),
             *([python] if command[0] == "python" else [command[0]]), *command[1:]]
    env = {**{key: value for key, value in os.environ.items() if not key.startswith(("HOG_", "PYTHON", "PIP_"))},
           "HOG_CACHE": str(tmp_path / "cache"), **env}
    return subprocess.run([unshare, "--mount", "--propagation", "private", sys.executable, "-c", OLD_CONTAINER,
                           prefix, *sites, "--", *inner], capture_output=True, text=True, env=env,
                          timeout=600)


def _hunter_for(tmp_path: Path, places: list[Path]) -> Path:
    """The hunter, told to look in ``places`` as well as everywhere it looks (the cache, /root, this
    checkout, /proc, /tmp)."""
    places = [str(path) for path in places] + [str(tmp_path / "cache"), str(tmp_path / "cache" / "hidden"),
                                               "/root", str(ROOT)]
    folder = hunter(tmp_path, tmp_path / "cache" / "hidden")
    (folder / "hog.py").write_text((folder / "hog.py").read_text().replace(
        '["/work", "/work/main", os.path.expanduser("~")]', repr(places + [str(tmp_path)]))
        + f"\nKIT_PLACES = {places!r}\n" + HUNT_FURTHER)
    folder.chmod(0o700)
    return folder


def _planted(place: Path) -> Path:
    """A world-readable copy of the reference solutions outside every folder the kit knows of, as a
    course image, a self-hosted runner or a TA's checkout leaves one: the allowlist must keep it out."""
    copy = place / "srv" / "course"
    shutil.copytree(ROOT / "solution", copy / "solution", ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(["chmod", "-R", "a+rX", str(place / "srv")], check=True)
    return copy


def _closed_kit(tmp_path: Path) -> Path:
    """A copy of the kit, closed to other users as the bundle's setup.sh leaves it."""
    kit = tmp_path / "kit"
    for name in ("grader", "specs", "solution"):
        shutil.copytree(ROOT / name, kit / name, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(["chmod", "-R", "go-rwx", str(kit)], check=True)
    return kit


@pytest.mark.slow
def test_in_an_older_container_as_root_files_holds_by_a_chroot_tree_and_a_uid_of_its_own(place):
    """Docker before 23.0, or a kernel without Landlock: Landlock refused, no namespaces. The reference
    still grades full at files, and a hog.py with no game code that hunts for the kit (the checkout,
    solution/, a world-readable copy of the solutions elsewhere, the whole disk it can see, the cache and
    its key, /proc of the grader, other sandboxes' folders) gets 0: nothing but the Python runtime and
    its own folder exists for it. The layers are named, chroot first."""
    tmp_path = place
    kit, planted = _closed_kit(tmp_path), _planted(tmp_path)
    (tmp_path / "reference").mkdir()
    shutil.copy(ROOT / "solution" / "sp19" / "hog.py", tmp_path / "reference" / "hog.py")
    (tmp_path / "reference").chmod(0o700)
    folder = _hunter_for(tmp_path, [kit, kit / "solution", tmp_path / "reference", planted, planted / "solution"])
    done = _old_container(tmp_path, ["python", "-c", GRADE_IN_CONTAINER, str(kit), str(tmp_path / "reference"),
                                     str(folder)])
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    score, best, reached, isolation, fault = found["reference"]
    assert (score, best, reached, fault) == (23, 23, "files", None), isolation
    assert isolation.startswith("files (layers: chroot, own uid 19") and ", seccomp; no Landlock: the kernel " \
        "offers no Landlock (errno 1); chroot: only the Python standard library" in isolation
    score, best, reached, isolation, fault = found["hunter"]
    assert (score, reached, fault) == (0, "files", None)
    level_reached, layers, stolen, has_play, reached_out, uid = found["hunt"]
    assert level_reached == "files" and layers[0] == "chroot" and layers[1].startswith("own uid ")
    assert layers[2:] == ["seccomp"]
    assert stolen.startswith("([], ") and "True" not in stolen, stolen
    assert has_play == "False\n"
    assert reached_out == "([], 0)\n", reached_out   # no /proc, no other sandbox, no place of the kit's
    assert int(uid) >= 1_900_000_000


@pytest.mark.slow
def test_in_an_older_container_a_grader_that_is_not_root_cannot_reach_files_and_says_so(place):
    tmp_path = place
    kit = _closed_kit(tmp_path)
    subprocess.run(["chmod", "-R", "go+rX", str(kit)], check=True)   # nobody runs it: it must read it
    (tmp_path / "cache").mkdir(mode=0o777)
    (tmp_path / "cache").chmod(0o777)
    (tmp_path / "submission").mkdir()
    shutil.copy(ROOT / "solution" / "sp19" / "hog.py", tmp_path / "submission" / "hog.py")
    (tmp_path / "submission").chmod(0o755)
    script = ("import os, sys; sys.path[:0] = [sys.argv[1]] + [p for p in os.environ['HOG_TEST_SITES']"
              ".split(os.pathsep) if p]; os.setgid(65534); os.setgroups([]); os.setuid(65534); "
              "from grader import cli; sys.argv = ['hog', 'grade', sys.argv[2], '--variant', 'sp19', "
              "'--format', 'json']; cli.run()")
    done = _old_container(tmp_path, ["python", "-c", script, str(kit), str(tmp_path / "submission")])
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["score"] == 0 and result.get("grader_failed") is True, done.stdout[-2000:]
    assert ("isolation 'files' is required, but only 'process' can be reached here: bubblewrap failed its "
            "start-up check") in done.stdout + done.stderr
    assert ("the kernel offers no Landlock (errno 1), and the grader does not run as root, so it cannot enter "
            "a tree of its own (chroot)") in done.stdout + done.stderr


# The kit as setup.sh leaves it installed, run with the venv's interpreter and -P -s as run_autograder
# runs it: where its ``grader`` comes from (the venv, never this checkout).
WHERE_FROM = "import grader, sys; print(grader.__file__); print(sys._base_executable)"
# The interpreters setup.sh looks for; all but the one under test are covered (an image with that one only).
SETUP_PYTHONS = ("python3.13", "python3.12", "python3.11", "python3")


def _set_up_bundle(place: Path, root: Path, wheelhouse: Path, container: bool) -> str:
    """The bundle's setup.sh, as root, as Gradescope runs it while it builds the image, in the container
    (or, for bubblewrap, on this machine), where the only Python is the interpreter the sandbox will run
    (the container's, under /mnt/python; on this machine the one this checkout's environment was made
    from); apt-get only answers (the image has what it would install). pip installs the kit's wheel and
    its requirements from ``wheelhouse`` alone (HOG_PIP_OPTIONS; this machine's pip configuration left
    out): no index, no byte code. Returns the venv's python."""
    base = CONTAINER_PYTHON if container else namespaces.interpreter()
    stubs = place / "stubs"
    stubs.mkdir()
    for name in ("apt-get", *(candidate for candidate in SETUP_PYTHONS if candidate != Path(base).name)):
        (stubs / name).write_text("#!/bin/sh\nexit 0\n" if name == "apt-get" else "#!/bin/sh\nexit 1\n")
        (stubs / name).chmod(0o755)
    # --no-compile: byte code is not what these tests are about, and compiling the modules of SciPy, NumPy
    # and Numba takes most of the install's time (and of the removal's, after).
    env = {"AUTOGRADER_ROOT": str(root), "HOG_PIP_OPTIONS": f"--no-index --find-links {wheelhouse} --no-compile",
           "PIP_CONFIG_FILE": os.devnull, "PATH": f"{stubs}:{Path(base).parent}:/usr/bin:/bin"}
    venv, python = root / "hog-venv", str(root / "hog-venv" / "bin" / "python")
    for command in (["bash", str(root / "source" / "setup.sh")], [python, "-P", "-s", "-c", WHERE_FROM]):
        if container:
            done = _old_container(place, command, **env)
        else:
            done = subprocess.run(command, capture_output=True, text=True, timeout=600,
                                  env={**{k: v for k, v in os.environ.items() if not k.startswith(("HOG_", "PYTHON", "PIP_"))},
                                       "HOG_CACHE": str(place / "cache"), **env})
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    package, made_from = done.stdout.split()
    assert Path(package).is_relative_to(venv) and not Path(package).is_relative_to(ROOT), package
    assert made_from == base, made_from        # the interpreter the sandbox runs, readable by its uid
    return python


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["older", "current", "bubblewrap"])
def test_in_a_container_the_gradescope_bundle_grades_the_reference_full_and_a_hunter_zero(place, engine, wheelhouse):
    """The bundle as Gradescope unpacks it, set up by its setup.sh (its wheel and the kit's requirements
    installed in $ROOT/hog-venv from a wheelhouse, no index; the kit closed to other users); run_autograder
    at its default isolation (files), with that venv's python, which imports the installed kit (this
    checkout is hidden): the reference 23/23, the hunter 0, results.json naming the layers: the uid alone
    in an engine older than Landlock, Landlock and the uid in a current one; where bubblewrap can start
    (no container), bubblewrap as before."""
    if engine == "current" and level.landlock_unavailable():
        pytest.skip(level.landlock_unavailable())
    if engine == "bubblewrap" and namespaces.unavailable():
        pytest.skip(namespaces.unavailable())
    if subprocess.run([namespaces.interpreter(), "-c", "import ensurepip"], capture_output=True).returncode:
        version = f"{sys.version_info.major}.{sys.version_info.minor}"
        pytest.skip(f"setup.sh makes its venv with {namespaces.interpreter()}, which has no ensurepip here "
                    f"(on Debian or Ubuntu: apt-get install python{version}-venv)")
    root = place / "autograder"
    with zipfile.ZipFile(io.BytesIO(assign.autograder_zip(load_variant("sp19")))) as archive:
        archive.extractall(root / "source")
    python = _set_up_bundle(place, root, wheelhouse, container=engine != "bubblewrap")
    assert not (root / "source").stat().st_mode & 0o077 and not (root / "hog-venv").stat().st_mode & 0o077
    planted = _planted(place)
    submissions = {"reference": (ROOT / "solution" / "sp19" / "hog.py").read_text(),
                   "hunter": (_hunter_for(place, [root / "source", root / "source" / "kit", root / "hog-venv",
                                                  planted, planted / "solution"]) / "hog.py").read_text()}
    graded = {}
    for name, source in submissions.items():
        shutil.rmtree(root / "submission", ignore_errors=True)
        (root / "submission").mkdir()
        (root / "submission" / "hog.py").write_text(source)
        if engine == "bubblewrap":
            done = subprocess.run(["bash", str(root / "source" / "run_autograder")], capture_output=True, text=True,
                                  timeout=600, env={**{k: v for k, v in os.environ.items() if not k.startswith("HOG_")},
                                                    "AUTOGRADER_ROOT": str(root), "HOG_KIT_PYTHON": python,
                                                    "HOG_CACHE": str(place / "cache")})
        else:
            done = _old_container(place, ["bash", str(root / "source" / "run_autograder")], engine == "current",
                                  AUTOGRADER_ROOT=str(root), HOG_KIT_PYTHON=python)
        assert done.returncode == 0, done.stderr[-3000:]
        graded[name] = json.loads((root / "results" / "results.json").read_text())
    for name, score in (("reference", 23), ("hunter", 0)):
        result = graded[name]
        assert result["score"] == score, result["isolation"]
        if engine == "bubblewrap":
            assert result["isolation_level"] == result["isolation"] == "bubblewrap"
            continue
        assert result["isolation_level"] == "files"
        if engine == "older":
            assert result["isolation"].startswith("files (layers: chroot, own uid 19") and ", seccomp; no Landlock" \
                in result["isolation"]
            assert result["isolation_allowlist"] == "chroot"
        else:
            assert result["isolation_allowlist"] == "Landlock"
            assert result["isolation"].startswith("files (layers: Landlock, own uid 19") and ", seccomp; " \
                "Landlock: only the Python standard library" in result["isolation"]


@pytest.mark.slow
def test_in_an_older_container_a_class_folder_open_to_other_users_is_graded_and_no_submission_reads_another(place):
    """grade-batch as root without Landlock, the class's folder readable by everyone: each submission runs
    in the tree, where the class's other hog.py files do not exist; the reference grades full and a
    hunter told where the class folder is finds nothing there."""
    kit = _closed_kit(place)
    batch, out = place / "class", place / "out"
    (batch / "ada").mkdir(parents=True)
    shutil.copy(ROOT / "solution" / "sp19" / "hog.py", batch / "ada" / "hog.py")
    hunter_folder = _hunter_for(place, [batch, batch / "ada", out])
    shutil.copytree(hunter_folder, batch / "eve")
    subprocess.run(["chmod", "-R", "a+rX", str(batch)], check=True)
    script = ("import os, sys; sys.path[:0] = [sys.argv[1]] + [p for p in os.environ['HOG_TEST_SITES']"
              ".split(os.pathsep) if p]; from grader import cli; sys.argv = ['hog', 'grade-batch', sys.argv[2], "
              "'--variant', 'sp19', '--out', sys.argv[3], '--jobs', '1']; cli.run()")
    done = _old_container(place, ["python", "-c", script, str(kit), str(batch), str(out)])
    assert done.returncode == 0, done.stderr[-2000:]
    ada, eve = (json.loads((out / f"{name}.json").read_text()) for name in ("ada", "eve"))
    assert ada["score"] == 23 and eve["score"] == 0
    assert ada["isolation_allowlist"] == eve["isolation_allowlist"] == "chroot"
    assert not ada.get("grader_failed") and not eve.get("grader_failed")
