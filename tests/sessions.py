"""Run a case's interpreter session against a folder holding hog.py and dice.py.

For the kit's own code only (solution and skeleton): it runs in this process.
Student code is graded through grader.sandbox instead.
"""

from __future__ import annotations

import doctest
import importlib.util
import io
from contextlib import redirect_stdout
from pathlib import Path

from grader.reference import modules_as
from grader.spec import Case, Variant


def load_folder(folder: Path) -> dict[str, object]:
    """Fresh ``hog`` and ``dice`` modules from a folder, keyed by module name."""
    modules: dict[str, object] = {}
    for name in ("dice", "hog"):
        spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        with modules_as({**modules, name: module}):
            spec.loader.exec_module(module)
        modules[name] = module
    return modules


def run_case(variant: Variant, case: Case, modules: dict[str, object]) -> str:
    """The doctest report of the case ('' when it passes)."""
    text = variant.setup + "\n" + case.session
    test = doctest.DocTestParser().get_doctest(text, {}, case.id, case.path, case.line)
    runner = doctest.DocTestRunner(optionflags=doctest.REPORT_ONLY_FIRST_FAILURE)
    output = io.StringIO()
    with modules_as(modules), redirect_stdout(io.StringIO()):
        runner.run(test, out=output.write)
    return output.getvalue()
