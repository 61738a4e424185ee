"""A course's own settings: ``hog-course.toml`` at the top of its folder (``hog init`` writes one).

The file names the course, the variants it uses, the least isolation grading accepts, and, per
variant, the points of each question and the final strategy's thresholds. ``apply`` is the one place a
course's points reach a variant: it returns the variant with the course's ``Question.points`` and
thresholds, so the handout, the student tests, every report and the gradebook follow. A question the
course leaves out keeps the variant's own points (its spec's). Errors name the file, the line and the fix.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from grader import project
from grader.errors import UsageError
from grader.spec import serving
from grader.spec.config_error import ConfigError
from grader.spec.model import Threshold, Variant, with_points

KEYS = ("name", "time_zone", "variants", "isolation", "points", "thresholds", "server", "assignments")


@dataclass(frozen=True)
class Course:
    path: Path
    name: str = ""
    variants: tuple[str, ...] = ()
    isolation: str | None = None
    points: dict = field(default_factory=dict)       # variant id → {question key: points}
    thresholds: dict = field(default_factory=dict)   # variant id → {question key: (Threshold, ...)}
    lines: dict = field(default_factory=dict)        # dotted key → its line in the file
    server: serving.Server = serving.Server()         # the course server: [server], [assignments.NAME]


def _lines(text: str) -> dict[str, int]:
    """Each key's line, by its dotted name (``points.sp19.q01``); a table header's line for the table; the
    entries of an array of tables by their index (``assignments.hog.rubric.0.points``)."""
    found, table, arrays = {}, "", {}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.split("#", 1)[0].strip()
        header = re.fullmatch(r"\[\s*([^\]]+?)\s*\]", stripped)
        array = re.fullmatch(r"\[\[\s*([^\]]+?)\s*\]\]", stripped)   # [[a.b]]: its entries are a.b.0, a.b.1, ...
        if array:
            name = ".".join(part.strip().strip('"') for part in array[1].split("."))
            found.setdefault(name, number)
            arrays[name] = arrays.get(name, -1) + 1
            table = f"{name}.{arrays[name]}"
            found.setdefault(table, number)
        elif header:
            table = ".".join(part.strip().strip('"') for part in header[1].split("."))
            found.setdefault(table, number)
        elif "=" in stripped:
            parts = [part.strip().strip('"') for part in stripped.split("=", 1)[0].split(".")]
            for end in range(1, len(parts) + 1):   # a dotted key names its tables too
                key = ".".join(parts[:end])
                found.setdefault(f"{table}.{key}" if table else key, number)
    return found


def _number(value, shown: str, line: int | None, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(shown, line, f"{what} is {value!r}, not a number", "write a number, e.g. 2")
    if value != value or value in (float("inf"), float("-inf")):
        raise ConfigError(shown, line, f"{what} is {value}, not a finite number", "write a number, e.g. 2")
    if value < 0:
        raise ConfigError(shown, line, f"{what} is negative ({value:g})", "write 0 or more")
    return float(value)


def read(path: Path) -> Course:
    """The course config at ``path``, checked: unknown keys, isolation levels, negative points."""
    import tomllib   # here: only a course folder's config is TOML, and grading without one never parses it

    shown = project.display(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except OSError as error:
        raise ConfigError(shown, None, f"cannot read the course config: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(shown, None, "the course config is not UTF-8 text", "save it as UTF-8") from None
    except tomllib.TOMLDecodeError as error:
        where = re.search(r"at line (\d+)", str(error))
        line = int(where[1]) if where else len(text.splitlines()) if "end of document" in str(error) else None
        raise ConfigError(shown, line, f"not valid TOML: {error}",
                          "see https://toml.io for the syntax") from None
    lines = _lines(text)
    for key in data:
        if key not in KEYS:
            raise ConfigError(shown, lines.get(key), f"unknown key '{key}'", f"the keys are {', '.join(KEYS)}")
    name, variants, isolation = data.get("name", ""), data.get("variants", []), data.get("isolation")
    if not isinstance(name, str):
        raise ConfigError(shown, lines.get("name"), "name is not text", 'write name = "CS 61A Fall 2026"')
    if not isinstance(variants, list) or not all(isinstance(item, str) for item in variants):
        raise ConfigError(shown, lines.get("variants"), "variants is not a list of ids", 'write variants = ["sp19"]')
    if isolation is not None and isolation not in project.ISOLATION_LEVELS:
        raise ConfigError(shown, lines.get("isolation"), f"unknown isolation level {isolation!r}",
                          f"write one of {', '.join(project.ISOLATION_LEVELS)}")
    known = project.variant_ids()
    for variant_id in variants:
        if variant_id not in known:
            raise ConfigError(shown, lines.get("variants"), f"variants names '{variant_id}', which is neither built "
                              "in nor in the course's specs/", f"known variants: {', '.join(known)}")
    points, thresholds = {}, {}
    for table, target, entry in (("points", points, _number), ("thresholds", thresholds, _thresholds)):
        by_variant = data.get(table, {})
        if not isinstance(by_variant, dict):
            raise ConfigError(shown, lines.get(table), f"{table} is not a table",
                              f"write [{table}.ID] headers, one per variant")
        for variant_id, questions in by_variant.items():
            if variant_id not in known:
                raise ConfigError(shown, lines.get(f"{table}.{variant_id}"), f"[{table}.{variant_id}] names no "
                                  "known variant", f"known variants: {', '.join(known)}")
            if not isinstance(questions, dict):
                raise ConfigError(shown, lines.get(f"{table}.{variant_id}"), f"{table}.{variant_id} is not a table",
                                  f"write [{table}.{variant_id}] and one line per question, e.g. q01 = 2")
            target[variant_id] = {key: entry(value, shown, lines.get(f"{table}.{variant_id}.{key}"),
                                             f"{table}.{variant_id}.{key}")
                                  for key, value in questions.items()}
    return Course(path, name, tuple(variants), isolation, points, thresholds, lines,
                  serving.read(data, shown, lines, known))


def _thresholds(value, shown: str, line: int | None, what: str) -> tuple[Threshold, ...]:
    fix = "write a list of {win_rate = 0.55, points = 1}, from the lowest win rate to the highest"
    if not isinstance(value, list) or not all(isinstance(item, dict) and set(item) == {"win_rate", "points"}
                                              for item in value):
        raise ConfigError(shown, line, f"{what} is not a list of thresholds", fix)
    found = tuple(Threshold(_number(item["win_rate"], shown, line, f"{what}: a win_rate"),
                            _number(item["points"], shown, line, f"{what}: a threshold's points")) for item in value)
    if any(threshold.win_rate > 1 for threshold in found):
        raise ConfigError(shown, line, f"{what}: a win_rate above 1", "write win rates from 0 to 1, e.g. 0.55")
    if any(later.win_rate <= earlier.win_rate for earlier, later in zip(found, found[1:])):
        raise ConfigError(shown, line, f"{what}: thresholds must rise", fix)
    return found


_read: dict[tuple[Path, bytes], Course] = {}


def current() -> Course | None:
    """The config of the course this run is for (``project.here()``), parsed again only when its text
    changed; None outside a course."""
    path = project.here().config
    if path is None:
        return None
    try:
        key = (path, path.read_bytes())
    except OSError:
        return read(path)   # says why it cannot be read
    if key not in _read:
        _read[key] = read(path)
    return _read[key]


def used_variants() -> list[str]:
    """The course's variants: those its config names and those minted in it ([] in the checkout or
    outside a course)."""
    place, config = project.here(), current()
    if place.checkout or config is None:
        return []
    return list(dict.fromkeys([*config.variants, *(path.stem for path in place.own_specs())]))


def only_variant() -> str | None:
    """The course's variant when it has exactly one: what its submissions were written for."""
    found = used_variants()
    return found[0] if len(found) == 1 else None


def isolation() -> str | None:
    """The least isolation the course's grading accepts, when its config names one."""
    found = current()
    return found.isolation if found is not None else None


def apply(variant: Variant, course: Course | None) -> Variant:
    """``variant`` with the course's points and final-strategy thresholds (``dataclasses.replace``)."""
    if course is None:
        return variant
    points, thresholds = course.points.get(variant.id, {}), course.thresholds.get(variant.id, {})
    if not points and not thresholds:
        return variant
    shown = project.display(course.path)
    for table, given in (("points", points), ("thresholds", thresholds)):
        for key in given:
            try:
                question = variant.question(key)
            except KeyError:
                raise ConfigError(shown, course.lines.get(f"{table}.{variant.id}.{key}"),
                                  f"variant {variant.id} has no question '{key}'",
                                  f"its questions are {', '.join(q.key for q in variant.questions)}") from None
            if table == "thresholds" and question.role != "final_strategy":
                raise ConfigError(shown, course.lines.get(f"thresholds.{variant.id}.{key}"),
                                  f"{question.key} ({question.function}) is not graded by win rate",
                                  "give thresholds to the final strategy question only")
    # The replacement itself is the spec's (one place: ``with_points``); the checks above name the line.
    given = next(iter(thresholds.values()), None)
    try:
        return with_points(variant, points, source=shown,
                           thresholds=None if given is None else [(t.win_rate, t.points) for t in given])
    except UsageError as error:
        key = next((q.key for q in variant.questions if q.role == "final_strategy"), "")
        table = "thresholds" if thresholds else "points"
        raise ConfigError(shown, course.lines.get(f"{table}.{variant.id}.{key}"),
                          str(error).removeprefix(f"{shown}: "),
                          f"set [thresholds.{variant.id}] {key} within its points too") from None


def config_text(name: str, variants: list[Variant], isolation: str = "files", time_zone: str = "UTC") -> str:
    """A new course's config: every question's points written out (the variant's own), to be edited."""
    ids = ", ".join(f'"{variant.id}"' for variant in variants)
    lines = [
        "# Hog kit course configuration. Every `hog` command run in this folder (or below it) reads it;",
        "# `hog --course DIR` or HOG_COURSE=DIR name the course from elsewhere.",
        "",
        f"name = {_quoted(name)}",
        "# The course's time zone, an IANA name (e.g. \"America/Los_Angeles\"): the course server shows due dates",
        "# in it (beside each reader's own), and its late days count this zone's calendar days after the due date's.",
        f"time_zone = {_quoted(time_zone)}",
        "# The variants the course uses: built-in ids (`hog variants`) or ones minted here (`hog mint`).",
        f"variants = [{ids}]",
        "# The least isolation a submission is graded under: process, files, bubblewrap, or container (in Docker",
        "# or Podman, as on macOS or Windows) (`hog grade --isolation` and HOG_ISOLATION still win; `hog doctor`).",
        f'isolation = "{isolation}"',
        "",
        "# Points per question, one table per variant; a question left out keeps the variant's own.",
    ]
    for variant in variants:
        lines.append(f"[points.{variant.id}]")
        lines += [f"{question.key} = {question.points:g}".ljust(12) + f"# {question.function}"
                  for question in variant.questions]
        lines.append("")
    lines.append("# The final strategy's points by exact win rate against the baseline, lowest first.")
    for variant in variants:
        for question in variant.questions:
            if question.thresholds:
                listed = ", ".join(f"{{win_rate = {t.win_rate:g}, points = {t.points:g}}}"
                                   for t in question.thresholds)
                lines += [f"[thresholds.{variant.id}]", f"{question.key} = [{listed}]", ""]
    lines += ["# The course server (hog serve): its public address and the assignments students submit to.",
              serving.example_text()]
    return "\n".join(lines).rstrip("\n") + "\n"


def _quoted(text: str) -> str:
    """``text`` as a TOML basic string: JSON's escapes are TOML's, but for DEL, which TOML wants escaped."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
