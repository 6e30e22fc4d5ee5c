"""Seats, suits, strains, ranks and cards: the small value types of bridge.

Every type accepts the strings players write (``"N"``, ``"NT"``, ``"SA"``, ``"S10"``,
``"ST"``, ``"h9"``) through its ``parse`` classmethod, and prints itself the way
PBN writes it (``str(Card.parse("S10")) == "ST"``).

The numbering follows DDS, so that conversions at the solver boundary are free:
seats N=0 E=1 S=2 W=3 (clockwise), suits and strains S=0 H=1 D=2 C=3 NT=4, and
ranks 2..14 (ace = 14).
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import IntEnum

from .errors import ParseError

__all__ = ["Seat", "Suit", "Strain", "Rank", "Card", "SeatLike", "StrainLike", "SuitLike",
           "CardLike", "SUIT_NAMES", "runs", "cards_text"]


class Seat(IntEnum):
    """A player's seat.  Clockwise order: N, E, S, W."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @classmethod
    def parse(cls, value: SeatLike) -> Seat:
        """Accept a :class:`Seat`, an int 0..3, or ``"N"``/``"north"`` etc.

        :raises ParseError: for anything else.
        """
        if isinstance(value, Seat):
            return value
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            if 0 <= value <= 3:    # (numpy's integers too)
                return cls(int(value))
            raise ParseError("seat number must be 0..3", str(value))
        if isinstance(value, str):
            key = value.strip().upper()
            if key in _SEAT_NAMES:
                return _SEAT_NAMES[key]
            raise ParseError("unknown seat (expected N, E, S or W)", value)
        raise ParseError(f"cannot make a seat from {type(value).__name__}", repr(value))

    @property
    def letter(self) -> str:
        return "NESW"[self]

    @property
    def lho(self) -> Seat:
        """Left-hand opponent: the next seat clockwise (who plays after this one)."""
        return Seat((self + 1) & 3)

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) & 3)

    @property
    def rho(self) -> Seat:
        """Right-hand opponent: the previous seat clockwise."""
        return Seat((self + 3) & 3)

    def next(self, steps: int = 1) -> Seat:
        """The seat ``steps`` places clockwise."""
        return Seat((self + steps) & 3)

    @property
    def is_ns(self) -> bool:
        """True for North and South."""
        return not (self & 1)

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Seat.{self.name}"


_SEAT_NAMES = {}
for _s in Seat:
    _SEAT_NAMES[_s.letter] = _s
    _SEAT_NAMES[_s.name] = _s


class Strain(IntEnum):
    """A denomination: the four suits, then no-trump."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3
    NOTRUMP = 4

    @classmethod
    def parse(cls, value: StrainLike) -> Strain:
        """Accept a :class:`Strain`/:class:`Suit`, an int 0..4, or ``"S"``, ``"NT"``, ``"N"``,
        ``"spades"``, ``"♠"`` ...

        :raises ParseError: for anything else.
        """
        if isinstance(value, Strain):
            return value
        if isinstance(value, Suit):
            return cls(int(value))
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            if 0 <= value <= 4:
                return cls(int(value))
            raise ParseError("strain number must be 0..4", str(value))
        if isinstance(value, str):
            key = value.strip().upper()
            if key in _STRAIN_NAMES:
                return _STRAIN_NAMES[key]
            raise ParseError("unknown strain (expected S, H, D, C or NT)", value)
        raise ParseError(f"cannot make a strain from {type(value).__name__}", repr(value))

    @property
    def letter(self) -> str:
        """``S H D C NT``."""
        return ("S", "H", "D", "C", "NT")[self]

    @property
    def is_suit(self) -> bool:
        return self != Strain.NOTRUMP

    @property
    def suit(self) -> Suit | None:
        """The trump suit, or None for no-trump."""
        return None if self == Strain.NOTRUMP else Suit(int(self))

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Strain.{self.name}"


_STRAIN_NAMES = {"NT": Strain.NOTRUMP, "N": Strain.NOTRUMP, "NOTRUMP": Strain.NOTRUMP,
                 "NOTRUMPS": Strain.NOTRUMP, "NO-TRUMP": Strain.NOTRUMP, "NO TRUMP": Strain.NOTRUMP,
                 "NO TRUMPS": Strain.NOTRUMP, "SA": Strain.NOTRUMP}
for _st, _names in ((Strain.SPADES, ("S", "SPADE", "SPADES", "♠")),
                    (Strain.HEARTS, ("H", "HEART", "HEARTS", "♥")),
                    (Strain.DIAMONDS, ("D", "DIAMOND", "DIAMONDS", "♦")),
                    (Strain.CLUBS, ("C", "CLUB", "CLUBS", "♣"))):
    for _n in _names:
        _STRAIN_NAMES[_n] = _st
del _STRAIN_NAMES["SA"]  # "SA" would read as French sans-atout but clashes with the ace of spades


class Suit(IntEnum):
    """One of the four suits, in the order S, H, D, C (PBN's order within a hand)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @classmethod
    def parse(cls, value: SuitLike) -> Suit:
        """Accept a :class:`Suit`, a suit :class:`Strain`, an int 0..3, or ``"S"``, ``"spades"``,
        ``"♠"`` ...

        :raises ParseError: for anything else (no-trump included).
        """
        if isinstance(value, Suit):
            return value
        if isinstance(value, (Strain, str)) or (isinstance(value, numbers.Integral) and
                                                not isinstance(value, bool)):
            try:
                strain = Strain.parse(value)
            except ParseError as err:
                raise ParseError("unknown suit (expected S, H, D or C)", str(value)) from err
            if strain == Strain.NOTRUMP:
                raise ParseError("no-trump is not a suit", str(value))
            return cls(int(strain))
        raise ParseError(f"cannot make a suit from {type(value).__name__}", repr(value))

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def strain(self) -> Strain:
        return Strain(int(self))

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


#: The suits' names as a message or a constraint writes them, indexed by :class:`Suit`.
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


class Rank(IntEnum):
    """A card's rank, 2..14 (ace high)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @classmethod
    def parse(cls, value: Rank | int | str) -> Rank:
        """Accept a :class:`Rank`, an int 2..14, or ``"A"``, ``"K"``, ``"T"``, ``"10"``, ``"9"``...

        :raises ParseError: for anything else.
        """
        if isinstance(value, Rank):
            return value
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            if 2 <= value <= 14:
                return cls(int(value))
            raise ParseError("rank number must be 2..14", str(value))
        if isinstance(value, str):
            key = value.strip().upper()
            if key in _RANK_NAMES:
                return cls(_RANK_NAMES[key])
            raise ParseError("unknown rank (expected A K Q J T 9 .. 2)", value)
        raise ParseError(f"cannot make a rank from {type(value).__name__}", repr(value))

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self]

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


#: PBN's rank characters, indexed by rank number (index 0 and 1 unused).
RANK_LETTERS = "--23456789TJQKA"
_RANK_NAMES = {c: i for i, c in enumerate(RANK_LETTERS) if i >= 2}
_RANK_NAMES["10"] = 10


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """A playing card.  ``Card.parse("SA")``; ``str(card) == "SA"``.

    Cards compare and sort by suit (S, H, D, C) then by rank, highest first in
    each suit, which is the order a hand is written in.
    """

    suit: Suit
    rank: Rank

    def __post_init__(self) -> None:
        # Normalise ints to the enum types so equal cards are equal and hash alike.
        if type(self.suit) is not Suit:
            object.__setattr__(self, "suit", Suit.parse(self.suit))
        if type(self.rank) is not Rank:
            object.__setattr__(self, "rank", Rank.parse(self.rank))

    @classmethod
    def parse(cls, value: CardLike) -> Card:
        """Accept a :class:`Card` or a string: suit letter then rank, ``"SA"``, ``"S10"``,
        ``"ST"``, ``"h9"``; rank then suit also works (``"AS"``, ``"10H"``); the suit may be
        its symbol, as strains take it (``"♠A"``, ``"10♥"``).

        :raises ParseError: if the text is not a card.
        """
        if isinstance(value, Card):
            return value
        if not isinstance(value, str):
            raise ParseError(f"cannot make a card from {type(value).__name__}", repr(value))
        text = value.strip().translate(_SUIT_SYMBOLS)
        card = _CARD_NAMES.get(text.upper())
        if card is None:
            raise ParseError("not a card (expected suit then rank, like SA, H10 or DT)", value)
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Inverse of :attr:`index` (0..51)."""
        try:
            i = operator.index(index)
        except TypeError:
            raise TypeError(f"a card index is a whole number 0..51, not "
                            f"{type(index).__name__}") from None
        if not 0 <= i < 52:     # (ALL_CARDS[-1] would be a card)
            raise ValueError(f"a card index is 0..51, got {i}")
        return ALL_CARDS[i]

    @property
    def index(self) -> int:
        """0..51: suit * 13 + (rank - 2).  A compact, stable number for the card."""
        return self.suit * 13 + self.rank - 2

    @property
    def strain(self) -> Strain:
        return Strain(int(self.suit))

    def __str__(self) -> str:
        return "SHDC"[self.suit] + RANK_LETTERS[self.rank]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def _sort_key(self) -> tuple[int, int]:
        return (self.suit, -self.rank)

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._sort_key() < other._sort_key()

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._sort_key() <= other._sort_key()

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._sort_key() > other._sort_key()

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._sort_key() >= other._sort_key()


ALL_CARDS: tuple[Card, ...] = tuple(Card(Suit(s), Rank(r)) for s in range(4) for r in range(2, 15))
_CARD_NAMES: dict[str, Card] = {}
for _c in ALL_CARDS:
    for _rn in ([RANK_LETTERS[_c.rank]] + (["10"] if _c.rank == 10 else [])):
        _CARD_NAMES["SHDC"[_c.suit] + _rn] = _c
        _CARD_NAMES[_rn + "SHDC"[_c.suit]] = _c

#: The suit symbols (black and white) as the suit letters, for :meth:`Card.parse`.
_SUIT_SYMBOLS = str.maketrans("♠♥♦♣♤♡♢♧", "SHDCSHDC")

SeatLike = Seat | int | str
StrainLike = Strain | Suit | int | str
SuitLike = Suit | Strain | int | str
CardLike = Card | str


def runs(cards: Iterable[Card], between: Callable[[Card], bool] = lambda card: False
         ) -> list[tuple[Card, ...]]:
    """``cards`` split into runs of equivalent cards: one suit, and every card ranked between
    two neighbours of a run passes ``between`` (say, it is gone from play); highest first,
    suits in the order S H D C.  With no ``between``, runs of touching ranks.

    >>> ["/".join(map(str, r)) for r in runs(map(Card.parse, ["SK", "SQ", "S7", "DT", "D8"]))]
    ['SK/SQ', 'S7', 'DT', 'D8']
    """
    out: list[tuple[Card, ...]] = []
    run: list[Card] = []
    for card in sorted(cards):
        if run and run[-1].suit == card.suit and all(
                between(Card(card.suit, Rank(r))) for r in range(card.rank + 1, run[-1].rank)):
            run.append(card)
            continue
        if run:
            out.append(tuple(run))
        run = [card]
    if run:
        out.append(tuple(run))
    return out


def cards_text(cards: Iterable[Card]) -> str:
    """The cards, sorted as a hand is written, separated by spaces: what a message or a
    constraint (``holds SA HK``) shows of a set of cards.

    >>> cards_text({Card.parse("HK"), Card.parse("SA")})
    'SA HK'
    """
    return " ".join(str(c) for c in sorted(cards))
