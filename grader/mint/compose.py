"""The spec of a minted variant: rules in words, questions, and cases computed by its reference.

``spec_text`` writes the YAML in two passes: first every session with its calls
only (enough to render the reference ``hog.py`` from the catalogue), then the
same sessions with what that reference shows, so no expected output is ever
written by hand. Rule-specific cases are chosen from the catalogue member's
branches (and, for the strategies, from a scan of the score pairs).
"""

from __future__ import annotations

import contextlib
import io
import types
from dataclasses import dataclass
from string import ascii_lowercase

import yaml

from grader import reference
from grader.publishing import build
from grader.catalogue import Member
from grader.spec import Variant, parse

KEEP_NOTES = {"roll_dice", "commentary", "announce_highest", "make_averaged", "max_scoring_num_rolls",
              "final_strategy"}   # roles whose cases (and notes) do not depend on the special rules
ADDED = "added"
SEED = "rule_catalogue.txt"   # names no seed text: the worked examples come from the catalogue's branches


@dataclass(frozen=True)
class Draft:
    id: str
    seed: int
    like: Variant
    layout: str
    goal: int
    zero: Member
    swap: Member
    bonus: Member | None
    thresholds: tuple[float, ...]


# ------------------------------------------------------------- sessions


def session_text(sources: list[str], shown: list[str] | None = None) -> str:
    """``>>> `` lines (``... `` for continuations), each followed by what it shows."""
    lines = []
    for index, source in enumerate(sources):
        first, *rest = source.rstrip("\n").split("\n")
        lines.append(f">>> {first}")
        lines += [f"... {line}" for line in rest]
        if shown is not None and shown[index]:
            lines.append(shown[index].rstrip("\n"))
    return "\n".join(lines) + "\n"


def run(module: types.ModuleType, sources: list[str]) -> list[str]:
    """What each step shows in an interpreter holding ``from hog import *``."""
    namespace = {k: v for k, v in vars(reference.dice()).items() if not k.startswith("_")}
    namespace.update({k: v for k, v in vars(module).items() if not k.startswith("_")})
    shown = []
    for source in sources:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                value = eval(compile(source, "<case>", "eval"), namespace)
            except SyntaxError:
                exec(compile(source, "<case>", "exec"), namespace)
                value = None
        shown.append(out.getvalue() + ("" if value is None else repr(value) + "\n"))
    return shown


def reference_module(variant: Variant) -> types.ModuleType:
    """The reference ``hog`` module of a variant that need not be in specs/ yet."""
    module = types.ModuleType(f"hog_kit_minted_{variant.id}")
    with reference.modules_as({"dice": reference.dice()}):
        exec(compile(build.solution_source(variant), f"{variant.id}/hog.py", "exec"), module.__dict__)
    return module


# ---------------------------------------------------------------- cases


def _call(name: str, args) -> str:
    return f"{name}({', '.join(map(str, args))})"


def _rule_cases(draft: Draft, role: str, function: str) -> list[tuple[list[str], str, str]]:
    """One worked example per branch of the rule (the handout shows them under the rule)."""
    member, name = (draft.zero, "Free Bacon") if role == "zero_dice" else (draft.swap, "Swine Swap")
    return [([_call(function, branch.args)], branch.note, f"{SEED}: {name}, example {number}")
            for number, branch in enumerate(member.branches, start=1)]


def _take_turn_cases(draft: Draft) -> list[tuple[list[str], str]]:
    scores = [b.args[0] for b in draft.zero.branches if b.args[0] < draft.goal]
    return [([f"take_turn(0, {score})" for score in scores],
             "Rolling zero dice scores by the zero-dice rule and never touches the dice.", ADDED)]


def _zero_strategy_cases(draft: Draft, function: str) -> list[tuple[list[str], str]]:
    score = next(b.args[0] for b in draft.zero.branches if b.args[0] < draft.goal)
    points = draft.zero(score)
    return [([f"{function}(10, {score}, {points}, 5)", f"{function}(10, {score}, {points + 1}, 5)"],
             f"Rolling zero dice against {score} scores {points}: enough for a margin of {points}, "
             f"not for {points + 1}.", ADDED)]


def _swap_strategy_cases(draft: Draft, function: str) -> list[tuple[list[str], str]]:
    found: dict[str, tuple[list[str], str]] = {}
    for total in range(2, 2 * draft.goal - 2):
        for score in range(max(0, total - draft.goal + 1), min(total, draft.goal - 1) + 1):
            opponent = total - score
            points = draft.zero(opponent)
            new = score + points
            swapped = draft.swap(new, opponent)
            if swapped and opponent > new:
                key, margin, why = "helps", points + 1, "the swap helps, whatever the margin"
            elif swapped and opponent < new:
                key, margin, why = "harms", points, "the swap harms, however many points zero dice give"
            elif not swapped:
                key, margin, why = ("enough", points, "no swap, and zero dice score the margin") \
                    if total % 2 else ("short", points + 1, "no swap, and zero dice score less than the margin")
            else:
                continue
            if key not in found:
                found[key] = ([f"{function}({score}, {opponent}, {margin}, 6)"],
                              f"At {score} against {opponent} rolling zero dice scores {points}: {why}.", ADDED)
    return [found[key] for key in ("helps", "harms", "enough", "short") if key in found]


def _feral(draft: Draft) -> bool:
    return draft.bonus is not None and draft.bonus.flag == "feral_hogs"


def _questions(draft: Draft) -> list:
    """The questions of the layout's variant this variant has: Feral Hogs' own (fa19's 5b) only with the bonus."""
    return [q for q in draft.like.questions if q.role != "feral_hogs" or _feral(draft)]


def _renumbered(draft: Draft, question) -> str:
    """Without Feral Hogs, fa19's play is one question again: 5a is 5 (its problem's number)."""
    split = any(q.problem == question.problem and q is not question for q in draft.like.questions)
    return question.number.rstrip(ascii_lowercase) if split and not _feral(draft) else question.number


def _borrowed(draft: Draft, source: str) -> str:
    """A borrowed step for this variant's goal; without Feral Hogs, a game that turns it off
    (fa19's ``feral_hogs=False``) is the same game."""
    source = source.replace(f"range({draft.like.goal})", f"range({draft.goal})")
    return source if _feral(draft) else source.replace(", feral_hogs=False", "")


def _sessions(draft: Draft, question) -> list[tuple[list[str], str, str]]:
    """(sources, note, origin) of each case of a question, before the reference shows anything."""
    role, function = question.role, question.function
    if role in ("zero_dice", "swap"):
        return _rule_cases(draft, role, function)
    borrowed = [([_borrowed(draft, step.source) for step in case.steps], case.note if role in KEEP_NOTES else "",
                  ADDED) for case in question.cases if not case.hidden]
    extra = {"take_turn": lambda: _take_turn_cases(draft),
             "zero_strategy": lambda: _zero_strategy_cases(draft, function),
             "swap_strategy": lambda: _swap_strategy_cases(draft, function)}.get(role, list)()
    return extra + borrowed


# ----------------------------------------------------------------- spec


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(str, lambda dumper, text: dumper.represent_scalar(
    "tag:yaml.org,2002:str", text, style="|" if "\n" in text else None))


def _rules(draft: Draft) -> list[dict]:
    pig_out = next(rule for rule in draft.like.rules if rule.name == "Pig Out")
    rules = [{"name": pig_out.name, "summary": pig_out.summary, "choices": list(pig_out.choices), "applies": "roll",
              **({"explain": pig_out.explain} if pig_out.explain else {})}]
    members = [(draft.zero, "Free Bacon", "zero_dice")] + \
        ([(draft.bonus, draft.bonus.name, "bonus")] if draft.bonus else []) + [(draft.swap, "Swine Swap", "swap")]
    for member, name, applies in members:
        # the step it decides; its arithmetic is said in the step's plain words (grader.spec.explain.DEFAULT)
        rule = {"name": name, "summary": member.summary, "choices": list(member.choices), "applies": applies}
        if member is draft.bonus and member.flag == "feral_hogs":
            rule["feature"] = "dice_count_bonus"   # what the engine reads from the spec (as fa19's does)
        rules.append(rule)
    return rules


def _document(draft: Draft, cases: dict[str, list[tuple[list[str], str, list[str] | None]]]) -> dict:
    questions = []
    for question in _questions(draft):
        entry = {"number": _renumbered(draft, question), "role": question.role, "function": question.function,
                 "title": question.title}
        if question.task:
            entry["task"] = question.task
        entry.update({"phase": question.phase, "points": _number(question.points)})
        if question.role == "final_strategy":
            share = question.points / len(draft.thresholds)
            entry["thresholds"] = [{"win_rate": rate, "points": _number(round(share * (i + 1), 2))}
                                   for i, rate in enumerate(draft.thresholds)]
        entry["cases"] = []
        for sources, note, origin, shown in cases[question.number]:
            case = {"origin": origin}
            if note:
                case["note"] = note
            case["session"] = session_text(sources, shown)
            entry["cases"].append(case)
        questions.append(entry)
    compose = {"layout": draft.layout, "zero_dice": draft.zero.id, "swap": draft.swap.id}
    if draft.bonus:
        compose["bonus"] = draft.bonus.id
    return {"id": draft.id, "title": f"Minted rules {draft.id}",
            "course": f"this term (minted by hog mint with seed {draft.seed}, in the layout of {draft.like.id})",
            "seed": SEED, "goal": draft.goal, "baseline": draft.like.baseline, "setup": draft.like.setup,
            "compose": compose, "phases": [{"number": p.number, "title": p.title} for p in draft.like.phases],
            "rules": _rules(draft), "questions": questions}


HEADER = """# Hog with rules minted by `hog mint {id} --seed {seed}` from the rule catalogue
# (docs/rules.md). Every expected output below was computed by the reference
# hog.py the build renders from `compose:`; regenerate rather than edit them.
"""


def _shown(module: types.ModuleType, sources: list[str]) -> list[str] | None:
    """What the reference shows, or None for a borrowed session this layout cannot run
    (fa19's ``play(..., feral_hogs=False)`` without the bonus): that case is left out."""
    try:
        return run(module, sources)
    except Exception:  # noqa: BLE001 - the case is dropped, not the variant
        return None


def spec_text(draft: Draft, path: str) -> str:
    """The finished spec: the sessions of the first pass, with the reference's outputs."""
    plan = {q.number: [(sources, note, origin, None) for sources, note, origin in _sessions(draft, q)]
            for q in _questions(draft)}
    first = yaml.dump(_document(draft, plan), Dumper=_Dumper, sort_keys=False, width=100, allow_unicode=True)
    module = reference_module(parse(first, path))
    done = {number: [(sources, note, origin, shown) for sources, note, origin, _ in cases
                     for shown in [_shown(module, sources)] if shown is not None]
            for number, cases in plan.items()}
    body = yaml.dump(_document(draft, done), Dumper=_Dumper, sort_keys=False, width=100, allow_unicode=True)
    return HEADER.format(id=draft.id, seed=draft.seed) + body
