"""The cases a submission is graded on: public ones from the spec, hidden ones generated.

Hidden cases are generated per question role from a seed: each grading run
draws one (``hog grade --seed N`` repeats a run) and every question derives its
own random stream from it, so a regrade with the same seed grades with the same
cases, and a set of cases that leaked is worth nothing the next time. Every run
also has the probes of the public cases (``grader.cases.visible``), the same for
every seed: a program that recites a public example fails them every time. Their
expected outputs come from running the reference solution here, in the
grader's process (``grader.cases.calling``). They never leave the grader:
the sandbox receives only the calls, never what they should return.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import secrets
from pathlib import Path
from typing import Callable

from grader import project, reference
from grader.cases import agreement, calling, session_text, visible
from grader.cases.calling import Api, run_reference  # noqa: F401  (part of this module's names)
from grader.project import signed_cache
from grader.reference import hog_source
from grader.cases.agreement import SCORE_PAIRS, Table  # noqa: F401  (SCORE_PAIRS: part of this module's names)
from grader.spec import Case, Question, Step, Variant

GENERATED = "generated from the reference solution"
PROBE = "public case {case} with one number changed, answers from the reference solution"
DEFAULT_SEED = 0      # the seed of callers that do not choose one (hog cases --hidden, the kit's own tests)
KEPT_PER_VARIANT = 16  # cached generations kept per variant (one per seed): the newest
GENERATED_BY = tuple(Path(module.__file__) for module in (calling, agreement, session_text, visible)) + \
    (Path(__file__),)
"""The code hidden cases come from: each file is part of their key."""


# ------------------------------------------------------------ generators
# Each returns sessions: lists of steps typed at the prompt (no expected output).

Sessions = list["list[str] | Table"]


def _cycle(rng: random.Random, low: int = 1, length: int = 8) -> str:
    outcomes = [rng.randint(low, 6) for _ in range(rng.randint(1, length))]
    return "make_test_dice(" + ", ".join(map(str, outcomes)) + ")"


def _roll_dice(api: Api, rng: random.Random) -> Sessions:
    sessions = []
    for _ in range(40):
        dice = _cycle(rng, low=1 if rng.random() < 0.5 else 2)
        sessions.append(["dice = " + dice,
                         api.roll_dice(rng.randint(1, 10), "dice", rng.randint(0, 99)),
                         "dice()"])
    return sessions


def _zero_dice(api: Api, rng: random.Random) -> Sessions:
    return [[f"[{api.name('zero_dice')}(score) for score in range({api.variant.goal})]"]]


def _take_turn(api: Api, rng: random.Random) -> Sessions:
    sessions = []
    for _ in range(40):
        num_rolls = rng.choice([0, 0, rng.randint(1, 10)])
        call = api.take_turn(num_rolls, rng.randint(0, 99), rng.randint(0, api.variant.goal - 1), "dice")
        sessions.append(["dice = " + _cycle(rng), call, "dice()"])
    return sessions


def _swap(api: Api, rng: random.Random) -> Sessions:
    goal = api.variant.goal
    return [[f"[[{api.swap('a', 'b')} for b in range({goal})] for a in range({goal + 60})]"]]


def _strategies(rng: random.Random) -> tuple[str, str]:
    """Two strategies that depend on both scores; player 0 always rolls, so every game ends."""
    a, b, c, d = (rng.randint(1, 9) for _ in range(4))
    return (f"lambda score, opponent: 1 + (score * {a} + opponent * {b}) % 10",
            f"lambda score, opponent: (score * {c} + opponent * {d}) % 11")


def _play_call(api: Api, rng: random.Random, say: str | None, *, feral: bool = False) -> str:
    """A game of two drawn strategies. Where a question of its own grades Feral Hogs (fa19's 5b),
    every other question's game turns it off, so a play without it loses that question alone."""
    first, second = _strategies(rng)
    args = [first, second, str(rng.randint(0, 40)), str(rng.randint(0, 40)), "dice=" + _cycle(rng),
            f"goal={rng.randint(api.variant.goal // 2, api.variant.goal)}"]
    if say:
        args.append(f"say={say}")
    if "dice_count_bonus" in api.variant.features and not feral \
            and ("feral_hogs" in api.variant.functions or rng.random() < 0.3):
        args.append("feral_hogs=False")
    return f"play({', '.join(args)})"


def _play(api: Api, rng: random.Random) -> Sessions:
    return [[_play_call(api, rng, None)] for _ in range(30)]


def _feral_hogs(api: Api, rng: random.Random) -> Sessions:
    """Games with Feral Hogs on: drawn strategies, and ones whose dice counts step by 2."""
    sessions = [[_play_call(api, rng, None, feral=True)] for _ in range(20)]
    for _ in range(10):
        step = rng.choice([2, 2, 1, 3])
        start = rng.randint(0, 10 - 2 * step)   # a count from 0 to 10
        stepping = f"lambda score, opponent: {start} + {step} * ((score + opponent) % 3)"
        goal = rng.randint(api.variant.goal // 2, api.variant.goal)
        sessions.append([f"play({stepping}, always_roll({rng.randint(1, 10)}), {rng.randint(0, 40)}, "
                         f"{rng.randint(0, 40)}, dice={_cycle(rng)}, goal={goal})"])
    return sessions


ECHO = "def echo(score0, score1):\n    print(score0, score1)\n    return echo\n"


def _commentary(api: Api, rng: random.Random) -> Sessions:
    return [[ECHO, _play_call(api, rng, "echo")] for _ in range(10)]


def _announce_highest(api: Api, rng: random.Random) -> Sessions:
    sessions = []
    for _ in range(12):
        scores, pairs = [0, 0], []
        for _ in range(12):
            scores[rng.randint(0, 1)] += rng.randint(0, 25)
            if rng.random() < 0.2:
                scores.reverse()
            pairs.append(tuple(scores))
        sessions.append([f"f = announce_highest({rng.randint(0, 1)})",
                         f"for pair in {pairs!r}:\n    f = f(*pair)\n"])
    return sessions


def _always_roll(api: Api, rng: random.Random) -> Sessions:
    goal = api.variant.goal
    return [[f"[always_roll(n)(s, o) for n in range(11) for s in range(0, {goal}, 7) for o in range(0, {goal}, 9)]"]]


def _is_always_roll(api: Api, rng: random.Random) -> Sessions:
    sessions = [["is_always_roll(always_roll_5)"], ["is_always_roll(catch_up)"]]
    for _ in range(8):
        s, o = rng.randint(0, 99), rng.randint(0, 99)
        sessions.append([f"is_always_roll(lambda score, opponent: 4 if (score, opponent) == ({s}, {o}) else 3)"])
        sessions.append([f"is_always_roll(lambda score, opponent: 4 if (score, opponent) == ({s}, {o}) else 3, "
                         f"goal={min(s, o)})"])
    return sessions


def _make_averaged(api: Api, rng: random.Random) -> Sessions:
    sessions = []
    for _ in range(8):
        outcomes = [rng.randint(1, 6) for _ in range(rng.randint(1, 6))]
        samples = rng.randint(1, 12)
        sessions.append([f"make_averaged(make_test_dice(*{outcomes!r}), {samples})()",
                         "calls = []",
                         "def counted(*args):\n    calls.append(args)\n    return sum(args)\n",
                         f"make_averaged(counted, {samples})({samples}, 2, 3)", "len(calls)"])
    return sessions


def _max_scoring(api: Api, rng: random.Random) -> Sessions:
    sessions = []
    for _ in range(10):
        samples = rng.randint(1, 30)
        dice = _cycle(rng, length=6)
        if api.scored_by_parity:
            sessions.append([f"max_scoring_num_rolls({rng.randint(0, 99)}, {dice}, {samples})"])
        else:
            sessions.append([f"max_scoring_num_rolls({dice}, {samples})"])
    return sessions


# Scores s a strategy table with drawn arguments covers (against every opponent score): the table
# with the default arguments covers every pair; these catch arguments ignored or mixed up.
PARAMETER_ROWS = 10


def _strategy_table(api: Api, role: str, rng: random.Random) -> Sessions:
    name, goal = api.name(role), api.variant.goal
    sessions: Sessions = [Table(f"{name}(s, o)", goal)]
    for _ in range(3):
        cutoff, num_rolls = rng.randint(0, 12), rng.randint(0, 10)
        rows = tuple(sorted(rng.sample(range(goal), min(PARAMETER_ROWS, goal))))
        sessions.append(Table(f"{name}(s, o, {cutoff}, {num_rolls})", goal, rows=rows))
    return sessions


GENERATORS: dict[str, Callable[[Api, random.Random], Sessions]] = {
    "roll_dice": _roll_dice,
    "zero_dice": _zero_dice,
    "take_turn": _take_turn,
    "swap": _swap,
    "play": _play,
    "feral_hogs": _feral_hogs,
    "commentary": _commentary,
    "announce_highest": _announce_highest,
    "always_roll": _always_roll,
    "is_always_roll": _is_always_roll,
    "make_averaged": _make_averaged,
    "max_scoring_num_rolls": _max_scoring,
    "zero_strategy": lambda api, rng: _strategy_table(api, "zero_strategy", rng),
    "swap_strategy": lambda api, rng: _strategy_table(api, "swap_strategy", rng),
}
"""Role → generator. final_strategy has none: it is graded by its exact win rate."""


def new_seed() -> int:
    """A fresh seed for one grading run."""
    return secrets.randbelow(10**9)


def _runs(api: Api, question: Question) -> tuple[agreement.Run, list[agreement.Run]]:
    """How the reference, and the reference with each of the question's allowed alternatives, show a session."""
    return (functools.partial(run_reference, api),
            [functools.partial(run_reference, Api(api.variant, alternative.source))
             for alternative in question.alternatives])


def _question_sessions(api: Api, question, generate, seed: int) -> tuple[list[list[list[str]]], dict[str, int]]:
    """The generated sessions of one question where the rules decide the answer, and what was left out;
    the question's stream is derived from the run's seed, the variant and the question's role. The
    candidates every seed draws are decided once per spec (``_cached_fixed``)."""
    rng = random.Random(f"{seed}/{api.variant.id}/{question.role}")
    reference, others = _runs(api, question)
    return agreement.decided_sessions(reference, others, lambda: generate(api, rng),
                                      _cached_fixed(api.variant).get(question.number, {}))


FIXED_STREAMS = ("every seed/1", "every seed/2")
"""Two streams a question's generator draws from: what both draw alike, every seed draws (a strategy
table over every score pair, a list over every score); it is decided once per spec."""


def _fixed(variant: Variant) -> dict[str, dict[str, agreement.Decision]]:
    """Question number → the decisions on the candidates every seed draws, by the candidate's repr."""
    api, made = Api(variant), {}
    for question in variant.questions:
        generate = GENERATORS.get(question.role)
        if generate is not None:
            made[question.number] = agreement.decisions(
                *_runs(api, question), [generate(api, random.Random(stream)) for stream in FIXED_STREAMS])
    return made


def _kept(folder: str, variant: Variant, key: str, what: str, make: Callable[[], dict], kept: int) -> dict:
    """``make()``, or what the grader's private, signed cache (``grader.project.signed_cache``) holds of it
    under ``key``: one JSON file per variant and key in ``folder``, only the ``kept`` newest of a variant."""
    return signed_cache.kept(folder, f"{variant.id}-{key}.json", key, what, make, load=signed_cache.json_of(dict),
                             dump=lambda made: json.dumps(made).encode("utf-8"), keep=(f"{variant.id}-*.json", kept))


@functools.lru_cache(maxsize=8)
def _cached_fixed(variant: Variant) -> dict[str, dict[str, agreement.Decision]]:
    """The decisions every seed shares, from the signed cache when it holds them."""
    return _kept("fixed", variant, cache_key(variant), "hidden cases every seed draws", lambda: _fixed(variant), 2)


def _generate(variant: Variant, seed: int = DEFAULT_SEED) -> dict[str, list[list[list[str]]]]:
    """Question number → its generated sessions, each a list of [source, expected output];
    under ``UNDECIDED``, per question, the candidates the allowed alternatives answered differently."""
    api = Api(variant)
    generated, undecided = {}, {}
    for question in variant.questions:
        generate = GENERATORS.get(question.role)
        if generate is None:
            continue
        generated[question.number], left_out = _question_sessions(api, question, generate, seed)
        if question.alternatives:
            undecided[question.number] = left_out
    generated[agreement.UNDECIDED] = undecided
    return generated


def undecided(variant: Variant, seed: int = DEFAULT_SEED) -> dict[str, dict[str, int]]:
    """Per question with allowed alternatives: candidate hidden cases dropped because the
    reference and an alternative answered differently, and score pairs left out of tables."""
    return dict(_cached_generation(variant, seed).get(agreement.UNDECIDED, {}))


def cache_key(variant: Variant) -> str:
    """Changes whenever anything the generated cases come from changes; not where the spec is read from
    (a course folder's copy, a path relative to another working folder: the same cases)."""
    digest, dice = _kit_part()
    digest = digest.copy()
    for part in (hog_source.solution_source(variant), dice, variant.contents):
        digest.update(part.encode("utf-8"))
    return digest.hexdigest()[:24]


@functools.lru_cache(maxsize=1)
def _kit_part() -> tuple:
    """The key's start (the running kit's code that generates cases, read once per process), and dice.py."""
    digest = hashlib.sha256()
    for path in GENERATED_BY:
        digest.update(path.read_text(encoding="utf-8").encode("utf-8"))
    return digest, project.DICE.read_text(encoding="utf-8")


def _cached_generation(variant: Variant, seed: int = DEFAULT_SEED) -> dict[str, list[list[list[str]]]]:
    """The generated sessions, from the signed cache when it holds them; one file per seed, only the newest
    few of a variant kept."""
    return _kept("hidden", variant, f"{cache_key(variant)}-seed{seed}", "hidden cases",
                 lambda: _generate(variant, seed), KEPT_PER_VARIANT)


# ------------------------------------------------- probes of the public cases

GAME_START = frozenset({"score0", "score1", "goal"})
"""What decides whether a game starts at its goal, question 5a's rule (play's): the other questions that
grade play (Feral Hogs, commentary) keep these as their public games type them."""


def _probes(variant: Variant) -> dict[str, list[list]]:
    """Question number → its probes (``grader.cases.visible``), each [public case id, [[source, expected], ...]]:
    the same for every seed. A question with no generator (the final strategy) has none. A probe changes
    no number of a call to another question's function, nor a game's start outside the play question; and
    where a question of its own grades Feral Hogs, every other question's games turn it off."""
    api, made = Api(variant), {}
    apart = "dice_count_bonus" in variant.features and "feral_hogs" in variant.functions
    for question in variant.questions:
        if question.role not in GENERATORS:
            continue
        public = [case for case in question.cases if not case.hidden]
        sessions = [[session_text.with_keyword(step.source, api.name("play"), "feral_hogs", "False")
                     if apart and question.role != "feral_hogs" else step.source for step in case.steps]
                    for case in public]
        grades_play_too = question.function == variant.functions.get("play") and question.role != "play"
        probing = visible.Probing(functools.partial(run_reference, api),
                                  [functools.partial(run_reference, Api(variant, alternative.source))
                                   for alternative in question.alternatives],
                                  question.function, tuple(api.params(question.function)), variant.goal - 1,
                                  frozenset(variant.functions.values()) - {question.function},
                                  GAME_START if grades_play_too else frozenset())
        made[question.number] = [[public[index].id, pairs] for index, pairs in visible.probes(sessions, probing)]
    return made


def _cached_probes(variant: Variant) -> dict[str, list[list]]:
    """The probes, from the signed cache when it holds them: one file per variant and key."""
    return _kept("probes", variant, cache_key(variant), "probes of the public cases", lambda: _probes(variant), 2)


# ------------------------------------------------------------ the cases


def _hidden(variant: Variant, question: Question, drawn: list, probes: list) -> list[Case]:
    """A question's hidden cases: the spec's, then the sessions drawn for a seed, then its probes."""
    cases = [case for case in question.cases if case.hidden]
    made = [(GENERATED, pairs) for pairs in drawn] + [(PROBE.format(case=case), pairs) for case, pairs in probes]
    for index, (origin, pairs) in enumerate(made, start=1):
        steps = tuple(Step(source, want) for source, want in pairs)
        session = "".join(">>> " + s.source.replace("\n", "\n... ").removesuffix("... ") + s.want for s in steps)
        cases.append(Case(id=f"{variant.id}-q{question.number}-hidden-{index}", question=question.number,
                          origin=origin, session=session, steps=steps, hidden=True, note="",
                          path=variant.path, line=question.line))
    return cases


@functools.lru_cache(maxsize=16)
def hidden_cases(variant: Variant, seed: int = DEFAULT_SEED) -> tuple[Case, ...]:
    """The spec's hidden cases, then the ones generated from ``seed``, then the probes of the public
    cases (the same for every seed), question by question."""
    generated, probes = _cached_generation(variant, seed), _cached_probes(variant)
    return tuple(case for question in variant.questions for case in
                 _hidden(variant, question, generated.get(question.number, []), probes.get(question.number, [])))


def shared(variant: Variant) -> None:
    """What the hidden cases of every seed share, made now: the reference and its allowed alternatives
    loaded, the candidates every seed draws decided, the probes of the public cases. A grader whose
    submissions each have a seed of their own does it once, before its workers fork."""
    reference.load(variant.id)
    for question in variant.questions:
        for alternative in question.alternatives:
            reference.alternative(variant.id, alternative.source)
    _cached_fixed(variant)
    _cached_probes(variant)


def question_hidden_cases(variant: Variant, number: str, seed: int = DEFAULT_SEED) -> tuple[Case, ...]:
    """Question ``number``'s part of ``hidden_cases(variant, seed)``, without drawing the other questions'
    (nor caching what it draws)."""
    question = variant.question(number)
    generate = GENERATORS.get(question.role)
    drawn = _question_sessions(Api(variant), question, generate, seed)[0] if generate else []
    return tuple(_hidden(variant, question, drawn, _cached_probes(variant).get(question.number, [])))


def public_cases(variant: Variant) -> tuple[Case, ...]:
    return tuple(case for case in variant.cases if not case.hidden)


def grading_cases(variant: Variant, seed: int = DEFAULT_SEED) -> tuple[Case, ...]:
    """Every case a submission is graded on, public first; the hidden ones drawn from ``seed``."""
    return public_cases(variant) + hidden_cases(variant, seed)
