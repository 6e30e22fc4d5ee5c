"""``ddsolver convert``: boards from PBN or LIN files written as PBN or as LIN.

The inputs are told apart by content (:func:`cardgames.lin.open_games`).  As PBN each
board is the game that says what its record says (:mod:`cardgames.lin`: players, room,
deal, auction with a ``Note`` for each alert, play, a claim as the ``Result``, comments);
as LIN a record a line (:func:`cardgames.lin.to_lin`), BBO's hand-record layout, whose
reading gives the same boards back.  A board that does not read is reported as
``FILE:LINE: reason`` and left out; the others are written (exit status 1).  A part of a
LIN board that does not read (an auction, a play) is reported and left out, the board
written without it, and when no input file holds any game each is reported as ``FILE: no
games`` (both exit status 1).  LIN gives the contract only by the auction: a PBN board
with a contract, a play or a result but no auction is written without its play and
result (the contract and result said in a comment, ``nt|``), a play that breaks the
rules without it too, and
an auction with a call LIN cannot write (``-``, unknown) without the auction; passes
after the auction's end are not written; a deal LIN cannot hold (an end position's
12-card hands) leaves the board out; each said so (exit status 1).  So every board written
as LIN reads back.
"""

from __future__ import annotations

import argparse
import sys

from cardgames import lin
from cardgames.errors import CardgamesError, PBNError

from ._common import FAILED, OK, PROG, check_readable, finished, open_output

__all__ = ["add_parser", "run"]

_EXAMPLES = """\
examples:
  ddsolver convert session.lin -o session.pbn          # BBO's LIN as PBN
  ddsolver convert data/auctions.pbn --to lin -o auctions.lin
  ddsolver convert a.lin b.lin --to pbn > both.pbn

The input format is read from the content, whatever the file's name.  LIN -> PBN -> LIN
gives back every board's deal, players, auction with its alerts, play and claim.
"""


def add_parser(commands: argparse._SubParsersAction,
               formatter: type[argparse.HelpFormatter]) -> argparse.ArgumentParser:
    p = commands.add_parser(
        "convert", formatter_class=formatter, epilog=_EXAMPLES,
        help="PBN and LIN files written as PBN or LIN",
        description="Write the boards of PBN or LIN files (BBO's format) as PBN or as LIN.")
    p.add_argument("files", nargs="+", metavar="FILE", help="PBN or LIN files to read")
    p.add_argument("--to", choices=("pbn", "lin"), default="pbn",
                   help="the format written (default: pbn)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write to FILE instead of standard output")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no summary on stderr (errors are still reported)")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    """Run ``ddsolver convert`` on parsed arguments; the exit status."""
    check_readable(args.files)
    out, close = open_output(args.output, args.files)
    failed = written = parted = 0
    said: str | None = None   # the vugraph header last written
    held = 0             # games and errors, in all the files
    part_before = False  # a part of the board about to come was left out

    def report(err: PBNError) -> None:
        nonlocal failed, held, part_before
        held += 1
        if isinstance(err, lin.LINPartError):
            part_before = True   # the board is read, and written, without the part
            print(err, file=sys.stderr)
        else:
            failed += 1
            print(f"{err}; board left out", file=sys.stderr)

    with finished(out, close):   # the file put in place only if the run finishes
        if args.to == "pbn":
            out.write("% PBN 2.1\n% EXPORT\n")
        for path in args.files:
            with lin.open_games(path, strict=False, on_error=report) as reader:
                for game in reader:
                    held += 1
                    partial, part_before = part_before, False
                    where = f"{path}:{game.line}" if game.line else path
                    # a vugraph header (the event, the scoring) where it changes
                    before, now = lin.header_change(said, game) if args.to == "lin" \
                        else ("", None)
                    try:
                        text = (lin.to_lin(game, header=False) if args.to == "lin"
                                else game.to_pbn().rstrip("\n") + "\n")
                    except PBNError as err:
                        failed += 1
                        print(f"{err}; board left out", file=sys.stderr)
                        continue
                    except lin.LINWriteError as err:
                        failed += 1
                        print(f"{where}: {err}; board left out", file=sys.stderr)
                        continue
                    except CardgamesError as err:
                        # A play (or auction) LIN cannot say: the board without it.
                        partial = True
                        try:
                            text = lin.to_lin(game, play=False, header=False)
                            what = "its play and result"
                        except CardgamesError:
                            text = lin.to_lin(game, play=False, auction=False, header=False)
                            what = "its auction, play and result"
                        print(f"{where}: {err}: written without {what}", file=sys.stderr)
                    out.write(before + text + "\n")
                    said = now
                    written += 1
                    parted += partial
        # As the batch commands: when no file holds a game, each is said to be empty (a
        # file without games next to files with games is fine).
        if not held:
            for path in args.files:
                print(f"{path}: no games", file=sys.stderr)
        out.flush()
    if not args.quiet:
        text = f"{PROG}: {written} board{'s' * (written != 1)} written as {args.to.upper()}"
        if parted:
            text += f", {parted} of them with a part left out"
        if failed:
            text += f"; {failed} could not be read or written"
        if parted or failed:
            text += " (reported above)"
        print(text, file=sys.stderr)
    return FAILED if failed or parted or not held else OK
