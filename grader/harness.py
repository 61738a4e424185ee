"""Hog kit sandbox harness: runs one submission's cases inside the sandbox.

This file never runs in the grader's own process.  ``grader.sandbox`` starts it
as ``python -S -s -B -P -c <the text of this file> CONTROL_FD RESULT_FD`` in a
scratch directory that holds the submission, so no file in that directory can
stand in for it, and it uses the standard library only.

Order of work:

1. Capture every builtin, type method and library function the harness needs,
   before any of the submission's code runs.  The rest of ``main`` only uses
   these captured references, so a submission that rebinds ``builtins.repr``,
   ``json.dumps``, ``io.StringIO`` or ``sys.stdout`` at import time changes
   nothing here (tests/test_sandbox.py checks this rule with the ``ast``
   module).
2. Read the configuration line from CONTROL_FD, lock the process down
   (resource limits, parent-death signal, no capabilities, and a seccomp
   filter that refuses new processes, programs, signals to other processes,
   tracing, network sockets and any change to the file system: see
   ``lockdown``), then import ``hog`` with stdout captured.
3. Report the import, then run cases one at a time as the grader sends them:
   each case gets a fresh namespace with a pristine copy of the builtins, the
   setup steps (after which any name shadowing a builtin is removed unless the
   grader allowed it), and then its steps.  Values are checked with exact type tests
   and sent as tagged plain data, never as text made by the submission's own
   ``__repr__``.

Messages to the grader are single lines of ASCII JSON on RESULT_FD:

    ["ready", unfiltered]                      (locked down, about to import; unfiltered
                                                is null, or why no seccomp filter is in place)
    ["import", ok, stdout, error, error_type]
    ["step", case, step, stdout, value, error, error_type]
    ["end", case]

``value`` is null (nothing to show) or tagged data: null, true, false, a JSON
string, a JSON integer (below 2**53 in size), ["i", hex] (larger integers),
["f", repr], ["l", ...items], ["t", ...items],
["d", key, value, ...] or ["fn", name].
"""


def main(argv):
    # -- 1. Capture what the harness needs, before any submission code runs. --
    import builtins
    import io
    import os
    import signal
    import sys
    import types
    from _json import encode_basestring_ascii
    import json.decoder

    _BaseException = BaseException
    _Exception = Exception
    _SyntaxError = SyntaxError
    _RecursionError = RecursionError
    _MemoryError = MemoryError
    _OSError = OSError
    _SystemExit = SystemExit
    _type = type
    _len = len
    _int = int
    _str = str
    _bool = bool
    _dict = dict
    _set = set
    _list = list
    _tuple = tuple
    _float = float
    _hex = hex
    _enumerate = enumerate
    _issubclass = issubclass
    _compile = compile
    _eval = eval
    _exec = exec
    _import = __import__
    _memoryview = memoryview
    _int_repr = int.__repr__
    _float_repr = float.__repr__
    _int_repr = int.__repr__
    _str_join = str.join
    _str_encode = str.encode
    _str_startswith = str.startswith
    _str_endswith = str.endswith
    _str_strip = str.strip
    _str_rpartition = str.rpartition
    _bytes_find = bytes.find
    _bytes_decode = bytes.decode
    _dict_items = dict.items
    _list_append = list.append
    _esc = encode_basestring_ascii
    _scan = json.decoder.JSONDecoder().scan_once
    _write = os.write
    _read = os.read
    _exit = os._exit
    _signal = signal.signal
    _getrecursionlimit = sys.getrecursionlimit
    _setrecursionlimit = sys.setrecursionlimit
    _StringIO = io.StringIO
    _getvalue = io.StringIO.getvalue
    _sys = sys
    _path_insert = list.insert
    _FunctionType = types.FunctionType
    _code_of = types.FunctionType.__dict__["__code__"].__get__
    _co_name = types.CodeType.__dict__["co_name"].__get__
    _co_filename = types.CodeType.__dict__["co_filename"].__get__
    _type_name = type.__dict__["__name__"].__get__
    _type_module = type.__dict__["__module__"].__get__
    _exc_traceback = BaseException.__dict__["__traceback__"].__get__
    _pristine = dict(builtins.__dict__)

    ctrl_fd = int(argv[0])
    result_fd = int(argv[1])

    SMALL_INT = 1 << 53  # integers below this travel as JSON numbers
    MAX_NODES = 100_000
    MAX_DEPTH = 100
    MAX_CHARS = 1_000_000
    MAX_MESSAGE = 10_000
    PLAIN = "int, float, bool, str, None, list, tuple, dict"

    class _Refused(_Exception):
        """A value that cannot be reported as plain data."""

    # -- Channel helpers. --
    pending = [b""]

    def receive():
        """The next JSON line from the grader, or None at the end of input."""
        while True:
            data = pending[0]
            newline = _bytes_find(data, b"\n")
            if newline >= 0:
                pending[0] = data[newline + 1:]
                return _scan(_bytes_decode(data[:newline], "utf-8"), 0)[0]
            chunk = _read(ctrl_fd, 1 << 16)
            if not chunk:
                return None
            pending[0] = data + chunk

    def send(parts):
        data = _str_encode(_str_join("", parts) + "\n", "ascii")
        view = _memoryview(data)
        while _len(view):
            try:
                written = _write(result_fd, view)
            except _OSError:
                _exit(70)
            view = view[written:]

    def text(value):
        return "null" if value is None else _esc(value)

    # -- Plain data: exact type checks, bounded, no submission code runs. --
    def describe_type(kind):
        name = _type_name(kind)
        if _type(name) is not _str:
            name = "?"
        module = _type_module(kind)
        if _type(module) is _str and module != "builtins":
            name = module + "." + name
        return name

    def encode(value, out, budget, depth, key):
        kind = _type(value)
        budget[0] += 1
        if budget[0] > MAX_NODES or depth > MAX_DEPTH:
            raise _Refused("returned a value too large to report (more than "
                           "100000 items, or nested deeper than 100 levels)")
        if value is None:
            _list_append(out, "null")
        elif kind is _bool:
            _list_append(out, "true" if value else "false")
        elif kind is _str:
            budget[1] += _len(value)
            if budget[1] > MAX_CHARS:
                raise _Refused("returned a value too large to report (more than "
                               "1000000 characters of text)")
            _list_append(out, _esc(value))
        elif kind is _int:
            if -SMALL_INT < value < SMALL_INT:
                _list_append(out, _int_repr(value))
            else:
                _list_append(out, '["i","' + _hex(value) + '"]')
        elif kind is _float:
            _list_append(out, '["f","' + _float_repr(value) + '"]')
        elif kind is _tuple or (kind is _list and not key):
            _list_append(out, '["t"' if kind is _tuple else '["l"')
            for item in value:
                _list_append(out, ",")
                encode(item, out, budget, depth + 1, key)
            _list_append(out, "]")
        elif kind is _dict and not key:
            _list_append(out, '["d"')
            for item_key, item_value in _dict_items(value):
                _list_append(out, ",")
                encode(item_key, out, budget, depth + 1, True)
                _list_append(out, ",")
                encode(item_value, out, budget, depth + 1, False)
            _list_append(out, "]")
        elif kind is _FunctionType and not key:
            name = _co_name(_code_of(value))
            if _type(name) is not _str:
                name = "?"
            _list_append(out, '["fn",' + _esc(name) + "]")
        else:
            where = "a value" if depth == 0 else "a value containing an object"
            raise _Refused("returned " + where + " of type " + describe_type(kind)
                           + ", which is not a plain value (" + PLAIN + ")")

    def encode_value(value):
        out = []
        limit = _getrecursionlimit()
        if limit < 1000:
            _setrecursionlimit(1000)
        try:
            encode(value, out, [0, 0], 0, False)
        finally:
            if limit < 1000:
                _setrecursionlimit(limit)
        return _str_join("", out)

    # -- Errors, told as an interactive interpreter would tell them. --
    def clip(message):
        if _len(message) > MAX_MESSAGE:
            return message[:MAX_MESSAGE] + "... [message shortened]"
        return message

    def describe(error):
        kind = _type(error)
        name = _type_name(kind)
        if _type(name) is not _str:
            name = "Exception"
        try:
            message = _str(error)
            if _type(message) is not _str:
                message = "<the exception's message could not be shown>"
        except _BaseException:
            message = "<the exception's message could not be shown>"
        return name, clip(name + ": " + message if message else name)

    def submission_line(error):
        """'hog.py, line 12' for the last frame of the submission's own files."""
        if _issubclass(_type(error), _SyntaxError):
            return None  # str(SyntaxError) already names the file and line
        found = None
        tb = _exc_traceback(error)
        while tb is not None:
            filename = _co_filename(tb.tb_frame.f_code)
            if _type(filename) is _str and _str_startswith(filename, folder + "/"):
                found = _str_rpartition(filename, "/")[2] + ", line " + _int_repr(tb.tb_lineno)
            tb = tb.tb_next
        return found

    # -- Running source as typed at the >>> prompt. --
    def run_source(source, namespace, want_value):
        """Return (stdout, encoded value or None, error or None, error type or None)."""
        buffer = _StringIO()
        original = _sys.stdout
        value = None
        expression = False
        error = None
        error_type = None
        _sys.stdout = buffer
        try:
            try:
                code = _compile(source, "<case>", "eval", 0, True)
                expression = True
            except _SyntaxError:
                code = _compile(source, "<case>", "exec", 0, True)
            if expression:
                value = _eval(code, namespace)
            else:
                _exec(code, namespace)
        except _BaseException as caught:
            _sys.stdout = original
            expression = False
            error_type, error = describe(caught)
            if _issubclass(_type(caught), _SystemExit):
                error = error + " (the submission tried to end the process)"
        _sys.stdout = original
        try:
            output = _getvalue(buffer)
            if _len(output) > MAX_CHARS:
                output = output[:MAX_CHARS] + "\n[output shortened: more than 1000000 characters]\n"
        except _MemoryError:
            output = "[the printed output was too large to keep]\n"
        buffer = None
        encoded = None
        if want_value and expression and value is not None:
            try:
                encoded = encode_value(value)
            except _Refused as refused:
                error = refused.args[0]
            except _RecursionError:
                error = "returned a value nested too deeply to report"
            except _MemoryError:
                error = "returned a value too large to report"
            except _BaseException as caught:
                error_type, error = describe(caught)
        return output, encoded, error, error_type

    # -- 2. Configuration and lockdown. --
    config = receive()
    if config is None:
        _exit(0)
    folder = config["dir"]
    setup = config["setup"]
    names = config["names"]
    limits = config["limits"]

    unfiltered = lockdown(config, limits)
    _signal(signal.SIGXFSZ, signal.SIG_IGN)  # an oversized write raises OSError instead
    # Start-up is over; the import allowance starts now.  The second field is
    # null when the system call filter is in place, else why it is not.
    send(['["ready",', text(unfiltered), "]"])

    _path_insert(_sys.path, 0, folder)
    buffer = _StringIO()
    original = _sys.stdout
    _sys.stdout = buffer
    import_error = None
    import_type = None
    try:
        _import("hog")
    except _BaseException as caught:
        _sys.stdout = original
        import_type, import_error = describe(caught)
        where = submission_line(caught)
        if _issubclass(_type(caught), _SystemExit):
            import_error = import_error + " (the submission tried to end the process" + (
                "" if where is None else " at " + where) + ")"
        elif where is not None:
            import_error = import_error + " (" + where + ")"
    _sys.stdout = original
    import_output = _getvalue(buffer)
    if _len(import_output) > MAX_CHARS:
        import_output = import_output[:MAX_CHARS] + "\n[output shortened]\n"
    send(['["import",', "false" if import_error else "true", ",", _esc(import_output),
          ",", text(import_error), ",", text(import_type), "]"])
    if import_error is not None:
        _exit(0)

    allowed = _set(names) if names is not None else _set()

    def clean(namespace):
        """Drop names that shadow builtins (a student's sum, len, print...) unless allowed.

        Whatever brought them in (import *, __all__, a module __getattr__), a
        name bound to anything but the real builtin is removed, so the case's
        own calls to builtins are the real ones.
        """
        for name in _list(namespace):
            if name in _pristine and name not in allowed and namespace[name] is not _pristine[name] \
                    and not (_str_startswith(name, "__") and _str_endswith(name, "__")):
                del namespace[name]
        namespace["__builtins__"] = _dict(_pristine)

    # -- 3. Cases, one at a time. --
    while True:
        request = receive()
        if request is None:
            _exit(0)
        case = request["case"]
        steps = request["steps"]
        case_text = _int_repr(case)
        namespace = {"__builtins__": _dict(_pristine), "__name__": "__main__"}
        failed = None
        for source in setup:
            output, encoded, error, error_type = run_source(source, namespace, False)
            if error is not None:
                failed = (clip("the setup step `" + _str_strip(source) + "` failed: " + error),
                          error_type)
                break
        if failed is not None:
            send(['["step",', case_text, ',0,"",null,', _esc(failed[0]), ",",
                  text(failed[1]), "]"])
            send(['["end",', case_text, "]"])
            continue
        clean(namespace)
        for index, source in _enumerate(steps):
            output, encoded, error, error_type = run_source(source, namespace, True)
            send(['["step",', case_text, ",", _int_repr(index), ",", _esc(output), ",",
                  "null" if encoded is None else encoded, ",", text(error), ",",
                  text(error_type), "]"])
            if error is not None:
                break
        send(['["end",', case_text, "]"])


def lockdown(config, limits):
    """Resource limits, parent-death signal, no capabilities, system call filter.

    Runs before the submission is imported.  Returns None once the seccomp
    filter is in place, else why it is not (an unknown machine type, or a
    kernel that refused it); the grader's report then says so.  The capability
    drop and the filter need a known machine type (x86_64 or aarch64);
    elsewhere the resource limits (and bubblewrap, where used) are what remains.

    The filter (the same in both modes, as defence in depth) refuses with EPERM:
    new processes and programs, tracing, signals to other processes, network
    sockets (AF_UNIX only, and no bind or connect), namespaces and mounts, and
    every change to the file system: open/openat asking for O_WRONLY, O_RDWR,
    O_CREAT, O_TRUNC or O_APPEND, creat, unlink, rename, mkdir, rmdir, link,
    symlink, mknod, truncate, fallocate, chmod, chown, utime and the xattr
    setters, in all their forms.  openat2 (whose flags sit behind a pointer
    the filter cannot read) fails with ENOSYS, so Python and the C library fall
    back to openat.  Reading files, and write() on descriptors already open
    (the result pipe, stdout on /dev/null), still work.
    """
    import ctypes
    import os
    import resource
    import signal
    import struct

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
    libc.prctl.restype = ctypes.c_int
    machine = os.uname().machine

    if config["mode"] == "process":
        # Die with the grader; if it is already gone, stop now.
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        if os.getppid() != config["parent"]:
            os._exit(0)

    def limit(kind, soft, hard=None):
        hard = soft if hard is None else hard
        current = resource.getrlimit(kind)[1]
        if current != resource.RLIM_INFINITY:
            soft, hard = min(soft, current), min(hard, current)
        resource.setrlimit(kind, (soft, hard))

    limit(resource.RLIMIT_AS, limits["memory_bytes"])
    limit(resource.RLIMIT_FSIZE, limits["file_bytes"])
    limit(resource.RLIMIT_NPROC, limits["processes"])
    limit(resource.RLIMIT_CORE, 0)
    # SIGXCPU at the soft limit; SIGKILL a second later if it is ignored.
    limit(resource.RLIMIT_CPU, limits["cpu_seconds"], limits["cpu_seconds"] + 1)

    # System call numbers: arch/x86/entry/syscalls/syscall_64.tbl, and for
    # aarch64 include/uapi/asm-generic/unistd.h (which has only the *at forms).
    # Numbers from 424 on are the same on every architecture.
    tables = {
        "x86_64": {
            "arch": 0xC000003E, "x32": True, "capset": 126,
            "kill": 62, "tgkill": 234, "prlimit64": 302, "socket": 41, "prctl": 157,
            "open": 2, "openat": 257,
            "deny": [
                # processes, programs, tracing, other processes' memory and signals
                57, 58, 56, 435, 59, 322, 101, 310, 311, 200, 424, 438, 129, 297, 312,
                # namespaces, mounts, kernel facilities
                272, 308, 165, 166, 155, 161, 321, 298, 323, 425, 426, 427, 250, 248, 249,
                246, 320, 175, 313, 176, 169, 167, 168, 304, 303, 430, 432, 429, 428, 433,
                442, 467, 179, 163, 164, 227, 159, 103, 153, 170, 171,
                # changes to the file system: creat, unlink(at), rename(at, at2),
                # mkdir(at), rmdir, link(at), symlink(at), mknod(at), truncate,
                # ftruncate, fallocate, chmod, fchmod(at, at2), chown, fchown,
                # lchown, fchownat, utime, utimes, futimesat, utimensat
                85, 87, 263, 82, 264, 316, 83, 258, 84, 86, 265, 88, 266, 133, 259,
                76, 77, 285, 90, 91, 268, 452, 92, 93, 94, 260, 132, 235, 261, 280,
                # setxattr, lsetxattr, fsetxattr, removexattr, lremovexattr,
                # fremovexattr, setxattrat, removexattrat, file_setattr
                188, 189, 190, 197, 198, 199, 463, 466, 469,
                # bind (a socket file), connect (other processes' services),
                # mq_open, mq_unlink
                49, 42, 240, 241,
            ],
        },
        "aarch64": {
            "arch": 0xC00000B7, "x32": False, "capset": 91,
            "kill": 129, "tgkill": 131, "prlimit64": 261, "socket": 198, "prctl": 167,
            "open": None, "openat": 56,
            "deny": [
                220, 435, 221, 281, 117, 270, 271, 130, 424, 438, 138, 240, 272,
                97, 268, 40, 39, 41, 51, 280, 241, 282, 425, 426, 427, 219, 217, 218,
                104, 294, 105, 273, 106, 142, 224, 225, 265, 264, 430, 432, 429, 428,
                433, 442, 467, 60, 89, 170, 112, 171, 116, 58, 161, 162,
                # unlinkat, renameat, renameat2, mkdirat, linkat, symlinkat,
                # mknodat, truncate, ftruncate, fallocate, fchmod, fchmodat,
                # fchmodat2, fchownat, fchown, utimensat
                35, 38, 276, 34, 37, 36, 33, 45, 46, 47, 52, 53, 452, 54, 55, 88,
                5, 6, 7, 14, 15, 16, 463, 466, 469,
                200, 203, 180, 181,
            ],
        },
    }
    table = tables.get(machine)
    if table is None:
        return "no system call filter is known for this machine type (" + machine + ")"

    # Give up every capability (a grader run as root keeps its uid but loses
    # the powers that would let the submission raise limits or trace others).
    header = struct.pack("=Ii", 0x20080522, 0)
    data = bytes(24)
    libc.syscall(ctypes.c_long(table["capset"]), ctypes.c_char_p(header), ctypes.c_char_p(data))

    if not config.get("filter", True):
        return "the grader turned it off"

    pid = os.getpid()
    allow, deny, kill = 0x7FFF0000, 0x00050000 | 1, 0x80000000   # EPERM
    enosys = 0x00050000 | 38
    # O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND (the same on both machines;
    # O_TMPFILE needs O_WRONLY or O_RDWR, so it is covered too).
    writing = 0o1 | 0o2 | 0o100 | 0o1000 | 0o2000
    program = []  # (code, true target, false target, k); targets are labels or None

    def op(code, k, true=None, false=None):
        program.append((code, true, false, k))

    def label(name):
        program.append(name)

    LOAD, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06
    ARG = [16 + 8 * number for number in range(6)]  # low half of each argument (little-endian)
    op(LOAD, 4)                                   # architecture
    op(JEQ, table["arch"], None, "kill")
    op(LOAD, 0)                                   # system call number
    if table["x32"]:
        op(JGE, 0x40000000, "kill", None)
    op(JEQ, table["openat"], "openat", None)      # the most frequent of these first
    if table["open"] is not None:
        op(JEQ, table["open"], "open", None)
    op(JEQ, 437, "enosys", None)                  # openat2
    for number in table["deny"]:
        op(JEQ, number, "deny", None)
    op(JEQ, table["kill"], "pid_or_zero", None)
    op(JEQ, table["tgkill"], "own_pid", None)
    op(JEQ, table["prlimit64"], "pid_or_zero", None)
    op(JEQ, table["socket"], "socket", None)
    op(JEQ, table["prctl"], "prctl", None)
    op(RET, allow)
    label("openat")
    op(LOAD, ARG[2])                              # openat(dirfd, path, flags, mode)
    op(JSET, writing, "deny", "allow")
    if table["open"] is not None:
        label("open")
        op(LOAD, ARG[1])                          # open(path, flags, mode)
        op(JSET, writing, "deny", "allow")
    label("pid_or_zero")
    op(LOAD, ARG[0])
    op(JEQ, 0, "allow", None)
    label("own_pid")
    op(LOAD, ARG[0])
    op(JEQ, pid, "allow", "deny")
    label("socket")
    op(LOAD, ARG[0])
    op(JEQ, 1, "allow", "deny")                   # AF_UNIX only
    label("prctl")
    op(LOAD, ARG[0])
    op(JEQ, 1, "deny", "allow")                   # no clearing PR_SET_PDEATHSIG
    label("allow")
    op(RET, allow)
    label("deny")
    op(RET, deny)
    label("enosys")
    op(RET, enosys)
    label("kill")
    op(RET, kill)

    positions = {}
    count = 0
    for item in program:
        if isinstance(item, str):
            positions[item] = count
        else:
            count += 1
    code_bytes = []
    index = 0
    for item in program:
        if isinstance(item, str):
            continue
        code, true, false, k = item
        jt = 0 if true is None else positions[true] - index - 1
        jf = 0 if false is None else positions[false] - index - 1
        if not (0 <= jt <= 255 and 0 <= jf <= 255):
            return "the system call filter is too long to assemble"
        code_bytes.append(struct.pack("=HBBI", code, jt, jf, k))
        index += 1
    filters = ctypes.create_string_buffer(b"".join(code_bytes))

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = Program(index, ctypes.cast(filters, ctypes.c_void_p))
    if libc.prctl(38, 1, 0, 0, 0) != 0:                 # PR_SET_NO_NEW_PRIVS
        return "the kernel refused PR_SET_NO_NEW_PRIVS (errno " + str(ctypes.get_errno()) + ")"
    if libc.prctl(22, 2, ctypes.addressof(prog), 0, 0) != 0:   # PR_SET_SECCOMP, FILTER
        return "the kernel refused the seccomp filter (errno " + str(ctypes.get_errno()) + ")"
    return None


if __name__ == "__main__":
    import sys as _startup_sys
    main(_startup_sys.argv[1:])
