"""Hidden cases that probe what the public cases show, so that a special case for a public example fails.

A student who reads a public case (``f2 = f1(12, 11)`` prints ``11 point(s)!``) can write a program
that recites it (``if score == 11: print("11 point(s)! ...")``) and pass it. Random hidden cases catch
that program only on the seeds that happen to meet the number again. The probes made here are the
public sessions themselves with one number changed, so every grading run meets the numbers the
student saw where the right answer is not the one the student saw. Three kinds, for each question:

* **another context** (``differs``): for every number typed in a public session and every step from
  there on that shows an answer and may depend on it, a probe with that number alone changed where the
  step's answer differs. A number of an earlier step changes the state the step's own call meets; one of the
  step's call changes one argument and keeps the others. The values tried first are the numbers the
  question's public cases show, typed and answered (so an answer also meets the calls as an input),
  then the values next to the number.
* **the same input in another example** (``meets``): a number a public step passes to the question's
  function, passed to the same parameter in another public step where the answer is not the first
  step's.
* **the same answer from other inputs** (``reaches``): for every step that shows an answer and types
  numbers of its own, a probe with one of them changed where the step shows the same answer.

Each holds where some tried value gives it (a one-argument function of a score has no other context).
Probes depend on the spec and the reference only, never on a seed: every grading run has all of them.
As every hidden case, a probe is kept only where the reference and every allowed alternative agree;
and only where the session is fixed by what is typed: one that draws random numbers (fair dice),
raises, or makes more than ``CALLS`` calls (a game that never ends) is not a probe. A bug loses the
question it is in, and no other: a probe keeps as typed the numbers of a call to a function another
question grades (the game around ``say=announce_highest(0)``), and those its question holds
(``Probing.held``).
"""

from __future__ import annotations

import itertools
import random
import sys
from dataclasses import dataclass, replace
from typing import Callable, Iterator

from grader.cases.session_text import (Number, affected, calls, numbers, pieces, shown_numbers, with_keyword,
                                      with_value)

Run = Callable[[list[str]], list[str]]   # what a module shows for each line of a session (as agreement.Run)

CALLS = 200_000
"""The function calls a probe's session may make, counted (not timed, so the probes are the same on any
machine): past them it is taken for a game that never ends and dropped."""
NEXT_TO = 12
"""After the shown numbers, the values tried for a number: those at most this far from it."""
PATIENCE = 8
"""The values tried for a number in a row that change no step it still wants before the rest are left
(a step may not depend on the number at all: ``is_always_roll(always_roll(3))`` is True for any count)."""
REACHING = 16
"""The values tried for a number in search of the answer its step shows (the answers some steps show, no
other value gives)."""


def tried(number: Number, shown: list[int], top: int) -> Iterator[int]:
    """The values a probe gives ``number``, in order: the shown numbers, then those next to it, each
    within the number's range (a score stays below the goal unless the public case went past it)."""
    high = number.high if number.high is not None else max(number.value, top)
    near = [number.value + sign * step for step in range(1, NEXT_TO + 1) for sign in (1, -1)]
    seen = {number.value}
    for value in shown + near:
        if number.low <= value <= high and value not in seen:
            seen.add(value)
            yield value


# ------------------------------------------------------------ settled runs

class _Unsettled(Exception):
    """A probe's session drew a random number or made more than CALLS calls."""


def settled(run: Run, sources: list[str]) -> list[str] | None:
    """What ``run`` shows for each line; None when the session raises, draws a random number or makes
    more than ``CALLS`` function calls."""
    made = 0

    def watch(frame, event, arg):
        nonlocal made
        if event == "call":
            made += 1
            if made > CALLS or frame.f_code.co_filename == random.__file__:
                raise _Unsettled
        elif event == "c_call" and isinstance(getattr(arg, "__self__", None), random.Random):
            raise _Unsettled

    previous = sys.getprofile()
    sys.setprofile(watch)
    try:
        return run(sources)
    except Exception:      # _Unsettled, or the reference refusing the changed call (an assert)
        return None
    finally:
        sys.setprofile(previous)


def _agreed(reference: Run, others: list[Run], sources: list[str]) -> list[str] | None:
    """What the reference shows, when it is settled and every allowed alternative shows the same."""
    expected = settled(reference, sources)
    if expected is None or any(settled(other, sources) != expected for other in others):
        return None
    return expected


# ------------------------------------------------------------ the probes

Probe = tuple[int, list[list[str]]]   # (index of the public session it varies, [[source, expected], ...])
Made = tuple[list[str], list[str]]    # a probe's sources and what the reference shows for each


@dataclass(frozen=True)
class Probing:
    """What the probes of one question are made with."""
    reference: Run
    others: list[Run]           # the allowed alternatives
    function: str               # the question's function
    params: tuple[str, ...]     # its parameters (a positional argument is read as the one it fills)
    top: int                    # the highest score below the goal
    elsewhere: frozenset[str] = frozenset()   # the functions other questions grade
    held: frozenset[str] = frozenset()        # parameters of the question's function a probe keeps as typed
    shown: tuple[int, ...] = ()   # the numbers the question's public cases show
    public: frozenset[tuple[str, ...]] = frozenset()   # the public sessions, in pieces: not probes

    def run(self, sources: list[str]) -> list[str] | None:
        """What the reference shows for a probe's sources; None where they are a public session, or
        the reference is not settled, or an alternative answers otherwise."""
        return None if tuple(sources) in self.public else _agreed(self.reference, self.others, sources)

    def numbers(self, sources: list[str]) -> list[Number]:
        """The numbers of the sources that a probe may change, their parameters of the question's function named."""
        return [number for number in numbers(sources, self.function, self.params, self.elsewhere, self.held)
                if not number.held]

    def runs(self, sources: list[str], number: Number) -> Iterator[Made]:
        """The sessions with ``number`` changed to each value tried that ``run`` answers, with the answers."""
        for value in tried(number, list(self.shown), self.top):
            changed = with_value(sources, number, value)
            expected = self.run(changed)
            if expected is not None:
                yield changed, expected


def probes(sessions: list[list[str]], probing: Probing) -> list[Probe]:
    """Every probe of a question's public sessions (each a list of sources) that ``differs``,
    ``meets`` and ``reaches`` find, each session once, in that order. A session is probed in its
    ``pieces``, so that a probe holds only the steps its change reaches."""
    public = []
    for index, session in enumerate(sessions):
        sources = [source if source.endswith("\n") else source + "\n" for source in session]
        answers = _agreed(probing.reference, probing.others, sources)
        if answers is None:
            continue
        apart = [([sources[step] for step in piece], [answers[step] for step in piece]) for piece in pieces(sources)]
        if all(_agreed(probing.reference, probing.others, part) == shown for part, shown in apart):
            public += [(index, part, shown) for part, shown in apart]
        else:                          # the steps meet in some other way: probed as one
            public.append((index, sources, answers))
    probing = replace(probing, shown=tuple(shown_numbers([(sources, answers) for _, sources, answers in public])),
                      public=frozenset(tuple(sources) for _, sources, _ in public))
    made: dict[tuple[str, ...], Probe] = {}

    def keep(index: int, found: list[Made]) -> None:
        for changed, expected in found:
            made.setdefault(tuple(changed), (index, [list(pair) for pair in zip(changed, expected)]))

    for index, sources, answers in public:
        keep(index, differs(probing, sources, answers))
    for index, found in meets(probing, [(sources, answers) for _, sources, answers in public]):
        keep(public[index][0], [found])
    for index, sources, answers in public:
        keep(index, reaches(probing, sources, answers))
    return list(made.values())


def differs(probing: Probing, sources: list[str], answers: list[str]) -> list[Made]:
    """Another context: for each number, and each step from it on that shows an answer and may depend
    on it, a probe with that number alone changed where the step shows another answer. Values are tried
    until every such step has had one, none is left, or ``PATIENCE`` in a row changed none of the steps
    left (values the reference refuses do not count). A probe ends at the last step it changes."""
    found = []
    for number in probing.numbers(sources):
        wanted = {step for step in affected(sources, number.step) if answers[step]}
        misses = 0
        for changed, expected in probing.runs(sources, number) if wanted else ():
            met = {step for step in wanted if expected[step] != answers[step]}
            if met:
                last = max(met) + 1
                found.append((changed[:last], expected[:last]))
                wanted -= met
                misses = 0
            else:
                misses += 1
            if not wanted or misses >= PATIENCE:
                break
    return found


def meets(probing: Probing, public: list[tuple[list[str], list[str]]]) -> list[tuple[int, Made]]:
    """The same input in another example: for each number a public step passes to the question's
    function (``bacon_strategy(0, 77)``: 77 as ``opponent_score``) and shows an answer for, a probe that
    passes it to the same parameter in another public step, in place of its own or added as a keyword
    (``bacon_strategy(50, 77, margin=10, num_rolls=5)``), where the reference answers otherwise: a
    program that recites the answer whenever the parameter has that value is wrong there. The first
    such step, in the order of the cases."""
    typed = [(index, number) for index, (sources, _) in enumerate(public)
             for number in probing.numbers(sources) if number.slot]
    examples = dict.fromkeys((number.slot, number.value, public[index][1][number.step])
                             for index, number in typed if public[index][1][number.step])
    steps = [(index, step) for index, (sources, _) in enumerate(public)
             for step, source in enumerate(sources) if calls(source, probing.function)]
    found = []
    for slot, value, answer in examples:
        for index, step in steps:
            changed = _passing(probing, public[index][0], step, slot, value)
            expected = probing.run(changed) if changed else None
            if expected is not None and expected[step] and expected[step] != answer:
                found.append((index, (changed[:step + 1], expected[:step + 1])))
                break
    return found


def _passing(probing: Probing, sources: list[str], step: int, slot: str, value: int) -> list[str] | None:
    """The sources with ``value`` passed as ``slot`` in ``step``'s call of the question's function:
    in place of the number typed there, or as a keyword where none is passed; None where that step
    passes ``value`` already or passes something else than a number."""
    own = [number for number in numbers(sources, probing.function, probing.params, probing.elsewhere)
           if number.step == step and number.slot == slot]
    if slot in probing.held or own and (own[0].held or own[0].value == value):
        return None
    if own:
        return with_value(sources, own[0], value)
    if slot not in probing.params:
        return None
    changed = list(sources)
    changed[step] = with_keyword(sources[step], probing.function, slot, str(value), probing.params.index(slot))
    return None if changed[step] == sources[step] else changed


def reaches(probing: Probing, sources: list[str], answers: list[str]) -> list[Made]:
    """The same answer from other inputs: for each step that shows an answer and types numbers of its
    own, a probe with one of them changed where the step shows that answer again (the first number and
    value that give it, among the first ``REACHING`` each number's values give). What the later steps
    show after it is checked too."""
    found = []
    every = probing.numbers(sources)
    for step, answer in enumerate(answers):
        own = [number for number in every if number.step == step] if answer else []
        probe = next(((changed, expected) for number in own
                      for changed, expected in itertools.islice(probing.runs(sources, number), REACHING)
                      if expected[step] == answer), None)
        if probe is not None:
            found.append(probe)
    return found
