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


def fill_shared_memory():
    """Writes 1 MB files to /dev/shm until something stops it (at most 200)."""
    written = []
    try:
        for number in range(200):
            path = f"/dev/shm/hog-{number}"
            written.append(path)
            with open(path, "wb") as out:
                out.write(b"x" * (1024 * 1024))
        return "wrote 200 MB"
    except OSError as error:
        return f"{type(error).__name__} after {len(written) - 1} files: {error.strerror}"
    finally:
        for path in written:
            try:
                os.unlink(path)
            except OSError:
                pass
