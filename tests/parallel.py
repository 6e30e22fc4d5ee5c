"""Answer many oracle questions at once, on every core, from the session's start.

The oracle tests check the solver against every deal of the shared data in every run:
about 600 s of CPU, most of the suite's.  The core releases the GIL while it searches, so
threads with one :class:`ddsolver.Solver` each (a solver is not thread-safe) use every
core.  :func:`ahead` registers a list (at a module's import, i.e. at collection) to be
answered *in the background*: from the moment collection ends (``conftest.py``), on a
thread a core at the lowest priority (on Linux; elsewhere one core is left free), so that
it takes the CPU time the other tests leave idle while they run on the main thread; the
module's tests are moved to the end of the run, and when the first of them asks
(:meth:`Batch.results`), the main thread joins in for what is left.  On a 2-core machine
this keeps both cores busy through the single-threaded part of the suite instead of
leaving one idle for half of it.

The tests then only compare, deal by deal, so a wrong answer still fails the
test named after its deal, and the answers do not depend on the order in which the
solvers meet the deals (a test of the solver checks that).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Generic, TypeVar

from ddsolver import Solver
from ddsolver.pool import SolverPool
from ddsolver.solver import stop_requested

T = TypeVar("T")
R = TypeVar("R")

class Batch(Generic[T, R]):
    """``work(solver, item)`` for each item, taken one at a time by whichever thread is
    free: the background threads and, once :meth:`results` is called, the caller."""

    def __init__(self, items: Sequence[T], work: Callable[[Solver, T], R]):
        self.items = list(items)
        self.work = work
        self._results: list[R | None] = [None] * len(self.items)
        self._error: BaseException | None = None
        self._next = 0
        self._finished = 0
        self._cond = threading.Condition()

    def _take(self) -> int | None:
        with self._cond:
            if self._next == len(self.items) or self._error is not None:
                return None
            self._next += 1
            return self._next - 1

    def run(self, solvers: SolverPool, stop: threading.Event | None = None) -> None:
        """Answer items until none is left to take (or ``stop`` is set)."""
        while (stop is None or not stop.is_set()) and (i := self._take()) is not None:
            try:
                answer = self._answer(solvers, i, stop)
            except BaseException as err:  # re-raised in results(), in the test that asks
                with self._cond:
                    self._error = self._error or err
                    self._finished += 1
                    self._cond.notify_all()
                return
            with self._cond:
                self._results[i] = answer
                self._finished += 1
                self._cond.notify_all()

    def _answer(self, solvers: SolverPool, i: int, stop: threading.Event | None) -> R:
        """One answer.  A search stop is for the whole process (``ddsolver.solver.request_stop``,
        a hooked signal): in the background it comes from a test of the interruption,
        not for this thread, so the item is answered again once the stop is over."""
        while True:
            try:
                return self.work(solvers.solver(), self.items[i])
            except KeyboardInterrupt:
                if stop is None:
                    raise
                while stop_requested() and not stop.is_set():
                    time.sleep(0.01)
                if stop.is_set():
                    raise

    def results(self) -> list[R]:
        """Every answer, in the order of the items: the caller answers what no thread has
        taken yet, then waits for the ones in progress."""
        self.run(_SOLVERS)
        with self._cond:
            self._cond.wait_for(lambda: self._finished == self._next
                                and (self._next == len(self.items) or self._error is not None))
            if self._error is not None:
                raise self._error
            return list(self._results)  # type: ignore[arg-type]


_SOLVERS = SolverPool()  # ddsolver's default table size, one solver a thread
_REGISTERED: dict[Path, list[Batch]] = {}
_STOP = threading.Event()
_THREADS: list[threading.Thread] = []


def ahead(module_file: str, items: Sequence[T], work: Callable[[Solver, T], R]) -> Batch[T, R]:
    """A batch answered in the background once collection ends, if any test of the module
    ``module_file`` (the caller's ``__file__``) is to run; its tests run last."""
    batch: Batch[T, R] = Batch(items, work)
    _REGISTERED.setdefault(Path(module_file).resolve(), []).append(batch)
    return batch


def modules_ahead() -> set[Path]:
    """The modules with batches answered in the background."""
    return set(_REGISTERED)


def start(modules: Iterable[Path]) -> None:
    """Answer the batches registered for ``modules`` (the modules with a test to run, in
    their order) in background threads: one a core at the lowest priority on Linux, one a
    core but one elsewhere."""
    batches = [b for m in modules for b in _REGISTERED.get(m, [])]
    if not batches or _THREADS:
        return

    def run() -> None:
        _lowest_priority()
        for batch in batches:
            batch.run(_SOLVERS, _STOP)

    # At the lowest priority (Linux) the background may have every core; elsewhere it
    # leaves one to the other tests.
    cores = os.cpu_count() or 1
    for n in range(cores if sys.platform.startswith("linux") else max(1, cores - 1)):
        thread = threading.Thread(target=run, name=f"oracle-ahead-{n}", daemon=True)
        thread.start()
        _THREADS.append(thread)


def _lowest_priority() -> None:
    """This thread at nice 19, on Linux (where a thread is a task with a priority of its
    own): the background then takes the CPU time the other tests leave idle (waiting for
    a child process, a browser, a cluster) instead of slowing them down, and a test that
    measures a latency is not timed against it.  Elsewhere the call would renice the
    whole process, so the thread keeps the normal priority there."""
    if sys.platform.startswith("linux"):
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        except OSError:
            pass


def stop() -> None:
    """Let the background threads finish the item in hand and end."""
    _STOP.set()
    for thread in _THREADS:
        thread.join()
