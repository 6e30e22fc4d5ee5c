"""Boards solved and analysed in batches: the batch engine of the commands that work
through files (``ddsolver table``, ``report``, ``play``), as a library.

* :func:`solve_boards` solves :class:`~ddsolver.boards.Board` s a chunk at a time on
  ``jobs`` threads, in file order, through a results store (:mod:`ddsolver.store`) when one
  is given, each deal once however many tables play it;
* :func:`analyse_boards` does the same for the recorded play of
  :class:`~ddsolver.boards.PlayedBoard` s, on the pool of :mod:`ddsolver.pool`;
* given a ``dask.distributed.Client``, both run on its cluster instead
  (:mod:`ddsolver.cluster`) and give the same items in the same order.

Memory does not grow with the size of a file: boards are read, solved and handed on a
chunk (:data:`CHUNK_PER_JOB` boards per thread) at a time.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cardgames.cards import Seat, Strain
from cardgames.errors import CardgamesError
from cardgames.hands import Deal, Hand

from . import cluster
from .analysis import PlayAnalysis, analyse_play, analysis_of_trace
from .boards import Board, PlayedBoard, label_of, located
from .cluster import chunks
from .par import ParResult, par
from .pool import SolverPool, check_jobs, iter_dd_tables
from .solver import (
    DEFAULT_TT_MB,
    DDTable,
    Solver,
    batch_masks,
    check_tt_mb,
    deal_masks,
    thread_solver,
)
from .store import ResultStore, TraceKey, deal_key

__all__ = ["Solved", "solve_boards", "board_par", "Analysed", "analyse_boards", "trace_key",
           "analysis_from_trace", "traces_task", "CHUNK_PER_JOB", "RECENT_DEALS"]

#: Boards read and solved together per worker thread: the bound on what is held in memory
#: (the boards of one chunk and their results) while keeping every thread busy.
CHUNK_PER_JOB = 128

#: Tables kept from one chunk to the next so that another table of a board met again later
#: (results files repeat each board at every table, often a round apart) is not solved
#: again: the most recent deals, a bounded number so that memory stays flat.
RECENT_DEALS = 4096


# ---- tables ----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Solved:
    """A board with its table (None for a game passed through unsolved) and where the
    table came from."""

    board: Board
    table: DDTable | None
    stored: bool = False      # found in the results store rather than solved now

    @property
    def done(self) -> bool:
        """Whether the board was solved (a game passed through unsolved was not)."""
        return self.table is not None

    @property
    def first_of_deal(self) -> bool:
        """Whether the board is the first table of its deal (see :attr:`Board.first_of_deal`)."""
        return self.board.first_of_deal


def solve_boards(boards: Iterable[Board], *, jobs: int | None = None,
                 tt_mb: int = DEFAULT_TT_MB,
                 store: ResultStore | None = None, client: Any = None) -> Iterator[Solved]:
    """The tables of the boards, in input order, as they finish.

    Boards are taken a chunk at a time (``CHUNK_PER_JOB * jobs``), which bounds memory.
    Deals found in ``store`` are not solved again; every table solved is written to the
    store at once (committed within a second, and by the caller on an interrupt).  A deal
    is solved once: the tables of a board (games repeating its deal, or with no ``Deal``
    of their own, :attr:`~cardgames.pbn.Game.same_deal_as`) take the table solved for the
    first, in the same chunk or, among the :data:`RECENT_DEALS` latest deals, a later one.

    :param jobs: worker threads; None means all cores (:func:`~ddsolver.pool.check_jobs`).
    :param client: a ``dask.distributed.Client``: solve on its cluster instead, the same
        results in the same order.
    """
    if client is not None:
        yield from _solve_on_cluster(boards, client, tt_mb=tt_mb, store=store)
        return
    jobs = check_jobs(jobs)
    # deal key -> (table, whether it came from the store)
    recent: OrderedDict[str, tuple[DDTable, bool]] = OrderedDict()

    def remember(key: str, table: DDTable, stored: bool) -> None:
        recent[key] = (table, stored)
        recent.move_to_end(key)
        if len(recent) > RECENT_DEALS:
            recent.popitem(last=False)

    for chunk in chunks(boards, CHUNK_PER_JOB * jobs):
        keys = [None if b.deal is None else deal_key(b.deal) for b in chunk]
        ready: dict[str, DDTable] = {}
        from_store: set[str] = set()
        for key in keys:
            if key is not None and key in recent:
                ready[key], stored = recent[key]
                if stored:
                    from_store.add(key)
        if store is not None:
            found = store.tables(k for k in keys if k is not None and k not in ready)
            ready.update(found)
            from_store.update(found)
        todo: dict[str, Deal] = {}
        for board, key in zip(chunk, keys):
            if key is not None and key not in ready and key not in todo:
                todo[key] = board.deal  # type: ignore[assignment]
        todo_keys = list(todo)
        next_index = 0

        def drain() -> Iterator[Solved]:
            # Hold tables that finish early until the boards before them are out, so the
            # output is in file order.
            nonlocal next_index
            while next_index < len(chunk):
                key = keys[next_index]
                if key is not None and key not in ready:
                    return
                board = chunk[next_index]
                next_index += 1
                if key is None:
                    yield Solved(board, None)
                    continue
                remember(key, ready[key], key in from_store)
                yield Solved(board, ready[key], key in from_store)

        yield from drain()
        for index, table in iter_dd_tables(list(todo.values()), jobs=jobs, tt_mb=tt_mb):
            key = todo_keys[index]
            ready[key] = table
            if store is not None:
                store.put_table(key, table)
            yield from drain()
        if store is not None:
            store.commit()


def board_par(board: Board, table: DDTable) -> ParResult | None:
    """Par of a board, or None where it does not apply: an ending, or dealer or
    vulnerability unknown (no Dealer/Vulnerable tag and no board number)."""
    if board.deal is None or board.deal.cards_per_hand != 13:
        return None
    if board.dealer is None or board.vulnerable is None:
        return None
    return par(table, vul=board.vulnerable, dealer=board.dealer)


# ---- play analysis -----------------------------------------------------------------------

def trace_key(board: PlayedBoard) -> TraceKey:
    """What a play trace depends on: the deal, trumps, the opening leader, the cards."""
    game = board.game
    contract = board.contract
    return (deal_key(game.deal), contract.strain.letter,  # type: ignore[arg-type]
            board.leader.letter, " ".join(str(c) for c in game.play))


def analysis_from_trace(board: PlayedBoard, tricks: list[int]) -> PlayAnalysis:
    """The analysis of a board from its trace, worked out or stored (the tricks of the
    leader's right-hand opponent's side in the deal's cards, before the first card and
    after each card: :func:`~ddsolver.analysis.analysis_of_trace`)."""
    game = board.game
    contract = board.contract
    assert game.deal is not None and contract.declarer is not None
    return analysis_of_trace(game.deal, contract.strain, board.leader, tuple(game.play),
                             tricks, declarer=contract.declarer,
                             declarer_won=board.declarer_won)


@dataclass(frozen=True, slots=True)
class Analysed:
    """A played board with the analysis of its play and where the analysis came from."""

    board: PlayedBoard
    analysis: PlayAnalysis
    stored: bool = False      # rebuilt from the results store rather than analysed now

    @property
    def done(self) -> bool:
        """Always true: a board that cannot be analysed is reported, not passed on."""
        return True

    @property
    def first_of_deal(self) -> bool:
        """Whether the board is the first table of its deal in its file (see
        :attr:`Board.first_of_deal`); each table's play is analysed all the same."""
        return self.board.game.same_deal_as is None


def analyse_boards(boards: Iterable[PlayedBoard], *, jobs: int | None = None,
                   tt_mb: int = DEFAULT_TT_MB, report: Callable[[str], None],
                   store: ResultStore | None = None, client: Any = None) -> Iterator[Analysed]:
    """The analyses of the boards' play, in input order, on ``jobs`` threads (None: all
    cores), each thread with a solver of its own whose table carries over from card to
    card; a board whose play the solver refuses is reported and left out.  Traces found in
    ``store`` (looked up :data:`CHUNK_PER_JOB` boards per thread at a time) are not worked
    out again; new ones are saved there as they come.  With ``client`` (a
    ``dask.distributed.Client``) the boards are analysed on its cluster instead, the same
    items in the same order, the same boards reported."""
    if client is not None:
        yield from _analyse_on_cluster(boards, client, tt_mb=tt_mb, report=report,
                                       store=store)
        return
    with SolverPool(jobs, tt_mb) as pool:
        for board, key, outcome in pool.map(_analyse_unit, _lookups(boards, store,
                                                                    CHUNK_PER_JOB * pool.jobs),
                                            window=CHUNK_PER_JOB * pool.jobs):
            if isinstance(outcome, CardgamesError):
                report(located(outcome, board.source, board.line, label_of(board.game)))
                continue
            trace, fresh = outcome
            if fresh and store is not None and key is not None:
                store.put_trace(key, trace)
            yield Analysed(board, analysis_from_trace(board, trace), not fresh)
    if store is not None:
        store.commit()


# A board of a play batch on its way through the pool: the board, its key in the store
# (None without a store), and the trace the store holds for it (None: to be worked out).
_Lookup = tuple[PlayedBoard, TraceKey | None, list[int] | None]


def _lookups(boards: Iterable[PlayedBoard], store: ResultStore | None, size: int
             ) -> Iterator[_Lookup]:
    """The boards with their store keys and stored traces, looked up ``size`` at a time
    (in the calling thread: the store's connection is that thread's)."""
    for chunk in chunks(boards, size):
        if store is None:
            yield from ((board, None, None) for board in chunk)
            continue
        keys = [trace_key(b) for b in chunk]
        stored = store.traces(keys)
        yield from ((board, key, stored.get(key)) for board, key in zip(chunk, keys))


def _analyse_unit(solver: Solver, unit: _Lookup
                  ) -> tuple[PlayedBoard, TraceKey | None,
                             tuple[list[int], bool] | CardgamesError]:
    """Work on a pool thread: the board's trace (as the store keeps it) and whether it was
    worked out now (not the store's), or why the solver refused the play."""
    board, key, trace = unit
    if trace is not None:
        return board, key, (trace, False)
    game = board.game
    try:
        return board, key, (analyse_play(game.deal,  # type: ignore[arg-type]
                                         board.contract.strain, board.leader, game.play,
                                         solver=solver).tricks, True)
    except CardgamesError as err:
        return board, key, err


# ---- on a cluster ---------------------------------------------------------------------

def traces_task(plays: Sequence[tuple[tuple[int, ...], int, int, str]], tt_mb: int
                 ) -> list[list[int] | str]:
    """Task: declarer's side's tricks before and after each card of each play (deal as
    masks, strain, leader, the cards as text ``"SA S2 ..."``), or the reason the solver
    refused it."""
    solver = thread_solver(tt_mb)
    out: list[list[int] | str] = []
    for masks, strain, leader, cards in plays:
        deal = Deal(tuple(Hand(masks[4 * s:4 * s + 4]) for s in range(4)))
        try:
            out.append(analyse_play(deal, Strain(strain), Seat(leader), cards,
                                    solver=solver).tricks)
        except CardgamesError as err:
            out.append(str(err))
    return out


@dataclass
class _TableUnit:
    """Boards of one cluster task of :func:`_solve_on_cluster`, with where each table comes from."""

    boards: list[Board]
    keys: list[str | None]
    ready: dict[str, tuple[DDTable, bool]]   # key -> (table, from the store)
    todo: list[str]                          # keys this unit's task solves
    waits: dict[str, _TableUnit]             # key -> the earlier unit in flight solving it
    tables: dict[str, DDTable] | None = None  # this unit's solved tables, once back


def _solve_on_cluster(boards: Iterable[Board], client: Any, *, tt_mb: int = DEFAULT_TT_MB,
                      store: ResultStore | None = None,
                      chunk: int | None = None) -> Iterator[Solved]:
    """:func:`solve_boards` on a cluster: the same :class:`Solved` items in the same order.
    Deals found in ``store``, among the latest :data:`RECENT_DEALS` deals or in flight
    already are not sent; a table goes to the store as soon as its task is back (committed
    within a second, and by the caller on an interrupt)."""
    tt_mb = check_tt_mb(tt_mb)
    chunk = cluster.chunk_size(client, cluster.THREADS_PER_BOARD, chunk)
    recent: OrderedDict[str, tuple[DDTable, bool]] = OrderedDict()
    flying: dict[str, _TableUnit] = {}   # key -> the unit in flight solving it

    def remember(key: str, table: DDTable, stored: bool) -> None:
        recent[key] = (table, stored)
        recent.move_to_end(key)
        if len(recent) > RECENT_DEALS:
            recent.popitem(last=False)

    def units() -> Iterator[_TableUnit]:
        for part in cluster.chunks(boards, chunk):
            keys = [None if b.deal is None else deal_key(b.deal) for b in part]
            ready: dict[str, tuple[DDTable, bool]] = {}
            waits: dict[str, _TableUnit] = {}
            for key in keys:
                if key is not None and key in recent:
                    ready[key] = recent[key]
                elif key is not None and key in flying:
                    waits[key] = flying[key]
            if store is not None:
                found = store.tables(k for k in keys
                                     if k is not None and k not in ready and k not in waits)
                ready.update((k, (t, True)) for k, t in found.items())
            todo = list(dict.fromkeys(k for k in keys if k is not None and k not in ready
                                      and k not in waits))
            unit = _TableUnit(part, keys, ready, todo, waits)
            for key in todo:
                flying[key] = unit
            yield unit

    def submit(unit: _TableUnit) -> Any:
        if not unit.todo:
            return None
        deals = {k: b.deal for k, b in zip(unit.keys, unit.boards) if k in unit.todo}
        masks = [batch_masks(0, deals[k]) for k in unit.todo]  # type: ignore[arg-type]
        return client.submit(cluster.tables_task, masks, tt_mb, pure=False)

    def arrived(unit: _TableUnit, numbers: list[tuple[int, ...]]) -> None:
        deals = {k: b.deal for k, b in zip(unit.keys, unit.boards) if b.deal is not None}
        unit.tables = {k: cluster.table_of_numbers(n, deals[k].cards_per_hand)
                       for k, n in zip(unit.todo, numbers)}
        for key, table in unit.tables.items():
            if flying.get(key) is unit:
                del flying[key]
            remember(key, table, False)
            if store is not None:
                store.put_table(key, table)
        if store is not None:
            store.maybe_commit()

    for unit, _ in cluster.ordered_map(client, units(), submit, on_result=arrived):
        for board, key in zip(unit.boards, unit.keys):
            if key is None:
                yield Solved(board, None)
                continue
            if key in unit.ready:
                table, stored = unit.ready[key]
            elif unit.tables is not None and key in unit.tables:
                table, stored = unit.tables[key], False
            else:  # solved by an earlier unit, which is out already (input order)
                tables = unit.waits[key].tables
                assert tables is not None
                table, stored = tables[key], False
            yield Solved(board, table, stored)
    if store is not None:
        store.commit()


# ---- play analysis -----------------------------------------------------------------------

def _analyse_on_cluster(boards: Iterable[PlayedBoard], client: Any, *,
                        tt_mb: int = DEFAULT_TT_MB, report: Callable[[str], None],
                        store: ResultStore | None = None,
                        chunk: int | None = None) -> Iterator[Analysed]:
    """:func:`analyse_boards` on a cluster: the same :class:`Analysed` items in the same
    order, the same boards reported.  Traces found in ``store`` are not sent; new ones are
    saved there as their tasks come back."""
    tt_mb = check_tt_mb(tt_mb)
    chunk = cluster.chunk_size(client, cluster.THREADS_PER_BOARD, chunk)

    def units() -> Iterator[tuple[list[PlayedBoard], list[Any], dict[Any, list[int]]]]:
        for part in cluster.chunks(boards, chunk):
            keys = [trace_key(b) for b in part] if store is not None else []
            stored = store.traces(keys) if store is not None else {}
            yield part, keys, stored

    def todo(unit: tuple[list[PlayedBoard], list[Any], dict[Any, list[int]]]) -> list[int]:
        part, keys, stored = unit
        return [i for i in range(len(part)) if store is None or keys[i] not in stored]

    def submit(unit: tuple[list[PlayedBoard], list[Any], dict[Any, list[int]]]) -> Any:
        part = unit[0]
        plays = []
        for i in todo(unit):
            game, contract = part[i].game, part[i].contract
            plays.append((deal_masks(game.deal), int(contract.strain),  # type: ignore[arg-type]
                          int(part[i].leader),
                          " ".join(str(c) for c in game.play)))
        return client.submit(traces_task, plays, tt_mb, pure=False) if plays else None

    def arrived(unit: tuple[list[PlayedBoard], list[Any], dict[Any, list[int]]],
                results: list[list[int] | str]) -> None:
        if store is None:
            return
        for i, trace in zip(todo(unit), results):
            if not isinstance(trace, str):
                store.put_trace(unit[1][i], trace)
        store.maybe_commit()

    for unit, results in cluster.ordered_map(client, units(), submit, on_result=arrived):
        part, keys, stored = unit
        solved = dict(zip(todo(unit), results or []))
        for i, board in enumerate(part):
            if i not in solved:
                yield Analysed(board, analysis_from_trace(board, stored[keys[i]]), True)
                continue
            trace = solved[i]
            if isinstance(trace, str):
                report(located(CardgamesError(trace), board.source, board.line,
                               label_of(board.game)))
                continue
            yield Analysed(board, analysis_from_trace(board, trace), False)
    if store is not None:
        store.commit()
