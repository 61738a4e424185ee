"""The diagnosis of a failing game (play, Feral Hogs, commentary): the first turn where the submission's
game leaves the rules' game, read from both records of the same traced call (``game_trace``)."""

from __future__ import annotations

from grader.diagnosis.model import Diagnosis
from grader.diagnosis.steps import Rules, Said
from grader.shipped.student.game_trace import first_difference, turns
from grader.spec import Question, Variant


def _scores(pair) -> str:
    return f"{pair[0]} and {pair[1]}" if isinstance(pair, list) and len(pair) == 2 else str(pair)


def explain_turn(rules: Rules, turn: dict, previous: list[int], feral: bool) -> tuple[Said, list[int] | None]:
    """What the rules give on a turn of the rules' game, and the scores after it (None where the turn's
    record is not one the rules can have played)."""
    said = Said()
    who, rolled, outcomes = turn["player"], turn["rolled"], turn["outcomes"]
    score, opponent = turn["before"][who], turn["before"][1 - who]
    if type(rolled) is not int or any(type(outcome) is not int for outcome in outcomes):
        return said, None
    points = rules.turn_points(rolled, outcomes, score, opponent, said)
    if feral:
        points += rules.feral(rolled, previous[who], said)
    new = score + points
    if rules.swaps(new, opponent, said):
        new, opponent = opponent, new
    return said, ([new, opponent] if who == 0 else [opponent, new])


def _crash(ending, number: int) -> str:
    if ending and ending[0] == "raised":
        where = ending[3] if ending[3] and ending[3] != "<lambda>" else "play"
        return f"turn {number}: {where} raised {ending[1]}" + (f": {ending[2]}" if ending[2] else "")
    if ending and ending[0] == "stopped":
        return f"turn {number}: the game was still going after {ending[1]} calls of the strategies and the dice " \
               f"(play does not end)"
    return ""


def diagnose(variant: Variant, question: Question, hog, written: dict, want_events, got_events) -> Diagnosis | None:
    """The first wrong turn; None when the two records agree or the rules' own record cannot be read."""
    want, _ = turns(want_events)
    got, ending = turns(got_events) if isinstance(got_events, list) else ([], None)
    found = first_difference(want, got)
    if found is None:
        return None
    index, differ = found
    rules = Rules(variant, hog)
    feral = rules.dice_count and written.get("feral_hogs", "True") not in ("False", "0")
    previous = [0, 0]
    for turn in want[:index]:
        previous[turn["player"]] = turn["rolled"]
    if index >= len(want):   # the submission played on after the rules' game ended
        last = want[-1]["after"] if want else None
        extra = got[index]
        return Diagnosis(f"turn {index + 1}: the rules' game ends after turn {index} with the scores "
                         f"{_scores(last)} (a score at the goal {written.get('goal', variant.goal)}), but the "
                         f"submission played on: player {extra['player']} moved again", (),
                         {"turn": index + 1, "player": extra["player"], "before": extra["before"],
                          "rolled": extra["rolled"], "outcomes": extra["outcomes"], "want": last, "got": extra["after"]})
    turn = want[index]
    said, after = explain_turn(rules, turn, previous, feral)
    if after != turn["after"]:
        return None   # the rules' own record disagrees with its explanation: say nothing rather than something wrong
    theirs = got[index] if index < len(got) else None
    fields = {"turn": index + 1, "player": turn["player"], "before": turn["before"], "rolled": turn["rolled"],
              "outcomes": turn["outcomes"], "want": turn["after"], "got": theirs["after"] if theirs else None}
    crash = _crash(ending, index + 1) if theirs is None or theirs["after"] is None else ""
    if crash:
        return Diagnosis(crash, (), fields, decided=False)
    head = (f"turn {index + 1}: player {turn['player']} moves with the scores at {_scores(turn['before'])} and rolls "
            f"{turn['rolled']} dice" + (f" ({', '.join(map(str, turn['outcomes']))})" if turn["outcomes"] else ""))
    parts = [head] + said.sentences
    if theirs is None:
        fields["got"] = _ended(ending)
        parts.append(f"the rules' game goes on to this turn, but the submission's game ended before it "
                     f"(it returned {fields['got']})")
    elif "player" in differ:
        parts.append(f"the rules ask player {turn['player']}'s strategy, but the submission asked player "
                     f"{theirs['player']}'s")
    elif "outcomes" in differ and theirs["outcomes"] != turn["outcomes"]:
        parts.append(f"the rules roll {turn['rolled']} dice, but the submission called the dice "
                     f"{len(theirs['outcomes'])} time(s)")
    elif differ == ["said"]:
        parts.append(_commentary(turn, theirs))
    if theirs is not None and theirs["after"] != turn["after"]:
        parts.append(f"so the scores after the turn are {_scores(turn['after'])}, but the submission's are "
                     f"{_scores(theirs['after'])}")
    return Diagnosis("; ".join(parts), tuple(said.rules), fields)


def _ended(ending) -> object:
    return ending[1] if ending and ending[0] == "end" else None


def _commentary(want: dict, got: dict) -> str:
    printed, following = want["said"]
    got_printed, got_following = got["said"] or ["", False]
    if printed != got_printed:
        return (f"after the turn the commentary is called with {_scores(want['after'])} and prints "
                f"{printed.rstrip() or 'nothing'!r}, but the submission's printed {got_printed.rstrip() or 'nothing'!r}")
    if following != got_following:
        return "after the turn the commentary returns the function to call after the next turn, but the " \
               "submission's game did not keep it"
    return "the commentary is called differently after this turn"
