"""Every worked example in the seeds is traced to a case with its origin, and no origin is invented.

The seed texts the tests read are kept in ``tests/data/seeds/``, a copy of the
project's seeds, so the suite runs from the repository alone.
"""

import os
import re
from collections import Counter
from pathlib import Path

import pytest

from grader.spec import all_variants
from tests import ROOT, TESTS

VARIANTS = all_variants()
EXAMPLE = re.compile(r"^\W*Example\s*(\d*)\s*[:.]?", re.IGNORECASE)


def seed_examples(text: str, rule_names: list[str]) -> set[tuple[str, int]]:
    """(rule, example number) for each worked example in a seed text.

    A rule starts at a line that begins (after bullets) with its name; an
    example is a line that begins with 'Example', numbered as the seed numbers
    it, or by its position under the rule when the seed gives no number.
    """
    found, rule, count = set(), None, Counter()
    for line in text.splitlines():
        start = line.lstrip(" •*-\t")
        named = [name for name in rule_names if start.startswith(name)]
        if named:
            rule = named[0]
            continue
        match = EXAMPLE.match(line)
        if match and rule:
            count[rule] += 1
            found.add((rule, int(match[1]) if match[1] else count[rule]))
    return found


SEEDS = TESTS / "data" / "seeds"
# The project's own seed texts, beside the checkout (shared/seeds), of which tests/data/seeds is the copy.
ORIGINALS = Path(os.environ.get("HOG_SEEDS") or ROOT.parent / "shared" / "seeds")


@pytest.fixture(scope="module")
def seeds():
    return SEEDS


def test_the_copy_of_the_seeds_is_the_projects():
    if not ORIGINALS.is_dir():
        pytest.skip(f"the project's seed texts are not at {ORIGINALS} (set HOG_SEEDS to their folder)")
    originals = sorted(ORIGINALS.glob("*.txt"))
    assert [path.name for path in originals] == sorted(path.name for path in SEEDS.glob("*.txt"))
    for path in originals:
        assert (SEEDS / path.name).read_bytes() == path.read_bytes(), f"tests/data/seeds/{path.name} is stale"


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.id for v in VARIANTS])
def test_every_seed_example_has_a_case(variant, seeds):
    text = (seeds / variant.seed).read_text(encoding="utf-8")
    in_seed = seed_examples(text, [rule.name for rule in variant.rules])
    traced = {(case.rule, case.example) for case in variant.cases if case.rule}
    assert in_seed - traced == set(), f"{variant.path}: seed examples with no case"
    assert traced - in_seed == set(), f"{variant.path}: origins that name no example of the seed"


def test_all_46_worked_examples_are_traced(seeds):
    total = sum(len(seed_examples((seeds / v.seed).read_text(encoding="utf-8"), [r.name for r in v.rules]))
                for v in VARIANTS)
    assert total == 46


def test_the_unnumbered_example_counts_as_example_1():
    assert seed_examples("Swine Swap: a rule.\n  Example: it swaps.\n", ["Swine Swap"]) == {("Swine Swap", 1)}


def test_every_rule_of_a_variant_has_a_summary_in_our_words(seeds):
    for variant in VARIANTS:
        seed = " ".join((seeds / variant.seed).read_text(encoding="utf-8").split())
        for rule in variant.rules:
            words = rule.summary.split()
            copied = [" ".join(words[i:i + 8]) for i in range(len(words) - 7)
                      if " ".join(words[i:i + 8]) in seed]
            assert not copied, f"{variant.path}:{rule.line}: {rule.name} copies the seed: {copied[0]!r}"
