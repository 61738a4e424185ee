"""How a variant's functions are called in a case, and what the reference shows for a session.

The expected outputs of hidden cases come from here: the reference solution (or the reference with an
allowed alternative in place) runs in the grader's process, on sessions the kit itself wrote.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import io
import warnings
from dataclasses import dataclass

from grader import reference
from grader.spec import Variant


@dataclass(frozen=True)
class Api:
    """How this variant's functions are called, read from the reference's signatures.

    With ``alternative`` (the source of an allowed alternative from the spec), ``hog``
    is the reference with those functions replaced."""
    variant: Variant
    alternative: str = ""

    @functools.cached_property
    def hog(self):
        if self.alternative:
            return reference.alternative(self.variant.id, self.alternative)
        return reference.load(self.variant.id)

    @functools.cached_property
    def names(self) -> dict:
        """The public names of dice.py and of ``hog``, as a session starts with them (copied for each)."""
        names = {name: value for name, value in vars(reference.dice()).items() if not name.startswith("_")}
        names.update({name: value for name, value in vars(self.hog).items() if not name.startswith("_")})
        return names

    def name(self, role: str) -> str:
        return self.variant.functions[role]

    def params(self, function: str) -> list[str]:
        return list(inspect.signature(getattr(self.hog, function)).parameters)

    def roll_dice(self, num_rolls: int, dice: str, score: int) -> str:
        if self.scored_by_parity:
            return f"roll_dice({score}, {num_rolls}, {dice})"
        return f"roll_dice({num_rolls}, {dice})"

    def take_turn(self, num_rolls: int, score: int, opponent: int, dice: str) -> str:
        if self.scored_by_parity:
            return f"take_turn({num_rolls}, {score}, {opponent}, {dice})"
        return f"take_turn({num_rolls}, {opponent}, {dice})"

    def swap(self, current: str, opponent: str) -> str:
        swap = self.name("swap")
        if len(self.params(swap)) == 1:
            return f"{swap}({current})"
        return f"{swap}({current}, {opponent})"

    @property
    def scored_by_parity(self) -> bool:
        return "parity_bonus" in self.variant.features


def _namespace(api: Api) -> dict:
    """A fresh namespace for one session: the public names of dice.py and of the reference."""
    return dict(api.names)


# Distinct steps kept compiled in a process (a batch of every variant holds a few thousand).
KEPT_STEPS = 1 << 15


@functools.lru_cache(maxsize=KEPT_STEPS)
def compiled(source: str) -> tuple | None:
    """(code, whether it is an expression) as the sandbox's harness compiles ``source`` (flags 0, not
    inheriting this module's); None when it does not compile. The reference, each allowed alternative and
    the sandbox (``grader.sandbox.case_code``) share it: a step is compiled once per process."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # a SyntaxWarning is the sandbox's stderr's, never the grader's
        try:
            return compile(source, "<case>", "eval", 0, True), True
        except SyntaxError:
            pass
        except Exception:
            return None
        try:
            return compile(source, "<case>", "exec", 0, True), False
        except Exception:
            return None


def run_reference(api: Api, sources: list[str]) -> list[str]:
    """What the reference shows for each step, exactly as an interpreter would."""
    namespace = _namespace(api)
    shown = []
    for source in sources:
        out = io.StringIO()
        known = compiled(source)
        if known is None:   # the kit's own sessions always compile: this raises the reason
            compile(source, "<case>", "exec", 0, True)
        code, expression = known
        with contextlib.redirect_stdout(out):
            value = eval(code, namespace) if expression else exec(code, namespace)
        shown.append(out.getvalue() + ("" if value is None else repr(value) + "\n"))
    return shown
