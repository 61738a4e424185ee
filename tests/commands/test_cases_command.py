"""`hog cases ID [--json] [--hidden [--seed N]]`: what an instructor and other tools read."""

import json
import subprocess
import sys

import pytest

from grader.cases import GENERATED, PROBE
from grader.spec import load_variant


def hog(*args):
    result = subprocess.run([sys.executable, "-m", "grader.cli", *args], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.slow
def test_json_lists_every_spec_case_with_its_origin_and_calls():
    spec = load_variant("fa19")
    records = json.loads(hog("cases", "fa19", "--json"))
    assert [r["id"] for r in records] == [case.id for case in spec.cases]
    assert {r["visibility"] for r in records} == {"public"}
    feral = [r for r in records if r["origin"] == "003_aa1da60b508e5a76.txt: Feral Hogs, example 1"]
    assert {r["question"] for r in feral} == {"05b"}   # Feral Hogs is a question of its own
    first = records[0]
    assert first["spec"].startswith("specs/fa19.yaml:")
    assert first["steps"] and {"call", "expected"} <= first["steps"][0].keys()


@pytest.mark.slow
def test_text_names_each_case_and_points_to_the_hidden_ones():
    out = hog("cases", "sp19")
    assert "sp19-q01-1  question 01  public  " in out
    assert "    >>> " in out
    assert out.endswith("42 cases in sp19\nThe grader also generates hidden cases from the reference "
                        "solution; `hog cases sp19 --hidden` lists them too.\n")


@pytest.mark.slow
def test_hidden_adds_the_generated_cases_question_by_question():
    public = json.loads(hog("cases", "nju24", "--json"))
    every = json.loads(hog("cases", "nju24", "--json", "--hidden"))
    assert every[:len(public)] == public
    generated = every[len(public):]
    probing = {PROBE.format(case=record["id"]) for record in public}   # a public case with a number changed
    assert generated and all(r["visibility"] == "hidden" and r["origin"] in probing | {GENERATED} for r in generated)
    assert {r["origin"] for r in generated} & probing
    # final_strategy is graded by the exact engine, not by cases
    questions = {q.number for q in load_variant("nju24").questions if q.points and q.role != "final_strategy"}
    assert {r["question"] for r in generated} == questions


@pytest.mark.slow
def test_hidden_cases_of_a_recorded_seed_are_the_ones_a_grade_with_that_seed_ran():
    from grader.cases import grading_cases
    listed = json.loads(hog("cases", "sp19", "--json", "--hidden", "--seed", "7"))
    graded = grading_cases(load_variant("sp19"), 7)
    assert [record["steps"][0]["call"] for record in listed] == \
        [case.steps[0].source.rstrip("\n") for case in graded]
    assert listed != json.loads(hog("cases", "sp19", "--json", "--hidden", "--seed", "8"))


def test_a_seed_without_hidden_is_refused_with_the_fix():
    result = subprocess.run([sys.executable, "-m", "grader.cli", "cases", "sp19", "--seed", "7"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and result.stderr == "Error: --seed chooses hidden cases: add --hidden\n"
