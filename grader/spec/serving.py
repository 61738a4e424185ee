"""The course server's tables of ``hog-course.toml``: ``[server]`` and one ``[assignments.NAME]`` each, and
the course's ``time_zone`` at the top of the file (an IANA name, e.g. ``"America/Los_Angeles"``; UTC when
not given): due dates are shown in it, and late days count its calendar days.

```toml
[server]
url = "https://hog.example.edu"          # the public address: sign-in links start with it

[assignments.hog]
variant = "sp19"                         # or manifest = "rosters/r7_section.csv" (hog assign --roster)
opens = 2026-09-01T09:00:00-07:00        # ISO 8601 with a time zone (a TOML date-time or a string)
due = 2026-09-15T23:59:00-07:00
late_days = 2                            # days after `due` a submission is still taken
penalty_per_day = 0.1                    # the share of the score taken off per late day
submissions_per_hour = 10                # per student (per group where there are groups)
score = "last"                           # the counted submission: "last" or "best"
suite = "hog-sp24"                       # graded with this imported okpy suite (hog import-ok); "kit+..." with both
regrade_requests_days = 7                # days after the release of the grades by hand to ask for a regrade
group_size = 2                           # students per group, one submission for the group (default 1: none)
hidden_cases = "after_due"               # "counted" (never shown), "after_due" (once no one can submit), "shown"
early = 2026-09-14T23:59:00-07:00        # early_points for the whole project passing by then (no extensions)
early_points = 1
diagnoses = false                        # failing cases without their diagnosis (default true)

[assignments.hog.checkpoint]             # points for the checkpoint's questions passing by its due date
due = 2026-09-08T23:59:00-07:00
questions = ["1", "2", "3", "4", "5"]    # (default: the spec's phase 1)
points = 1
```
Each assignment may have a rubric that staff grade by hand (``grader.spec.rubric``).
Errors name the file, the line and the fix, as every error of the course config does.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone, tzinfo
from pathlib import PurePosixPath
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from grader.spec import rubric as rubrics
from grader.spec.config_error import ConfigError

DEFAULT_URL = "http://127.0.0.1:8000"
SERVER_KEYS = ("url", "frame_ancestors", "proxies")
ORIGIN = re.compile(r"https?://(\*\.)?[A-Za-z0-9.-]+(:[0-9]{1,5})?")   # a page that may frame the server's
ASSIGNMENT_KEYS = ("variant", "manifest", "opens", "due", "late_days", "penalty_per_day",
                   "submissions_per_hour", "score", "suite", "regrade_requests_days", "rubric", "rubric_groups",
                   "group_size", "hidden_cases", "early", "early_points", "checkpoint", "diagnoses")
CHECKPOINT_KEYS = ("due", "questions", "points")
SCORES = ("last", "best")
HIDDEN_CASES = ("counted", "after_due", "shown")   # when a student sees the hidden cases a submission failed
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
SUITE = re.compile(r"(kit\+)?[a-z0-9][a-z0-9_-]*")   # an imported okpy suite's name, as --suite takes it


@dataclass(frozen=True)
class Checkpoint:
    """A date by which some questions pass for ``points`` more (CS 61A's phase 1 checkpoint)."""
    due: datetime
    questions: tuple[str, ...] | None   # question labels; None: the spec's phase 1
    points: float


@dataclass(frozen=True)
class Assignment:
    name: str
    variant: str | None          # one variant for everyone, or
    manifest: str | None         # a roster's manifest (relative to the course folder): a variant per student
    opens: datetime | None
    due: datetime
    late_days: int = 0
    penalty_per_day: float = 0.0
    submissions_per_hour: int = 20
    score: str = "last"
    suite: str | None = None     # an imported okpy suite graded instead of the kit's cases ("kit+NAME": both)
    rubric: rubrics.Rubric = rubrics.Rubric()   # what staff grade by hand
    regrade_requests_days: int = 7   # after the manual grades' release; 0: none taken
    group_size: int = 1          # students per group (1: no groups)
    hidden_cases: str = "counted"   # one of HIDDEN_CASES
    checkpoint: Checkpoint | None = None
    early: datetime | None = None   # the whole project passing by then earns early_points (no extension moves it)
    early_points: float = 0.0
    zone: tzinfo = timezone.utc  # the course's time zone, whose calendar days the late days count
    diagnoses: bool = True       # a failing case shows its first wrong step and the rules deciding it

    @property
    def bonus_max(self) -> float:
        """The points past the autograder's: the checkpoint's and the early bonus's."""
        return (self.checkpoint.points if self.checkpoint else 0.0) + (self.early_points if self.early else 0.0)


@dataclass(frozen=True)
class Server:
    url: str = DEFAULT_URL
    assignments: tuple[Assignment, ...] = ()
    frame_ancestors: tuple[str, ...] = ()    # origins besides the server's own whose pages may frame it (an LMS)
    proxies: tuple[str, ...] = ()            # addresses of the proxies in front whose X-Forwarded-For is trusted
    time_zone: str = "UTC"                   # the course's (``time_zone`` at the top of the file), an IANA name

    def assignment(self, name: str) -> Assignment | None:
        return next((each for each in self.assignments if each.name == name), None)

    @property
    def secure(self) -> bool:
        return self.url.startswith("https://")


def _when(value, shown: str, line: int | None, what: str) -> datetime:
    fix = "write an ISO 8601 date-time with its time zone, e.g. 2026-09-15T23:59:00-07:00"
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            raise ConfigError(shown, line, f"{what} {value!r} is not a date-time", fix) from None
    if not isinstance(value, datetime):
        raise ConfigError(shown, line, f"{what} is {value!r}, not a date-time", fix)
    if value.tzinfo is None:
        raise ConfigError(shown, line, f"{what} {value.isoformat()} has no time zone", fix)
    return value


def zone(data: dict, shown: str, lines: dict) -> tuple[str, tzinfo]:
    """The course's ``time_zone`` (its name, and the zone), checked: an IANA name this machine has (or the
    ``tzdata`` package, a requirement of the kit, has)."""
    name = data.get("time_zone", "UTC")
    fix = 'write an IANA time zone name, e.g. time_zone = "America/Los_Angeles" (or "UTC")'
    if not isinstance(name, str) or not name:
        raise ConfigError(shown, lines.get("time_zone"), f"time_zone is {name!r}, not a time zone's name", fix)
    try:
        return name, ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(shown, lines.get("time_zone"), f"time_zone {name!r} is not a known IANA time zone",
                          fix) from None


def machine_zone() -> str:
    """This machine's time zone as an IANA name (``TZ``, else where /etc/localtime points), "UTC" where it
    has none by name: what ``hog init`` writes for a new course, to be edited."""
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    with contextlib.suppress(OSError):
        candidates.append(os.readlink("/etc/localtime").partition("zoneinfo/")[2])
    for name in candidates:
        with contextlib.suppress(ConfigError):
            if name and not name.startswith("/"):
                return zone({"time_zone": name}, "", {})[0]
    return "UTC"


def _whole(value, shown: str, line: int | None, what: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ConfigError(shown, line, f"{what} is {value!r}", f"write a whole number, {least} or more")
    return value


def _points(value, shown: str, line: int | None, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < float("inf"):
        raise ConfigError(shown, line, f"{what} is {value!r}", "write the points, a number 0 or more, e.g. 1")
    return float(value)


def _checkpoint(table, shown: str, lines: dict, here: str, due: datetime) -> Checkpoint:
    where = f"{here}.checkpoint"
    if not isinstance(table, dict):
        raise ConfigError(shown, lines.get(where), f"{where} is not a table",
                          f"write [{where}] with due, questions and points")
    for key in table:
        if key not in CHECKPOINT_KEYS:
            raise ConfigError(shown, lines.get(f"{where}.{key}", lines.get(where)), f"[{where}] has an unknown key "
                              f"'{key}'", f"the keys are {', '.join(CHECKPOINT_KEYS)}")
    if "due" not in table:
        raise ConfigError(shown, lines.get(where), f"[{where}] has no due date",
                          "write due = 2026-09-08T23:59:00-07:00 (with its time zone)")
    when = _when(table["due"], shown, lines.get(f"{where}.due"), f"{where}.due")
    if when > due:
        raise ConfigError(shown, lines.get(f"{where}.due"), f"{where} is due after {here}",
                          "make the checkpoint's due date no later than the assignment's")
    questions = table.get("questions")
    named = isinstance(questions, list) and questions and all(
        isinstance(q, (str, int)) and not isinstance(q, bool) for q in questions)
    if questions is not None and not named:
        raise ConfigError(shown, lines.get(f"{where}.questions"), f"{where}.questions is {questions!r}",
                          'write the questions\' numbers, e.g. questions = ["1", "2", "3"] '
                          "(default: the spec's phase 1)")
    return Checkpoint(when, tuple(str(q).lstrip("0") or "0" for q in questions) if questions is not None else None,
                      _points(table.get("points", 1), shown, lines.get(f"{where}.points"), f"{where}.points"))


def _assignment(name: str, table, shown: str, lines: dict, known: list[str], course_zone: tzinfo) -> Assignment:
    here = f"assignments.{name}"
    if not NAME.fullmatch(name):
        raise ConfigError(shown, lines.get(here), f"[{here}]: an assignment's name is letters, digits, - and _",
                          "rename it, e.g. [assignments.hog]")
    if not isinstance(table, dict):
        raise ConfigError(shown, lines.get(here), f"{here} is not a table", f"write [{here}] and its keys")
    for key in table:
        if key not in ASSIGNMENT_KEYS:
            raise ConfigError(shown, lines.get(f"{here}.{key}", lines.get(here)), f"[{here}] has an unknown key "
                              f"'{key}'", f"the keys are {', '.join(ASSIGNMENT_KEYS)}")
    variant, manifest = table.get("variant"), table.get("manifest")
    if (variant is None) == (manifest is None):
        raise ConfigError(shown, lines.get(here), f"[{here}] needs either variant or manifest",
                          'write variant = "sp19", or manifest = "rosters/....csv" from hog assign --roster')
    if variant is not None and variant not in known:
        raise ConfigError(shown, lines.get(f"{here}.variant"), f"{here}.variant names {variant!r}, which is "
                          "neither built in nor in the course's specs/", f"known variants: {', '.join(known)}")
    if manifest is not None and (not isinstance(manifest, str) or PurePosixPath(manifest).is_absolute()
                                 or ".." in PurePosixPath(manifest).parts):
        raise ConfigError(shown, lines.get(f"{here}.manifest"), f"{here}.manifest is {manifest!r}",
                          "write the manifest's path inside the course folder, e.g. \"rosters/r7_section.csv\"")
    if "due" not in table:
        raise ConfigError(shown, lines.get(here), f"[{here}] has no due date",
                          "write due = 2026-09-15T23:59:00-07:00 (with its time zone)")
    due = _when(table["due"], shown, lines.get(f"{here}.due"), f"{here}.due")
    opens = _when(table["opens"], shown, lines.get(f"{here}.opens"), f"{here}.opens") if "opens" in table else None
    if opens is not None and opens >= due:
        raise ConfigError(shown, lines.get(f"{here}.opens"), f"{here} opens after it is due",
                          "make opens earlier than due")
    penalty = table.get("penalty_per_day", 0.0)
    if isinstance(penalty, bool) or not isinstance(penalty, (int, float)) or not 0 <= penalty <= 1:
        raise ConfigError(shown, lines.get(f"{here}.penalty_per_day"), f"{here}.penalty_per_day is {penalty!r}",
                          "write the share of the score taken off per late day, from 0 to 1, e.g. 0.1")
    score = table.get("score", "last")
    if score not in SCORES:
        raise ConfigError(shown, lines.get(f"{here}.score"), f"{here}.score is {score!r}",
                          'write score = "last" (the latest submission counts) or "best"')
    suite = table.get("suite")
    if suite is not None and not (isinstance(suite, str) and SUITE.fullmatch(suite)):
        raise ConfigError(shown, lines.get(f"{here}.suite"), f"{here}.suite is {suite!r}",
                          'write the name an okpy suite was imported under (hog import-ok), e.g. suite = "hog-sp24", '
                          'or "kit+hog-sp24" to grade with the kit\'s cases too')
    hidden = table.get("hidden_cases", "counted")
    if hidden not in HIDDEN_CASES:
        raise ConfigError(shown, lines.get(f"{here}.hidden_cases"), f"{here}.hidden_cases is {hidden!r}",
                          'write hidden_cases = "counted" (never shown), "after_due" (shown once no student can '
                          'submit any more) or "shown"')
    early = _when(table["early"], shown, lines.get(f"{here}.early"), f"{here}.early") if "early" in table else None
    if early is not None and early > due:
        raise ConfigError(shown, lines.get(f"{here}.early"), f"{here}.early is after its due date",
                          "make early no later than due")
    if "early_points" in table and early is None:
        raise ConfigError(shown, lines.get(f"{here}.early_points"), f"{here}.early_points without an early date",
                          "write early = DATE-TIME (by when the whole project passes), or remove early_points")
    diagnoses = table.get("diagnoses", True)
    if type(diagnoses) is not bool:
        raise ConfigError(shown, lines.get(f"{here}.diagnoses"), f"{here}.diagnoses is {diagnoses!r}",
                          "write diagnoses = true (a failing case names its first wrong step and the rules "
                          "deciding it) or diagnoses = false")
    return Assignment(name, variant, manifest, opens, due,
                      _whole(table.get("late_days", 0), shown, lines.get(f"{here}.late_days"),
                             f"{here}.late_days", 0),
                      float(penalty),
                      _whole(table.get("submissions_per_hour", 20), shown,
                             lines.get(f"{here}.submissions_per_hour"), f"{here}.submissions_per_hour", 1),
                      score, suite, rubrics.read(table, shown, lines, here),
                      _whole(table.get("regrade_requests_days", 7), shown, lines.get(f"{here}.regrade_requests_days"),
                             f"{here}.regrade_requests_days", 0),
                      _whole(table.get("group_size", 1), shown, lines.get(f"{here}.group_size"),
                             f"{here}.group_size", 1),
                      hidden,
                      _checkpoint(table["checkpoint"], shown, lines, here, due) if "checkpoint" in table else None,
                      early, _points(table.get("early_points", 1 if early else 0), shown,
                                     lines.get(f"{here}.early_points"), f"{here}.early_points"),
                      course_zone, diagnoses)


def read(data: dict, shown: str, lines: dict, known: list[str]) -> Server:
    """The ``[server]`` and ``[assignments.*]`` tables of a parsed config, checked."""
    server = data.get("server", {})
    if not isinstance(server, dict):
        raise ConfigError(shown, lines.get("server"), "server is not a table", 'write [server] and url = "https://..."')
    for key in server:
        if key not in SERVER_KEYS:
            raise ConfigError(shown, lines.get(f"server.{key}"), f"[server] has an unknown key '{key}'",
                              f"the keys are {', '.join(SERVER_KEYS)}")
    url = server.get("url", DEFAULT_URL)
    if not isinstance(url, str) or not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", url):
        raise ConfigError(shown, lines.get("server.url"), f"server.url is {url!r}",
                          'write the address students open, e.g. url = "https://hog.example.edu"')
    framing = server.get("frame_ancestors", [])
    if not isinstance(framing, list) or not all(isinstance(each, str) and ORIGIN.fullmatch(each) for each in framing):
        raise ConfigError(shown, lines.get("server.frame_ancestors"), f"server.frame_ancestors is {framing!r}",
                          'write a list of origins whose pages may show the server in a frame, e.g. '
                          'frame_ancestors = ["https://canvas.example.edu"] (scheme and host, no path)')
    proxies = server.get("proxies", [])
    if not isinstance(proxies, list) or not all(isinstance(each, str) and _address(each) for each in proxies):
        raise ConfigError(shown, lines.get("server.proxies"), f"server.proxies is {proxies!r}",
                          'write the IP addresses of the proxies in front of the server, whose X-Forwarded-For is '
                          'trusted, e.g. proxies = ["127.0.0.1"]')
    assignments = data.get("assignments", {})
    if not isinstance(assignments, dict):
        raise ConfigError(shown, lines.get("assignments"), "assignments is not a table",
                          "write one [assignments.NAME] table per assignment")
    zone_name, course_zone = zone(data, shown, lines)
    return Server(url.rstrip("/"), tuple(_assignment(name, table, shown, lines, known, course_zone)
                                         for name, table in assignments.items()), tuple(framing),
                  tuple(str(ipaddress.ip_address(each)) for each in proxies), zone_name)


def _address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def example_text() -> str:
    """The commented example ``hog init`` puts in a new course's config."""
    body = __doc__.split("```toml\n", 1)[1].split("```", 1)[0]
    return "".join(f"# {line}\n" if line else "#\n" for line in body.splitlines())
