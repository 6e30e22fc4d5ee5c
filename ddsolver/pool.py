"""One :class:`~ddsolver.solver.Solver` per thread: the pool every multi-threaded caller uses.

A solver owns a search context and its transposition table and is not thread-safe, while
the core releases the GIL as it searches; so work runs on a thread pool where each thread
keeps a solver of its own, made on the thread's first call and reused (with its table)
after that.  ``dd_tables``, the play analysis of ``ddsolver play``, the Monte-Carlo lead
analysis, the module-level ``solve``/``dd_table``/``card_scores`` and the tests' oracle
runner all draw their solvers from here.

    >>> pool = SolverPool(tt_mb=16)
    >>> pool.solver() is pool.solver()     # the same thread: the same solver
    True

Ctrl-C: a search in a worker thread cannot see Python's KeyboardInterrupt, which is raised
in the main thread, and a thread pool waits for its running work before it lets the
exception go.  :func:`signals_stop_searches` makes a signal stop every running search at
once, in whatever thread (each raises KeyboardInterrupt in its own thread), while the
main thread waits or for the length of a command.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from . import _core
from .solver import DEFAULT_TT_MB, Solver, check_tt_mb

__all__ = ["SolverPool", "signals_stop_searches", "sigint_stops_searches"]


class SolverPool:
    """Solvers of ``tt_mb`` MB each, one per thread that asks.

    :raises ValueError: if ``tt_mb`` is not a valid table size (checked here, once).
    """

    def __init__(self, tt_mb: int = DEFAULT_TT_MB):
        self.tt_mb = check_tt_mb(tt_mb)
        self._local = threading.local()

    def solver(self) -> Solver:
        """The calling thread's solver, made on its first call."""
        solver: Solver | None = getattr(self._local, "solver", None)
        if solver is None:
            solver = self._local.solver = Solver(self.tt_mb)
        return solver

    def __repr__(self) -> str:
        return f"SolverPool(tt_mb={self.tt_mb})"


@contextmanager
def signals_stop_searches(*signums: int) -> Iterator[None]:
    """While the block runs, each of ``signums`` also stops every search running in the
    process as it arrives (they raise KeyboardInterrupt), before Python's handler -- which
    still runs, in the main thread -- has had a chance to.  Use it for signals whose
    handler raises (SIGINT's default one, the command line's SIGTERM).  In a thread other
    than the main one, or for a signal that is ignored or has no handler, nothing changes.
    A signal that came is forgotten when the block ends."""
    hooked = [s for s in signums if _core.hook_signal(s)]
    try:
        yield
    finally:
        for s in reversed(hooked):
            _core.unhook_signal(s)


def sigint_stops_searches() -> contextlib.AbstractContextManager[None]:
    """:func:`signals_stop_searches` for SIGINT, if its handler is Python's default (which
    raises KeyboardInterrupt); otherwise a block that changes nothing."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        return signals_stop_searches(signal.SIGINT)
    return contextlib.nullcontext()
