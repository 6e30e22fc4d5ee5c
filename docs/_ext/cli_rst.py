"""The command-line reference as reStructuredText, generated from the real argparse parser.

Pure Python (no Sphinx import), so that a test can check that the reference covers every
subcommand and option of :func:`ddsolver.cli.build_parser` without building the docs.
:mod:`cli_reference` is the Sphinx directive that puts the text into a page.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager

#: Width of the help text in the generated page (argparse reads $COLUMNS).
WIDTH = 90

_SPECIAL = re.compile(r"([\\*`|_])")


def escape(text: str) -> str:
    """Text made literal for reStructuredText (no stray emphasis, references or roles)."""
    return _SPECIAL.sub(r"\\\1", text)


@contextmanager
def _columns(width: int) -> Iterator[None]:
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        yield
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The subcommands of ``parser``, in the order ``--help`` lists them."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def option_signature(action: argparse.Action) -> str:
    """What an ``.. option::`` line shows: ``-o FILE, --output FILE``, or ``FILE`` for a
    positional argument."""
    if not action.option_strings:
        return str(action.metavar or action.dest)
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    metavar = action.metavar
    if metavar is None:
        metavar = "{" + ",".join(map(str, action.choices)) + "}" if action.choices else action.dest.upper()
    if isinstance(metavar, tuple):
        metavar = " ".join(metavar)
    return ", ".join(f"{flag} {metavar}" for flag in action.option_strings)


def _literal(text: str) -> list[str]:
    lines = [".. code-block:: text", ""]
    lines += [f"   {line}".rstrip() for line in text.strip("\n").splitlines()]
    return lines + [""]


def _help(action: argparse.Action, parser: argparse.ArgumentParser) -> str:
    if not action.help:
        return ""
    # argparse's own expansion of %(default)s, %(choices)s...: the text --help prints.
    formatter = parser._get_formatter()
    return " ".join(formatter._expand_help(action).split())


def _parser_rst(parser: argparse.ArgumentParser, program: str, title: str, underline: str) -> list[str]:
    lines = [title, underline * len(title), ""]
    if parser.description:
        # Prose, wrapped by hand for the terminal: paragraphs here.
        for paragraph in parser.description.strip().split("\n\n"):
            lines += [escape(" ".join(paragraph.split())), ""]
    usage = parser.format_usage().removeprefix("usage: ")
    # argparse indents the continuation lines past "usage: "; the block has no such prefix.
    usage = "\n".join(line.removeprefix(" " * len("usage: ")) for line in usage.splitlines())
    lines += ["Usage:", ""] + _literal(usage)
    lines += [f".. program:: {program}", ""]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) or action.help == argparse.SUPPRESS:
            continue
        lines.append(f".. option:: {option_signature(action)}")
        lines.append("")
        text = _help(action, parser)
        if action.choices and action.metavar is not None and action.nargs != 0:
            text += f" (one of: {', '.join(map(str, action.choices))})"
        lines += [f"   {escape(text.strip())}" if text.strip() else "   (no description)", ""]
    if parser.epilog:
        lines += _literal(parser.epilog)
    return lines


def render(parser: argparse.ArgumentParser, width: int = WIDTH) -> str:
    """The whole reference: the main command, then one section per subcommand."""
    with _columns(width):
        prog = parser.prog
        lines = _parser_rst(parser, prog, f"``{prog}``", "-")
        for name, sub in subcommands(parser).items():
            lines += _parser_rst(sub, f"{prog} {name}", f"``{prog} {name}``", "-")
    return "\n".join(lines) + "\n"
