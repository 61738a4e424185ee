"""Every pair of a batch's submissions compared by their fingerprints, MOSS-style.

Two kinds of fingerprint never count: those of the code the skeleton hands
out (its ``hog.py``, for every variant of the batch), and those found in more
than ``max_share`` submissions of the batch: a Hog function has few natural
shapes, and what many independent solutions share is no sign of copying.

A pair's score is the share of the smaller program's counted fingerprints that
the other program holds too (so a submission that is mostly someone else's
code scores high even when the other is longer), with at least
``MIN_FINGERPRINTS`` in the denominator, so that a nearly empty submission
does not match everything. Two submissions of different variants are compared
on the functions both variants' references share unchanged (the rule
functions differ by design); each pair says which functions were compared.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import combinations

from grader.report.progress import SILENT, Progress
from grader.similarity.fingerprint import MODULE, Program

MIN_FINGERPRINTS = 25
THRESHOLD = 0.5                 # pairs at or above it are listed
MAX_SHARE = 10                  # MOSS's default: passages found in more than 10 programs are ignored


@dataclass(frozen=True)
class Entry:
    """A submission to compare: its name in the batch, its variant (None when unknown), its program."""
    name: str
    variant: str | None
    program: Program
    lines: tuple[str, ...]      # its source, for the regions shown side by side


@dataclass(frozen=True)
class Region:
    a_function: str
    b_function: str
    a_shared: tuple[int, ...]   # the lines, in order, that shared fingerprints cover
    b_shared: tuple[int, ...]
    fingerprints: int

    @property
    def a_lines(self) -> tuple[int, int]:
        """The first and last line of the region in a."""
        return self.a_shared[0], self.a_shared[-1]

    @property
    def b_lines(self) -> tuple[int, int]:
        return self.b_shared[0], self.b_shared[-1]


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    score: float
    shared: int                 # fingerprints counted in both
    compared: tuple[str, ...] | None    # the functions compared, None for all (same variant)
    regions: tuple[Region, ...]

    @property
    def functions(self) -> list[str]:
        """The functions the shared code lies in: one name, or "a_name / b_name" when they differ."""
        seen: dict[str, int] = {}
        for region in self.regions:
            name = region.a_function if region.a_function == region.b_function \
                else f"{region.a_function} / {region.b_function}"
            seen[name] = seen.get(name, 0) + region.fingerprints
        return sorted(seen, key=lambda name: (-seen[name], name))


def _counted(entry: Entry, ignored: set[int], units: frozenset[str] | None) -> set[int]:
    return entry.program.hashes_in(units) - ignored


def compare(entries: list[Entry], *, skeleton: set[int], shared_functions: dict[frozenset[str], frozenset[str]],
            max_share: int, threshold: float = THRESHOLD, progress: Progress = SILENT) -> list[Pair]:
    """The pairs scoring at least ``threshold``, highest first. ``shared_functions`` names, for two
    variants, the functions they share unchanged (a pair of variants missing from it shares none).
    ``progress`` shows the pairs compared (those sharing any fingerprint)."""
    holders: Counter[int] = Counter()
    for entry in entries:
        holders.update(entry.program.fingerprints.keys())
    ignored = set(skeleton) | {h for h, count in holders.items() if count > max_share}
    every = [_counted(entry, ignored, None) for entry in entries]
    by_hash: dict[int, list[int]] = defaultdict(list)
    for index, hashes in enumerate(every):
        for h in hashes:
            by_hash[h].append(index)
    together: Counter[tuple[int, int]] = Counter()
    for indices in by_hash.values():
        together.update(combinations(indices, 2))
    restricted: dict[tuple[int, frozenset[str]], set[int]] = {}   # a submission's fingerprints in some functions

    def within(index: int, units: frozenset[str]) -> set[int]:
        if (index, units) not in restricted:
            restricted[(index, units)] = _counted(entries[index], ignored, units)
        return restricted[(index, units)]

    pairs = []
    with progress.task("comparing pairs", len(together)) as advance:
        for (i, j), count in together.items():
            a, b = entries[i], entries[j]
            units = None if a.variant == b.variant or None in (a.variant, b.variant) \
                else shared_functions.get(frozenset((a.variant, b.variant)), frozenset())
            if units is None:
                mine, theirs = every[i], every[j]
            else:
                mine, theirs = within(i, units), within(j, units)
                count = len(mine & theirs)
            score = count / max(min(len(mine), len(theirs)), MIN_FINGERPRINTS)
            if count and score >= threshold:
                pairs.append(Pair(a.name, b.name, round(min(score, 1.0), 4), count,
                                  None if units is None else tuple(sorted(units)), _regions(a, b, mine & theirs)))
            advance()
    return sorted(pairs, key=lambda pair: (-pair.score, pair.a, pair.b))


def _regions(a: Entry, b: Entry, shared: set[int]) -> tuple[Region, ...]:
    """One region per pair of units holding shared fingerprints: each side's span and covered lines."""
    spans: dict[tuple[int, int], list] = defaultdict(lambda: [set(), set(), 0])
    for h in shared:
        place_a, place_b = a.program.fingerprints[h][0], b.program.fingerprints[h][0]
        span = spans[(place_a[0], place_b[0])]
        span[0] |= a.program.lines_of(place_a)
        span[1] |= b.program.lines_of(place_b)
        span[2] += 1
    regions = []
    for (unit_a, unit_b), (a_lines, b_lines, count) in spans.items():
        regions.append(Region(a.program.units[unit_a].name, b.program.units[unit_b].name,
                              tuple(sorted(a_lines)), tuple(sorted(b_lines)), count))
    return tuple(sorted(regions, key=lambda r: (-r.fingerprints, r.a_lines)))


def shared_functions(references: dict[str, Program]) -> dict[frozenset[str], frozenset[str]]:
    """For every two variants, the functions their references define with the same fingerprints
    (same name, same code up to identifiers and literals): what two students of different
    variants may be compared on."""
    def units(program: Program) -> dict[str, frozenset[int]]:
        found: dict[str, set[int]] = defaultdict(set)
        for h, places in program.fingerprints.items():
            for unit, _ in places:
                found[program.units[unit].name].add(h)
        return {name: frozenset(hashes) for name, hashes in found.items() if name != MODULE}

    by_variant = {variant: units(program) for variant, program in references.items()}
    shared = {}
    for first, second in combinations(sorted(by_variant), 2):
        one, other = by_variant[first], by_variant[second]
        shared[frozenset((first, second))] = frozenset(name for name in one if one[name] == other.get(name))
    return shared
