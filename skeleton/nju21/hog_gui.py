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
give 3: Free Bacon, opponent at 23"), that hog.py run only in the kit's sandbox.

Safety: the server listens on 127.0.0.1 only, the address carries a random
token, and requests whose Host is not this machine are refused. Your code runs
in a separate Python process (hog_gui_game.py), stopped after a time limit.

Files: this one is the server; hog_gui_game.py replays a game with your
functions; hog_gui.html, hog_gui.css and hog_gui.js are the page.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import re
import secrets
import signal
import subprocess
import sys
import threading
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
TIMEOUT = 5.0          # seconds one request may spend in the student's code
# What the page is made of, beside this file: the address after the token → (file, content type).
PAGE = {"": ("hog_gui.html", "text/html; charset=utf-8"), "hog_gui.css": ("hog_gui.css", "text/css; charset=utf-8"),
        "hog_gui.js": ("hog_gui.js", "text/javascript; charset=utf-8")}
# The course's look, which hog assign copies beside this file (Bootstrap's sheet and the kit's); without
# them the page is plain, and works the same.
LOOK = {name: (name, "text/css; charset=utf-8") for name in ("bootstrap.min.css", "kit.css")}


GAME = "hog_gui_game.py"   # the replay of a game with the student's functions: run as a script for each move


@functools.cache
def game_module():
    """hog_gui_game.py beside this file, loaded by path (python3 -I puts no folder on sys.path)."""
    spec = importlib.util.spec_from_file_location("hog_gui_game", HERE / GAME)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------- the student's code


class StudentEngine:
    """Runs the student's hog.py in a fresh Python process for every request, with a time limit."""

    def __init__(self, folder: Path, timeout: float = TIMEOUT):
        self.folder, self.timeout = Path(folder), timeout

    def run(self, moves, faces, goal, computer: bool) -> dict:
        request = json.dumps({"moves": moves, "faces": faces, "goal": goal, "computer": computer})
        try:
            # -I: the worker's imports come from the standard library and the student's folder alone
            flags = ["-I"] + ["-S"] * sys.flags.no_site   # -S as this process was started
            done = subprocess.run([sys.executable, *flags, str(HERE / GAME), str(self.folder)],
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
        most = game_module().MAX_DICE
        if isinstance(dice, bool) or not isinstance(dice, int) or not 0 <= dice <= most:
            raise RequestError(400, f"dice must be a whole number from 0 to {most}, not {dice!r}")
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

        def _page(self, name: str, kind: str):
            try:
                body = (HERE / name).read_bytes()
            except OSError:
                return self._json(404, {"error": f"{name} is missing beside hog_gui.py in {HERE}: "
                                                 "copy it back from the course's student folder"})
            self._send(200, body, kind)

        def _serve(self, method):
            port = port_of()
            if self.headers.get("Host", "") not in (f"127.0.0.1:{port}", f"localhost:{port}"):
                return self._json(403, {"error": "this server answers only to 127.0.0.1 and localhost"})
            prefix = f"/t/{app.token}/"
            path = self.path.split("?", 1)[0]
            if path == "/favicon.ico":   # the page declares no icon; other clients get none either
                return self._send(204, b"", "image/x-icon")
            if not path.startswith(prefix):
                return self._json(404, {"error": "unknown address (use the address hog_gui.py printed)"})
            rest = path[len(prefix):]
            if rest in PAGE and method == "GET":
                return self._page(*PAGE[rest])
            if rest in LOOK and method == "GET":   # an empty sheet where hog assign put none: the page is plain
                found = HERE / rest
                return self._send(200, found.read_bytes() if found.is_file() else b"", LOOK[rest][1])
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
    args = parser.parse_args(argv)
    if not (HERE / "hog.py").is_file():
        print(f"no hog.py beside {Path(__file__).name} in {HERE}: run it in your Hog folder", file=sys.stderr)
        return 2
    missing = [name for name in (GAME, *(file for file, _ in PAGE.values())) if not (HERE / name).is_file()]
    if missing:
        print(f"{', '.join(missing)} missing beside {Path(__file__).name} in {HERE}: copy "
              f"{'it' if len(missing) == 1 else 'them'} back from the course's student folder", file=sys.stderr)
        return 2
    first = (HERE / "hog.py").read_text(encoding="utf-8", errors="replace").lstrip('"\' \n').split("\n", 1)[0]
    config = {"title": first.rstrip('."\' ') or "The Game of Hog", "rules": handout_rules(HERE),
              "opponent": "computer" if args.final else "human", "computer": "your final_strategy",
              "source": "your hog.py"}
    return serve(App(StudentEngine(HERE, args.timeout), config), args.port, not args.no_browser)


if __name__ == "__main__":
    sys.exit(main())
