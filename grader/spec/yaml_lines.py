"""YAML with lines: a spec's values, each with the line it starts on, and key checks.

``compose`` reads YAML with the safe loader into ``Node`` values; ``mapping``
checks a mapping against a schema (key → ``Key``: its type and its default, or
``REQUIRED``), so every default of a spec is written once, in its schema.
Every problem is a ``SpecError`` naming the file, the line and the fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from grader.errors import SpecError

if TYPE_CHECKING:   # for the annotations; YAML itself is imported only when a spec is parsed
    import yaml

REQUIRED = object()
"""The default of a key the spec must give."""


@dataclass(frozen=True)
class Key:
    kind: type
    default: Any = REQUIRED


class Node:
    """A loaded YAML value with the line it starts on."""
    __slots__ = ("value", "line")

    def __init__(self, value: Any, line: int):
        self.value, self.line = value, line


def compose(text: str, path: str) -> Node:
    import yaml   # only when a spec is parsed, not when it is found in the cache (grader.spec.cache)
    try:   # libyaml's loader where PyYAML was built with it (still the safe loader: plain data only)
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.MarkedYAMLError as error:
        line = _syntax_line(error)
        problem = error.problem or error.context or "cannot be read"
        raise SpecError(path, line, f"YAML syntax error: {problem}",
                        "check the indentation and quoting on this line and the one above") from None
    except yaml.YAMLError as error:
        raise SpecError(path, None, f"YAML error: {error}") from None
    if node is None:
        raise SpecError(path, 1, "the spec is empty", "start from an existing spec in specs/")
    return _convert(node, path)


def _syntax_line(error: yaml.MarkedYAMLError) -> int | None:
    """The line of a YAML syntax mistake. The scanner notices a missing ':' or an unclosed quote
    only lines later (a plain scalar runs on); its context mark is where that key or quote began.
    The parser's problem mark is the unexpected line itself (its context is the whole block)."""
    import yaml
    if isinstance(error, yaml.scanner.ScannerError) and error.context_mark is not None:
        mark = error.context_mark
    else:
        mark = error.problem_mark or error.context_mark
    return mark.line + 1 if mark else None


def _convert(node: yaml.Node, path: str, loader: yaml.SafeLoader | None = None) -> Node:
    import yaml
    if loader is None:   # one constructor for the whole document's scalars
        loader = yaml.SafeLoader("")
        try:
            return _convert(node, path, loader)
        finally:
            loader.dispose()
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Node] = {}
        for key_node, value_node in node.value:
            key = str(key_node.value)
            if key in result:
                raise SpecError(path, key_node.start_mark.line + 1, f"duplicate key '{key}'",
                                "keep one of them")
            result[key] = _convert(value_node, path, loader)
        return Node(result, line)
    if isinstance(node, yaml.SequenceNode):
        return Node([_convert(item, path, loader) for item in node.value], line)
    try:
        return Node(loader.construct_object(node, deep=True), line)
    except yaml.YAMLError as error:
        raise SpecError(path, line, f"bad value: {error}") from None


TYPE_NAMES = {str: "text", int: "a whole number", float: "a number", bool: "true or false",
              dict: "a mapping", list: "a list"}


class Mapping:
    """A checked mapping of a spec: its nodes, and its schema for the defaults."""

    def __init__(self, nodes: dict[str, Node], schema: dict[str, Key], line: int):
        self.nodes, self.schema, self.line = nodes, schema, line

    def __contains__(self, key: str) -> bool:
        return key in self.nodes

    def __getitem__(self, key: str) -> Node:
        return self.nodes[key]

    def get(self, key: str) -> Any:
        """The value given, or the schema's default."""
        return self.nodes[key].value if key in self.nodes else self.schema[key].default

    def text(self, key: str) -> str:
        return str(self.get(key)).strip()

    def line_of(self, key: str) -> int:
        return self.nodes[key].line if key in self.nodes else self.line


def mapping(node: Node, path: str, schema: dict[str, Key], what: str) -> Mapping:
    """Check a mapping's keys against ``schema``: unknown keys, missing ones, and types."""
    if not isinstance(node.value, dict):
        raise SpecError(path, node.line, f"{what} must be a mapping of keys to values",
                        f"write it as 'key: value' lines; allowed keys: {', '.join(schema)}")
    for key, value in node.value.items():
        if key not in schema:
            close = closest(key, schema)
            raise SpecError(path, value.line, f"unknown key '{key}' in {what}",
                            f"did you mean '{close}'?" if close else f"allowed keys: {', '.join(schema)}")
    for key, entry in schema.items():
        if key not in node.value:
            if entry.default is REQUIRED:
                raise SpecError(path, node.line, f"{what} is missing '{key}'",
                                f"add '{key}:' ({TYPE_NAMES.get(entry.kind, entry.kind.__name__)})")
            continue
        value = node.value[key]
        if not _is(value.value, entry.kind):
            raise SpecError(path, value.line,
                            f"'{key}' in {what} must be {TYPE_NAMES.get(entry.kind, entry.kind.__name__)}, "
                            f"not {_describe(value.value)}",
                            "quote numbers that are names, e.g. number: \"05\"" if entry.kind is str else "")
    return Mapping(node.value, schema, node.line)


def _is(value: Any, kind: type) -> bool:
    if kind is float:
        return type(value) in (int, float)
    if kind is int:
        return type(value) is int
    return type(value) is kind


def _describe(value: Any) -> str:
    if value is None:
        return "empty"
    return f"{TYPE_NAMES.get(type(value), type(value).__name__)} ({value!r})" if not isinstance(
        value, (dict, list)) else TYPE_NAMES[type(value)]


def closest(word: str, options) -> str | None:
    import difflib   # only when a name is wrong
    found = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return found[0] if found else None
