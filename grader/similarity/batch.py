"""A batch folder's similarity report: ``OUTDIR/similarity.json`` and ``OUTDIR/similarity.html``.

The submissions are found as ``hog grade-batch`` finds them (``grader.classroom.submissions``:
folders, ``.py`` files, ``.zip`` files unpacked safely) and named as its results
are. Each is compared under its variant: the manifest's when one is given,
else the variant its ``hog.py`` declares, else the default the caller names.
One whose variant stays unknown is compared with its skeleton's code in, and
the report says so for each, with the fix.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from grader.errors import UsageError
from grader.project.files import write_atomically
from grader.reference.hog_source import skeleton_source, solution_source
from grader.report import style
from grader.report.html import clip, render
from grader.report.progress import SILENT, Progress
from grader.similarity.compare import MAX_SHARE, THRESHOLD, Entry, Pair, compare, shared_functions
from grader.similarity.fingerprint import MAX_SOURCE_BYTES, Program, Unreadable, fingerprint
from grader.spec import load_variant
from grader.classroom.submissions import Skipped, UnusableZip, extract, scan, submission_name

JSON_NAME = "similarity.json"
HTML_NAME = "similarity.html"
NOTE = ("Similarity is a lead for a human to follow, not a verdict: read the regions side by side, and "
        "remember that short functions have few natural shapes and that students may have worked "
        "together as allowed.")
SKELETON_KEPT = ("its variant is unknown (its hog.py names none in its first lines), so the skeleton's code was "
                 "not left out and counts as shared code: give the variant it was written for, --variant ID "
                 "(with --manifest: its student's row)")
REGION_LINES = 60               # lines of one side of a region shown on the page
PAGE_PAIRS = 200                # pairs shown on the page (the JSON holds them all)


@dataclass(frozen=True)
class Report:
    compared: int
    skipped: tuple[Skipped, ...]
    pairs: tuple[Pair, ...]
    unknown: tuple[str, ...]    # the submissions compared with the skeleton's code in (variant unknown)
    json_path: Path
    html_path: Path


def _read_source(path: Path) -> str:
    with path.open("rb") as handle:
        data = handle.read(MAX_SOURCE_BYTES + 1)
    return data.decode("utf-8", errors="replace")


def _hog_source(submission: Path) -> tuple[str | None, str]:
    """The text of a submission's hog.py (None and why when it has none); a zip is unpacked privately."""
    if submission.is_symlink():
        return None, "a symbolic link (compared only as a folder, a .py or a .zip of its own)"
    if submission.is_dir():
        hog = submission / "hog.py"
        if not hog.is_file() or hog.is_symlink():
            return None, "the folder holds no hog.py"
        return _read_source(hog), ""
    if submission.suffix.lower() != ".zip":
        return _read_source(submission), ""
    with tempfile.TemporaryDirectory(prefix="hog-zip-") as scratch:
        try:
            found = extract(submission, Path(scratch))
        except UnusableZip as error:
            return None, f"the zip could not be used: {error}"
        if found is None:
            return None, "the zip holds no hog.py"
        return _read_source(found / "hog.py"), ""


def collect(folder: Path, *, variant_of: Callable[[str, str], str | None], out: Path | None = None,
            progress: Progress = SILENT) -> tuple[list[Entry], list[Skipped]]:
    """The comparable submissions of a folder and what was skipped, with why. ``variant_of(name,
    source)`` gives a submission's variant (None when unknown); ``progress`` shows those fingerprinted."""
    found, skipped = scan(folder, out=out)
    entries = []
    with progress.task("fingerprinting submissions", len(found)) as advance:
        for submission in found:
            entry = _entry(submission, variant_of)
            if isinstance(entry, Skipped):
                skipped.append(entry)
            else:
                entries.append(entry)
            advance()
    return entries, skipped


def _entry(submission: Path, variant_of: Callable[[str, str], str | None]) -> Entry | Skipped:
    """A submission fingerprinted, or skipped with why."""
    name = submission_name(submission)
    try:
        source, why = _hog_source(submission)
    except OSError as error:
        source, why = None, f"cannot be read ({error.strerror})"
    if source is None:
        return Skipped(submission.name, why)
    try:
        program = fingerprint(source, submission.name)
    except Unreadable as error:
        return Skipped(submission.name, str(error))
    return Entry(name, variant_of(name, source), program, tuple(source.splitlines()))


def _references(variants: set[str]) -> tuple[set[int], dict[frozenset[str], frozenset[str]]]:
    """The skeletons' fingerprints, and what each two variants' references share unchanged."""
    skeleton: set[int] = set()
    references: dict[str, Program] = {}
    for variant_id in sorted(variants):
        variant = load_variant(variant_id)
        skeleton |= set(fingerprint(skeleton_source(variant), f"the {variant_id} skeleton").fingerprints)
        references[variant_id] = fingerprint(solution_source(variant), f"the {variant_id} reference")
    return skeleton, shared_functions(references)


def _pair_json(pair: Pair) -> dict:
    return {"a": pair.a, "b": pair.b, "score": pair.score, "functions": pair.functions,
            "shared_fingerprints": pair.shared,
            "compared": "all functions" if pair.compared is None else list(pair.compared),
            "regions": [{"a": {"function": r.a_function, "lines": list(r.a_lines)},
                         "b": {"function": r.b_function, "lines": list(r.b_lines)},
                         "fingerprints": r.fingerprints} for r in pair.regions]}


def _side(lines: tuple[str, ...], span: tuple[int, int], shared: tuple[int, ...]) -> list[dict]:
    covered = set(shared)
    first, last = span[0], min(span[1], span[0] + REGION_LINES - 1)
    return [{"number": n, "text": clip(lines[n - 1] if n - 1 < len(lines) else "", 160), "shared": n in covered}
            for n in range(first, last + 1)]


def _pair_page(pair: Pair, listed: dict, sources: dict[str, tuple[str, ...]]) -> dict:
    """The pair as the page shows it: as ``listed`` in the JSON, with its regions' lines side by side."""
    return {**listed,
            "sides": [{"a": _side(sources[pair.a], r.a_lines, r.a_shared),
                       "b": _side(sources[pair.b], r.b_lines, r.b_shared)} for r in pair.regions]}


def _json(data: dict) -> str:
    """The report as JSON, one pair a line (indenting every level costs more than comparing)."""
    head = {key: value for key, value in data.items() if key != "pairs"}
    pairs = ",\n".join("  " + json.dumps(pair) for pair in data["pairs"])
    return json.dumps(head, indent=1)[:-2] + ',\n "pairs": [\n' + pairs + "\n ]\n}\n"


def similarity(folder: Path, out: Path, *, variant_of: Callable[[str, str], str | None],
               threshold: float = THRESHOLD, max_share: int | None = None, progress: Progress = SILENT) -> Report:
    """Compare every pair of the folder's submissions (``progress`` shows the submissions fingerprinted,
    then the pairs compared); write OUTDIR/similarity.json and .html."""
    entries, skipped = collect(folder, variant_of=variant_of, out=out, progress=progress)
    variants = {entry.variant for entry in entries if entry.variant is not None}
    unknown = tuple(entry.name for entry in entries if entry.variant is None)
    skeleton, shared = _references(variants)
    share = MAX_SHARE if max_share is None else max_share
    pairs = compare(entries, skeleton=skeleton, shared_functions=shared, max_share=share, threshold=threshold,
                    progress=progress)
    crossing = {key: sorted(names) for key, names in shared.items()}
    data = {"threshold": threshold, "pairs": [_pair_json(pair) for pair in pairs],
            "submissions": len(entries), "max_share": share, "variants": sorted(variants),
            "shared_across_variants": [{"variants": sorted(key), "functions": names}
                                       for key, names in sorted(crossing.items(), key=lambda kv: sorted(kv[0]))],
            "skipped": [{"entry": s.name, "why": s.why} for s in skipped],
            "skeleton_kept": [{"entry": name, "why": SKELETON_KEPT} for name in unknown], "note": NOTE}
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_atomically(out / JSON_NAME, _json(data))
        sources = {entry.name: entry.lines for entry in entries}
        shown = [_pair_page(pair, listed, sources) for pair, listed in zip(pairs[:PAGE_PAIRS], data["pairs"])]
        page = render("similarity.html.j2", report=data, folder=clip(folder.name), shown=PAGE_PAIRS, pairs=shown)
        write_atomically(out / HTML_NAME, page)
        style.write_beside(out)   # the page's stylesheets, so that it opens as a file
    except OSError as error:
        raise UsageError(f"cannot write the similarity report in {out}: {error.strerror} "
                         f"(choose an --out folder you can write to)") from None
    return Report(len(entries), tuple(skipped), tuple(pairs), unknown, out / JSON_NAME, out / HTML_NAME)
