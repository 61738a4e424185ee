"""Play Hog in your browser, on the rules of YOUR hog.py.

    python3 hog_gui.py                two players at one keyboard
    python3 hog_gui.py -f             you against your own final_strategy
    python3 hog_gui.py --no-browser   print the address instead of opening it
    python3 hog_gui.py --port 8000    serve on that port (default: any free port)

Playing is testing: every turn runs your roll_dice, your zero-dice rule, your
take_turn, your swap rule and your play (where play is written; before that
the page takes turns with your take_turn and your swap function, and says so).
The page rolls the dice itself and hands the faces to your functions as test
dice, then shows the faces, what each of your functions returned, and which of
the handout's rules applied, in the handout's own words (read from
handout.md beside this file). A function that raises, loops or is not written
yet is named on the page; the server keeps running. Edit hog.py, save, and
the next roll uses your new code.

Why this file cannot tell you the right answer (a decision, not an oversight).
Everything in your folder is yours to read, so anything here that computed
Free Bacon, Picky Piggy or a swap would hand you the answer to a question; the
course's reference solution is never shipped, not even as a "rules checker".
So this page judges your code only by what needs no answer key:
  - the facts the handout states plainly about a turn: rolling zero dice is the
    zero-dice rule, a 1 among the dice is Pig Out (the turn scores 1), and the
    Feral Hogs conditions; each rule that applied is shown with its sentence
    from handout.md;
  - your code against itself: your play's scores after a turn against what your
    own take_turn and swap function give for the same dice.
Whether the zero-dice points or a swap were right is for the public cases
(python3 -m pytest) and the handout's worked examples; the page shows the
inputs and your results so you can check them by hand. Instructors hold the
rules' answers: `hog play ID --submission hog.py` serves this same page with
every turn judged against the reference ("your take_turn scored 1; the rules
give 3: Free Bacon, opponent at 23").

Safety: the server listens on 127.0.0.1 only, the address carries a random
token, and requests whose Host is not this machine are refused. Your code runs
in a separate Python process, stopped after a time limit.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import re
import secrets
import signal
import subprocess
import sys
import threading
import traceback
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
TIMEOUT = 5.0          # seconds one request may spend in the student's code
MAX_DICE = 10

# Which course's API a hog.py follows, from the title on its first line.
TITLES = {"CS 61A Spring 2019": "sp19", "NJU SICP 2023/2024": "nju24", "NJU SICP 2021": "nju21",
          "CS 61A Fall 2019": "fa19", "CS 61A Fall 2018": "fa18"}
ZERO = {"sp19": ("free_bacon", "Free Bacon"), "fa18": ("free_bacon", "Free Bacon"),
        "fa19": ("free_bacon", "Free Bacon"), "nju24": ("picky_piggy", "Picky Piggy"),
        "nju21": ("picky_piggy", "Picky Piggy")}
SWAP = {"sp19": "is_swap", "fa18": "is_swap", "fa19": "is_swap", "nju24": "swine_swap", "nju21": "swine_swap"}


class NotWritten(Exception):
    """A student function returned the placeholder or nothing: it is not implemented yet."""


class _Stop(BaseException):
    """A human player has no move recorded yet (BaseException, so student code cannot catch it)."""


def variant_of(hog) -> str | None:
    first = (hog.__doc__ or "").strip().split("\n", 1)[0]
    return next((vid for title, vid in TITLES.items() if f"({title} rules)" in first), None)


# ----------------------------------------------------- calling the student's code


def _number(name: str, value):
    if value is None or isinstance(value, str):
        raise NotWritten(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} returned {value!r}, not a number")
    return value


def _truth(name: str, value) -> bool:
    if value is None or isinstance(value, str):
        raise NotWritten(name)
    return bool(value)


def fixed_dice(faces):
    """Dice showing the given faces in order (6 if asked for more than were rolled)."""
    queue = list(faces)
    return lambda: queue.pop(0) if queue else 6


class Calls:
    """The student's functions, called with the argument order of their variant's API."""

    def __init__(self, hog, vid: str, goal: int, owner: str = "your"):
        self.hog, self.vid, self.goal, self.owner = hog, vid, goal, owner
        self.zero_name, self.zero_rule = ZERO[vid]
        self.swap_name = SWAP[vid]

    def roll(self, n, score, dice):
        if self.vid == "nju21":
            return _number("roll_dice", self.hog.roll_dice(score, n, dice))
        return _number("roll_dice", self.hog.roll_dice(n, dice))

    def zero(self, opponent):
        return _number(self.zero_name, getattr(self.hog, self.zero_name)(opponent))

    def take_turn(self, n, score, opponent, dice):
        if self.vid == "nju21":
            value = self.hog.take_turn(n, score, opponent, dice, self.goal)
        else:
            value = self.hog.take_turn(n, opponent, dice)
        return _number("take_turn", value)

    def swaps(self, score, opponent) -> bool:
        function = getattr(self.hog, self.swap_name)
        value = function(score) if self.vid == "nju24" else function(score, opponent)
        return _truth(self.swap_name, value)

    def points(self, n, score, opponent, faces):
        """The turn's points by take_turn on these faces; when that fails, the part that is missing
        first (roll_dice or the zero-dice rule) is named instead."""
        try:
            return self.take_turn(n, score, opponent, fixed_dice(faces))
        except Exception:
            if n == 0:
                self.zero(opponent)
            else:
                self.roll(n, score, fixed_dice(faces))
            raise


class Recorder:
    """Strategies and dice that replay a recorded game and stop where a human must choose."""

    def __init__(self, moves, faces, computer, roll):
        self.queues = {0: [n for who, n in moves if who == 0], 1: [n for who, n in moves if who == 1]}
        self.faces, self.used, self.computer, self.roll_face = list(faces), 0, computer, roll
        self.moves, self.turns, self.waiting = [], [], None

    def dice(self):
        if self.used == len(self.faces):
            self.faces.append(self.roll_face())
        face = self.faces[self.used]
        self.used += 1
        if self.turns:
            self.turns[-1]["faces"].append(face)
        return face

    def close(self, scores):
        if self.turns and "score" not in self.turns[-1]:
            self.turns[-1]["score"] = [scores[0], scores[1]]

    def strategy(self, who):
        def choose(score, opponent_score):
            scores = (score, opponent_score) if who == 0 else (opponent_score, score)
            self.close(scores)
            if self.queues[who]:
                n = self.queues[who].pop(0)
            elif who == 1 and self.computer is not None:
                n = self.computer(score, opponent_score)
            else:
                self.waiting = {"player": who, "score": list(scores)}
                raise _Stop()
            self.moves.append([who, n])
            self.turns.append({"player": who, "dice": n, "before": list(scores), "faces": []})
            return n
        return choose


def dice_count(name: str, value, score, opponent_score) -> int:
    if value is None or isinstance(value, str):
        raise NotWritten(name)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_DICE:
        raise ValueError(f"{name}({score}, {opponent_score}) returned {value!r}; "
                         f"a strategy returns a whole number of dice from 0 to {MAX_DICE}")
    return value


def _turn_by_turn(calls: Calls, recorder: Recorder) -> None:
    """The game with the student's take_turn and swap function, for when their play is not written."""
    scores = [0, 0]
    who = 0
    while max(scores) < calls.goal:
        n = recorder.strategy(who)(scores[who], scores[1 - who])
        faces = [recorder.dice() for _ in range(n)]
        mine = scores[who] + calls.points(n, scores[who], scores[1 - who], faces)
        theirs = scores[1 - who]
        if calls.swaps(mine, theirs):
            mine, theirs = theirs, mine
        scores[who], scores[1 - who] = mine, theirs
        who = 1 - who
    recorder.close(scores)


def run_game(hog, moves, faces, goal, computer=None, roll=lambda: random.randint(1, 6), owner="your") -> dict:
    """Replay a game from its moves and dice faces with the student's play (or, while play is not
    written, turn by turn), adding the computer's moves: the state and an account of every turn."""
    vid = variant_of(hog)
    if vid is None:
        raise ValueError("hog.py's first line no longer names its rules: keep the docstring it came with")
    calls, notes, mode = Calls(hog, vid, goal, owner), [], "play"
    if computer is not None:
        strategy = computer
        computer = lambda score, opponent: dice_count("final_strategy", strategy(score, opponent),
                                                      score, opponent)
    recorder = Recorder(moves, faces, computer, roll)
    try:
        final = hog.play(recorder.strategy(0), recorder.strategy(1), dice=recorder.dice, goal=goal)
        if not recorder.turns:
            raise NotWritten("play")
        recorder.close(final)
    except _Stop:
        pass
    except Exception as error:
        what = "is not implemented yet" if isinstance(error, NotWritten) else f"raised {describe(error)}"
        notes.append(f"Your play {what}, so the page takes the turns itself with your take_turn "
                     f"and {calls.swap_name}" + (" (without Feral Hogs, which is play's part)." if vid == "fa19"
                                                 else "."))
        mode, recorder = "turns", Recorder(moves, faces, computer, roll)
        try:
            _turn_by_turn(calls, recorder)
        except _Stop:
            pass
    turns = explain(calls, recorder.turns, checked=mode == "play")
    waiting = recorder.waiting
    score = waiting["score"] if waiting else (turns[-1]["score"] if turns else [0, 0])
    return {"moves": recorder.moves, "faces": recorder.faces[:recorder.used], "turns": turns,
            "next": waiting["player"] if waiting else None, "score": score, "mode": mode, "notes": notes}


# ------------------------------------------------------------- each turn's account


def explain(calls: Calls, turns: list[dict], checked: bool) -> list[dict]:
    """What each turn's dice were, what the student's functions made of them, and which of the
    handout's rules applied; with ``checked``, where their play and their functions disagree."""
    previous = [0, 0]
    for turn in turns:
        try:
            _explain_turn(calls, turn, previous, checked)
        except Exception as error:
            turn.setdefault("rules", [])
            turn.setdefault("warnings", []).append(f"Explaining this turn, your code raised {describe(error)}.")
        previous[turn["player"]] = turn["dice"]
    return turns


def _explain_turn(calls: Calls, turn: dict, previous: list[int], checked: bool) -> None:
    who, n, faces = turn["player"], turn["dice"], turn["faces"]
    mine, theirs = turn["before"][who], turn["before"][1 - who]
    rules, yours, warnings = [], [], []
    turn["rules"], turn["yours"], turn["warnings"] = [], [], []
    turn.setdefault("score", list(turn["before"]))
    gained = calls.points(n, mine, theirs, faces)
    yours.append(f"{calls.owner.capitalize()} take_turn scored {gained:g}.")
    if n == 0:
        rules.append([calls.zero_rule, f"Player {who} rolled no dice; {calls.owner} {calls.zero_name}({theirs}) "
                                       f"returned {calls.zero(theirs):g}."])
    elif 1 in faces:
        rules.append(["Pig Out", "A 1 is among the dice."])
        if calls.vid != "nju21" and gained != 1:
            warnings.append(f"Pig Out: the handout says this turn scores exactly 1 point, "
                            f"but your take_turn scored {gained:g}.")
    extra = 0
    if calls.vid == "nju21" and n:
        same = sum(1 for face in faces if face % 2 == mine % 2)
        if same:
            rules.append(["Feral Hogs", f"{same} of the dice {'is' if same == 1 else 'are'} "
                                        f"{'odd' if mine % 2 else 'even'}, like Player {who}'s score {mine}."])
    if calls.vid == "fa19" and abs(n - previous[who]) == 2:
        extra = 3
        rules.append(["Feral Hogs", f"Player {who} rolled {n} dice, and {previous[who]} on their previous turn."])
    total = mine + gained + extra
    turn["points"] = gained + extra
    swap_args = f"{total}" if calls.vid == "nju24" else f"{total}, {theirs}"
    swapped = calls.swaps(total, theirs)
    if swapped:
        rules.append(["Swine Swap", f"{calls.owner.capitalize()} {calls.swap_name}({swap_args}) returned True: the scores trade places."])
    ends = (theirs, total) if swapped else (total, theirs)
    expected = [ends[0], ends[1]] if who == 0 else [ends[1], ends[0]]
    if checked and expected != turn["score"]:
        warnings.append(f"Your play ended this turn at {turn['score'][0]:g} to {turn['score'][1]:g}, but your "
                     f"take_turn ({gained:g} point{'' if gained == 1 else 's'}){' and Feral Hogs (3)' if extra else ''} and your "
                     f"{calls.swap_name}({swap_args}) give {expected[0]:g} to {expected[1]:g}.")
    turn["rules"], turn["yours"], turn["warnings"] = rules, yours, warnings


def describe(error: BaseException) -> str:
    """The error in one line, with the place in hog.py it came from."""
    where = ""
    for frame in traceback.extract_tb(error.__traceback__):
        if Path(frame.filename).name == "hog.py":
            where = f" (hog.py, line {frame.lineno}, in {frame.name})"
    if isinstance(error, SyntaxError) and error.lineno:
        where = f" (hog.py, line {error.lineno})"
    return f"{type(error).__name__}: {error}{where}"


def problem_of(error: BaseException) -> str:
    if isinstance(error, NotWritten):
        return f"Not implemented yet: {error}. Write it in hog.py, save, and roll again."
    return f"Your code raised {describe(error)}."


# ---------------------------------------------------------------- the worker


def worker(folder: str) -> int:
    """One request in a fresh process: a JSON request on stdin, a JSON answer on stdout."""
    request = json.loads(sys.stdin.read())
    answer_to = sys.stdout
    sys.path.insert(0, folder)
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            import hog
            computer = hog.final_strategy if request["computer"] else None
            answer = {"ok": True, **run_game(hog, request["moves"], request["faces"], request["goal"], computer)}
        except Exception as error:
            answer = {"ok": False, "problem": problem_of(error)}
    answer_to.write(json.dumps(answer) + "\n")
    answer_to.flush()
    return 0


class StudentEngine:
    """Runs the student's hog.py in a fresh Python process for every request, with a time limit."""

    def __init__(self, folder: Path, timeout: float = TIMEOUT):
        self.folder, self.timeout = Path(folder), timeout

    def run(self, moves, faces, goal, computer: bool) -> dict:
        request = json.dumps({"moves": moves, "faces": faces, "goal": goal, "computer": computer})
        try:
            flags = ["-I"] * sys.flags.isolated + ["-S"] * sys.flags.no_site   # as this process was started
            done = subprocess.run([sys.executable, *flags, str(Path(__file__).resolve()), "--worker", str(self.folder)],
                                  input=request, capture_output=True, text=True, timeout=self.timeout,
                                  cwd=self.folder)
        except subprocess.TimeoutExpired:
            return {"ok": False, "problem": f"Your code did not finish within {self.timeout:g} s "
                                            f"(a loop that never ends?). Nothing was played."}
        lines = done.stdout.strip().splitlines()
        try:
            return json.loads(lines[-1])
        except (IndexError, ValueError):
            tail = (done.stderr.strip().splitlines() or ["no message"])[-1]
            return {"ok": False, "problem": f"Your hog.py stopped Python before the turn was played "
                                            f"(exit status {done.returncode}: {tail})."}


class LocalEngine:
    """Runs trusted rules (the kit's reference module) in this process."""

    def __init__(self, hog, computer=None):
        self.hog, self.computer = hog, computer

    def run(self, moves, faces, goal, computer: bool) -> dict:
        try:
            return {"ok": True, **run_game(self.hog, moves, faces, goal, self.computer if computer else None,
                                           owner="the reference")}
        except Exception as error:
            return {"ok": False, "problem": problem_of(error)}


# ---------------------------------------------------------------- the server


class RequestError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class Game:
    """One game, held by the server: the moves, the dice faces rolled, and its state."""

    def __init__(self, game_id: str, goal: int, computer: bool):
        self.id, self.goal, self.computer = game_id, goal, computer
        self.moves, self.faces, self.lock = [], [], threading.Lock()
        self.state = {"turns": [], "next": 0, "score": [0, 0], "mode": None, "notes": []}

    def view(self) -> dict:
        state, over = self.state, self.state["next"] is None
        score = state["score"]
        winner = None if not over or score[0] == score[1] else (0 if score[0] > score[1] else 1)
        return {"id": self.id, "goal": self.goal, "score": score, "next": state["next"], "over": over,
                "winner": winner, "turns": state["turns"], "mode": state["mode"], "notes": state["notes"],
                "opponent": "computer" if self.computer else "human"}


class App:
    """The page and its JSON API, for one engine (the student's code, or the kit's reference)."""

    def __init__(self, engine, config: dict, goal: int = 100):
        self.engine, self.config, self.goal = engine, dict(config), goal
        self.token = secrets.token_urlsafe(16)
        self.games: dict[str, Game] = {}
        self.lock = threading.Lock()

    def new_game(self, body: dict) -> dict:
        game = Game(secrets.token_hex(8), self.goal, self.config.get("opponent") == "computer")
        with self.lock:
            self.games[game.id] = game
        return {"game": game.view()}

    def game(self, game_id) -> Game:
        game = self.games.get(game_id) if isinstance(game_id, str) else None
        if game is None:
            raise RequestError(404, f"no game {game_id!r} (start a new game)")
        return game

    def move(self, body: dict) -> dict:
        game, dice, player = self.game(body.get("game")), body.get("dice"), body.get("player")
        if isinstance(dice, bool) or not isinstance(dice, int) or not 0 <= dice <= MAX_DICE:
            raise RequestError(400, f"dice must be a whole number from 0 to {MAX_DICE}, not {dice!r}")
        with game.lock:
            state = game.state
            if state["next"] is None:
                raise RequestError(409, "the game is over: start a new game")
            if player != state["next"] or (game.computer and player == 1):
                raise RequestError(409, f"it is Player {state['next']}'s turn, not {player!r}'s")
            result = self.engine.run(game.moves + [[player, dice]], game.faces, game.goal, game.computer)
            if not result.get("ok"):
                return {"game": game.view(), "problem": result.get("problem", "the turn could not be played")}
            game.moves, game.faces = result["moves"], result["faces"]
            game.state = {key: result[key] for key in ("turns", "next", "score", "mode", "notes")}
            return {"game": game.view()}

    def handle(self, method: str, path: str, body: dict | None):
        """(status, JSON answer) of an API call; ``path`` is what follows /api/."""
        routes = {("GET", "config"): lambda: {"config": {**self.config, "goal": self.goal}},
                  ("POST", "new"): lambda: self.new_game(body),
                  ("POST", "move"): lambda: self.move(body)}
        if method == "GET" and path.startswith("game/"):
            return 200, {"game": self.game(path[len("game/"):]).view()}
        if (method, path) not in routes:
            raise RequestError(404, f"no API call {method} {path}")
        return 200, routes[(method, path)]()


def handler_for(app: App, port_of):
    class Handler(BaseHTTPRequestHandler):
        server_version = "HogGUI"

        def log_message(self, *args):
            pass

        def _send(self, status, body: bytes, kind: str):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status, answer):
            self._send(status, json.dumps(answer).encode(), "application/json")

        def _serve(self, method):
            port = port_of()
            if self.headers.get("Host", "") not in (f"127.0.0.1:{port}", f"localhost:{port}"):
                return self._json(403, {"error": "this server answers only to 127.0.0.1 and localhost"})
            prefix = f"/t/{app.token}/"
            path = self.path.split("?", 1)[0]
            if not path.startswith(prefix):
                return self._json(404, {"error": "unknown address (use the address hog_gui.py printed)"})
            rest = path[len(prefix):]
            if rest == "" and method == "GET":
                return self._send(200, PAGE.encode(), "text/html; charset=utf-8")
            if not rest.startswith("api/"):
                return self._json(404, {"error": f"nothing at {path}"})
            try:
                body = self._body() if method == "POST" else None
                status, answer = app.handle(method, rest[len("api/"):], body)
            except RequestError as error:
                status, answer = error.status, {"error": str(error)}
            self._json(status, answer)

        def _body(self) -> dict:
            length = int(self.headers.get("Content-Length") or 0)
            if length > 65536:
                raise RequestError(413, "request too large")
            try:
                body = json.loads(self.rfile.read(length) or b"null")
            except ValueError:
                raise RequestError(400, "the request body is not JSON") from None
            if not isinstance(body, dict):
                raise RequestError(400, "the request body must be a JSON object")
            return body

        def do_GET(self):
            self._serve("GET")

        def do_POST(self):
            self._serve("POST")

    return Handler


def make_server(app: App, port: int = 0) -> ThreadingHTTPServer:
    """A server on 127.0.0.1 (port 0: any free port); ``server_address[1]`` is the port."""
    holder = {}
    server = ThreadingHTTPServer(("127.0.0.1", port), handler_for(app, lambda: holder["port"]))
    holder["port"] = server.server_address[1]
    server.daemon_threads = True
    return server


def address(app: App, server) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}/t/{app.token}/"


def serve(app: App, port: int, open_browser: bool, out=sys.stdout) -> int:
    """Serve until Ctrl-C; prints the address, opens it unless told not to."""
    try:
        server = make_server(app, port)
    except OSError as error:
        out.write(f"cannot listen on 127.0.0.1:{port}: {error.strerror} (try another --port)\n")
        return 2
    if threading.current_thread() is threading.main_thread():   # Ctrl-C works even when started in the background
        signal.signal(signal.SIGINT, signal.default_int_handler)
    url = address(app, server)
    try:
        out.write(f"Hog is at {url}  (Ctrl-C stops it)\n")
        out.flush()
        if open_browser:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
        server.serve_forever()
    except KeyboardInterrupt:
        out.write("\nStopped.\n")
    finally:
        server.server_close()
    return 0


# ---------------------------------------------------------- the student's run


def handout_rules(folder: Path) -> list[dict]:
    """The rules in the handout's words: each '### Name' of handout.md's rules and its first paragraph."""
    try:
        text = (folder / "handout.md").read_text(encoding="utf-8")
    except OSError:
        return []
    section = text.split("\n## The rules", 1)[-1].split("\n## ", 1)[0] if "\n## The rules" in text else ""
    return [{"name": name.strip(), "summary": " ".join(summary.split())}
            for name, summary in re.findall(r"^### (.+)\n\n((?:.+\n)+)", section, re.M)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 hog_gui.py", description="Play Hog in your browser.")
    parser.add_argument("-f", "--final", action="store_true", help="play against your final_strategy")
    parser.add_argument("--no-browser", action="store_true", help="print the address only")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: any free port)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds your code may take a request")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.worker)
    if not (HERE / "hog.py").is_file():
        print(f"no hog.py beside {Path(__file__).name} in {HERE}: run it in your Hog folder", file=sys.stderr)
        return 2
    first = (HERE / "hog.py").read_text(encoding="utf-8", errors="replace").lstrip('"\' \n').split("\n", 1)[0]
    config = {"title": first.rstrip('."\' ') or "The Game of Hog", "rules": handout_rules(HERE),
              "opponent": "computer" if args.final else "human", "computer": "your final_strategy",
              "source": "your hog.py"}
    return serve(App(StudentEngine(HERE, args.timeout), config), args.port, not args.no_browser)


# ------------------------------------------------------------------ the page

PAGE = r"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hog</title>
<style>
:root { --ink: #1d232a; --muted: #5b6670; --line: #d5dbe0; --accent: #a33b20; --now: #fff4d6; --warn: #8a1c1c; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #fafaf7; }
main { max-width: 52rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.35rem; margin: 0 0 .2rem; }
h2 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
.sub { color: var(--muted); margin: 0 0 1rem; }
.board { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; }
.player { border: 2px solid var(--line); border-radius: .6rem; padding: .6rem .8rem; background: #fff; }
.player.now { border-color: var(--accent); background: var(--now); }
.player .name { font-weight: 600; }
.player output { display: block; font-size: 2.4rem; font-weight: 700; font-variant-numeric: tabular-nums; }
#status { font-size: 1.1rem; font-weight: 600; margin: .8rem 0 .5rem; }
.dice-buttons { display: grid; grid-template-columns: repeat(11, minmax(2.4rem, 1fr)); gap: .35rem; }
.dice-buttons button, #new { font: inherit; font-weight: 600; padding: .55rem 0; border-radius: .45rem;
  border: 1px solid #8d969e; background: #fff; cursor: pointer; }
.dice-buttons button:hover:not(:disabled), .dice-buttons button:focus-visible { background: var(--now); outline: 3px solid var(--accent); }
button:disabled { opacity: .45; cursor: default; }
#new { padding: .5rem 1rem; margin-top: .8rem; }
.keys { color: var(--muted); font-size: .9rem; margin: .4rem 0 0; }
kbd { border: 1px solid var(--line); border-radius: .25rem; padding: 0 .3rem; background: #fff; }
#problem { border-left: 4px solid var(--warn); background: #fdeeee; padding: .5rem .8rem; margin: .8rem 0; }
#winner { font-size: 1.3rem; font-weight: 700; color: var(--accent); margin: .8rem 0; }
.turn { border: 1px solid var(--line); border-radius: .5rem; background: #fff; padding: .5rem .7rem; margin: .4rem 0; list-style: none; }
.turn .head { font-weight: 600; }
.die { display: inline-block; min-width: 1.7rem; padding: .1rem .3rem; margin: .15rem .15rem 0 0; text-align: center;
  border: 2px solid var(--ink); border-radius: .35rem; font-weight: 700; background: #fff; }
.die.one { border-color: var(--warn); color: var(--warn); }
.rule { margin: .3rem 0 0; }
.rule b { color: var(--accent); }
.rule .words { display: block; color: var(--muted); font-size: .9rem; }
.yours { margin: .2rem 0 0; color: var(--muted); font-size: .92rem; }
.warn { margin: .3rem 0 0; color: var(--warn); font-weight: 600; }
#history { padding: 0; margin: 0; }
.notes p { background: #eef3f8; padding: .4rem .7rem; border-radius: .4rem; }
@media (max-width: 34rem) {
  .dice-buttons { grid-template-columns: repeat(6, 1fr); }
  .player output { font-size: 2rem; }
}
</style>
</head>
<body>
<main>
<h1 id="title">Hog</h1>
<p class="sub" id="sub"></p>
<section class="board" aria-label="Scores">
  <div class="player" id="p0"><span class="name" id="name0">Player 0</span><output id="score0">0</output></div>
  <div class="player" id="p1"><span class="name" id="name1">Player 1</span><output id="score1">0</output></div>
</section>
<p id="status" role="status" aria-live="polite">Loading…</p>
<div id="winner" hidden></div>
<div class="dice-buttons" id="buttons" role="group" aria-label="Number of dice to roll"></div>
<p class="keys">Keys: <kbd>0</kbd>–<kbd>9</kbd> roll that many dice, <kbd>T</kbd> rolls ten, <kbd>N</kbd> starts a new game.</p>
<div id="problem" role="alert" hidden></div>
<button id="new" type="button">New game</button>
<div class="notes" id="notes"></div>
<h2>Last turn</h2>
<ol id="last" class="turns" style="padding:0;margin:0"><li class="turn">No turn yet.</li></ol>
<h2>History</h2>
<ol id="history"></ol>
</main>
<script>
"use strict";
const base = location.pathname.endsWith("/") ? location.pathname : location.pathname + "/";
let config = null, game = null, busy = false, shown = 0;
const $ = (id) => document.getElementById(id);
function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }

async function api(method, path, body) {
  const options = {method, headers: {"Content-Type": "application/json"}};
  if (body !== undefined) options.body = JSON.stringify(body);
  const response = await fetch(base + "api/" + path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || ("error " + response.status));
  return data;
}
function name(player) {
  if (config && config.opponent === "computer") return player === 0 ? "You" : "The computer (" + config.computer + ")";
  return "Player " + player;
}
function summary(rule) {
  const found = (config.rules || []).find((r) => r.name === rule);
  return found ? found.summary : "";
}
function turnItem(turn, number) {
  const li = el("li", "turn");
  li.dataset.player = turn.player;
  const head = el("div", "head", "Turn " + number + ": " + name(turn.player) + " rolled " + turn.dice +
    (turn.dice === 1 ? " die" : " dice") + " → " + (turn.points >= 0 ? "+" : "") + turn.points +
    " (now " + turn.score[0] + " to " + turn.score[1] + ")");
  li.append(head);
  if (turn.faces.length) {
    const faces = el("div", "faces");
    for (const face of turn.faces) {
      const die = el("span", face === 1 ? "die one" : "die", String(face));
      die.setAttribute("aria-label", "die showing " + face);
      faces.append(die);
    }
    li.append(faces);
  }
  for (const [rule, why] of turn.rules || []) {
    const p = el("p", "rule");
    p.append(el("b", "", rule + ": "), document.createTextNode(why));
    const words = summary(rule);
    if (words) p.append(el("span", "words", "Handout: " + words));
    li.append(p);
  }
  for (const line of turn.yours || []) li.append(el("p", "yours", line));
  for (const line of turn.warnings || []) li.append(el("p", "warn", "⚠ " + line));
  return li;
}
function render() {
  if (!game) return;
  for (const p of [0, 1]) {
    $("score" + p).textContent = game.score[p];
    $("name" + p).textContent = name(p);
    $("p" + p).classList.toggle("now", game.next === p);
  }
  const humanTurn = !game.over && !(game.opponent === "computer" && game.next === 1);
  $("status").textContent = game.over ? "Game over." : (busy ? "Rolling…" : (game.opponent === "computer" ? "Your turn" : name(game.next) + "'s turn") + ". How many dice?");
  const winner = $("winner");
  winner.hidden = !game.over;
  winner.textContent = game.over ? (game.winner === null ? "A tie, " : name(game.winner) + " won, ") + game.score[0] + " to " + game.score[1] + "." : "";
  for (const button of $("buttons").children) button.disabled = busy || !humanTurn;
  const notes = $("notes");
  notes.replaceChildren(...(game.notes || []).map((n) => el("p", "", n)));
  const turns = game.turns;
  $("history").replaceChildren(...turns.map((t, i) => turnItem(t, i + 1)).reverse());
  const fresh = turns.slice(Math.min(shown, Math.max(turns.length - 1, 0)));
  $("last").replaceChildren(...(fresh.length ? fresh.map((t) => turnItem(t, turns.indexOf(t) + 1)) : [el("li", "turn", "No turn yet.")]));
  shown = turns.length;
  document.body.dataset.state = game.over ? "over" : (busy ? "busy" : "ready");
  document.body.dataset.game = game.id;
}
function showProblem(text) {
  const box = $("problem");
  box.hidden = !text;
  box.textContent = text || "";
}
async function newGame() {
  try {
    game = (await api("POST", "new", {})).game;
    shown = 0;
    showProblem(null);
  } catch (error) { showProblem(error.message); }
  render();
}
async function roll(dice) {
  if (!game || game.over || busy) return;
  if (game.opponent === "computer" && game.next === 1) return;
  busy = true; render();
  try {
    const answer = await api("POST", "move", {game: game.id, player: game.next, dice});
    game = answer.game;
    showProblem(answer.problem || null);
  } catch (error) { showProblem(error.message); }
  busy = false; render();
}
async function start() {
  for (let n = 0; n <= 10; n++) {
    const button = el("button", "", String(n));
    button.type = "button";
    button.dataset.dice = n;
    button.setAttribute("aria-label", "roll " + n + (n === 1 ? " die" : " dice"));
    button.addEventListener("click", () => roll(n));
    $("buttons").append(button);
  }
  $("new").addEventListener("click", newGame);
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (/^[0-9]$/.test(event.key)) roll(Number(event.key));
    else if (event.key === "t" || event.key === "T") roll(10);
    else if (event.key === "n" || event.key === "N") newGame();
    else return;
    event.preventDefault();
  });
  try {
    config = (await api("GET", "config")).config;
  } catch (error) { showProblem(error.message); return; }
  $("title").textContent = config.title;
  document.title = config.title;
  $("sub").textContent = "First to " + config.goal + " wins. " + (config.opponent === "computer" ?
    "You play first, against " + config.computer + "." : "Two players take turns at this keyboard.") +
    " Rules from " + config.source + ".";
  await newGame();
}
start();
</script>
</body>
</html>
"""


if __name__ == "__main__":
    sys.exit(main())
