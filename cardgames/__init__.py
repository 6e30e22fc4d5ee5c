"""cardgames: the game model of contract bridge card play, in pure Python.

Cards, seats, strains, hands and deals; the trick-taking rules; PBN files;
scoring; hand evaluation, constraints on hands and dealing under them; the auction and
what a bidding system says about the hands.
It knows nothing of the solver in :mod:`ddsolver`.
"""

from .auction import Auction, Call
from .cards import Card, Rank, Seat, Strain, Suit
from .errors import (
    BiddingSystemError,
    CardgamesError,
    DealError,
    IllegalCallError,
    IllegalPlayError,
    ParseError,
    PBNError,
    SamplingError,
)
from .hands import Deal, Hand

__all__ = ["Card", "Rank", "Seat", "Strain", "Suit", "Hand", "Deal", "Auction", "Call",
           "CardgamesError", "ParseError", "DealError", "IllegalPlayError", "PBNError",
           "IllegalCallError", "BiddingSystemError", "SamplingError"]
