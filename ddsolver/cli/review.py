"""``ddsolver review FILE... --player NAME``: a player's session, board by board, from his
seat (see :mod:`ddsolver.review`): the contract and result against double dummy and par,
his opening lead against the lead analysis, his cards that cost tricks double dummy each
set against the single-dummy advice from his view, and the session's summary.  PBN or LIN
files (BBO's), told apart by content."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from typing import Any

from ..boards import Inputs
from ..formats.review import WRITERS
from ..review import BoardReview, review_boards, summarise
from ..solver import DEFAULT_TT_MB
from ._batch import add_store_options, stopped, store_in
from ._common import (
    FAILED,
    OK,
    PROG,
    UsageError,
    aside_of,
    bidding_system,
    check_readable,
    open_output,
    positive_int,
    progress_bar,
    seed_option,
    tt_mb,
)

__all__ = ["add_parser", "run"]

_EXAMPLES = """\
examples:
  ddsolver review session.lin --player jdoe
  ddsolver review session.pbn --player "J Doe" --samples 100 --seed 1 --format json
  ddsolver review big.lin --player jdoe --seed 1 --db review.sqlite      # then --resume

Every board the player sat at (his name in a North/East/South/West tag, without case):
the contract and result against double dummy and par; his opening lead ranked against
the other leads on deals dealt to fit the auction; each of his cards that cost tricks
double dummy (as declarer, dummy's too), marked as a mistake from his seat too when the
single-dummy advice from his own view preferred another card, or as one only double dummy
shows.  Then the session: tricks lost by lead, declarer play and defence.
"""


def add_parser(commands: argparse._SubParsersAction,
               formatter: type[argparse.HelpFormatter]) -> argparse.ArgumentParser:
    p = commands.add_parser(
        "review", formatter_class=formatter, epilog=_EXAMPLES,
        help="a player's session reviewed: lead, play and defence, board by board",
        description="Review a player's boards from his seat: result against double dummy\n"
                    "and par, his lead, and his costly cards, double and single dummy.")
    p.add_argument("files", nargs="+", metavar="FILE", help="PBN or LIN files")
    p.add_argument("--player", required=True, metavar="NAME",
                   help="the player, as the seat tags name him")
    p.add_argument("-n", "--samples", type=positive_int, default=50, metavar="N",
                   help="deals for each lead analysis and worlds for each single-dummy "
                        "question (default 50)")
    p.add_argument("--seed", default=None, metavar="S",
                   help="random seed, a whole number 0 or more (default: drawn, printed)")
    p.add_argument("--method", choices=("pimc", "alphamu"), default="pimc",
                   help="single-dummy advice: pimc (default) or alphamu (declarer's side)")
    p.add_argument("--depth", type=positive_int, default=2, metavar="M",
                   help="αμ's depth (default 2)")
    p.add_argument("--system", metavar="FILE.toml",
                   help="the bidding system that reads the auctions for the lead analysis")
    p.add_argument("--no-inference", action="store_true",
                   help="deal the lead analysis's hands without reading the auction")
    p.add_argument("--format", choices=sorted(WRITERS), default="text",
                   help="output format (default: text)")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE")
    p.add_argument("-j", "--jobs", type=positive_int, default=1, metavar="N",
                   help="solver threads for each analysis (default 1)")
    p.add_argument("--tt-mb", type=tt_mb, default=DEFAULT_TT_MB, metavar="MB",
                   help=f"transposition-table size in MB (default {DEFAULT_TT_MB})")
    add_store_options(p, "boards reviewed there with the same settings are not reviewed "
                         "again, and each new review is saved at once")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress bar and no summary on stderr")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    """Run ``ddsolver review`` on parsed arguments; the exit status."""
    if not args.player.strip():
        raise UsageError("--player names the player, as the seat tags do")
    check_readable(args.files)
    seed, drawn = seed_option(args.seed)
    system = bidding_system(args)
    settings: dict[str, Any] = {"player": args.player, "samples": args.samples,
                                "seed": seed, "method": args.method,
                                "system": None if system is None else system.name}
    if drawn and not args.quiet:
        print(f"{PROG} review: seed {seed} (give --seed {seed} to repeat this run)",
              file=sys.stderr)
    failed = 0
    show = not args.quiet and sys.stderr.isatty()

    problems: list[str] = []     # the boards left out, for the HTML page to list

    def report(message: str) -> None:
        nonlocal failed
        failed += 1
        problems.append(message)
        bar.write(message, file=sys.stderr)

    # What decides a board's review besides the board and the player.
    key = (f"seed={seed};samples={args.samples};method={args.method};"
           f"depth={args.depth if args.method == 'alphamu' else '-'};"
           f"system={settings['system']}")
    new = 0

    def counted() -> None:
        nonlocal new
        new += 1

    with ExitStack() as stack:
        store = store_in(stack, args, "reviews")
        out, close = open_output(args.output, args.files)
        if close:
            stack.push(out)   # put in place if the run finishes, else left as it was
        bar = progress_bar(None, show, unit="boards")
        stack.callback(bar.close)
        writer = WRITERS[args.format](aside_of(out, bar, to_file=close))
        writer.begin(settings)
        reviews: list[BoardReview] = []
        inputs = Inputs(args.files, report)
        try:
            for review in review_boards(inputs, args.player, seed=seed,
                                        samples=args.samples, method=args.method,
                                        depth=args.depth, system=system, jobs=args.jobs,
                                        tt_mb=args.tt_mb, progress=lambda: bar.update(1),
                                        store=store, settings=key, on_new=counted):
                reviews.append(review)
                writer.write(review)
                out.flush()
        except KeyboardInterrupt:
            raise stopped(bar, store, len(reviews), "reviews") from None
        writer.end(summarise(reviews), problems)
        out.flush()
    if not reviews and not failed:
        print(f"{PROG} review: {args.player!r} sat at no board of the files", file=sys.stderr)
        return FAILED
    if not args.quiet:
        text = f"{PROG}: {len(reviews)} board{'s' * (len(reviews) != 1)} reviewed"
        if args.db:
            text += f"; {len(reviews) - new} from {args.db}, {new} reviewed now"
        if failed:
            text += f"; {failed} could not be (reported above)"
        print(text, file=sys.stderr)
    return FAILED if failed else OK
