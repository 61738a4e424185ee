"""Asks for far more memory than the limit."""


def square(x):
    return x * x


def allocate_4gb():
    return len(bytearray(4 * 1024 ** 3))


def grow_forever():
    chunks = []
    while True:
        chunks.append(bytearray(64 * 1024 ** 2))
