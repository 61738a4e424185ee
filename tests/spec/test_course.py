"""A course folder: `hog init`, its config (hog-course.toml), the variants and points it sees."""

import json
import re
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from grader import project
from grader.publishing import assign
from grader.spec import course
from grader.cli import main
from grader.spec import load_variant
from tests.classroom.test_batch import hog


@pytest.fixture(autouse=True)
def back_in_the_checkout():
    """A test that names a course leaves the next one in the checkout, as a new `hog` run would be."""
    yield
    project.use()


def init(tmp_path, *args) -> Path:
    folder = tmp_path / "course"
    assert main(["init", str(folder), *args]) == 0
    return folder


def edit(config: Path, old: str, new: str) -> None:
    text = config.read_text()
    assert old in text, text
    config.write_text(text.replace(old, new, 1))


def test_hog_version_prints_the_kits_version_from_its_metadata(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"hog-kit {project.version()}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", project.version())


def test_the_version_read_from_the_kits_metadata_folder_is_the_one_its_installer_recorded(tmp_path, monkeypatch):
    assert project.version() == metadata.version(project.DISTRIBUTION)
    # An installation earlier on sys.path is the one that answers, as with importlib.metadata.
    (tmp_path / "hog_kit-9.8.7.dist-info").mkdir()
    (tmp_path / "hog_kit-9.8.7.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: hog-kit\n"
                                                                 "Version: 9.8.7\n\nVersion: 1.0 in the text\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    project.version.cache_clear()
    try:
        assert project.version() == metadata.version(project.DISTRIBUTION) == "9.8.7"
    finally:
        project.version.cache_clear()


def test_init_writes_a_commented_config_with_each_questions_points_and_the_course_folders(tmp_path, capsys):
    folder = init(tmp_path, "--variant", "fa18", "--variant", "sp19", "--name", 'CS "88"')
    assert "Next: cd" in capsys.readouterr().out
    config = folder / "hog-course.toml"
    data = tomllib.loads(config.read_text())
    assert data["name"] == 'CS "88"' and data["variants"] == ["fa18", "sp19"] and data["isolation"] == "files"
    for variant_id in ("fa18", "sp19"):
        variant = load_variant(variant_id)
        assert data["points"][variant_id] == {q.key: q.points for q in variant.questions}
    final = load_variant("sp19").questions[-1]
    assert [(t["win_rate"], t["points"]) for t in data["thresholds"]["sp19"][final.key]] == \
        [(t.win_rate, t.points) for t in final.thresholds]
    assert config.read_text().count("\n# ") >= 4          # says what each part is for
    for name in ("specs", "solution", "skeleton", "docs", "release"):
        assert (folder / name).is_dir()


@pytest.mark.parametrize("name", ['CS "88" \\ Fall', "CS 88\nFall\t2026", "Cours d'été\x7f\x01"])
def test_init_writes_any_course_name_so_the_config_reads_it_back(tmp_path, name):
    """A name with quotes, backslashes, line breaks or other control characters is written escaped."""
    folder = init(tmp_path, "--variant", "sp19", "--name", name)
    assert tomllib.loads((folder / "hog-course.toml").read_text())["name"] == name


def test_init_refuses_a_folder_that_holds_files_and_an_unknown_variant(tmp_path, capsys):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    assert main(["init", str(tmp_path / "full")]) == 2
    assert main(["init", str(tmp_path / "new"), "--variant", "fa26"]) == 2
    assert "--variant fa26: not a built-in variant" in capsys.readouterr().err
    assert not (tmp_path / "new").exists() and (tmp_path / "full" / "notes.txt").read_text() == "mine"


def test_the_course_is_found_from_the_working_directory_upward(tmp_path, monkeypatch):
    folder = init(tmp_path)
    (folder / "release" / "deep").mkdir()
    monkeypatch.chdir(folder / "release" / "deep")
    assert project.use().root == folder.resolve()
    monkeypatch.chdir(tmp_path)
    assert project.use().root is None                      # outside: built-in variants and defaults
    monkeypatch.setenv("HOG_COURSE", str(folder))
    assert project.use().root == folder.resolve()
    assert project.use(str(project.PACKAGE.parent)).checkout   # --course wins over HOG_COURSE


@pytest.mark.parametrize("line, message", [
    ("pionts = 3", "hog-course.toml:{n}: unknown key 'pionts' (the keys are name, time_zone, variants, isolation, points, "
                   "thresholds, server, assignments)"),
    ('isolation = "chroot"', "hog-course.toml:{n}: unknown isolation level 'chroot' (write one of process, "
                             "files, bubblewrap, container)"),
    ("[points.sp19]\nq99 = 2", "hog-course.toml:{n}: variant sp19 has no question 'q99' (its questions are q01,"),
    ("[points.sp19]\nq01 = -1", "hog-course.toml:{n}: points.sp19.q01 is negative (-1) (write 0 or more)"),
    ("[points.sp19]\nq01 = 'two'", "hog-course.toml:{n}: points.sp19.q01 is 'two', not a number"),
    ("[points.sp19]\nq01 = nan", "hog-course.toml:{n}: points.sp19.q01 is nan, not a finite number"),
    ("[points.sp19]\nq01 = inf", "hog-course.toml:{n}: points.sp19.q01 is inf, not a finite number"),
    ("[thresholds.sp19]\nq12 = [{win_rate = nan, points = 1}]",
     "hog-course.toml:{n}: thresholds.sp19.q12: a win_rate is nan, not a finite number"),
    ("[thresholds.sp19]\nq01 = [{win_rate = 0.5, points = 1}]",
     "hog-course.toml:{n}: q01 (roll_dice) is not graded by win rate"),
    ("name = [", "hog-course.toml:{n}: not valid TOML"),
    ('variants = ["sp91"]', "hog-course.toml:{n}: variants names 'sp91', which is neither built in nor in the "
                            "course's specs/ (known variants: fa18,"),
    ("points.sp91.q01 = 2", "hog-course.toml:{n}: [points.sp91] names no known variant"),
])
def test_a_config_error_is_one_line_naming_file_line_and_fix_exit_2(tmp_path, capsys, line, message):
    folder = tmp_path / "course"
    folder.mkdir()
    config = folder / "hog-course.toml"
    config.write_text(f'# my course\nname = "x"\n\n{line}\n')
    number = 4 + line.count("\n")
    assert main(["--course", str(folder), "handout", "sp19", "--format", "md"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Error: " + message.format(n=number)), err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_course_points_reach_the_handout_the_student_tests_and_the_gradescope_bundle(tmp_path, capsys):
    folder = init(tmp_path, "--variant", "sp19")
    edit(folder / "hog-course.toml", "q01 = 2", "q01 = 7")
    assert load_variant("sp19").questions[0].points == 2          # the checkout: the spec's own points
    assert main(["--course", str(folder), "handout", "sp19", "--format", "md", "--out",
                 str(tmp_path / "handout.md")]) == 0
    handout = (tmp_path / "handout.md").read_text()
    variant = load_variant("sp19")                                 # with the course's points
    assert variant.questions[0].points == 7 and variant.points == load_variant_points("sp19") + 5
    assert "7 points" in handout and f"{variant.points:g} points in all" in handout
    assert main(["--course", str(folder), "assign", "sp19", "--out", str(tmp_path / "rel")]) == 0
    header = (tmp_path / "rel" / "student" / "tests" / "q01.md").read_text()
    assert "7 point" in header
    with zipfile.ZipFile(tmp_path / "rel" / "autograder" / "autograder.zip") as archive:
        bundled = archive.read("course/hog-course.toml").decode()
    assert bundled == (folder / "hog-course.toml").read_text()


def load_variant_points(variant_id: str) -> float:
    project.use(str(project.PACKAGE.parent))
    try:
        return load_variant(variant_id).points
    finally:
        project.use()


def test_thresholds_above_a_questions_new_points_are_refused_with_the_fix(tmp_path, capsys):
    folder = init(tmp_path, "--variant", "sp19")
    final = load_variant("sp19").questions[-1]
    edit(folder / "hog-course.toml", f"{final.key} = {final.points:g}", f"{final.key} = 1")
    assert main(["--course", str(folder), "cases", "sp19"]) == 2
    assert f"set [thresholds.sp19] {final.key} within its points too" in capsys.readouterr().err


def fake_course_variant(folder: Path, variant_id: str) -> None:
    """A variant of the course's own, made from sp19's spec under another id and title."""
    text = (project.BUILTIN_SPECS / "sp19.yaml").read_text()
    text = re.sub(r"(?m)^id: sp19$", f"id: {variant_id}", text, count=1)
    text = re.sub(r"(?m)^title: .*$", f"title: Course {variant_id} rules", text, count=1)
    (folder / "specs").mkdir(exist_ok=True)
    (folder / "specs" / f"{variant_id}.yaml").write_text(text)


def test_a_courses_own_variant_is_invisible_to_another_course_and_outside(tmp_path, capsys, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    assert main(["init", str(first)]) == 0 and main(["init", str(second)]) == 0
    fake_course_variant(first, "ours")
    capsys.readouterr()
    assert main(["--course", str(first), "variants"]) == 0
    assert "\nours " in capsys.readouterr().out
    assert main(["--course", str(second), "cases", "ours"]) == 2
    assert "no variant 'ours'" in capsys.readouterr().err
    monkeypatch.chdir(tmp_path)
    assert main(["variants"]) == 0
    assert "ours" not in capsys.readouterr().out


def test_a_course_variant_with_a_built_in_id_is_refused(tmp_path, capsys):
    folder = init(tmp_path)
    fake_course_variant(folder, "sp19")
    assert main(["--course", str(folder), "cases", "sp19"]) == 2
    assert "specs/sp19.yaml:1: the course's variant 'sp19' takes the id of a built-in variant (rename it" \
        in capsys.readouterr().err
    assert main(["--course", str(folder), "mint", "fa18"]) == 2
    assert "'fa18' is the id of a built-in variant" in capsys.readouterr().err


def test_outside_a_course_generating_is_refused_and_a_course_without_config_is_not_a_course(tmp_path, capsys,
                                                                                             monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["build", "--variant", "sp19"]) == 2
    assert "not in a course folder" in capsys.readouterr().err
    assert main(["--course", str(tmp_path), "variants"]) == 2
    assert f"no hog-course.toml there (run 'hog init {tmp_path}'" in capsys.readouterr().err


def test_build_in_a_course_writes_into_the_course_and_never_solves_a_built_in_table(tmp_path, capsys):
    folder = init(tmp_path, "--variant", "nju24")
    assert main(["--course", str(folder), "build", "--variant", "nju24"]) == 0
    assert (folder / "solution" / "nju24" / "hog.py").is_file() and (folder / "docs" / "nju24").is_dir()
    assert main(["--course", str(folder), "build", "--check", "--variant", "nju24"]) == 0
    assert main(["--course", str(folder), "build", "--solve", "--variant", "nju24"]) == 2
    assert "come with the kit" in capsys.readouterr().err


def test_the_course_isolation_is_the_grading_minimum_unless_flag_or_environment_say_otherwise(tmp_path,
                                                                                              monkeypatch):
    from grader.commands.grading import isolation_level
    folder = init(tmp_path)
    edit(folder / "hog-course.toml", 'isolation = "files"', 'isolation = "bubblewrap"')
    monkeypatch.delenv("HOG_ISOLATION", raising=False)
    project.use(str(folder))
    assert isolation_level(None) == "bubblewrap"
    assert isolation_level("process") == "process"
    monkeypatch.setenv("HOG_ISOLATION", "files")
    assert isolation_level(None) == "files"
    project.use()
    monkeypatch.delenv("HOG_ISOLATION")
    assert isolation_level(None) == "files"


@pytest.mark.slow
@pytest.mark.parametrize("target", [".", "hog.py"], ids=["the folder", "its hog.py"])
def test_grading_never_reads_a_config_from_inside_the_submission(tmp_path, target):
    folder = init(tmp_path, "--variant", "sp19")
    edit(folder / "hog-course.toml", "q01 = 2", "q01 = 7")
    submission = folder / "submissions" / "mallory"
    submission.mkdir(parents=True)
    (submission / "hog.py").write_text('"""No code."""\n')
    (submission / "hog-course.toml").write_text((folder / "hog-course.toml").read_text()
                                                .replace('isolation = "files"', 'isolation = "process"')
                                                .replace("q01 = 7", "q01 = 100"))
    env = {"HOG_ISOLATION": "", "HOG_COURSE": ""}
    done = hog("grade", target, "--variant", "sp19", "--format", "json", env=env, cwd=submission)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results["score"] == 0
    assert results["tests"][0]["max_score"] == 7                     # the course's points, not the copy's
    assert f"Note: ignored {submission / 'hog-course.toml'}: a course config inside what is graded is never " \
           f"read (using hog-course.toml" in done.stderr.replace(str(submission.resolve()), str(submission))
    # The course's minimum (files) holds: forcing the process level is refused, as the copy would allow it.
    forced = hog("grade", target, "--variant", "sp19", env={**env, "HOG_SANDBOX": "process"}, cwd=submission)
    assert forced.returncode == 2 and "files" in forced.stderr


def test_course_apply_replaces_points_in_one_place(tmp_path):
    folder = init(tmp_path, "--variant", "fa18")
    edit(folder / "hog-course.toml", "q02 = 1", "q02 = 4")
    found = course.read(folder / "hog-course.toml")
    variant = load_variant("fa18")
    changed = course.apply(variant, found)
    assert [q.points for q in changed.questions] == [4 if q.key == "q02" else q.points for q in variant.questions]
    assert changed.points == variant.points + 3
    assert course.apply(variant, None) is variant
    assert assign.course_files(changed)                              # the bundle can carry it
