"""A minted variant against the public ones: an old solution must fail the new rules' cases.

For each historic variant and each rule the minted variant changed, two runs:
the historic variant's public cases of that rule against the minted reference
(its function under the historic name), and the minted cases against the
historic reference. Each must fail at least one case, so copying last term's
solution does not pass.
"""

from __future__ import annotations

import inspect
import types
from dataclasses import dataclass

from grader import reference
from grader.mint.compose import run
from grader.spec import Variant

ROLES = ("zero_dice", "swap")


@dataclass(frozen=True)
class Crossing:
    historic: str
    role: str
    changed: bool
    new_fails_old: tuple[int, int]    # historic cases failed by the minted reference, of how many
    old_fails_new: tuple[int, int]    # minted cases failed by the historic reference, of how many

    @property
    def distinct(self) -> bool:
        return not self.changed or (self.new_fails_old[0] > 0 and self.old_fails_new[0] > 0)

    def line(self) -> str:
        if not self.changed:
            return f"  {self.historic} {self.role}: the same rule (not changed)"
        (a, n), (b, m) = self.new_fails_old, self.old_fails_new
        return (f"  {self.historic} {self.role}: minted reference fails {a}/{n} of its cases; "
                f"its reference fails {b}/{m} minted cases" + ("" if self.distinct else "  <- NOT DISTINCT"))


def _failed(module: types.ModuleType, cases, alias: tuple[str, object] | None) -> int:
    failed = 0
    for case in cases:
        patched = types.ModuleType(module.__name__)
        patched.__dict__.update(vars(module))
        if alias:
            setattr(patched, alias[0], alias[1])
        try:
            shown = run(patched, [step.source for step in case.steps])
        except Exception:  # noqa: BLE001 - a case that raises is a failed case
            failed += 1
            continue
        if any(got.rstrip("\n") != step.want.rstrip("\n") for got, step in zip(shown, case.steps)):
            failed += 1
    return failed


def _arity(function) -> int:
    return len(inspect.signature(function).parameters)


def _same(f, g) -> bool:
    if _arity(f) != _arity(g):
        return False
    if _arity(f) == 1:
        return all(f(s) == g(s) for s in range(200))
    return all(f(a, b) == g(a, b) for a in range(0, 200, 3) for b in range(0, 200, 7))


def crossings(minted: Variant, minted_module: types.ModuleType, historic: list[Variant]) -> list[Crossing]:
    """Every (historic variant, rule) pair, with the cases each side fails of the other's."""
    result = []
    for old in historic:
        old_module = reference.load(old.id)
        for role in ROLES:
            new_name, old_name = minted.functions[role], old.functions[role]
            new_fn, old_fn = getattr(minted_module, new_name), getattr(old_module, old_name)
            old_cases = [c for q in old.questions if q.role == role for c in q.cases]
            new_cases = [c for q in minted.questions if q.role == role for c in q.cases]
            if _same(new_fn, old_fn):
                result.append(Crossing(old.id, role, False, (0, len(old_cases)), (0, len(new_cases))))
                continue
            result.append(Crossing(
                old.id, role, True,
                (_failed(minted_module, old_cases, (old_name, new_fn)), len(old_cases)),
                (_failed(old_module, new_cases, (new_name, old_fn)), len(new_cases))))
    return result
