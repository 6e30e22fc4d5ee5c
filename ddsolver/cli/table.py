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
from collections.abc import Iterable, Iterator

from ..batch import Solved, board_par, solve_boards
from ..boards import Board, Inputs, label_of, where
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
replaced in place, and a DoubleDummyTricks tag replaced in place; a game that cannot be
read or solved is written back as it was.  An input table that disagreed with the solver
is said on stderr as FILE:LINE (exit status unchanged); a board left without par loses
the input's OptimumScore and ParContract.  Several files come out one after the other,
with an empty line put between two where the first does not end with one.  A board
repeated at several tables (with its Deal or without) is solved once and every table
tagged; the summary counts boards, deals and tables apart.

With --db FILE every table is saved in FILE as soon as it is solved, and deals already
in FILE are not solved again: after Ctrl-C (exit status 130), SIGTERM (143) or a crash,
the same command with --resume goes on where the run stopped and writes the whole
output again.

Boards that cannot be read or solved are reported on stderr as FILE:LINE: reason and
skipped; the exit status is then 1.  A bad Dealer or Vulnerable tag costs a board only
its par (reported the same way, exit status 1).  A Board, Dealer, Vulnerable or Deal tag
given twice in one game is reported the same way (exit status 1); the first is read.
When no input file holds any game, each is reported as FILE: no games (exit status 1);
a file without games next to files with games is fine.  The text format prints, for
each board, declarer's tricks with declarers down and strains across.
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


#: The tags a board is read from: one of each in a game.  (Others may come several
#: times, as Note does; the ones the PBN writer writes are all replaced, see PbnWriter.)
READ_ONCE = ("Board", "Dealer", "Vulnerable", "Deal")


def read_once_tags_checked(boards: Iterable[Board], inputs: Inputs) -> Iterator[Board]:
    """``boards``, each game holding one of the :data:`READ_ONCE` tags more than once
    warned of (``FILE:LINE: tag Deal given twice in one game (the first, line 4, is
    read)``, at the second): which one its writer meant is a guess, so the exit status
    is 1, but the board is not lost."""
    for board in boards:
        game = board.game
        if game is not None:
            seen: dict[str, list[int]] = {}
            for tag in game.tags:
                if tag.name in READ_ONCE and tag.line is not None:
                    seen.setdefault(tag.name, []).append(tag.line)
            for name, lines in seen.items():
                if len(lines) > 1:
                    times = "twice" if len(lines) == 2 else f"{len(lines)} times"
                    inputs.warn(f"{where(board.source, lines[1])}: {label_of(game)}tag {name} "
                                f"given {times} in one game (the first, line {lines[0]}, "
                                "is read)")
        yield board


def run(args: argparse.Namespace) -> int:
    """Run ``ddsolver table`` on parsed arguments; the exit status."""
    writer_class = WRITERS[args.format]
    with scheduler_client(args) as client, \
            Batch(args, args.output, binary=writer_class.binary) as batch:
        inputs = Inputs(args.files, batch.report, warn=batch.warn,
                        keep_unsolvable=writer_class.keeps_unsolvable)
        # What the writer says of an input it corrects costs no board: not a warning of
        # the inputs, which would make the exit status 1.
        writer = writer_class(batch.bout if writer_class.binary else batch.out, inputs,
                              notice=batch.warn)

        def write(item: Solved) -> None:
            board, table = item.board, item.table
            writer.write(board, table, None if table is None else board_par(board, table))

        batch.run(solve_boards(read_once_tags_checked(inputs.boards(), inputs),
                               jobs=batch.jobs, tt_mb=args.tt_mb, store=batch.store,
                               client=client),
                  write, begin=writer.begin, end=writer.end)
    if not args.quiet:
        print(batch.summary("solved", without_par=inputs.without_par), file=sys.stderr)
    return batch.status(inputs)
