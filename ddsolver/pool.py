"""Work on many threads, each with a solver of its own: the one executor every
multi-threaded caller uses, and the batch tables built on it.

A :class:`~ddsolver.solver.Solver` owns a search context and its transposition table and is
not thread-safe, while the core releases the GIL as it searches; so work runs on a pool of
threads where each thread takes its solver from the one registry,
:func:`~ddsolver.solver.thread_solver` (made on the thread's first call, reused with its
table after that).  :class:`SolverPool` is that pool: :meth:`SolverPool.map` gives the
results in input order, :meth:`SolverPool.completed` as they finish, both reading their
input lazily a window ahead of the workers and counting each item done for a progress bar.
:func:`dd_tables` and :func:`iter_dd_tables` solve many deals on it (or, given a Dask
client, on a cluster: :mod:`ddsolver.cluster`); the play analysis of many boards, the
Monte-Carlo leads, the single-dummy advice and the αμ search all run their solves through
it.

    >>> with SolverPool(jobs=2, tt_mb=16) as pool:
    ...     list(pool.map(lambda solver, deal: solver.solve(deal, "NT", "S"),
    ...                   ["N:A... K... Q... J...", "N:2... 3... 4... 5..."]))
    [1, 0]

Ctrl-C: a search in a worker thread cannot see Python's KeyboardInterrupt, which is raised
in the main thread, and a thread pool waits for its running work before it lets the
exception go.  While the pool waits for its workers, SIGINT stops every running search at
once (:func:`sigint_stops_searches`), and an interrupt stops the searches still running
before it is passed on; :func:`signals_stop_searches` does the same for the length of a
command.
"""

from __future__ import annotations

import contextlib
import operator
import os
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from typing import Any, TypeVar

from cardgames.hands import Deal

from . import cluster
from .solver import (
    DEFAULT_TT_MB,
    DDTable,
    DealLike,
    Solver,
    batch_masks,
    cards_of,
    check_tt_mb,
    clear_stop,
    hook_signal,
    request_stop,
    table_of,
    thread_solver,
    unhook_signal,
)

__all__ = ["SolverPool", "dd_tables", "iter_dd_tables", "check_jobs",
           "default_jobs", "MAX_JOBS", "signals_stop_searches", "sigint_stops_searches"]

_T = TypeVar("_T")
_R = TypeVar("_R")

#: The most worker threads :func:`check_jobs` allows.  The search is CPU-bound, so threads
#: beyond the cores only cost memory (a solver and a transposition table each, and the
#: batch readers read ahead in proportion): 256 is more than any machine this runs on has
#: cores, and bounds what a typing slip (``--jobs 100000``) can ask for.
MAX_JOBS = 256

#: Results held back behind one still running, as a multiple of the window, before
#: :meth:`SolverPool.map` stops reading ahead: a slow item holds the rest back only so far.
HELD_PER_WINDOW = 4


def default_jobs() -> int:
    """The worker threads used when none are asked for: one per core (at most
    :data:`MAX_JOBS`)."""
    return min(os.cpu_count() or 1, MAX_JOBS)


def check_jobs(jobs: int | None) -> int:
    """``jobs`` if it is a valid number of worker threads, or :func:`default_jobs` for None.

    :raises TypeError: if ``jobs`` is not an int or None.
    :raises ValueError: if ``jobs`` is less than 1 or more than :data:`MAX_JOBS`.
    """
    if jobs is None:
        return default_jobs()
    if isinstance(jobs, bool) or not hasattr(type(jobs), "__index__"):
        raise TypeError(f"jobs must be an int or None, got {type(jobs).__name__}")
    jobs = operator.index(jobs)        # numpy's integers too
    if not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"jobs must be 1 to {MAX_JOBS} (threads), got {jobs}")
    return jobs


class SolverPool:
    """``jobs`` worker threads (None: one per core), each solving with its own solver of
    ``tt_mb`` MB.  With one job the work runs in the calling thread, without a thread
    pool.  Close it (or use it as a context manager) to end its threads.

    :raises TypeError: / :raises ValueError: for a bad ``jobs`` or ``tt_mb`` (checked
        here, once).
    """

    def __init__(self, jobs: int | None = 1, tt_mb: int = DEFAULT_TT_MB):
        self.jobs = check_jobs(jobs)
        self.tt_mb = check_tt_mb(tt_mb)
        self._executor: ThreadPoolExecutor | None = None

    def solver(self) -> Solver:
        """The calling thread's solver (:func:`~ddsolver.solver.thread_solver`)."""
        return thread_solver(self.tt_mb)

    def map(self, fn: Callable[[Solver, _T], _R], items: Iterable[_T], *,
            progress: Callable[[int], None] | None = None,
            window: int | None = None) -> Iterator[_R]:
        """``fn(solver, item)`` for every item, each on a worker thread with that thread's
        solver; the results in input order.  At most ``window`` items (default two per
        thread) are in flight and at most :data:`HELD_PER_WINDOW` times as many results
        wait behind a slow one, so ``items`` is read only that far ahead.
        ``progress(1)`` is called as each item is done.  An item's error is raised when
        its turn comes; closing the iterator cancels the items not yet started."""
        held: dict[int, _R] = {}
        turn = 0
        for index, result in self._run(fn, items, window, progress, held):
            held[index] = result
            while turn in held:
                yield held.pop(turn)
                turn += 1

    def completed(self, fn: Callable[[Solver, _T], _R], items: Iterable[_T], *,
                  progress: Callable[[int], None] | None = None,
                  window: int | None = None) -> Iterator[tuple[int, _R]]:
        """:meth:`map`, but ``(index, result)`` as each item finishes (the lowest index
        first among those finished together), so that no slow item holds the rest back."""
        return self._run(fn, items, window, progress, None)

    def _run(self, fn: Callable[[Solver, _T], _R], items: Iterable[_T], window: int | None,
             progress: Callable[[int], None] | None, held: dict[int, _R] | None
             ) -> Iterator[tuple[int, _R]]:
        if self.jobs == 1:
            solver = self.solver()
            for index, item in enumerate(items):
                result = fn(solver, item)
                if progress is not None:
                    progress(1)
                yield index, result
            return
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self.jobs, thread_name_prefix="ddsolver")
        executor = self._executor
        limit = window or 2 * self.jobs
        pending: dict[Future[_R], int] = {}

        def work(item: _T) -> _R:
            return fn(thread_solver(self.tt_mb), item)

        def full() -> bool:
            return len(pending) >= limit or (
                held is not None and len(pending) + len(held) >= HELD_PER_WINDOW * limit)

        stopping = False
        try:
            for index, item in enumerate(items):
                pending[executor.submit(work, item)] = index
                while pending and full():
                    yield from _harvest(pending, progress)
            while pending:
                yield from _harvest(pending, progress)
        except KeyboardInterrupt:
            # Ctrl-C while waiting here: the searches still running stop too (each raises
            # in its worker) instead of being waited for on the way out.
            stopping = True
            request_stop()
            raise
        finally:
            for future in pending:
                future.cancel()
            if stopping:
                # Every search of this pool has seen the stop before it is lifted.
                wait(list(pending))
                clear_stop()

    def close(self) -> None:
        """End the worker threads (work not yet started is cancelled); their solvers go
        with them."""
        if self._executor is not None:
            self._executor.shutdown(cancel_futures=True)
            self._executor = None

    def __enter__(self) -> SolverPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"SolverPool(jobs={self.jobs}, tt_mb={self.tt_mb})"


def _harvest(pending: dict[Future[_R], int], progress: Callable[[int], None] | None
             ) -> Iterator[tuple[int, _R]]:
    """Wait until some item is done; ``(index, result)`` of the finished ones, lowest index
    first (a failed item raises its error)."""
    with sigint_stops_searches():
        # Ctrl-C may land in a worker thread, where it would not wake this one: the
        # hook stops the searches, so that their futures finish and wake it.
        done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
    for future in sorted(done, key=pending.__getitem__):
        index = pending.pop(future)
        result = future.result()
        if progress is not None:
            progress(1)
        yield index, result


# ---- many tables --------------------------------------------------------------------------

def _strain_of(solver: Solver, unit: tuple[tuple[int, ...], int]) -> list[int]:
    return solver.dd_strain_masks(*unit)


def iter_dd_tables(deals: Iterable[DealLike], *, jobs: int | None = None,
                   tt_mb: int = DEFAULT_TT_MB, client: Any = None) -> Iterator[tuple[int, DDTable]]:
    """Solve many deals on ``jobs`` threads; yield ``(index, table)`` as each one finishes
    (so not in input order when ``jobs > 1``).

    ``deals`` is read lazily, a few deals ahead of the workers, so it may be a generator
    over a large file.  Each worker thread has its own :class:`~ddsolver.solver.Solver` of
    ``tt_mb`` MB, so memory use is about ``jobs * tt_mb`` MB.  Closing the generator early
    cancels the work not yet started.

    :param jobs: worker threads; None means ``os.cpu_count()``.
    :param client: a ``dask.distributed.Client``: the deals are solved on its cluster
        instead (``jobs`` is then not used), a chunk a task, and come back in input order
        (:func:`ddsolver.cluster.iter_tables`).
    :raises DealError: for an incomplete or uneven deal (the message gives its index);
        tables already yielded stay valid.
    :raises ParseError: for a malformed PBN deal string (with its index).
    :raises ValueError: if ``jobs`` or ``tt_mb`` is less than 1.
    """
    if client is not None:
        yield from cluster.iter_tables(deals, client, tt_mb=tt_mb)
        return
    pool = SolverPool(jobs, tt_mb)
    if isinstance(deals, (str, bytes, Deal)) or not isinstance(deals, Iterable):
        raise TypeError(f"deals must be an iterable of deals (a list of Deal or PBN deal "
                        f"strings; dd_table solves one), got {type(deals).__name__}")
    if pool.jobs == 1:
        solver = pool.solver()
        for i, deal in enumerate(deals):
            yield i, solver.dd_table_masks(batch_masks(i, deal))
        return

    # The unit of work is one strain of one deal: strains share nothing in the table,
    # and five small units per deal keep every thread busy to the end of a batch
    # instead of leaving one slow deal to finish alone.
    cards: dict[int, int] = {}       # deal -> cards per hand
    def units() -> Iterator[tuple[tuple[int, ...], int]]:
        for i, deal in enumerate(deals):
            masks = batch_masks(i, deal)
            cards[i] = cards_of(masks)
            for strain in range(5):
                yield masks, strain

    strains: dict[int, dict[int, list[int]]] = {}  # deal -> strain -> its row
    try:
        # Two deals in flight per thread: enough to keep every worker busy.
        for unit, row in pool.completed(_strain_of, units(), window=10 * pool.jobs):
            index, strain = divmod(unit, 5)
            rows = strains.setdefault(index, {})
            rows[strain] = row
            if len(rows) == 5:
                del strains[index]
                yield index, table_of([rows[s] for s in range(5)], cards.pop(index))
    finally:
        pool.close()


def dd_tables(deals: Iterable[DealLike], *, jobs: int | None = None,
              tt_mb: int = DEFAULT_TT_MB, client: Any = None) -> list[DDTable]:
    """The DD tables of many deals, solved on ``jobs`` threads, in input order.

    :param jobs: worker threads; None means ``os.cpu_count()``.
    :param client: a ``dask.distributed.Client``: solve on its cluster instead.
    :raises DealError: for an incomplete or uneven deal (the message gives its index).
    :raises ParseError: for a malformed PBN deal string (with its index).
    :raises ValueError: if ``jobs`` or ``tt_mb`` is less than 1.
    """
    results: dict[int, DDTable] = dict(iter_dd_tables(deals, jobs=jobs, tt_mb=tt_mb,
                                                       client=client))
    return [results[i] for i in range(len(results))]


# ---- signals ------------------------------------------------------------------------------

@contextmanager
def signals_stop_searches(*signums: int) -> Iterator[None]:
    """While the block runs, each of ``signums`` also stops every search running in the
    process as it arrives (they raise KeyboardInterrupt), before Python's handler -- which
    still runs, in the main thread -- has had a chance to.  Use it for signals whose
    handler raises (SIGINT's default one, the command line's SIGTERM).  In a thread other
    than the main one, or for a signal that is ignored or has no handler, nothing changes.
    A signal that came is forgotten when the block ends."""
    hooked = [s for s in signums if hook_signal(s)]
    try:
        yield
    finally:
        for s in reversed(hooked):
            unhook_signal(s)


def sigint_stops_searches() -> contextlib.AbstractContextManager[None]:
    """:func:`signals_stop_searches` for SIGINT, if its handler is Python's default (which
    raises KeyboardInterrupt); otherwise a block that changes nothing."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        return signals_stop_searches(signal.SIGINT)
    return contextlib.nullcontext()
