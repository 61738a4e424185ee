"""What the ``hog`` verbs' arguments share: the parser class, the isolation and seed options' help, the
cores a batch uses by default, and the cluster options."""

from __future__ import annotations

import argparse
import os
import sys

USAGE_ERROR = 2
ISOLATION_HELP = ("the least isolation the submission may run under: process, files (the kit's files out of its "
                  "reach), bubblewrap, or container (files in Docker or Podman: macOS, Windows); below it, grading "
                  "fails (exit 1) instead of scoring (default: $HOG_ISOLATION, else the course config's, else files)")
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
"""The cores this process may run on: a batch's workers by default."""
SEED_HELP = "draw the hidden cases from this seed (default: a fresh one, recorded in the report)"
SUITE_HELP = ("grade with the okpy suite imported as NAME (hog import-ok) instead of the kit's cases, scored as okpy "
              "scores it; kit+NAME: with both")


def variant_help(ids: str) -> str:
    """The help of a variant id argument, naming the variants ``ids`` lists."""
    return f"the variant id, one of: {ids}"


class Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own errors exit 2 with our wording
        self.print_usage(sys.stderr)
        self.exit(USAGE_ERROR, f"Error: {message}\n")


def add_cluster_options(verb: argparse.ArgumentParser, what: str) -> None:
    where = verb.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help=f"a Dask scheduler (e.g. tls://10.0.0.5:8786, with the certificates of Dask's "
                            f"distributed.comm.tls configuration): {what} on its workers "
                            f"(pip install 'hog-kit[cluster]')")
    where.add_argument("--workers", type=int, metavar="N",
                       help=f"start a local Dask cluster of N worker processes, which only this command can use "
                            f"(TLS with a certificate of its own): {what} there")

