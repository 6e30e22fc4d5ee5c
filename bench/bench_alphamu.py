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

Printed first, the decisions a player needs (what ``ddsolver duel`` asks): ``--deals`` (10)
seeded 3NT deals by South whose double-dummy result is 8 to 10 tricks, at the first trick
(West has led his double-dummy best card, dummy to play) with M = 2 and M = 3, and mid-deal
(both sides played double-dummy best until 6 tricks are left, declarer's side to play) with
M = 4; 20 worlds (``--worlds``), one core; the time per decision of the search as it is
(leaves by the core's batch entry, :meth:`ddsolver.Solver.reaches_many`) against the same
search on the leaves it had before (each world solved exactly from scratch, all cards at
once: ``alphamu(..., _reference_leaves=True)``), the answers checked equal card by card.

Then:

* per M (1, 2, 3): the mean time per advice (one αμ search over every root card), nodes,
  world solves (leaves), nodes per second and worlds x nodes per second;
* growth with worlds: M = 2 on the first positions with 5, 10, 20, 40 worlds;
* M = 1 against DDS: the world solves of PIMC done by our core (through αμ's leaf path,
  and through the checked ``Solver.card_scores`` facade) and by DDS, and the ratio.

Usage: ``python bench/bench_alphamu.py [--deals N] [--positions N] [--worlds W] [--seed S]
[--quick]``.
The machine's other load changes absolute times; compare figures from one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np
from bench_env import prefer_checkout, whole
from dds_peer import Dds, masks

prefer_checkout()
from cardgames.cards import Card, Seat  # noqa: E402
from cardgames.hands import Deal, Hand  # noqa: E402
from cardgames.play import Position  # noqa: E402
from cardgames.worlds import View, Worlds, deal_worlds  # noqa: E402
from ddsolver import Solver  # noqa: E402
from ddsolver.alphamu import alphamu  # noqa: E402


def positions(count: int, seed: int) -> list[tuple[Deal, Position, Seat]]:
    """Random deals played at random for 3 to 7 tricks, declarer's side on lead."""
    rng = np.random.default_rng(seed)
    out: list[tuple[Deal, Position, Seat]] = []
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


def three_nt_deals(count: int, seed: int, solver: Solver) -> list[Deal]:
    """Seeded deals on which South's 3NT is within a trick of making, double dummy."""
    rng = np.random.default_rng(seed)
    out: list[Deal] = []
    while len(out) < count:
        perm = rng.permutation(52)
        deal = Deal(tuple(Hand.from_cards(Card.from_index(int(j)) for j in perm[i::4])
                          for i in range(4)))
        if 8 <= solver.solve(deal, "NT", "S") <= 10:
            out.append(deal)
    return out


def best_play(solver: Solver, deal: Deal, played: list[Card], cards: int) -> list[Card]:
    """``played`` and then ``cards`` more, each the mover's double-dummy best (the lowest
    of the best)."""
    played = list(played)
    for _ in range(cards):
        scores = solver.card_scores(deal, "NT", "W", played)
        top = max(scores.values())
        played.append([c for c, t in scores.items() if t == top][-1])
    return played


def decisions(count: int, seed: int, solver: Solver) -> dict[str, list[tuple[Deal, View]]]:
    """The first-trick and mid-deal decisions: (deal, view) pairs."""
    first, mid = [], []
    for deal in three_nt_deals(count, seed, solver):
        lead = best_play(solver, deal, [], 1)
        first.append((deal, view_of(deal, Position(deal, "NT", Seat.WEST, lead), Seat.SOUTH)))
        played = best_play(solver, deal, lead, 27)
        pos = Position(deal, "NT", Seat.WEST, played)
        while pos.to_move not in (Seat.SOUTH, Seat.NORTH):
            played = best_play(solver, deal, played, 1)
            pos = Position(deal, "NT", Seat.WEST, played)
        mid.append((deal, view_of(deal, pos, Seat.SOUTH)))
    return {"first": first, "mid": mid}


def time_decisions(cases: list[tuple[Deal, View]], worlds: int, depth: int, seed: int
                   ) -> tuple[float, float, int]:
    """Mean CPU seconds per decision, as it is and on the reference leaves, and the number
    of cards whose answers disagree (there must be none)."""
    fast = ref = 0.0
    bad = 0
    for i, (_deal, view) in enumerate(cases):
        ws = deal_worlds(view, samples=worlds, seed=seed + i, exhaustive=False)
        need = 9
        results = []
        for reference in (False, True):
            t = time.process_time()
            results.append(alphamu(ws, declarer=Seat.SOUTH, need=need, depth=depth,
                                   _reference_leaves=reference))
            spent = time.process_time() - t
            if reference:
                ref += spent
            else:
                fast += spent
        a, b = results
        bad += sum(a.card(c).makes != b.card(c).makes for row in a.cards for c in row.cards)
    return fast / len(cases), ref / len(cases), bad


def view_of(deal: Deal, pos: Position, declarer: Seat) -> View:
    own, dummy = deal[declarer], deal[declarer.partner]
    assert own is not None and dummy is not None  # the deals here are full deals
    return View.make(declarer, {declarer: own, declarer.partner: dummy}, "NT", declarer.lho,
                     pos.played)


def need_of(solver: Solver, deal: Deal, pos: Position, declarer: Seat) -> int:
    ns = solver.solve_position(deal, "NT", declarer.lho, pos.played)
    return pos.tricks_won(declarer) + ns


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=whole(1), default=10,
                    help="3NT deals for the first-trick and mid-deal decisions (10)")
    ap.add_argument("--positions", type=whole(1), default=20)
    ap.add_argument("--worlds", type=whole(1), default=20)
    ap.add_argument("--seed", type=whole(0), default=1)
    ap.add_argument("--depths", default=None, help="depths M to time, e.g. 1,2,3 (the default)")
    ap.add_argument("--quick", action="store_true",
                    help="3 deals, 5 positions, M = 1 and 2 (explicit options win)")
    args = ap.parse_args()
    quick = {"deals": 3, "positions": 5, "depths": "1,2"} if args.quick else {}
    for name, value in quick.items():
        if not any(a == f"--{name}" or a.startswith(f"--{name}=") for a in sys.argv[1:]):
            setattr(args, name, value)
    try:
        depths = [int(x) for x in (args.depths or "1,2,3").split(",")]
    except ValueError:
        ap.error(f"--depths: whole numbers separated by commas, not {args.depths!r}")
    if any(m < 1 for m in depths):
        ap.error(f"--depths: each depth at least 1, not {args.depths!r}")
    solver = Solver()

    print(f"αμ decisions: {args.deals} deals of 3NT by South (8-10 tricks double dummy), "
          f"{args.worlds} worlds, seed {args.seed}, one core (CPU time); as it is against "
          "the same search on its former leaves")
    print(f"  {'decision':<34} {'s/decision':>10} {'former':>8} {'ratio':>6}  target")
    by_kind = decisions(args.deals, args.seed, solver)
    failed = 0
    for name, key, m, target in (("first trick (dummy to play), M = 2", "first", 2, 0.2),
                                 ("first trick (dummy to play), M = 3", "first", 3, 1.0),
                                 ("mid-deal (6 tricks left), M = 4", "mid", 4, 1.0)):
        fast, ref, bad = time_decisions(by_kind[key], args.worlds, m, args.seed)
        failed += bad
        print(f"  {name:<34} {fast:>10.3f} {ref:>8.3f} {ref / fast:>5.0f}x  <= {target} s"
              f"{'' if fast <= target else '  (missed)'}"
              f"{f'  {bad} ANSWERS DIFFER' if bad else ''}")
    if failed:
        return 1
    print()
    cases: list[tuple[Deal, Position, Seat, View, Worlds, int]] = []
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
