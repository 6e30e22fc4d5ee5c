"""The search's node signature (see bench/signature.py): the exact node count on a fixed
set of deals.

A change that only reorganises the core must leave it unchanged; a change to the search
(ordering, cut-offs, the table's rules) changes it on purpose, and updates ``SIGNATURE``
here with the new count stated in its commit.  A regression in move ordering shows as a
jump in the count, so CI catches it even when every answer stays right.
"""

from __future__ import annotations

import random

from bench_scripts import load_bench_script

SIGNATURE = 14582073


def test_node_signature_is_unchanged():
    total, per_deal = load_bench_script("signature").signature()
    assert len(per_deal) == 8 and all(n > 0 for n in per_deal)
    assert total == SIGNATURE, (
        f"nodes searched: {total:,} (expected {SIGNATURE:,}); if the search changed on "
        f"purpose, update SIGNATURE and state the new count in the commit")


def test_a_deal_searches_the_same_whatever_came_before():
    """The ordering hints (the cut-off cache, the killer moves) start afresh with each new
    deal, as the table does: the nodes a question takes are a function of the deal and the
    question, not of the deals a long-lived solver answered before it.  (Stale hints from
    other deals cost 2-3% of the table nodes on the bench's sequence, and made one solve six
    times slower than the same solve fresh.)"""
    from cardgames.minimax import random_ending
    from ddsolver._core import Core

    rng = random.Random(7)
    masks_of = load_bench_script("signature").masks_of
    deals = [masks_of(random_ending(rng, 13)) for _ in range(3)]
    fresh = Core(64)
    fresh.dd_table(deals[2])
    fresh_nodes = fresh.nodes
    fresh.solve(deals[2], 4, 1)
    fresh_solve = fresh.nodes - fresh_nodes
    used = Core(64)
    used.dd_table(deals[0])
    used.card_scores(deals[1], 4, 1)
    used.solve(deals[0], 0, 3)
    before = used.nodes
    used.dd_table(deals[2])
    assert used.nodes - before == fresh_nodes
    before = used.nodes
    used.solve(deals[2], 4, 1)
    assert used.nodes - before == fresh_solve
