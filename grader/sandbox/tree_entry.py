"""Inside the sandbox (part of the harness text): entering the file tree and becoming the sandbox's uid.

Used at the ``files`` level where Landlock is refused (``grader.sandbox.tree`` says why and makes the
tree). The process starts as root, so it runs before the resource limits (a change of uid clears the
parent-death signal that ``set_limits`` sets) and before any of the submission's code: ``chroot`` into
the tree, into the scratch folder as the tree shows it, then every group and the uid given up for the
sandbox's own. Without the capability it just gave up, the process cannot leave the tree.
"""


def enter_tree(tree, folder, uid):
    """Enter ``tree`` and switch to ``uid``; returns None, or why it could not (nothing of the
    submission's has run: a start-up failure, the kit's)."""
    import ctypes   # loaded before the tree is entered: the limits and the filter use them
    import os
    import resource  # noqa: F401

    try:
        os.chroot(tree)
        os.chdir(folder)
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    except OSError as error:
        return "the sandbox could not enter its file tree as its own uid (" + str(error) + ")"
    if os.getuid() != uid or os.geteuid() != uid or os.getgid() != uid or os.getgroups():
        return "the sandbox's uid did not change as asked"
    del ctypes
    return None
