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
"""

from __future__ import annotations

import threading

from .solver import DEFAULT_TT_MB, Solver, check_tt_mb

__all__ = ["SolverPool"]


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
