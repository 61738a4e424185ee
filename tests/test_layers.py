"""The package imports only downward: a module never imports one of a higher layer.

Every ``import`` counts, at the top of a module or inside a function: an import
placed in a function to dodge a cycle is still the cycle.
"""

import ast
from pathlib import Path

import pytest

from grader import project

# Lowest first, as data flows: spec -> reference -> cases -> sandbox -> grading -> report, then what is
# built on a grade (publishing, the classroom, contests, minting, similarity), the verbs and the command
# line. A module may import its own layer and the ones before it; a package listed here holds its
# submodules (``grader.strategy.match``).
LAYERS = [
    ["grader", "grader.project", "grader.errors", "grader.shipped"],   # where files are; error kinds
    ["grader.spec", "grader.catalogue"],                             # the variant and the rules it is made of
    ["grader.strategy"],                                             # exact play of any Rules
    ["grader.reference"],                                            # the reference hog.py, its rules
    ["grader.cases"],                                                # public and hidden cases
    ["grader.diagnosis"],                                            # a failing case's first wrong step
    ["grader.sandbox"],                                              # student code, isolated
    ["grader.grading"],                                              # verdicts and scores
    ["grader.report"],                                               # what people read
    ["grader.publishing", "grader.classroom", "grader.contest", "grader.mint", "grader.similarity",
     "grader.server"],                                               # what is built on a grade; the course server
    ["grader.commands"],
    ["grader.cli"],
]


def layer_of(module: str) -> int | None:
    for number, layer in enumerate(LAYERS):
        if any(module == name or (name != "grader" and module.startswith(name + ".")) for name in layer):
            return number
    return None


def module_name(path: Path) -> str:
    parts = path.relative_to(project.PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(tree: ast.AST, module: str) -> list[tuple[str, int]]:
    """Every grader module ``tree`` imports, with its line, wherever the import statement is."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:   # a relative import, resolved against the importing package
                package = module.split(".")[: len(module.split(".")) - node.level]
                base = ".".join(package + ([base] if base else []))
            # ``from grader import build`` imports the module grader.publishing.build
            found += [(f"{base}.{alias.name}" if layer_of(f"{base}.{alias.name}") is not None else base,
                       node.lineno) for alias in node.names]
    return [(name, line) for name, line in found if name.startswith("grader")]


MODULES = sorted(path for path in project.PACKAGE.rglob("*.py") if "__pycache__" not in path.parts)


def test_every_module_of_the_package_has_a_layer():
    assert [module_name(path) for path in MODULES if layer_of(module_name(path)) is None] == []


# The course server's rooms, lowest first: what it keeps, the course's rules and records over it, the LMS
# tool, grading outside the web process, and the web process itself.
SERVER_ROOMS = ["grader.server.store", "grader.server.course", "grader.server.lti", "grader.server.grading",
                "grader.server.web"]
SERVER_MODULES = [path for path in MODULES if module_name(path).startswith("grader.server.")]


def room_of(module: str) -> int | None:
    return next((number for number, room in enumerate(SERVER_ROOMS)
                 if module == room or module.startswith(room + ".")), None)


def test_every_module_of_the_server_sits_in_a_room():
    assert [module_name(path) for path in SERVER_MODULES if room_of(module_name(path)) is None] == []


@pytest.mark.parametrize("path", SERVER_MODULES, ids=[module_name(path) for path in SERVER_MODULES])
def test_a_room_of_the_server_imports_only_itself_and_the_rooms_below(path):
    module = module_name(path)
    own = room_of(module)
    upward = [f"{project.display(path)}:{line}: {module} ({SERVER_ROOMS[own]}) imports {name}"
              for name, line in imported(ast.parse(path.read_text(encoding="utf-8")), module)
              if room_of(name) is not None and room_of(name) > own]
    assert upward == []


@pytest.mark.parametrize("path", MODULES, ids=[module_name(path) for path in MODULES])
def test_a_module_imports_only_its_own_layer_and_those_below(path):
    module = module_name(path)
    own = layer_of(module)
    upward = [f"{project.display(path)}:{line}: {module} (layer {own}) imports {name} (layer {layer_of(name)})"
              for name, line in imported(ast.parse(path.read_text(encoding="utf-8")), module)
              if layer_of(name) is not None and layer_of(name) > own]
    assert upward == []


DATA = {"templates", "data", "specs"}   # read, never imported: Jinja templates,
# optimal tables, the built-in specs a wheel carries (grader/specs/)


def test_the_top_of_the_package_lists_the_stages_and_nothing_else():
    """``ls grader`` reads as the flow: every entry is a layer's package or module, or a data folder."""
    named = {name.split(".")[1] for layer in LAYERS for name in layer if name != "grader"}
    entries = {path.name.removesuffix(".py") for path in project.PACKAGE.iterdir()
               if path.name not in ("__init__.py", "__pycache__") and not path.name.endswith(".egg-info")}
    assert entries - DATA == named, "a new top-level module or package needs its place in LAYERS"


@pytest.mark.parametrize("path", MODULES, ids=[module_name(path) for path in MODULES])
def test_no_module_is_longer_than_a_sitting_can_read(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= 400, f"{project.display(path)} has {lines} lines: cut it where its sections are"
