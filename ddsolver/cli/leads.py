"""``ddsolver leads``: Monte-Carlo opening-lead analysis on the command line.

Two ways in:

* one hand: ``ddsolver leads --hand "KQ72.J83.T94.A65" --contract 4S --declarer S --vul none``
  with constraints on the hidden hands (``--north "15-17 hcp, balanced"``; a PBN hand such as
  ``--north "AJ3.KQ2.A876.K54"`` makes that hand known);
* PBN files: ``ddsolver leads FILE.pbn`` analyses every board that names a contract and a
  declarer (``Contract``/``Declarer`` tags, or a complete ``Auction``), from the real
  opening leader's hand (the other hands hidden); a board that cannot be analysed is
  reported as ``FILE:LINE: reason`` and the run goes on.

  Each board's ``Auction`` is read by a bidding system (the shipped standard one, or
  ``--system FILE``; ``--no-inference`` turns this off): what it says about the three hidden
  hands is what they are dealt under, ANDed with ``--north``/``--east``/...; the leader's
  own hand is known and needs no constraint.  The real deal is used only after the
  sampling: to say which inferred constraints its hidden hands break, and to value the
  lead made at the table (``Lead`` tag, else the first card of ``Play``) double dummy.
  An illegal auction, or ``Contract``/``Declarer`` tags that contradict the auction, cost
  the board (skipped, ``FILE:LINE: reason``); a missing call (``-``) or an unfinished
  auction only flags it (a note in its report).

Exit status: 0 all went well, 1 some boards could not be analysed, 2 a usage error (bad
option, malformed hand, contract or constraint -- found before any work, in either mode --
impossible constraints on the one hand), 130 interrupted by Ctrl-C, 143 stopped by SIGTERM.
Errors are one plain line on stderr, never a traceback.

The command registers itself with :func:`add_parser` (:func:`ddsolver.cli.build_parser`
calls it) and runs through :func:`run`; the analysis is :func:`ddsolver.leads.analyse_leads`
(for the boards of PBN files, :mod:`ddsolver.board_leads`), the output
:class:`ddsolver.formats.leads.LeadsWriter` (``--format html``: one page with a chart of
every lead's tricks, :class:`ddsolver.formats.leads_html.LeadsHtmlWriter`).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from typing import Any, TextIO, cast

from cardgames import pbn
from cardgames.bidding import BiddingSystem
from cardgames.cards import Seat, SeatLike
from cardgames.constraint_syntax import as_constraint
from cardgames.constraints import Constraint, contradiction
from cardgames.errors import CardgamesError, SamplingError
from cardgames.facts import BoardFacts
from cardgames.hands import Hand
from cardgames.sampling import draw_seed
from cardgames.scoring import Contract, Vulnerability

from ..board_leads import LeadBoard, LeaderGivenError, LeadTally, analyse_board, lead_boards
from ..boards import Inputs, board_name
from ..cluster import ClusterError
from ..formats.leads import LeadsWriter
from ..formats.leads_html import LeadsHtmlWriter
from ..leads import DEAL_CHUNK, LeadReport, analyse_leads
from ..solver import DEFAULT_TT_MB, thread_solver
from ..stats import CRITERIA
from ._cluster import add_scheduler_option, cluster_failed, scheduler_client
from ._common import (
    FAILED,
    INTERRUPTED,
    OK,
    PROG,
    TERMINATED,
    GuardedOutput,
    Terminated,
    UsageError,
    bidding_system,
    capped_jobs,
    check_readable,
    jobs_limit,
    open_file,
    positive_int,
    progress_bar,
    same_file,
    tt_mb,
)

__all__ = ["add_parser", "run"]

#: How the command names itself in its messages.
_PROG = f"{PROG} leads"
#: The most random deals dealt per batch before rare constraints are given up on.
MAX_ATTEMPTS = 20_000_000

_EXAMPLES = """\
examples:
  ddsolver leads --hand KQ72.J83.T94.A65 --contract 4S --declarer S --vul none \\
      --samples 1000 --seed 1
  ddsolver leads --leader W --hand KQ72.J83.T94.A65 --contract 3NT --declarer S \\
      --south "15-17 hcp, balanced" --north "8-9 hcp, spades<=3, hearts<=3" --jobs 2
  ddsolver leads --hand KQ72.J83.T94.A65 --contract 4HX --declarer S --vul both \\
      --east "hcp<=5" --sort p_set --format json --save-deals leads.pbn
  ddsolver leads data/played.pbn --samples 200 --seed 1 --format csv
  ddsolver leads --hand KQ72.J83.T94.A65 --contract 4S --declarer S \\
      --south "5+ spades, 12+ hcp" --samples 500 --seed 1 --format html -o leads.html
  ddsolver leads data/auctions.pbn --samples 100 --seed 1 --system my-system.toml
  ddsolver leads data/auctions.pbn --samples 10000 --seed 1 --scheduler tcp://10.0.0.5:8786

constraint syntax (comma = and; "or" binds tighter; "not" negates one term):
  15-17 hcp   12+ hcp   hcp>=12   hcp<=10   5+ spades   4-5 hearts   spades>=4
  clubs<=2    4333 (any order)   4=4=3=2 (exact S=H=D=C)   balanced   unbalanced
  holds SA    lacks SK HA        any
"""

_HAND = re.compile(r"^[AKQJT98765432]*(\.[AKQJT98765432]*){3}$", re.IGNORECASE)


def add_parser(commands: argparse._SubParsersAction,
               formatter: type[argparse.HelpFormatter] = argparse.RawDescriptionHelpFormatter
               ) -> argparse.ArgumentParser:
    """Add the ``leads`` subcommand to ``commands`` (an ``add_subparsers()`` result)."""
    p = commands.add_parser(
        "leads", formatter_class=formatter, epilog=_EXAMPLES,
        help="Monte-Carlo opening-lead analysis: deal the hidden hands, score every lead",
        description="Deal the hands the opening leader cannot see at random (under\n"
                    "constraints from the auction), solve each deal double-dummy for every\n"
                    "lead, and rank the leads: mean tricks, chance to beat the contract,\n"
                    "score, and paired differences from the best lead in tricks, IMPs and\n"
                    "matchpoints.  Leads marked '=' cannot be told apart from the best.")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="PBN or LIN files: analyse every board with a contract and "
                        "declarer")
    p.add_argument("--hand", metavar="PBN",
                   help="the opening leader's hand, e.g. KQ72.J83.T94.A65")
    p.add_argument("--leader", metavar="SEAT",
                   help="the opening leader (must be declarer's left-hand opponent)")
    p.add_argument("--contract", metavar="C", help="the contract, e.g. 4S, 3NTX, 6HXX")
    p.add_argument("--declarer", metavar="SEAT", help="declarer: N, E, S or W")
    p.add_argument("--vul", default=None, metavar="V",
                   help="vulnerability: none, NS, EW or both (default none; with PBN files "
                        "it comes from each board)")
    for seat in ("north", "east", "south", "west"):
        p.add_argument(f"--{seat}", metavar="C",
                       help=f"constraint on {seat.title()}'s hand, or the hand itself (PBN)")
    p.add_argument("--system", metavar="FILE.toml",
                   help="with PBN files: the bidding system that reads each board's Auction "
                        "(default: the shipped standard system)")
    p.add_argument("--no-inference", action="store_true",
                   help="with PBN files: ignore the auctions (deal under the --north/... "
                        "constraints only)")
    p.add_argument("-n", "--samples", type=positive_int, default=1000, metavar="N",
                   help="deals to solve per board (the most, with --stop-z; default 1000)")
    p.add_argument("--seed", default=None, metavar="S",
                   help="random seed, a whole number 0 or more: the same seed gives the same "
                        "deals and report (default: a fresh seed, printed on stderr and in "
                        "the report)")
    p.add_argument("-j", "--jobs", type=positive_int, default=1, metavar="N",
                   help="solver threads (default 1); the report does not depend on it "
                        f"(more than {jobs_limit()}, 4 a core, run as {jobs_limit()} with a "
                        "warning)")
    p.add_argument("--format", choices=("text", "json", "csv", "html"), default="text",
                   help="output format (default text); html: one self-contained page with "
                        "a chart of every lead's tricks")
    p.add_argument("--sort", choices=(*CRITERIA, "scoring"), default="mean",
                   help="rank leads by mean tricks, chance to set, mean score, how "
                        "often the lead takes the most tricks of any lead (p_best: "
                        "the lead most often right double dummy), matchpoints (mp) or "
                        "IMPs (imps) against the other leads, or (PBN files) as each "
                        "board's Scoring tag says: mp for matchpoints, imps for IMPs, "
                        "score for total points, else mean (default mean); the first is "
                        "'the best'")
    p.add_argument("--stop-z", default=None, metavar="Z",
                   help="stop early once the best lead is Z paired SEs clear of every other "
                        "(leads tied with it on every deal aside); checked after every "
                        "--batch deals once --min-samples are solved")
    p.add_argument("--min-samples", default=100, metavar="N",
                   help="with --stop-z: never stop before N deals (default 100; at least 2)")
    p.add_argument("--batch", type=positive_int, default=100, metavar="N",
                   help="with --stop-z: deals between checks (default 100)")
    p.add_argument("--save-deals", metavar="FILE.pbn",
                   help="write every sampled deal, with each lead's tricks, as PBN")
    p.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    p.add_argument("--tt-mb", type=tt_mb, default=DEFAULT_TT_MB, metavar="MB",
                   help=f"transposition-table size per thread (default {DEFAULT_TT_MB})")
    p.add_argument("--max-seconds", default=60.0, metavar="S",
                   help="dealing time budget per batch (at most "
                        f"{DEAL_CHUNK} deals, or --batch with --stop-z; on a cluster, per "
                        "task, a few deals) before giving up on rare constraints (seconds, "
                        "more than 0; default 60)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    add_scheduler_option(p)
    p.set_defaults(run=run)
    return p


def _whole(option: str, text: str | int, least: int, what: str) -> int:
    """The value of a whole-number option, at least ``least``, or a one-line usage error."""
    if isinstance(text, int):
        value = text
    else:
        try:
            value = int(text)
        except ValueError:
            raise UsageError(f"{option} must be {what}, got {text!r}") from None
    if value < least:
        raise UsageError(f"{option} must be {what}, got {value}")
    return value


def _positive(option: str, text: str | float) -> float:
    """The value of an option that takes a positive finite number, or a usage error."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise UsageError(f"{option} must be a positive number, got {text!r}")
    return value


def _check_options(args: argparse.Namespace) -> None:
    """Turn the options argparse leaves as text into numbers, or a one-line usage error
    (argparse's own errors print the whole usage first)."""
    if args.seed is not None:
        args.seed = _whole("--seed", args.seed, 0, "a whole number 0 or more")
    else:
        # One seed for the whole run (every board), reported, so the run can be repeated.
        args.seed = draw_seed()
        args.seed_drawn = True
    args.jobs = capped_jobs(args.jobs, "leads")
    args.min_samples = _whole("--min-samples", args.min_samples, 2,
                              "a whole number of at least 2 (a standard error needs two deals)")
    if args.stop_z is not None:
        args.stop_z = _positive("--stop-z", args.stop_z)
    args.max_seconds = _positive("--max-seconds", args.max_seconds)
    args.bidding = _bidding_system(args)
    _check_save_deals(args)
    # A malformed constraint or hand is wrong for every board: say so once, up front.
    for seat in Seat:
        option = f"--{seat.name.lower()}"
        value = getattr(args, seat.name.lower(), None)
        if value is None:
            continue
        try:
            if _HAND.match(value.strip()):
                Hand.from_pbn(value.strip())
            else:
                as_constraint(value)
        except CardgamesError as err:
            raise UsageError(f"{option}: {err}") from None


def _bidding_system(args: argparse.Namespace) -> BiddingSystem | None:
    """The system that reads the auctions (None: they are not read), or a usage error for
    a system file that cannot be read (naming its line)."""
    if not args.files:
        if args.system is not None or args.no_inference:
            raise UsageError("--system and --no-inference are about the Auction of each board "
                             "of PBN files; with --hand, give the constraints (--north ...)")
        return None
    return bidding_system(args)


def _message(err: CardgamesError, args: argparse.Namespace) -> str:
    """An error of the analysis in the command line's terms: dealing that gives up on rare
    constraints names the option that sets its budget, not the Python parameters."""
    if isinstance(err, LeaderGivenError):
        return (f"--{err.seat.name.lower()} describes the opening leader, whose hand is known "
                "(--hand or the PBN deal)")
    text = str(err)
    if isinstance(err, SamplingError):
        cut = text.find("; loosen them or raise max_attempts")
        if cut >= 0:
            text = (f"{text[:cut]}; loosen them, or raise --max-seconds (now "
                    f"{args.max_seconds:g} s per batch of deals; at most {MAX_ATTEMPTS:,} "
                    f"random deals are tried per batch)")
        cut = text.find("; ask for fewer at a time")
        if cut >= 0:  # no constraints: only the time budget can be short
            text = f"{text[:cut]}; raise --max-seconds (now {args.max_seconds:g} s per batch)"
    return text


# ---- the pieces of one analysis -------------------------------------------------------------

def _seat_options(args: argparse.Namespace, leader: Seat | None
                  ) -> tuple[dict[Seat, str], dict[Seat, Hand]]:
    """Constraints and known hands from --north/--east/--south/--west."""
    constraints: dict[Seat, str] = {}
    known: dict[Seat, Hand] = {}
    for seat in Seat:
        value = getattr(args, seat.name.lower(), None)
        if value is None:
            continue
        if leader is not None and seat == leader:
            raise UsageError(f"--{seat.name.lower()} describes the opening leader, whose hand is "
                         f"known (--hand or the PBN deal)")
        if _HAND.match(value.strip()):
            try:
                known[seat] = Hand.from_pbn(value.strip())
            except CardgamesError as err:
                raise UsageError(f"--{seat.name.lower()}: {err}") from None
        else:
            # A constraint no hand can meet is a usage error before any board (with PBN
            # files every board was skipped under it, exit 1).
            try:
                why = contradiction(as_constraint(value))
            except CardgamesError as err:
                raise UsageError(f"--{seat.name.lower()}: {err}") from None
            if why is not None:
                raise UsageError(f"--{seat.name.lower()} {value!r} can never hold: {why}")
            constraints[seat] = value
    return constraints, known


def _deal_writer(args: argparse.Namespace, event: str | None) -> Callable[[list[pbn.Game]], None] | None:
    """With --save-deals, what writes each chunk of sampled deals as it is solved (so they
    are not all kept until the end), with ``event`` as their Event tag; else None.  The
    file's directives are written before the first deal."""
    fp: TextIO | None = getattr(args, "deals_fp", None)
    if fp is None:
        return None

    def write(games: list[pbn.Game]) -> None:
        if not getattr(args, "deals_begun", False):
            pbn.dump([], fp)  # the directives alone: the deals follow as pbn.dump would
            args.deals_begun = True
        for game in games:
            if event is not None:
                game.set_tag("Event", event)
            fp.write(game.to_pbn() + "\n")
    return write


#: The criterion of each form of scoring a board's Scoring tag names (--sort scoring).
SCORING_CRITERIA = {"matchpoints": "mp", "imps": "imps", "total points": "score"}


def _analyse(args: argparse.Namespace, hand: Hand, contract: Contract, declarer: Seat,
             vul: Vulnerability, constraints: Mapping[Seat, Constraint | str],
             known: Mapping[Seat, Hand], label: str, event: str | None = None,
             criterion: str | None = None) -> LeadReport:
    bar = _progress_bar(args, label)
    args.analysed = getattr(args, "analysed", 0) + 1
    # (seats as the analysis takes them: any seat-like key)
    dealt: dict[SeatLike, Constraint | str] = {s: c for s, c in constraints.items()}
    given: dict[SeatLike, Hand | str] = {s: h for s, h in known.items()}
    try:
        return analyse_leads(hand, contract, declarer, vul, constraints=dealt, known=given,
                             samples=args.samples, seed=args.seed, jobs=args.jobs,
                             criterion=criterion or args.sort, stop_z=args.stop_z,
                             min_samples=args.min_samples, batch=args.batch,
                             tt_mb=args.tt_mb, max_seconds=args.max_seconds,
                             max_attempts=MAX_ATTEMPTS,
                             keep_deals=False, on_games=_deal_writer(args, event),
                             progress=bar.update if bar is not None else None,
                             client=getattr(args, "client", None))
    finally:
        if bar is not None:
            bar.close()


def _progress_bar(args: argparse.Namespace, label: str) -> Any:
    if args.quiet or not sys.stderr.isatty():
        return None
    return progress_bar(args.samples, True, unit="deals", desc=label)


# ---- the two modes --------------------------------------------------------------------------

def _one_hand(args: argparse.Namespace, output: LeadsWriter) -> int:
    if not args.hand or not args.contract:
        raise UsageError("give --hand and --contract (and --declarer), or PBN files")
    if args.sort == "scoring":
        raise UsageError("--sort scoring reads each board's Scoring tag: give PBN files, or "
                         "--sort mp (matchpoints) / imps / score (total points)")
    try:
        hand = Hand.from_pbn(args.hand.strip())
        contract = Contract.parse(args.contract)
        if contract is None:
            raise UsageError("a passed-out board has no opening lead")
        declarer = Seat.parse(args.declarer) if args.declarer else contract.declarer
        if declarer is None:
            raise UsageError("give --declarer (or a contract with its declarer, like 4SN)")
        if contract.declarer is not None and contract.declarer != declarer:
            raise UsageError(f"--contract {args.contract} names declarer "
                         f"{contract.declarer.letter}, --declarer says {declarer.letter}")
        if args.leader is not None and Seat.parse(args.leader) != declarer.lho:
            raise UsageError(f"the opening leader is declarer's left-hand opponent, "
                         f"{declarer.lho.letter}, not {Seat.parse(args.leader).letter}")
        vul = Vulnerability.parse(args.vul if args.vul is not None else "none")
    except CardgamesError as err:
        raise UsageError(str(err)) from None
    if len(hand) != 13:
        raise UsageError(f"--hand must hold 13 cards, not {len(hand)}")
    constraints, known = _seat_options(args, declarer.lho)
    try:
        report = _analyse(args, hand, contract, declarer, vul, constraints, known, "deals")
    except CardgamesError as err:
        raise UsageError(_message(err, args)) from None
    output.add(report, None)
    return OK


def _event(source: str, board: int | None) -> str:
    """The Event tag of the deals saved from one board of a file."""
    return f"ddsolver leads: {source} board {board if board is not None else '?'}"


def _check_save_deals(args: argparse.Namespace) -> None:
    """A usage error, before any work, for an input file whose name cannot go into the
    Event tag of the deals saved from it (a line break: a PBN tag is one line)."""
    if not (args.save_deals and args.files):
        return
    for path in args.files:
        try:
            pbn.Game(line=None).set_tag("Event", _event(path, 1))
        except ValueError:
            raise UsageError(f"--save-deals: the input file name {path!r} holds a line "
                             "break, which the saved deals' Event tag cannot hold; rename "
                             "the file") from None


def _files(args: argparse.Namespace, output: LeadsWriter,
           report_error: Callable[[str], None], problems: list[str]) -> int:
    if args.hand or args.contract or args.declarer or args.leader or args.vul:
        raise UsageError("with PBN files, the hand, contract, declarer and vulnerability come from "
                     "each board; drop --hand/--contract/--declarer/--leader/--vul")
    failed = 0

    def report(message: str) -> None:
        nonlocal failed
        failed += 1
        problems.append(message)
        report_error(message)

    constraints, known = _seat_options(args, None)

    def analyse(board: LeadBoard, dealt: Mapping[Seat, Constraint | str],
                given: Mapping[Seat, Hand]) -> LeadReport:
        number = board.game.board
        criterion = args.sort
        if criterion == "scoring":
            form = BoardFacts(board.game, board.source).scoring
            criterion = SCORING_CRITERIA.get(form, "mean") if form else "mean"
        return _analyse(args, board.hand, board.contract, board.declarer,
                        board.vulnerability, dealt, given, f"board {board_name(board.game) or '?'}",
                        _event(board.source, number), criterion)

    def run(board: LeadBoard) -> LeadReport:
        return analyse_board(board, analyse, system=args.bidding, constraints=constraints,
                             known=known, solver=thread_solver(args.tt_mb))

    # A file without games says nothing here: "nothing to analyse" below covers it; nor
    # does a bad Dealer tag (it costs a table its par).  A part of a LIN board left out
    # (an auction that does not read) is said: the board is analysed without it.
    inputs = Inputs(args.files, report, warn=lambda message: None, part=report)
    tally = LeadTally()
    try:
        for board, result in lead_boards(inputs, run, tally,
                                         explain=lambda err: _message(err, args)):
            output.add(result, {"source": board.source, "line": board.game.line,
                                "board": board.game.board, "name": board_name(board.game)})
    except BrokenPipeError:
        raise
    except OSError as err:
        raise UsageError(f"cannot read {inputs.paths[inputs.file]}: "
                         f"{err.strerror or err}") from None
    if tally.skipped and not args.quiet:
        report_error(f"{tally.skipped} board{'s' * (tally.skipped != 1)} skipped: no contract "
                     "(or passed out), so no opening lead to choose")
    if tally.analysed == 0 and not failed:
        report_error("no board names a contract and a declarer: nothing to analyse")
        return FAILED
    return FAILED if failed else OK


def run(args: argparse.Namespace) -> int:
    """Run ``ddsolver leads`` on parsed arguments; the exit status (0, 1 or 2)."""
    def report_error(text: str) -> None:
        print(f"{_PROG}: {text}", file=sys.stderr)

    # Write errors (disk full...) become one OutputError line, not a traceback.
    out: TextIO = cast(TextIO, GuardedOutput(sys.stdout, "standard output", stdout=True))
    deals_fp: TextIO | None = None
    opened: list[GuardedOutput] = []

    def close_files(*, finished: bool = True) -> None:
        """Put the files in place after a run that finished; else leave what was at their
        paths as it was."""
        for fp in opened:
            fp.finish(not finished)   # once done, again is nothing

    cluster = ExitStack()  # the Dask client of --scheduler, closed at the end
    try:
        _check_options(args)
        # Every input readable before any work, as the batch commands check them (an
        # unreadable third file used to stop the run after the first two were analysed).
        check_readable(args.files)
        args.client = cluster.enter_context(scheduler_client(args))
        if args.output and args.save_deals and same_file(args.output, args.save_deals):
            raise UsageError("-o and --save-deals name the same file")
        for option, path in (("-o", args.output), ("--save-deals", args.save_deals)):
            if path and any(same_file(path, f) for f in args.files):
                raise UsageError(f"{option} {path} is an input file: writing it would "
                                 "destroy it")
        # Open the output files before any work: a path that cannot be written is a usage
        # error now, not after all the solving.
        if args.output:
            opened.append(open_file(args.output, f"-o {args.output}"))
            out = cast(TextIO, opened[-1])
        if args.save_deals:
            opened.append(open_file(args.save_deals, f"--save-deals {args.save_deals}"))
            deals_fp = cast(TextIO, opened[-1])
        args.deals_fp = deals_fp
        output = (LeadsHtmlWriter(out, many=bool(args.files)) if args.format == "html"
                  else LeadsWriter(args.format, out, many=bool(args.files)))
        problems: list[str] = []     # the boards left out, for the HTML page to list
        if args.files:
            status = _files(args, output, report_error, problems)
        else:
            status = _one_hand(args, output)
        output.finish(problems)
        if deals_fp is not None and not getattr(args, "deals_begun", False):
            pbn.dump([], deals_fp)  # no deal at all: the directives, as before
        close_files()  # the report's last bytes go out now: a failure is reported
        if getattr(args, "seed_drawn", False) and getattr(args, "analysed", 0):
            # The text and JSON reports show it too; CSV does not.
            report_error(f"no --seed given: this run used --seed {args.seed} (give it to "
                         f"repeat the run)")
        return status
    except UsageError:
        close_files(finished=False)   # nothing made by this run is left behind
        raise  # reported by ddsolver.cli.main, exit status 2
    except ClusterError as err:
        # (scheduler_client says this of a failure inside its block; the client here is
        # closed by hand, below, so the failure is said here)
        close_files(finished=False)
        raise cluster_failed(err) from None
    except KeyboardInterrupt as stop:
        # Ctrl-C or SIGTERM: nothing is kept between runs, so there is nothing to resume.
        close_files(finished=False)
        if isinstance(stop, Terminated):
            print(f"{_PROG}: terminated", file=sys.stderr)
            return TERMINATED
        print(f"{_PROG}: interrupted", file=sys.stderr)
        return INTERRUPTED
    finally:
        close_files(finished=False)   # after an unforeseen error; a no-op once closed
        cluster.close()
