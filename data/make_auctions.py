"""Write ``auctions.pbn``: boards with an auction, the players' names and the opening lead
made at the table, for ``ddsolver leads data/auctions.pbn``.

Each deal is dealt at random so that every hand fits what the standard system
(``cardgames/systems/standard.toml``) says its calls show -- except board 3, whose
declarer has a point fewer than his 1NT promised, so that the report has a real hand
that breaks its inferred constraint to show.  The lead is the one a player might make:
fourth highest of the longest suit (the higher-ranking of equals), the top of a doubleton.

    python data/make_auctions.py            # write data/auctions.pbn
    python data/make_auctions.py --check    # does the file match this script?
"""

from __future__ import annotations

import sys
from pathlib import Path

from cardgames import pbn
from cardgames.auction import Auction
from cardgames.bidding import default_system, infer
from cardgames.sampling import Sampler
from cardgames.scoring import board_vulnerability

SEED = 20261124
OUT = Path(__file__).with_name("auctions.pbn")
NAMES = {"N": "Nolan", "E": "Evans", "S": "Singh", "W": "Wong"}

#: (board, dealer, auction, extra constraints on the real deal, how the lead is written)
BOARDS = [
    (1, "N", "1NT P 3NT AP", {}, "Play"),
    (2, "E", "P 1S P 2S P 4S AP", {}, "Lead"),
    (3, "S", "1NT P 3NT AP", {"S": "14 hcp, balanced"}, "Play"),
    (4, "W", "1H P 1S P 2H P 4H AP", {}, "Play"),
]


def lead_of(hand) -> str:
    suits = sorted(range(4), key=lambda s: (-hand.length(s), s))
    cards = hand.suit_cards(suits[0])
    return str(cards[3] if len(cards) >= 4 else cards[0])


def games() -> list[pbn.Game]:
    out = []
    for board, dealer, calls, extra, how in BOARDS:
        auction = Auction.parse(calls, dealer=dealer)
        contract = auction.contract
        assert contract is not None and contract.declarer is not None
        cons = dict(infer(auction, default_system()).constraints)
        for seat, text in extra.items():
            cons = {s: c for s, c in cons.items() if s.letter != seat}
            cons[seat] = text  # type: ignore[index]
        deal = Sampler({}, cons, seed=SEED + board).sample(1)[0]
        leader = contract.declarer.lho
        g = pbn.Game()
        g.set_tag("Event", "ddsolver example auctions")
        g.set_tag("Site", "ddsolver data/make_auctions.py")
        g.set_tag("Board", str(board))
        for seat in "WNES":
            g.set_tag({"N": "North", "E": "East", "S": "South", "W": "West"}[seat],
                      NAMES[seat])
        g.set_tag("Dealer", dealer)
        g.set_tag("Vulnerable", str(board_vulnerability(board)))
        g.set_tag("Deal", deal.to_pbn(dealer))
        g.set_tag("Declarer", contract.declarer.letter)
        g.set_tag("Contract", f"{contract.level}{contract.strain.letter}")
        words = [c.name if not c.is_pass else "Pass" for c in auction.calls]
        g.set_section("Auction", dealer, [" ".join(words[i:i + 4])
                                         for i in range(0, len(words), 4)])
        lead = lead_of(deal[leader])
        if how == "Lead":
            g.set_tag("Lead", lead)
        else:
            g.set_section("Play", leader.letter, [f"{lead} - - -", "*"])
        out.append(g)
    return out


def main(argv: list[str]) -> int:
    text = pbn.dumps(games())
    if "--check" in argv:
        same = OUT.read_text() == text
        print("auctions.pbn matches make_auctions.py" if same else "auctions.pbn differs")
        return 0 if same else 1
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
