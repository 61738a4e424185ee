"""One program's fingerprints: its syntax tree as normalised tokens, k-grams hashed, winnowed.

What a copier changes without changing the program leaves no trace here:
identifiers (every name, argument, attribute and function name is the same
token), literals (every constant is one token), comments and docstrings (not in
the tree), layout and parentheses (not in the tree either), and the order of
functions (each top-level function is fingerprinted on its own, so no k-gram
spans two of them). The tokens are the tree's node kinds in order, with a mark
where a block ends, each with the source line it came from, so that shared
fingerprints lead back to lines.

Winnowing (Schleimer, Wilkerson and Aiken, "Winnowing: local algorithms for
document fingerprinting", SIGMOD 2003, as MOSS does): hash every run of ``K``
tokens, keep the least hash of every window of ``WINDOW`` hashes. Any run of
at least ``K + WINDOW - 1`` tokens that two programs share yields a shared
fingerprint; runs shorter than ``K`` never do. The hash is BLAKE2b, so the
same program has the same fingerprints in every process and every run.

Why not a library: copydetect (PyPI, winnowing over pygments tokens) hashes with Python's
``hash()``, salted per process, so fingerprints differ between runs; it keeps numbers and
parentheses as written, and pulls in matplotlib. The tree and the 40 lines of winnowing below are
all the comparison needs.

The source is a student's, parsed in the grader's process: at most
``MAX_SOURCE_BYTES``, and a tree too deep to walk is refused like a file that
does not parse.
"""

from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass, field

K = 12                          # tokens per k-gram (about two lines of code)
WINDOW = 6                      # hashes per winnowing window
MAX_SOURCE_BYTES = 200_000      # a hog.py is about 20 kB; more is not a Hog submission
MODULE = "<module>"             # the unit of the code outside any top-level function
END = "}"                       # where a block of statements ends


class Unreadable(Exception):
    """A source that cannot be fingerprinted; the message says why and what to do."""


@dataclass(frozen=True)
class Unit:
    """A top-level function (nested functions included), or the module's other code."""
    name: str


@dataclass(frozen=True)
class Program:
    """A program's units, the source line of each unit's every token, and for each fingerprint where
    its k-gram starts: (unit index, token position)."""
    units: tuple[Unit, ...]
    token_lines: tuple[tuple[int, ...], ...] = field(repr=False)
    fingerprints: dict[int, tuple[tuple[int, int], ...]] = field(repr=False)

    def lines_of(self, place: tuple[int, int]) -> set[int]:
        """The source lines holding the tokens of the k-gram at ``place``."""
        unit, position = place
        return set(self.token_lines[unit][position:position + K])

    def hashes_in(self, units: frozenset[str] | None) -> set[int]:
        """The fingerprints found in the units named (all of them for None)."""
        if units is None:
            return set(self.fingerprints)
        return {h for h, places in self.fingerprints.items()
                if any(self.units[unit].name in units for unit, _ in places)}


def parse(source: str, name: str) -> ast.Module:
    """The syntax tree of an untrusted source, within the size bound; Unreadable otherwise."""
    size = len(source.encode("utf-8", errors="replace"))
    if size > MAX_SOURCE_BYTES:
        raise Unreadable(f"{name} is {size:,} bytes; at most {MAX_SOURCE_BYTES:,} are compared "
                         f"(a hog.py is about 20 kB: check that the right file was submitted)")
    try:
        return ast.parse(source, filename=name)
    except SyntaxError as error:
        raise Unreadable(f"{name}:{error.lineno}: does not parse as Python ({error.msg}), so it is "
                         f"not compared") from None
    except (ValueError, RecursionError, MemoryError) as error:
        raise Unreadable(f"{name} cannot be parsed ({type(error).__name__}: nesting too deep or a "
                         f"null byte), so it is not compared") from None


def _is_docstring(statement: ast.stmt) -> bool:
    """A statement that is a bare string: a docstring, or the skeleton's "*** YOUR CODE HERE ***"."""
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) \
        and isinstance(statement.value.value, str)


def _tokens(node: ast.AST, line: int, out: list[tuple[str, int]]) -> None:
    line = getattr(node, "lineno", line)
    if isinstance(node, (ast.expr_context, ast.Import, ast.ImportFrom)):
        return
    if isinstance(node, ast.Constant):
        out.append(("K", line))
        return
    if isinstance(node, (ast.Name, ast.arg)):
        out.append(("N", line))
        if isinstance(node, ast.arg) and node.annotation is not None:
            _tokens(node.annotation, line, out)
        return
    out.append((type(node).__name__, line))
    for name, value in ast.iter_fields(node):
        if isinstance(value, list):
            statements = [item for item in value if isinstance(item, ast.AST)]
            if statements and isinstance(statements[0], ast.stmt):
                for statement in statements:
                    if not _is_docstring(statement):
                        _tokens(statement, line, out)
                out.append((END, line))
            else:
                for item in statements:
                    _tokens(item, line, out)
        elif isinstance(value, ast.AST):
            _tokens(value, line, out)


def _hash(gram: tuple[str, ...]) -> int:
    return int.from_bytes(hashlib.blake2b(" ".join(gram).encode(), digest_size=8).digest(), "big")


def winnow(hashes: list[int], window: int = WINDOW) -> list[int]:
    """The positions robust winnowing selects: the least hash of each window (the rightmost on a tie),
    each position once."""
    if len(hashes) <= window:
        return [min(range(len(hashes)), key=lambda i: (hashes[i], -i))] if hashes else []
    chosen: list[int] = []
    for start in range(len(hashes) - window + 1):
        least = min(range(start, start + window), key=lambda i: (hashes[i], -i))
        if not chosen or chosen[-1] != least:
            chosen.append(least)
    return chosen


def fingerprint(source: str, name: str) -> Program:
    """The fingerprints of a source (``name`` is how errors name it). Raises Unreadable."""
    tree = parse(source, name)
    units: list[Unit] = []
    streams: list[list[tuple[str, int]]] = []
    module: list[tuple[str, int]] = []
    try:
        for statement in tree.body:
            if _is_docstring(statement):
                continue
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                tokens: list[tuple[str, int]] = []
                _tokens(statement, statement.lineno, tokens)
                units.append(Unit(statement.name))
                streams.append(tokens)
            else:
                _tokens(statement, statement.lineno, module)
    except RecursionError:
        raise Unreadable(f"{name} nests too deeply to be compared") from None
    if module:
        units.append(Unit(MODULE))
        streams.append(module)
    places: dict[int, list[tuple[int, int]]] = {}
    for index, tokens in enumerate(streams):
        kinds = [kind for kind, _ in tokens]
        if len(kinds) < K:
            continue
        hashes = [_hash(tuple(kinds[i:i + K])) for i in range(len(kinds) - K + 1)]
        for position in winnow(hashes):
            places.setdefault(hashes[position], []).append((index, position))
    return Program(tuple(units), tuple(tuple(line for _, line in tokens) for tokens in streams),
                   {h: tuple(p) for h, p in places.items()})
