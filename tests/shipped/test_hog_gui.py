"""hog_gui.py, the page students play on, and `hog play`: the server refuses every bad request and
changes nothing, a student's code that is missing, raises or loops is named on the page, and the
turn accounts follow the rules (reference) or point at the student's disagreement (one rule bug)."""

import http.client
import json
import signal
import subprocess
import sys
import threading
import types

import pytest

from grader import project, reference
from grader.classroom import play
from grader.publishing import assign, build
from grader.errors import UsageError
from grader.spec import all_variants, load_variant

VARIANTS = all_variants()
IDS = [v.id for v in VARIANTS]
gui = play.gui()
game_module = play.game()


# ------------------------------------------------------------------ helpers


@pytest.fixture
def serve():
    """Start an App on a free port in a thread; its (port, token); stopped after the test."""
    servers = []

    def start(app):
        server = gui.make_server(app)
        # a short poll interval: shutdown() then returns at once instead of after half a second
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        servers.append(server)
        return server.server_address[1]
    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def call(port, token, method, path, body=None, host=None, raw=None, timeout=30):
    """(status, JSON answer) of one request; ``host`` replaces the Host header, ``raw`` the body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    headers = {"Host": host or f"127.0.0.1:{port}", "Content-Type": "application/json"}
    connection.request(method, f"/t/{token}/{path}", body=data, headers=headers)
    response = connection.getresponse()
    text = response.read()
    connection.close()
    kind = response.getheader("Content-Type", "")
    return response.status, (json.loads(text) if kind.startswith("application/json") else text.decode())


def port_and_token(address: str) -> tuple[int, str]:
    """The port and the token of the address the game's server prints (http://127.0.0.1:PORT/t/TOKEN/)."""
    return int(address.split(":")[2].split("/")[0]), address.split("/")[4]


def module_from(source, name="hog_under_test"):
    """A hog.py source as a module (test code only: the tests' own submissions)."""
    module = types.ModuleType(name)
    with reference.modules_as({"dice": reference.dice()}):
        exec(compile(source, "hog.py", "exec"), module.__dict__)
    return module


def student_folder(tmp_path, variant, hog_source=None):
    """A student folder as `hog assign` writes it, with ``hog_source`` as hog.py if given."""
    folder = tmp_path / variant.id
    for name, text in assign.student_files(variant).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    if hog_source is not None:
        (folder / "hog.py").write_text(hog_source, encoding="utf-8")
    return folder


def faces_from(*faces):
    queue = list(faces)
    return lambda: queue.pop(0)


# ------------------------------------------------------------ bad requests


@pytest.fixture
def game(serve):
    """A reference sp19 game against always_roll(5) at goal 30, with one move made."""
    app = play.app(load_variant("sp19"), vs="always:5", goal=30)
    port = serve(app)
    status, answer = call(port, app.token, "POST", "api/new", {})
    assert status == 200
    game_id = answer["game"]["id"]
    status, answer = call(port, app.token, "POST", "api/move", {"game": game_id, "player": 0, "dice": 2})
    assert status == 200 and len(answer["game"]["turns"]) >= 1
    return port, app.token, game_id


def unchanged(port, token, game_id, check):
    before = call(port, token, "GET", f"api/game/{game_id}")
    check()
    assert call(port, token, "GET", f"api/game/{game_id}") == before


@pytest.mark.parametrize("body, raw, status, words", [
    (None, b"not json", 400, "not JSON"),
    (None, b"[1, 2]", 400, "JSON object"),
    ({"game": "nope", "player": 0, "dice": 3}, None, 404, "no game"),
    ({"game": None, "player": 0, "dice": 11}, None, 404, "no game"),
], ids=["not-json", "not-an-object", "unknown-game", "no-game"])
def test_a_bad_request_gets_a_json_error_and_changes_nothing(game, body, raw, status, words):
    port, token, game_id = game

    def bad():
        got, answer = call(port, token, "POST", "api/move", body, raw=raw)
        assert got == status and words in answer["error"]
    unchanged(port, token, game_id, bad)


@pytest.mark.parametrize("dice", [11, -1, "3", True, 2.5, None])
def test_dice_out_of_range_are_refused(game, dice):
    port, token, game_id = game

    def bad():
        got, answer = call(port, token, "POST", "api/move", {"game": game_id, "player": 0, "dice": dice})
        assert got == 400 and "from 0 to 10" in answer["error"]
    unchanged(port, token, game_id, bad)


def test_a_move_out_of_turn_is_refused(game):
    port, token, game_id = game

    def bad():   # Player 1 is the computer: nobody may move for it
        got, answer = call(port, token, "POST", "api/move", {"game": game_id, "player": 1, "dice": 3})
        assert got == 409 and "Player 0's turn" in answer["error"]
    unchanged(port, token, game_id, bad)


def test_a_move_after_the_end_is_refused(game):
    port, token, game_id = game
    answer = call(port, token, "GET", f"api/game/{game_id}")[1]
    for _ in range(40):
        if answer["game"]["over"]:
            break
        status, answer = call(port, token, "POST", "api/move", {"game": game_id, "player": 0, "dice": 5})
    assert answer["game"]["over"] and answer["game"]["winner"] in (0, 1)
    assert max(answer["game"]["score"]) >= 30

    def bad():
        got, reply = call(port, token, "POST", "api/move", {"game": game_id, "player": 0, "dice": 3})
        assert got == 409 and "over" in reply["error"]
    unchanged(port, token, game_id, bad)


def test_a_wrong_token_or_host_is_refused(game):
    port, token, game_id = game
    status, answer = call(port, "not-the-token", "GET", "api/config")
    assert status == 404 and "unknown address" in answer["error"]
    status, answer = call(port, "not-the-token", "GET", "")
    assert status == 404
    for host in ("evil.example:%d" % port, "127.0.0.1", "localhost:1", "127.0.0.1.nip.io:%d" % port):
        status, answer = call(port, token, "GET", "api/config", host=host)
        assert status == 403, host
        status, answer = call(port, token, "GET", f"api/game/{game_id}", host=host)
        assert status == 403
    assert call(port, token, "GET", "api/config", host=f"localhost:{port}")[0] == 200
    status, page = call(port, token, "GET", "")
    assert status == 200 and "<title>Hog</title>" in page and "http" not in page.split("<script>")[0]


def test_unknown_api_calls_are_404(game):
    port, token, _ = game
    assert call(port, token, "GET", "api/nothing")[0] == 404
    assert call(port, token, "GET", "api/move")[0] == 404


# ---------------------------------------------------- the reference's games


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_the_reference_plays_whole_games_with_no_disagreement(variant):
    hog = reference.load(variant.id)
    rng = __import__("random").Random(variant.id)
    moves, faces, state = [], [], None
    for _ in range(200):
        state = game_module.run_game(hog, moves + [[0, rng.randint(0, 10)]], faces, variant.goal,
                             computer=hog.final_strategy, roll=lambda: rng.randint(1, 6))
        moves, faces = state["moves"], state["faces"]
        if state["next"] is None:
            break
    assert state["next"] is None and max(state["score"]) >= variant.goal
    assert state["mode"] == "play" and not state["notes"]
    assert not [w for turn in state["turns"] for w in turn["warnings"]]
    names = {rule.name for rule in variant.rules}
    for turn in state["turns"]:
        fired = [name for name, _ in turn["rules"]]
        assert set(fired) <= names
        if turn["dice"] == 0:
            assert fired[0] == variant.rules[1].name   # the zero-dice rule
        elif 1 in turn["faces"]:
            assert "Pig Out" in fired
        assert len(turn["faces"]) == turn["dice"]


def test_a_turn_names_the_rules_that_fired_and_why():
    hog = reference.load("fa19")
    state = game_module.run_game(hog, [[0, 2], [1, 0], [0, 0]], [], 100, roll=faces_from(4, 1),
                         owner="the reference")
    first, second, third = state["turns"]
    assert first["rules"] == [["Pig Out", "A 1 is among the dice."],
                              ["Feral Hogs", "Player 0 rolled 2 dice, and 0 on their previous turn."]]
    assert first["points"] == 4 and first["score"] == [4, 0]
    assert second["rules"][0] == ["Free Bacon", "Player 1 rolled no dice; the reference free_bacon(4) returned 10."]
    assert third["rules"][0][0] == "Free Bacon" and ["Feral Hogs", "Player 0 rolled 0 dice, and 2 on their previous turn."] in third["rules"]


# -------------------------------------------- the student's code, in-process


def with_bug(variant_id, old, new):
    source = build.solution_source(load_variant(variant_id))
    assert old in source
    return source.replace(old, new, 1)


def test_a_pig_out_bug_is_pointed_out_next_to_its_turn():
    hog = module_from(with_bug("sp19", "    points = 1 if pig_out else total\n", "    points = total\n"))
    state = game_module.run_game(hog, [[0, 3]], [], 100, roll=faces_from(5, 1, 3))
    turn = state["turns"][0]
    assert ["Pig Out", "A 1 is among the dice."] in turn["rules"]
    assert "Pig Out: the handout says this turn scores exactly 1 point, but your take_turn scored 9." in turn["warnings"]
    assert state["mode"] == "play" and state["score"] == [9, 0]


def test_without_play_the_page_takes_turns_with_the_students_functions_and_says_so():
    source = build.skeleton_source(load_variant("fa19"))
    for role in ("1", "2", "3", "4"):
        solved = build.solution_source(load_variant("fa19"))
        start, end = f"    # BEGIN PROBLEM {role}\n", f"    # END PROBLEM {role}\n"
        body = solved[solved.index(start):solved.index(end)]
        source = source[:source.index(start)] + body + source[source.index(end):]
    state = game_module.run_game(module_from(source), [[0, 2], [1, 4]], [], 100, roll=faces_from(3, 4, 6, 6, 5, 2))
    assert state["mode"] == "turns" and state["score"] == [7, 19] and state["next"] == 0
    assert state["notes"] == ["Your play is not implemented yet, so the page takes the turns itself with your "
                              "take_turn and is_swap (without Feral Hogs, which is play's part)."]


def test_a_play_that_forgets_the_swap_disagrees_with_its_own_is_swap():
    source = with_bug("sp19", "            score, opponent_score = opponent_score, score\n", "            pass\n")
    hog = module_from(source)
    # 0-0: Player 0 rolls 5 and 6, 11 to 0; Player 1 rolls a 1 (Pig Out): 1 and 11 share a ones digit.
    state = game_module.run_game(hog, [[0, 2], [1, 1]], [], 100, roll=faces_from(5, 6, 1))
    last = state["turns"][-1]
    assert ["Swine Swap", "Your is_swap(1, 11) returned True: the scores trade places."] in last["rules"]
    assert last["warnings"] == ["Your play ended this turn at 11 to 1, but your take_turn (1 point) and "
                                "your is_swap(1, 11) give 1 to 11."]
    assert not state["turns"][0]["warnings"]


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


# ---------------------------------------------------------------- hog play


def test_hog_play_refuses_a_bad_opponent_or_goal():
    variant = load_variant("sp19")
    with pytest.raises(UsageError, match="--vs 'always:11' is not an opponent"):
        play.app(variant, vs="always:11")
    with pytest.raises(UsageError, match="--vs 'robot'"):
        play.app(variant, vs="robot")
    with pytest.raises(UsageError, match="--goal must be from 1 to 200"):
        play.app(variant, goal=0)


def test_hog_play_optimal_follows_the_reference_table():
    variant = load_variant("nju24")
    strategy, label = play.opponent(variant, "optimal", variant.goal)
    rows = build.final_rows(variant)
    assert label == "the optimal strategy"
    assert [strategy(s, 37) for s in range(0, 100, 9)] == [int(rows[s][37], 16) for s in range(0, 100, 9)]


def test_hog_play_config_speaks_the_spec(serve):
    variant = load_variant("nju21")
    app = play.app(variant, vs="final")
    status, answer = call(serve(app), app.token, "GET", "api/config")
    config = answer["config"]
    assert config["opponent"] == "computer" and config["computer"] == "the reference final_strategy"
    assert [rule["name"] for rule in config["rules"]] == [rule.name for rule in variant.rules]
    assert config["goal"] == 100 and config["title"] == f"Hog: {variant.title}"


def test_hog_play_submission_takes_a_hog_py_and_a_human_or_its_final_strategy(tmp_path):
    variant = load_variant("sp19")
    submission = tmp_path / "hog.py"
    submission.write_text("")
    with pytest.raises(UsageError, match="--vs is human or final"):
        play.app(variant, vs="optimal", submission=submission)
    with pytest.raises(UsageError, match="give a student's hog.py"):
        play.app(variant, submission=tmp_path)


def test_hog_play_with_a_bad_opponent_is_a_usage_error(capsys):
    from grader import cli
    assert cli.main(["play", "sp19", "--vs", "robot", "--no-browser"]) == 2
    assert capsys.readouterr().err == ("Error: --vs 'robot' is not an opponent "
                                       "(use human, final, optimal or always:N (N from 0 to 10))\n")


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
