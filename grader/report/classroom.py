"""``hog report OUTDIR``: what a batch tells the instructor, as one page and as JSON.

Read from what ``grade-batch`` wrote: each ``<name>.json`` (Gradescope's
results, with ``graded_from``) and, beside it, ``instructor/<name>.json``
(``grader.report.instructor``: failed cases by id with what they returned, the
isolation, the final strategy's exact win rate). ``report.json`` holds the
figures; ``report.html`` shows the same figures, one self-contained page.
"""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from grader.errors import UsageError
from grader.project.files import write_atomically
from grader.report import instructor, style
from grader.report.gradescope import UNLOCKED
from grader.report.html import ROUND_STEPS, SLACK, clip, render
from grader.spec import SpecError, Variant, load_variant

BINS = 10
RATE_BIN = 0.05
TOP_CASES = 5
TOP_VALUES = 3
SLOWEST = 5
SIMILARITY = "similarity.json"    # as hog similarity writes it (grader.similarity.batch, a layer above)
SIMILAR_PAIRS = 10
NOT_RESULTS = {"report.json", SIMILARITY}
# As grade-batch writes them (grader.classroom.batch: the layer above reads this module, never the reverse).
GRADED_FROM = "graded_from"
GRADER_FAILED = "grader failed"


@dataclass(frozen=True)
class Graded:
    name: str
    result: dict
    private: dict | None      # the instructor-only facts, when they match this result


def load(out: Path) -> tuple[list[Graded], list[dict]]:
    """The results in OUTDIR, and the files skipped with the reason."""
    graded, skipped = [], []
    for path in sorted(out.glob("*.json")):
        if path.name in NOT_RESULTS:
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            skipped.append({"file": path.name, "reason": f"not readable as JSON: {clip(error, 200)}"})
            continue
        if not isinstance(data, dict) or not isinstance(data.get("score"), (int, float)) \
                or not isinstance(data.get("tests"), list):
            skipped.append({"file": path.name, "reason": "not a grade-batch result (no score or tests)"})
            continue
        graded.append(Graded(path.stem, data, _private(out, path.name, data)))
    return graded, skipped


def is_result(path: Path) -> bool:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "score" in data and "tests" in data


def _private(out: Path, name: str, data: dict) -> dict | None:
    try:
        private = json.loads((out / instructor.FOLDER / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(private, dict) or private.get(GRADED_FROM) != data.get(GRADED_FROM):
        return None
    return private


def _variant(graded: list[Graded]) -> Variant | None:
    ids = Counter(g.result.get(GRADED_FROM, {}).get("variant") for g in graded
                  if isinstance(g.result.get(GRADED_FROM), dict))
    for variant_id, _ in ids.most_common():
        try:
            return load_variant(str(variant_id))
        except (SpecError, OSError, ValueError):
            continue
    return None


def histogram(values: list[float], low: float, high: float, bins: int) -> list[dict]:
    """Counts in ``bins`` equal bins from low to high; the last bin holds ``high`` itself."""
    width = (high - low) / bins if high > low else 1.0
    counts = [0] * bins
    for value in values:
        counts[min(max(int((value - low) // width), 0), bins - 1)] += 1
    return [{"low": round(low + i * width, 6), "high": round(low + (i + 1) * width, 6), "count": count}
            for i, count in enumerate(counts)]


def score_bins(top: float) -> tuple[float, int]:
    """Where the score axis ends and how many bins it has: every bin a whole number of points wide
    (1, 2, 3, 4 or 5 times a power of ten, or 25 times one; the narrowest that needs at most ``BINS``
    bins), so the axis is labelled in whole points: 23 points in 8 bins of 3 up to 24, 2403 in 10 of 250."""
    if top <= 0:
        return 1.0, 1
    widths = sorted({base * 10 ** power for power in range(12) for base in (1, 2, 3, 4, 5)}
                    | {25 * 10 ** power for power in range(11)})
    width = next((w for w in widths if top / w <= BINS), widths[-1])
    count = max(1, math.ceil(top / width))
    return float(width * count), count


def time_bins(top: float) -> tuple[float, int]:
    """Where the time axis ends and how many bins it has: every bin 1, 2 or 5 times a power of ten
    seconds wide, the narrowest that needs at most ``BINS`` bins (1.182 s: 6 bins of 0.2 s, not 10 of 0.1182)."""
    top = top if top > 0 else 1.0   # no time at all: an axis of one second
    power = math.floor(math.log10(top / BINS))
    width = next(base * 10.0 ** exponent for exponent in (power, power + 1) for base in ROUND_STEPS
                 if top / (base * 10.0 ** exponent) <= BINS + SLACK)
    count = max(1, math.ceil(top / width - SLACK))
    return width * count, count


def _summary(values: list[float]) -> dict:
    if not values:
        return {"count": 0, "mean": None, "median": None, "max": None}
    return {"count": len(values), "mean": statistics.fmean(values), "median": statistics.median(values),
            "max": max(values)}


def _entries(graded: list[Graded]) -> dict[str, list[dict]]:
    """Every result's entries (Gradescope's tests) by number, numbers in the order first seen; a grader
    fault's entry left out (``figures`` lists those apart)."""
    found: dict[str, list[dict]] = {}
    for g in graded:
        for test in g.result["tests"]:
            if test.get("name") != GRADER_FAILED:
                found.setdefault(str(test.get("number")), []).append(test)
    return found


def _questions(graded: list[Graded], entries: dict[str, list[dict]], variant: Variant | None) -> list[dict]:
    titles = {q.label: q.title for q in variant.questions} if variant else {}
    numbers = list(titles) + [n for n in entries if n not in titles and not n.endswith(UNLOCKED)]
    figures = []
    for number in numbers:
        tests = entries.get(number, [])
        full = sum(1 for t in tests if t.get("score", 0) >= t.get("max_score", 0) > 0)
        figures.append({"number": number, "title": titles.get(number, ""), "graded": len(tests),
                        "full_points": full, "share_full": full / len(tests) if tests else None,
                        "cases": _failing_cases(graded, number)})
    return figures


def _unlocking(entries: dict[str, list[dict]], variant: Variant | None) -> list[dict]:
    """Per question with locked cases, how many submissions handed in every one of them unlocked
    (the results' ``N.u`` entries), apart from the questions' full points."""
    titles = {q.label: q.title for q in variant.questions} if variant else {}
    rows = []
    for number, tests in entries.items():
        if number.endswith(UNLOCKED):
            done = sum(1 for t in tests if t.get("status") == "passed")
            question = number[:-len(UNLOCKED)]
            rows.append({"number": question, "title": titles.get(question, ""), "graded": len(tests),
                         "unlocked": done, "share_unlocked": done / len(tests)})
    return rows


def _failing_cases(graded: list[Graded], number: str) -> list[dict]:
    """The cases of a question that failed most often, with the commonest wrong values."""
    by_case: dict[str, Counter] = {}
    hidden: dict[str, bool] = {}
    for g in graded:
        for question in (g.private or {}).get("questions", []):
            if str(question.get("number")) != number:
                continue
            for failure in question.get("failed", []):
                case = str(failure.get("case"))
                by_case.setdefault(case, Counter())[instructor.capped(str(failure.get("got", "")))] += 1
                hidden[case] = bool(failure.get("hidden"))
    ranked = sorted(by_case.items(), key=lambda item: (-sum(item[1].values()), item[0]))[:TOP_CASES]
    return [{"case": case, "hidden": hidden[case], "submissions": sum(values.values()),
             "values": [{"got": got, "count": count} for got, count in values.most_common(TOP_VALUES)]}
            for case, values in ranked]


def _final_strategy(graded: list[Graded], variant: Variant | None) -> dict | None:
    question = next((q for q in variant.questions if q.role == "final_strategy"), None) if variant else None
    if question is None:
        return None
    rates = [g.private["final_strategy"]["win_rate"] for g in graded
             if g.private and (g.private.get("final_strategy") or {}).get("win_rate") is not None]
    thresholds = [{"win_rate": t.win_rate, "points": t.points,
                   "reached": sum(rate >= t.win_rate for rate in rates)} for t in question.thresholds]
    known = sum(1 for g in graded if g.private is not None)
    return {"number": question.label, "baseline": f"always_roll({variant.baseline})", "rates": _summary(rates),
            "histogram": histogram(rates, 0.0, 1.0, round(1 / RATE_BIN)), "thresholds": thresholds,
            "not_tabulated": known - len(rates)}


def figures(out: Path, variant: Variant | None = None) -> dict:
    """Every figure of the report, as plain JSON data; the thresholds and titles those of ``variant``
    (the one the batch was graded under, a course's points included), else of the results' variant id."""
    graded, skipped = load(out)
    variant = variant or _variant(graded)
    for g in graded:
        if g.private is None:
            skipped.append({"file": f"{instructor.FOLDER}/{g.name}.json",
                            "reason": "missing or from another grading: its failed cases, win rate and "
                                      "isolation are left out (rerun grade-batch to record them)"})
    scores = [float(g.result["score"]) for g in graded]
    top = max((float(g.result.get("max_score") or 0) for g in graded), default=0.0) \
        or (variant.points if variant else 1.0)
    seconds = [(float(g.result.get("execution_time") or 0), g.name) for g in graded]
    faults = [{"submission": g.name, "message": instructor.capped(str(t.get("output", "")), 500)}
              for g in graded for t in g.result["tests"] if t.get("name") == GRADER_FAILED]
    imports = [{"submission": g.name, "message": instructor.capped(str(g.private["import_error"]), 300)}
               for g in graded if g.private and g.private.get("import_error")]
    entries = _entries(graded)
    return {
        "variant": variant.id if variant else None, "title": variant.title if variant else None,
        "submissions": len(graded),
        "isolation": dict(Counter((g.private or {}).get("isolation", "unknown") for g in graded)),
        "score": _scores(scores, top),
        "questions": _questions(graded, entries, variant),
        "unlocking": _unlocking(entries, variant),
        "final_strategy": _final_strategy(graded, variant),
        "time": {**_summary([s for s, _ in seconds]),
                 "histogram": histogram([s for s, _ in seconds], 0.0,
                                        *time_bins(max([s for s, _ in seconds], default=0.0))),
                 "slowest": [{"submission": name, "seconds": s} for s, name in sorted(seconds, reverse=True)[:SLOWEST]]},
        "grader_faults": faults, "import_errors": imports, "skipped": skipped,
        "similarity": similarity_section(out),
        "variants": by_variant(graded),
    }


def by_variant(graded: list[Graded]) -> list[dict]:
    """Each variant's score distribution, when the batch graded more than one (a roster's batch:
    each student under their own rules); empty otherwise."""
    scores: dict[str, list[float]] = {}
    tops: dict[str, float] = {}
    for g in graded:
        source = g.result.get(GRADED_FROM)
        variant_id = str(source.get("variant")) if isinstance(source, dict) else "unknown"
        scores.setdefault(variant_id, []).append(float(g.result["score"]))
        tops[variant_id] = max(tops.get(variant_id, 0.0), float(g.result.get("max_score") or 0))
    if len(scores) < 2:
        return []
    return [{"variant": variant_id, **_scores(values, tops[variant_id] or 1.0)}
            for variant_id, values in sorted(scores.items())]


def _scores(values: list[float], top: float) -> dict:
    """A score distribution out of ``top``: its summary and its histogram in whole-point bins."""
    return {"max_score": top, **_summary(values), "histogram": histogram(values, 0.0, *score_bins(top))}


def similarity_section(out: Path) -> dict | None:
    """The most similar pairs, from OUTDIR/similarity.json when ``hog similarity`` wrote one there
    (None when it did not): a lead for the instructor, never a verdict."""
    try:
        data = json.loads((out / SIMILARITY).read_text(encoding="utf-8"))
        pairs = [{"a": str(p["a"]), "b": str(p["b"]), "score": float(p["score"]),
                  "functions": [str(f) for f in p.get("functions", [])]} for p in data["pairs"]]
        threshold = float(data["threshold"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return {"threshold": threshold, "pairs_above": len(pairs), "top": pairs[:SIMILAR_PAIRS],
            "submissions": data.get("submissions"), "note": str(data.get("note", ""))}


def refuse_result_named(path: Path) -> None:
    """Refuse to write a report at ``path`` where a submission's result (named as it) lies."""
    if is_result(path):
        raise UsageError(f"{path} is the result of a submission named {path.stem!r}: rename that submission "
                         f"and grade it again, so the report does not overwrite its result")


def write(out: Path, variant: Variant | None = None, rubric: dict | None = None) -> tuple[Path, Path]:
    """``OUTDIR/report.json`` and ``OUTDIR/report.html`` (``variant`` as for ``figures``); ``rubric``, where
    staff grade by hand (the course server), is how often each rubric item was applied:
    ``{"reviews": N, "items": [{"id", "title", "points", "applied"}]}``."""
    refuse_result_named(out / "report.json")
    data = figures(out, variant) | ({"rubric": rubric} if rubric is not None else {})
    write_atomically(out / "report.json", json.dumps(data, indent=2) + "\n")
    write_atomically(out / "report.html", render("report.html.j2", report=data, folder=clip(out.name)))
    style.write_beside(out)   # the page's stylesheets, so that it opens as a file
    return out / "report.html", out / "report.json"
