"""Timing checks shared by the tests: the fastest of a few runs, and "the time grows
linearly with the input" measured in a way a busy host does not fail."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

import pytest


def fastest(run: Callable[[], object], times: int = 3) -> float:
    """The fastest of ``times`` runs of ``run()``, in seconds (garbage collected before
    each, so that no run pays for the one before it)."""
    best = float("inf")
    for _ in range(times):
        gc.collect()
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def assert_linear(seconds_for: Callable[[int], float], n: int, bound: float = 8,
                  attempts: int = 3) -> None:
    """Fail unless 4x the input (``seconds_for(4 * n)`` against ``seconds_for(n)``) takes
    under ``bound`` times as long: 4 for linear work, 16 for quadratic.  A ratio over the
    bound is measured again, up to ``attempts`` times: a busy CI host once gave 8.6 for
    linear reading (2.4 on a quiet one), while quadratic work fails every time."""
    ratios = []
    for _attempt in range(attempts):
        small, large = seconds_for(n), seconds_for(4 * n)
        ratios.append(large / max(small, 1e-4))
        if ratios[-1] < bound:
            return
    pytest.fail(f"4x the input took {', '.join(f'{r:.1f}x' for r in ratios)} the time")
