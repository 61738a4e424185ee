"""A diagnosis: the first wrong step of a failing case, and the rules that decide it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

TURN_FIELDS = ("turn", "player", "before", "rolled", "outcomes", "want", "got")


@dataclass(frozen=True)
class Diagnosis:
    text: str                        # the first wrong step, in the handout's words
    rules: tuple[str, ...] = ()      # the spec's names of the rules that decide it
    turn: dict = field(default_factory=dict)   # a game's first wrong turn: TURN_FIELDS
    decided: bool = True             # False: what went wrong is named, but no rule decides it (a crash)

    @classmethod
    def of(cls, found: dict) -> "Diagnosis":
        """From the plain form ``game_trace`` makes (its ``text``, ``rules``, ``decided`` and a turn's fields)."""
        return cls(found["text"], tuple(found["rules"]), {key: found[key] for key in TURN_FIELDS if key in found},
                   found.get("decided", True))

    def redacted(self, role: str) -> "Diagnosis":
        """What a student may see of a hidden case's diagnosis: the rules it names, none of its numbers."""
        what = "the first wrong turn" if self.turn else "the first wrong call"
        if self.rules:
            text = f"a hidden case of {role}: {what} is one where {_listed(self.rules)} appl{'ies' if len(self.rules) == 1 else 'y'}"
        elif self.decided:
            text = f"a hidden case of {role}: {what} is one where no special rule applies"
        else:
            text = f"a hidden case of {role}: the submission failed before the rules decide an answer"
        return replace(self, text=text, turn={})

    def as_json(self) -> dict:
        return {"text": self.text, "rules": list(self.rules), **self.turn}


def _listed(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
