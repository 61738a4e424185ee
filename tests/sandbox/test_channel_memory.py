"""What a grading process remembers of the messages it read (grader/sandbox/remembered.py): each line
read and rebuilt once, within a budget of memory that a submission's answers cannot make it pass."""

from __future__ import annotations

import json
import threading
import tracemalloc

import pytest

from grader.sandbox import channel, remembered
from grader.sandbox.model import StepKind, Tampered


def step_line(case: int, value, stdout: str = "", step: int = 0) -> bytes:
    """A step message as the harness writes it (ASCII JSON, no spaces)."""
    return json.dumps(["step", case, step, stdout, value, None, None], separators=(",", ":")).encode("ascii")


def table(choice: int, size: int = 100) -> list:
    """A strategy's table in the channel's tagged form: ``size`` rows of ``size`` choices."""
    return ["l"] + [["l"] + [choice] * size for _ in range(size)]


@pytest.fixture
def store(monkeypatch):
    """A process that has read nothing yet (a store of the default budget)."""
    fresh = remembered.Remembered()
    monkeypatch.setattr(channel, "_remembered", fresh)
    return fresh


def read(line: bytes):
    """What the grader's reading makes of one line: the message, then its step result."""
    return channel.step_result(channel.decode(line), line)


def test_a_table_read_again_is_the_same_result_and_is_not_read_or_rebuilt(store, monkeypatch):
    line = step_line(3, table(4))
    first = read(line)
    monkeypatch.setattr(channel, "rebuild", lambda *a, **k: pytest.fail("rebuilt again"))
    monkeypatch.setattr(channel, "_decode", lambda *a, **k: pytest.fail("read again"))
    again = read(bytes(bytearray(line)))   # another submission's answer: equal bytes, another object
    assert again == first and again[2].value == [[4] * 100] * 100
    assert again[2].output == repr([[4] * 100] * 100) + "\n"


def test_an_answer_that_differs_by_one_choice_is_read_for_itself(store):
    changed = table(4)
    changed[51][8] = 5   # row 50, choice 7: after their tags
    assert read(step_line(3, table(4)))[2].value[50][7] == 4
    assert read(step_line(3, changed))[2].value[50][7] == 5


def test_short_messages_and_errors_read_as_before(store):
    assert read(step_line(1, 7))[2].output == "7\n"
    error = json.dumps(["step", 2, 0, "x" * 2000, None, "ValueError: no", "ValueError"]).encode()
    result = read(error)[2]
    assert (result.kind, result.error, result.output) == (StepKind.ERROR, "ValueError: no", "x" * 2000)
    assert read(error)[2] is result


def test_a_malformed_step_is_refused_every_time_and_its_result_never_kept(store):
    bad = step_line(3, ["l"] + [["i", "zz"]] * 500)
    for _ in range(2):
        with pytest.raises(Tampered):
            read(bad)
    assert bad not in store.entries


def test_a_line_that_is_not_json_is_refused_every_time_and_never_kept(store):
    for _ in range(2):
        with pytest.raises(Tampered, match="not valid JSON"):
            channel.decode(b'["step",1,0,"",[')
    assert not store.entries and store.held == 0


def test_many_distinct_tables_keep_what_is_held_within_the_budget_oldest_forgotten(monkeypatch):
    store = remembered.Remembered(2 << 20)
    monkeypatch.setattr(channel, "_remembered", store)
    lines = [step_line(n, table(n % 11)) for n in range(40)]
    for line in lines:
        read(line)
        assert store.held <= store.budget
    assert lines[-1] in store.entries and lines[0] not in store.entries
    assert store.held == sum(entry[2] for entry in store.entries.values())


def test_an_answer_many_give_stays_while_answers_given_once_come_and_go(monkeypatch):
    store = remembered.Remembered(3 << 20)   # room for two tables, not three
    monkeypatch.setattr(channel, "_remembered", store)
    common = step_line(0, table(4))
    for n in range(40):
        read(common)                      # every submission's right answer
        read(step_line(1, table(n % 11), stdout=str(n)))   # and an answer of its own
        assert common in store.entries and store.held <= store.budget


def test_a_result_that_needs_the_room_of_its_own_message_is_not_kept(monkeypatch):
    line = step_line(1, table(3, 10), stdout="p" * 500)
    store = remembered.Remembered(remembered.estimate(line) + 100)   # room for the message, not its text
    monkeypatch.setattr(channel, "_remembered", store)
    assert read(line)[2].value == [[3] * 10] * 10
    assert store.held == sum(entry[2] for entry in store.entries.values()) <= store.budget


@pytest.mark.slow   # 3.6 s: the longest test of the fast loop
def test_answers_built_to_hold_the_most_keep_a_process_within_its_budget(monkeypatch):
    """Short answers of many empty lists (each line under 1 KB, 30 KB once read and rebuilt): 8,192 of them
    made a process hold 259 MB when every line under 1 KB was kept. 1,200 such answers (36 MB, were they
    all kept) leave a store of 4 MB holding at most that."""
    store = remembered.Remembered(4 << 20)
    monkeypatch.setattr(channel, "_remembered", store)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for n in range(1200):
            read(step_line(n % 500, ["l"] + [["l"]] * 160, step=n // 500))
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(store.entries) < 1200 and store.held <= store.budget
    assert held <= store.budget + (1 << 20)   # and a little for the store's own table


SHAPES = {
    "a table": table(4),
    "empty lists": ["l"] + [["l"]] * 20_000,
    "lists of an empty list": ["l"] + [["l", ["l"]]] * 10_000,
    "tagged numbers": ["l"] + [["f", "0.5"], ["i", hex(1 << 70)], 123_456_789_012] * 7_000,
    "tuples and dictionaries": ["l"] + [["t", ["d", "k", ["l"]]]] * 1_900 + [["t", ["l"], ["t"]]] * 9_000,
    "two-letter strings": ["l"] + [chr(65 + n % 50) + chr(65 + n // 50 % 50) for n in range(20_000)],
    "functions": ["l"] + [["fn", f"f{n}"] for n in range(10_000)],
    "characters beyond ASCII": ["l"] + ["\U0001F600" * 3] * 5_000,
}


@pytest.mark.slow   # each shape builds and measures answers of many megabytes
@pytest.mark.parametrize("shape", SHAPES)
def test_what_a_remembered_message_holds_is_within_its_estimate(shape):
    """The estimate bounds the memory really held: the line, the message, the value rebuilt and shown."""
    store = remembered.Remembered(1 << 30)
    line = step_line(5, SHAPES[shape], stdout="printed \u00e9\U0001F600\n" * 100)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        copy = bytes(bytearray(line))   # the line the store keeps, made here to be counted
        message = channel._decode(copy)
        store.keep(copy, message, channel._step_result(message, len(copy)))
        del copy, message
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert store.held >= held, (store.held, held)


@pytest.mark.slow   # each shape builds and measures answers of many megabytes
@pytest.mark.parametrize("shape", SHAPES)
def test_what_a_step_result_holds_is_within_its_estimate(shape):
    """``held`` bounds the memory a step's result keeps once its message is gone (its text and its value):
    what grader.sandbox.run adds up against channel.MAX_HELD_BYTES."""
    line = step_line(5, SHAPES[shape], stdout="printed \u00e9\U0001F600\n" * 100)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        message = channel._decode(line)
        result = channel._step_result(message, len(line))[2]
        del message
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert result.held >= held, (result.held, held)
    assert result.held <= 8 * held + (64 << 10)   # and not so far above it that honest answers would fill it


def test_a_line_longer_than_any_remembered_is_read_each_time(store):
    huge = step_line(9, table(6), stdout="p" * remembered.LARGEST)
    assert read(huge)[2].value == [[6] * 100] * 100
    assert not store.entries


def test_threads_reading_and_keeping_at_once_leave_the_store_within_its_budget(monkeypatch):
    """A Dask worker may grade in several threads: what the store holds stays counted and bounded."""
    store = remembered.Remembered(3 << 20)
    monkeypatch.setattr(channel, "_remembered", store)
    common = step_line(0, table(4))

    def grade(thread: int) -> None:
        for n in range(30):
            read(common)
            read(step_line(1, table(n % 7), stdout=f"{thread} {n}"))

    workers = [threading.Thread(target=grade, args=(n,)) for n in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert store.held == sum(entry[2] for entry in store.entries.values()) <= store.budget
