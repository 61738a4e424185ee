"""How a composed variant's ``hog.py`` is laid out: a family layout filled with catalogue rules.

A spec's ``compose:`` block (``grader.spec.Composition``) names the layout and
one member per kind; ``layout_source`` turns it into the Jinja text the build
renders, the same way the historic variants' own ``<id>.py.j2`` files do.
"""

from __future__ import annotations

LAYOUTS = {
    # layout: (family template, name of the zero-dice rule, bonus flags it supports, swap arity)
    "cs61a": ("families/cs61a.py.j2", "Free Bacon", ("feral_hogs",), 2),
}
LIKE = {"sp19": "cs61a", "fa18": "cs61a", "fa19": "cs61a"}   # variants whose layout a minted one can share


def loader():
    """``catalogue/<id>.py.j2`` → the member's reference code (a Jinja loader: Jinja is imported
    only by what renders, so reading a spec needs none of it)."""
    import jinja2

    from grader import catalogue
    return jinja2.PrefixLoader({"catalogue": jinja2.FunctionLoader(catalogue.template)})


def layout_source(compose) -> str:
    """The Jinja text of a composed variant (``compose`` has layout, zero_dice, swap, bonus)."""
    from grader import catalogue
    family, zero_name, _, _ = LAYOUTS[compose.layout]
    lines = [f'{{% extends "{family}" %}}', f'{{% set zero_dice_rule = "{zero_name}" %}}']
    if compose.bonus:
        lines.append(f"{{% set {catalogue.get(compose.bonus).flag} = True %}}")
    lines.append(f'{{% block zero_dice_rule %}}{{% include "catalogue/{compose.zero_dice}.py.j2" %}}{{% endblock %}}')
    lines.append(f'{{% block swap_rule %}}{{% include "catalogue/{compose.swap}.py.j2" %}}{{% endblock %}}')
    return "\n".join(lines) + "\n"


def check(compose) -> str:
    """Why a composition cannot be built, or ""."""
    from grader import catalogue
    if compose.layout not in LAYOUTS:
        return f"unknown layout '{compose.layout}' (one of: {', '.join(LAYOUTS)})"
    _, _, bonuses, arity = LAYOUTS[compose.layout]
    for kind in ("zero_dice", "swap", "bonus"):
        rule_id = getattr(compose, kind)
        if not rule_id:
            if kind != "bonus":
                return f"no {kind} rule (name one from docs/rules.md)"
            continue
        try:
            member = catalogue.get(rule_id)
        except catalogue.CatalogueError as error:
            return str(error)
        if member.kind != kind:
            return f"'{rule_id}' is a {member.kind} rule, not a {kind} rule"
        if kind == "swap" and member.arity != arity:
            return (f"the {compose.layout} layout calls the swap rule with {arity} scores; "
                    f"'{rule_id}' takes {member.arity}")
        if kind == "bonus" and member.flag not in bonuses:
            return f"the {compose.layout} layout has no '{rule_id}' bonus (it has: {', '.join(bonuses) or 'none'})"
    return ""
