"""Write ``data/session.pbn``: a 32-board session of random deals, reproducibly.

The deals come from ``random.Random(SEED)``: for each board in turn, the 52 cards are
shuffled and dealt 13 to each hand, North first.  ``Random.shuffle`` draws its numbers
the same way in every Python 3 release, so the same seed gives the same file anywhere.
Dealer and vulnerability follow the standard rotation of boards 1..16 (Law 2), taken
from :mod:`cardgames.scoring`.

The file is in PBN 2.1 export style: ``% PBN 2.1`` and ``% EXPORT`` at the top, then for
each board the fifteen tags of the mandatory tag set in their standard order, ``?`` for
what is unknown (players, contract, result), the deal written from the dealer's seat,
and a blank line after each board.

Run from the repository root (the output is written next to this script)::

    python data/make_session.py           # rewrite data/session.pbn
    python data/make_session.py --check   # exit 1 if the file differs from the generator
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

try:
    import cardgames  # noqa: F401  (installed, or the checkout is on the path)
except ImportError:  # run as a script from a source checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgames.cards import ALL_CARDS  # noqa: E402
from cardgames.hands import Deal, Hand  # noqa: E402
from cardgames.scoring import board_dealer, board_vulnerability  # noqa: E402

#: The seed of the session's deals.  Changing it changes every deal.
SEED = 20261122
BOARDS = 32
EVENT = "ddsolver example session"
SITE = "ddsolver data/make_session.py"
DATE = "2026.11.22"
OUTPUT = Path(__file__).resolve().parent / "session.pbn"


def deals(seed: int = SEED, boards: int = BOARDS) -> list[Deal]:
    """The session's deals, board 1 first."""
    rng = random.Random(seed)
    out = []
    for _ in range(boards):
        cards = list(ALL_CARDS)
        rng.shuffle(cards)
        out.append(Deal(tuple(Hand.from_cards(cards[i * 13:(i + 1) * 13]) for i in range(4))))
    return out


def board_text(board: int, deal: Deal) -> str:
    """One board in export layout: the mandatory tags in order, no blank line."""
    dealer = board_dealer(board)
    tags = [
        ("Event", EVENT),
        ("Site", SITE),
        ("Date", DATE),
        ("Board", str(board)),
        ("West", "?"),
        ("North", "?"),
        ("East", "?"),
        ("South", "?"),
        ("Dealer", dealer.letter),
        ("Vulnerable", str(board_vulnerability(board))),
        ("Deal", deal.to_pbn(dealer)),
        ("Scoring", "?"),
        ("Declarer", "?"),
        ("Contract", "?"),
        ("Result", "?"),
    ]
    return "".join(f'[{name} "{value}"]\n' for name, value in tags)


def session_text(seed: int = SEED, boards: int = BOARDS) -> str:
    """The whole file."""
    parts = ["% PBN 2.1\n% EXPORT\n"]
    for board, deal in enumerate(deals(seed, boards), 1):
        parts.append(board_text(board, deal) + "\n")
    return "".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the file on disk instead of writing it")
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT,
                        help=f"where to write (default: {OUTPUT.name} beside this script)")
    args = parser.parse_args(argv)
    text = session_text()
    if args.check:
        same = args.output.exists() and args.output.read_text() == text
        print(f"{args.output}: {'up to date' if same else 'DIFFERS from the generator'}")
        return 0 if same else 1
    args.output.write_text(text)
    print(f"wrote {args.output} ({BOARDS} boards, seed {SEED})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
