"""Submit hog.py to your course's server and see its grade, hidden cases included.

    python3 submit.py            upload hog.py (and unlock.py's answers), wait for the grade, print the report
    python3 submit.py --status   the report of your latest submission (or where it is in the queue)

The report is the one ``hog grade`` prints: a line per question, the first failing public case of
each question that lost points (a failing hidden case is only counted), ending with the ``Score:`` line.

Your token is the end of the personal sign-in link your course staff sent you
(``https://.../signin/TOKEN``). It is read from the environment variable HOG_TOKEN, else from the
file ``.hog-token`` in this folder; otherwise this script asks for it once (paste the token or the
whole link) and keeps it in ``.hog-token``, readable by you alone. Do not hand that file in or share
it: whoever has the token can submit as you. Standard library only (Python 3.8 or later).
"""

import argparse
import getpass
import io
import json
import os
import stat
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from case_report import graded_report  # noqa: E402  (ships beside this file in every student folder)

# hog assign --server URL --assignment NAME writes these two lines.
SERVER = ""
ASSIGNMENT = ""

SUBMITTED = "hog.py"
ANSWERS = ".hog_unlock.json"   # unlock.py's answers: graded with hog.py, so they go with it (in a zip)
TOKEN_FILE = ".hog-token"
TOKEN_VARIABLE = "HOG_TOKEN"
SIGNIN = "/signin/"
WAIT = 300                # seconds to wait for the grade before leaving it to --status
REQUEST_TIMEOUT = 30      # seconds for one request to answer
STARTING = 20             # seconds a server that refuses connections is tried again, as it may be starting
RETRIES = 5               # times a request the server cannot take now (503) or cut off is tried again
LONGEST_PAUSE = 60        # seconds waited at most before trying again, whatever the server's Retry-After says
CUT_OFF_PAUSE = 2         # seconds before a request whose connection was reset is tried again
POLL = (1, 1, 1, 2, 2, 2, 3, 5)   # seconds between looks at the submission; the last repeats
DONE = ("graded", "grader failed")   # the server's last states of a submission
STILL_WAITING = 3         # exit code: accepted, not graded yet
STATUS = "python3 submit.py --status"


class Refused(Exception):
    """Something the student can act on; the message says what happened and what to do."""


# ------------------------------------------------------------------ the token


def token_from(text):
    """The token in what a student pastes: the token itself, or the whole sign-in link."""
    text = text.strip()
    if SIGNIN in text:
        text = text.split(SIGNIN, 1)[1].split("?", 1)[0].split("#", 1)[0].strip("/")
    return text


def stored_token(folder=HERE):
    """(token, where it came from) from HOG_TOKEN or .hog-token; (None, None) when neither has one."""
    if os.environ.get(TOKEN_VARIABLE, "").strip():
        return token_from(os.environ[TOKEN_VARIABLE]), f"in ${TOKEN_VARIABLE}"
    path = Path(folder) / TOKEN_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, None
    except (OSError, UnicodeDecodeError) as error:
        raise Refused(f"cannot read {path}: {getattr(error, 'strerror', None) or error} "
                      f"(remove it and run python3 submit.py again to type your token)") from None
    return (token_from(text) or None), f"in {TOKEN_FILE}"


def asked_token():
    """The token typed (or pasted) once; from a pipe, its first line."""
    prompt = "Your token (the end of your sign-in link, or the whole link): "
    try:
        text = getpass.getpass(prompt) if sys.stdin.isatty() else sys.stdin.readline()
    except (EOFError, KeyboardInterrupt):
        text = ""
    text = token_from(text)
    if not text:
        raise Refused(f"no token: paste the sign-in link your course staff sent you when asked, or set "
                      f"{TOKEN_VARIABLE}, or write the token into {TOKEN_FILE} in this folder")
    return text


def keep_token(token, folder=HERE):
    """Write .hog-token, readable and writable by its owner alone (mode 0600)."""
    path = Path(folder) / TOKEN_FILE
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(str(path), flags, stat.S_IRUSR | stat.S_IWUSR)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            if hasattr(os, "fchmod"):   # an older file's mode too (not on Windows, which has no such modes)
                os.fchmod(handle.fileno(), stat.S_IRUSR | stat.S_IWUSR)
            handle.write(token + "\n")
    except OSError as error:
        print(f"submit.py: could not keep your token in {path} ({error.strerror}); you will be asked again",
              file=sys.stderr)
        return
    print(f"Your token is kept in {TOKEN_FILE} (only you can read it; do not hand it in).", file=sys.stderr)


# ------------------------------------------------------------------ the server


class Server:
    """The course server's JSON API, as the student with ``token`` calls it."""

    def __init__(self, url, assignment, token, source):
        self.url, self.assignment, self.token, self.source = url.rstrip("/"), assignment, token, source

    def call(self, method, path, body=None, content_type=None, what="the request", patient=False):
        """The server's answer (status, JSON or text); Refused, saying why, when it refuses or is out of
        reach. ``what`` names the thing asked for, as a refusal speaks of it; ``patient``: a server that
        refuses connections (starting, or restarting at a deadline) is tried again for STARTING seconds."""
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json",
                   "User-Agent": "hog-submit"}
        if content_type:
            headers["Content-Type"] = content_type
        request = urllib.request.Request(self.url + path, data=body, headers=headers, method=method)
        deadline, tries = None, 0
        while True:
            try:
                with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as answer:
                    return answer.status, _decoded(answer.read(), answer.headers)
            except urllib.error.HTTPError as error:
                with error:
                    said = _decoded(error.read(), error.headers)
                if error.code != 503 or tries >= RETRIES:   # 503: it cannot take it now (nothing was kept)
                    raise Refused(self.refusal(error.code, _message(said, error.reason), what,
                                               error.headers.get("Retry-After"))) from None
                why = f"cannot take {what} now ({_message(said, error.reason)})"
                pause = _pause(error.headers.get("Retry-After"))
            except (urllib.error.URLError, OSError, ValueError) as error:
                reason = getattr(error, "reason", None) or error
                if patient and isinstance(reason, ConnectionRefusedError):   # the server (re)starting
                    if deadline is None:
                        deadline = time.monotonic() + STARTING
                        print(f"The course server at {self.url} does not answer yet; trying again for "
                              f"{STARTING} s (Ctrl-C stops).", file=sys.stderr)
                    if time.monotonic() < deadline:
                        time.sleep(1)
                        continue
                if not isinstance(reason, ConnectionResetError) or tries >= RETRIES:   # reset: cut off (a restart)
                    raise Refused(f"cannot reach the course server at {self.url} ({reason}): check your "
                                  f"connection and try again; if it persists, tell your course staff") from None
                why, pause = f"cut the connection off ({reason})", CUT_OFF_PAUSE
            tries += 1
            print(f"The course server {why}; trying again in {pause:g} s ({tries} of {RETRIES}, Ctrl-C stops).",
                  file=sys.stderr)
            time.sleep(pause)

    def refusal(self, code, said, what, retry_after):
        """What a refusal means for the student, with the server's own message."""
        server = f"the server says: {said}" if said else f"HTTP {code}"
        nothing = "; nothing was submitted" if what == SUBMITTED else ""
        if code == 401:
            fix = {f"in ${TOKEN_VARIABLE}": f"set {TOKEN_VARIABLE} to the token of your sign-in link",
                   f"in {TOKEN_FILE}": f"remove {TOKEN_FILE} and run python3 submit.py again to type the token "
                                       f"of your latest sign-in link"}.get(self.source, "check that you typed the "
                                                                         "token of your latest sign-in link")
            return f"your token was refused ({server}): {fix}"
        if code == 404:
            if what == SUBMITTED:
                return f"the server has no assignment {self.assignment} ({server}): ask your course staff " \
                       f"whether this submit.py is the one for your assignment"
            return f"{what}: not found ({server})"
        if code == 413:
            return f"{SUBMITTED} is too large for the server ({server}){nothing}"
        if code == 429:
            later = f" (try again in {retry_after} s)" if retry_after and retry_after.isdigit() else ""
            return f"too many submissions for now ({server}){later}{nothing}"
        if code >= 500:
            return f"the course server failed ({server}); try again in a minute, and tell your course staff " \
                   f"if it persists"
        return f"{what} was refused ({server}){nothing}"

    def submit(self, source, filename=SUBMITTED):
        """Upload hog.py (or a zip of it and the answers); its id and status once the server has accepted it."""
        body, content_type = multipart("file", filename, source)
        name = urllib.parse.quote(self.assignment, safe="")
        _, answer = self.call("POST", f"/api/assignments/{name}/submissions", body, content_type, what=SUBMITTED,
                              patient=True)
        if not isinstance(answer, dict) or "id" not in answer:
            raise Refused(f"the server at {self.url} did not answer as a course server does ({answer!r:.200}); "
                          f"check the address in submit.py with your course staff")
        return answer

    def submission(self, ident):
        return self.call("GET", f"/api/submissions/{urllib.parse.quote(str(ident), safe='')}",
                         what=f"submission {ident}")[1]

    def latest(self):
        """The caller's latest submission to this assignment (the server lists them oldest first), or None."""
        query = urllib.parse.urlencode({"assignment": self.assignment})
        listed = self.call("GET", f"/api/submissions?{query}", what="your submissions", patient=True)[1]
        return listed[-1] if isinstance(listed, list) and listed else None


def _pause(retry_after):
    """Seconds to wait before trying again: the server's Retry-After (in seconds), within LONGEST_PAUSE."""
    if retry_after and retry_after.strip().isdigit():
        return min(int(retry_after), LONGEST_PAUSE)
    return CUT_OFF_PAUSE   # none, or a date: a short wait


def _decoded(raw, headers):
    text = raw.decode("utf-8", "replace")
    try:
        return json.loads(text) if "json" in (headers.get("Content-Type") or "") else text
    except ValueError:
        return text


def _message(said, reason):
    """The server's own words: a JSON answer's ``error``, a short plain text, or the HTTP reason."""
    if isinstance(said, dict) and isinstance(said.get("error"), str):
        return said["error"]
    if isinstance(said, str) and said.strip() and "<" not in said:
        return said.strip()[:300]
    return str(reason or "")


def multipart(field, filename, data):
    """A multipart/form-data body holding one file, and its Content-Type."""
    boundary = "hog-" + uuid.uuid4().hex
    head = (f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{filename}"\r\n'
            f"Content-Type: {'application/zip' if filename.endswith('.zip') else 'text/x-python'}\r\n\r\n").encode()
    return head + data + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


# ------------------------------------------------------------------ the report


def describe(submission):
    """The line above a report: which submission, when and by whom (a group's member, or oneself), where it is."""
    late = submission.get("late_days") or 0
    when = f", submitted {submission['submitted_at']}" if submission.get("submitted_at") else ""
    when += f" by {submission['submitted_by']}" if submission.get("submitted_by") else ""
    return (f"Submission {submission.get('id')} of {submission.get('assignment', ASSIGNMENT)}{when}: "
            f"{submission.get('status')}" + (f" ({late} late day{'s' if late != 1 else ''})" if late else ""))


def shown(submission):
    """The report of a graded submission, under its line."""
    result = submission.get("result")
    return describe(submission) + "\n" + (graded_report(result, SUBMITTED) if isinstance(result, dict) else "")


# ------------------------------------------------------------------ waiting


def wait(server, accepted, seconds, clock=time.monotonic, sleep=time.sleep):
    """Look at the submission until it is done or ``seconds`` have passed; its last state seen."""
    deadline, latest, pauses, pause, problem = clock() + seconds, accepted, iter(POLL), POLL[0], None
    while latest.get("status") not in DONE and clock() < deadline:
        pause = next(pauses, pause)
        sleep(max(0.0, min(pause, deadline - clock())))
        try:
            seen = server.submission(accepted["id"])
        except Refused as refused:   # the server restarting, the network gone a moment: look again
            problem = refused
            continue
        if isinstance(seen, dict):
            if seen.get("status") != latest.get("status"):
                print(f"  {seen.get('status')}", file=sys.stderr)
            latest, problem = {**latest, **seen}, None
    if problem is not None and latest.get("status") not in DONE:
        print(f"submit.py: {problem}", file=sys.stderr)
    return latest


def still_waiting(submission, why):
    return (f"Submission {submission['id']} is accepted and {submission.get('status') or 'queued'}, not graded "
            f"{why}. It will be graded all the same: run {STATUS} later to see its result.")


# ------------------------------------------------------------------ the command


def main(argv=None, folder=HERE):
    parser = argparse.ArgumentParser(prog="submit.py", description=f"Submit {SUBMITTED} to {SERVER or 'the server'} "
                                     f"({ASSIGNMENT or 'no assignment'}) and print its grade.")
    parser.add_argument("--status", action="store_true", help="show your latest submission's result instead")
    parser.add_argument("--wait", type=float, default=WAIT, metavar="SECONDS",
                        help=f"how long to wait for the grade (default {WAIT})")
    args = parser.parse_args(argv)
    for stream in (sys.stdout, sys.stderr):   # a console that cannot show a character shows "?" instead
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    if not SERVER or not ASSIGNMENT:
        print("submit.py: this copy names no server or assignment (hog assign --server URL --assignment NAME "
              "writes them); ask your course staff for the submit.py of your assignment", file=sys.stderr)
        return 2
    try:
        return _status(folder) if args.status else _submit(folder, args.wait)
    except Refused as problem:
        print(f"submit.py: {problem}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:   # before the server answered: the upload may or may not have reached it
        print(f"\nsubmit.py: stopped; {STATUS} shows whether the server has your submission", file=sys.stderr)
        return 130


def _server(folder):
    """The server, with the token: stored, or asked once (kept only once the server took it)."""
    token, source = stored_token(folder)
    if token is None:
        return Server(SERVER, ASSIGNMENT, asked_token(), None), True
    return Server(SERVER, ASSIGNMENT, token, source), False


def _submit(folder, seconds):
    path, answers = Path(folder) / SUBMITTED, Path(folder) / ANSWERS
    try:
        source, sent = path.read_bytes(), SUBMITTED
        answered = answers.read_bytes() if answers.is_file() and not answers.is_symlink() else None
    except OSError as error:
        raise Refused(f"cannot read {error.filename}: {error.strerror} (run submit.py in the folder that holds "
                      f"your {SUBMITTED})") from None
    if answered is not None:   # unlock.py's answers go with hog.py, in one zip
        packed = io.BytesIO()
        with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(SUBMITTED, source)
            archive.writestr(ANSWERS, answered)
        source, sent = packed.getvalue(), "hog.zip"
    server, typed = _server(folder)
    accepted = server.submit(source, sent)
    if typed:
        keep_token(server.token, folder)
    print(f"Submitted {SUBMITTED}{' and ' + ANSWERS if sent != SUBMITTED else ''} to {ASSIGNMENT}: "
          f"submission {accepted['id']}, {accepted.get('status')}.", file=sys.stderr)
    try:
        latest = wait(server, accepted, seconds)
    except KeyboardInterrupt:
        print("\n" + still_waiting(accepted, "yet"), file=sys.stderr)
        return STILL_WAITING
    if latest.get("status") not in DONE:
        print(still_waiting(latest, f"within {seconds:g} s"), file=sys.stderr)
        return STILL_WAITING
    sys.stdout.write(shown(latest))
    return 0


def _status(folder):
    server, typed = _server(folder)
    latest = server.latest()
    if typed:
        keep_token(server.token, folder)
    if latest is None:
        print(f"No submission to {ASSIGNMENT} yet: python3 submit.py uploads your {SUBMITTED}.")
        return 0
    sys.stdout.write(shown({**latest, **server.submission(latest["id"])}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
