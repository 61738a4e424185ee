"""The course's ucb module, as the grader provides it to submissions written on the course's skeleton."""

import subprocess
import sys

from grader import project

UCB = project.SHIPPED / "ucb.py"


def run(tmp_path, program, *args, stdin=subprocess.DEVNULL):
    (tmp_path / "ucb.py").write_text(UCB.read_text())
    (tmp_path / "hog.py").write_text(program)
    return subprocess.run([sys.executable, *args], cwd=tmp_path, capture_output=True, text=True,
                          stdin=stdin, timeout=60)


PROGRAM = '''from ucb import main, trace, interact

@trace
def double(x):
    return 2 * x

@main
def run(*args):
    print("main ran with", args)
    interact()
    print("after interact")
'''


def test_main_runs_only_when_the_file_is_the_program(tmp_path):
    as_program = run(tmp_path, PROGRAM, "hog.py", "a", "b")
    assert as_program.stdout == "main ran with ('a', 'b')\nafter interact\n"
    imported = run(tmp_path, PROGRAM, "-c", "import hog; print('imported')")
    assert imported.stdout == "imported\n"


def test_trace_prints_each_call_and_what_it_returned(tmp_path):
    traced = run(tmp_path, PROGRAM, "-c", "import hog; hog.double(hog.double(3))")
    assert traced.stdout == "double(3):\ndouble(3) -> 6\ndouble(6):\ndouble(6) -> 12\n"


def test_interact_does_not_wait_for_input_without_a_terminal(tmp_path):
    """As under the grader: no terminal, so no prompt, nothing printed, no blocking."""
    piped = run(tmp_path, PROGRAM, "hog.py", stdin=subprocess.PIPE)
    assert piped.returncode == 0 and piped.stdout.endswith("after interact\n") and piped.stderr == ""
