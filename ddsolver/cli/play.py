"""``ddsolver play``: double-dummy analysis of the play recorded in PBN files.

For every board with a ``Contract`` (and ``Declarer``) and a ``Play`` section, the play is
followed card by card (:func:`ddsolver.analysis.analyse_play`): declarer's side's
double-dummy tricks before the opening lead and after every card.  The number only moves
when a card costs its side tricks; those cards are marked, with who played them and how
many tricks they cost.  Boards without a contract or without played cards are passed over
silently (a session file often has none); a board whose play breaks the rules is reported
as ``FILE:LINE: reason`` and the run goes on.

Boards are analysed on ``--jobs`` threads (one solver each, so each solver's
transposition table carries over from card to card of its board) and written in file
order as they finish, a chunk at a time.  With ``--db FILE`` every trace is saved in the
results store (:mod:`ddsolver.store`), keyed by deal, trumps, leader and cards, so an
interrupted run goes on with ``--resume`` and nothing is analysed twice.  The reading and
the analysis are :mod:`ddsolver.boards`' (:func:`~ddsolver.boards.analyse_boards`), the
output :mod:`ddsolver.formats.play`'s.
"""

from __future__ import annotations

import argparse
import sys

from ..batch import Analysed, analyse_boards
from ..boards import Inputs, played_boards
from ..formats.play import WRITERS
from ._batch import Batch, add_batch_options
from ._cluster import add_scheduler_option, scheduler_client
from ._common import FAILED, PROG

__all__ = ["add_parser", "run"]

_EXAMPLES = """\
examples:
  ddsolver play data/played.pbn
  ddsolver play data/played.pbn --format json -o analysis.json
  ddsolver play session.pbn --jobs 2 --quiet
  ddsolver play big.pbn --format json -o big.json --db big.sqlite --resume   # after Ctrl-C
  ddsolver play big.pbn --format json -o big.json --db big.sqlite --scheduler local:4

Each board with a Contract, a Declarer and a Play section is followed card by card: the
DD column is declarer's side's double-dummy tricks (tricks won so far included) after
each trick, and a card marked ? cost its side tricks; the list under the tricks says who
played it and how many tricks it cost.  Boards without played cards are passed over
(none with them at all: exit status 1).
A record that breaks the rules (a card not held, a revoke) is reported on stderr as
FILE:LINE: reason, the line of the card that breaks them, and skipped (exit status 1).
In JSON every card carries "dd" (the same number after that card) and, when it cost
tricks, "cost".
"""


def add_parser(commands: argparse._SubParsersAction,
               formatter: type[argparse.HelpFormatter]) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "play", formatter_class=formatter, epilog=_EXAMPLES,
        help="trick-by-trick double-dummy analysis of the recorded play",
        description="Analyse the play of every board of PBN files that has a Contract and a\n"
                    "Play section: declarer's double-dummy tricks after every trick, and the\n"
                    "cards that cost tricks, with who played them.")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="PBN or LIN files to read (told apart by their content)")
    parser.add_argument("--format", choices=sorted(WRITERS), default="text",
                        help="output format (default: text)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the analysis to FILE instead of standard output")
    add_scheduler_option(parser)
    add_batch_options(parser, store="play analyses")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run ``ddsolver play`` on parsed arguments; the exit status."""
    with scheduler_client(args) as client, \
            Batch(args, args.output, kind="traces", count_tag=b"[Play ") as batch:
        inputs = Inputs(args.files, batch.report, warn=batch.warn)
        writer = WRITERS[args.format](batch.out)

        def write(item: Analysed) -> None:
            writer.write(item.board, item.analysis)

        batch.run(analyse_boards(played_boards(inputs, batch.report), jobs=batch.jobs,
                                 tt_mb=args.tt_mb, report=batch.report, store=batch.store,
                                 client=client),
                  write, begin=writer.begin, end=writer.end)
    done, failed, store = batch.done, batch.failed, batch.store
    if done == 0 and not failed and not inputs.no_games:
        # Asked to analyse play and there is none: a failure, as ``leads`` and ``review``
        # say of a run with nothing to do (a script must not read it as done).
        why = (f" (the warning{'s' * (inputs.warnings != 1)} above left some out)"
               if inputs.warnings else "")
        print(f"{PROG}: no board has a Contract and played cards (a Play section with "
              f"cards) to analyse{why}",
              file=sys.stderr)
        return FAILED
    if not args.quiet:
        text = f"{PROG}: {done} board{'s' * (done != 1)}"
        if batch.deals != done:  # tables of one board: each table's play is analysed
            text += (f" ({batch.deals} deal{'s' * (batch.deals != 1)}, {done} "
                     f"table{'s' * (done != 1)})")
        text += f" analysed in {batch.elapsed():.1f} s"
        if store is not None:
            text += f"; {batch.stored} from {store.path}, {done - batch.stored} analysed now"
        if failed:
            text += f"; {failed} could not be analysed (reported above)"
        print(text, file=sys.stderr)
    return batch.status(inputs)
