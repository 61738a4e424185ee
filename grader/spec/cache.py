"""Parsed specs kept as plain data in the grader's signed cache: a run whose spec is unchanged
skips YAML and the session parser.

The spec file stays the one source. An entry is keyed by a digest of the spec's text, the path it
is shown under, the Python version and the source of every module that reads a spec (``READERS``),
so an edit of any of them makes the entry stale; only a spec that passed every check is stored.
Entries are JSON (plain data: never pickle) signed like every file of the cache
(``grader.project.signed_cache``); a missing, stale, changed or unreadable entry means the spec is parsed again.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import fields, is_dataclass
from pathlib import Path

from grader import project
from grader.project import signed_cache
from grader.spec.choices import Alternative
from grader.spec.model import Case, Composition, Phase, Question, Rule, Step, Threshold, Variant
from grader.spec.unlock import Concept, Unlock

MODELS = {model.__name__: model for model in (Variant, Phase, Rule, Question, Threshold, Case, Step, Unlock,
                                              Concept, Alternative, Composition)}
READERS = ("spec/*.py", "errors.py", "shipped/student/*.py", "catalogue/*.py")
"""The modules whose code decides what a spec becomes (globs under grader/): any change makes entries stale."""
KEPT_PER_SPEC = 4   # entries kept per spec file: the newest


def _readers_digest() -> bytes:
    digest = hashlib.sha256(sys.version.encode("utf-8"))
    for pattern in READERS:
        for path in sorted(project.PACKAGE.glob(pattern)):
            digest.update(path.relative_to(project.PACKAGE).as_posix().encode("utf-8") + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.digest()


_readers: list[bytes] = []   # the digest of READERS, computed once a process


def key(text: str, shown: str) -> str:
    """Changes whenever the spec's text, where it is shown, or the code that reads it changes."""
    if not _readers:
        _readers.append(_readers_digest())
    digest = hashlib.sha256(_readers[0])
    digest.update(shown.encode("utf-8") + b"\0" + text.encode("utf-8"))
    return digest.hexdigest()[:24]


def _entry(shown: str, entry_key: str) -> str:
    return f"{Path(shown).stem}-{entry_key}.json"


def _data(text: str, shown: str) -> dict | None:
    """The plain data of the variant parsed from ``text`` before, or None."""
    entry_key = key(text, shown)
    return signed_cache.found("specs", _entry(shown, entry_key), entry_key, "parsed spec", _variant_data)


def _variant_data(payload: bytes) -> dict | None:
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    return data if isinstance(data, dict) and data.get("") == "Variant" else None


def read(text: str, shown: str) -> Variant | None:
    """The variant parsed from ``text`` before, or None (never parsed, or its entry is unusable)."""
    data = _data(text, shown)
    try:
        return model(data) if data is not None else None
    except (KeyError, TypeError):   # written by another version of the model
        return None


def _titles_entry(specs: dict[str, tuple[str, str]]) -> tuple[str, str]:
    digest = hashlib.sha256()
    for variant_id, (text, shown) in sorted(specs.items()):
        digest.update(f"{variant_id}\0{key(text, shown)}\0".encode("utf-8"))
    titles_key = digest.hexdigest()[:24]
    return f"titles-{titles_key}.json", titles_key


def titles(specs: dict[str, tuple[str, str]]) -> dict[str, str] | None:
    """Each variant's title by id, kept for these specs (id → (text, shown)), or None: one small entry,
    so telling which variant a hog.py declares does not build every variant."""
    def load(payload: bytes) -> dict | None:
        try:
            found = json.loads(payload)
        except ValueError:
            return None
        if not isinstance(found, dict) or sorted(found) != sorted(specs) or \
                not all(isinstance(title, str) for title in found.values()):
            return None
        return found
    file, titles_key = _titles_entry(specs)
    return signed_cache.found("specs", file, titles_key, "spec titles", load)


def write_titles(specs: dict[str, tuple[str, str]], found: dict[str, str]) -> None:
    """Keep the titles of these specs (each checked: taken from its variant)."""
    file, titles_key = _titles_entry(specs)
    signed_cache.store("specs", file, titles_key, json.dumps(found, ensure_ascii=False).encode("utf-8"),
                       keep=("titles-*.json", KEPT_PER_SPEC))


def write(text: str, shown: str, variant: Variant) -> None:
    """Keep a variant parsed (and checked) from ``text``; a cache that cannot be written is skipped."""
    entry_key = key(text, shown)
    payload = json.dumps(plain(variant), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    signed_cache.store("specs", _entry(shown, entry_key), entry_key, payload,
                       keep=(f"{Path(shown).stem}-*.json", KEPT_PER_SPEC))


def plain(value):
    """A model as JSON data: each dataclass a mapping with its class name under ``""``, tuples as lists."""
    if is_dataclass(value):
        return {"": type(value).__name__, **{f.name: plain(getattr(value, f.name)) for f in fields(value)}}
    if isinstance(value, tuple):
        return [plain(item) for item in value]
    if value is None or isinstance(value, (str, int, float)):
        return value
    raise TypeError(f"a spec model holds {type(value).__name__}, which the cache cannot keep")


def model(data):
    """The inverse of ``plain``."""
    if isinstance(data, dict):
        kind = MODELS[data[""]]
        return kind(**{name: model(value) for name, value in data.items() if name})
    if isinstance(data, list):
        return tuple(model(item) for item in data)
    return data
