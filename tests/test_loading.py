"""What a grading command loads before it grades: what grading needs, not what other verbs need.

Every ``hog grade`` (a Gradescope run, a student's ``submit.py`` on the course server) and every
``hog grade-batch`` (and the server's grader process) starts a new interpreter; a library loaded for
another verb is time every grade pays. NumPy (the exact engine, loaded when a table is rated or a variant is
minted) and Jinja2 (pages) took 100 and 30 ms of ``grade-batch``'s start.
"""

import os
import subprocess
import sys

import pytest

import grader

# Loaded only by what needs them: the exact engine, pages, YAML specs, Dask, the course server.
LATER = ("numpy", "jinja2", "yaml", "distributed", "sqlalchemy", "starlette")


def modules_after(statement: str) -> set[str]:
    """The modules a new interpreter has loaded after ``statement``."""
    done = subprocess.run([sys.executable, "-c", f"{statement}; import sys; print(' '.join(sys.modules))"],
                          capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def loaded_by(statement: str) -> set[str]:
    """The top-level packages a new interpreter has loaded after ``statement``."""
    return {name.split(".")[0] for name in modules_after(statement)}


@pytest.mark.parametrize("verbs", ["grader.commands.grading", "grader.commands.batch"])
def test_the_grading_verbs_load_no_library_that_only_other_verbs_need(verbs):
    assert loaded_by(f"import grader.cli, {verbs}") & set(LATER) == set()


def test_a_students_hog_py_importing_ucb_loads_no_interactive_console(tmp_path):
    """The course skeleton's ``from ucb import main, trace, interact`` runs in every sandbox of every grade:
    ``interact``'s console (the code module, with traceback and tokenize) loads only when it opens one."""
    from grader import project
    (tmp_path / "ucb.py").write_bytes((project.SHIPPED / "ucb.py").read_bytes())
    done = subprocess.run([sys.executable, "-S", "-c", "import sys; sys.path.insert(0, '.'); "
                           "from ucb import main, trace, interact; interact(); print('code' in sys.modules)"],
                          cwd=tmp_path, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=True)
    assert done.stdout.split() == ["False"]


def test_hog_grade_starts_its_sandbox_before_it_loads_the_spec_the_reference_and_the_cases():
    """The command line starts the sandbox's interpreter with ``grader.commands.starting``, which loads none of
    what grading needs next: those load while the interpreter starts."""
    kit = modules_after("import grader.cli, grader.commands.starting")
    assert {"grader.sandbox.early", "grader.sandbox.child"} <= kit
    assert kit & {"grader.spec", "grader.reference", "grader.cases", "grader.grading.grade",
                  "grader.sandbox.entry"} == set()


@pytest.mark.slow
def test_hog_grade_collects_no_garbage_while_it_grades(tmp_path):
    """``hog grade``'s process lives a fraction of a second: the collector's passes over its young objects (its
    modules, its spec and cases) took 7-10 ms of each grade. From the verb's start, a reference's grade runs none."""
    from grader import project
    script = ("import gc, sys\n"
              "from grader.cli import handlers, main\n"
              "passes = []\n"
              "gc.callbacks.append(lambda phase, info: phase == 'start' and gc.get_threshold()[0] ==\n"
              "                    handlers.GRADE_COLLECTION_THRESHOLD and passes.append(info['generation']))\n"
              f"status = main(['grade', {str(project.SOLUTION / 'sp19' / 'hog.py')!r}, '--seed', '1'])\n"
              "print('status', status, 'passes', len(passes), 'threshold', gc.get_threshold()[0])\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.stdout.splitlines()[-1] == "status 0 passes 0 threshold 50000", done.stderr[-2000:]


# The exact engine's BLAS after the kit is loaded: its process's threads after a product large enough to use
# every thread BLAS has.
BLAS_THREADS = ("import grader, numpy, os; a = numpy.ones((400, 400)); a @ a; "
                "print(len(os.listdir(f'/proc/{os.getpid()}/task')))")


@pytest.mark.parametrize("given, threads", [(None, 1), ("2", 2)])
def test_the_kit_runs_numpys_blas_on_one_thread_unless_the_environment_names_a_count(given, threads):
    """A BLAS thread per core would spin beside the sandboxes and workers on those cores after each call."""
    pytest.importorskip("numpy")
    environment = {name: value for name, value in os.environ.items() if name not in grader.BLAS_THREADS}
    if given is not None:
        environment["OPENBLAS_NUM_THREADS"] = given
    done = subprocess.run([sys.executable, "-c", BLAS_THREADS], capture_output=True, text=True, check=True,
                          env=environment)
    assert int(done.stdout) == threads
