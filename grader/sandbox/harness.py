"""Inside the sandbox: the harness that runs one submission's cases (the last part of the harness text).

Never run in the grader's process: ``grader.sandbox.boot`` says how the
sandbox gets it; it uses the standard library only.  Order of work:

1. Capture every builtin, type method and library function the harness needs,
   before any of the submission's code runs.  The rest of ``main`` only uses
   these captured references, so a submission that rebinds ``builtins.repr``,
   ``io.StringIO`` or ``sys.stdout`` at import time changes nothing here
   (tests/sandbox/test_sandbox_protocol.py checks it with ``ast``).  So ``main`` is one
   long function: the captured names are its locals, its helpers closures
   over them; a reader audits the rule in one scope.
2. Read the configuration line from CONTROL_FD, lock the process down
   (at the ``files`` level without Landlock ``enter_tree``, chroot; ``set_limits``;
   at the ``files`` level ``confine_files``, Landlock;
   ``install_filter``, the seccomp filter), then import ``hog``, stdout captured.
3. Report the import, then run the cases in the order the grader sends them:
   each gets a fresh namespace with a pristine copy of the builtins, the setup
   steps (then any name shadowing a builtin is removed unless allowed), then its
   steps.  Values are checked with exact type tests and sent as tagged plain
   data (see grader/sandbox/channel.py), never as text made by the submission.
"""


def main(argv):
    # -- 1. Capture what the harness needs, before any submission code runs. --
    import builtins
    import io
    import os
    import _signal as signal  # the C module: the signal package would import enum
    import sys
    import types
    import _operator
    import itertools
    import marshal
    from binascii import a2b_base64
    from _json import encode_basestring_ascii, make_scanner

    # Exceptions, types and functions, as the interpreter had them before the import.
    _BaseException, _Exception, _SyntaxError = BaseException, Exception, SyntaxError
    _RecursionError, _MemoryError, _OSError, _SystemExit = RecursionError, MemoryError, OSError, SystemExit
    _type, _len, _int, _str, _bool, _float, _hex = type, len, int, str, bool, float, hex
    _dict, _set, _list, _tuple = dict, set, list, tuple
    _map, _all, _min, _max, _zip, _range = map, all, min, max, zip, range
    _is = _operator.is_
    _repeat = itertools.repeat
    _issubclass, _compile, _eval, _exec, _import = issubclass, compile, eval, exec, __import__
    _memoryview = memoryview
    _int_repr, _float_repr = int.__repr__, float.__repr__
    _str_join, _str_encode, _str_strip, _str_rpartition = str.join, str.encode, str.strip, str.rpartition
    _str_startswith, _str_endswith = str.startswith, str.endswith
    _bytes_find, _bytes_decode = bytes.find, bytes.decode
    _code_from = marshal.loads
    _dict_items = dict.items
    _list_append = list.append
    _esc = encode_basestring_ascii
    class _Context:  # what JSON's C scanner reads of a decoder (no json package: it would import re)
        strict, object_hook, object_pairs_hook, memo = True, None, None, {}
        parse_float, parse_int, parse_constant = _float, _int, None
    _scan = make_scanner(_Context())
    _write, _read, _exit, _getpid = os.write, os.read, os._exit, os.getpid
    _signal = signal.signal
    _getrecursionlimit, _setrecursionlimit = sys.getrecursionlimit, sys.setrecursionlimit
    _StringIO, _getvalue = io.StringIO, io.StringIO.getvalue
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

    BOOL_TEXT = {True: "true", False: "false"}

    def plain_run(items):
        """The items as JSON when all are exactly int (small) or all exactly bool, else None.
        Only C calls: no method of a submission's class can run here."""
        if _all(_map(_is, _map(_type, items), _repeat(_int))):
            if -SMALL_INT < _min(items) and _max(items) < SMALL_INT:
                return _str_join(",", _map(_int_repr, items))
        elif _all(_map(_is, _map(_type, items), _repeat(_bool))):
            return _str_join(",", _map(BOOL_TEXT.__getitem__, items))
        return None

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
        elif (kind is _tuple or (kind is _list and not key)) and _len(value) > 1 \
                and (joined := plain_run(value)) is not None:
            # A run of small integers or of bools (a table): one join instead of an encode per item.
            budget[0] += _len(value)
            if budget[0] > MAX_NODES:
                raise _Refused("returned a value too large to report (more than "
                               "100000 items, or nested deeper than 100 levels)")
            _list_append(out, ('["t",' if kind is _tuple else '["l",') + joined + "]")
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
    compiled = {}  # the setup steps' code, compiled once

    def run_source(source, namespace, want_value, keep=False, given=None):
        """Return (stdout, encoded value or None, error or None, error type or None).
        ``keep``: compile the source once for every case (the setup steps); ``given``: its
        (code, whether an expression) as the grader compiled it."""
        buffer = _StringIO()
        original = _sys.stdout
        value = None
        expression = False
        error = None
        error_type = None
        _sys.stdout = buffer
        try:
            known = compiled.get(source) if keep else given
            if known is not None:
                code, expression = known
            else:
                try:
                    code = _compile(source, "<case>", "eval", 0, True)
                    expression = True
                except _SyntaxError:
                    code = _compile(source, "<case>", "exec", 0, True)
                if keep:
                    compiled[source] = (code, expression)
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
    # Loaded while an early sandbox waits: ctypes (the lockdown's system calls), random (dice.py's).
    import ctypes  # noqa: F401
    import random  # noqa: F401
    config = receive()
    if config is None:
        _exit(0)
    folder = config["dir"]
    setup = config["setup"]
    names = config["names"]
    limits = config["limits"]

    # Lock the process down: the layers come from the files concatenated before
    # this one (tree_entry.py, limits.py, landlock.py, syscall_filter.py).
    refused = enter_tree(config["tree"], folder, config["uid"]) if config["tree"] is not None else None
    set_limits(config, limits)
    if refused is None and config["landlock"] is not None:
        refused = confine_files(config["landlock"])
    if refused is not None:
        # The level the grader chose cannot be reached: a start-up failure, not the submission's.
        send(['["unavailable",', _esc(refused), "]"])
        _exit(71)
    unfiltered = install_filter(_getpid()) if config["filter"] else "the grader turned it off"
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

    # -- 3. Cases, in the order they come. --
    while True:
        request = receive()
        if request is None:
            _exit(0)
        case = request["case"]
        steps = request["steps"]
        # The steps' code, compiled by the grader (base64 of marshal): None for one it left to us.
        given = _code_from(a2b_base64(request["code"])) if "code" in request else _repeat(None)
        case_text = _int_repr(case)
        namespace = {"__builtins__": _dict(_pristine), "__name__": "__main__"}
        failed = None
        for source in setup:
            output, encoded, error, error_type = run_source(source, namespace, False, True)
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
        ending = ['\n["end",', case_text, "]"]
        for index, source, known in _zip(_range(_len(steps)), steps, given):
            output, encoded, error, error_type = run_source(source, namespace, True, False, known)
            last = error is not None or index == _len(steps) - 1   # the end goes in the same write
            send(['["step",', case_text, ",", _int_repr(index), ",", _esc(output), ",",
                  "null" if encoded is None else encoded, ",", text(error), ",",
                  text(error_type), "]", *(ending if last else ())])
            if last:
                break
        else:
            send(['["end",', case_text, "]"])
