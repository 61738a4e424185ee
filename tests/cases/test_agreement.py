"""What every seed draws is decided once per spec, and a table with pairs left out still shows exactly
what the reference shows for it."""

from grader import cases, spec
from grader.cases import agreement


def test_a_candidate_every_draw_holds_is_decided_once_and_not_run_again():
    runs = []

    def reference(sources):
        runs.append(sources)
        return ["1\n"] * len(sources)

    known = agreement.decisions(reference, [], [[["x"], ["y"]], [["x"], ["z"]]])
    assert list(known) == [repr(["x"])]
    runs.clear()
    kept, _ = agreement.decided_sessions(reference, [], lambda: [["x"], ["w"]], known)
    assert runs == [["w\n"]]
    assert kept == [[["x\n", "1\n"]], [["w\n", "1\n"]]]


def test_a_table_with_pairs_left_out_shows_what_the_reference_shows_for_it():
    variant = spec.load_variant("nju21")
    api = cases.Api(variant)
    tables = [case for case in cases.hidden_cases(variant, 11) if case.question == "11"
              and case.origin == cases.GENERATED and "not in {" in case.steps[0].source]
    assert tables
    for case in tables:
        assert cases.run_reference(api, [step.source for step in case.steps]) == [step.want for step in case.steps]
