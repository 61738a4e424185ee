"""The kit's sheet: Bootstrap's own file as shipped, its dark colours by the system's setting."""

from grader.report import style


def test_the_kits_sheet_carries_bootstraps_dark_colours_by_the_systems_setting():
    sheet = style.kit_css()
    assert sheet.count("@media (prefers-color-scheme: dark)") == 1 and ":root{color-scheme:dark;" in sheet
    assert ".question.unscored" in sheet                                  # the kit's own rules after it
    assert b"Bootstrap  v5." in style.sheet("bootstrap.min.css")[:100]   # the library's own file, as shipped
