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
from grader.files import write_atomically
from grader.mint.balance import Balance, Limits, check
from grader.mint.compose import Draft, reference_module, spec_text
from grader.mint.difference import crossings
from grader.spec import SpecError, all_variants, load, load_variant

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
         limits: Limits = Limits(), out: TextIO, force: bool = False) -> Minted:
    """Compose, check and write a variant; UsageError says why it cannot."""
    if not variant_id.isidentifier():
        raise UsageError(f"'{variant_id}' is not a usable id (letters, digits and underscores, e.g. mint01)")
    path = project.SPECS / f"{variant_id}.yaml"
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
        balance = check(variant_id, goal, like_variant.baseline, zero.function, swap.function,
                        feral_hogs=bonus is not None and bonus.flag == "feral_hogs", limits=limits)
        out.write("\n".join(balance.lines()) + "\n")
        if balance.accepted:
            break
        for failure in balance.failures:
            out.write(f"  rejected: {failure}\n")
        if given:
            raise UsageError("the rules given are not balanced (see above); change one or leave it to the seed")
    else:
        raise UsageError(f"no balanced variant in {ATTEMPTS} draws (widen --band or give other rules)")
    draft = Draft(variant_id, seed, like_variant, layout, goal, zero, swap, bonus, balance.thresholds)
    return Minted(_write(draft, balance, path, out), draft, balance, attempt)


def _write(draft: Draft, balance: Balance, path: Path, out: TextIO) -> Path:
    table = project.SPECS / "final" / f"{draft.id}.txt"
    table.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(table, "".join("".join(f"{n:x}" for n in row) + "\n" for row in balance.final_table))
    try:
        text = spec_text(draft, project.display(path))
    except (SpecError, CatalogueError):
        table.unlink()
        raise
    write_atomically(path, text)
    variant = load(path)
    out.write(f"wrote {project.display(path)} and {project.display(table)}\n")
    historic = [v for v in all_variants() if v.compose is None]
    out.write("different from the public variants (an old solution fails the new cases, and back):\n")
    for crossing in crossings(variant, reference_module(variant), historic):
        out.write(crossing.line() + "\n")
    return path
