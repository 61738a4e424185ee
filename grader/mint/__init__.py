"""``hog mint``: compose a new variant from the rule catalogue, check its balance, write its spec.

Choices not given are drawn from the seed; a draw that fails a balance check
is reported with its figures and the reason, and another is drawn. The
accepted variant's spec goes to ``specs/<id>.yaml`` and its optimal table
(the reference ``final_strategy``) to ``specs/final/<id>.txt``; ``hog build``
then makes its solution, skeleton and handout.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from grader import catalogue, project
from grader.catalogue import LAYOUTS, LIKE, CatalogueError, Member
from grader.errors import UsageError
from grader.project.files import write_atomically
from grader.mint.balance import Balance, Limits, check
from grader.mint.compose import Draft, reference_module, spec_text
from grader.mint.difference import crossings
from grader.report.progress import SILENT, Progress
from grader.spec import SpecError, all_variants, load, load_variant, parse

ATTEMPTS = 40


@dataclass(frozen=True)
class Choices:
    zero_dice: str = ""
    swap: str = ""
    bonus: str = ""       # "" draws, "none" means no bonus


@dataclass(frozen=True)
class Minted:
    path: Path
    draft: Draft
    balance: Balance
    attempts: int


def _member(rule_id: str, kind: str) -> Member:
    try:
        member = catalogue.get(rule_id)
    except CatalogueError as error:
        raise UsageError(f"--{kind.replace('_', '-')}: {error}") from None
    if member.kind != kind:
        raise UsageError(f"--{kind.replace('_', '-')}: '{rule_id}' is a {member.kind} rule (see docs/rules.md)")
    return member


def _draw(choices: Choices, rng: random.Random, layout: str) -> tuple[Member, Member, Member | None]:
    zero = _member(choices.zero_dice, "zero_dice") if choices.zero_dice else catalogue.draw("zero_dice", rng)
    swap = _member(choices.swap, "swap") if choices.swap else catalogue.draw("swap", rng)
    if choices.bonus == "none":
        bonus = None
    elif choices.bonus:
        bonus = _member(choices.bonus, "bonus")
    else:
        bonus = catalogue.get("feral_hogs") if rng.random() < 0.2 else None
    if bonus is not None and bonus.flag not in LAYOUTS[layout][2]:
        raise UsageError(f"--bonus: the {layout} layout has no '{bonus.id}' (it has: {', '.join(LAYOUTS[layout][2])})")
    if swap.arity != LAYOUTS[layout][3]:
        raise UsageError(f"--swap: the {layout} layout calls the swap rule with {LAYOUTS[layout][3]} scores; "
                         f"'{swap.id}' takes {swap.arity}")
    return zero, swap, bonus


def mint(variant_id: str, *, seed: int = 0, choices: Choices = Choices(), goal: int = 100, like: str = "sp19",
         limits: Limits = Limits(), out: TextIO, force: bool = False, progress: Progress = SILENT) -> Minted:
    """Compose, check and write a variant; UsageError says why it cannot. ``progress`` shows each draw
    being solved (its figures then go to ``out``)."""
    if not variant_id.isidentifier():
        raise UsageError(f"'{variant_id}' is not a usable id (letters, digits and underscores, e.g. mint01)")
    if not project.here().checkout and (project.BUILTIN_SPECS / f"{variant_id}.yaml").is_file():
        raise UsageError(f"'{variant_id}' is the id of a built-in variant (choose another id, e.g. {variant_id}x)")
    path = project.spec_path(variant_id)
    if path.exists() and not force:
        raise UsageError(f"{project.display(path)} exists (choose another id, or --force to replace it)")
    if like not in LIKE:
        raise UsageError(f"--like {like}: minting follows the layout of {', '.join(LIKE)} (the NJU layouts are "
                         "not in the catalogue yet)")
    if not 20 <= goal <= 200:
        raise UsageError(f"--goal {goal}: choose a goal from 20 to 200")
    like_variant = load_variant(like)
    layout = LIKE[like]
    rng = random.Random(f"hog mint {seed}")
    given = all((choices.zero_dice, choices.swap, choices.bonus))
    for attempt in range(1, ATTEMPTS + 1):
        zero, swap, bonus = _draw(choices, rng, layout)
        out.write(f"draw {attempt}: zero dice {zero.id}, swap {swap.id}, bonus {bonus.id if bonus else 'none'}\n")
        with progress.task(f"draw {attempt} of at most {ATTEMPTS}: solving the game exactly"):
            balance = check(variant_id, goal, like_variant.baseline, zero.function, swap.function,
                            feral_hogs=bonus is not None and bonus.flag == "feral_hogs", limits=limits)
        out.write("\n".join(balance.lines()) + "\n")
        failures = list(balance.failures)
        if not failures:
            draft = Draft(variant_id, seed, like_variant, layout, goal, zero, swap, bonus, balance.thresholds)
            text, crossed = _compose(draft, balance, path, out)
            failures = [f"{c.historic}'s {c.role} cases do not tell the rules apart" for c in crossed if not c.distinct]
            if not failures:
                write_atomically(path, text)
                load(path)
                out.write(f"wrote {project.display(path)} and {project.display(_table_path(variant_id))}\n")
                return Minted(path, draft, balance, attempt)
            _table_path(variant_id).unlink()
        for failure in failures:
            out.write(f"  rejected: {failure}\n")
        if given:
            raise UsageError("the rules given do not pass the checks (see above); change one or leave it to the seed")
    raise UsageError(f"no variant passed the checks in {ATTEMPTS} draws (widen --band or give other rules)")


def _table_path(variant_id: str) -> Path:
    return project.table_path(variant_id, minted=True)


def _compose(draft: Draft, balance: Balance, path: Path, out: TextIO):
    """The spec's text and its crossings with the public variants (the optimal table is written first:
    the reference renders final_strategy from it)."""
    table = _table_path(draft.id)
    table.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(table, "".join("".join(f"{n:x}" for n in row) + "\n" for row in balance.final_table))
    try:
        text = spec_text(draft, project.display(path))
        variant = parse(text, project.display(path))
        historic = [v for v in all_variants() if v.compose is None]
        crossed = crossings(variant, reference_module(variant), historic)
    except (SpecError, CatalogueError):
        table.unlink()
        raise
    out.write("  different from the public variants (an old solution fails the new cases, and back):\n")
    for crossing in crossed:
        out.write("  " + crossing.line() + "\n")
    return text, crossed
