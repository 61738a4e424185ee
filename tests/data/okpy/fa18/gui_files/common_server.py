"""The GUI's server: the functions the page may call, by name."""

PATHS = {}


def route(fn):
    """Let the page call ``fn`` by its name."""
    PATHS[fn.__name__] = fn
    return fn
