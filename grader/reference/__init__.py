"""The reference solution of a variant as a module, rendered from the sources.

The kit's own tools (hidden cases, the strategy engine) read the rules from
here, so they follow exactly the code that ``solution/<id>/hog.py`` holds.
Only the kit's code runs in this process; student code never does.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import threading
import types

from grader import project
from grader.reference import hog_source
from grader.spec import load_variant

_lock = threading.RLock()


@contextlib.contextmanager
def modules_as(imports: dict[str, types.ModuleType]):
    """Within the block, ``import NAME`` finds the given modules; afterwards all is as before."""
    saved = {key: sys.modules.get(key) for key in imports}
    with _lock:
        sys.modules.update(imports)
        try:
            yield
        finally:
            for key, value in saved.items():
                if value is None:
                    sys.modules.pop(key, None)
                else:
                    sys.modules[key] = value


def _module(name: str, source: str, filename: str, imports: dict[str, types.ModuleType]) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__file__ = filename
    with modules_as(imports):
        exec(compile(source, filename, "exec"), module.__dict__)
    return module


@functools.cache
def dice() -> types.ModuleType:
    """The kit's dice module (the same for every variant)."""
    path = project.DICE
    return _module("hog_kit_dice", path.read_text(encoding="utf-8"), str(path), {})


@functools.cache
def load(variant_id: str) -> types.ModuleType:
    """The reference ``hog`` module of a variant."""
    variant = load_variant(variant_id)
    source = hog_source.solution_source(variant)
    root = project.here().root   # where `hog build` writes it, else a name of its own (the built-in variants alone)
    filename = str(root / "solution" / variant_id / "hog.py") if root else f"<reference hog.py of {variant_id}>"
    return _module(f"hog_kit_reference_{variant_id}", source, filename, {"dice": dice()})


@functools.cache
def alternative(variant_id: str, source: str) -> types.ModuleType:
    """The reference with the functions ``source`` defines replacing its own: an allowed
    alternative (a choice the rules leave open), used to keep hidden cases to what the rules fix."""
    variant = load_variant(variant_id)
    text = hog_source.solution_source(variant) + "\n\n# An allowed alternative\n" + source
    filename = f"<alternative of {variant_id}>"
    return _module(f"hog_kit_alternative_{variant_id}", text, filename, {"dice": dice()})
