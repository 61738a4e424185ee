"""The game page with a student's code behind it, in a worker of its own: a skeleton says what to implement
first, code that raises, loops or exits is named; and hog_gui.py as students run it (Ctrl-C, outside a hog
folder, the handout's rules, its own files, the standard library alone)."""

import http.client
import signal
import subprocess
import sys

import pytest

from grader import project, reference
from grader.classroom import play
from grader.publishing import assign
from grader.spec import load_variant
from tests.shipped.playing import with_bug, VARIANTS, IDS, gui, game_module, call, port_and_token, student_folder


# ------------------------------------------ the student's code, in a worker


def engine(tmp_path, variant_id, hog_source, timeout=20.0):
    folder = student_folder(tmp_path, load_variant(variant_id), hog_source)
    return gui.StudentEngine(folder, timeout)


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_the_skeleton_says_what_to_implement_first(tmp_path, variant):
    run = engine(tmp_path, variant.id, None)
    answer = run.run([[0, 3]], [], variant.goal, computer=False)
    assert answer == {"ok": False, "problem": "Not implemented yet: roll_dice. "
                                              "Write it in hog.py, save, and roll again."}
    zero = variant.rules[1].name
    answer = run.run([[0, 0]], [], variant.goal, computer=True)
    function = "free_bacon" if zero == "Free Bacon" else "picky_piggy"
    assert answer["problem"].startswith(f"Not implemented yet: {function}.")


def test_the_solution_plays_in_the_worker_against_its_final_strategy(tmp_path):
    source = (project.SOLUTION / "nju21" / "hog.py").read_text()
    answer = engine(tmp_path, "nju21", source).run([[0, 4]], [], 100, computer=True)
    assert answer["ok"] and answer["next"] == 0 and [m[0] for m in answer["moves"]] == [0, 1]
    assert answer["score"] == answer["turns"][-1]["score"]


def test_a_function_that_raises_is_named_with_its_line(tmp_path):
    source = with_bug("fa18", "    if num_rolls == 0:\n", "    if 1 / 0:\n")
    answer = engine(tmp_path, "fa18", source).run([[0, 3]], [], 100, computer=False)
    assert not answer["ok"]
    assert answer["problem"].startswith("Your code raised ZeroDivisionError: division by zero (hog.py, line ")
    assert answer["problem"].endswith(", in take_turn).")


def test_a_hog_py_whose_first_line_names_no_rules_is_told_to_keep_it_not_that_its_code_raised(tmp_path):
    source = (project.SOLUTION / "fa18" / "hog.py").read_text()
    source = source.replace("The Game of Hog (CS 61A Fall 2018 rules)", "CS 61A Presents The Game of Hog")
    answer = engine(tmp_path, "fa18", source).run([[0, 3]], [], 100, computer=False)
    assert answer == {"ok": False, "problem": "The page cannot play this hog.py: hog.py's first line no longer "
                                              "names its rules: keep the docstring it came with.",
                      "unplayable": "hog.py's first line no longer names its rules: keep the docstring it came with"}


def test_a_reference_that_fails_is_the_kits_fault_on_the_page():
    engine = play.ReferenceEngine(reference.load("sp19"), computer=lambda score, opponent: 1 // 0)
    answer = engine.run([[0, 3]], [], 100, computer=True)
    assert not answer["ok"] and "Your code" not in answer["problem"]
    assert answer["problem"].startswith("Grader failed: the reference rules could not play the move: "
                                        "ZeroDivisionError: integer division or modulo by zero. This is a fault "
                                        "of the kit, not of the submission; please report it.")


@pytest.mark.slow
def test_a_function_that_loops_is_stopped_and_the_server_keeps_running(tmp_path, serve):
    source = with_bug("nju24", "    if num_rolls == 0:\n", "    while True:\n        pass\n    if num_rolls == 0:\n")
    app = gui.App(engine(tmp_path, "nju24", source, timeout=1.5), {"opponent": "human"}, 100)
    port = serve(app)
    game_id = call(port, app.token, "POST", "api/new", {})[1]["game"]["id"]
    status, answer = call(port, app.token, "POST", "api/move", {"game": game_id, "player": 0, "dice": 3})
    assert status == 200 and answer["problem"] == ("Your code did not finish within 1.5 s "
                                                   "(a loop that never ends?). Nothing was played.")
    assert answer["game"]["turns"] == [] and answer["game"]["next"] == 0
    assert call(port, app.token, "GET", "api/config")[0] == 200


def test_a_hog_py_that_exits_python_is_named(tmp_path):
    source = "import sys\nsys.exit(3)\n"
    answer = engine(tmp_path, "sp19", source).run([[0, 3]], [], 100, computer=False)
    assert answer == {"ok": False, "problem": "Your hog.py stopped Python before the turn was played "
                                              "(exit status 3: no message)."}


# ----------------------------------------------------- running hog_gui.py


def test_ctrl_c_stops_the_student_server_with_one_line(tmp_path):
    folder = student_folder(tmp_path, load_variant("fa19"))
    process = subprocess.Popen([sys.executable, "hog_gui.py", "--no-browser"], cwd=folder, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        first = process.stdout.readline()
        assert first.startswith("Hog is at http://127.0.0.1:") and first.rstrip().endswith("(Ctrl-C stops it)")
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 0 and out.strip() == "Stopped." and err == ""


def test_hog_gui_outside_a_hog_folder_says_where_to_run_it(tmp_path):
    (tmp_path / "hog_gui.py").write_text(gui.__loader__.get_data(str(play.GUI)).decode())
    result = subprocess.run([sys.executable, "hog_gui.py", "--no-browser"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "no hog.py beside hog_gui.py" in result.stderr


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_the_page_quotes_the_rules_from_the_students_handout(tmp_path, variant):
    folder = student_folder(tmp_path, variant)
    rules = gui.handout_rules(folder)
    assert [rule["name"] for rule in rules] == [rule.name for rule in variant.rules]
    assert [rule["summary"] for rule in rules] == [" ".join(rule.summary.split()) for rule in variant.rules]


def test_hog_gui_knows_each_variant_by_its_title_and_api():
    assert {f"{title} rules": vid for title, vid in game_module.TITLES.items()} == {v.title: v.id for v in VARIANTS}
    for variant in VARIANTS:
        hog = reference.load(variant.id)
        assert game_module.variant_of(hog) == variant.id
        function, rule = game_module.ZERO[variant.id]
        assert callable(getattr(hog, function)) and rule == variant.rules[1].name
        assert callable(getattr(hog, game_module.SWAP[variant.id]))


@pytest.mark.parametrize("name", ["hog_gui.py", "hog_gui_game.py", "hog_gui.html", "hog_gui.css", "hog_gui.js"])
def test_the_student_copy_is_the_kits_file_and_holds_no_answer(name):
    text = play.GUI.with_name(name).read_text()
    for variant in VARIANTS:
        assert (project.SKELETON / variant.id / name).read_text() == text
        assert assign.student_files(variant)[name] == text
    assert "import grader" not in text and "from grader" not in text


def test_hog_gui_is_the_server_alone():
    """The page is in its own files; the server and the game's replay stay the size the kit's code keeps."""
    server = play.GUI.read_text()
    assert "<html" not in server and "<style" not in server and "addEventListener" not in server
    assert len(server.splitlines()) <= 400 and len(play.GUI.with_name("hog_gui_game.py").read_text().splitlines()) <= 400


def test_the_page_is_served_from_its_files_and_declares_no_icon(game):
    port, token, _ = game
    status, html = call(port, token, "GET", "")
    assert status == 200 and html == play.GUI.with_name("hog_gui.html").read_text()
    assert '<link rel="icon" href="data:,">' in html
    assert '<link rel="stylesheet" href="hog_gui.css">' in html and '<script src="hog_gui.js"></script>' in html
    for name, kind in [("hog_gui.css", "text/css"), ("hog_gui.js", "text/javascript")]:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", f"/t/{token}/{name}", headers={"Host": f"127.0.0.1:{port}"})
        response = connection.getresponse()
        assert response.status == 200 and response.getheader("Content-Type").startswith(kind)
        assert response.read().decode() == play.GUI.with_name(name).read_text()
        connection.close()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/favicon.ico", headers={"Host": f"127.0.0.1:{port}"})
    response = connection.getresponse()
    assert response.status == 204 and response.read() == b""
    connection.close()
    assert call(port, token, "GET", "hog_gui.py")[0] == 404     # only the page's own files


@pytest.mark.parametrize("missing", ["hog_gui_game.py", "hog_gui.js"])
def test_hog_gui_without_its_files_says_which_are_missing(tmp_path, missing):
    folder = student_folder(tmp_path, load_variant("sp19"))
    (folder / missing).unlink()
    result = subprocess.run([sys.executable, "-I", "hog_gui.py", "--no-browser"], cwd=folder,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"{missing} missing beside hog_gui.py in {folder.resolve()}: copy it back from the "
                             "course's student folder\n")


def test_hog_gui_needs_only_the_standard_library(tmp_path):
    """Python without site-packages (-S) and isolated (-I) serves the page and plays a move."""
    folder = student_folder(tmp_path, load_variant("nju24"), (project.SOLUTION / "nju24" / "hog.py").read_text())
    process = subprocess.Popen([sys.executable, "-I", "-S", "hog_gui.py", "--no-browser", "-f"], cwd=folder,
                               text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        address = process.stdout.readline().split()[3]
        port, token = port_and_token(address)
        game_id = call(port, token, "POST", "api/new", {})[1]["game"]["id"]
        status, answer = call(port, token, "POST", "api/move", {"game": game_id, "player": 0, "dice": 4})
        assert status == 200 and "problem" not in answer and len(answer["game"]["turns"]) == 2
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    assert err == ""
