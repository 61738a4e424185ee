"""The rule catalogue: every zero-dice rule, swap rule and turn bonus the kit can build.

``get(id)`` finds a member: a historic rule by name (``free_bacon_min_plus_one``)
or a family member with its parameters (``digits_linear(a=2,b=1,c=1,k=12)``).
``template(name)`` serves ``catalogue/<id>.py.j2`` to the build's Jinja loader:
the member's reference code, so every variant's rules come from here.
"""

from __future__ import annotations

import re

from grader.catalogue.families import FAMILIES, build, draw
from grader.catalogue import historic
from grader.catalogue.layouts import LAYOUTS, LIKE, layout_source, loader
from grader.catalogue.model import KINDS, Branch, CatalogueError, Member, make, validate

FAMILY_CALL = re.compile(r"^(?P<family>\w+)\((?P<params>[^)]*)\)$")


def _by_id() -> dict[str, Member]:
    return {member.id: member for member in historic.members()}


def get(rule_id: str) -> Member:
    """The member named ``rule_id``; CatalogueError names the closest ids."""
    rule_id = rule_id.replace(" ", "")
    if rule_id in _by_id():
        return _by_id()[rule_id]
    match = FAMILY_CALL.match(rule_id)
    family = match["family"] if match else rule_id
    if family in FAMILIES and match:
        params = {}
        for item in filter(None, match["params"].split(",")):
            key, _, value = item.partition("=")
            if not value.lstrip("-").isdigit():
                raise CatalogueError(f"rule '{rule_id}': '{item}' is not name=number (write e.g. a=2)")
            params[key] = int(value)
        return build(family, params)
    import difflib
    known = list(_by_id()) + list(FAMILIES)
    close = difflib.get_close_matches(family, known, n=1)
    hint = f"did you mean '{close[0]}'?" if close else f"known rules and families: {', '.join(known)}"
    if family in FAMILIES:
        example = ",".join(f"{key}={values[0]}" for key, values in FAMILIES[family].ranges.items())
        hint = f"give its parameters, e.g. {family}({example})"
    raise CatalogueError(f"no rule '{rule_id}' in the catalogue ({hint})")


def members(kind: str | None = None) -> list[Member]:
    """The historic members (of one kind)."""
    return [m for m in historic.members() if kind is None or m.kind == kind]


def template(name: str) -> str | None:
    """Jinja loader hook: ``<id>.py.j2`` → the member's reference code (None if unknown)."""
    if not name.endswith(".py.j2"):
        return None
    try:
        return get(name.removesuffix(".py.j2")).reference_text()
    except CatalogueError:
        return None


__all__ = ["LAYOUTS", "LIKE", "layout_source", "loader", "KINDS", "Branch", "CatalogueError", "FAMILIES", "Member",
           "build", "draw", "get",
           "make", "members", "template", "validate"]
