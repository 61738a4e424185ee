"""Hidden cases: generated per question from the reference, fixed by their seeds, cached privately."""

import json
from pathlib import Path

import pytest

from grader import cases, project
from grader.project import signed_cache
from grader.reference import hog_source
from grader.spec import load_variant, parse


@pytest.mark.slow
def test_every_question_but_the_final_strategy_gets_hidden_cases():
    for variant_id in ("sp19", "nju24", "nju21", "fa19", "fa18"):
        variant = load_variant(variant_id)
        hidden = {case.question for case in cases.hidden_cases(variant)}
        expected = {q.number for q in variant.questions if q.role != "final_strategy"}
        assert hidden == expected


def test_a_strategy_question_is_checked_at_every_pair_and_with_drawn_arguments_on_drawn_rows():
    variant = load_variant("sp19")
    question = next(q for q in variant.questions if q.role == "swap_strategy")
    tables = [case.steps[0].source for case in cases.hidden_cases(variant, seed=7)
              if case.question == question.number and case.origin == cases.GENERATED]
    # (the pairs where an allowed alternative answers otherwise are left out, after "if")
    assert tables[0].startswith(f"[{question.function}(s, o) for s in range(100) for o in range(100)")
    assert len(tables) == 4
    for table in tables[1:]:
        call, rows = table.split(" for s in ")[0][1:], table.split(" for s in ")[1].split(" for o in ")[0]
        drawn = eval(rows)
        assert call.startswith(f"{question.function}(s, o, ") and len(drawn) == cases.PARAMETER_ROWS
        assert list(drawn) == sorted(set(drawn)) and all(0 <= s < 100 for s in drawn)
        assert table.split(" for o in ")[1].startswith("range(100)")


@pytest.mark.slow
def test_generation_is_fixed_by_its_seeds():
    variant = load_variant("fa19")
    assert cases._generate(variant) == cases._generate(variant)


@pytest.mark.slow
def test_the_cache_is_reused_and_a_broken_one_is_regenerated(tmp_path, monkeypatch):
    monkeypatch.setattr(project, "CACHE", tmp_path)
    variant = load_variant("sp19")
    first = cases._cached_generation(variant)
    stored, = (path for path in (tmp_path / "hidden").iterdir() if path.name != signed_cache.KEY_FILE)
    signature, payload = stored.read_text().split("\n", 1)
    assert stored.name.startswith("sp19-") and json.loads(payload) == first
    assert signature.startswith("hmac-sha256:")
    assert oct((tmp_path / "hidden").stat().st_mode & 0o777) == "0o700"
    stored.write_text("{ broken")
    assert cases._cached_generation(variant) == first
    assert json.loads(stored.read_text().split("\n", 1)[1]) == first


def test_the_rendered_reference_is_cached_signed_and_made_again_when_changed(tmp_path, monkeypatch):
    monkeypatch.setattr(project, "CACHE", tmp_path)
    variant = load_variant("nju24")
    render = hog_source.marked_source.__wrapped__      # past the per-process memo, to the signed cache
    first = render(variant)
    stored, = (path for path in (tmp_path / "reference").iterdir() if path.name != signed_cache.KEY_FILE)
    assert stored.name.startswith("nju24-") and stored.read_text().split("\n", 1)[1] == first
    stored.write_text(stored.read_text().replace("def ", "def changed_", 1))
    assert render(variant) == first                      # the changed file fails its signature
    assert stored.read_text().split("\n", 1)[1] == first  # and is written again


def test_the_cache_key_follows_what_the_cases_come_from(monkeypatch):
    variant = load_variant("sp19")
    key = cases.cache_key(variant)
    assert cases.cache_key(load_variant("sp19")) == key
    monkeypatch.setattr("grader.reference.hog_source.solution_source", lambda v: "changed\n")
    assert cases.cache_key(variant) != key


def test_the_same_spec_read_from_another_place_finds_the_same_cache(tmp_path, monkeypatch):
    """A course folder's copy of a spec, or the kit's read through another working folder, makes the same
    cases: a server started in the course folder finds what ``hog grade`` cached elsewhere."""
    variant = load_variant("fa19")
    copy = tmp_path / "course" / "specs" / "fa19.yaml"
    copy.parent.mkdir(parents=True)
    copy.write_text(Path(variant.path).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    moved = parse(copy.read_text(encoding="utf-8"), copy)
    assert moved.path != variant.path and moved.cases[0].path != variant.cases[0].path
    assert cases.cache_key(moved) == cases.cache_key(variant)
    assert hog_source._source_key(moved) == hog_source._source_key(variant)   # the rendered reference's


def test_an_unwritable_cache_only_costs_time(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setattr(project, "CACHE", blocked)
    assert cases._cached_generation(load_variant("nju24"))["02"]
