"""Running the course server as a service: ``hog serve unit`` prints a systemd unit for the course folder
that systemd reads without a complaint, and refuses what the unit would get wrong or show to everyone."""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest

from grader import project
from grader.commands import serve
from grader.errors import UsageError
from tests.server.conftest import CONFIG


def unit(**given) -> str:
    out = io.StringIO()
    arguments = dict(user="hog", host="127.0.0.1", port=8000, database=None) | given
    assert serve.unit(out=out, **arguments) == 0
    return out.getvalue()


def test_the_unit_runs_hog_serve_in_the_course_folder_as_its_own_user_and_restarts_it(course):
    text = unit(port=8080, database="postgresql://hog@/hog?host=%2Fvar%2Frun%2Fpostgresql")
    lines = text.splitlines()
    assert "Description=Hog course server (Server course)" in lines
    assert {"User=hog", "Group=hog", f"WorkingDirectory={course}", "Restart=always", f"ReadWritePaths={course}",
            "ProtectSystem=strict", "NoNewPrivileges=yes", "PrivateTmp=yes"} <= set(lines)
    [start] = [line for line in lines if line.startswith("ExecStart=")]
    assert start.endswith(f" --course {course} serve --host 127.0.0.1 --port 8080 "
                          f"--database postgresql://hog@/hog?host=%%2Fvar%%2Frun%%2Fpostgresql")   # % is systemd's
    assert "{" not in text


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze: apt-get install systemd")
def test_systemd_reads_the_unit_without_a_complaint(course, tmp_path):
    path = tmp_path / "hog-serve.service"
    path.write_text(unit())
    checked = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True, timeout=60)
    assert (checked.returncode, checked.stdout + checked.stderr) == (0, "")
    path.write_text(unit().replace("ProtectSystem=", "ProtectSystm="))   # that it would complain
    assert "Unknown key 'ProtectSystm'" in subprocess.run(["systemd-analyze", "verify", str(path)],
                                                          capture_output=True, text=True, timeout=60).stderr


@pytest.mark.parametrize("given, why", [
    (dict(database="postgresql://hog:secret@db/hog"), "--database holds a password, which the unit"),
    (dict(user="Hog Staff"), "--user 'Hog Staff' is not a name useradd takes"),
])
def test_the_unit_is_refused_what_it_would_show_everyone_or_misread(course, given, why):
    with pytest.raises(UsageError, match=why):
        unit(**given)


def test_a_course_folder_whose_path_systemd_would_misread_is_named(tmp_path):
    folder = tmp_path / "my course"
    folder.mkdir()
    (folder / project.CONFIG_NAME).write_text(CONFIG)
    project.use(str(folder))
    try:
        with pytest.raises(UsageError, match="holds a space or one of .* move the course to a plain path"):
            unit()
    finally:
        project.use()
