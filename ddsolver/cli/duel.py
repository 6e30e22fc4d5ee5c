"""``ddsolver duel``: deals played out card by card with two declarers (αμ and PIMC by
default) against the same defenders, each player choosing from his own view
(:mod:`ddsolver.duel`), and what each declarer made.

Deals come from PBN files (each board with a contract, its declarer and a complete deal;
the auction read by the bidding system for the worlds' constraints) or, with ``--deals N``,
are dealt as in Cazenave and Ventos's protocol: ``--contract`` (3NT) by ``--declarer`` (S),
deals whose double-dummy result is within ``--tolerance`` (1) trick of making, from
``--seed``.  Deals are played ``--jobs`` at a time (threads), or on a Dask cluster
(``--scheduler``); the output does not depend on either.  With ``--db FILE`` each played
deal is saved at once (``duel_plays`` in the results store), so an interrupted run goes on
with ``--resume`` and the same settings; ``--pbn FILE`` writes every played deal with its
play, which ``ddsolver play FILE`` replays.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any

from cardgames.cards import Seat
from cardgames.errors import CardgamesError
from cardgames.scoring import Contract

from ..board_duel import pbn_deals
from ..boards import Inputs, count_lines
from ..duel import (
    DEFAULT_WORLDS,
    DuelDeal,
    DuelResult,
    Method,
    Play,
    duel_deal,
    protocol_deals,
    summarise,
)
from ..formats.duel import WRITERS, played_games
from ..pool import check_jobs
from ..solver import DEFAULT_TT_MB, Solver
from ..store import ResultStore
from ._batch import add_store_options, stopped, store_in
from ._cluster import add_scheduler_option, scheduler_client
from ._common import (
    FAILED,
    OK,
    PROG,
    UsageError,
    aside_of,
    bidding_system,
    capped_jobs,
    check_readable,
    jobs_limit,
    open_output,
    positive_int,
    progress_bar,
    seed_option,
    tt_mb,
)

__all__ = ["add_parser", "run"]

_EXAMPLES = """\
examples:
  ddsolver duel --deals 100 --seed 1
  ddsolver duel --deals 1000 --seed 1 --declarers alphamu:3,pimc --jobs 2 --db duel.sqlite
  ddsolver duel --deals 1000 --seed 1 --db duel.sqlite --resume        # after Ctrl-C
  ddsolver duel data/played.pbn --seed 1 --defence dd --pbn played-out.pbn
  ddsolver duel --deals 200 --seed 1 --format json -o duel.json --scheduler local:2

Each deal is played twice, once with each declarer, against the same defenders; every
player chooses from what he sees (his hand, dummy, the play, the auction), declarer by αμ
(alphamu:M) or PIMC, the defenders by PIMC or double dummy (dd).  Two declarers reaching
the same point meet the same worlds.  A deal marked * is one whose outcome differs; the
summary gives each declarer's make rate, the first one's win rate on the deals that differ
with its 95% interval, and IMPs and matchpoints between them.
"""


def add_parser(commands: argparse._SubParsersAction,
               formatter: type[argparse.HelpFormatter]) -> argparse.ArgumentParser:
    p = commands.add_parser(
        "duel", formatter_class=formatter, epilog=_EXAMPLES,
        help="deals played out by two declarers (αμ, PIMC) against the same defenders",
        description="Play deals out card by card with two declarers against the same\n"
                    "defenders, each player from his own view, and compare what they made.")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="PBN or LIN files whose boards (contract, declarer, complete deal) "
                        "to play")
    p.add_argument("--deals", type=positive_int, default=None, metavar="N",
                   help="without files: deal N boards as the protocol does (--contract by "
                        "--declarer, within --tolerance tricks of making double dummy)")
    p.add_argument("--contract", default=None,
                   help="the protocol's contract (default 3NT; 3NTN names its declarer too)")
    p.add_argument("--declarer", default=None,
                   help="the protocol's declarer (default S, or the one --contract names)")
    p.add_argument("--tolerance", type=int, default=1, metavar="T",
                   help="the protocol's deals: double-dummy result within T tricks of "
                        "making (default 1)")
    p.add_argument("--declarers", default="alphamu:2,pimc", metavar="A,B",
                   help="the two declarers: alphamu:M or pimc (default alphamu:2,pimc)")
    p.add_argument("--defence", "--defense", default="pimc", choices=("pimc", "dd"),
                   help="how the defenders play: pimc from their own views, or dd (seeing "
                        "every card); default pimc")
    p.add_argument("-w", "--worlds", type=positive_int, default=DEFAULT_WORLDS, metavar="W",
                   help=f"worlds per decision, declarer's and defenders' (default "
                        f"{DEFAULT_WORLDS})")
    p.add_argument("--seed", default=None, metavar="S",
                   help="random seed, a whole number 0 or more: the deals (with --deals) and "
                        "every decision's worlds (default: drawn, printed on stderr)")
    p.add_argument("--system", metavar="FILE.toml",
                   help="with PBN files: the bidding system that reads each board's Auction "
                        "(default: the shipped standard system)")
    p.add_argument("--no-inference", action="store_true",
                   help="with PBN files: ignore the auctions (worlds without constraints)")
    p.add_argument("--format", choices=sorted(WRITERS), default="text",
                   help="output format (default: text)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the results to FILE instead of standard output")
    p.add_argument("--pbn", metavar="FILE",
                   help="write every played deal, with its play, as PBN (ddsolver play reads "
                        "it)")
    p.add_argument("-j", "--jobs", type=positive_int, default=1, metavar="N",
                   help=f"deals played at once, one thread each (default 1; more than "
                        f"{jobs_limit()} run as {jobs_limit()})")
    p.add_argument("--tt-mb", type=tt_mb, default=DEFAULT_TT_MB, metavar="MB",
                   help=f"transposition-table size per solver in MB (default {DEFAULT_TT_MB})")
    add_store_options(p, "deals played there with the same settings are not played "
                         "again, and each new one is saved at once")
    add_scheduler_option(p)
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress bar and no summary on stderr (errors are still reported)")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    """Run ``ddsolver duel`` on parsed arguments; the exit status."""
    if args.files and args.deals is not None:
        raise UsageError("give PBN files or --deals N, not both")
    if not args.files and args.deals is None:
        raise UsageError("nothing to play: give PBN files, or --deals N for the protocol's "
                         "deals")
    if args.files and args.tolerance != 1:
        raise UsageError("--tolerance chooses the protocol's deals (--deals), not a file's")
    for option in ("--contract", "--declarer"):
        if args.files and getattr(args, option[2:]) is not None:
            raise UsageError(f"{option} chooses the protocol's deals (--deals); a file's "
                             "boards name their own")
    try:
        names = [x for x in args.declarers.split(",") if x.strip()]
        if len(names) != 2:
            raise ValueError(f"--declarers names two methods (A,B), got {args.declarers!r}")
        first, second = (Method.parse(x, args.worlds) for x in names)
        if "dd" in (first.kind, second.kind):
            raise ValueError("a declarer plays by alphamu:M or pimc, not dd")
        if first == second:
            raise ValueError(f"the two declarers are the same ({first.label})")
        defence = Method.parse(args.defence, args.worlds)
    except ValueError as err:
        raise UsageError(str(err)) from None
    if args.tolerance < 0:
        raise UsageError(f"--tolerance must be 0 or more, got {args.tolerance}")
    if not args.files:   # checked before any deal is dealt
        args.contract, args.declarer = _protocol_contract(args.contract or "3NT",
                                                          args.declarer)
    check_readable(args.files)
    seed, drawn = seed_option(args.seed)
    system = bidding_system(args) if args.files else None
    jobs = check_jobs(capped_jobs(args.jobs, "duel"))
    settings: dict[str, Any] = {
        "declarers": [first.label, second.label],
        "describe": [first.describe(), second.describe()],
        "defence": defence.describe(), "worlds": args.worlds, "seed": seed,
        "system": None if system is None else system.name,
    }
    if not args.files:
        settings.update(contract=args.contract, declarer=args.declarer,
                        tolerance=args.tolerance)
    # What decides a play besides its deal and its declarer: a stored play is reused only
    # under the same settings.
    key = (f"seed={seed};worlds={args.worlds};defence={defence.label};"
           f"system={settings['system']}")
    if drawn and not args.quiet:
        print(f"{PROG} duel: seed {seed} (give --seed {seed} to repeat this run)",
              file=sys.stderr)
    failed = 0

    def report(message: str) -> None:
        nonlocal failed
        failed += 1
        bar.write(message, file=sys.stderr)

    with ExitStack() as stack:
        client = stack.enter_context(scheduler_client(args))
        store = store_in(stack, args, "plays")
        out, close_out = open_output(args.output, args.files)
        if close_out:
            stack.push(out)   # put in place if the run finishes, else left as it was
        pbn_out = None
        if args.pbn:
            pbn_out, close_pbn = open_output(args.pbn, args.files)
            if close_pbn:
                stack.push(pbn_out)
            pbn_out.write("% PBN 2.1\n% ddsolver duel\n")
        show = not args.quiet and sys.stderr.isatty()
        total = args.deals if not args.files else (
            count_lines(args.files, b"[Contract ") if show else None)
        bar = progress_bar(total, show, unit="deals")
        stack.callback(bar.close)
        if args.files:
            inputs = Inputs(args.files, report)
            deals: Iterator[DuelDeal] = pbn_deals(inputs, system)
        else:
            try:
                deals = protocol_deals(args.deals, seed, contract=args.contract,
                                       declarer=args.declarer, tolerance=args.tolerance)
                deals = _checked_first(deals)
            except (ValueError, CardgamesError) as err:
                raise UsageError(str(err)) from None
        writer = WRITERS[args.format](aside_of(out, bar, to_file=close_out))
        writer.begin(settings)
        results: list[DuelResult] = []
        played_now = 0
        try:
            for n, (_deal, result, new) in enumerate(
                    _results(deals, first, second, defence, seed, jobs, args.tt_mb, store, key,
                             client, report), 1):
                if result is None:
                    continue
                played_now += new > 0
                results.append(result)
                writer.write(result)
                out.flush()
                if pbn_out is not None:
                    for game in played_games(result, settings, n):
                        pbn_out.write(game.to_pbn() + "\n")
                    pbn_out.flush()
                bar.update(1)
            writer.end(summarise(results))
            out.flush()
        except KeyboardInterrupt:
            raise stopped(bar, store, len(results), "plays", "deal") from None
        bar.close()   # before the closing line, which is not to follow the bar's
        if not args.quiet:
            text = f"{PROG}: {len(results)} deal{'s' * (len(results) != 1)} played"
            if store is not None:
                text += (f"; {len(results) - played_now} from {store.path}, {played_now} "
                         "played now")
            if failed:
                text += f"; {failed} could not be played (reported above)"
            print(text, file=sys.stderr)
    return FAILED if failed else OK


def _protocol_contract(contract: str, declarer: str | None) -> tuple[str, str]:
    """The protocol's contract (without its declarer) and declarer from ``--contract`` and
    ``--declarer``: the contract may name its declarer (3NTN), but not another one than
    ``--declarer`` does; a passed-out "contract" has nothing to play."""
    try:
        c = Contract.parse(contract)
    except CardgamesError as err:
        raise UsageError(f"--contract: {err}") from None
    try:
        named = None if declarer is None else Seat.parse(declarer)
    except CardgamesError as err:
        raise UsageError(f"--declarer: {err}") from None
    if c is None:
        raise UsageError(f"--contract: {contract!r} is a pass: there is nothing to play")
    if c.declarer is not None and named is not None and c.declarer != named:
        raise UsageError(f"--contract {contract} names declarer {c.declarer.letter}, "
                         f"--declarer says {declarer}")
    # Seat N is 0, so no ``or`` between them
    seat = c.declarer if c.declarer is not None else named if named is not None \
        else Seat.SOUTH
    bare = Contract(c.level, c.strain, c.doubled, None)
    return str(bare), seat.letter


def _checked_first(deals: Iterator[DuelDeal]) -> Iterator[DuelDeal]:
    """The protocol's deals, its arguments checked before the first is dealt."""
    first = next(deals, None)   # raises for a bad contract or declarer

    def rest() -> Iterator[DuelDeal]:
        if first is not None:
            yield first
            yield from deals
    return rest()


def _results(deals: Iterator[DuelDeal], first: Method, second: Method, defence: Method,
             seed: int, jobs: int, tt_mb_: int, store: ResultStore | None, key: str,
             client: Any, report: Any
             ) -> Iterator[tuple[DuelDeal, DuelResult | None, int]]:
    """Each deal's result in input order, with the number of its plays made now (the others
    came from the store); None for a deal that could not be played (reported)."""
    labels = (first.label, second.label)

    def stored(deal: DuelDeal) -> dict[str, Play]:
        if store is None:
            return {}
        found = store.plays([(deal.key, key, m) for m in labels])
        plays: dict[str, Play] = {}
        for m in labels:
            if (deal.key, key, m) in found:
                try:
                    plays[m] = Play.from_dict(json.loads(found[(deal.key, key, m)]))
                except (ValueError, KeyError, TypeError, AttributeError, IndexError):
                    store.damaged_row()   # played again, and the row replaced
        return plays

    def save(deal: DuelDeal, result: DuelResult, done: dict[str, Play]) -> int:
        new = 0
        for play in result.plays:
            if play.method not in done:
                new += 1
                if store is not None:
                    store.put_play((deal.key, key, play.method), json.dumps(play.to_dict()))
        return new

    def task(deal: DuelDeal, done: dict[str, Play]) -> DuelResult:
        return duel_deal(deal, first, second, defence, seed=seed, tt_mb=tt_mb_, done=done)

    if client is not None:
        from ..cluster import ordered_map
        units = ((d, stored(d)) for d in deals)

        def submit(unit: tuple[DuelDeal, dict[str, Play]]) -> Any:
            d, done = unit
            return client.submit(duel_deal, d, first, second, defence, seed=seed,
                                 tt_mb=tt_mb_, done=done, pure=False)
        for (d, done), result in ordered_map(client, units, submit):
            yield d, result, save(d, result, done)
        return

    pending: deque[tuple[DuelDeal, dict[str, Play], Future[DuelResult]]] = deque()
    with ThreadPoolExecutor(jobs) as pool:
        try:
            for d in deals:
                done = stored(d)
                if len(done) == 2:   # both plays stored: only the DD result to find
                    dd = Solver(1).solve(d.deal, d.contract.strain, d.declarer)
                    pending.append((d, done, _ready(DuelResult(
                        d, dd, (done[first.label], done[second.label])))))
                else:
                    pending.append((d, done, pool.submit(task, d, done)))
                while len(pending) > 2 * jobs or (pending and pending[0][2].done()):
                    yield _collect(pending.popleft(), save, report)
            while pending:
                yield _collect(pending.popleft(), save, report)
        except BaseException:
            for _, _, f in pending:
                f.cancel()
            raise


def _ready(result: DuelResult) -> Future[DuelResult]:
    f: Future[DuelResult] = Future()
    f.set_result(result)
    return f


def _collect(item: tuple[DuelDeal, dict[str, Play], Future[DuelResult]], save: Any,
             report: Any) -> tuple[DuelDeal, DuelResult | None, int]:
    d, done, future = item
    try:
        result = future.result()
    except CardgamesError as err:
        report(f"{d.label}: {err}; deal skipped")
        return d, None, 0
    return d, result, save(d, result, done)

