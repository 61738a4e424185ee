"""`hog assign ID --out DIR --server URL --assignment NAME`: the student folder gets submit.py, with the
server's address and the assignment written in; without --assignment, no submit.py; bad input refused."""

import ast

import pytest

from grader.cli import main
from grader.publishing import assign
from grader.spec import load_variant

ASSIGNMENT = '''
[server]
url = "https://hog.example.edu/cs88/"

[assignments.hog]
variant = "fa18"
due = 2030-12-15T23:59:00-08:00
'''


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A course folder (hog init) with an [assignments.hog] for fa18, as the working directory."""
    assert main(["init", str(tmp_path / "cs88"), "--variant", "fa18", "--variant", "sp19"]) == 0
    folder = tmp_path / "cs88"
    with (folder / "hog-course.toml").open("a") as config:
        config.write(ASSIGNMENT)
    monkeypatch.chdir(folder)
    return folder


def settings(script: str) -> dict:
    """SERVER and ASSIGNMENT as submit.py holds them."""
    found = {}
    for node in ast.parse(script).body:
        if isinstance(node, ast.Assign) and node.targets[0].id in ("SERVER", "ASSIGNMENT"):
            found[node.targets[0].id] = ast.literal_eval(node.value)
    return found


def test_the_student_folder_gets_submit_py_with_the_server_and_the_assignment(tmp_path, capsys):
    out = tmp_path / "release"
    assert main(["assign", "sp19", "--out", str(out), "--server", "http://10.0.0.5:8000/",
                 "--assignment", "proj1"]) == 0
    student = out / "student"
    assert settings((student / "submit.py").read_text()) == {"SERVER": "http://10.0.0.5:8000",
                                                             "ASSIGNMENT": "proj1"}
    assert ".hog-token" in (student / ".gitignore").read_text().splitlines()
    assert "submits hog.py to proj1 at http://10.0.0.5:8000" in capsys.readouterr().out


def test_without_an_assignment_the_folder_has_no_submit_py():
    files = assign.student_files(load_variant("sp19"))
    assert "submit.py" not in files and ".gitignore" not in files


def test_an_address_with_quotes_is_written_as_a_python_literal():
    script = assign.submit_script(assign.Submitting("https://example.edu/a'b\"c", "hog"))
    assert settings(script)["SERVER"] == "https://example.edu/a'b\"c"


def test_in_a_course_the_address_defaults_to_the_course_configs_server_url(course, capsys):
    assert main(["assign", "fa18", "--out", "release/hog", "--assignment", "hog"]) == 0
    script = (course / "release" / "hog" / "student" / "submit.py").read_text()
    assert settings(script) == {"SERVER": "https://hog.example.edu/cs88", "ASSIGNMENT": "hog"}


def test_in_a_course_the_assignment_must_be_one_of_its_config(course, capsys):
    assert main(["assign", "fa18", "--out", "release/x", "--assignment", "proj2"]) == 2
    error = capsys.readouterr().err
    assert "hog-course.toml has no [assignments.proj2] (its assignments: hog): add the table" in error
    assert not (course / "release" / "x").exists()


def test_in_a_course_the_assignment_must_be_for_the_variant_assigned(course, capsys):
    assert main(["assign", "sp19", "--out", "release/x", "--assignment", "hog"]) == 2
    assert "[assignments.hog] of hog-course.toml is for variant fa18, not sp19: assign fa18" in \
        capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["--server", "http://h:8000"], "--server is where submit.py submits to: give the assignment too"),
    (["--assignment", "hog"], "--assignment needs --server URL outside a course folder"),
    (["--assignment", "hog", "--server", "ftp://h"], "--server 'ftp://h': give the address students reach"),
    (["--assignment", "hog", "--server", "https://h/?q=1"], "--server 'https://h/?q=1': give the address"),
    (["--assignment", "../hog", "--server", "https://h"], "--assignment '../hog': an assignment's name is"),
    (["--assignment", "hog", "--server", "https://h", "--platform", "prairielearn"],
     "--assignment adds submit.py for the course server: drop it, or drop --platform prairielearn"),
])
def test_bad_server_options_write_nothing_and_say_the_fix(tmp_path, monkeypatch, capsys, args, message):
    monkeypatch.chdir(tmp_path)
    assert main(["assign", "sp19", "--out", "release", *args]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "release").exists()


@pytest.mark.slow
def test_a_roster_gives_every_student_folder_submit_py(course):
    with (course / "hog-course.toml").open("a") as config:
        config.write('\n[assignments.sections]\nmanifest = "rosters/r0_section.csv"\n'
                     'due = 2030-12-15T23:59:00-08:00\n')
    (course / "roster.csv").write_text("student_id,email,section\n1,a@x.edu,A\n2,b@x.edu,B\n")
    assert main(["assign", "--roster", "roster.csv", "--out", "release/sections", "--assignment", "sections"]) == 0
    scripts = sorted((course / "release" / "sections").glob("*/student/submit.py"))
    assert len(scripts) == 2
    assert all(settings(path.read_text()) == {"SERVER": "https://hog.example.edu/cs88", "ASSIGNMENT": "sections"}
               for path in scripts)
