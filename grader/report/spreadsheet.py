"""Cells of the CSV files the kit writes (gradebooks, standings, Canvas columns): safe in a spreadsheet.

Submission names and what students' code returned are untrusted text: a cell that starts as a formula
would run as one when the file is opened.
"""

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value):
    """A CSV cell a spreadsheet shows as text, never runs as a formula (numbers pass as they are)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
