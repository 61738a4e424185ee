"""How a failing case reads, the way the course's ok client shows it, and how a graded submission's whole
report reads where the course server graded it (submit.py prints it as ``hog grade`` would).

Shipped in every student folder (used by conftest.py) and used by the grader's
reports, so students see the same thing locally and from the autograder.
Standard library only.
"""

import textwrap

RULE = "-" * 69
UNLOCKED = ".u"           # a results.json entry that says whether a question's locked cases were unlocked
SHOWN_LINES, SHOWN_CHARACTERS = 12, 800
NOTHING = "Nothing: the line returned None and printed nothing"
# The command that reruns one question in a student's folder (the grader's reports show it too).
RERUN = "python -m pytest -k q{number}"


def shorten(text):
    """At most a dozen lines and 800 characters of a long output, saying how much is left out."""
    lines = text.rstrip("\n").splitlines()
    kept, size = [], 0
    for line in lines[:SHOWN_LINES]:
        if size + len(line) > SHOWN_CHARACTERS:
            kept.append(line[:max(SHOWN_CHARACTERS - size, 40)] + " ...")
            break
        kept.append(line)
        size += len(line)
    shown = "\n".join(kept)
    left = len("\n".join(lines)) - len(shown[:-len(" ...")] if shown.endswith(" ...") else shown)   # Python 3.8
    if left > 0:
        kept.append(f"(... {left} more characters)")
    return "\n".join(kept)


def commented(text):
    """Output as the ok client prints it under '# Error: expected' and '# but got'."""
    lines = shorten(text).splitlines() or [NOTHING]
    return "\n".join("#     " + line for line in lines)


def failure(heading, where, session_lines, want, got, rerun, diagnosis=None):
    """The whole report of one failing case; ``diagnosis``: its first wrong step and the rules deciding it
    (a dict of ``text`` and ``rules``, as the grader's results hold it), or None."""
    return "\n".join([
        RULE, heading, where, "",
        *session_lines, "",
        "# Error: expected", commented(want), "# but got", commented(got), "",
        *diagnosis_lines(diagnosis),
        f"Run only this question:  {rerun}",
        RULE,
    ])


def diagnosis_lines(diagnosis):
    """A diagnosis as a failing case shows it: its text wrapped, the rules it names, a blank line."""
    if not diagnosis:
        return []
    rules = diagnosis.get("rules") or []
    text = "Diagnosis: " + diagnosis["text"] + (" (the handout's rules: " + ", ".join(rules) + ")" if rules else "")
    return textwrap.wrap(text, 100, subsequent_indent="  ") + [""]


def graded_report(result, hog):
    """The text ``hog grade`` prints, up to its ``Score:`` line (what follows, the isolation, the time and
    the seed, is the course staff's), from the ``hog grade --format json`` object the server keeps."""
    isolation, summary = result.get("isolation", ""), result.get("output", "")
    marker = f"). Isolation: {isolation}."
    title = summary[len("Hog ("):summary.find(marker)] if summary.startswith("Hog (") and marker in summary else ""
    lines = [RULE, f"Hog ({title}): {hog}" if title else f"Hog: {hog}"]
    if result.get("grader_failed"):
        lines += [RULE, summary, "Score: 0 (this is a fault of the kit, not of the submission; please report it)"]
        return "\n".join(lines) + "\n"
    imported = "\nhog.py could not be imported: "
    import_error = summary.split(imported, 1)[1] if imported in summary else None
    if import_error is not None:
        lines += ["", "hog.py could not be imported, so no question could be graded:", import_error]
    lines.append(RULE)
    tests = result.get("tests", [])
    questions = [test for test in tests if not str(test.get("number", "")).endswith(UNLOCKED)]
    functions = [_function(test) for test in questions]
    width = max(map(len, filter(None, functions)), default=0)
    explanations = []
    for test, function in zip(questions, functions):
        head, _, explanation = test.get("output", "").partition("\n\n")
        counts, _, message = head.partition("\n")
        passed = test.get("status") == "passed"
        state = "passed" if passed else ("partly" if test["score"] else "failed")
        named = f"Question {test['number']:>3}  {function:<{width}}" if function is not None \
            else f"{test['name']:<{width + 14}}"   # a test of an imported okpy suite, named by its own name
        lines.append(f"{named}  {state:<6}  "
                     f"{test['score']:g}/{test['max_score']:g}  ({counts.split(' ')[0]} cases)")
        if message:
            lines.append(f"              {message}")
        if not passed and explanation and import_error is None:
            explanations.append(explanation)
    for test in tests:
        if str(test.get("number", "")).endswith(UNLOCKED):
            lines.append(_unlock_line(test))
    for explanation in explanations:
        lines += [RULE, explanation]
    lines += [RULE, f"Score: {result['score']:g}/{result['max_score']:g}"]
    return "\n".join(lines) + "\n"


def _function(test):
    """The function a kit's question grades (``Question 5: Title (take_turn)``), or None for a test named
    otherwise (an imported okpy test's own name)."""
    name = test["name"]
    if name.startswith(f"Question {test['number']}: ") and name.endswith(")") and " (" in name:
        return name[name.rfind(" (") + 2:-1]
    return None


def _unlock_line(test):
    label, output = str(test["number"])[:-len(UNLOCKED)], test.get("output", "")
    number = output.split("unlock.py -q ", 1)[1].split(" ", 1)[0] if "unlock.py -q " in output else label
    state = "unlocked" if test.get("status") == "passed" else \
        f"locked: {output.split(' ', 1)[0]} answered (python3 unlock.py -q {number})"
    points = f"  {test['score']:g}/{test['max_score']:g}" if test.get("max_score") else ""
    return f"Unlock   {label:>3}  {state}{points}"
