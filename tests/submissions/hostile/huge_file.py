"""Writes a 100 MB file where it can."""
import os
import tempfile


def square(x):
    return x * x


def write_huge_temp_file():
    handle, path = tempfile.mkstemp()
    try:
        with os.fdopen(handle, "wb") as out:
            for _ in range(100):
                out.write(b"x" * (1024 * 1024))
                out.flush()
    finally:
        os.unlink(path)
    return "wrote 100 MB"


def write_beside_submission():
    with open("notes.txt", "w") as out:
        out.write("hello")
    return "wrote notes.txt"
