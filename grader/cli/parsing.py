"""The ``hog`` command line's parser: the top level, each group of verbs from a module of its own."""

from __future__ import annotations

import argparse

from grader import project
from grader.cli import authoring_verbs, grading_verbs, serving_verbs
from grader.cli.options import Parser
from grader.project import variant_ids


class _Version(argparse.Action):
    """``hog --version``: the version is read from the package metadata only when asked for."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"hog-kit {project.version()}")
        parser.exit(0)


class _Unused:
    """A verb that is not on the command line: its arguments are not needed to parse it."""

    def add_argument(self, *args, **kwargs) -> None:
        pass

    def add_mutually_exclusive_group(self, *args, **kwargs) -> "_Unused":
        return self
    add_subparsers = add_parser = add_mutually_exclusive_group


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``hog`` command line; with ``only`` (the verb a command line names), that verb alone:
    building every verb's arguments and help costs more than a short run should pay."""
    ids = ", ".join(variant_ids())
    top = Parser(prog="hog", description="Hog kit: specs, solutions, skeletons, cases and grading for Hog. "
                                         f"Variants: {ids}. 'hog VERB --help' explains a verb.")
    top.add_argument("--version", action=_Version, nargs=0, help="print the kit's version and exit")
    top.add_argument("--course", metavar="DIR", help="the course folder (default: $HOG_COURSE, else the nearest "
                                                     f"folder from here upward holding {project.CONFIG_NAME})")
    verbs = top.add_subparsers(dest="verb", metavar="VERB", parser_class=Parser)
    verbs.required = True

    def add_verb(name: str, **options):
        return verbs.add_parser(name, **options) if only in (None, name) else _Unused()

    for group in (authoring_verbs, grading_verbs, serving_verbs):
        group.add(add_verb, ids)
    return top
