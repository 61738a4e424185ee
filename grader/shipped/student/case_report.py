"""How a failing case reads, the way the course's ok client shows it.

Shipped in every student folder (used by conftest.py) and used by the grader's
reports, so students see the same thing locally and from the autograder.
Standard library only.
"""

RULE = "-" * 69
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
    left = len("\n".join(lines)) - len("\n".join(kept).removesuffix(" ..."))
    if left > 0:
        kept.append(f"(... {left} more characters)")
    return "\n".join(kept)


def commented(text):
    """Output as the ok client prints it under '# Error: expected' and '# but got'."""
    lines = shorten(text).splitlines() or [NOTHING]
    return "\n".join("#     " + line for line in lines)


def failure(heading, where, session_lines, want, got, rerun):
    """The whole report of one failing case."""
    return "\n".join([
        RULE, heading, where, "",
        *session_lines, "",
        "# Error: expected", commented(want), "# but got", commented(got), "",
        f"Run only this question:  {rerun}",
        RULE,
    ])
