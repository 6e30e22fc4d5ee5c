"""cardgames: the game model of contract bridge card play, in pure Python.

Cards, seats, strains, hands and deals; the trick-taking rules; PBN files;
scoring; dealing.  It knows nothing of the solver in :mod:`ddsolver`.
"""

from .cards import Card, Rank, Seat, Strain, Suit
from .errors import CardgamesError, DealError, IllegalPlayError, ParseError, PBNError
from .hands import Deal, Hand

__all__ = ["Card", "Rank", "Seat", "Strain", "Suit", "Hand", "Deal", "CardgamesError",
           "ParseError", "DealError", "IllegalPlayError", "PBNError"]
