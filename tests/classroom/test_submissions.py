"""What in a batch folder is a submission, and how a student's zip is unpacked: safely or not at all."""

import os
import stat
import zipfile
from pathlib import Path

import pytest

from grader.classroom import batch, submissions
from grader.report.spreadsheet import spreadsheet_cell
from grader.spec import load_variant


def make_zip(path: Path, members: dict[str, bytes], links: dict[str, str] = {}) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
        for name, target in links.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, target)
    return path


def test_a_zip_of_a_folder_is_unpacked_and_its_hog_py_found(tmp_path):
    archive = make_zip(tmp_path / "ada.zip", {"__MACOSX/proj/._hog.py": b"junk", "proj/hog.py": b"x = 1\n",
                                              "proj/dice.py": b"", "proj/deeper/hog.py": b"y = 2\n"})
    into = tmp_path / "into"
    into.mkdir()
    assert submissions.extract(archive, into) == into / "proj"
    assert (into / "proj/hog.py").read_bytes() == b"x = 1\n"
    assert not (into / "__MACOSX").exists()


@pytest.mark.parametrize("name", ["../evil.py", "/tmp/evil.py", "proj/../../evil.py", "..\\evil.py"])
def test_a_zip_member_outside_its_folder_is_refused_and_nothing_is_written(tmp_path, name):
    archive = make_zip(tmp_path / "bob.zip", {"hog.py": b"x = 1\n", name: b"print('escaped')\n"})
    into = tmp_path / "box" / "into"
    into.mkdir(parents=True)
    with pytest.raises(submissions.UnusableZip, match="outside its folder"):
        submissions.extract(archive, into)
    assert list(into.iterdir()) == [] and sorted(p.name for p in (tmp_path / "box").iterdir()) == ["into"]


def test_a_zip_holding_a_symbolic_link_is_refused(tmp_path):
    archive = make_zip(tmp_path / "cy.zip", {"hog.py": b"x = 1\n"}, links={"secrets": "/etc"})
    with pytest.raises(submissions.UnusableZip, match="symbolic link"):
        submissions.extract(archive, tmp_path)


def test_a_zip_bigger_than_the_cap_is_refused_before_anything_is_written(tmp_path, monkeypatch):
    monkeypatch.setattr(submissions, "MAX_BYTES", 1000)
    archive = make_zip(tmp_path / "dee.zip", {"hog.py": b"#" * 600, "big.py": b"#" * 600})
    into = tmp_path / "into"
    into.mkdir()
    with pytest.raises(submissions.UnusableZip, match="add up to more than"):
        submissions.extract(archive, into)
    assert list(into.iterdir()) == []


def test_a_broken_zip_is_the_submissions_zero_with_the_reason(tmp_path):
    (tmp_path / "eve.zip").write_bytes(b"PK\x03\x04 not really a zip")
    data, fault = batch.grade_one(load_variant("sp19"), tmp_path / "eve.zip", isolation="files", seed=3)
    assert not fault and data["score"] == 0 and data["grader_failed"] is False
    assert "the zip could not be used: eve.zip is not a zip that can be read" in data["output"]


def test_a_zip_escaping_its_folder_scores_zero_with_the_reason_and_leaves_nothing(tmp_path):
    archive = make_zip(tmp_path / "fay.zip", {"hog.py": b"x = 1\n", "../../fay-escaped.py": b"1\n"})
    data, fault = batch.grade_one(load_variant("sp19"), archive, isolation="files", seed=3)
    assert not fault and data["score"] == 0
    assert "would be written outside its folder" in data["output"]
    assert not list(tmp_path.parent.glob("fay-escaped.py")) and not list(tmp_path.glob("fay-escaped.py"))


def test_anything_that_is_not_a_submission_is_listed_with_why(tmp_path):
    (tmp_path / "ada").mkdir()
    (tmp_path / "bob.py").write_text("")
    (tmp_path / "cy.zip").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("")
    (tmp_path / ".DS_Store").write_text("")
    os.mkfifo(tmp_path / "pipe")
    found, skipped = submissions.scan(tmp_path)
    assert [p.name for p in found] == ["ada", "bob.py", "cy.zip"]
    assert {s.name: s.why for s in skipped} == {
        ".DS_Store": "a hidden file (its name starts with '.')",
        "notes.txt": "not a submission (a submission is a folder, a .py file or a .zip)",
        "pipe": "not a regular file or a folder"}


@pytest.mark.parametrize("text", ["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "\tx", "\rx"])
def test_a_cell_a_spreadsheet_would_run_as_a_formula_is_shown_as_text(text):
    assert spreadsheet_cell(text) == "'" + text
    assert spreadsheet_cell("ada") == "ada" and spreadsheet_cell(-2.0) == -2.0
