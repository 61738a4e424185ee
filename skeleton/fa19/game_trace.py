"""A call observed from outside: what a game passes to its strategies and its commentary and the dice it
calls, turn by turn; what each call of a rule function was given and returned.

``TRACER`` is Python text a session types before the call it observes (the grader's sandbox runs it
beside a submission, the grader runs it on the reference, a student folder's pytest on the student's own
code); the observed call becomes ``_hog_game(lambda _hog: play(_hog.strategy(0, ...), ...))`` or
``_hog_calls("free_bacon", lambda: ...)`` and its value is the record, plain data only. The functions
below read two records and find the first turn, or the first call, where they part.
Standard library only (and Python 3.8), as every file of a student folder.
"""

TRACER = '''\
def _hog_game(game, budget=5000, seconds=2.0):
    import contextlib, io, time, traceback
    events, started = [], time.monotonic()
    class Stop(BaseException):
        pass
    def plain(value):
        return value if type(value) in (int, bool) else repr(value)
    def note(event):
        if len(events) >= budget or time.monotonic() - started > seconds:
            events.append(("stopped", len(events)))
            raise Stop()
        events.append(event)
    class Tracer:
        def strategy(self, who, strategy):
            def traced(score, opponent_score):
                note(("asked", who, plain(score), plain(opponent_score)))
                rolled = strategy(score, opponent_score)
                events.append(("strategy", who, plain(score), plain(opponent_score), plain(rolled)))
                return rolled
            return traced
        def dice(self, dice):
            def traced():
                outcome = dice()
                note(("dice", plain(outcome)))
                return outcome
            return traced
        def say(self, say):
            def traced(score0, score1):
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    following = say(score0, score1)
                note(("say", plain(score0), plain(score1), out.getvalue(), callable(following)))
                return self.say(following) if callable(following) else following
            return traced
    try:
        events.append(("end", plain(game(Tracer()))))
    except Stop:
        pass
    except Exception as error:
        frames = traceback.extract_tb(error.__traceback__)
        events.append(("raised", type(error).__name__, str(error)[:200], frames[-1].name if frames else ""))
    return events


def _hog_calls(name, run):
    original, calls = globals()[name], []
    def plain(value):
        return value if type(value) in (int, bool, float) else repr(value)
    def recording(dice, outcomes):
        def traced():
            outcome = dice()
            outcomes.append(plain(outcome))
            return outcome
        return traced
    def recorded(*args, **kwargs):
        outcomes = []
        args = [recording(arg, outcomes) if callable(arg) else arg for arg in args]
        shown = [plain(arg) if not callable(arg) else "dice" for arg in args]
        named = [[key, plain(value)] for key, value in sorted(kwargs.items())]
        try:
            value = original(*args, **kwargs)
        except Exception as error:
            calls.append((shown, "raised", type(error).__name__, outcomes, named))
            raise
        calls.append((shown, "value", plain(value), outcomes, named))
        return value
    globals()[name] = recorded
    try:
        run()
    except Exception:
        pass
    finally:
        globals()[name] = original
    return calls


def _hog_commentary(name):
    import contextlib, io
    original, said, chains = globals()[name], [], [0]
    def wrap(function, chain):
        def traced(*args):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                following = function(*args)
            print(out.getvalue(), end="")
            said.append(["said", chain, list(args), out.getvalue(), callable(following)])
            return wrap(following, chain) if callable(following) else following
        return traced
    def made(*args, **kwargs):
        chains[0] += 1
        said.append(["made", chains[0], list(args), sorted([key, value] for key, value in kwargs.items())])
        return wrap(original(*args, **kwargs), chains[0])
    globals()[name] = made
    return said
'''


def turns(events):
    """The turns of a game's record: dicts of ``player``, ``before`` [score0, score1], ``rolled``, ``outcomes``,
    ``after`` (None when nothing after the turn showed it), ``said`` (the commentary's printed text and
    whether it returned a function, or None); and how the game ended: ("end", value), ("raised", type,
    message, function), ("stopped", events) or None."""
    found, ending = [], None
    for event in events:
        kind = event[0]
        if kind == "asked":
            who, score, opponent = event[1], event[2], event[3]
            before = [score, opponent] if who == 0 else [opponent, score]
            if found and found[-1]["after"] is None:
                found[-1]["after"] = before
            found.append({"player": who, "before": before, "rolled": None, "outcomes": [], "after": None,
                          "said": None})
        elif kind == "strategy" and found:
            found[-1]["rolled"] = event[4]
        elif kind == "dice" and found:
            found[-1]["outcomes"].append(event[1])
        elif kind == "say" and found:
            found[-1]["said"] = [event[3], event[4]]
            found[-1]["after"] = [event[1], event[2]]
        elif kind in ("end", "raised", "stopped"):
            ending = tuple(event)
    if ending and ending[0] == "end" and found and found[-1]["after"] is None:
        found[-1]["after"] = _pair(ending[1])
    return found, ending


def _pair(shown):
    """The final scores a game returned, as a list, or what it returned as text."""
    if isinstance(shown, str) and shown.startswith("(") and shown.endswith(")"):
        parts = [part.strip() for part in shown[1:-1].split(",")]
        if len(parts) == 2 and all(part.lstrip("-").isdigit() for part in parts):
            return [int(part) for part in parts]
    return shown


FIELDS = ("player", "before", "rolled", "outcomes", "after", "said")


def first_difference(want, got, got_ending=None):
    """The first turn (0-based index) where the submission's turns ``got`` leave the rules' turns ``want``,
    and the fields that differ there; None when every turn agrees."""
    for index, turn in enumerate(want):
        if index >= len(got):
            return index, ["missing"]
        differ = [field for field in FIELDS if turn[field] != got[index][field]]
        if differ:
            return index, differ
    if len(got) > len(want):
        return len(want), ["extra"]
    return None


def first_wrong_call(want, got):
    """The index of the first call whose result differs between two ``_hog_calls`` records (a call the
    submission never made counts as different), or None."""
    for index, call in enumerate(want):
        theirs = got[index] if index < len(got) else None
        if theirs is None or list(call[1:3]) != list(theirs[1:3]) or list(call[0]) != list(theirs[0]) \
                or [list(pair) for pair in call[4]] != [list(pair) for pair in theirs[4]]:
            return index
    return None


# ------------------------------------------------------------ the diagnosis of a record

def _scores(pair):
    return "%s and %s" % (pair[0], pair[1]) if isinstance(pair, list) and len(pair) == 2 else str(pair)


def _crash(ending, number):
    if ending and ending[0] == "raised":
        where = ending[3] if ending[3] and ending[3] != "<lambda>" else "play"
        return "turn %d: %s raised %s" % (number, where, ending[1]) + (": " + ending[2] if ending[2] else "")
    if ending and ending[0] == "stopped":
        return "turn %d: the game was still going after %s calls of the strategies and the dice " \
               "(play does not end)" % (number, ending[1])
    return ""


def game_diagnosis(explained, want_events, got_events, goal):
    """The first turn where the submission's game (``got_events``) leaves the rules' (``want_events``) as a
    dict: ``text``, ``rules``, ``decided`` and the turn's fields; ``explained``: for each of the rules' turns,
    ``text`` (what the rules give on it) and ``rules`` (their names); None when the games agree."""
    want, _ = turns(want_events)
    got, ending = turns(got_events) if isinstance(got_events, list) else ([], None)
    found = first_difference(want, got)
    if found is None or len(explained) < min(found[0] + 1, len(want)):
        return None
    index, differ = found
    if index >= len(want):   # the submission played on after the rules' game ended
        last, extra = (want[-1]["after"] if want else None), got[index]
        return {"text": "turn %d: the rules' game ends after turn %d with the scores %s (a score at the goal %s), "
                        "but the submission played on: player %s moved again"
                        % (index + 1, index, _scores(last), goal, extra["player"]),
                "rules": [], "decided": True, "turn": index + 1, "player": extra["player"],
                "before": extra["before"], "rolled": extra["rolled"], "outcomes": extra["outcomes"],
                "want": last, "got": extra["after"]}
    turn, theirs = want[index], (got[index] if index < len(got) else None)
    fields = {"turn": index + 1, "player": turn["player"], "before": turn["before"], "rolled": turn["rolled"],
              "outcomes": turn["outcomes"], "want": turn["after"], "got": theirs["after"] if theirs else None}
    crash = _crash(ending, index + 1) if theirs is None or theirs["after"] is None else ""
    if crash:
        return dict(fields, text=crash, rules=[], decided=False)
    parts = [explained[index]["text"]]
    if theirs is None:
        fields["got"] = ending[1] if ending and ending[0] == "end" else None
        parts.append("the rules' game goes on to this turn, but the submission's game ended before it "
                     "(it returned %s)" % (fields["got"],))
    elif "player" in differ:
        parts.append("the rules ask player %s's strategy, but the submission asked player %s's"
                     % (turn["player"], theirs["player"]))
    elif "outcomes" in differ:
        parts.append("the rules roll %s dice, but the submission called the dice %d time(s)"
                     % (turn["rolled"], len(theirs["outcomes"])))
    elif differ == ["said"]:
        parts.append(_commentary(turn, theirs))
    if theirs is not None and theirs["after"] != turn["after"]:
        parts.append("so the scores after the turn are %s, but the submission's are %s"
                     % (_scores(turn["after"]), _scores(theirs["after"])))
    return dict(fields, text="; ".join(parts), rules=list(explained[index]["rules"]), decided=True)


def _commentary(want, got):
    printed, following = want["said"]
    got_printed, got_following = got["said"] or ["", False]
    if printed != got_printed:
        return "after the turn the commentary is called with %s and prints %r, but the submission's printed %r" \
               % (_scores(want["after"]), printed.rstrip() or "nothing", got_printed.rstrip() or "nothing")
    if following != got_following:
        return "after the turn the commentary returns the function to call after the next turn, but the " \
               "submission's game did not keep it"
    return "the commentary is called differently after this turn"


def calls_diagnosis(explained, want_calls, got_calls, function):
    """The first call whose result differs, as a dict of ``text``, ``rules`` and ``decided``; ``explained``:
    for each of the rules' calls, ``text`` (the call and what the rules give) and ``rules``; None when every
    call agrees."""
    got_calls = got_calls if isinstance(got_calls, list) else []
    index = first_wrong_call(want_calls, got_calls)
    if index is None:
        for item, want, got in zip(explained, want_calls, got_calls):
            if len(want[3]) != len(got[3]) and item is not None:
                return {"text": "%s rolls %d dice by the rules, so it calls the dice %d time(s), every die even after "
                                "a 1; the submission's called them %d time(s)"
                                % (item["call"], len(want[3]), len(want[3]), len(got[3])),
                        "rules": list(item["rules"]), "decided": True}
        return None
    if index >= len(explained) or explained[index] is None:
        return None
    item, mine = explained[index], (got_calls[index] if index < len(got_calls) else None)
    if mine is not None and mine[1] == "raised":
        return {"text": "%s raised %s; by the rules it returns %r" % (item["call"], mine[2], want_calls[index][2]),
                "rules": [], "decided": False}
    got = "the submission never made this call (an earlier one failed)" if mine is None else \
        "the submission returns %s" % (mine[2],)
    return {"text": "%s; the rules give %r, %s" % (item["text"], want_calls[index][2], got),
            "rules": list(item["rules"]), "decided": True}


def said_diagnosis(explained, want, got):
    """The first call of a commentary function whose printed line or returned function differs, as a dict of
    ``text``, ``rules`` and ``decided``; ``explained``: per event of the rules' record, the rules' sentence
    (or None); None when every call agrees."""
    got = got if isinstance(got, list) else []
    for index, event in enumerate(want):
        mine = got[index] if index < len(got) else None
        if mine is not None and list(mine) == list(event):
            continue
        if event[0] != "said" or index >= len(explained) or explained[index] is None:
            return None
        if mine is None or mine[0] != "said" or list(mine[2]) != list(event[2]):
            theirs = "the submission's commentary was not called so" if mine is None else \
                "the submission's commentary was called otherwise here"
        elif mine[3] != event[3]:
            theirs = "the submission's printed %r" % (mine[3].rstrip() or "nothing")
        else:
            theirs = "the submission's returned %s" % ("a function" if mine[4] else "no function")
        return {"text": "%s; %s" % (explained[index], theirs), "rules": [], "decided": True}
    return None
