#!/usr/bin/env python3
"""Benchmark the αμ search (``ddsolver.alphamu``) and the single-dummy advice it serves.

There is no peer in Python: no other Python library runs αμ (or any search that avoids
strategy fusion) on bridge, so the search is measured against itself -- how its cost grows
with M and with the number of worlds -- and its M = 1 case, which is PIMC, against the same
PIMC work done through DDS (endplay's bundled DDS 2.9, SolveBoard with solutions = 3, one
thread) in the same run, on the same worlds, answers checked card by card.

The positions: ``--positions`` (20) seeded random deals, played at random (legal cards) for
a few tricks until declarer's side is on lead at a trick boundary; declarer (South or North
as the side to lead) sees his hand and dummy's; ``--worlds`` (20) worlds are sampled for
each (seeded).  Contract: the double-dummy tricks of the real deal at that point, in no
trumps (so neither line is trivially sure nor hopeless).

Printed:

* per M (1, 2, 3): the mean time per advice (one αμ search over every root card), nodes,
  world solves (leaves), nodes per second and worlds x nodes per second;
* growth with worlds: M = 2 on the first positions with 5, 10, 20, 40 worlds;
* M = 1 against DDS: the world solves of PIMC done by our core (through αμ's leaf path,
  and through the checked ``Solver.card_scores`` facade) and by DDS, and the ratio.

Usage: ``python bench/bench_alphamu.py [--positions N] [--worlds W] [--seed S] [--quick]``.
The machine's other load changes absolute times; compare figures from one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np
from bench_env import prefer_checkout
from dds_peer import Dds, masks

prefer_checkout()
from cardgames.cards import Card, Seat  # noqa: E402
from cardgames.hands import Deal, Hand  # noqa: E402
from cardgames.play import Position  # noqa: E402
from cardgames.worlds import View, deal_worlds  # noqa: E402
from ddsolver import Solver  # noqa: E402
from ddsolver.alphamu import alphamu  # noqa: E402


def positions(count: int, seed: int) -> list[tuple[Deal, Position, Seat]]:
    """Random deals played at random for 3 to 7 tricks, declarer's side on lead."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        perm = rng.permutation(52)
        deal = Deal(tuple(Hand.from_cards(Card.from_index(int(j)) for j in perm[i::4])
                          for i in range(4)))
        declarer = Seat.SOUTH
        pos = Position(deal, "NT", declarer.lho)
        for _ in range(4 * int(rng.integers(3, 8))):
            legal = pos.legal_cards()
            pos.play(legal[int(rng.integers(len(legal)))])
        if pos.to_move not in (declarer, declarer.partner):
            continue
        out.append((deal, pos, declarer))
    return out


def view_of(deal: Deal, pos: Position, declarer: Seat) -> View:
    return View.make(declarer, {declarer: deal[declarer], declarer.partner:
                                deal[declarer.partner]}, "NT", declarer.lho, pos.played)


def need_of(solver: Solver, deal: Deal, pos: Position, declarer: Seat) -> int:
    ns = solver.solve_position(deal, "NT", declarer.lho, pos.played)
    return pos.tricks_won(declarer) + ns


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--worlds", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--depths", default="1,2,3")
    ap.add_argument("--quick", action="store_true", help="5 positions, M = 1 and 2")
    args = ap.parse_args()
    if args.quick:
        args.positions, args.depths = 5, "1,2"
    depths = [int(x) for x in args.depths.split(",")]
    solver = Solver()
    cases = []
    for i, (deal, pos, declarer) in enumerate(positions(args.positions, args.seed)):
        view = view_of(deal, pos, declarer)
        worlds = deal_worlds(view, samples=args.worlds, seed=args.seed + i, exhaustive=False)
        cases.append((deal, pos, declarer, view, worlds, need_of(solver, deal, pos, declarer)))
    print(f"αμ benchmark: {len(cases)} positions (tricks left "
          f"{min(p.tricks_left for _, p, *_ in cases)}-"
          f"{max(p.tricks_left for _, p, *_ in cases)}), {args.worlds} sampled worlds each, "
          f"seed {args.seed}; one thread")
    print("There is no peer in Python: αμ is measured against itself, and M = 1 (PIMC) "
          "against DDS below.\n")

    print(f"{'M':>2} {'s/advice':>9} {'median':>8} {'nodes':>9} {'leaves':>9} {'nodes/s':>9} "
          f"{'worlds*nodes/s':>15} {'leaves/s':>9}")
    per_depth = {}
    for m in depths:
        times, nodes, leaves = [], 0, 0
        for _, _, declarer, _view, worlds, need in cases:
            t = time.perf_counter()
            r = alphamu(worlds, declarer=declarer, need=need, depth=m)
            times.append(time.perf_counter() - t)
            nodes += r.nodes
            leaves += r.leaves
        total = sum(times)
        per_depth[m] = total / len(cases)
        print(f"{m:>2} {total / len(cases):>9.3f} {statistics.median(times):>8.3f} "
              f"{nodes:>9,} {leaves:>9,} {nodes / total:>9,.0f} "
              f"{nodes * args.worlds / total:>15,.0f} {leaves / total:>9,.0f}")
    if len(per_depth) > 1:
        ms = sorted(per_depth)
        growth = ", ".join(f"M={b}/M={a}: x{per_depth[b] / per_depth[a]:.1f}"
                           for a, b in zip(ms, ms[1:]))
        print(f"cost growth with M: {growth}")

    print("\ngrowth with the number of worlds (M = 2, first 5 positions):")
    base = None
    for w in (5, 10, 20, 40):
        t = time.perf_counter()
        for i, (_deal, _pos, declarer, view, _, need) in enumerate(cases[:5]):
            worlds = deal_worlds(view, samples=w, seed=args.seed + i, exhaustive=False)
            alphamu(worlds, declarer=declarer, need=need, depth=2)
        s = (time.perf_counter() - t) / min(5, len(cases))
        base = base or s
        print(f"  {w:>3} worlds: {s:.3f} s per advice (x{s / base:.1f} of 5 worlds)")

    print("\nM = 1 (PIMC) against DDS, the same worlds, every legal card of each world:")
    try:
        dds = Dds()  # one thread
    except ImportError:
        print("  endplay is not installed: DDS comparison skipped "
              "(pip install 'endplay>=0.5')")
        return 0
    ours_am = ours_facade = theirs = 0.0
    solves = 0
    mismatches = 0
    for _, pos, declarer, _view, worlds, need in cases:
        t = time.perf_counter()
        alphamu(worlds, declarer=declarer, need=need, depth=1)
        ours_am += time.perf_counter() - t
        leader = pos.trick_leader
        for d in worlds:
            p = Position(d, "NT", declarer.lho, pos.played)
            dl = dds.board_input(masks(p.remaining_deal()), 4, int(leader))
            t = time.perf_counter()
            ours = solver.card_scores(d, "NT", declarer.lho, pos.played)
            ours_facade += time.perf_counter() - t
            t = time.perf_counter()
            fut = dds.solve_board(dl, 3)
            theirs += time.perf_counter() - t
            solves += 1
            best_dds = max(fut.score[i] for i in range(fut.cards))
            if best_dds != max(ours.values()):
                mismatches += 1
    print(f"  {solves} world solves: ours via αμ's leaves {ours_am:.3f} s, via the checked "
          f"facade {ours_facade:.3f} s, DDS {theirs:.3f} s")
    print(f"  ratio ours / DDS: αμ leaves {ours_am / theirs:.2f}, facade "
          f"{ours_facade / theirs:.2f} (lower is better for us)")
    if mismatches:
        print(f"  DISAGREEMENTS with DDS: {mismatches}")
        return 1
    print("  every world's best score agrees with DDS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
