"""The messages a grading process has read before, by their exact bytes, within a budget of memory.

A batch's submissions answer the same cases, most of them alike, and a worker grades one after another:
so a message it has read before (the same bytes) is not read, rebuilt and shown again
(``grader.sandbox.channel``).  What the grader makes of a message is never changed by its readers.

What the submission sends decides what an entry holds, so every entry is estimated from its bytes
before it is kept: the line itself and the strings read from it (at most a byte of memory per byte of
JSON, an escape being longer than the character it stands for), a list object for each ``[`` (the
message's, the slice and the list or tuple rebuilt from it) and a place in two lists and an object for
each ``,`` (a large integer, a short string, a function's name); the text shown is added with its exact
size.  tests/sandbox/test_channel_memory.py checks these against what is really held, for the shapes
that hold the most per byte sent.  Once the whole passes the budget, entries go in the order they came,
except that one read again since it came (or since it was last passed over) is passed over once: so
the answers most submissions give stay.  A submission can make the grader forget what it read, never
hold more than the budget.
"""

from __future__ import annotations

import sys
import threading

BUDGET = 64 << 20          # bytes of memory, as estimated, for all entries of a process
LARGEST = 1 << 20          # a longer line is read each time (it is one of a kind: a long printout)
LIST_BYTES = 240           # per "[": three list objects of a few items, and a tag's place
ITEM_BYTES = 80            # per ",": places in the message's list and the rebuilt one, and an object


def estimate(line: bytes) -> int:
    """An upper bound of the memory a message and what is rebuilt from it hold (the text shown apart)."""
    return 2 * len(line) + LIST_BYTES * line.count(b"[") + ITEM_BYTES * (line.count(b",") + 1)


class Remembered:
    """Entries ``[message, step result or None, estimated size, read again]`` by line, the oldest first.

    Reading takes no lock (a dictionary's ``get`` and a list's item are atomic); keeping takes one, as a
    Dask worker may grade in several threads."""

    def __init__(self, budget: int = BUDGET):
        self.budget, self.held = budget, 0
        self.entries: dict[bytes, list] = {}
        self.lock = threading.Lock()

    def get(self, line: bytes, again: bool = False) -> list | None:
        """The entry of ``line``, if any; ``again``: it is being read again (the message taken anew)."""
        entry = self.entries.get(line) if len(line) <= LARGEST else None   # a long line is not even hashed
        if again and entry is not None:
            entry[3] = True
        return entry

    def keep(self, line: bytes, message, result=None) -> None:
        """Remember what ``line`` reads as (a step message with its step result)."""
        if len(line) > LARGEST:
            return
        size = estimate(line) + (0 if result is None else sys.getsizeof(result[2].output))
        entry = [message, result, size, False]
        with self.lock:
            if line not in self.entries and (self.held + size <= self.budget or self._room(size)):
                self.entries[line] = entry
                self.held += size

    def _room(self, size: int) -> bool:
        """Room for ``size`` more, made by forgetting the oldest entries not read again; False if it
        would not fit at all."""
        if size > self.budget:
            return False
        passes = len(self.entries)   # bounded: a reader may mark entries read again meanwhile
        while self.entries and self.held + size > self.budget:
            oldest = next(iter(self.entries))
            entry = self.entries.pop(oldest)
            if entry[3] and passes > 0:
                passes -= 1
                entry[3] = False            # passed over once: it goes to the end
                self.entries[oldest] = entry
            else:
                self.held -= entry[2]
        return True
