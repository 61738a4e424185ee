"""What the tests of the game page (hog_gui.py) and of `hog play` share: the variants, the page's modules,
a request to a game's server, a student folder as `hog assign` writes it, dice that roll given faces."""

import http.client
import json
import types

from grader import reference
from grader.classroom import play
from grader.publishing import assign, build
from grader.spec import all_variants, load_variant


VARIANTS = all_variants()
IDS = [v.id for v in VARIANTS]
gui = play.gui()
game_module = play.game()


def call(port, token, method, path, body=None, host=None, raw=None, timeout=30):
    """(status, JSON answer) of one request; ``host`` replaces the Host header, ``raw`` the body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    headers = {"Host": host or f"127.0.0.1:{port}", "Content-Type": "application/json"}
    connection.request(method, f"/t/{token}/{path}", body=data, headers=headers)
    response = connection.getresponse()
    text = response.read()
    connection.close()
    kind = response.getheader("Content-Type", "")
    return response.status, (json.loads(text) if kind.startswith("application/json") else text.decode())


def port_and_token(address: str) -> tuple[int, str]:
    """The port and the token of the address the game's server prints (http://127.0.0.1:PORT/t/TOKEN/)."""
    return int(address.split(":")[2].split("/")[0]), address.split("/")[4]


def module_from(source, name="hog_under_test"):
    """A hog.py source as a module (test code only: the tests' own submissions)."""
    module = types.ModuleType(name)
    with reference.modules_as({"dice": reference.dice()}):
        exec(compile(source, "hog.py", "exec"), module.__dict__)
    return module


def student_folder(tmp_path, variant, hog_source=None):
    """A student folder as `hog assign` writes it, with ``hog_source`` as hog.py if given."""
    folder = tmp_path / variant.id
    for name, text in assign.student_files(variant).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    if hog_source is not None:
        (folder / "hog.py").write_text(hog_source, encoding="utf-8")
    return folder


def faces_from(*faces):
    queue = list(faces)
    return lambda: queue.pop(0)


def with_bug(variant_id, old, new):
    source = build.solution_source(load_variant(variant_id))
    assert old in source
    return source.replace(old, new, 1)
