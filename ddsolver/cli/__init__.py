"""The ``ddsolver`` command line: one subcommand per job.

* ``ddsolver table FILE.pbn [FILE ...]``: the double-dummy table and par of every board of
  PBN files, as text, CSV, JSON, or the PBN files themselves with the standard tags added.
* ``ddsolver report FILE.pbn --html OUT.html``: printable hand records.
* ``ddsolver play FILE.pbn``: trick-by-trick double-dummy analysis of the play recorded in
  the files, the costly cards marked.
* ``ddsolver leads --hand ... --contract 4S --declarer S``: Monte-Carlo opening-lead
  analysis of one hand, or of every board of PBN files that names a contract.
* ``ddsolver advise --hand ... --seat S`` or ``ddsolver advise FILE.pbn --seat S``:
  single-dummy advice (PIMC or αμ) for one position, or a review of the real play.
* ``ddsolver review FILE... --player NAME``: a player's session, board by board, from his
  seat: result against double dummy and par, his lead, his costly cards single dummy.
* ``ddsolver duel --deals N`` or ``ddsolver duel FILE.pbn``: deals played out card by card
  by two declarers (αμ and PIMC) against the same defenders, and what each made.
* ``ddsolver convert FILE... --to pbn|lin``: PBN and LIN files (BBO's format) written as
  PBN or LIN.
* ``ddsolver solve DEAL --strain S --declarer N``: one deal given on the command line.

Each subcommand is a module of this package (:mod:`~ddsolver.cli.table`,
:mod:`~ddsolver.cli.report`, :mod:`~ddsolver.cli.play`, :mod:`~ddsolver.cli.leads`,
:mod:`~ddsolver.cli.solve`) with an ``add_parser`` and a ``run``; what they share is in
:mod:`~ddsolver.cli._common` and, for the batch commands, :mod:`~ddsolver.cli._batch`.
The work itself is done by library modules (:mod:`ddsolver.boards`, :mod:`ddsolver.formats`,
:mod:`ddsolver.store`...), which know nothing of the command line.

Exit status: 0 when everything went well, 1 when some boards could not be read or solved
(each one is reported on stderr as ``FILE:LINE: reason`` and the run goes on), when a
board's output is incomplete (a bad Dealer or Vulnerable tag: the table without par,
reported the same way) or when no input file holds any game (``FILE: no games``), 2 for
a usage error (a bad option, an input file that cannot be read, a malformed deal on the
command line) or an output that cannot be written (disk full: what the results store
holds is kept, so --resume goes on once there is room), 130 when interrupted (Ctrl-C),
143 when stopped by SIGTERM.  User errors are reported in one plain line, never with a
traceback.

Large files stream: boards are read a chunk at a time, solved on ``--jobs`` threads (one
solver each; more than four a core, or 256, are cut down to that with a warning: they
would only cost memory), and written in board order as they finish, so memory does not grow with
the size of the file.  With ``--db FILE`` the tables also go to a results store
(:mod:`ddsolver.store`) as they are solved, so that an interrupted run can go on
(``--resume``) and a deal is never solved twice.  ``table``, ``play`` and ``leads`` take
``--scheduler ADDRESS`` (or ``local:N``) to solve on a Dask cluster instead, with the same
output (:mod:`ddsolver.cli._cluster`, :mod:`ddsolver.cluster`).

:func:`main` builds the parser and turns exceptions into exit statuses; it is the console
script ``ddsolver`` and ``python -m ddsolver``.
"""

from __future__ import annotations

import argparse
import signal
import sys

from ..pool import signals_stop_searches
from ..store import StoreError
from . import advise, convert, duel, leads, play, report, review, solve, table
from ._common import (
    FAILED,
    INTERRUPTED,
    PROG,
    TERMINATED,
    USAGE,
    GuardedOutput,
    Interrupted,
    Terminated,
    UsageError,
    sigterm_as_interrupt,
    silence_stdout,
)

__all__ = ["main", "build_parser", "UsageError"]

_MAIN_EXAMPLES = """\
examples:
  ddsolver table data/session.pbn
  ddsolver table data/session.pbn --format pbn -o session-dd.pbn --db session.sqlite
  ddsolver report data/session.pbn --html session.html
  ddsolver play data/played.pbn
  ddsolver solve "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872" \\
      --strain NT --declarer S

`ddsolver COMMAND --help` describes each command.  Exit status: 0 all went well, 1 some
boards could not be read or solved or came out incomplete (each reported as FILE:LINE:
reason), or no input file held a game, 2 a usage error,
130 interrupted by Ctrl-C, 143 stopped by SIGTERM (both save what was solved first).
"""


def _version() -> str:
    """The installed distribution's version (its metadata), which setuptools takes from
    ``ddsolver.__version__``; that attribute itself when ddsolver is not installed (run
    from a source tree on sys.path)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("ddsolver")
    except PackageNotFoundError:
        from .. import __version__
        return __version__


def build_parser() -> argparse.ArgumentParser:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog=PROG, formatter_class=formatter, epilog=_MAIN_EXAMPLES,
        description="A double-dummy bridge solver: tables and par for PBN files, hand\n"
                    "records, play analysis, single deals.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    # In the order `ddsolver --help` lists them.
    for command in (table, report, play, leads, advise, review, duel, convert, solve):
        command.add_parser(commands, formatter)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 some boards failed, 2 usage,
    130 interrupted by Ctrl-C, 143 stopped by SIGTERM).

    argparse itself exits with status 2 on a malformed command line.
    """
    try:
        return _main(argv)
    except KeyboardInterrupt:  # before the command began, or while it reported its end
        print(f"{PROG}: interrupted", file=sys.stderr)
        return INTERRUPTED


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return USAGE
    # Standard output guarded for the whole run: a write that fails (disk full, EIO) is one
    # OutputError line, wherever the command writes from.
    stdout = sys.stdout
    sys.stdout = GuardedOutput(stdout, "standard output", stdout=True)
    try:
        # Ctrl-C and SIGTERM stop the searches running as they arrive (a search can take
        # seconds, in worker threads or with the GIL released), not once they finish.
        with sigterm_as_interrupt(), signals_stop_searches(signal.SIGINT, signal.SIGTERM):
            try:
                status = args.run(args)
                # What is still buffered goes out now, where a failure can be reported,
                # rather than in Python's flush at exit.
                sys.stdout.flush()
                return status
            except Interrupted as stop:
                # The command has said what was saved.
                return TERMINATED if isinstance(stop.__context__, Terminated) else INTERRUPTED
    except UsageError as err:  # and OutputError: an output that cannot be written
        print(f"{PROG} {args.command}: error: {err}", file=sys.stderr)
        return USAGE
    except StoreError as err:  # the results store failed during the run (disk full...)
        print(f"{PROG} {args.command}: error: {err}", file=sys.stderr)
        return USAGE
    except MemoryError as err:  # a --tt-mb the system cannot give
        print(f"{PROG} {args.command}: error: {err or 'out of memory'} "
              f"(a smaller --tt-mb, or fewer --jobs, needs less)", file=sys.stderr)
        return USAGE
    except Terminated:
        print(f"{PROG}: terminated", file=sys.stderr)
        return TERMINATED
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`ddsolver table ... | head`): stop quietly; what is still
        # buffered goes to /dev/null.
        silence_stdout()
        return FAILED
    except OSError as err:
        # Any other system error on the way (a file that fails to be written outside the
        # guarded outputs): one line, no traceback.
        where = f" ({err.filename})" if err.filename else ""
        print(f"{PROG} {args.command}: error: {err.strerror or err}{where}", file=sys.stderr)
        silence_stdout()
        return USAGE
    finally:
        sys.stdout = stdout
