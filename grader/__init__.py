"""Hog kit: specs, reference solutions, skeletons, cases and grading for the dice game Hog."""

__version__ = "0.1.0"
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")   # what _one_blas_thread sets


def _one_blas_thread() -> None:
    """The kit's processes run numpy's BLAS on one thread, unless the environment says otherwise.

    Every core already has a process of the kit on it (a sandbox, a batch worker, the grader reading
    results), and the work parallelises by process. OpenBLAS would start a thread per core, which spins
    for about 0.1 s after each call: while ``hog grade`` solved a table never graded before, that thread
    took a core from the sandbox (13-23 ms more per grade, timed taking turns). Set before numpy loads.
    """
    import os
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")


_one_blas_thread()
