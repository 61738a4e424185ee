"""A spec unchanged since it was checked is read from the grader's signed cache, as the same variant,
without YAML; a change to the spec or to the code that reads specs makes it parsed again."""

import ast
import json

import pytest

from grader import project, spec
from grader.project import signed_cache
from grader.spec import cache as spec_cache
from tests.spec.test_spec import GOOD
from tests.test_layers import imported


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(project, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(spec, "_loaded", {})   # past the per-process memo, to the signed cache
    return tmp_path / "cache" / "specs"


def entries(folder):
    return [path for path in folder.iterdir() if path.name != signed_cache.KEY_FILE]


@pytest.mark.parametrize("variant_id", spec.variant_ids())
def test_a_cached_spec_is_the_same_variant_as_the_parsed_one(variant_id):
    variant = spec.load_variant(variant_id)
    assert spec_cache.model(json.loads(json.dumps(spec_cache.plain(variant)))) == variant


def test_an_unchanged_spec_is_not_parsed_again_and_a_changed_one_is(tmp_path, cache, monkeypatch):
    path = tmp_path / "demo.yaml"
    path.write_text(GOOD)
    first = spec.load(path)
    stored, = entries(cache)
    assert stored.read_text().startswith("hmac-sha256:") and stored.name.startswith("demo-")
    parsed = []
    monkeypatch.setattr(spec, "parse", lambda *args: parsed.append(args) or first)
    monkeypatch.setattr(spec, "_loaded", {})
    assert spec.load(path) == first and parsed == []
    path.write_text(GOOD.replace("title: Demo rules", "title: Other rules"))
    monkeypatch.setattr(spec, "_loaded", {})
    spec.load(path)
    assert len(parsed) == 1


def test_a_changed_cache_entry_is_noticed_and_the_spec_parsed_again(tmp_path, cache):
    path = tmp_path / "demo.yaml"
    path.write_text(GOOD)
    first = spec.load(path)
    stored, = entries(cache)
    stored.write_text(stored.read_text().replace("Demo rules", "Forged rules"))
    spec._loaded.clear()
    assert spec.load(path) == first
    assert "Forged" not in stored.read_text()


def test_a_broken_spec_is_never_cached_and_keeps_its_located_error(tmp_path, cache):
    path = tmp_path / "demo.yaml"
    path.write_text(GOOD.replace("    points: 1\n", "    points: [1\n"))
    for _ in range(2):
        with pytest.raises(spec.SpecError, match="demo.yaml:18: YAML syntax error"):
            spec.load(path)
    assert not cache.exists() or entries(cache) == []


def test_the_titles_are_read_from_one_cache_entry_as_the_specs_give_them(cache, monkeypatch):
    expected = {variant.id: variant.title for variant in spec.all_variants()}
    assert spec.titles() == expected
    stored, = cache.glob("titles-*.json")
    monkeypatch.setattr(spec, "load_variant", None)   # the second time, no variant is built
    assert spec.titles() == expected
    stored.write_text(stored.read_text().replace("Spring 2019", "Forged"))
    assert "Forged" in stored.read_text()
    monkeypatch.undo()
    monkeypatch.setattr(project, "CACHE", cache.parent)
    assert spec.titles() == expected                   # a changed entry is noticed, the titles made again
    assert "Forged" not in stored.read_text()


def test_every_module_that_reads_a_spec_is_part_of_the_cache_key():
    """A module spec.py uses (directly or not) that READERS left out could change what a spec becomes
    while the cache kept serving the old variant."""
    covered = {path.resolve() for pattern in spec_cache.READERS for path in project.PACKAGE.glob(pattern)}
    todo, seen = ["grader.spec"], set()
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = project.PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".py")
        if not path.exists():
            path = path.with_suffix("") / "__init__.py"
        if not path.exists():
            continue
        todo += [name for name, _line in imported(ast.parse(path.read_text(encoding="utf-8")), module)]
    readers = {module for module in seen if module not in ("grader", "grader.project", "grader.project.signed_cache",
                                                            "grader.project.files")}
    missing = []
    for module in readers:
        path = project.PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".py")
        if not path.exists():
            path = path.with_suffix("") / "__init__.py"
        if path.exists() and path.resolve() not in covered:
            missing.append(module)
    assert missing == []
