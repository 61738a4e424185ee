"""Fixtures of the tests of the game page and of `hog play`: a game's server on a free port, and a game."""

import threading

import pytest

from grader.classroom import play
from grader.spec import load_variant
from tests.shipped.playing import call, gui


@pytest.fixture
def serve():
    """Start an App on a free port in a thread; its (port, token); stopped after the test."""
    servers = []

    def start(app):
        server = gui.make_server(app)
        # a short poll interval: shutdown() then returns at once instead of after half a second
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        servers.append(server)
        return server.server_address[1]
    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def game(serve):
    """A reference sp19 game against always_roll(5) at goal 30, with one move made."""
    app = play.app(load_variant("sp19"), vs="always:5", goal=30)
    port = serve(app)
    status, answer = call(port, app.token, "POST", "api/new", {})
    assert status == 200
    game_id = answer["game"]["id"]
    status, answer = call(port, app.token, "POST", "api/move", {"game": game_id, "player": 0, "dice": 2})
    assert status == 200 and len(answer["game"]["turns"]) >= 1
    return port, app.token, game_id
