"""Constructs a function may not use, found in its source with ``ast``.

Some courses forbid constructs in a function (NJU's ``picky_piggy``: no strings,
slicing, lists, list comprehensions, indexing or ``for`` loops; the digits must
come from arithmetic). Shipped in every student folder (``conftest.py`` runs the
check with the public cases) and used by the grader, which reads the source and
never runs it for this check. Standard library only.
"""

import ast

CONSTRUCTS = ("strings", "slicing", "lists", "list comprehensions", "indexing", "for loops")
SINGULAR = {"strings": "a string", "slicing": "slicing", "lists": "a list",
            "list comprehensions": "a list comprehension", "indexing": "indexing", "for loops": "a for loop"}


def _kind(node, statements):
    """The forbidden construct a node is, or None. ``statements`` holds strings that are whole
    statements (docstrings, a left-over '*** YOUR CODE HERE ***'), which do nothing and are allowed."""
    if isinstance(node, ast.JoinedStr) or (
            isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)) and id(node) not in statements):
        return "strings"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return {"str": "strings", "repr": "strings", "list": "lists"}.get(node.func.id)
    if isinstance(node, ast.Subscript):
        return "slicing" if isinstance(node.slice, ast.Slice) else "indexing"
    if isinstance(node, ast.List):
        return "lists"
    if isinstance(node, ast.ListComp):
        return "list comprehensions"
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return "for loops"
    return None


def violations(source, function, forbidden):
    """(construct, line) for each forbidden construct in the top-level ``def function`` of
    ``source`` (the last one, as Python keeps it). None found, no such function, or source
    that does not parse (the import reports that): an empty list."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    found = [node for node in tree.body
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == function]
    if not found:
        return []
    statements = {id(node.value) for node in ast.walk(found[-1]) if isinstance(node, ast.Expr)}
    result = []
    for node in ast.walk(found[-1]):
        kind = _kind(node, statements)
        if kind in forbidden:
            result.append((kind, node.lineno))
    return sorted(set(result), key=lambda pair: (pair[1], pair[0]))


def explain(function, forbidden, found, filename="hog.py"):
    """What a student reads when ``found`` (from ``violations``) is not empty."""
    kind, line = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return (f"{function} may not use {SINGULAR[kind]}: {filename} line {line}{more}. "
            f"Not allowed in {function}: {', '.join(forbidden)}; compute the digits with arithmetic "
            f"(//, %) and while loops.")
