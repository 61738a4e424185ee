"""Your hog.py, played: the game a page of hog_gui.py shows, replayed turn by turn with your functions.

hog_gui.py (the server) never imports your hog.py: for every move it starts

    python3 -I hog_gui_game.py FOLDER

which reads the request (the moves so far, the dice faces rolled, the goal,
whether the computer plays) as JSON on stdin, imports FOLDER/hog.py, replays the
game with your play (or, before play is written, turn by turn with your
take_turn and swap function) and writes the account of every turn as JSON on
stdout. A crash or a loop of your code costs that process, never the server.

Standard library only, and no rule's answer here: see hog_gui.py for why.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
import traceback
from pathlib import Path

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


class Unplayable(Exception):
    """A check of this file's own failed, not the student's code: it cannot tell which rules to play."""


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


def run_game(hog, moves, faces, goal, computer=None, roll=lambda: random.randint(1, 6), owner="your",
             variant=None) -> dict:
    """Replay a game from its moves and dice faces with the student's play (or, while play is not
    written, turn by turn), adding the computer's moves: the state and an account of every turn.
    The rules are ``variant``'s when it is given, else those hog.py's first line names."""
    vid = variant or variant_of(hog)
    if vid is None:
        raise Unplayable("hog.py's first line no longer names its rules: keep the docstring it came with")
    if vid not in ZERO:
        raise Unplayable(f"this page plays the rules of {', '.join(sorted(ZERO))}, not those of {vid}")
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
    if isinstance(error, Unplayable):
        return f"The page cannot play this hog.py: {error}."
    if isinstance(error, NotWritten):
        return f"Not implemented yet: {error}. Write it in hog.py, save, and roll again."
    return f"Your code raised {describe(error)}."


# ---------------------------------------------------------------- one request


def answer(request: dict) -> dict:
    """The game of ``request`` ({"moves", "faces", "goal", "computer"}, and the "variant" whose rules
    to play when the caller knows them) replayed with the student's ``hog``, or {"ok": False,
    "problem": ...}, with "unplayable": why, when this file's own check failed rather than the
    student's code; what the student's code prints is dropped."""
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            import hog
            computer = hog.final_strategy if request["computer"] else None
            return {"ok": True, **run_game(hog, request["moves"], request["faces"], request["goal"], computer,
                                           variant=request.get("variant"))}
        except Unplayable as error:
            return {"ok": False, "problem": problem_of(error), "unplayable": str(error)}
        except Exception as error:
            return {"ok": False, "problem": problem_of(error)}


def answer_text(request: str) -> str:
    """``answer`` from JSON text to JSON text: how the kit asks from inside its sandbox
    (``hog play --submission``), where hog.py is already imported."""
    return json.dumps(answer(json.loads(request)))


def main(argv: list[str]) -> int:
    """One request in a fresh process: a JSON request on stdin, a JSON answer on stdout."""
    request = json.loads(sys.stdin.read())
    sys.path.insert(0, argv[0])
    sys.stdout.write(json.dumps(answer(request)) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
