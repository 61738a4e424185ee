"""Generated folders match their sources; the skeleton is the solution minus each question's code."""

import ast
import json
import shutil
import subprocess
import sys

import pytest

from grader import project
from grader.publishing import build, diagnoses
from grader.publishing.build import BuildError, resolve
from grader.spec import all_variants, load_variant

VARIANTS = all_variants()


@pytest.mark.slow
def test_the_committed_generated_files_are_current():
    result = subprocess.run([sys.executable, "-m", "grader.cli", "build", "--check"],
                            capture_output=True, text=True, cwd=project.ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "All generated files are current (5 variants)." in result.stdout


def test_check_names_a_stale_file_and_build_repairs_it(tmp_path, monkeypatch):
    for folder in ("solution", "skeleton", "docs"):
        shutil.copytree(project.ROOT / folder / "sp19", tmp_path / folder / "sp19")
    shutil.copy(project.ROOT / "docs" / "rules.md", tmp_path / "docs" / "rules.md")
    (tmp_path / "hog-course.toml").write_text("")
    monkeypatch.setattr(project, "_chosen", {})   # the next test is back in the checkout
    project.use(str(tmp_path))   # a course folder holding a copy of what the checkout generates for sp19
    variant = load_variant("sp19")
    hog = tmp_path / "skeleton" / "sp19" / "hog.py"
    hog.write_text(hog.read_text() + "# edited by hand\n")
    (tmp_path / "solution" / "sp19" / "tests" / "q99.md").write_text("left over\n")
    result = build.build([variant], check=True)
    assert result.stale == [hog] and result.extra == [tmp_path / "solution" / "sp19" / "tests" / "q99.md"]
    assert "# edited by hand" in hog.read_text(), "--check must not write"
    build.build([variant])
    assert build.build([variant], check=True) == build.BuildResult([], [], [])


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.id for v in VARIANTS])
def test_skeleton_keeps_every_signature_and_hides_every_answer(variant):
    solution, skeleton = build.solution_source(variant), build.skeleton_source(variant)
    compile(skeleton, "skeleton/hog.py", "exec")

    def signatures(source):
        return {node.name: ast.unparse(node.args) for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.FunctionDef)}
    for question in variant.questions:
        assert f"# BEGIN PROBLEM {question.problem}\n" in solution
        assert f'# BEGIN PROBLEM {question.problem}\n    "*** YOUR CODE HERE ***"\n    # END PROBLEM' \
            in skeleton.replace("        ", "    ")
        assert question.function in signatures(skeleton)
    solution_signatures = signatures(solution)
    for name, arguments in signatures(skeleton).items():
        assert solution_signatures[name] == arguments
    assert '"*** YOUR CODE HERE ***"' not in solution
    # The skeleton does not describe the reference's answer either (its table lives inside the problem).
    final = skeleton[skeleton.index("def final_strategy("):]
    assert "table" not in final and "strategy engine" not in final


def test_the_skeleton_of_play_keeps_its_setup_and_return():
    skeleton = build.skeleton_source(load_variant("fa19"))
    play = skeleton[skeleton.index("def play("):skeleton.index("#######################\n# Phase 2")]
    assert "previous_rolls = [0, 0]" in play and play.rstrip().endswith("return score0, score1")
    assert play.count('"*** YOUR CODE HERE ***"') == 2  # problems 5 and 6


VARIANT = load_variant("sp19")


@pytest.mark.parametrize("marked, expected", [
    ("# BEGIN PROBLEM roll_dice\n# BEGIN PROBLEM play\n",
     "sp19.py.j2 (rendered line 2): problem 'play' begins inside problem 'roll_dice' (end it first)"),
    ("# END PROBLEM play\n", "sp19.py.j2 (rendered line 1): 'END PROBLEM play' without its BEGIN"),
    ("# BEGIN PROBLEM play\n", "sp19.py.j2: problem 'play' never ends"),
    ("# BEGIN PROBLEM dance\n", "sp19.py.j2 (rendered line 1): unknown problem role 'dance'"),
    ("x = 1\n", "specs/sp19.yaml: question 01 (roll_dice), question 02 (zero_dice)"),
])
def test_marker_mistakes_are_reported(marked, expected):
    with pytest.raises(BuildError) as caught:
        resolve(marked, VARIANT, skeleton=True)
    assert str(caught.value).startswith(expected)


def test_roles_that_are_not_questions_keep_their_code_without_markers():
    marked = "def always_roll(n):\n    # BEGIN PROBLEM always_roll\n    return n\n    # END PROBLEM always_roll\n"
    sp19 = load_variant("sp19")  # always_roll is given code in sp19, a question in nju24
    text = resolve(marked + "".join(f"# BEGIN PROBLEM {q.role}\n# END PROBLEM {q.role}\n"
                                    for q in sp19.questions), sp19, skeleton=True)
    assert text.startswith("def always_roll(n):\n    return n\n")


def test_a_student_folder_carries_the_diagnoses_of_its_public_cases_but_none_of_a_locked_one():
    variant = load_variant("sp19")
    folder = build.student_folder(variant, build.skeleton_source(variant))
    carried = json.loads(folder[diagnoses.FILE])["cases"]
    assert "q05-2|play(always_roll(2), always_roll(2), score0=90, dice=make_test_dice(5))" in carried
    assert not any(key.startswith("q05-1|") for key in carried)   # q05-1 is locked
    assert diagnoses.FILE not in build.student_folder(variant, build.skeleton_source(variant), diagnosing=False)
