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
    python bench/walk_dds.py random:1:172 5 --trump S --leader E   # another row of its table

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
from typing import TYPE_CHECKING

from bench_deals import DEFAULT_LARGEST, random_boards, read_dds_txt
from bench_env import die, prefer_checkout, whole
from dds_peer import Dds, masks

if TYPE_CHECKING:
    from cardgames import Deal


def load_deal(spec: str) -> tuple[Deal, int, int]:
    """(deal, trump, leader) for ``largest:N`` or ``random:SEED:I``."""
    kind, _, rest = spec.partition(":")
    try:
        if kind == "largest":
            board = read_dds_txt(DEFAULT_LARGEST)[int(rest) - 1]
            return board.deal, board.trump, board.first
        if kind == "random":
            seed, index = (int(x) for x in rest.split(":"))
            deal, strain, declarer = random_boards(seed, index + 1)[index]
            return deal, strain, (declarer + 1) & 3
    except (OSError, ValueError, IndexError) as err:
        die(f"cannot read the deal {spec!r}: {err}", 1)
    die(f"DEAL is largest:N or random:SEED:I, not {spec!r}", 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deal", help="largest:N or random:SEED:I")
    parser.add_argument("goal", type=whole(0),
                        help="North-South's tricks from the current trick's start")
    parser.add_argument("played", nargs="*", help="the cards played so far, in order")
    parser.add_argument("--trump", choices=("S", "H", "D", "C", "NT"),
                        help="another strain than the deal's (e.g. a table's other rows)")
    parser.add_argument("--leader", choices=tuple("NESW"),
                        help="another opening leader than the deal's")
    args = parser.parse_args(argv)
    if args.goal > 13:
        parser.error(f"goal: North-South's tricks are 0 to 13, not {args.goal}")

    prefer_checkout()
    from cardgames import Strain
    from cardgames.play import Position
    from ddsolver._core import Core
    deal, trump, first = load_deal(args.deal)
    if args.trump:
        trump = ("S", "H", "D", "C", "NT").index(args.trump)
    if args.leader:
        first = "NESW".index(args.leader)
    try:   # the cards played: held and following suit, checked by cardgames
        pos = Position(deal, Strain(trump), first, args.played)
    except ValueError as err:
        die(str(err), 1)
    try:
        dds = Dds()  # one thread
    except ImportError as err:
        die(str(err))
    core = Core(64)
    hands = masks(deal)
    other = masks(random_boards(99, 1)[0][0])
    played = bytes(c.suit * 16 + c.rank for c in pos.played)
    print(f"{args.deal}, trump {'SHDCN'[trump]}: after {len(played)} cards "
          f"{pos.to_move.letter} to play, {pos.tricks_left} tricks left; can North-South "
          f"take {args.goal} from here?")

    totals = [0, 0]
    for card in pos.legal_cards():
        ns_before = pos.tricks_ns
        pos.play(card)
        # The goal from the child's trick: less the trick this card completed, if theirs.
        ns_goal = args.goal - (pos.tricks_ns - ns_before)
        core.clear()
        before = sum(core.trick_nodes)
        ours = core.reaches(hands, trump, first, played + bytes([card.suit * 16 + card.rank]),
                            max(ns_goal, 0))
        ours_nodes = sum(core.trick_nodes) - before
        # DDS: the same position, its target for the side to move.
        left, trick, to_move = pos.tricks_left, pos.current_trick, pos.to_move
        target = ns_goal if to_move.is_ns else left - ns_goal + 1
        if not 0 < target <= left:
            print(f"{card}: {ours!s:5} settled by arithmetic")
            pos.undo()
            continue
        dds.solve_board(dds.board_input(other, 0, 0), 1)
        dl = dds.board_input([m for seat in range(4) for m in pos.hand(seat).masks], trump,
                             pos.trick_leader, trick)
        pos.undo()
        fut = dds.solve_board(dl, 1, target)
        reached = fut.cards > 0 and fut.score[0] >= target
        dds_yes = reached if to_move.is_ns else not reached
        flag = "" if dds_yes == ours else "   DISAGREE"
        totals[0] += ours_nodes
        totals[1] += fut.nodes
        print(f"{card}: {ours!s:5} ours {ours_nodes:10,}  DDS {fut.nodes:10,}  "
              f"{ours_nodes / max(fut.nodes, 1):6.2f}{flag}")
    print(f"children on fresh tables: ours {totals[0]:,}, DDS {totals[1]:,} "
          f"({totals[0] / max(totals[1], 1):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
