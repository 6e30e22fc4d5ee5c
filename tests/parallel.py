"""Answer many oracle questions at once, on every core.

The oracle tests check the solver against every deal of the shared data in every run.  One
thread would take minutes; the core releases the GIL while it searches, so a pool of threads
with one :class:`ddsolver.Solver` each (a solver is not thread-safe) uses every core, as
``ddsolver.dd_tables`` does for tables.  The tests then only compare, deal by deal, so a
wrong answer still fails the test named after its deal.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from ddsolver import Solver
from ddsolver.pool import SolverPool

T = TypeVar("T")
R = TypeVar("R")


def solve_all(items: Sequence[T], work: Callable[[Solver, T], R], *,
              tt_mb: int = 64) -> list[R]:
    """``[work(solver, item) for item in items]``, on ``os.cpu_count()`` threads with a
    solver each; results in the order of ``items``.  An exception in ``work`` is raised here."""
    solvers = SolverPool(tt_mb)

    def run(item: T) -> R:
        return work(solvers.solver(), item)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        return list(pool.map(run, items))
