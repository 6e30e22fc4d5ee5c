"""``ddsolver report FILE.pbn --html OUT.html``: printable hand records as one
self-contained HTML file (the page: :mod:`ddsolver.formats.hand_records`).

The boards are solved as ``table`` solves them (chunks on ``--jobs`` threads, the results
store of ``--db``) and written as they finish, so the memory a report takes does not grow
with the file.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from itertools import islice

from cardgames import lin

from ..batch import Solved, board_par, solve_boards
from ..boards import Inputs
from ..formats.hand_records import HtmlReport
from ._batch import Batch, add_batch_options
from ._common import PROG, check_readable

__all__ = ["add_parser", "run"]

_EXAMPLES = """\
examples:
  ddsolver report data/session.pbn --html session.html
  ddsolver report data/session.pbn --html session.html --title "Club pairs, 22 November"
  ddsolver report big.pbn --html big.html --db big.sqlite --jobs 2

Open the file in a browser and print it: two boards across, three down on A4 or Letter,
no board split over two pages.  Each board shows the four hands (North at the top), the
board number, dealer and vulnerability (shaded seats in the compass are vulnerable, the
dealer is underlined), high-card points, the double-dummy table (declarer's tricks, the
contracts that make in bold) and par.  --db shares its results store with `ddsolver
table`, so boards tabled once are not solved again for the report.  A deal played at
several tables (results files repeat the board at each) is shown once.

Boards that cannot be read or solved are reported on stderr as FILE:LINE: reason and
left out (exit status 1); the page lists them, with the reasons, above the boards.  A
bad Dealer or Vulnerable tag costs a board only its par (listed the same way).  The
page is dated the day it is made; with SOURCE_DATE_EPOCH set (seconds since 1970) it is
dated by that, so the same files make the same bytes.
"""


def add_parser(commands: argparse._SubParsersAction,
               formatter: type[argparse.HelpFormatter]) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "report", formatter_class=formatter, epilog=_EXAMPLES,
        help="printable hand records (HTML) with double-dummy tables and par",
        description="Write printable hand records for the boards of PBN files: the hands in\n"
                    "a compass diagram, dealer and vulnerability, the double-dummy table and\n"
                    "par, as one self-contained HTML file.")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="PBN or LIN files to read (told apart by their content)")
    parser.add_argument("--html", required=True, metavar="OUT.html",
                        help="the HTML file to write ('-' for standard output)")
    parser.add_argument("--title", help="the heading (default: the first Event tag, else the "
                                        "file names)")
    add_batch_options(parser)
    parser.set_defaults(run=run)
    return parser


#: The games of each file looked at for an Event tag to title the page with.
TITLE_GAMES = 50


def _title(args: argparse.Namespace) -> str:
    if args.title:
        return args.title
    # The Event of the first game that names one (among the first few of each file: the
    # title is not worth reading a big file for), else the file names.
    for path in args.files:
        with lin.open_games(path, strict=False, validate=False) as reader:
            for game in islice(reader, TITLE_GAMES):
                event = game.known("Event")
                if event:
                    return event
    return ", ".join(os.path.basename(p) for p in args.files)


def _today() -> str:
    """The date the page is made, or the one ``SOURCE_DATE_EPOCH`` gives (seconds since
    1970, UTC: the reproducible-builds convention), so a page can be made byte for byte
    again."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return time.strftime("%Y-%m-%d", time.gmtime(int(epoch)))
    return time.strftime("%Y-%m-%d")


def run(args: argparse.Namespace) -> int:
    """Run ``ddsolver report`` on parsed arguments; the exit status."""
    # The inputs are checked before the title is read from them (Batch checks them too).
    check_readable(args.files)
    title = _title(args)
    with Batch(args, args.html, announce_resume=False, keep_problems=True) as batch:
        inputs = Inputs(args.files, batch.report, warn=batch.warn)
        subtitle = (f"{', '.join(args.files)} \u2014 double-dummy analysis by {PROG}, "
                    f"{_today()}")
        writer = HtmlReport(batch.out, title, subtitle)

        # One diagram per deal of a board: its other tables (same board, same deal) add
        # nothing.  The same deal under another board number is another board (its own
        # dealer and vulnerability) and is shown.
        shown: set[tuple[int, int, str | None]] = set()

        def write(item: Solved) -> None:
            assert item.table is not None
            board, game = item.board, item.board.game
            if game is not None and game.index is not None:
                first = game.index if game.same_deal_as is None else game.same_deal_as
                number = (game.tag("Board") or "").strip() or None
                key = (board.file, first, number)
                if key in shown:
                    return
                shown.add(key)
            writer.board(board, item.table, board_par(board, item.table))

        batch.run(solve_boards(inputs.boards(), jobs=batch.jobs, tt_mb=args.tt_mb,
                               store=batch.store),
                  write, begin=lambda: writer.begin(many_files=len(args.files) > 1),
                  end=lambda: writer.end(batch.failed, batch.problems, inputs.without_par))
    if not args.quiet:
        print(batch.summary("solved", without_par=inputs.without_par), file=sys.stderr)
        if args.html != "-":
            print(f"{PROG}: hand records written to {args.html}", file=sys.stderr)
    return batch.status(inputs)
