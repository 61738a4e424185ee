"""How many failing cases get a diagnosis, whether each is right, and what diagnosing costs a grade.

Over the kit's corpus (each variant's reference and its real students' submissions, tests/submissions/) and
mutants of each variant's solution written here (one plausible bug per rule-decided question), each graded
with its hidden cases, with diagnoses and without. Per question role it prints the failing questions (the
first failing case every report shows) and the share with a diagnosis; every diagnosis is checked against the
reference: the turn named is one of the rules' game with the state before it and the scores after it the
rules give, and the rules named are those its explanation applied; a call named is one the reference made,
with the value it gave. Then the grade's time with diagnoses and without (medians, and the total).

    python benchmarks/diagnosis.py [--rounds N] [--docs]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from grader import diagnosis, project, reference
from grader.diagnosis import calls, commentary, game, trace
from grader.grading import grade
from grader.sandbox import Limits
from grader.shipped.student.game_trace import turns
from grader.spec import load_variant

import corpus     # beside this script: the kit's corpus by variant
import figures    # beside this script: the page it writes with --docs

PIG_OUT = ("points = 1 if pig_out else total", "points = total")
NEVER_ZERO_DICE = ("    if num_rolls == 0:\n", "    if num_rolls == -1:\n")
MUTANTS = {
    "sp19": [PIG_OUT, ("return 1 + min(tens, ones)", "return 1 + max(tens, ones)"), NEVER_ZERO_DICE,
             ("            return True\n", "            return player_score > 9\n"),
             ("        if is_swap(score, opponent_score):", "        if False:"),
             ("        say = say(score0, score1)\n", "        say(score0, score1)\n"),
             ("    if free_bacon(opponent_score) >= margin:", "    if free_bacon(opponent_score) > margin:"),
             ("    if points >= margin:", "    if points > margin:"),
             ('    """Roll the number of dice that gives the best chance of winning."""\n',
              '    """Roll the number of dice that gives the best chance of winning."""\n    return 4\n')],
    "fa18": [PIG_OUT, ("return max(2 * tens - ones, 1)", "return max(2 * tens - ones, 0)"), NEVER_ZERO_DICE,
             ("return digit_difference(player_score) == digit_difference(opponent_score)",
              "return digit_difference(player_score) == digit_difference(opponent_score) != 0"),
             ("        who = other(who)\n", "        who = other(who) if score0 % 7 else who\n"),
             ("    if free_bacon(opponent_score) >= margin:", "    if free_bacon(opponent_score) > margin:")],
    "fa19": [PIG_OUT, ("return 10 - min(tens, ones)", "return 10 - max(tens, ones)"), NEVER_ZERO_DICE,
             ("abs(num_rolls - previous_rolls[who]) == 2", "abs(num_rolls - previous_rolls[who]) >= 2"),
             ("return first_times_last(player_score) == first_times_last(opponent_score)",
              "return first_times_last(player_score) == first_times_last(opponent_score) > 0"),
             ("    if points >= margin:", "    if points > margin:")],
    "nju21": [("        if outcome % 2 == current_score % 2:", "        if outcome % 2 == 1:"),
              ("    if score == 0:\n        return 1", "    if score == 0:\n        return 0"), NEVER_ZERO_DICE,
              ("return excitement[0] == excitement[-1]", "return excitement[0] == excitement[-1] != '1'"),
              ("        say = say(score0, score1)\n", "        say(score0, score1)\n"),
              ("    if picky_piggy(opponent_score) >= cutoff:", "    if picky_piggy(opponent_score) > cutoff:")],
    "nju24": [PIG_OUT, ("return 2 * abs(tens - ones) + 1", "return 2 * abs(tens - ones)"), NEVER_ZERO_DICE,
              ("return root * root == score", "return root * root == score and score > 9"),
              ("        who = next_player(who)\n", "        who = next_player(who) if score0 != 9 else who\n"),
              ("    if new_score - score >= threshold:", "    if new_score - score > threshold:")],
}
FAST = Limits(case_seconds=2.0, total_seconds=60.0)
DECIDED = {"roll_dice", "zero_dice", "take_turn", "swap", "play", "feral_hogs", "commentary", "announce_highest",
           "zero_strategy", "swap_strategy", "final_strategy"}
"""The roles whose answers the rules decide, each of which a diagnosis covers (the others are named too)."""


def submissions(folder: Path) -> list[tuple[str, str, Path]]:
    """(variant, name, hog.py): the corpus's, then the mutants written into ``folder``."""
    found = [(variant_id, path.stem, path) for variant_id, paths in corpus.by_variant().items() for path in paths]
    for variant_id, mutants in MUTANTS.items():
        source = (project.SOLUTION / variant_id / "hog.py").read_text(encoding="utf-8")
        for number, (old, new) in enumerate(mutants, start=1):
            assert old in source, f"{variant_id}: {old!r} is not in the solution"
            path = folder / f"{variant_id}_mutant_{number}.py"
            path.write_text(source.replace(old, new, 1), encoding="utf-8")
            found.append((variant_id, path.stem, path))
    return found


def wrong(variant, question, verdict) -> str:
    """Why a diagnosis disagrees with the reference, or ""."""
    found = verdict.diagnosis
    traced = diagnosis.traced_session(variant, question, verdict.case, verdict.step)
    if not found.decided:
        return "" if not found.rules else "a crash blamed on a rule"
    want = trace.on_reference(variant, traced.session)
    hog = reference.load(variant.id)
    if question.role in trace.SAID_ROLES:   # the call named is one of the rules' record, with its printing
        return "" if any(item and found.text.startswith(item) for item in
                         commentary.explained_calls(question, hog, want)) else "no call the reference made"
    if question.role in diagnosis.GAME_ROLES:
        rules_turns, _ = turns(want)
        number = found.turn.get("turn", 0)
        if number > len(rules_turns):
            last = rules_turns[-1]["after"] if rules_turns else None
            return "" if number == len(rules_turns) + 1 and found.turn["want"] == last else \
                f"turn {number} is past the rules' game"
        turn = rules_turns[number - 1]
        if (found.turn["before"], found.turn["want"], found.turn["player"]) != \
                (turn["before"], turn["after"], turn["player"]):
            return f"turn {number}: not the rules' state"
        explained = game.explained_turns(variant, hog, traced.written, want)
        return "" if list(found.rules) == explained[number - 1]["rules"] else f"turn {number}: other rules"
    explained = calls.explained_calls(variant, question, hog, want)
    index = next((index for index, item in enumerate(explained) if item and (
        found.text.startswith(item["text"]) or found.text.startswith(item["call"] + " "))), None)
    if index is None:
        return "no call the reference made"
    item, value = explained[index], want[index][2]
    given = re.search(r"the rules give (.*?), the submission", found.text)
    if given and given[1] != repr(value):
        return f"the rules give {value!r}, not {given[1]}"
    return "" if set(found.rules) <= set(item["rules"]) else "other rules"


def wrong_advice(variant, question) -> str:
    """Why a final strategy's advice disagrees with the exact engine, or ""."""
    from grader.reference import engine
    from grader.strategy import match
    rules = engine.rules_for(variant.id)
    before = match.win_rate(rules, question.table).average
    for change in question.diagnosis.turn["changes"]:
        changed = [list(row) for row in question.table]
        changed[change["score"]][change["opponent_score"]] = change["better"]
        if abs(match.win_rate(rules, changed).average - before - change["gain"]) > 1e-8:
            return f"at {change['score']} against {change['opponent_score']} the gain is not {change['gain']}"
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1, help="grades of each submission each way (default 1)")
    rounds = parser.parse_args().rounds
    failing, diagnosed, mistakes = Counter(), Counter(), []
    seconds = {True: [], False: []}
    with tempfile.TemporaryDirectory() as scratch:
        graded = submissions(Path(scratch))
        for variant_id, name, path in graded:
            variant = load_variant(variant_id)
            grade.prepare(variant)
            for _ in range(rounds):
                for on in (False, True):
                    started = time.perf_counter()
                    result = grade.grade(path, variant, limits=FAST, diagnoses=on)
                    seconds[on].append(time.perf_counter() - started)
            for question in result.questions:
                verdict = question.first_failure
                if question.passed or (verdict is None and question.question.role != "final_strategy"):
                    continue
                role = question.question.role
                failing[role] += 1
                found = verdict.diagnosis if verdict is not None else question.diagnosis
                if found is None:
                    print(f"  no diagnosis: {name} question {question.question.label} ({role})")
                    continue
                diagnosed[role] += 1
                why = wrong(variant, question.question, verdict) if verdict is not None else \
                    wrong_advice(variant, question)
                if why:
                    mistakes.append(f"{name} question {question.question.label}: {why}")
    print(f"\n{len(graded)} submissions: the corpus's {len(graded) - sum(map(len, MUTANTS.values()))} and "
          f"{sum(map(len, MUTANTS.values()))} mutants, graded with their hidden cases (seed 0)\n")
    print(f"{'role':<22} {'failing':>8} {'diagnosed':>10} {'share':>7}")
    for role in sorted(failing):
        print(f"{role:<22} {failing[role]:>8} {diagnosed[role]:>10} {diagnosed[role] / failing[role]:>7.0%}")
    decided, covered = sum(failing[r] for r in DECIDED), sum(diagnosed[r] for r in DECIDED)
    print(f"{'rule-decided roles':<22} {decided:>8} {covered:>10} {covered / decided:>7.0%}")
    total, shown = sum(failing.values()), sum(diagnosed.values())
    print(f"{'all roles':<22} {total:>8} {shown:>10} {shown / total:>7.0%}")
    print(f"\ndiagnoses checked against the reference: {shown}, wrong: {len(mistakes)}")
    for mistake in mistakes:
        print(f"  wrong: {mistake}")
    off, on = statistics.median(seconds[False]), statistics.median(seconds[True])
    print(f"\ngrade time per submission, median: {off:.3f} s without diagnoses, {on:.3f} s with "
          f"({(on / off - 1):+.1%}); total {sum(seconds[False]):.1f} s and {sum(seconds[True]):.1f} s "
          f"({(sum(seconds[True]) / sum(seconds[False]) - 1):+.1%})")
    return 1 if mistakes else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    figures.recorded(main)
