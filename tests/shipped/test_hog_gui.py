"""hog_gui.py, the page students play on, and `hog play`: the server refuses every bad request and
changes nothing, a student's code that is missing, raises or loops is named on the page, and the
turn accounts follow the rules (reference) or point at the student's disagreement (one rule bug)."""


import pytest

from grader import reference
from grader.publishing import build
from grader.spec import load_variant
from tests.shipped.playing import with_bug, VARIANTS, IDS, game_module, call, module_from, faces_from


# ------------------------------------------------------------ bad requests


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
