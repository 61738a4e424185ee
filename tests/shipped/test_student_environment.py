"""What students receive runs with the standard library, pytest and pytest-doctestplus, nothing else."""

import shutil
import subprocess
import sys
import venv

import pytest

from grader import project
from grader.spec import load_variant


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory):
    """A virtual environment holding only pytest and pytest-doctestplus (and what they need)."""
    home = tmp_path_factory.mktemp("student-env")
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(home)
    python = home / "bin" / "python"
    installed = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                                "pytest", "pytest-doctestplus"], capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    return python


@pytest.mark.slow
def test_the_environment_lacks_everything_but_pytest(bare_python, tmp_path):
    for module in ("grader", "yaml", "jinja2", "hypothesis"):
        found = subprocess.run([str(bare_python), "-c", f"import {module}"], capture_output=True, cwd=tmp_path,
                               env={"PATH": "/usr/bin:/bin"})   # no PYTHONPATH that could lead to the kit
        assert found.returncode != 0, f"{module} should not be importable for students"


@pytest.mark.slow
@pytest.mark.parametrize("variant_id", ["sp19", "nju24", "nju21", "fa19", "fa18"])
def test_the_student_folder_runs_with_pytest_alone(bare_python, tmp_path, variant_id):
    questions = load_variant(variant_id).questions   # fa19: 13, with 5a and 5b
    checks = sum(bool(question.forbidden) for question in questions)
    for kind, expected in (("solution", f"{len(questions) + checks} passed"), ("skeleton", f"{len(questions)} failed")):
        folder = tmp_path / kind
        shutil.copytree(project.ROOT / kind / variant_id, folder)
        result = subprocess.run([str(bare_python), "-m", "pytest", "-q"], cwd=folder, capture_output=True,
                                text=True, timeout=300, env={"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"})
        assert expected in result.stdout, result.stdout + result.stderr
    assert "# Error: expected" in result.stdout


def test_the_kit_files_in_a_student_folder_import_only_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"pytest", "hog", "dice", "case_report", "unlock", "constructs",
                                              "game_trace"}
    import ast
    for path in (project.SKELETON / "sp19").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                    [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"
