"""``ddsolver advise``: single-dummy advice for the player to move, from his own view.

Two ways in:

* one position: ``ddsolver advise --hand K98... --dummy AJT... --contract 7NT --declarer S
  --seat S --played "..."`` -- the player's hand and dummy's as dealt, the cards played so
  far, constraints on the hidden hands (``--west "8 hcp"``, as ``ddsolver leads``); an
  ending (fewer than 13 cards a hand) names its cards in play with ``--in-play DEAL`` and
  declarer's earlier tricks with ``--declarer-won``.  One report (:class:`AdviceReport`).
* PBN files: ``ddsolver advise FILE.pbn --seat S`` goes through the real play of every
  board with a Contract, a Declarer and a Play section (an ending's ``DeclarerWon`` and
  ``Constraints`` tags are read as in ``data/single_dummy.pbn``); where the play stops with
  ``S``'s side to play, the full advice for that card is given; and at every card of ``S``'s side
  (declarer and dummy for declarer; the defender alone for a defender) asks which card was
  best single dummy from ``S``'s view at that moment; a card whose value (PIMC's mean
  tricks, or αμ's chance of making) is below the best card's is marked, with what it cost:
  the single-dummy counterpart of ``ddsolver play``'s double-dummy errors.  Boards that
  cannot be analysed are reported as ``FILE:LINE: reason`` and the run goes on.

``--method pimc`` (default) or ``alphamu`` (declarer's side; ``--depth M``); ``--samples N``
worlds, or every world when there are at most ``--exhaustive-limit`` (default 20,000) or
with ``--exhaustive``; ``--seed``, ``--jobs``; ``--format text|json|csv``.  A progress bar
on stderr counts the worlds solved (off with ``--quiet`` or when stderr is not a terminal).

Exit status: 0, 1 when some boards could not be analysed, 2 for a usage error (a hand that
contradicts the play, a card its player cannot hold, constraints no world can meet: one
plain line, nothing written), 130/143 when interrupted.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from cardgames.cards import Seat, SeatLike
from cardgames.constraints import Constraint
from cardgames.errors import CardgamesError

from ..boards import Inputs
from ..formats.advice import advice_csv, advice_text, review_csv, review_json, review_text
from ..solver import DEFAULT_TT_MB
from ._common import (
    FAILED,
    OK,
    PROG,
    UsageError,
    capped_jobs,
    finished,
    open_output,
    positive_int,
    progress_bar,
    tt_mb,
)

if TYPE_CHECKING:
    from ..advise import AdviceReport
    from ..board_advice import Decision

__all__ = ["add_parser", "run"]

_PROG = f"{PROG} advise"
# The analysis modules are imported when the command runs, not when the command line is
# built: every subcommand's parser is built at start, and a start that imports less is
# quicker and has fewer places for an early Ctrl-C to land.  These two mirror
# ddsolver.advise.METHODS and ddsolver.alphamu.DEFAULT_DEPTH (a test checks).
METHODS = ("pimc", "alphamu")
DEFAULT_DEPTH = 2

_EXAMPLES = """\
examples:
  ddsolver advise --hand K98... --dummy AJT... --contract 7NT --declarer S --seat S \\
      --leader S --in-play "N:AJT... Q7.2.. K98... 6.43.." --declarer-won 10 \\
      --method alphamu --depth 4
  ddsolver advise --hand T7.A762.QJ853.K4 --dummy AKQ2.KJ3.T94.A65 --contract 3NT \\
      --declarer S --seat S --played "HT HK H4 HA" --samples 200 --seed 1
  ddsolver advise data/played.pbn --seat S --samples 50 --seed 1
  ddsolver advise data/single_dummy.pbn --seat S --method alphamu --depth 3 --format json
"""


def add_parser(commands: argparse._SubParsersAction,
               formatter: type[argparse.HelpFormatter] = argparse.RawDescriptionHelpFormatter
               ) -> argparse.ArgumentParser:
    p = commands.add_parser(
        "advise", formatter_class=formatter, epilog=_EXAMPLES,
        help="single-dummy advice: the best card from the player's own view (PIMC or αμ)",
        description="Deal the hands the player cannot see in every way the play allows\n"
                    "(all of them when few), and rank the legal cards: PIMC's statistics\n"
                    "(each world double dummy), or αμ's chance of making with one strategy\n"
                    "for all worlds.  With PBN files, review the real play card by card.")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="PBN or LIN files: review the play of every board from --seat's "
                        "view")
    p.add_argument("--seat", metavar="SEAT", help="whose view: declarer or a defender")
    p.add_argument("--hand", metavar="PBN", help="the player's hand as dealt")
    p.add_argument("--dummy", metavar="PBN", help="dummy's hand as dealt")
    p.add_argument("--contract", metavar="C", help="the contract, e.g. 4S, 3NTX")
    p.add_argument("--declarer", metavar="SEAT", help="declarer: N, E, S or W")
    p.add_argument("--vul", default="none", metavar="V", help="none, NS, EW or both")
    p.add_argument("--played", default="", metavar="CARDS",
                   help="the cards played so far, from the opening lead, e.g. 'HT HK H4 HA'")
    p.add_argument("--leader", metavar="SEAT",
                   help="who led to the first trick (default declarer's left-hand opponent)")
    p.add_argument("--in-play", metavar="DEAL",
                   help="an ending: all its cards, as a PBN deal (the real lie, or any)")
    p.add_argument("--declarer-won", type=int, default=0, metavar="N",
                   help="an ending: declarer's side's tricks before it (default 0)")
    for seat in ("north", "east", "south", "west"):
        p.add_argument(f"--{seat}", metavar="C", help=f"constraint on {seat.title()}'s hand")
    p.add_argument("--method", choices=METHODS, default="pimc",
                   help="pimc (default) or alphamu (declarer's side)")
    p.add_argument("--depth", type=positive_int, default=DEFAULT_DEPTH, metavar="M",
                   help=f"αμ: declarer's side's moves searched with one strategy "
                        f"(default {DEFAULT_DEPTH})")
    p.add_argument("-n", "--samples", type=positive_int, default=100, metavar="N",
                   help="worlds to sample when they are too many to list (default 100)")
    p.add_argument("--exhaustive", action="store_true",
                   help="list every world whatever their number")
    p.add_argument("--exhaustive-limit", type=positive_int, default=20_000, metavar="N",
                   help="list every world when there are at most N (default 20000)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="random seed (default: drawn, printed on stderr)")
    p.add_argument("-j", "--jobs", type=positive_int, default=1, metavar="N",
                   help="solver threads (default 1); the report does not depend on it")
    p.add_argument("--format", choices=("text", "json", "csv"), default="text",
                   help="output format (default: text)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    p.add_argument("--tt-mb", type=tt_mb, default=DEFAULT_TT_MB, metavar="MB",
                   help=f"transposition-table size in MB (default {DEFAULT_TT_MB})")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)
    return p


def _constraints(args: argparse.Namespace) -> dict[SeatLike, Constraint | str]:
    return {seat[0].upper(): getattr(args, seat) for seat in ("north", "east", "south", "west")
            if getattr(args, seat)}


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return dict(method=args.method, depth=args.depth, samples=args.samples, seed=args.seed,
                exhaustive=True if args.exhaustive else None, limit=args.exhaustive_limit,
                jobs=args.jobs, tt_mb=args.tt_mb)


def _bar(args: argparse.Namespace, total: int | None, desc: str) -> Any:
    return progress_bar(total, not args.quiet and sys.stderr.isatty(), unit="worlds",
                        desc=desc)


def run(args: argparse.Namespace) -> int:
    from cardgames.sampling import draw_seed
    if args.seed is not None and args.seed < 0:
        raise UsageError(f"--seed must be a whole number 0 or more, got {args.seed}")
    drawn = args.seed is None
    if drawn:
        args.seed = draw_seed()
    args.jobs = capped_jobs(args.jobs, "advise")
    if args.files:
        status = _files(args)
    else:
        status = _one(args)
    if drawn and not args.quiet:
        print(f"{_PROG}: no --seed given: this run used --seed {args.seed}", file=sys.stderr)
    return status


# ---- one position ----------------------------------------------------------------------------

def _one(args: argparse.Namespace) -> int:
    missing = [o for o, v in (("--hand", args.hand), ("--contract", args.contract),
                              ("--seat", args.seat)) if not v]
    if missing:
        raise UsageError(f"give {', '.join(missing)} (or PBN files)")
    from ..advise import advise
    # The output opened before the work: a path that cannot be written is said now.
    out, close = open_output(args.output)
    with finished(out, close):
        bar = _bar(args, None, "worlds")
        try:
            report = advise(args.hand.strip(), args.contract, args.declarer, args.vul,
                            seat=args.seat, dummy=args.dummy, played=args.played,
                            leader=args.leader, in_play=args.in_play,
                            declarer_won=args.declarer_won, constraints=_constraints(args),
                            progress=bar.update, **_options(args))
        except CardgamesError as err:
            raise UsageError(str(err)) from None
        finally:
            bar.close()
        out.write({"text": advice_text(report) + "\n", "json": report.to_json() + "\n",
                   "csv": advice_csv(report)}[args.format])
    return OK


# ---- reviewing the real play -------------------------------------------------------------------

def _files(args: argparse.Namespace) -> int:
    if args.seat is None:
        raise UsageError("with PBN files, say whose view to review the play from (--seat)")
    if args.hand or args.contract or args.dummy or args.played:
        raise UsageError("with PBN files the hands, contract and play come from each board")
    try:
        seat = Seat.parse(args.seat)
    except CardgamesError as err:
        raise UsageError(f"--seat: {err}") from None
    failed = 0

    def report(message: str) -> None:
        nonlocal failed
        failed += 1
        print(f"{_PROG}: {message}", file=sys.stderr)

    from ..board_advice import review_boards
    # The output opened before the work: a path that cannot be written is said now.
    out, close = open_output(args.output, args.files)
    with finished(out, close):
        inputs = Inputs(args.files, report)
        decisions: list[Decision] = []
        # (board, where it is, the advice for its next card)
        upcoming: list[tuple[str, str, AdviceReport]] = []
        bar = _bar(args, None, "worlds")
        try:
            for reviewed in review_boards(inputs, seat, _options(args), bar.update):
                decisions += reviewed.decisions
                if reviewed.next is not None:
                    upcoming.append((reviewed.label, reviewed.where, reviewed.next))
        except BrokenPipeError:
            raise
        except OSError as err:
            raise UsageError(f"cannot read {inputs.paths[inputs.file]}: "
                             f"{err.strerror or err}") from None
        finally:
            bar.close()
        out.write(review_text(decisions, upcoming, seat, args.method, args.depth)
                  if args.format == "text" else
                  review_json(decisions, upcoming) if args.format == "json" else
                  review_csv(decisions))
    return FAILED if failed else OK
