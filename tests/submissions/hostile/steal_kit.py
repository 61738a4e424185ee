"""No game code at all: finds the kit from inside the sandbox and re-exports its reference solution.

It looks where a grader leaves traces: the parent's command line and working
folder in /proc, every process's in /proc, and the usual places on disk; then
it loads the first reference hog.py it can read and copies its names here.
Where none of those holds one, it walks the whole disk it can see (bounded).
It also tries to read the hidden-case cache and its key (HOG_CACHE, passed in
by the test as ``CACHE``).  ``loot()`` says what it got.
"""
import glob
import os

CACHE = None  # the test appends the cache folder here
found = []


def _read(path, size=200):
    try:
        with open(path, "rb") as handle:
            return handle.read(size)
    except OSError:
        return None


def _kit_roots():
    roots = []
    pids = [str(os.getppid()), "1"]
    try:
        pids += [entry for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        pass
    for pid in pids[:200]:
        for part in (_read(f"/proc/{pid}/cmdline", 4096) or b"").split(b"\0"):
            text = part.decode("utf-8", "replace")
            if text.startswith("/"):
                roots.append(os.path.dirname(text))
        try:
            roots.append(os.readlink(f"/proc/{pid}/cwd"))
        except OSError:
            pass
    return roots + ["/work", "/work/main", os.path.expanduser("~")]


def _steal():
    for root in _kit_roots():
        for pattern in ("solution/*/hog.py", "*/solution/*/hog.py", "*/*/solution/*/hog.py",
                        "grader/shipped/*.py", "*/grader/shipped/*.py"):
            try:
                paths = sorted(glob.glob(os.path.join(root, pattern)))
            except OSError:
                continue
            for path in paths:
                source = _read(path, 1 << 20)
                if source and b"def play" in source:
                    found.append(path)
                    namespace = {"__name__": "stolen"}
                    try:
                        exec(compile(source, path, "exec"), namespace)
                    except Exception:
                        continue
                    globals().update({k: v for k, v in namespace.items() if not k.startswith("__")})
                    return


def _walk():
    """Then the whole disk, as far as it is visible, within a bound: any hog.py that plays."""
    import time
    began, seen = time.monotonic(), 0
    for folder, folders, files in os.walk("/"):
        folders[:] = [name for name in folders if os.path.join(folder, name) not in ("/proc", "/sys", "/dev")]
        seen += len(folders) + len(files)
        if seen > 200_000 or time.monotonic() - began > 3:
            return
        if "hog.py" in files and not os.path.samefile(folder, os.getcwd()):
            source = _read(os.path.join(folder, "hog.py"), 1 << 20)
            if source and b"def play" in source and b"def final_strategy" in source:
                found.append(os.path.join(folder, "hog.py"))
                namespace = {"__name__": "stolen"}
                try:
                    exec(compile(source, found[-1], "exec"), namespace)
                except Exception:
                    continue
                globals().update({k: v for k, v in namespace.items() if not k.startswith("__")})
                return


def loot():
    """What was read: the reference it found, and the first bytes of the cache and its key."""
    cache = []
    if CACHE:
        try:
            for name in sorted(os.listdir(CACHE)):
                data = _read(os.path.join(CACHE, name), 40)
                cache.append((name, data is not None))
        except OSError as error:
            cache.append(type(error).__name__)
    return found[:1], cache


_steal()
if not found:
    _walk()


def square(x):
    return x * x
