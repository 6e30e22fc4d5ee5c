"""``ddsolver solve DEAL --strain S --declarer N``: one deal given on the command line.

Declarer's double-dummy tricks, optionally after some cards have been played, and with
``--cards`` the value of every card the player to move may play.  A malformed deal, strain,
seat or card is a usage error (exit status 2).
"""

from __future__ import annotations

import argparse

from cardgames.cards import Card, Seat, Strain
from cardgames.errors import CardgamesError
from cardgames.hands import Deal
from cardgames.play import Position

from ..solver import Solver
from ._common import OK, UsageError

__all__ = ["add_parser", "run"]

_EXAMPLES = """\
examples:
  ddsolver solve "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872" \\
      --strain NT --declarer S
  ddsolver solve "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872" \\
      --strain NT --declarer S --cards
  ddsolver solve "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872" \\
      --strain H --declarer S --played "C2 C5 CJ CK" --cards

The opening lead is made by declarer's left-hand opponent.  The deal may be an ending
(fewer than 13 cards in each hand).
"""


def add_parser(commands: argparse._SubParsersAction,
               formatter: type[argparse.HelpFormatter]) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "solve", formatter_class=formatter, epilog=_EXAMPLES,
        help="declarer's double-dummy tricks on one deal",
        description="Solve one deal given on the command line: declarer's tricks with best\n"
                    "play, optionally after some cards have been played, and with --cards\n"
                    "the value of every card the player to move may play.")
    parser.add_argument("deal", metavar="DEAL",
                        help='a PBN deal string, e.g. "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 '
                             'T7.A762.QJ853.K4 543.T98.76.QT872"')
    parser.add_argument("-s", "--strain", required=True, metavar="S",
                        help="trumps: S, H, D, C or NT")
    parser.add_argument("-d", "--declarer", required=True, metavar="SEAT",
                        help="declarer: N, E, S or W")
    parser.add_argument("--played", metavar="CARDS", default="",
                        help='cards played so far from the opening lead, e.g. "C2 C5 CJ CK"')
    parser.add_argument("--cards", action="store_true",
                        help="also print the value of every legal card of the player to move")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run ``ddsolver solve`` on parsed arguments; the exit status."""
    try:
        deal = Deal.from_pbn(args.deal, require_complete=True)
        strain = Strain.parse(args.strain)
        declarer = Seat.parse(args.declarer)
        played = args.played.replace(",", " ").split() if args.played else []
        for k, text in enumerate(played, 1):
            try:
                Card.parse(text)
            except CardgamesError as err:
                raise UsageError(f"--played: card {k}, {err}") from None
        position = Position(deal, strain, declarer.lho, played)
        if args.cards and position.is_terminal:
            raise UsageError("--cards: the play is over, no card is left to score")
        solver = Solver()
        ns_to_come = solver.solve_position(deal, strain, declarer.lho, position.played)
    except CardgamesError as err:
        raise UsageError(str(err)) from None

    to_come = ns_to_come if declarer.is_ns else position.tricks_left - ns_to_come
    won = position.tricks_won(declarer)
    side = "N-S" if declarer.is_ns else "E-W"
    if played:
        print(f"Declarer {declarer.letter}, {strain.letter}, after {len(played)} "
              f"card{'s' * (len(played) != 1)}: {won + to_come} tricks for {side} "
              f"({won} won, {to_come} to come)")
    else:
        print(f"Declarer {declarer.letter}, {strain.letter}: {won + to_come} tricks")

    if args.cards:
        scores = solver.card_scores(deal, strain, declarer.lho, position.played)
        mover = position.to_move
        mover_side = "N-S" if mover.is_ns else "E-W"
        print(f"{mover.letter} to play; tricks for {mover_side} from here, "
              f"the trick in progress included:")
        for card, tricks in scores.items():
            print(f"  {card}  {tricks}")
    return OK
