"""Write ``data/played.pbn``: six boards with a contract and a complete play, reproducibly,
for ``ddsolver play`` to analyse.

The deals come from ``random.Random(SEED)`` as in ``make_session.py`` (52 cards shuffled,
13 a hand, North first).  Each board is played in its par contract (``ddsolver.par``, from
the board's dealer and vulnerability by the standard rotation; a deal that par passes out
is skipped), by the first declarer par names.  Every card is a double-dummy best card for
its side (``ddsolver.card_scores``), chosen at random among the best, except that with
probability ``SLIP`` the player picks at random among the cards that are *not* best: so
the play holds a few costly cards by both sides, as real play does.  ``Result`` is the
tricks declarer took.

The solver makes the file, so a change in the solver that changes an answer changes the
file: ``--check`` then says so.  Run from the repository root::

    python data/make_played.py           # rewrite data/played.pbn
    python data/make_played.py --check   # exit 1 if the file differs from the generator
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

try:
    import ddsolver  # noqa: F401
except ImportError:  # run as a script from a source checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgames.cards import ALL_CARDS  # noqa: E402
from cardgames.hands import Deal, Hand  # noqa: E402
from cardgames.pbn import play_section  # noqa: E402
from cardgames.play import Position  # noqa: E402
from cardgames.scoring import board_dealer, board_vulnerability  # noqa: E402
from ddsolver import Solver  # noqa: E402
from ddsolver.par import par  # noqa: E402

SEED = 20261123
BOARDS = 6
SLIP = 0.06
EVENT = "ddsolver example played boards"
SITE = "ddsolver data/make_played.py"
DATE = "2026.11.22"
OUTPUT = Path(__file__).resolve().parent / "played.pbn"


def board_text(board: int, deal: Deal, rng: random.Random, solver: Solver) -> str | None:
    """One board with its contract and play, or None if par passes the deal out."""
    dealer = board_dealer(board)
    vul = board_vulnerability(board)
    result = par(solver.dd_table(deal), vul=vul, dealer=dealer)
    if not result.contracts:
        return None
    best = result.contracts[0]
    declarer = best.declarers[0]
    leader = declarer.lho
    position = Position(deal, best.strain, leader)
    while not position.is_terminal:
        scores = solver.card_scores(deal, best.strain, leader, position.played)
        top = max(scores.values())
        good = [c for c, v in scores.items() if v == top]
        bad = [c for c, v in scores.items() if v < top]
        pool = bad if bad and rng.random() < SLIP else good
        position.play(rng.choice(pool))
    contract = f"{best.level}{best.strain.letter}{'X' if best.doubled else ''}"
    tags = [
        ("Event", EVENT), ("Site", SITE), ("Date", DATE), ("Board", str(board)),
        ("West", "?"), ("North", "?"), ("East", "?"), ("South", "?"),
        ("Dealer", dealer.letter), ("Vulnerable", str(vul)), ("Deal", deal.to_pbn(dealer)),
        ("Scoring", "?"), ("Declarer", declarer.letter), ("Contract", contract),
        ("Result", str(position.tricks_won(declarer))),
    ]
    text = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    text += f'[Play "{leader.letter}"]\n'
    text += "\n".join(play_section(position.played, leader, best.strain)) + "\n"
    return text


def played_text(seed: int = SEED, boards: int = BOARDS) -> str:
    rng = random.Random(seed)
    solver = Solver()
    parts = ["% PBN 2.1\n% EXPORT\n"]
    board = 1
    while board <= boards:
        cards = list(ALL_CARDS)
        rng.shuffle(cards)
        deal = Deal(tuple(Hand.from_cards(cards[i * 13:(i + 1) * 13]) for i in range(4)))
        text = board_text(board, deal, rng, solver)
        if text is not None:
            parts.append(text + "\n")
            board += 1
    return "".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the file on disk instead of writing it")
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT,
                        help=f"where to write (default: {OUTPUT.name} beside this script)")
    args = parser.parse_args(argv)
    text = played_text()
    if args.check:
        same = args.output.exists() and args.output.read_text() == text
        print(f"{args.output}: {'up to date' if same else 'DIFFERS from the generator'}")
        return 0 if same else 1
    args.output.write_text(text)
    print(f"wrote {args.output} ({BOARDS} boards, seed {SEED})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
