"""Constructs a function may not use, found in its source with ``ast``.

Some courses forbid constructs in a function (NJU's ``picky_piggy``): the digits
must come from arithmetic (``//``, ``%``), so what is banned is whatever can
produce digits another way: turning the number into text (``str()``,
``repr()``, ``format()`` and their methods, f-strings, string literals used as
values), indexing, slicing, lists, comprehensions and ``for`` loops.  Text that
can never become a value the function computes with is allowed: docstrings (and
any string that is a whole statement, such as a left-over ``'*** YOUR CODE HERE
***'``) and the plain messages of ``assert`` and ``raise``.

Shipped in every student folder (``conftest.py`` runs the check with the public
cases) and used by the grader, which reads the source and never runs it for this
check: both print ``explain``'s text.  Standard library only.
"""

import ast
from collections import namedtuple

# The categories a spec's ``forbid:`` names, in the courses' words.
CONSTRUCTS = ("strings", "slicing", "lists", "list comprehensions", "indexing", "for loops")

# One forbidden construct found: its category, its line, and what it is in the student's words.
Found = namedtuple("Found", "kind line construct")

TEXT_CALLS = {"str": "a str() call", "repr": "a repr() call", "format": "a format() call",
              "ascii": "an ascii() call"}
TEXT_METHODS = {"__str__": "a __str__() call", "__repr__": "a __repr__() call",
                "__format__": "a __format__() call"}
COMPREHENSIONS = {ast.GeneratorExp: "a generator expression (its for is a loop)",
                  ast.SetComp: "a set comprehension (its for is a loop)",
                  ast.DictComp: "a dict comprehension (its for is a loop)"}
# What to do instead, per category.
INSTEAD = {
    "strings": "take the digits with arithmetic: n % 10 is the last digit, n // 10 the number without it",
    "indexing": "take the digit you need with arithmetic: n // 10 % 10 is the tens digit",
    "slicing": "take the digits you need with arithmetic: n % 100 is the last two digits",
    "lists": "keep the digits you need in variables (tens, ones = n // 10 % 10, n % 10)",
    "list comprehensions": "keep the digits you need in variables (tens, ones = n // 10 % 10, n % 10)",
    "for loops": "repeat with a while loop (while n > 0: ...; n = n // 10)",
}


def _kind(node, allowed):
    """(category, construct) of a forbidden node, or None. ``allowed`` holds the ids of string
    constants that can never be a value: whole-statement strings, assert and raise messages."""
    if isinstance(node, ast.JoinedStr):
        return "strings", "an f-string"
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)) and id(node) not in allowed:
        return "strings", "a string literal used as a value"
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):
            if node.func.id in TEXT_CALLS:
                return "strings", TEXT_CALLS[node.func.id]
            if node.func.id == "list":
                return "lists", "a list() call"
        if isinstance(node.func, ast.Attribute) and node.func.attr in TEXT_METHODS:
            return "strings", TEXT_METHODS[node.func.attr]
    if isinstance(node, ast.Subscript):
        return ("slicing", "slicing (x[a:b])") if isinstance(node.slice, ast.Slice) else ("indexing", "indexing (x[i])")
    if isinstance(node, ast.List):
        return "lists", "a list"
    if isinstance(node, ast.ListComp):
        return "list comprehensions", "a list comprehension"
    if type(node) in COMPREHENSIONS:
        return "for loops", COMPREHENSIONS[type(node)]
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return "for loops", "a for loop"
    return None


def _allowed_strings(function):
    """Ids of the string constants in ``function`` that are text only, never a value computed with."""
    allowed = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            allowed.add(id(node.value))                     # a docstring, a string as a statement
        messages = [node.msg] if isinstance(node, ast.Assert) else \
            [node.exc, node.cause] if isinstance(node, ast.Raise) else []
        for message in messages:
            if message is not None:
                # Plain literals only: an f-string or str() in a message still counts, as it could
                # carry the number's digits to an except clause.
                allowed.update(id(part) for part in ast.walk(message) if isinstance(part, ast.Constant))
        if isinstance(node, ast.JoinedStr):                 # an f-string's literal parts: the f-string counts
            allowed.update(id(part) for part in ast.walk(node) if isinstance(part, ast.Constant))
    return allowed


def violations(source, function, forbidden):
    """Each forbidden construct (a ``Found``) in the top-level ``def function`` of ``source`` (the
    last one, as Python keeps it), at most one per category and line. None found, no such function,
    or source that does not parse (the import reports that): an empty list."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    return violations_in(tree, function, forbidden)


def violations_in(tree, function, forbidden):
    """``violations`` of a module ``tree`` already parsed (the grader parses under its own limits)."""
    found = [node for node in tree.body
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == function]
    if not found:
        return []
    allowed = _allowed_strings(found[-1])
    result = {}
    for node in ast.walk(found[-1]):
        kind = _kind(node, allowed)
        if kind is not None and kind[0] in forbidden:
            key = (node.lineno, kind[0])
            if key not in result or node.col_offset < result[key][0]:
                result[key] = (node.col_offset, kind[1])
    order = sorted(result.items(), key=lambda item: (item[0][0], item[1][0], CONSTRUCTS.index(item[0][1])))
    return [Found(kind, line, construct) for (line, kind), (_column, construct) in order]


def explain(function, forbidden, found, filename="hog.py", unlisted=0):
    """What a student reads when ``found`` (from ``violations``) is not empty; ``unlisted``: how many more
    were found than ``found`` lists (the grader keeps only the first few)."""
    first = found[0]
    more = f" (and {len(found) - 1 + unlisted} more)" if len(found) + unlisted > 1 else ""
    return (f"{function} may not use {first.construct}: {filename} line {first.line}{more}. "
            f"Instead, {INSTEAD[first.kind]}. Not allowed in {function}: {', '.join(forbidden)} "
            "(docstrings and the messages of assert and raise are fine).")
