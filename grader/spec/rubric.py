"""An assignment's rubric, for what staff grade by hand beside the autograder (composition: names,
repetition, comments): ``[[assignments.NAME.rubric]]`` items and ``[[assignments.NAME.rubric_groups]]``.

```toml
[[assignments.hog.rubric_groups]]
id = "style"
title = "Style"
floor = -3                               # the group's items together take off at most 3 points
ceiling = 0                              # and add none

[[assignments.hog.rubric]]
id = "names"
title = "Names say what they hold"
points = -1                              # a negative item deducts, a positive one adds
description = "e.g. x, y, tmp for scores" # optional: what staff and students read
group = "style"                          # optional: one of the rubric_groups
```
An item's points are read from here whenever a review is counted: a change applies to every review. An
item removed counts nothing any more (the reviews' history keeps what it was).
"""

from __future__ import annotations

from dataclasses import dataclass

from grader.spec.config_error import ConfigError

AUTOGRADER = "autograder"     # what a regrade request names for the autograder's part: no item may be called so
ITEM_KEYS = ("id", "title", "points", "description", "group")
GROUP_KEYS = ("id", "title", "floor", "ceiling")


@dataclass(frozen=True)
class Item:
    id: str
    title: str
    points: float
    description: str = ""
    group: str | None = None


@dataclass(frozen=True)
class Group:
    id: str
    title: str
    floor: float | None = None      # the least the group's items add together (None: no bound)
    ceiling: float | None = None    # the most


@dataclass(frozen=True)
class Rubric:
    items: tuple[Item, ...] = ()
    groups: tuple[Group, ...] = ()

    def item(self, item_id: str) -> Item | None:
        return next((each for each in self.items if each.id == item_id), None)

    @property
    def positive(self) -> float:
        """The most the rubric adds: its positive items, each group's held at its ceiling."""
        return self.points({item.id for item in self.items if item.points > 0})

    def points(self, applied: set[str]) -> float:
        """What the applied items add together (those no longer in the rubric count nothing), each
        group's sum held between its floor and its ceiling."""
        by_group: dict[str | None, float] = {}
        for item in self.items:
            if item.id in applied:
                by_group[item.group] = by_group.get(item.group, 0.0) + item.points
        total = by_group.pop(None, 0.0)
        for group in self.groups:
            found = by_group.get(group.id, 0.0)
            if group.floor is not None:
                found = max(group.floor, found)
            if group.ceiling is not None:
                found = min(group.ceiling, found)
            total += found
        return total


def _number(value, shown: str, line: int | None, what: str, fix: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or abs(value) == float("inf"):
        raise ConfigError(shown, line, f"{what} is {value!r}", fix)
    return float(value)


def _text(table: dict, key: str, shown: str, line: int | None, here: str, example: str) -> str:
    value = table.get(key)
    if value is None:
        raise ConfigError(shown, line, f"{here} has no {key}", f'write {key} = "{example}"')
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(shown, line, f"{here}.{key} is {value!r}", f'write {key} = "{example}"')
    return value.strip()


def _tables(value, shown: str, line: int | None, here: str, keys: tuple[str, ...], lines: dict) -> list[dict]:
    if not isinstance(value, list) or not all(isinstance(each, dict) for each in value):
        raise ConfigError(shown, line, f"{here} is not a list of tables", f"write one [[{here}]] per entry")
    for number, table in enumerate(value):
        for key in table:
            if key not in keys:
                raise ConfigError(shown, lines.get(f"{here}.{number}.{key}", line), f"[[{here}]] number "
                                  f"{number + 1} has an unknown key '{key}'", f"the keys are {', '.join(keys)}")
    return value


def read(table: dict, shown: str, lines: dict, here: str) -> Rubric:
    """The rubric of the assignment table ``table`` (at dotted name ``here``), checked."""
    groups, seen = [], set()
    where = f"{here}.rubric_groups"
    for number, entry in enumerate(_tables(table.get("rubric_groups", []), shown, lines.get(where), where,
                                           GROUP_KEYS, lines)):
        at = f"{where}.{number}"
        name = f"{where}[{number + 1}]"
        group_id = _text(entry, "id", shown, lines.get(f"{at}.id", lines.get(at)), name, "style")
        if group_id in seen:
            raise ConfigError(shown, lines.get(f"{at}.id"), f"rubric group id '{group_id}' is given twice",
                              "give each group an id of its own")
        seen.add(group_id)
        bounds = [None if key not in entry else _number(
            entry[key], shown, lines.get(f"{at}.{key}"), f"{name}.{key}", "write a number of points, e.g. -3")
                  for key in ("floor", "ceiling")]
        if None not in bounds and bounds[0] > bounds[1]:
            raise ConfigError(shown, lines.get(f"{at}.ceiling"), f"{name} has its floor ({bounds[0]:g}) above its "
                              f"ceiling ({bounds[1]:g})", "make floor at most ceiling")
        groups.append(Group(group_id, _text(entry, "title", shown, lines.get(at), name, "Style"), *bounds))
    items, ids = [], set()
    where = f"{here}.rubric"
    for number, entry in enumerate(_tables(table.get("rubric", []), shown, lines.get(where), where,
                                           ITEM_KEYS, lines)):
        at, name = f"{where}.{number}", f"{where}[{number + 1}]"
        item_id = _text(entry, "id", shown, lines.get(f"{at}.id", lines.get(at)), name, "names")
        if item_id == AUTOGRADER:
            raise ConfigError(shown, lines.get(f"{at}.id"), f"rubric item id '{AUTOGRADER}' is the autograder's "
                              "part, which a regrade request names", "choose another id")
        if item_id in ids:
            raise ConfigError(shown, lines.get(f"{at}.id"), f"rubric item id '{item_id}' is given twice",
                              "give each item an id of its own")
        ids.add(item_id)
        title = _text(entry, "title", shown, lines.get(at), name, "Names say what they hold")
        if "points" not in entry:
            raise ConfigError(shown, lines.get(at), f"{name} has no points", "write points = -1 (or 1: it adds)")
        points = _number(entry["points"], shown, lines.get(f"{at}.points"), f"{name}.points",
                         "write a number of points: a positive item adds, a negative one deducts, e.g. -1")
        if points == 0:
            raise ConfigError(shown, lines.get(f"{at}.points"), f"{name}.points is 0",
                              "a positive item adds, a negative one deducts: write e.g. 1 or -1")
        description = entry.get("description", "")
        if not isinstance(description, str):
            raise ConfigError(shown, lines.get(f"{at}.description"), f"{name}.description is {description!r}",
                              'write description = "what staff and students read"')
        group = entry.get("group")
        if group is not None and group not in seen:
            raise ConfigError(shown, lines.get(f"{at}.group"), f"{name} names the group {group!r}, which is not "
                              f"among [[{here}.rubric_groups]]",
                              f"the groups are {', '.join(sorted(seen))}" if seen else "add the group, or drop group")
        items.append(Item(item_id, title, points, description.strip(), group))
    return Rubric(tuple(items), tuple(groups))
