"""Code on a page: highlighted, numbered, escaped; its colours in the kit's sheet for light and dark."""

from grader.report import code, style


def test_code_is_shown_numbered_highlighted_and_escaped():
    shown = str(code.numbered('def roll(n):\n    return "<b>" if n else 0\n'))
    assert 'class="code-lines"' in shown and '<td class="linenos">' in shown
    assert ">1<" in shown and ">2<" in shown                  # a number for each line
    assert "&lt;b&gt;" in shown and "<b>" not in shown        # the code's text is never markup
    assert '<span class="k">def</span>' in shown               # highlighted


def test_the_kits_sheet_carries_bootstraps_dark_colours_and_the_codes_by_the_systems_setting():
    sheet = style.kit_css()
    assert sheet.count("@media (prefers-color-scheme: dark)") == 2
    assert ":root{color-scheme:dark;" in sheet and ".code-lines" in sheet
    assert b"Bootstrap  v5." in style.sheet("bootstrap.min.css")[:100]   # the library's own file, as shipped
