"""What a course page shows: the analysis as JSON and text, and a heatmap that renders."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree

import pytest

from grader.reference.engine import analyze, rules_for, strategy_heatmap
from grader.strategy import heatmap_svg, report
from .conftest import load_reference


def test_the_spec_baseline_is_the_reference_average_win_rate_default(variant):
    import inspect
    hog = load_reference(variant)
    default = inspect.signature(hog.average_win_rate).parameters["baseline"].default
    assert all(default(a, b) == rules_for(variant).baseline for a in (0, 50) for b in (0, 99))


@pytest.mark.slow
@pytest.mark.parametrize("variant_id", ["sp19", "nju21", "fa19"])
def test_analysis_json_has_the_documented_fields(variant_id):
    load_reference(variant_id)
    goal = 20
    analysis = analyze(variant_id, goal)
    data = json.loads(analysis.to_json())
    for key in ("goal", "optimal_first_player_win_rate", "always_roll_win_rates",
                "optimal_vs_baseline", "never_ending_probability", "solve_seconds"):
        assert key in data
    assert data["goal"] == goal
    rates = data["always_roll_win_rates"]
    assert len(rates) == 11 and all(len(row) == 11 for row in rates)
    assert all(0.0 <= rate <= 1.0 for row in rates for rate in row)
    assert (data["never_ending_probability"] is None) == (variant_id != "nju21")
    assert (data["projected_vs_baseline"] is None) == (variant_id != "fa19")
    assert (data["projected_vs_optimal"] is None) == (variant_id != "fa19")
    if variant_id == "fa19":
        assert data["projected_vs_optimal"]["average"] <= 0.5 + 1e-12
    assert data["optimal_vs_baseline"] >= 0.5
    assert data["solve_seconds"] > 0
    text = report(analysis)
    assert f"Hog {variant_id}, goal {goal}" in text and "always_roll(" in text


def test_heatmap_is_standalone_svg_with_legend_and_axis_labels():
    svg = strategy_heatmap("sp19", 30)
    root = ElementTree.fromstring(svg)
    assert root.tag.endswith("svg")
    texts = [element.text for element in root.iter() if element.tag.endswith("text")]
    assert "Your score" in texts and "Opponent's score" in texts and "Dice rolled" in texts
    assert all(str(n) in texts for n in range(11))


def test_heatmap_cells_cover_the_table_exactly():
    table = [[(a + b) % 11 for b in range(12)] for a in range(12)]
    root = ElementTree.fromstring(heatmap_svg(table, "pattern"))
    cells = [r for r in root.iter() if r.tag.endswith("rect") and r.find("{*}title") is not None]
    assert sum(int(r.get("width")) for r in cells) == 12 * 12 * 5
