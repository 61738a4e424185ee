"""MkDocs hook: the command reference, written from the ``hog`` argument parser when the site is built.

``docs/reference/commands.md`` holds the marker line below; this hook puts in its place every verb of
``grader.cli.parser()`` (its usage, what it does, each argument and its help), so the page says what the
command line accepts and cannot drift from it. It imports ``grader.cli`` only (which imports the kit's
paths and errors; no verb's code).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError

MARKER = "<!-- hog commands: written here from grader/cli/ when the site is built -->"
PAGE = "reference/commands.md"
WIDTH = 100   # the usage lines' width, whatever the terminal


def on_page_markdown(markdown: str, page, config, files) -> str:
    if page.file.src_uri != PAGE:
        return markdown
    if MARKER not in markdown:
        raise PluginError(f"{PAGE} lost its marker line: {MARKER}")
    return markdown.replace(MARKER, commands(Path(config.config_file_path).parent))


def commands(checkout: Path) -> str:
    """The reference of every verb, as Markdown, for the kit in ``checkout``."""
    if str(checkout) not in sys.path:
        sys.path.insert(0, str(checkout))   # this checkout's kit, not another one installed
    from grader import cli, project
    project.use(str(checkout))              # its built-in variants, whatever the working directory
    top = cli.parser()
    lines = ["## hog", "", _usage(top), "", top.description or "", "", *_arguments(top)]
    for name, verb, summary in _verbs(top):
        lines += _verb(name, verb, summary, level=2)
    return "\n".join(lines)


def _verbs(parser: argparse.ArgumentParser):
    """(name, parser, one-line help) of each verb under ``parser``, in the order ``hog --help`` lists them."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            summaries = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, verb in action.choices.items():
                yield name, verb, summaries.get(name, "")


def _verb(name: str, verb: argparse.ArgumentParser, summary: str, level: int) -> list[str]:
    sentence = _cell(summary[:1].upper() + summary[1:]) + ("." if summary else "")
    lines = [f"{'#' * level} {verb.prog}", "", sentence, "", _usage(verb), "", *_arguments(verb)]
    for sub_name, sub, sub_summary in _verbs(verb):   # a verb's own verbs, if it has any
        lines += _verb(sub_name, sub, sub_summary, level + 1)
    return lines


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = argparse.HelpFormatter(parser.prog, width=WIDTH)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups, prefix="")
    return "```text\n" + formatter.format_help().strip() + "\n```"


def _arguments(parser: argparse.ArgumentParser) -> list[str]:
    rows = []
    formatter = argparse.HelpFormatter(parser.prog, width=WIDTH)
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        text = action.help or ""
        if "%(" in text:   # argparse's own placeholders, filled as --help fills them
            text = text % dict(vars(action), prog=parser.prog)
        if action.option_strings and action.required:
            text += " (required)"
        exclusive = [other for group in parser._mutually_exclusive_groups if action in group._group_actions
                     for other in group._group_actions if other is not action]
        if exclusive:
            text += " (not with " + ", ".join(f"`{other.option_strings[0]}`" for other in exclusive) + ")"
        shown = formatter._format_action_invocation(action)
        rows.append(f"| `{shown}` | {_cell(text) or '–'} |")
    if not rows:
        return []
    return ["| argument | what it does |", "|---|---|", *rows, ""]


def _cell(text: str) -> str:
    """Help text as a table cell: on one line, with what Markdown would read as a pipe or a tag escaped."""
    return " ".join(text.split()).replace("|", "\\|").replace("<", "&lt;")
