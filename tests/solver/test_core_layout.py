"""The private core's packed layouts and its memory bound.

The transposition table's block and header layouts are documented in
``ddsolver/_core.pxd``; their sizes are part of that contract.  The table is sized by the
caller in MB and must never grow past it: when it fills up it is cleared and the search
goes on, still exact.
"""

from __future__ import annotations

import random

import pytest

from cardgames.minimax import random_ending
from ddsolver import Solver, _core


def test_packed_layout_sizes():
    assert _core.HEADER_SIZE == 32
    # A block is TT_BLOCK = 8 entries stored suit by suit -- 4 owner sequences of 32 bits,
    # 16 bits of top-card counts, a lower and an upper bound and a best move each, 22
    # bytes an entry -- then a 32-bit link and two 16-bit counters.
    assert _core.BLOCK_SIZE == 8 * (4 * 4 + 2 + 3) + 8


@pytest.mark.parametrize("mb", [1, 4, 64, 256])
def test_table_allocation_stays_within_the_requested_size(mb):
    core = _core.Core(mb)
    assert core.tt_bytes <= mb << 20
    # Most of the budget is usable: a table much smaller than asked for would be a bug too.
    assert core.tt_bytes >= (mb << 20) * 0.9


def test_rejects_a_table_below_one_megabyte():
    with pytest.raises(ValueError, match="at least 1 MB"):
        _core.Core(0)


def test_full_table_is_cleared_and_answers_stay_exact():
    """A 1 MB table fills up on a full deal; the answers must not change."""
    rng = random.Random(7)
    small, big = Solver(tt_mb=1), Solver(tt_mb=64)
    deal = random_ending(rng, 13)
    for strain, declarer in (("NT", "S"), ("H", "E")):
        assert small.solve(deal, strain, declarer) == big.solve(deal, strain, declarer)
    assert small._core.tt_resets > 0, "a 1 MB table was expected to fill up"
    assert small._core.tt_used <= small._core.tt_capacity
