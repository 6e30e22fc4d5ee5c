#!/usr/bin/env python3
"""The search's node signature: nodes searched on a fixed set of deals.

The count is a function of the search alone (move ordering, cut-offs, the transposition
table's rules), not of the machine, so it is the search's fingerprint: a change that
reorganises code must leave it exactly as it was, and a change to the search states its new
count.  ``tests/solver/test_node_signature.py`` asserts the number printed here.

The set: ``DEALS`` seeded random deals (seed ``SEED``); for each, the full DD table and the
all-card opening-lead scores of one random contract, asked of one fresh core in that order.

Usage: ``python bench/signature.py`` (prints per-deal counts and the total).
"""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardgames.hands import Deal

SEED = 2026
DEALS = 8


def masks_of(deal: Deal) -> tuple[int, ...]:
    """The core's view of a deal: 16 rank masks, [seat N E S W][suit S H D C] (as
    ``dds_peer.masks``; repeated so that ``signature()`` imports nothing from bench/)."""
    out: list[int] = []
    for hand in deal.hands:
        assert hand is not None  # a random deal: every hand known
        out.extend(hand.masks)
    return tuple(out)


def signature(deals: int = DEALS, seed: int = SEED) -> tuple[int, list[int]]:
    """(total nodes, nodes per deal) of the fixed question set, on a fresh core."""
    from cardgames.minimax import random_ending
    from ddsolver._core import Core

    rng = random.Random(seed)
    core = Core(64)
    per_deal = []
    for _ in range(deals):
        deal = random_ending(rng, 13)
        strain, leader = rng.randrange(5), rng.randrange(4)
        before = core.nodes
        masks = masks_of(deal)
        core.dd_table(masks)
        core.card_scores(masks, strain, leader)
        per_deal.append(core.nodes - before)
    return sum(per_deal), per_deal


def main() -> int:
    import argparse
    # (no options: --help says what it does, anything else is a usage error)
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    # Here, not at the top: the tests load this file by its path, without bench/ on sys.path.
    from bench_env import prefer_checkout
    prefer_checkout()
    total, per_deal = signature()
    for i, n in enumerate(per_deal):
        print(f"deal {i}: {n:,} nodes")
    print(f"Nodes searched: {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
