"""The rule catalogue: historic members are the historic rules; a bad member is refused with its place."""

import pytest

from grader import catalogue, reference
from grader.catalogue import CatalogueError, make

HISTORIC = {  # variant → (zero-dice member, its function; swap member, its function)
    "sp19": ("free_bacon_min_plus_one", "free_bacon", "swap_same_place_digit", "is_swap"),
    "fa18": ("free_bacon_double_tens", "free_bacon", "swap_digit_difference", "is_swap"),
    "fa19": ("free_bacon_ten_minus_min", "free_bacon", "swap_first_last_product", "is_swap"),
    "nju24": ("picky_piggy_digit_difference", "picky_piggy", "swap_perfect_square", "swine_swap"),
    "nju21": ("picky_piggy_one_over_21", "picky_piggy", "swap_excitement", "swine_swap"),
}


@pytest.mark.parametrize("variant", HISTORIC)
def test_catalogue_members_are_the_historic_rules_on_every_score_below_200(variant):
    zero_id, zero_name, swap_id, swap_name = HISTORIC[variant]
    hog = reference.load(variant)
    zero, swap = catalogue.get(zero_id), catalogue.get(swap_id)
    assert [zero(s) for s in range(200)] == [getattr(hog, zero_name)(s) for s in range(200)]
    if swap.arity == 1:
        assert [swap(s) for s in range(200)] == [getattr(hog, swap_name)(s) for s in range(200)]
    else:
        assert all(swap(a, b) == getattr(hog, swap_name)(a, b) for a in range(200) for b in range(200))


@pytest.mark.parametrize("variant", HISTORIC)
def test_the_historic_hog_py_holds_the_catalogue_text(variant):
    zero_id, _, swap_id, _ = HISTORIC[variant]
    source = (reference.project.SOLUTION / variant / "hog.py").read_text(encoding="utf-8")
    for rule_id in (zero_id, swap_id):
        body = catalogue.get(rule_id).source.split('"""')[-1].strip()
        assert body in source


def _draft(score):
    """Return 1 below 50, else 2."""
    if score < 50:
        return 1
    return 2


def test_a_member_whose_branches_miss_a_line_is_refused_with_its_place():
    with pytest.raises(CatalogueError) as error:
        make("zero_dice", function=_draft, summary="One point.", branches=[((3,), "Below 50.")])
    message = str(error.value)
    assert "tests/catalogue/test_catalogue.py:" in message and "run for no branch" in message


def test_a_member_with_a_wrong_kind_of_value_is_refused():
    def bad(player_score, opponent_score):
        """Return a number."""
        return player_score
    with pytest.raises(CatalogueError, match="returns 0 for"):
        make("swap", source="def bad(player_score, opponent_score):\n    \"\"\"Return a number.\"\"\"\n"
                            "    return player_score\n", summary="x", branches=[((1, 2), "x")], where="here:1")


def test_family_parameters_out_of_range_are_named():
    with pytest.raises(CatalogueError, match="k=99 is outside 8..13"):
        catalogue.get("digits_linear(a=1,b=1,c=1,k=99)")
    with pytest.raises(CatalogueError, match="did you mean"):
        catalogue.get("free_bacon_min_plus_on")


@pytest.mark.slow
def test_every_family_member_drawn_validates():
    import random
    rng = random.Random(5)
    for kind in ("zero_dice", "swap"):
        for _ in range(60):
            member = catalogue.draw(kind, rng)
            assert catalogue.get(member.id).source == member.source


def test_docs_rules_md_is_generated_from_the_catalogue():
    from grader.publishing import build
    (path, text), = build.catalogue_outputs().items()
    assert path.read_text(encoding="utf-8") == text
    assert "digits_linear" in text and "swap_same_place_digit" in text


@pytest.mark.parametrize("variant", HISTORIC)
def test_the_historic_specs_say_each_rule_in_the_catalogue_words(variant):
    from grader.spec import load_variant
    spec = {rule.name: rule for rule in load_variant(variant).rules}
    for rule_id in HISTORIC[variant][::2]:
        member = catalogue.get(rule_id)
        assert (spec[member.name].summary, spec[member.name].choices) == (member.summary, member.choices)
