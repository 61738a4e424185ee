"""Unlock a question's cases: say what the code will show before you write it.

    python3 unlock.py -q 01    the locked cases and concept questions of question 1
    python3 unlock.py          the next question that still has something locked

Each locked case is shown as an interpreter session with ``?`` where its
answer goes; type what the line returns or prints. Concept questions ask about
the rules: type the number of the right choice. Ctrl-C or Ctrl-D saves your
progress and stops; run the same command to go on. Once every case and concept
question of a question is unlocked, ``python -m pytest -k q01`` runs its cases.

Answers are compared by the value they denote, the way the grader compares what
a call returns: ``1`` and `` 1`` are the same answer, ``1.0`` is not (the call
would show ``1.0``), ``'hog'`` and ``"hog"`` are the same string. Printed lines
are compared as text, line by line, trailing spaces ignored.

The folder holds the locked answers only as salted hashes (in ``tests/qNN.md``).
That keeps honest students honest; it is not a secret. Progress is kept in
``.hog_unlock.json`` beside ``hog.py``: the answers you typed, which the tests
use to run the unlocked cases. Standard library only.
"""

import argparse
import ast
import hashlib
import json
import os
import re
import stat
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRESS = ".hog_unlock.json"
MAX_PROGRESS_BYTES = 256 * 1024   # larger is not a progress file this script wrote: read as none
ITEM = re.compile(r"^<!-- (?P<kind>locked|concept) (?P<data>\{.*\}) -->$", re.M)
OK, WRONG = "-- OK! --", "-- Not quite. Try again! --"
RULE = "-" * 69
COMMAND = "python3 unlock.py -q {number}"


# ------------------------------------------------------------ comparing answers


def canonical(line):
    """(kind, text) of one answer line: a Python literal by its repr, anything else as text."""
    try:
        value = ast.literal_eval(line.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return "text", line.rstrip()
    return "value", repr(value)


def digest(salt, line):
    """The salted hash of an answer line, by the value it denotes."""
    kind, text = canonical(line)
    return hashlib.sha256(f"{salt}\0{kind}\0{text}".encode("utf-8")).hexdigest()


def prompts(item):
    """(salt, hash) of each answer an item asks for, in order."""
    if item["kind"] == "concept":
        return [(item["id"], item["answer"])]
    return [(f"{item['id']}/{step}/{line}", hashed)
            for step, entry in enumerate(item["steps"]) for line, hashed in enumerate(entry["lines"])]


def answered(item, answers):
    """Whether answers (the lines typed, in order) unlock the item."""
    wanted = prompts(item)
    return (isinstance(answers, list) and len(answers) == len(wanted)
            and all(isinstance(a, str) and digest(salt, a) == hashed for a, (salt, hashed) in zip(answers, wanted)))


# ------------------------------------------------------------ reading the folder


def items(path):
    """The locked cases and concept questions of one tests/qNN.md file."""
    found = []
    for match in ITEM.finditer(Path(path).read_text(encoding="utf-8")):
        item = json.loads(match["data"])
        item["kind"] = "concept" if match["kind"] == "concept" else "case"
        found.append(item)
    return found


def questions(folder=HERE):
    """Question number → its locked items, in the order of the files."""
    result = {}
    for path in sorted((Path(folder) / "tests").glob("q*.md")):
        found = items(path)
        if found:
            result[path.stem[1:]] = found
    return result


def load_progress(folder=HERE):
    """The answers saved in ``.hog_unlock.json``; none when it is missing, a link, not a regular
    file, larger than MAX_PROGRESS_BYTES or not JSON (the grader reads a submitted one this way)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        with os.fdopen(os.open(Path(folder) / PROGRESS, flags), "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return {}
            raw = handle.read(MAX_PROGRESS_BYTES + 1)
        if len(raw) > MAX_PROGRESS_BYTES:
            return {}
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    answers = data.get("answers") if isinstance(data, dict) else None
    return answers if isinstance(answers, dict) else {}


def save_progress(answers, folder=HERE):
    path = Path(folder) / PROGRESS
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps({"version": 1, "answers": answers}, indent=1, sort_keys=True) + "\n",
                         encoding="utf-8")
    os.replace(temporary, path)


def unlocked(item, progress):
    return answered(item, progress.get(item["id"]))


def revealed(item, progress):
    """The doctest of an unlocked case, rebuilt from the student's own answers; None while locked."""
    answers = progress.get(item["id"])
    if item["kind"] != "case" or not answered(item, answers):
        return None
    lines, typed = list(item["setup"]), iter(answers)
    for step in item["steps"]:
        lines += _typed(step["source"])
        lines += [canonical(next(typed))[1] for _ in step["lines"]]
    return "\n".join(lines) + "\n"


def _typed(source):
    first, *rest = source.rstrip("\n").split("\n")
    return [">>> " + first] + ["... " + line for line in rest]


# ------------------------------------------------------------ the session


def _ask(salt, hashed):
    """Ask until the answer is right; EOFError or KeyboardInterrupt go up."""
    while True:
        answer = input("? ")
        if digest(salt, answer) == hashed:
            print(OK)
            return answer
        print(WRONG)


def _unlock_case(item, number):
    print(RULE)
    print(f"Question {number} > Case {item['id'].split('-', 1)[-1]}")
    print(f"({item['label']})")
    print()
    for line in item["setup"]:
        print(line)
    answers, wanted = [], iter(prompts(item))
    for step in item["steps"]:
        print("\n".join(_typed(step["source"])))
        for _ in step["lines"]:
            answers.append(_ask(*next(wanted)))
    return answers


def _unlock_concept(item, number):
    print(RULE)
    print(f"Question {number} > Concept {item['id'].rsplit('-c', 1)[-1]}")
    print()
    print(item["prompt"])
    for index, choice in enumerate(item["choices"], start=1):
        print(f"    {index}) {choice}")
    print("Type the number of the right choice.")
    return [_ask(*prompts(item)[0])]


def session(number, found, folder=HERE):
    """Unlock every item of one question, saving after each; return 0, or 1 when stopped."""
    progress = load_progress(folder)
    try:
        for item in found:
            if unlocked(item, progress):
                continue
            ask = _unlock_concept if item["kind"] == "concept" else _unlock_case
            progress[item["id"]] = ask(item, number)
            save_progress(progress, folder)
    except (EOFError, KeyboardInterrupt):
        print(f"\nProgress saved in {PROGRESS}; run '{COMMAND.format(number=number)}' to go on.")
        return 1
    print(RULE)
    print(f"Question {number} is unlocked. Run its cases: python -m pytest -k q{number}")
    return 0


def _choose(wanted, found, folder):
    if wanted is None:
        progress = load_progress(folder)
        return next((n for n, items_ in found.items() if not all(unlocked(i, progress) for i in items_)), None)
    key = wanted.lower().removeprefix("q").lstrip("0") or "0"
    return next((n for n in found if (n.lstrip("0") or "0") == key), "")


def main(argv=None, folder=HERE):
    parser = argparse.ArgumentParser(prog="unlock.py", description="Unlock a question's cases.")
    parser.add_argument("-q", "--question", metavar="N", help="the question, e.g. 1 or 01 (default: the next locked one)")
    args = parser.parse_args(argv)
    found = questions(folder)
    number = _choose(args.question, found, folder)
    if number is None:
        print("Every question is unlocked.")
        return 0
    if number == "":
        known = ", ".join(found) or "none"
        print(f"unlock.py: question {args.question} has nothing to unlock (questions with locked cases: {known})",
              file=sys.stderr)
        return 2
    return session(number, found[number], folder)


if __name__ == "__main__":
    sys.exit(main())
