"""What the grader remembers of the sandbox's large step messages (a strategy's tables): read and
rebuilt once per process, held within a budget a submission cannot pass, never kept when malformed."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from grader.sandbox import channel
from grader.sandbox.model import StepKind, Tampered


def step_line(case: int, value, stdout: str = "") -> bytes:
    """A step message as the harness writes it (ASCII JSON, no spaces)."""
    return json.dumps(["step", case, 0, stdout, value, None, None], separators=(",", ":")).encode("ascii")


def table(choice: int, size: int = 100) -> list:
    """A strategy's table in the channel's tagged form: ``size`` rows of ``size`` choices."""
    return ["l"] + [["l"] + [choice] * size for _ in range(size)]


@pytest.fixture
def fresh(monkeypatch):
    """A process that has read no large message yet (``channel._large`` of the default budget)."""
    monkeypatch.setattr(channel, "_large", channel._Large(channel.LARGE_BUDGET))
    return channel._large


def read(line: bytes):
    """What the grader's reading makes of one line: the message, then its step result."""
    return channel.step_result(channel.decode(line), line)


def test_a_table_read_again_is_the_same_result_and_is_not_rebuilt(fresh, monkeypatch):
    line = step_line(3, table(4))
    first = read(line)
    rebuilt = []
    monkeypatch.setattr(channel, "rebuild", lambda *a, **k: rebuilt.append(a) or pytest.fail("rebuilt again"))
    again = read(bytes(line))   # another submission's answer: equal bytes, another object
    assert again == first and again[2].value == [[4] * 100] * 100
    assert again[2].output == repr([[4] * 100] * 100) + "\n" and not rebuilt


def test_an_answer_that_differs_by_one_choice_is_read_for_itself(fresh):
    changed = table(4)
    changed[51][8] = 5   # row 50, choice 7: after their tags
    assert read(step_line(3, table(4)))[2].value[50][7] == 4
    assert read(step_line(3, changed))[2].value[50][7] == 5


def test_short_messages_and_errors_read_as_before(fresh):
    assert read(step_line(1, 7))[2].output == "7\n"
    error = json.dumps(["step", 2, 0, "x" * 2000, None, "ValueError: no", "ValueError"]).encode()
    result = read(error)[2]
    assert (result.kind, result.error, result.output) == (StepKind.ERROR, "ValueError: no", "x" * 2000)


def test_a_malformed_large_message_is_refused_every_time_and_never_kept(fresh):
    bad = step_line(3, ["l"] + [["i", "zz"]] * 500)
    for _ in range(2):
        with pytest.raises(Tampered):
            read(bad)
    assert not fresh.entries and fresh.held == 0


def test_many_distinct_tables_keep_what_is_held_within_the_budget_oldest_forgotten(monkeypatch):
    kept = channel._Large(2 << 20)
    monkeypatch.setattr(channel, "_large", kept)
    lines = [step_line(n, table(n % 11)) for n in range(40)]
    for line in lines:
        read(line)
        assert kept.held <= kept.budget
    assert lines[-1] in kept.entries and lines[0] not in kept.entries
    assert kept.held == sum(size for _, _, size in kept.entries.values())


def test_what_a_remembered_message_holds_is_within_its_estimate():
    """The estimate is an upper bound of the memory really held, for tables and for the shape that
    holds the most per byte sent (lists of empty lists: 3 bytes each, a list object each)."""
    empties = ["l"] + [["l", ["l"]] for _ in range(20_000)]
    numbers = ["l"] + [["f", "0.5"], ["i", hex(1 << 70)], 123_456_789_012] * 7_000
    nested = ["l"] + [["t", ["d", "k", ["l"]]]] * 1_900 + [["t", ["l"], ["t"]]] * 10_000
    for value in (table(4), empties, numbers, nested):
        kept = channel._Large(channel.LARGE_BUDGET)
        line = step_line(5, value, stdout="printed\n" * 100)
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            message = channel.decode(line)
            count = [0, 0, 0]
            result = channel._step_result(message, count)
            kept.keep(line, message, result, count)
            del message, result
            held = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        assert kept.held >= held + len(line), (kept.held, held)


def test_a_line_larger_than_a_remembered_one_is_read_each_time(fresh):
    huge = step_line(9, table(6), stdout="p" * channel.LARGE_BYTES)
    assert read(huge)[2].value == [[6] * 100] * 100
    assert not fresh.entries
