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
interrupted run goes on with ``--resume`` and nothing is analysed twice.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from itertools import islice
from typing import Any, TextIO

from cardgames import pbn
from cardgames.errors import CardgamesError, PBNError
from cardgames.play import Position
from cardgames.scoring import Contract

from .analysis import CostlyCard, PlayAnalysis, analyse_play
from .cli import (
    CHUNK_PER_JOB,
    PROG,
    Interrupted,
    UsageError,
    _Inputs,
    _where,
    add_batch_options,
    check_readable,
    interrupted_message,
    open_output,
    open_store,
    progress_bar,
)
from .pool import SolverPool
from .store import ResultStore, TraceKey, deal_key

__all__ = ["add_parser", "run_play", "PlayedBoard", "played_board"]


@dataclass(frozen=True, slots=True)
class PlayedBoard:
    """A board whose play can be analysed."""

    source: str
    line: int | None          # the Play tag's line (where a bad play is reported)
    number: int | None
    contract: Contract        # with its declarer
    game: pbn.Game


def played_board(game: pbn.Game, source: str) -> PlayedBoard | None:
    """The board of a game if it has a contract and played cards; None if it has no play
    to analyse; a :class:`CardgamesError` if what it has is wrong."""
    play_tag = game.get("Play")
    if play_tag is None:
        return None
    cards = game.play_with_lines()  # PBNError with its line for a malformed Play section
    if not cards:
        return None
    line = play_tag.line
    label = f"board {game.board}: " if game.board is not None else ""
    text = game.contract
    if text is None or text.upper() == "PASS":
        raise PBNError(f"{label}a Play section needs a Contract to analyse it", line=line,
                       source=source)
    declarer = game.declarer
    if declarer is None:
        raise PBNError(f"{label}a Play section needs a Declarer to analyse it", line=line,
                       source=source)
    deal = game.deal
    if deal is None:
        raise PBNError(f"{label}no deal to analyse the play on", line=line, source=source)
    deal.require_complete()
    leader = game.opening_leader
    if leader is None:
        raise PBNError(f"{label}the Play tag does not name the opening leader", line=line,
                       source=source)
    if leader != declarer.lho:
        raise PBNError(f"{label}the opening lead is {leader.letter}'s but declarer "
                       f"{declarer.letter}'s left-hand opponent is {declarer.lho.letter}",
                       line=line, source=source)
    contract = Contract.parse(text + declarer.letter)
    if contract is None:        # not reached: a passed-out board was turned away above
        raise PBNError(f"{label}no contract to analyse the play of", line=line, source=source)
    # The rules are checked here, while reading, so that a bad play is reported in file
    # order among the other reading errors, on the line of the card that breaks them.
    position = Position(deal, contract.strain, leader)
    for i, (card, card_line) in enumerate(cards):
        try:
            position.play(card)
        except CardgamesError as err:
            raise PBNError(f"{label}card {i + 1} of the play (trick {i // 4 + 1}): {err}",
                           line=card_line if card_line is not None else line,
                           source=source) from None
    return PlayedBoard(source, line, game.board, contract, game)


def _boards(inputs: _Inputs, report) -> Iterator[PlayedBoard]:
    for path, game in inputs.games():
        if isinstance(game, PBNError):  # a game kept only to be copied back: nothing to play
            continue
        try:
            board = played_board(game, path)
        except CardgamesError as err:
            report(str(err) if isinstance(err, PBNError) else f"{_where(path, game.line)}: {err}")
            continue
        if board is not None:
            yield board


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------

def _result_tag(game: pbn.Game) -> int | None:
    value = game.tag("Result")
    if value is None or not value.strip().isdigit():
        return None
    return int(value)


def record(board: PlayedBoard, analysis: PlayAnalysis) -> dict[str, Any]:
    """The JSON object of one board."""
    costly = {e.index: e for e in analysis.errors}
    cards = []
    position = Position(analysis.deal, analysis.strain, analysis.leader)
    for i, card in enumerate(analysis.played):
        seat = position.to_move
        position.play(card)
        entry: dict[str, Any] = {"card": str(card), "seat": seat.letter, "trick": i // 4 + 1,
                                 "dd": analysis.tricks[i + 1]}
        if i in costly:
            entry["cost"] = costly[i].cost
        cards.append(entry)
    complete = len(analysis.played) == 4 * analysis.deal.cards_per_hand
    return {
        "file": board.source,
        "line": board.line,
        "board": board.number,
        "deal": analysis.deal.to_pbn(),
        "contract": board.contract.call,
        "declarer": board.contract.declarer.letter,  # type: ignore[union-attr]
        "leader": analysis.leader.letter,
        "dd_start": analysis.tricks[0],
        "tricks_taken": analysis.tricks[-1] if complete else None,
        "result_tag": _result_tag(board.game),
        "cards": cards,
        "errors": [{"card": str(e.card), "seat": e.seat.letter, "trick": e.trick,
                    "index": e.index, "side": "declarer" if e.declaring else "defence",
                    "cost": e.cost, "before": e.before, "after": e.after}
                   for e in analysis.errors],
        "declarer_cost": analysis.cost("declarer"),
        "defence_cost": analysis.cost("defence"),
    }


def _text(board: PlayedBoard, analysis: PlayAnalysis) -> str:
    rec = record(board, analysis)
    number = board.number if board.number is not None else "?"
    contract = board.contract
    declarer = contract.declarer
    assert declarer is not None
    lines = [f"{board.source} board {number}  {contract.call} by {declarer.letter}  "
             f"lead {analysis.leader.letter}",
             analysis.deal.to_pbn()]
    start = analysis.tricks[0]
    head = f"Double dummy, declarer's side takes {start} at the start"
    if rec["tricks_taken"] is not None:
        head += f"; took {rec['tricks_taken']}"
        need = contract.tricks_needed
        over = rec["tricks_taken"] - need
        head += f" ({contract.call}{'=' if over == 0 else f'{over:+d}'})"
    if rec["result_tag"] is not None and rec["result_tag"] != rec["tricks_taken"]:
        head += f"; the Result tag says {rec['result_tag']}"
    lines.append(head)
    lines.append("trick  lead  cards in play order    DD after")
    for start_index in range(0, len(rec["cards"]), 4):
        trick = rec["cards"][start_index:start_index + 4]
        cells = []
        for c in trick:
            mark = "?" if "cost" in c else " "
            cells.append(f"{c['card']}{mark}".ljust(5))
        lines.append(f"{trick[0]['trick']:>5}  {trick[0]['seat']:<4}  {' '.join(cells):<22} "
                     f"{trick[-1]['dd']:>3}")
    if analysis.errors:
        lines.append("Costly cards (?):")
        for e in analysis.errors:
            who = "declarer's side" if e.declaring else "the defence"
            lines.append(f"  trick {e.trick}: {e.seat.letter} played {e.card}, {who} lost "
                         f"{e.cost} trick{'s' * (e.cost != 1)} ({e.before} -> {e.after})")
        lines.append(f"Tricks given away: declarer's side {rec['declarer_cost']}, "
                     f"the defence {rec['defence_cost']}.")
    else:
        lines.append("No costly card: both sides played perfectly, double dummy.")
    return "\n".join(lines) + "\n"


class _TextOut:
    def __init__(self, out: TextIO):
        self.out = out
        self.first = True

    def begin(self) -> None:
        pass

    def write(self, board: PlayedBoard, analysis: PlayAnalysis) -> None:
        self.out.write(("" if self.first else "\n") + _text(board, analysis))
        self.first = False

    def end(self) -> None:
        pass


class _JsonOut:
    """One JSON array, an object per board (see :func:`record`)."""

    def __init__(self, out: TextIO):
        self.out = out
        self.count = 0

    def begin(self) -> None:
        self.out.write("[")

    def write(self, board: PlayedBoard, analysis: PlayAnalysis) -> None:
        self.out.write(("\n  " if self.count == 0 else ",\n  ")
                       + json.dumps(record(board, analysis)))
        self.count += 1

    def end(self) -> None:
        self.out.write("\n]\n")


_FORMATS: dict[str, type[_TextOut] | type[_JsonOut]] = {"text": _TextOut, "json": _JsonOut}


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------

def trace_key(board: PlayedBoard) -> TraceKey:
    """What a play trace depends on: the deal, trumps, the opening leader, the cards."""
    game = board.game
    contract = board.contract
    return (deal_key(game.deal), contract.strain.letter,  # type: ignore[arg-type]
            contract.declarer.lho.letter,  # type: ignore[union-attr]
            " ".join(str(c) for c in game.play))


def analysis_from_trace(board: PlayedBoard, tricks: list[int]) -> PlayAnalysis:
    """The analysis of a board rebuilt from its stored trace: the costly cards are the
    ones that moved declarer's side's double-dummy tricks against their own side, as
    :func:`ddsolver.analysis.analyse_play` finds them."""
    game = board.game
    deal = game.deal
    contract = board.contract
    declarer = contract.declarer
    assert deal is not None and declarer is not None
    leader = declarer.lho
    cards = tuple(game.play)
    position = Position(deal, contract.strain, leader)
    errors: list[CostlyCard] = []
    for i, card in enumerate(cards):
        seat = position.to_move
        position.play(card)
        before, after = tricks[i], tricks[i + 1]
        declaring = seat.is_ns == declarer.is_ns
        cost = before - after if declaring else after - before
        if cost > 0:
            errors.append(CostlyCard(i, i // 4 + 1, seat, card, declaring, cost, before, after))
    return PlayAnalysis(deal, contract.strain, leader, cards, list(tricks), errors)


def _analysed(boards: Iterator[PlayedBoard], jobs: int, tt_mb: int, report,
              store: ResultStore | None = None
              ) -> Iterator[tuple[PlayedBoard, PlayAnalysis, bool]]:
    """``(board, analysis, from_store)`` in input order, a chunk at a time on ``jobs``
    threads; a board whose play the solver refuses is reported and left out.  Traces found
    in ``store`` are not worked out again; new ones are saved there as they come."""
    solvers = SolverPool(tt_mb)

    def work(board: PlayedBoard) -> PlayAnalysis:
        solver = solvers.solver()
        game = board.game
        contract = board.contract
        return analyse_play(game.deal, contract.strain, contract.declarer.lho,  # type: ignore
                            game.play, solver=solver)

    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="ddsolver-play") as pool:
        while True:
            chunk = list(islice(boards, CHUNK_PER_JOB * jobs))
            if not chunk:
                return
            keys = [trace_key(b) for b in chunk] if store is not None else []
            stored = store.traces(keys) if store is not None else {}
            futures: list[Future[PlayAnalysis] | None] = [
                None if store is not None and keys[i] in stored else pool.submit(work, b)
                for i, b in enumerate(chunk)]
            try:
                for i, (board, future) in enumerate(zip(chunk, futures)):
                    if future is None:
                        yield board, analysis_from_trace(board, stored[keys[i]]), True
                        continue
                    try:
                        analysis = future.result()
                    except CardgamesError as err:
                        label = f"board {board.number}: " if board.number is not None else ""
                        report(f"{_where(board.source, board.line)}: {label}{err}")
                        continue
                    if store is not None:
                        store.put_trace(keys[i], analysis.tricks)
                    yield board, analysis, False
            finally:
                for future in futures:
                    if future is not None:
                        future.cancel()
            if store is not None:
                store.commit()


def run_play(args: argparse.Namespace) -> int:
    check_readable(args.files)
    show_progress = not args.quiet and sys.stderr.isatty()
    jobs = args.jobs or os.cpu_count() or 1
    store = open_store(args)
    if store is not None and args.resume and not args.quiet:
        print(f"{PROG}: resuming with {store.count('traces')} play analyses in {store.path}",
              file=sys.stderr)
    try:
        out, close = open_output(args.output, args.files)
    except UsageError:
        if store is not None:
            store.close()
        raise
    failed = done = stored = 0
    started = time.perf_counter()
    progress = progress_bar(_count_tags(args.files, b"[Play ") if show_progress else None,
                            show_progress)

    def report(message: str) -> None:
        nonlocal failed
        failed += 1
        progress.write(message, file=sys.stderr)

    def warn(message: str) -> None:
        progress.write(message, file=sys.stderr)

    inputs = _Inputs(args.files, report, warn=warn)
    writer = _FORMATS[args.format](out)
    try:
        writer.begin()
        for board, analysis, from_store in _analysed(_boards(inputs, report), jobs,
                                                     args.tt_mb, report, store):
            writer.write(board, analysis)
            done += 1
            stored += from_store
            progress.update(1)
            out.flush()
        writer.end()
        out.flush()
    except KeyboardInterrupt:
        progress.close()
        if store is not None:
            store.commit()
        print(interrupted_message(done, store, "traces"), file=sys.stderr)
        raise Interrupted() from None
    finally:
        progress.close()
        if close:
            out.close()
        if store is not None:
            store.close()

    if not args.quiet:
        elapsed = time.perf_counter() - started
        if done == 0 and not failed and not inputs.no_games:
            print(f"{PROG}: no board has both a Contract and a Play section to analyse",
                  file=sys.stderr)
        else:
            text = f"{PROG}: {done} board{'s' * (done != 1)} analysed in {elapsed:.1f} s"
            if store is not None:
                text += f"; {stored} from {store.path}, {done - stored} analysed now"
            if failed:
                text += f"; {failed} could not be analysed (reported above)"
            print(text, file=sys.stderr)
    return 1 if failed or inputs.warnings else 0


def _count_tags(paths: list[str], start: bytes) -> int:
    """A quick count of lines starting with ``start``, for the progress bar's total (an
    upper bound: a Play tag without cards is counted too)."""
    count = 0
    for path in paths:
        with open(path, "rb") as fp:
            count += sum(1 for raw in fp if raw.lstrip().startswith(start))
    return count


_EXAMPLES = """\
examples:
  ddsolver play data/played.pbn
  ddsolver play data/played.pbn --format json -o analysis.json
  ddsolver play session.pbn --jobs 2 --quiet
  ddsolver play big.pbn --format json -o big.json --db big.sqlite --resume   # after Ctrl-C

Each board with a Contract, a Declarer and a Play section is followed card by card: the
DD column is declarer's side's double-dummy tricks (tricks won so far included) after
each trick, and a card marked ? cost its side tricks; the list under the tricks says who
played it and how many tricks it cost.  Boards without played cards are passed over.
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
    parser.add_argument("files", nargs="+", metavar="FILE.pbn", help="PBN files to read")
    parser.add_argument("--format", choices=sorted(_FORMATS), default="text",
                        help="output format (default: text)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the analysis to FILE instead of standard output")
    add_batch_options(parser, store="play analyses")
    parser.set_defaults(run=run_play)
    return parser
