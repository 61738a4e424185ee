"""hog mint: a composed variant is balanced, written as a spec that builds, and differs from the public ones."""

import io
import sys

import pytest

from grader import cli, project
from grader.publishing import build
from grader.errors import UsageError
from grader.mint import Choices, mint
from grader.mint.balance import Limits, check
from grader.spec import SpecError, load_variant, parse
from tests import ROOT

KIT = ROOT
FAST = Choices(zero_dice="digits_distance(a=2,c=2,k=13)", swap="ones_product(d=5)", bonus="none")


@pytest.fixture
def root(tmp_path, monkeypatch):
    """A course folder of its own: the kit mints and builds there (the built-in variants stay the kit's)."""
    (tmp_path / "specs").mkdir()
    (tmp_path / "hog-course.toml").write_text("")
    monkeypatch.setenv("HOG_COURSE", str(tmp_path))
    project.use()
    yield tmp_path
    monkeypatch.delenv("HOG_COURSE")
    project.use()


@pytest.mark.slow
def test_a_minted_spec_validates_and_builds_solution_skeleton_and_handout(root):
    out = io.StringIO()
    minted = mint("mintx", seed=3, choices=FAST, out=out)
    variant = load_variant("mintx")
    assert variant.compose.zero_dice == "digits_distance(a=2,c=2,k=13)"
    result = build.build([variant])
    solution = (root / "solution" / "mintx" / "hog.py").read_text()
    skeleton = (root / "skeleton" / "mintx" / "hog.py").read_text()
    assert "return min(max(2 * abs(tens - ones) + 2, 1), 13)" in solution
    assert "abs(tens - ones)" not in skeleton and '"*** YOUR CODE HERE ***"' in skeleton
    assert (root / "docs" / "mintx" / "handout.html").exists()
    assert not build.build([variant], check=True).stale and result.written
    thresholds = [t.win_rate for q in variant.questions for t in q.thresholds]
    assert list(minted.balance.thresholds) == thresholds
    assert "optimal first player wins" in out.getvalue() and "wrote specs/mintx.yaml" in out.getvalue()


@pytest.mark.slow
def test_every_expected_output_of_a_minted_spec_is_what_its_reference_shows(root):
    from grader.mint.compose import reference_module, run
    mint("minty", seed=3, choices=FAST, out=io.StringIO())
    variant = load_variant("minty")
    hog = reference_module(variant)
    for case in variant.cases:
        shown = run(hog, [step.source for step in case.steps])
        assert [s.rstrip("\n") for s in shown] == [step.want.rstrip("\n") for step in case.steps], case.id


@pytest.mark.slow
def test_in_fa19s_layout_feral_hogs_is_question_5b_only_when_the_bonus_is_drawn(root):
    with_bonus = Choices(zero_dice=FAST.zero_dice, swap=FAST.swap, bonus="feral_hogs")
    mint("mintf", seed=3, choices=with_bonus, like="fa19", out=io.StringIO())
    mint("mintn", seed=3, choices=FAST, like="fa19", out=io.StringIO())
    feral, plain = load_variant("mintf"), load_variant("mintn")
    assert [(q.number, q.role) for q in feral.questions][4:6] == [("05a", "play"), ("05b", "feral_hogs")]
    assert feral.question("5b").cases and "feral_hogs" in feral.question("6").cases[0].session
    assert [(q.number, q.role) for q in plain.questions][4:6] == [("05", "play"), ("06", "commentary")]
    assert "feral_hogs" not in (root / "specs" / "mintn.yaml").read_text()
    # the commentary cases borrowed from fa19 stay, as the same games without the bonus
    assert len(plain.question("6").cases) == len(load_variant("fa19").question("6").cases)


@pytest.mark.slow
def test_mint_is_deterministic_per_seed(root):
    first = mint("minta", seed=7, choices=Choices(bonus="none"), out=io.StringIO())
    text = first.path.read_text().replace("minta", "ID")
    second = mint("mintb", seed=7, choices=Choices(bonus="none"), out=io.StringIO())
    assert second.path.read_text().replace("mintb", "ID") == text
    other = mint("mintc", seed=8, choices=Choices(bonus="none"), out=io.StringIO())
    assert (other.draft.zero.id, other.draft.swap.id) != (first.draft.zero.id, first.draft.swap.id)


@pytest.mark.slow
def test_an_unbalanced_composition_is_rejected_with_the_reason(root):
    out = io.StringIO()
    with pytest.raises(UsageError, match="do not pass the checks"):
        mint("mintz", choices=Choices("digits_extreme(largest=1,a=2,c=3,k=13)", "ones_product(d=7)", "none"), out=out)
    assert "rejected: always_roll(0) wins 0.74" in out.getvalue()
    assert not (root / "specs" / "mintz.yaml").exists() and not (root / "specs" / "final" / "mintz.txt").exists()


@pytest.mark.slow
def test_a_seed_whose_draw_fails_draws_again_and_says_why_and_shows_each_draw_solved(root, recorded_progress):
    out = io.StringIO()
    minted = mint("mintr", seed=4, choices=Choices(zero_dice="digits_extreme(largest=1,a=2,c=3,k=13)"), out=out,
                  progress=recorded_progress)
    assert minted.attempts > 1 and "rejected: always_roll(0)" in out.getvalue()
    assert recorded_progress.done() == [(f"draw {n} of at most 40: solving the game exactly", None, 0)
                                        for n in range(1, minted.attempts + 1)]


def test_balance_band_is_configurable():
    from grader.catalogue import get
    zero, swap = get("free_bacon_min_plus_one"), get("swap_same_place_digit")
    assert check("sp19", 100, 4, zero.function, swap.function).accepted
    narrow = check("sp19", 100, 4, zero.function, swap.function, limits=Limits(band=(0.46, 0.50)))
    assert any("outside 0.46-0.50" in failure for failure in narrow.failures)


@pytest.mark.slow
def test_mint_prints_how_it_differs_from_each_public_variant(root):
    out = io.StringIO()
    mint("mintd", choices=Choices("free_bacon_min_plus_one", "sum_divisible(m=7)", "none"), out=out)
    text = out.getvalue()
    assert "sp19 zero_dice: the same rule (not changed)" in text
    assert "sp19 swap: minted reference fails" in text and "NOT DISTINCT" not in text


def test_mint_refuses_unknown_rules_and_existing_ids(root, capsys):
    assert cli.main(["mint", "sp19"]) == 2
    assert "'sp19' is the id of a built-in variant" in capsys.readouterr().err
    (root / "specs" / "minty.yaml").write_text("id: minty\n")
    assert cli.main(["mint", "minty"]) == 2
    assert "specs/minty.yaml exists" in capsys.readouterr().err
    assert cli.main(["mint", "mintq", "--zero-dice", "free_bacon_min_plus_on"]) == 2
    assert "did you mean 'free_bacon_min_plus_one'" in capsys.readouterr().err
    assert cli.main(["mint", "mintq", "--swap", "free_bacon_min_plus_one"]) == 2
    assert "is a zero_dice rule" in capsys.readouterr().err


def test_a_compose_block_naming_an_unknown_rule_is_a_located_spec_error():
    text = (KIT / "specs" / "sp19.yaml").read_text().replace(
        "setup:", "compose:\n  layout: cs61a\n  zero_dice: free_bacon\n  swap: swap_same_place_digit\nsetup:", 1)
    with pytest.raises(SpecError) as error:
        parse(text, "specs/sp19.yaml")
    assert str(error.value).startswith("specs/sp19.yaml:11: 'compose' cannot be built: no rule 'free_bacon'")


@pytest.mark.slow
def test_a_minted_variant_grades_its_solution_full_and_its_skeleton_zero(tmp_path):
    sys.path.insert(0, str(KIT / "benchmarks"))
    try:
        import mint_seeds
    finally:
        sys.path.pop(0)
    row = mint_seeds.check_seed(mint_seeds.new_course(tmp_path), 5)
    assert row["problems"] == [], row
    assert row["solution"].split("/")[0] == row["solution"].split("/")[1] and row["skeleton"].startswith("0/")


def test_a_composition_whose_games_may_never_end_is_rejected():
    from grader.catalogue import get
    balance = check("x", 100, 4, get("picky_piggy_one_over_21").function, get("swap_excitement").function)
    assert balance.failures == ("optimal play never ends with chance 0.107 (choose a zero-dice rule that "
                                "always scores)",)
