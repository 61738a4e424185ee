"""The README and the documentation site say what the kit does, and keep saying it.

The README opens with its two commands and stays under 150 lines. The site builds under
``mkdocs build --strict`` with the command reference generated from the argument parser. The tutorial's
command blocks run, in order, in an empty folder, and its course is then what the reference pages show:
the course config ``hog init`` writes, the fields of results.json, of the instructor's file and of the
gradebook.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from grader import cli
from grader.spec import parse
from tests.test_installed import PORT, as_script, free_port, quickstart, run

CHECKOUT = Path(__file__).resolve().parent.parent
README = CHECKOUT / "README.md"
DOCS = CHECKOUT / "docs"
FIRST_COMMANDS = ["pip install -e . && hog grade solution/sp19 --variant sp19",
                  "pip install -e '.[test,browser,cluster,server,docs]' && python -m pytest -n auto --dist loadgroup"]


def blocks(path: Path, language: str) -> list[str]:
    """The fenced blocks of one language in a Markdown file, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", path.read_text(encoding="utf-8"), re.S | re.M)


def test_the_readme_is_a_front_door_under_150_lines_that_opens_with_its_two_commands():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 150
    assert re.findall(r"```sh\n(.*?)\n```", text, re.S)[:2] == FIRST_COMMANDS
    assert text.index("```sh") < text.index("\n## ")              # the commands come before any section
    assert quickstart()[0] == "pip install 'hog-kit[server]'"     # the blocks CI and test_installed run


def test_ci_runs_the_readmes_test_command():
    """.ci/run ends with the README's second command's test run, as written (spread over the cores)."""
    command = FIRST_COMMANDS[1].split(" && ", 1)[1]
    last = (CHECKOUT / ".ci" / "run").read_text(encoding="utf-8").rstrip().splitlines()[-1]
    assert last.endswith(" " + command)
    assert all(re.fullmatch(r"HOG_REQUIRE_[A-Z]+=1", word) for word in last.split(" python ")[0].split())


def test_every_page_the_readme_links_to_is_there():
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    local = [link for link in links if "://" not in link]
    assert local and all((CHECKOUT / link).is_file() for link in local), \
        [link for link in local if not (CHECKOUT / link).is_file()]


def _hook():
    pytest.importorskip("mkdocs", reason="the site's hook needs MkDocs (pip install -e '.[docs]')")
    spec = importlib.util.spec_from_file_location("docs_reference_hook", DOCS / "hooks" / "reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_command_reference_is_generated_with_every_verb_and_option():
    hook = _hook()
    page = hook.commands(CHECKOUT)
    verbs = {name: verb for name, verb, _ in hook._verbs(cli.parser())}
    assert sorted(verbs) == sorted(cli.HANDLERS)
    for name, verb in verbs.items():
        assert f"\n## hog {name}\n" in page
        assert all(option in page for action in verb._actions for option in action.option_strings), name
    assert hook.MARKER in (DOCS / hook.PAGE).read_text(encoding="utf-8")


def test_the_example_spec_of_the_spec_format_reads_without_error():
    example = blocks(DOCS / "reference" / "spec.md", "yaml")[0]
    variant = parse(example, "specs/demo.yaml")
    assert variant.id == "demo" and variant.questions[0].locked and len(variant.cases) == 2


@pytest.mark.slow
def test_the_site_builds_strictly(tmp_path):
    pytest.importorskip("material", reason="the site's theme is mkdocs-material (pip install -e '.[docs]')")
    site = tmp_path / "site"
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                           cwd=CHECKOUT, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    commands = (site / "reference" / "commands" / "index.html").read_text(encoding="utf-8")
    assert all(f"hog {verb}" in commands for verb in cli.HANDLERS)
    assert not (site / "hooks").exists()


OPTIONAL = {"diagnosis"}   # a failing case's, where one was made (a passing question has none)


def _fields(items: list[dict]) -> set[str]:
    """The keys of a list of JSON objects (every one has the same, but for OPTIONAL ones)."""
    assert items and all(set(item) - OPTIONAL == set(items[0]) - OPTIONAL for item in items)
    return set(items[0]) - OPTIONAL


@pytest.mark.slow
def test_the_tutorial_runs_from_an_empty_folder_to_the_class_report(tmp_path):
    """Every ``sh`` block of docs/tutorial.md, in order, in one shell, with ``hog`` this checkout's."""
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "hog").write_text(f'#!/bin/sh\nexec "{sys.executable}" -P -m grader.cli "$@"\n')
    (tools / "hog").chmod(0o755)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("HOG_", "VIRTUAL_ENV"))}
    env.update(PATH=f"{tools}:{env.get('PATH', '/usr/bin:/bin')}", PYTHONPATH=str(CHECKOUT),
               HOG_CACHE=str(tmp_path / "cache"), TZ="UTC")   # hog init writes the machine's time zone
    empty = tmp_path / "empty"
    empty.mkdir()
    tutorial = DOCS / "tutorial.md"
    port = free_port()
    done = run(as_script(blocks(tutorial, "sh"), port), empty, env)   # its hog serve stopped at the end
    assert "\nScore: 23/23\n" in done.stdout                          # ada's python3 submit.py

    course = empty / "cs88"
    graded = course / "graded"
    assert (graded / "report.html").is_file() and json.loads((graded / "report.json").read_text())
    rows = {row["submission"]: row for row in csv.DictReader((graded / "gradebook.csv").open())}
    assert sorted(rows) == ["ada", "grace", "starter"]
    assert rows["ada"]["score"] == rows["ada"]["max_score"] and float(rows["starter"]["score"]) == 0
    assert 0 < float(rows["grace"]["score"]) < float(rows["grace"]["max_score"])

    # What the reference pages show is what this course holds.
    config = blocks(DOCS / "reference" / "course-config.md", "toml")[0]
    appended = next(block for block in blocks(tutorial, "sh") if block.startswith("cat >> hog-course.toml"))
    served = appended.split("<<'EOF'\n", 1)[1].split("EOF\n", 1)[0].replace(PORT, str(port))   # section 7's
    assert config + served == (course / "hog-course.toml").read_text(encoding="utf-8")
    assert tomllib.loads(config)["variants"] == ["fa18"]
    results = DOCS / "reference" / "results.md"
    shown, private = (json.loads(block) for block in blocks(results, "json")[:2])
    real = json.loads((graded / "grace.json").read_text())
    assert set(shown) == set(real) and set(shown["graded_from"]) == set(real["graded_from"])
    assert _fields(shown["tests"]) == _fields(real["tests"])
    real = json.loads((graded / "instructor" / "grace.json").read_text())
    assert set(private) == set(real) and set(private["final_strategy"]) == set(real["final_strategy"])
    assert _fields(private["questions"]) == _fields(real["questions"])
    failed = [case for question in real["questions"] for case in question["failed"]]
    assert _fields(private["questions"][0]["failed"]) == _fields(failed)
    header = (graded / "gradebook.csv").read_text().splitlines()[0]
    assert header in results.read_text(encoding="utf-8")
    assert header in tutorial.read_text(encoding="utf-8")
