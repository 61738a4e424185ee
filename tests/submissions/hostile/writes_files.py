"""Tries to change files anywhere: overwrite, create, rename, delete, link, chmod...

Each attack names a way of changing the file system; ``tamper`` tries it and
says what happened, so a test can check that every one was refused and that
nothing changed outside the sandbox.  ``poison_cache`` and ``forge_result`` are
the two attacks an audit made without bubblewrap: rewrite the grader's cached
hidden cases, and write a forged result file into a batch's output folder.
"""
import ctypes
import os
import socket
import tempfile


def square(x):
    return x * x


def _write(path, mode):
    with open(path, mode) as out:
        out.write("forged")


def _creat(path, _other):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.creat(os.fsencode(path), 0o644) < 0:
        number = ctypes.get_errno()
        raise OSError(number, os.strerror(number))


def _openat2(path, _other):
    libc = ctypes.CDLL(None, use_errno=True)
    how = (ctypes.c_uint64 * 3)(os.O_WRONLY | os.O_CREAT, 0o644, 0)  # struct open_how
    libc.syscall.restype = ctypes.c_long
    result = libc.syscall(ctypes.c_long(437), ctypes.c_int(-100), ctypes.c_char_p(os.fsencode(path)),
                          how, ctypes.c_size_t(24))
    if result < 0:
        number = ctypes.get_errno()
        raise OSError(number, os.strerror(number))
    os.close(result)


def _bind(path, _other):
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(path)


ATTACKS = {
    "overwrite": lambda path, other: _write(path, "w"),
    "append": lambda path, other: _write(path, "a"),
    "open read-write": lambda path, other: os.close(os.open(path, os.O_RDWR)),
    "open truncating": lambda path, other: os.close(os.open(path, os.O_RDONLY | os.O_TRUNC)),
    "create": lambda path, other: _write(other, "x"),
    "creat": _creat,
    "openat2": _openat2,
    "mkstemp": lambda path, other: tempfile.mkstemp(dir=os.path.dirname(path)),
    "rename": lambda path, other: os.rename(path, other),
    "replace": lambda path, other: os.replace(path, other),
    "unlink": lambda path, other: os.unlink(path),
    "mkdir": lambda path, other: os.mkdir(other),
    "rmdir": lambda path, other: os.rmdir(os.path.join(os.path.dirname(path), "folder")),
    "link": lambda path, other: os.link(path, other),
    "symlink": lambda path, other: os.symlink(path, other),
    "mkfifo": lambda path, other: os.mkfifo(other),
    "truncate": lambda path, other: os.truncate(path, 0),
    "chmod": lambda path, other: os.chmod(path, 0o777),
    "chown": lambda path, other: os.chown(path, os.getuid(), os.getgid()),
    "utime": lambda path, other: os.utime(path, (0, 0)),
    "setxattr": lambda path, other: os.setxattr(path, "user.hog", b"forged"),
    "bind": _bind,
}


def tamper(kind, path, other):
    """'changed' if the attack worked, else the error it met (type and errno name)."""
    try:
        ATTACKS[kind](path, other)
    except OSError as error:
        import errno
        return type(error).__name__ + " " + errno.errorcode.get(error.errno, str(error.errno))
    return "changed"


def tamper_all(path, other):
    return {kind: tamper(kind, path, other) for kind in ATTACKS}


def poison_cache(folder):
    """Rewrite every cached hidden case file: each expected output becomes "1"."""
    changed = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            path = os.path.join(folder, name)
            with open(path) as handle:
                text = handle.read()
            with open(path, "w") as out:
                out.write(text.replace('"2\\n"', '"1\\n"'))
            changed.append(name)
    return changed


def forge_result(folder, name="other-student.json"):
    """Write a full-marks result for another student, atomically, as a batch would."""
    handle, temporary = tempfile.mkstemp(dir=folder)
    with os.fdopen(handle, "w") as out:
        out.write('{"score": 26, "max_score": 26, "tests": []}')
    os.replace(temporary, os.path.join(folder, name))
    return "forged " + name
