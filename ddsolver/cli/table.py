"""``ddsolver table FILE.pbn [FILE ...]``: the double-dummy table and par of every board of
PBN files, as text, CSV, JSON, or the PBN files themselves given back byte for byte with
the standard tags added (the formats: :mod:`ddsolver.formats.table`).

Large files stream: boards are read a chunk at a time, solved on ``--jobs`` threads (one
solver each), and written in board order as they finish (:func:`ddsolver.boards.solve_boards`),
so memory does not grow with the size of the file.  With ``--db FILE`` the tables also go
to a results store (:mod:`ddsolver.store`) as they are solved, so that an interrupted run
can go on (``--resume``) and a deal is never solved twice.
"""

from __future__ import annotations

import argparse
import sys

from ..batch import Solved, board_par, solve_boards
from ..boards import Inputs
from ..formats.table import WRITERS
from ._batch import Batch, add_batch_options
from ._cluster import add_scheduler_option, scheduler_client

__all__ = ["add_parser", "run"]

_EXAMPLES = """\
examples:
  ddsolver table data/session.pbn
  ddsolver table data/session.pbn data/problems.pbn --format csv -o tables.csv
  ddsolver table data/session.pbn --format pbn -o session-dd.pbn
  ddsolver table big.pbn --format json --jobs 2 --quiet > tables.json
  ddsolver table big.pbn --format csv -o big.csv --db big.sqlite
  ddsolver table big.pbn --format csv -o big.csv --db big.sqlite --resume   # after Ctrl-C
  ddsolver table big.pbn --format csv -o big.csv --db big.sqlite --scheduler tcp://10.0.0.5:8786

Par is worked out for every full deal from its Dealer and Vulnerable tags (or, without
them, from the board number).  --format pbn gives each input file back byte for byte
(line ends, encoding, comments, % lines, "#" values as they were) with only the standard
OptimumResultTable, OptimumScore ("NS 620", "EW 100") and ParContract tags added, or
replaced in place; a game that cannot be read or solved is written back as it was.  A
board repeated at several tables (with its Deal or without) is solved once and every
table tagged; the summary counts boards, deals and tables apart.

With --db FILE every table is saved in FILE as soon as it is solved, and deals already
in FILE are not solved again: after Ctrl-C (exit status 130), SIGTERM (143) or a crash,
the same command with --resume goes on where the run stopped and writes the whole
output again.

Boards that cannot be read or solved are reported on stderr as FILE:LINE: reason and
skipped; the exit status is then 1.  A bad Dealer or Vulnerable tag costs a board only
its par (reported the same way, exit status 1).  When no input file holds any game,
each is reported as FILE: no games (exit status 1); a file without games next to files
with games is fine.  The text format prints, for each board,
declarer's tricks with declarers down and strains across.
"""


def add_parser(commands: argparse._SubParsersAction,
               formatter: type[argparse.HelpFormatter]) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "table", formatter_class=formatter, epilog=_EXAMPLES,
        help="the double-dummy table and par of every board of PBN files",
        description="Solve every board of one or more PBN files: the double-dummy table\n"
                    "(declarer's tricks for each declarer and strain) and par, written in\n"
                    "board order as the boards finish.")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="PBN or LIN files to read (told apart by their content)")
    parser.add_argument("--format", choices=sorted(WRITERS), default="text",
                        help="output format (default: text)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the results to FILE instead of standard output")
    add_scheduler_option(parser)
    add_batch_options(parser)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run ``ddsolver table`` on parsed arguments; the exit status."""
    writer_class = WRITERS[args.format]
    with scheduler_client(args) as client, \
            Batch(args, args.output, binary=writer_class.binary) as batch:
        inputs = Inputs(args.files, batch.report, warn=batch.warn,
                        keep_unsolvable=writer_class.keeps_unsolvable)
        writer = writer_class(batch.bout if writer_class.binary else batch.out, inputs)

        def write(item: Solved) -> None:
            board, table = item.board, item.table
            writer.write(board, table, None if table is None else board_par(board, table))

        batch.run(solve_boards(inputs.boards(), jobs=batch.jobs, tt_mb=args.tt_mb,
                               store=batch.store, client=client),
                  write, begin=writer.begin, end=writer.end)
    if not args.quiet:
        print(batch.summary("solved", without_par=inputs.without_par), file=sys.stderr)
    return batch.status(inputs)
