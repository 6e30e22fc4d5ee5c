"""Past one machine: the Dask executor (``dask.distributed``, the optional extra
``pip install 'ddsolver[dask]'``) that batch tables, play analysis and Monte-Carlo lead
analysis run on when they are given a cluster's client -- the other half of the executor
path, beside the thread pool of :mod:`ddsolver.pool`.

This module knows deals, tables and tasks, not boards: connecting (:func:`connect`), how
large a task is (:func:`chunk_size`), keeping a bounded number of tasks in flight and
their results in input order (:func:`ordered_map`), and the tables of many deals
(:func:`iter_tables`).  The batch engine (:mod:`ddsolver.boards`) and the lead analysis
(:mod:`ddsolver.lead_chunks`) build their cluster runs on it.

Nothing here imports Dask until a cluster is asked for: :func:`connect` (``--scheduler``
on the command line) and the ``client=`` of :func:`ddsolver.dd_tables`,
:func:`ddsolver.iter_dd_tables`, :func:`ddsolver.boards.solve_boards`,
:func:`ddsolver.boards.analyse_boards` and :func:`ddsolver.analyse_leads` bring it in.

How a run goes.  Work leaves the one client process in chunks, larger as the cluster has
more worker threads (:func:`chunk_size`); each task
runs on a worker thread, which keeps a :class:`~ddsolver.Solver` of its own from task to
task (:func:`~ddsolver.solver.thread_solver`), and only small things travel: a deal is 16 rank masks, a table 20
numbers.  At most :func:`window` chunks are in flight (a few per worker thread), so a file
of ten million boards sits neither in the client's memory nor in the scheduler's; the
results come back to the client, which puts them in input order, saves them in the
results store as they arrive and writes them through the usual writers.  The answers do
not depend on the number of workers or the chunk size.

Faults.  The scheduler runs again elsewhere a task whose worker died (Dask's own
bookkeeping; a task that kills ``distributed.scheduler.allowed-failures`` workers in a
row fails the run); the client waits on results in input order, so the output is complete
and the same.  A client interrupted keeps what has arrived in the store.  A scheduler that
cannot be reached is one :class:`ClusterError`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from typing import Any, TypeVar

from cardgames.errors import whole_number

from .solver import DEFAULT_TT_MB, DDTable, batch_masks, cards_of, check_tt_mb, thread_solver

_T = TypeVar("_T")

__all__ = ["ClusterError", "Connection", "connect", "parse_scheduler", "window", "ordered_map",
           "worker_threads", "chunks", "iter_tables", "tables_task", "table_of_numbers", "chunk_size",
           "THREADS_PER_BOARD", "THREADS_PER_DEAL", "MIN_DEALS", "MAX_CHUNK",
           "TASKS_PER_THREAD", "HELD_PER_LIMIT"]

#: The size of a task grows with the cluster: one board of a batch of tables (or of
#: ``ddsolver play``) per :data:`THREADS_PER_BOARD` worker threads, at least one.  A table
#: takes a few hundred milliseconds; the scheduler, a few milliseconds a task at most
#: (bench/bench_cluster.py measures both), so on a small cluster one board a task costs
#: about 1% and spreads the work evenly to the last board, while on 1,000 worker threads
#: 125 boards a task keep the scheduler's load flat as the cluster grows.
THREADS_PER_BOARD = 8
#: The same for a lead analysis's sampled deals, which take a quarter of a table's time,
#: at least :data:`MIN_DEALS` a task (a task deals its block's deals before its own, or
#: goes on from its thread's last chunk).
THREADS_PER_DEAL = 2
MIN_DEALS = 4
#: The most items a task holds, however large the cluster.
MAX_CHUNK = 1000
#: Tasks in flight per worker thread of the cluster: enough that no worker waits for the
#: client between two tasks, few enough that memory stays flat.
TASKS_PER_THREAD = 2
#: Units waiting for their turn to be written (done, behind one still running), as a
#: multiple of the tasks in flight: a slow chunk holds the rest back only so far.
HELD_PER_LIMIT = 4


class ClusterError(ValueError):
    """No cluster to work on: Dask is not installed, the ``--scheduler`` text is not an
    address, or the scheduler cannot be reached.  The message names the address."""


# ---- the client -------------------------------------------------------------------------

def parse_scheduler(text: str) -> tuple[str, int | None]:
    """``("local", N)`` for ``local:N`` (a cluster of N worker processes started for the
    run), or ``(address, None)`` for the address of a running scheduler
    (``tcp://10.0.0.5:8786``, ``10.0.0.5:8786``).

    >>> parse_scheduler("local:2"), parse_scheduler("tcp://10.0.0.5:8786")
    (('local', 2), ('tcp://10.0.0.5:8786', None))

    :raises ClusterError: for ``local:`` without a whole number of at least 1, or an empty
        address.
    """
    text = text.strip()
    if text.lower().startswith("local:"):
        count = text[len("local:"):].strip()
        if not count.isdigit() or int(count) < 1 or len(count) > 4:
            raise ClusterError(f"--scheduler {text!r}: local:N needs N, the number of worker "
                               "processes, a whole number of at least 1")
        return "local", int(count)
    if not text:
        raise ClusterError("--scheduler needs an address such as tcp://10.0.0.5:8786, or "
                           "local:N")
    scheme, _, rest = text.rpartition("://")
    if scheme.lower() in ("", "tcp", "tls", "ws", "wss"):
        host, _, port = rest.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ClusterError(f"--scheduler {text!r}: an address is a host and a port, such "
                               "as tcp://10.0.0.5:8786 (a scheduler listens on 8786 unless "
                               "told otherwise), or local:N")
    return text, None


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError("a Dask cluster needs the dask extra: pip install "
                           "'ddsolver[dask]'") from None
    tornado_log = logging.getLogger("tornado.application")
    if not any(isinstance(f, _SyncCancelRace) for f in tornado_log.filters):
        tornado_log.addFilter(_SyncCancelRace())
    return distributed


class _SyncCancelRace(logging.Filter):
    """Drops one log record of Dask's, not ours: a Ctrl-C that reaches the client while
    ``distributed.utils.sync`` has scheduled its coroutine but not yet started it makes
    the callback that cancels it raise ``NameError`` (its ``future`` is not yet bound), which
    the event loop logs with a traceback.  Nothing is lost: the interrupt goes on as ever
    (seen once with distributed 2026.8.0, in the Ctrl-C test of tests/test_cluster.py)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info
        if not exc or exc[0] is not NameError or exc[2] is None:
            return True
        tb = exc[2]
        while tb.tb_next is not None:
            tb = tb.tb_next
        code = tb.tb_frame.f_code
        return not (code.co_name == "cancel"
                    and code.co_filename.replace("\\", "/").endswith("distributed/utils.py"))


class Connection:
    """A :class:`distributed.Client` and, for ``local:N``, the cluster started for it;
    :meth:`close` ends both (a cluster that was already running is left running)."""

    def __init__(self, client: Any, cluster: Any = None):
        self.client = client
        self.cluster = cluster

    def close(self) -> None:
        try:
            self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: Seconds past Dask's connect timeout to wait for a scheduler's handshake.
HANDSHAKE_GRACE = 5.0


def connect(scheduler: str, *, timeout: float | str | None = None) -> Connection:
    """A client of the scheduler at ``scheduler`` (or, for ``local:N``, of a cluster of N
    worker processes of one thread each, started now and ended with the connection).
    ``timeout`` is how long to try to reach the scheduler (default: Dask's setting
    ``distributed.comm.timeouts.connect``).

    :raises ClusterError: without Dask, for a malformed ``scheduler``, or if the scheduler
        cannot be reached (the message names it and says why).
    """
    address, workers = parse_scheduler(scheduler)
    distributed = _distributed()
    if workers is not None:
        # Worker processes, not threads: the point is to run as a real cluster would.
        # Its workers' log lines (a task cancelled by Ctrl-C) are Dask's business, and
        # Ctrl-C is the client's: the workers (and the processes their nannies start
        # later) are started with SIGINT ignored, so that a Ctrl-C at the terminal, sent to
        # every process of the group, stops the client alone, which then ends them.
        with _sigint_ignored():
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                               processes=True, dashboard_address=":0",
                                               silence_logs=logging.ERROR)
        try:
            client = distributed.Client(cluster, set_as_default=False)
            client.wait_for_workers(workers, timeout=120)  # chunk sizes count their threads
            return Connection(client, cluster)
        except BaseException:
            cluster.close()
            raise
    if timeout is None:
        import dask
        timeout = dask.config.get("distributed.comm.timeouts.connect")
    from dask.utils import parse_timedelta
    seconds = float(parse_timedelta(timeout, default="seconds"))
    # Dask's own timeout covers reaching the address, not a server there that never
    # answers its handshake (a web server on the port): that wait has no end.  So the
    # client is made on a thread of its own, given the timeout and a little more.
    made: dict[str, Any] = {}

    def make() -> None:
        try:
            made["client"] = distributed.Client(address, set_as_default=False,
                                                timeout=timeout)
        except BaseException as err:   # handed to the caller below
            made["error"] = err
    maker = threading.Thread(target=make, name="ddsolver-connect", daemon=True)
    maker.start()
    maker.join(seconds + HANDSHAKE_GRACE)
    if maker.is_alive():
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: nothing there "
                           f"answered as a Dask scheduler within {seconds + HANDSHAKE_GRACE:g}"
                           " s (is it the scheduler's address and port?)")
    err = made.get("error")
    if isinstance(err, (OSError, TimeoutError, ValueError)):
        # OSError covers distributed's CommClosedError as its own TimeoutError does not.
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {reason}") from None
    if err is not None:
        raise err
    return Connection(made["client"])


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    # Ignored, not merely deferred: the worker processes started now inherit SIG_IGN (a
    # Python handler would be reset to the default in them), so a Ctrl-C at the terminal,
    # which the whole process group gets, is the client's alone.  A Ctrl-C in these few
    # seconds is lost; blocking it instead does not keep it, as a thread started before
    # (not blocking it) takes it and ignores it.
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def worker_threads(client: Any) -> int | None:
    """The threads of ``client``'s workers now (0: no worker has joined), or None when
    the scheduler does not answer (going away: the run's own calls will say so)."""
    try:
        return sum(client.nthreads().values())
    except Exception:
        return None


def _threads(client: Any) -> int:
    return max(1, worker_threads(client) or 1)


def window(client: Any) -> int:
    """Tasks in flight for ``client``'s cluster: :data:`TASKS_PER_THREAD` per worker
    thread (at least 2, also while no worker has joined yet)."""
    return max(2, TASKS_PER_THREAD * _threads(client))


def chunk_size(client: Any, threads_per_item: int = THREADS_PER_BOARD,
               chunk: int | None = None, least: int = 1) -> int:
    """Items a task for ``client``'s cluster: ``chunk`` if given (checked), else one per
    ``threads_per_item`` worker threads, ``least`` to :data:`MAX_CHUNK`.

    :raises ValueError: for a ``chunk`` that is not a whole number of at least 1.
    """
    if chunk is not None:
        return whole_number("chunk", chunk, least=1)
    return min(MAX_CHUNK, max(least, -(-_threads(client) // threads_per_item)))


# ---- on the workers ---------------------------------------------------------------------

# A worker thread takes its solver from the one registry (``thread_solver``), which keeps
# it from task to task: a transposition table is allocated once per thread, not per task.

def tables_task(masks: Sequence[tuple[int, ...]], tt_mb: int) -> list[tuple[int, ...]]:
    """Task: the tables of deals given as 16 rank masks, each as its 20 numbers."""
    solver = thread_solver(tt_mb)
    return [tuple(v for row in solver.dd_table_masks(m).rows for v in row) for m in masks]


# ---- in input order, a bounded number in flight -------------------------------------------

def ordered_map(client: Any, units: Iterable[Any], submit: Callable[[Any], Any | None], *,
                on_result: Callable[[Any, Any], None] | None = None,
                limit: int | None = None) -> Iterator[tuple[Any, Any]]:
    """``(unit, result)`` for every unit, in input order; ``submit(unit)`` sends a unit's
    task (a future) or returns None for a unit that needs none (its result is None).
    At most ``limit`` (default :func:`window`) tasks are in flight, and at most
    :data:`HELD_PER_LIMIT` times as many units wait (done, behind one still running), so
    ``units`` is read only that far ahead.  ``on_result(unit, result)`` is called for each
    task as soon as it finishes, in whatever order (to save it at once); closing the
    iterator cancels what is still in flight.

    A task's error is raised here, when its unit's turn comes.
    """
    distributed = _distributed()
    limit = limit or window(client)
    queue: deque[list[Any]] = deque()  # [unit, future or None, result, result known]
    running: dict[Any, list[Any]] = {}  # future -> its queue entry

    def settle(block: bool) -> None:
        try:
            if block and running:
                with client.as_current():  # wait() asks for its client; ours, not a default
                    distributed.wait(list(running), return_when="FIRST_COMPLETED")
            done = [f for f in running if f.done()]
            results = [f.result() if f.status == "finished" else None for f in done]
        except _FAILURES as err:
            raise _cluster_failure(err) from err
        for future, result in zip(done, results):
            entry = running.pop(future)
            if future.status == "finished":
                entry[2], entry[3] = result, True
                if on_result is not None:
                    on_result(entry[0], entry[2])
            else:
                entry[3] = True  # raised when its turn comes

    def ready() -> Iterator[tuple[Any, Any]]:
        while queue and queue[0][3]:
            unit, future, result, _ = queue.popleft()
            if future is not None and future.status != "finished":
                try:
                    future.result()  # raises the task's error
                except (Exception, *_FAILURES) as err:
                    raise _cluster_failure(err) from err
            yield unit, result

    try:
        for unit in units:
            try:
                future = submit(unit)
            except _FAILURES as err:
                raise _cluster_failure(err) from err
            entry = [unit, future, None, future is None]
            queue.append(entry)
            if future is not None:
                running[future] = entry
            settle(False)
            yield from ready()
            # Bounded: tasks in flight, and results held back behind a slow one.
            while len(running) >= limit or len(queue) >= HELD_PER_LIMIT * limit:
                settle(True)
                yield from ready()
        while queue:
            settle(True)
            yield from ready()
    finally:
        if running:
            try:
                client.cancel(list(running))
            except Exception:  # the client or the scheduler is going away
                pass


#: What a cluster's failure comes as, besides distributed's own errors: its connection
#: lost or a wait timed out (OSError: CommClosedError and TimeoutError are ones), a future
#: cancelled -- asyncio's, or concurrent.futures's, which distributed's
#: FuturesCancelledError is and which is another class on Python 3.11.
_FAILURES = (OSError, asyncio.CancelledError, concurrent.futures.CancelledError)


def _cluster_failure(err: BaseException) -> BaseException:
    """``err`` as a :class:`ClusterError` when it is the cluster's failure (the scheduler
    gone, a task that killed worker after worker, a task cancelled), as it is otherwise (a
    task's own error: a bad deal, constraints too rare)."""
    if isinstance(err, _FAILURES) or type(err).__module__.split(".")[0] == "distributed":
        reason = str(err).splitlines()[0] if str(err) else ""
        return ClusterError(f"the Dask cluster failed: {type(err).__name__}"
                            f"{': ' + reason if reason else ''}")
    return err


def chunks(items: Iterable[_T], size: int) -> Iterator[list[_T]]:
    """``items`` in lists of ``size`` (the last one shorter), read lazily."""
    it = iter(items)
    while True:
        chunk = list(islice(it, size))
        if not chunk:
            return
        yield chunk


def table_of_numbers(numbers: Sequence[int], cards: int = 13) -> DDTable:
    """The table whose 20 numbers a task sent back (:func:`tables_task`), for a deal of
    ``cards`` in each hand."""
    return DDTable(tuple(tuple(numbers[5 * d:5 * d + 5]) for d in range(4)), cards)


# ---- tables ------------------------------------------------------------------------------

def iter_tables(deals: Iterable[Any], client: Any, *, tt_mb: int = DEFAULT_TT_MB,
                chunk: int | None = None) -> Iterator[tuple[int, DDTable]]:
    """``(index, table)`` of every deal, solved on ``client``'s cluster ``chunk`` deals a
    task (default: :func:`chunk_size`), in input order (what
    :func:`ddsolver.iter_dd_tables` gives with ``client=``).

    :raises DealError: / :raises ParseError: for a bad deal (with its index), raised when
        it is read.
    """
    tt_mb = check_tt_mb(tt_mb)
    chunk = chunk_size(client, THREADS_PER_BOARD, chunk)

    def units() -> Iterator[tuple[int, list[tuple[int, ...]]]]:
        start = 0
        for part in chunks(deals, chunk):
            yield start, [batch_masks(start + i, d) for i, d in enumerate(part)]
            start += len(part)

    for (start, masks), numbers in ordered_map(
            client, units(), lambda u: client.submit(tables_task, u[1], tt_mb, pure=False)):
        for i, row in enumerate(numbers):
            yield start + i, table_of_numbers(row, cards_of(masks[i]))
