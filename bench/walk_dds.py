#!/usr/bin/env python3
"""Follow one proof next to DDS's, a card at a time: trick-start nodes per child.

For the position after the cards played so far, every legal card of the player to move is
played and the question "can North-South take at least GOAL tricks from the start of the
current trick?" is asked of both solvers about the position after it, each on a fresh
table; their trick-start nodes are printed side by side.  Descending into the child with
the worst ratio, one card at a time, is how the ordering rules in ``ddsolver/_moves.pxi``
were found (bench/README.md, "Ideas measured, kept and dropped")::

    python bench/walk_dds.py largest:9 11              # the opening leads
    python bench/walk_dds.py largest:9 11 H4 DT        # East's cards after H4 and DT
    python bench/walk_dds.py random:1:180 4 S2 S7      # bench_dds.py's random deal #180

DEAL is ``largest:N`` (board N of DDS's ``largest.txt``, with its trump and leader) or
``random:SEED:I`` (bench_dds.py's random deal I of seed SEED, with its contract: the lead
is declarer's left-hand opponent's).  Cards are written suit then rank (``SA``, ``HT``,
``C2``).

Two cautions when reading the figures:

* DDS makes the side to move at its root the maximising side, and its quick- and
  later-trick cut-offs are not symmetric between the sides, so a child solved on its own can
  cost DDS far more or far less than it does inside its parent's search.  Compare at
  children whose player to move is on the same side as at the start of the question.
* Our count includes the root when it is a trick's start (DDS's does not): tiny counts
  differ by one for that reason alone.

Between two questions DDS solves another deal, so that it does not answer from the table it
kept (it keeps its table while the deal does not change).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_dds as bd  # noqa: E402  (the script beside this one)

SUITS, RANKS = "SHDC", "23456789TJQKA"


def parse_card(text: str) -> tuple[int, int]:
    """``'HT'`` -> (suit index, rank 2..14)."""
    if len(text) != 2 or text[0].upper() not in SUITS or text[1].upper() not in RANKS:
        raise SystemExit(f"walk_dds: {text!r} is not a card (suit then rank, e.g. SA, HT, C2)")
    return SUITS.index(text[0].upper()), RANKS.index(text[1].upper()) + 2


def card_name(suit: int, rank: int) -> str:
    return SUITS[suit] + RANKS[rank - 2]


def load_deal(spec: str):
    """(deal, trump, leader) for ``largest:N`` or ``random:SEED:I``."""
    kind, _, rest = spec.partition(":")
    try:
        if kind == "largest":
            board = bd.read_dds_txt(bd.DEFAULT_LARGEST)[int(rest) - 1]
            return board.deal, board.trump, board.first
        if kind == "random":
            seed, index = (int(x) for x in rest.split(":"))
            deal, strain, declarer = bd.random_boards(seed, index + 1)[index]
            return deal, strain, (declarer + 1) & 3
    except (ValueError, IndexError) as err:
        raise SystemExit(f"walk_dds: cannot read the deal {spec!r}: {err}") from err
    raise SystemExit(f"walk_dds: DEAL is largest:N or random:SEED:I, not {spec!r}")


def trick_winner(trick, trump: int) -> int:
    """The seat winning a complete trick of (seat, suit, rank)."""
    led = trick[0][1]
    return max(trick, key=lambda t: (t[1] == trump, t[1] == led, t[2]))[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deal", help="largest:N or random:SEED:I")
    parser.add_argument("goal", type=int, help="North-South's tricks from the current trick's start")
    parser.add_argument("played", nargs="*", help="the cards played so far, in order")
    args = parser.parse_args(argv)

    bd._prefer_checkout()
    from ddsolver._core import Core
    dds = bd.Dds()
    core = Core(64)
    deal, trump, first = load_deal(args.deal)
    masks = list(bd._masks(deal))
    other = bd._masks(bd.random_boards(99, 1)[0][0])

    # Replay the cards played: hands, the trick in progress, its leader.
    hands, leader, trick, played = masks[:], first, [], b""
    for text in args.played:
        suit, rank = parse_card(text)
        seat = (leader + len(trick)) & 3
        if not hands[4 * seat + suit] >> rank & 1:
            raise SystemExit(f"walk_dds: {text} is not in {'NESW'[seat]}'s hand")
        if trick and suit != trick[0][1] and hands[4 * seat + trick[0][1]]:
            raise SystemExit(f"walk_dds: {'NESW'[seat]} must follow to {SUITS[trick[0][1]]}, "
                             f"not play {text}")
        hands[4 * seat + suit] &= ~(1 << rank)
        trick.append((seat, suit, rank))
        played += bytes([suit * 16 + rank])
        if len(trick) == 4:
            leader, trick = trick_winner(trick, trump), []
    left = (sum(bin(m).count("1") for m in hands) + len(trick) + 3) // 4
    mover = (leader + len(trick)) & 3
    holding = hands[4 * mover: 4 * mover + 4]
    suits = [trick[0][1]] if trick and holding[trick[0][1]] else range(4)
    cards = [(s, r) for s in suits for r in range(14, 1, -1) if holding[s] >> r & 1]
    print(f"{args.deal}, trump {'SHDCN'[trump]}: after {len(args.played)} cards {'NESW'[mover]} "
          f"to play, {left} tricks left; can North-South take {args.goal} from here?")

    totals = [0, 0]
    for suit, rank in cards:
        after = [*trick, (mover, suit, rank)]
        child = hands[:]
        child[4 * mover + suit] &= ~(1 << rank)
        if len(after) == 4:   # the trick is complete: the next starts
            winner = trick_winner(after, trump)
            ns_goal, next_leader, after = args.goal - (winner % 2 == 0), winner, []
            child_left = left - 1
        else:
            ns_goal, next_leader, child_left = args.goal, leader, left
        try:
            core.clear()
            before = sum(core.trick_nodes)
            ours = core.reaches(tuple(masks), trump, first, played + bytes([suit * 16 + rank]),
                                max(ns_goal, 0))
        except ValueError as err:
            raise SystemExit(f"walk_dds: {err}") from err
        ours_nodes = sum(core.trick_nodes) - before
        # DDS: the same position, its target for the side to move.
        to_move = (next_leader + len(after)) & 3
        target = ns_goal if to_move % 2 == 0 else child_left - ns_goal + 1
        if target <= 0 or target > child_left:
            print(f"{card_name(suit, rank)}: {ours!s:5} settled by arithmetic")
            continue
        dds.solve_board(dds.board_input(other, 0, 0), 1)
        dl = dds.board_input(child, trump, next_leader)
        for i, (_, s, r) in enumerate(after):
            dl.currentTrickSuit[i], dl.currentTrickRank[i] = s, r
        fut = dds._dds.futureTricks()
        dds._dds.SolveBoard(dl, target, 1, 1, fut, 0)
        reached = fut.cards > 0 and fut.score[0] >= target
        dds_yes = reached if to_move % 2 == 0 else not reached
        flag = "" if dds_yes == ours else "   DISAGREE"
        totals[0] += ours_nodes
        totals[1] += fut.nodes
        print(f"{card_name(suit, rank)}: {ours!s:5} ours {ours_nodes:10,}  DDS {fut.nodes:10,}  "
              f"{ours_nodes / max(fut.nodes, 1):6.2f}{flag}")
    print(f"children on fresh tables: ours {totals[0]:,}, DDS {totals[1]:,} "
          f"({totals[0] / max(totals[1], 1):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
