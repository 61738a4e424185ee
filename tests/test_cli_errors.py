"""Bad input to the command line gets one clear line and the documented exit status, never a traceback."""

import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from grader import cli, project


def hog(*args, env=None, **options):
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], capture_output=True, text=True,
                          env=env, **options)


@pytest.mark.slow
def test_a_spec_that_is_not_utf8_names_its_line(tmp_path):
    (tmp_path / "specs").mkdir()
    (tmp_path / "hog-course.toml").write_text("")
    text = (project.SPECS / "sp19.yaml").read_bytes().replace(b"Pig Out, example 1", b"Pig Out, \xe9xample 1", 1)
    (tmp_path / "specs" / "mine.yaml").write_bytes(text)
    line = text[:text.index(b"\xe9")].count(b"\n") + 1
    result = hog("cases", "mine", env={"HOG_COURSE": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 2
    assert result.stderr == f"Error: specs/mine.yaml:{line}: the spec is not UTF-8 text (save it as UTF-8)\n"


@pytest.mark.slow
def test_an_output_that_cannot_be_written_is_a_usage_error():
    result = hog("grade", str(project.SOLUTION / "nju24"), "--variant", "nju24", "--output", "/proc/version")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("Error: cannot write /proc/version: ")
    assert result.stderr.endswith("(choose an --output in a folder you can write to)\n")


@pytest.mark.slow
def test_a_reader_that_stops_early_ends_the_command_quietly():
    """`hog cases fa19 --hidden | head -n 1`: the first line, then exit 141 as a shell reports SIGPIPE
    (the listing is far larger than a pipe holds, so the command is still writing when the reader goes)."""
    piped = subprocess.Popen([sys.executable, "-m", "grader.cli", "cases", "fa19", "--hidden"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert piped.stdout.readline().startswith(b"fa19-q01-1  question 01  public")
    piped.stdout.close()
    assert piped.wait(timeout=60) == 141
    assert b"Traceback" not in piped.stderr.read()


def test_every_verb_of_the_parser_has_a_handler():
    from grader import cli
    verbs = next(action for action in cli.parser()._actions if action.dest == "verb")
    assert sorted(verbs.choices) == sorted(cli.HANDLERS)


def test_each_kind_of_error_has_its_exit_status():
    from grader import cli
    from grader.errors import GraderFault, OutputError, SpecError, UsageError
    from grader.reference.hog_source import BuildError
    assert [cli.exit_status(error) for error in (UsageError("u"), OutputError("o"), SpecError("specs/x.yaml", 3, "w"),
                                                 BuildError("b"), GraderFault("g"))] == [2, 2, 2, 2, 1]
@pytest.mark.parametrize("kind", ["fifo", "symlink", "folder", "device"])
def test_an_output_that_is_not_a_regular_file_is_refused_and_left_alone(tmp_path, kind, capsys):
    target, original = tmp_path / "report.json", tmp_path / "original.txt"
    original.write_text("keep me\n")
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        target.symlink_to(original)
    elif kind == "folder":
        target.mkdir()
    else:
        try:
            os.mknod(target, stat.S_IFCHR | 0o666, os.makedev(1, 3))   # what /dev/null is
        except PermissionError:
            pytest.skip("this user cannot make a device node")
    before = os.lstat(target)
    status = cli.main(["grade", str(project.SOLUTION / "fa18"), "--variant", "fa18", "--output", str(target)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert err.startswith(f"Error: --output {target} is a") and "nothing was written" in err
    after = os.lstat(target)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    assert original.read_text() == "keep me\n"


@pytest.mark.slow
def test_a_full_standard_output_is_one_line_and_exit_1():
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(project.SOLUTION / "fa18"),
                                 "--variant", "fa18"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=600)
    assert result.returncode == 1
    assert result.stderr == "Error: cannot write to standard output: No space left on device\n"


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_stopping_hog_grade_is_one_line_and_leaves_no_scratch_folder(tmp_path, signum):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    run = subprocess.Popen([sys.executable, "-m", "grader.cli", "grade", str(project.SOLUTION / "nju21"),
                            "--variant", "nju21"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env={**os.environ, "TMPDIR": str(scratch)})
    deadline = time.monotonic() + 300
    while not list(scratch.glob("hog-scratch-*/hog-sandbox-*")) and time.monotonic() < deadline:
        time.sleep(0.02)
    run.send_signal(signum)
    stdout, stderr = run.communicate(timeout=120)
    assert run.returncode == 128 + signum
    assert stdout == "" and stderr == f"Stopped by {signal.Signals(signum).name}.\n"
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("verb", sorted(cli.HANDLERS))
def test_a_verb_parses_and_explains_itself_the_same_when_only_it_is_built(verb, capsys):
    """A run builds only the verb its command line names; its help and its parsing stay those of the full parser."""
    for build in (cli.parser, lambda: cli.parser(verb)):
        with pytest.raises(SystemExit):
            build().parse_args([verb, "--help"])
    full, alone = capsys.readouterr().out.split("usage: ")[1:]
    assert full == alone
