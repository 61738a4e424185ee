"""The cases' compiled form: what the grader compiles for the sandbox runs as the typed text would."""

from __future__ import annotations

import binascii
import marshal
import warnings

import pytest

from grader import cases, project
from grader.sandbox import Limits, StepKind, boot, case_code, run_cases
from grader.spec import load_variant

FAST = Limits(case_seconds=2.0, total_seconds=60.0, wall_seconds=10.0)


def test_an_expression_is_compiled_as_one_and_a_statement_as_statements():
    code, expression = case_code.compiled("1 + 2")
    assert expression and eval(code) == 3
    code, expression = case_code.compiled("x = 1 + 2")
    namespace: dict = {}
    exec(code, namespace)
    assert not expression and namespace["x"] == 3


def test_a_step_that_does_not_compile_is_left_to_the_sandbox():
    assert case_code.compiled("def (") is None
    assert case_code.compiled("nul\0byte") is None


def test_the_grader_shows_no_warning_of_a_steps_text():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert case_code.compiled("1 is 1") is not None


def test_a_case_travels_as_marshalled_code_one_pair_or_none_per_step():
    steps = ("x = 2", "x * 3", "def (")
    sent = marshal.loads(binascii.a2b_base64(case_code.case_code(steps)))
    assert [pair if pair is None else pair[1] for pair in sent] == [False, True, None]


@pytest.mark.slow
def test_compiled_steps_show_what_the_typed_text_shows(tmp_path, monkeypatch):
    """The same cases, once with the grader's compiled code and once as text alone, show the same."""
    (tmp_path / "hog.py").write_text("def twice(x):\n    print('twice', x)\n    return 2 * x\n")
    cases = [["twice(4)", "y = twice(1)", "y + 1"], ["1/0"], ["def (", "twice(2)"], ["print('a' 'b')"],
             ["1 is 1"]]
    compiled = run_cases(tmp_path, cases, limits=FAST)
    # As with a sandbox's interpreter other than the grader's: the harness and the steps go as text.
    monkeypatch.setattr(boot, "same_interpreter", lambda python: False)
    as_text = run_cases(tmp_path, cases, limits=FAST)
    assert [[(s.output, s.error, s.error_type, s.kind) for s in run.steps] for run in compiled.cases] == \
        [[(s.output, s.error, s.error_type, s.kind) for s in run.steps] for run in as_text.cases]
    assert compiled.cases[0].steps[0].output == "twice 4\n8\n"
    assert compiled.cases[2].steps[0].kind is StepKind.ERROR and "SyntaxError" in compiled.cases[2].steps[0].error


def test_a_generated_step_is_compiled_once_for_the_reference_and_the_sandbox():
    variant = load_variant("fa19")
    question = next(q for q in variant.questions if q.role == "roll_dice")
    hidden = cases.question_hidden_cases(variant, question.number, 424242)   # drawn now, never from the cache
    source = next(case for case in hidden if case.origin == cases.GENERATED).steps[-1].source
    misses = case_code.compiled.cache_info().misses
    case_code.compiled(source)
    assert case_code.compiled.cache_info().misses == misses   # the reference's compile, reused


@pytest.fixture
def next_process(tmp_path, monkeypatch):
    """A private signed cache, and a function that forgets what this process compiled, as a new one would."""
    monkeypatch.setattr(project, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(case_code, "_known", {})

    def forget():
        case_code._known.clear()
        case_code.case_code.cache_clear()
        case_code.case_line.cache_clear()
    forget()
    yield forget
    forget()


def test_a_new_process_reads_the_cases_a_process_compiled_before_and_compiles_none(next_process, monkeypatch):
    """``hog grade`` is a process per submission: the same cases graded again (a variant's public cases, every
    seed's hidden ones, a seed given again) come compiled from the grader's signed cache."""
    sessions = [["x = 2", "x * 3"], ["def (", "1 + 1"], ["print('a')"]]
    case_code.keep(sessions)
    made = [case_code.case_code(tuple(steps)) for steps in sessions]
    next_process()
    compiling = []
    monkeypatch.setattr(case_code, "compiled", lambda source: compiling.append(source))
    case_code.keep(sessions)
    assert [case_code.case_code(tuple(steps)) for steps in sessions] == made and compiling == []
    case_code.keep(sessions + [["2 ** 10"]])   # cases not kept together before: what is not known is compiled
    assert compiling == ["2 ** 10"]


def test_compiled_cases_changed_in_the_cache_are_compiled_again(next_process, monkeypatch):
    sessions = [["x = 2", "x * 3"]]
    case_code.keep(sessions)
    made = case_code.case_code(("x = 2", "x * 3"))
    kept = next((project.CACHE / "compiled").glob("cases-*.json"))
    kept.write_bytes(kept.read_bytes().replace(made.encode()[:12], b"A" * 12))   # another case's code
    next_process()
    case_code.keep(sessions)
    assert case_code.case_code(("x = 2", "x * 3")) == made


def test_the_cases_are_not_kept_where_the_sandbox_compiles_them_itself(next_process, monkeypatch):
    monkeypatch.setattr(boot, "same_interpreter", lambda python: False)
    case_code.keep([["x = 2"]])
    assert not (project.CACHE / "compiled").exists() and case_code._known == {}

