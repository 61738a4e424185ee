"""The course server in a container, as the kit ships it (grader/data/server/Dockerfile): built on the
debootstrap base image with the kit's wheel and its server requirements' (no package index is reachable),
run with a course folder mounted, it takes a submission over HTTP and grades it; SIGTERM stops it. The compose
file beside it is read by docker-compose where that is installed."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from grader import project
from grader.publishing import wheel
from grader.server.store import db
from tests import container_engines
from tests.server.conftest import SOLUTION, issue, make_app
from tests.server.test_restart import get, post
from tests.wheelhouse import requirements

# One test process builds and removes the kit's images (their tags and build contexts are the machine's).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("containers")]
SHIPPED = project.DATA / "server"
IMAGE = "hog-serve-test:latest"
BUILD_SECONDS = 1200
WAIT_SECONDS = 240


def docker(*arguments: str, timeout: float = 120) -> str:
    done = subprocess.run(["docker", *arguments], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    """The shipped Dockerfile built on the base image, from a folder of wheels: the kit's and its requirements'."""
    base = container_engines.base_image("docker")
    context = tmp_path_factory.mktemp("server-image")
    shutil.copy(SHIPPED / "Dockerfile", context / "Dockerfile")
    (context / "wheels").mkdir()
    (context / "wheels" / wheel.name()).write_bytes(wheel.build())
    for name in requirements(extras=("server",)):
        repacked = wheel.from_installed(name, compress=False)
        (context / "wheels" / repacked.name).write_bytes(repacked.data)
    docker("build", "--tag", IMAGE, "--build-arg", f"BASE={base}", "--build-arg", "PIP_OPTIONS=--no-index",
           "--build-arg", "CLIENT=",
           str(context), timeout=BUILD_SECONDS)
    yield IMAGE
    subprocess.run(["docker", "image", "rm", "--force", IMAGE], capture_output=True, timeout=120)


def logs(name: str) -> str:
    """What the container printed (hog serve writes to both streams)."""
    done = subprocess.run(["docker", "logs", name], capture_output=True, text=True, timeout=60)
    return (done.stdout + done.stderr)[-3000:]


def reached(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/signin/nothing", timeout=5):
            return True
    except urllib.error.HTTPError:
        return True     # it answers
    except OSError:
        return False


def test_the_server_in_its_container_grades_a_submission_and_stops_on_sigterm(image, course):
    app = make_app(course, db.default_url(course / "server"))
    token = issue(app, "s1")["s1"]
    app.config["hog.settings"].engine.dispose()
    name = f"hog-serve-test-{course.parent.name}"[:60]
    docker("run", "--detach", "--name", name, "--publish", "127.0.0.1::8000", "--volume", f"{course}:/course", image)
    try:
        port = docker("port", name, "8000").splitlines()[0].rsplit(":", 1)[1]
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + WAIT_SECONDS
        while not reached(base):
            running = json.loads(docker("inspect", name))[0]["State"]["Running"]
            assert running and time.monotonic() < deadline, logs(name)   # an ended server says why
            time.sleep(0.5)
        sent = post(base, token, SOLUTION.read_bytes())
        while (shown := get(base, token, f"/api/submissions/{sent['id']}"))["status"] != "graded":
            assert time.monotonic() < deadline and shown["status"] != "grader failed", (shown, logs(name))
            time.sleep(1)
        assert shown["result"]["score"] == 23.0
        docker("stop", "--time", "30", name, timeout=60)
        assert json.loads(docker("inspect", name))[0]["State"]["ExitCode"] == 128 + 15   # ended by SIGTERM
    finally:
        subprocess.run(["docker", "rm", "--force", name], capture_output=True, timeout=60)


@pytest.mark.skipif(shutil.which("docker-compose") is None, reason="docker-compose: apt-get install docker-compose")
def test_the_compose_file_is_read_by_docker_compose(tmp_path):
    shutil.copy(SHIPPED / "compose.yaml", tmp_path / "compose.yaml")
    shutil.copy(SHIPPED / "Dockerfile", tmp_path / "Dockerfile")
    (tmp_path / ".env").write_text("HOG_DATABASE_PASSWORD=example\n")
    read = subprocess.run(["docker-compose", "--file", str(tmp_path / "compose.yaml"), "config"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert read.returncode == 0, read.stderr
    assert "postgresql://hog@database/hog" in read.stdout and "PGPASSWORD: example" in read.stdout
