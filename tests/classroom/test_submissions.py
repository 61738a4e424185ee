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


def test_a_zip_listing_more_members_than_accepted_is_refused_before_its_list_is_read(tmp_path, monkeypatch):
    """Reading a zip's list makes an object of each member before any can be counted: a zip listing 3,000,000
    members made the grader hold 1.8 GB. The list's length, from the zip's end record, is checked first."""
    archive = make_zip(tmp_path / "gil.zip", {f"member-{number:04}.py": b"" for number in range(100)} |
                       {"hog.py": b"x = 1\n"})
    monkeypatch.setattr(submissions, "MAX_DIRECTORY_BYTES", 2000)
    monkeypatch.setattr(submissions.zipfile, "ZipFile", lambda *a, **k: pytest.fail("the list was read"))
    with pytest.raises(submissions.UnusableZip, match="list of members takes [0-9,]+ bytes"):
        submissions.extract(archive, tmp_path)


def test_a_zip_file_larger_than_its_members_may_be_is_refused_unread(tmp_path, monkeypatch):
    archive = make_zip(tmp_path / "hal.zip", {"hog.py": b"x = 1\n", "notes.txt": os.urandom(5000)})
    monkeypatch.setattr(submissions, "MAX_ARCHIVE_BYTES", 4000)
    with pytest.raises(submissions.UnusableZip, match="at most 0 MB are accepted"):
        submissions.extract(archive, tmp_path)


def _corrupt_deflate(path: Path) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("hog.py", b"x = 1\n" * 2000)
    data = bytearray(path.read_bytes())
    data[40:80] = b"\xff" * 40   # inside the compressed data, after the local header
    path.write_bytes(bytes(data))
    return path


def _not_utf8(path: Path) -> Path:
    make_zip(path, {"hog\u00e9.py": b"x = 1\n", "hog.py": b"x = 1\n"})   # marked as UTF-8
    path.write_bytes(path.read_bytes().replace("\u00e9".encode("utf-8"), b"\xff\xfe"))
    return path


MALFORMED = {
    "data that does not inflate": _corrupt_deflate,
    "a name longer than a file's": lambda path: make_zip(path, {"hog.py": b"", "a" * 300 + ".py": b""}),
    "folders 40 deep": lambda path: make_zip(path, {"hog.py": b"", "d/" * 40 + "x.py": b""}),
    "a file that is also a folder": lambda path: make_zip(path, {"a": b"", "a/b/hog.py": b""}),
    "a member named '.'": lambda path: make_zip(path, {"hog.py": b"", ".": b""}),
    "a name marked UTF-8 that is not": _not_utf8,
}


@pytest.mark.parametrize("shape", MALFORMED)
def test_a_malformed_zip_is_the_submissions_zero_with_the_reason_never_a_grader_fault(tmp_path, shape):
    """Each of these made the grader fail ("grader failed", the scratch folder's path in the message)."""
    archive = MALFORMED[shape](tmp_path / "ivy.zip")
    data, fault = batch.grade_one(load_variant("sp19"), archive, isolation="files", seed=3)
    assert not fault and data["score"] == 0 and data["grader_failed"] is False
    assert "the zip could not be used: " in data["output"] and "hog-zip-" not in data["output"]


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
