"""`hog play --submission`: the student's code runs only in the sandbox, at the isolation grading
requires, and the page says so. A hog.py that lists the kit's files and writes outside its folder
has its move played, sees nothing of the kit and writes nothing; a sandbox that cannot start is the
move's problem on the page, and nothing of the submission runs elsewhere."""

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from grader import project
from grader.classroom import play
from grader.errors import UsageError
from grader.sandbox import level, namespaces
from grader.spec import load_variant
from tests import TESTS
from tests.shipped.playing import call, port_and_token

KIT = [str(project.PACKAGE), str(project.SOLUTION), str(project.ROOT)]
# What a student could append to a working hog.py: look around, write outside, and show the page.
HOSTILE = '''

import os as _os
_SEEN = []
for _path in {kit!r}:
    try:
        _SEEN.append(_path + ": " + ", ".join(sorted(_os.listdir(_path))))
    except OSError as _error:
        _SEEN.append(_path + ": " + type(_error).__name__)
try:
    with open({outside!r}, "w") as _handle:
        _handle.write("escaped")
    _SEEN.append("wrote {outside}")
except OSError as _error:
    _SEEN.append("writing outside: " + type(_error).__name__)

import hog_gui_game as _game
_replay = _game.run_game


def _shown(*args, **kwargs):
    state = _replay(*args, **kwargs)
    state["notes"].append("seen: " + " | ".join(_SEEN))
    return state


_game.run_game = _shown
'''


def hostile(tmp_path):
    """An sp19 solution that, on import, lists the kit's folders and writes tmp_path/escaped.txt."""
    outside = tmp_path / "escaped.txt"
    submission = tmp_path / "student" / "hog.py"
    submission.parent.mkdir()
    submission.write_text((project.SOLUTION / "sp19" / "hog.py").read_text()
                          + HOSTILE.format(kit=KIT, outside=str(outside)))
    return submission, outside


def reachable(name):
    problem = level.landlock_unavailable() if name == "files" else namespaces.unavailable()
    if problem is not None:
        pytest.skip(f"the {name} level cannot be reached here: {problem}")


def seen_note(answer):
    notes = [note for note in answer["notes"] if note.startswith("seen: ")]
    assert len(notes) == 1, answer
    return notes[0]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["files", "bubblewrap"])
def test_a_submission_that_looks_around_plays_its_move_and_sees_and_writes_nothing(tmp_path, monkeypatch, name):
    reachable(name)
    monkeypatch.setenv("HOG_SANDBOX", name)
    submission, outside = hostile(tmp_path)
    app = play.app(load_variant("sp19"), vs="final", submission=submission)
    answer = app.engine.run([[0, 3]], [], 100, computer=True)
    assert answer["ok"], answer
    assert [move[0] for move in answer["moves"]] == [0, 1] and len(answer["turns"]) == 2
    seen = seen_note(answer)
    for path in KIT:
        assert f"{path}: PermissionError" in seen or f"{path}: FileNotFoundError" in seen, seen
    assert "errors.py" not in seen and "hog.py" not in seen
    assert "writing outside: " in seen and not outside.exists()
    assert any(note.startswith(f"The submission ran in the sandbox: {name}") for note in answer["notes"])


@pytest.mark.slow
def test_at_the_process_level_asked_for_the_same_submission_reads_the_kit_but_writes_nothing(tmp_path, monkeypatch):
    """The probe above is real: with the file layer off (an instructor's explicit --isolation process)
    it lists the kit; the system call filter still refuses every write."""
    monkeypatch.setenv("HOG_SANDBOX", "process")
    submission, outside = hostile(tmp_path)
    app = play.app(load_variant("sp19"), submission=submission, isolation="process")
    answer = app.engine.run([[0, 3]], [], 100, computer=False)
    assert answer["ok"], answer
    seen = seen_note(answer)
    assert "errors.py" in seen and "classroom" in seen
    assert "writing outside: PermissionError" in seen and not outside.exists()
    assert any(note.startswith("The submission ran in the sandbox: process limits only") for note in answer["notes"])


@pytest.mark.slow
def test_a_submission_is_judged_in_the_sandbox_against_the_reference(tmp_path):
    source = (project.SOLUTION / "sp19" / "hog.py").read_text()
    bug = "    return 1 + min(tens, ones)\n"
    assert bug in source
    submission = tmp_path / "hog.py"
    submission.write_text(source.replace(bug, "    return 1\n"))
    app = play.app(load_variant("sp19"), vs="human", submission=submission)
    assert app.config["source"] == ("hog.py, judged against the reference rules (its code runs only in the "
                                    "sandbox, at isolation files or above)")
    # Player 0 rolls 4 and 5: 9. Player 1 rolls 6, 6, 6, 5: 23. Player 0 rolls no dice against 23: Free Bacon.
    answer = app.engine.run([[0, 2], [1, 4], [0, 0]], [4, 5, 6, 6, 6, 5], 100, computer=False)
    assert answer["ok"], answer
    first, second, third = answer["turns"]
    assert first["warnings"] == second["warnings"] == []
    assert third["warnings"] == ["Your take_turn scored 1; the rules give 3: Free Bacon, opponent at 23.",
                                 "Your game ended this turn at 10 to 23; the rules give 12 to 23 (no swap)."]
    assert answer["faces"] == [4, 5, 6, 6, 6, 5] and answer["next"] == 1


@pytest.mark.slow
@pytest.mark.parametrize("tail, problem", [
    ("\nraise SystemExit(3)\n", "The submission's hog.py did not import in the sandbox: SystemExit: 3 (the "
                                "submission tried to end the process at hog.py, line "),
    ("\ndef take_turn(*args):\n    while True:\n        pass\n",
     "The submission's code did not finish within 5 s of CPU time (10 s in all): a loop that never ends? "
     "Nothing was played."),
    ("\nimport hog_gui_game\nhog_gui_game.answer_text = lambda request: '{\"ok\": true, \"turns\": 7}'\n",
     "The submission's code changed the answer hog_gui_game.py gives into one that is not a game. "
     "Nothing was played."),
], ids=["exits", "loops", "forges"])
def test_a_submission_that_exits_loops_or_forges_is_a_problem_on_the_page(tmp_path, tail, problem):
    submission = tmp_path / "hog.py"
    submission.write_text((project.SOLUTION / "sp19" / "hog.py").read_text() + tail)
    answer = play.app(load_variant("sp19"), submission=submission).engine.run([[0, 3]], [], 100, computer=False)
    assert answer["ok"] is False and answer["problem"].startswith(problem), answer


def headerless(tmp_path, name="fa19_equal_swap_rolls.py"):
    """A real student's full-marks fa19 hog.py with an older course's first line: it names no rules."""
    source = (TESTS / "submissions" / "allowed" / name).read_text()
    header = '"""The Game of Hog (CS 61A Fall 2019 rules)."""\n'
    assert header in source
    submission = tmp_path / "hog.py"
    submission.write_text(source.replace(header, '"""CS 61A Presents The Game of Hog."""\n'))
    return submission


@pytest.mark.slow
def test_a_hog_py_whose_first_line_names_no_rules_plays_under_the_variant_named(tmp_path):
    app = play.app(load_variant("fa19"), vs="final", submission=headerless(tmp_path))
    answer = app.engine.run([[0, 3]], [], 100, computer=True)
    assert answer["ok"], answer
    assert [move[0] for move in answer["moves"]] == [0, 1] and len(answer["turns"]) == 2
    assert "first line" not in json.dumps(answer)


@pytest.mark.slow
def test_a_check_of_the_replay_itself_that_fails_is_the_kits_fault_not_the_submissions(tmp_path):
    """The replay plays only the variants it knows: one it does not know is the kit's to fix."""
    engine = play.SandboxEngine(headerless(tmp_path), variant="mint01")
    answer = engine.run([[0, 3]], [], 100, computer=False)
    assert answer == {"ok": False, "problem": "Grader failed: hog_gui_game.py could not play the move: this page "
                      "plays the rules of fa18, fa19, nju21, nju24, sp19, not those of mint01. This is a fault "
                      "of the kit, not of the submission; please report it. Nothing was played."}


def test_hog_play_takes_the_minimum_as_grading_does(monkeypatch, tmp_path):
    submission = tmp_path / "hog.py"
    submission.write_text("")
    monkeypatch.delenv("HOG_ISOLATION", raising=False)
    assert play.app(load_variant("sp19"), submission=submission).engine.engine.minimum.label == "files"
    monkeypatch.setenv("HOG_ISOLATION", "bubblewrap")
    assert play.app(load_variant("sp19"), submission=submission).engine.engine.minimum.label == "bubblewrap"
    app = play.app(load_variant("sp19"), submission=submission, isolation="process")
    assert app.engine.engine.minimum.label == "process"
    with pytest.raises(UsageError, match="is not an isolation level"):
        play.app(load_variant("sp19"), submission=submission, isolation="none")


# ------------------------------------------------------------- the command


def hog_play(arguments, prefix=()):
    """Start `hog play ... --no-browser`; (process, what it printed before the address, port, token)."""
    hog = str(Path(sys.executable).with_name("hog"))   # the installed command
    process = subprocess.Popen([*prefix, hog, "play", *arguments, "--no-browser"],
                               cwd=project.ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    said = []
    for line in process.stdout:
        if line.startswith("Hog is at "):
            address = line.split()[3]
            return process, said, *port_and_token(address)
        said.append(line)
    process.kill()
    raise AssertionError("".join(said) + process.stderr.read())


def stop(process):
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=20)
    assert out.strip() == "Stopped." and err == ""


@pytest.mark.slow
def test_hog_play_submission_plays_the_move_in_the_sandbox_and_says_so(tmp_path):
    submission, outside = hostile(tmp_path)
    process, said, port, token = hog_play(["sp19", "--submission", str(submission), "--vs", "final"])
    try:
        assert said[0].startswith(f"{submission} runs only in the sandbox, at isolation files or above (here: ")
        game_id = call(port, token, "POST", "api/new", {}, timeout=60)[1]["game"]["id"]
        status, answer = call(port, token, "POST", "api/move", {"game": game_id, "player": 0, "dice": 4}, timeout=60)
        assert status == 200 and "problem" not in answer and len(answer["game"]["turns"]) == 2
        seen = seen_note(answer["game"])
        assert "errors.py" not in seen and "hog.py" not in seen and not outside.exists()
    finally:
        stop(process)


@pytest.mark.slow
def test_a_sandbox_that_cannot_start_is_a_problem_on_the_page_never_a_fallback(tmp_path):
    """In a container (no namespaces), bubblewrap cannot start: each move says so and plays nothing."""
    submission, outside = hostile(tmp_path)
    container = [sys.executable, str(project.ROOT / "tests" / "tools" / "nouserns.py")]
    process, said, port, token = hog_play(["sp19", "--submission", str(submission), "--isolation", "bubblewrap"],
                                          prefix=container)
    try:
        assert said[0].startswith(f"{submission} runs only in the sandbox, and it cannot start here: ")
        game_id = call(port, token, "POST", "api/new", {}, timeout=60)[1]["game"]["id"]
        status, answer = call(port, token, "POST", "api/move", {"game": game_id, "player": 0, "dice": 4}, timeout=60)
        assert status == 200 and answer["game"]["turns"] == [] and answer["game"]["next"] == 0
        assert answer["problem"].startswith("The sandbox could not start, so the submission's code did not run "
                                            "(hog play runs it nowhere else): isolation 'bubblewrap' is required")
        assert answer["problem"].endswith("Nothing was played.") and not outside.exists()
    finally:
        stop(process)
