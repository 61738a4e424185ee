"""Hog played in headless Chromium by clicks and keys: in every variant a whole game against the
computer in a fresh student folder (`python3 hog_gui.py -f` on the solution's hog.py) and between two
friends on `hog play`; the scores shown are the server's, the rules shown fit the dice. The skeleton
shows what to implement, a rule bug is pointed out, a loop is reported. One screenshot per variant
goes to $CI_ARTIFACTS (or tests/artifacts/)."""

import json
import os
import random
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

from grader import project
from grader.classroom import play
from tests.shipped.playing import student_folder
from grader.spec import all_variants, load_variant

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Python Playwright is not installed (pip install -e '.[browser]')")

VARIANTS = all_variants()
IDS = [v.id for v in VARIANTS]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1100, "height": 900}
ARTIFACTS = Path(os.environ.get("CI_ARTIFACTS") or project.ROOT / "tests" / "artifacts")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield chromium
        chromium.close()


@pytest.fixture
def student_server(tmp_path):
    """Start `python3 hog_gui.py ARGS` in a fresh student folder whose hog.py is ``source``; its address."""
    processes = []

    def start(variant, source, *args):
        folder = student_folder(tmp_path, variant, source)
        process = subprocess.Popen([sys.executable, "hog_gui.py", "--no-browser", *args], cwd=folder,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        processes.append(process)
        line = process.stdout.readline()
        assert line.startswith("Hog is at "), line + process.stderr.read()
        return line.split()[3]
    yield start
    for process in processes:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
        assert out.strip() == "Stopped." and err == ""


@pytest.fixture
def kit_server():
    """Serve `hog play`'s page in a thread; its address."""
    servers = []

    def start(app):
        server = play.gui().make_server(app)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return play.gui().address(app, server)
    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def open_page(browser, url, viewport=DESKTOP):
    """The page, ready, and the list of every address it asked for outside the server."""
    page = browser.new_page(viewport=viewport)
    elsewhere = []
    origin = url.split("/t/")[0]
    page.on("request", lambda request: request.url.startswith(origin) or elsewhere.append(request.url))
    page.goto(url)
    page.wait_for_function("document.body.dataset.state === 'ready'")
    return page, elsewhere


def server_game(url, page):
    game_id = page.evaluate("document.body.dataset.game")
    with urllib.request.urlopen(f"{url}api/game/{game_id}", timeout=30) as response:
        return json.loads(response.read())["game"]


def roll(page, dice, by_key=False):
    """One move by a click (or a key), waiting for the page to show its answer."""
    with page.expect_response(lambda response: "/api/move" in response.url):
        if by_key:
            page.keyboard.press("t" if dice == 10 else str(dice))
        else:
            page.click(f'button[data-dice="{dice}"]')
    page.wait_for_function("document.body.dataset.state !== 'busy'")


def play_whole_game(page, rng, limit=200):
    for move in range(limit):
        if page.evaluate("document.body.dataset.state") == "over":
            return move
        roll(page, rng.choice([0, 2, 3, 4, 5, 6, 7, 10]), by_key=move % 3 == 2)
        assert page.locator("#problem").is_hidden(), page.locator("#problem").inner_text()
    raise AssertionError(f"no winner after {limit} moves")


def check_page_against_server(page, game, variant):
    """Scores, winner, dice faces and the rules named on the page are the server's, and fit the dice."""
    assert game["over"]
    assert [page.inner_text("#score0"), page.inner_text("#score1")] == [str(s) for s in game["score"]]
    assert page.locator("#winner").is_visible()
    assert page.inner_text("#winner").endswith(f"won, {game['score'][0]} to {game['score'][1]}.")
    items = page.locator("#history li.turn")
    assert items.count() == len(game["turns"])
    zero_rule = variant.rules[1].name
    for index, turn in enumerate(reversed(game["turns"])):
        item = items.nth(index)
        assert item.locator(".die").all_inner_texts() == [str(face) for face in turn["faces"]]
        shown = [name.rstrip(": ") for name in item.locator(".rule b").all_inner_texts()]
        assert shown == [name for name, _ in turn["rules"]]
        if turn["dice"] == 0:
            assert shown[0] == zero_rule and not turn["faces"]
        elif 1 in turn["faces"]:
            assert "Pig Out" in shown
        else:
            assert "Pig Out" not in shown
        assert not turn["warnings"] and item.locator(".warn").count() == 0
        for name in shown:
            words = [r.summary for r in variant.rules if r.name == name][0]
            assert " ".join(words.split()) in item.inner_text()


# ------------------------------------------------------------ whole games


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_a_whole_game_against_your_final_strategy_in_a_fresh_student_folder(browser, student_server, variant):
    url = student_server(variant, (project.SOLUTION / variant.id / "hog.py").read_text(), "-f")
    page, elsewhere = open_page(browser, url)
    assert page.inner_text("#name1") == "The computer (your final_strategy)"
    play_whole_game(page, random.Random(variant.id))
    check_page_against_server(page, server_game(url, page), variant)
    assert elsewhere == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"play-{variant.id}.png"), full_page=False)
    page.close()


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_a_whole_game_between_two_friends_on_hog_play(browser, kit_server, variant):
    url = kit_server(play.app(variant, vs="human"))
    page, elsewhere = open_page(browser, url, PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    seen = set()
    rng = random.Random(variant.id + "friends")
    for _ in range(200):
        if page.evaluate("document.body.dataset.state") == "over":
            break
        seen.add(page.inner_text("#status").split("'s turn")[0])
        roll(page, rng.choice([0, 1, 3, 4, 5, 6, 8]))
    check_page_against_server(page, server_game(url, page), variant)
    assert seen == {"Player 0", "Player 1"} and elsewhere == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    before = page.evaluate("document.body.dataset.game")
    page.keyboard.press("n")
    page.wait_for_function(f"document.body.dataset.game !== {before!r} && document.body.dataset.state === 'ready'")
    assert page.inner_text("#score0") == page.inner_text("#score1") == "0"
    page.close()


# --------------------------------------------------- the student's progress


@pytest.mark.slow
def test_the_skeleton_says_what_to_implement_and_shows_no_traceback(browser, student_server):
    variant = load_variant("fa18")
    url = student_server(variant, None, "-f")
    page, _ = open_page(browser, url)
    roll(page, 4)
    assert page.inner_text("#problem") == "Not implemented yet: roll_dice. Write it in hog.py, save, and roll again."
    roll(page, 0, by_key=True)
    assert page.inner_text("#problem").startswith("Not implemented yet: free_bacon.")
    assert "Traceback" not in page.inner_text("body")
    assert [page.inner_text("#score0"), page.inner_text("#score1")] == ["0", "0"]
    assert page.locator('button[data-dice="3"]').is_enabled()
    page.close()


@pytest.mark.slow
def test_a_pig_out_bug_is_pointed_out_next_to_its_turn(browser, student_server):
    source = (project.SOLUTION / "sp19" / "hog.py").read_text()
    bug = "    points = 1 if pig_out else total\n"
    assert bug in source
    url = student_server(load_variant("sp19"), source.replace(bug, "    points = total\n"))
    page, _ = open_page(browser, url)
    for _ in range(12):   # ten dice show a 1 five times in six
        roll(page, 10)
        if page.locator("#last .warn").count():
            break
    warning = page.locator("#last .warn").first.inner_text()
    assert warning.startswith("⚠ Pig Out: the handout says this turn scores exactly 1 point, but your take_turn scored ")
    assert "Pig Out" in page.locator("#last .rule b").all_inner_texts()[0]
    page.screenshot(path=str(_artifacts() / "play-sp19-pig-out-bug.png"), full_page=True)
    page.close()


@pytest.mark.slow
def test_a_loop_is_reported_and_the_page_keeps_working(browser, student_server):
    source = (project.SOLUTION / "nju21" / "hog.py").read_text()
    line = "    if num_rolls == 0:\n        return picky_piggy(opponent_score)\n"
    assert line in source
    url = student_server(load_variant("nju21"), source.replace(line, "    while True:\n        pass\n"),
                         "--timeout", "1.5")
    page, _ = open_page(browser, url)
    roll(page, 5)
    assert page.inner_text("#problem") == ("Your code did not finish within 1.5 s (a loop that never ends?). "
                                           "Nothing was played.")
    before = page.evaluate("document.body.dataset.game")
    page.click("#new")   # the page was ready already: wait for the new game itself
    page.wait_for_function(f"document.body.dataset.game !== {before!r} && document.body.dataset.state === 'ready'")
    assert page.locator("#problem").is_hidden() and page.inner_text("#status") == "Player 0's turn. How many dice?"
    page.close()


def _artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.mark.slow
def test_hog_play_shows_where_a_submission_breaks_the_rules(browser, kit_server, tmp_path):
    source = (project.SOLUTION / "sp19" / "hog.py").read_text()
    bug = "    return 1 + min(tens, ones)\n"
    assert bug in source
    submission = tmp_path / "hog.py"
    submission.write_text(source.replace(bug, "    return 1\n"))
    url = kit_server(play.app(load_variant("sp19"), submission=submission))
    page, _ = open_page(browser, url)
    for _ in range(30):   # Player 1 climbs past 10; Player 0 rolls no dice (Free Bacon) against it
        roll(page, 0)
        if page.locator("#last .warn").count() or page.evaluate("document.body.dataset.state") == "over":
            break
        roll(page, 6)
    warning = page.locator("#last .warn").first.inner_text()
    assert warning.startswith("⚠ Your take_turn scored 1; the rules give ") and ": Free Bacon, opponent at " in warning
    page.close()


# ------------------------------------------- a clean console, and the sandbox


def watch_console(page):
    """Every console error and uncaught exception of the page, as it happens."""
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def open_watched(browser, url):
    """The page opened with its console watched from the first request: (page, errors, every address asked)."""
    page = browser.new_page(viewport=DESKTOP)
    errors, asked = watch_console(page), []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(url)
    page.wait_for_function("document.body.dataset.state === 'ready'")
    return page, errors, asked


@pytest.mark.slow
def test_the_students_page_loads_and_plays_with_a_clean_console(browser, student_server):
    url = student_server(load_variant("nju24"), (project.SOLUTION / "nju24" / "hog.py").read_text(), "-f")
    page, errors, asked = open_watched(browser, url)
    roll(page, 4)
    assert page.locator("#problem").is_hidden()
    assert errors == []
    assert sorted(asked) == sorted([url, url + "bootstrap.min.css", url + "kit.css", url + "hog_gui.css",
                                    url + "hog_gui.js", url + "api/config",
                                    url + "api/new", url + "api/move"])   # no /favicon.ico
    assert page.evaluate("getComputedStyle(document.querySelector('.board')).display") == "grid"   # the style loaded
    page.close()


HOSTILE_TAIL = '''

import os as _os
try:
    _SEEN = ", ".join(_os.listdir({kit!r}))
except OSError as _error:
    _SEEN = type(_error).__name__
try:
    open({outside!r}, "w").write("escaped")
except OSError:
    pass
import hog_gui_game as _game
_replay = _game.run_game
def _shown(*args, **kwargs):
    state = _replay(*args, **kwargs)
    state["notes"].append("seen: " + _SEEN)
    return state
_game.run_game = _shown
'''


@pytest.mark.slow
def test_hog_play_submission_plays_in_the_sandbox_and_the_page_says_so(browser, kit_server, tmp_path):
    outside = tmp_path / "escaped.txt"
    submission = tmp_path / "student" / "hog.py"
    submission.parent.mkdir()
    submission.write_text((project.SOLUTION / "fa19" / "hog.py").read_text()
                          + HOSTILE_TAIL.format(kit=str(project.PACKAGE), outside=str(outside)))
    url = kit_server(play.app(load_variant("fa19"), vs="final", submission=submission))
    page, errors, _ = open_watched(browser, url)
    assert "its code runs only in the sandbox, at isolation files or above" in page.inner_text("#sub")
    roll(page, 3)
    assert page.locator("#problem").is_hidden(), page.inner_text("#problem")
    notes = page.locator("#notes p").all_inner_texts()
    assert any(note.startswith("The submission ran in the sandbox: ") for note in notes), notes
    assert "seen: PermissionError" in notes or "seen: FileNotFoundError" in notes, notes
    assert page.locator("#history li.turn").count() == 2 and not outside.exists()
    assert errors == []
    page.close()


@pytest.mark.slow
def test_a_sandbox_that_cannot_start_shows_as_a_problem_on_the_page(browser, tmp_path):
    """`hog play --submission` in a container (no namespaces) asked for bubblewrap: the move says why
    and plays nothing; the submission never runs outside the sandbox."""
    outside = tmp_path / "escaped.txt"
    submission = tmp_path / "hog.py"
    submission.write_text((project.SOLUTION / "sp19" / "hog.py").read_text()
                          + HOSTILE_TAIL.format(kit=str(project.PACKAGE), outside=str(outside)))
    command = [sys.executable, str(project.ROOT / "tests" / "tools" / "nouserns.py"),
               str(Path(sys.executable).with_name("hog")), "play", "sp19", "--submission", str(submission),
               "--isolation", "bubblewrap", "--no-browser"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [process.stdout.readline(), process.stdout.readline()]
        assert "cannot start here" in lines[0] and lines[1].startswith("Hog is at "), lines
        page, errors, _ = open_watched(browser, lines[1].split()[3])
        roll(page, 5)
        problem = page.inner_text("#problem")
        assert problem.startswith("The sandbox could not start, so the submission's code did not run"), problem
        assert problem.endswith("Nothing was played.") and page.locator("#history li.turn").count() == 0
        assert [page.inner_text("#score0"), page.inner_text("#score1")] == ["0", "0"] and not outside.exists()
        page.screenshot(path=str(_artifacts() / "play-sandbox-unavailable.png"), full_page=False)
        assert errors == []
        page.close()
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    assert out.strip() == "Stopped." and err == ""
