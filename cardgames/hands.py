"""Hands and deals.

A :class:`Hand` is a set of cards stored as four 16-bit rank masks (bit ``r`` set
when the hand holds rank ``r`` of that suit), the same encoding the solver core
uses, so handing a deal to the solver costs nothing.  A :class:`Deal` is four
hands, any of which may be unknown (``None``), as in a PBN ``Deal`` tag with ``-``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from .cards import ALL_CARDS, RANK_LETTERS, Card, CardLike, Seat, SeatLike, Suit, SuitLike
from .errors import DealError, ParseError
from .html import deal_html

__all__ = ["Hand", "Deal", "HCP_BY_RANK"]

#: Milton Work high-card points by rank.
HCP_BY_RANK = {14: 4, 13: 3, 12: 2, 11: 1}
_FULL_SUIT = 0x7FFC  # bits 2..14


def _popcount(x: int) -> int:
    return bin(x).count("1")


def _ranks_desc(mask: int) -> Iterator[int]:
    for r in range(14, 1, -1):
        if mask >> r & 1:
            yield r


@dataclass(frozen=True, slots=True)
class Hand:
    """A set of cards, held as four rank masks in suit order S, H, D, C.

    ``Hand.from_pbn("AKQ2.KJ3.T94.A65")``; ``str(hand)`` gives the same text back.
    """

    masks: tuple[int, ...] = (0, 0, 0, 0)

    def __post_init__(self) -> None:
        masks = tuple(int(m) for m in self.masks)
        if len(masks) != 4 or any(m & ~_FULL_SUIT for m in masks):
            raise DealError(f"hand masks must be four 13-bit rank masks (bits 2..14): {self.masks!r}")
        object.__setattr__(self, "masks", masks)

    # ---- construction -------------------------------------------------
    @classmethod
    def from_cards(cls, cards: Iterable[CardLike]) -> Hand:
        """Build a hand from cards (or card strings).

        :raises DealError: if a card appears twice.
        """
        masks = [0, 0, 0, 0]
        for c in cards:
            card = Card.parse(c)
            bit = 1 << card.rank
            if masks[card.suit] & bit:
                raise DealError(f"card {card} appears twice in the hand")
            masks[card.suit] |= bit
        return cls(tuple(masks))

    @classmethod
    def from_pbn(cls, text: str) -> Hand:
        """Parse ``"AKQ2.KJ3.T94.A65"`` (suits S.H.D.C; ``T`` or ``10`` for the ten; empty
        suits allowed, so ``".AK.."`` is a hand holding two hearts).

        :raises ParseError: for a bad character or a wrong number of suits.
        :raises DealError: for a card written twice.
        """
        if not isinstance(text, str):
            raise ParseError(f"cannot make a hand from {type(text).__name__}", repr(text))
        suits = text.split(".")
        if len(suits) != 4:
            raise ParseError(f"a hand needs 4 suits separated by '.', found {len(suits)}", text)
        masks = [0, 0, 0, 0]
        pos = 0
        for s, chunk in enumerate(suits):
            i = 0
            while i < len(chunk):
                ch = chunk[i].upper()
                if ch == "1" and chunk[i + 1:i + 2] == "0":
                    rank, width = 10, 2
                elif ch in _RANK_CHARS:
                    rank, width = _RANK_CHARS[ch], 1
                else:
                    raise ParseError(f"bad rank character {chunk[i]!r} in the {'SHDC'[s]} suit",
                                     text, pos + i)
                bit = 1 << rank
                if masks[s] & bit:
                    raise DealError(f"card {'SHDC'[s]}{RANK_LETTERS[rank]} appears twice in hand {text!r}")
                masks[s] |= bit
                i += width
            pos += len(chunk) + 1
        return cls(tuple(masks))

    def to_pbn(self) -> str:
        """PBN text, suits S.H.D.C, ranks high to low, ``T`` for the ten."""
        return ".".join("".join(RANK_LETTERS[r] for r in _ranks_desc(m)) for m in self.masks)

    # ---- queries ------------------------------------------------------
    def __len__(self) -> int:
        return sum(_popcount(m) for m in self.masks)

    def __iter__(self) -> Iterator[Card]:
        """Cards in writing order: spades first, high to low within a suit."""
        for s, m in enumerate(self.masks):
            for r in _ranks_desc(m):
                yield ALL_CARDS[s * 13 + r - 2]

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = Card.parse(card)
        if not isinstance(card, Card):
            return False
        return bool(self.masks[card.suit] >> card.rank & 1)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(self)

    def suit_cards(self, suit: SuitLike) -> tuple[Card, ...]:
        """The cards of one suit, high to low."""
        s = Suit.parse(suit)
        return tuple(ALL_CARDS[s * 13 + r - 2] for r in _ranks_desc(self.masks[s]))

    def length(self, suit: SuitLike) -> int:
        return _popcount(self.masks[Suit.parse(suit)])

    @property
    def lengths(self) -> tuple[int, int, int, int]:
        """Suit lengths in the order S, H, D, C."""
        return tuple(_popcount(m) for m in self.masks)  # type: ignore[return-value]

    @property
    def shape(self) -> tuple[int, int, int, int]:
        """Suit lengths, longest first (``(4, 3, 3, 3)``)."""
        return tuple(sorted(self.lengths, reverse=True))  # type: ignore[return-value]

    @property
    def hcp(self) -> int:
        """High-card points: A=4, K=3, Q=2, J=1."""
        return sum(pts for m in self.masks for r, pts in HCP_BY_RANK.items() if m >> r & 1)

    @property
    def is_balanced(self) -> bool:
        """4333, 4432 or 5332."""
        return self.shape in ((4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2))

    # ---- set operations ----------------------------------------------
    def add(self, card: CardLike) -> Hand:
        c = Card.parse(card)
        if self.masks[c.suit] >> c.rank & 1:
            raise DealError(f"card {c} is already in the hand")
        m = list(self.masks)
        m[c.suit] |= 1 << c.rank
        return Hand(tuple(m))

    def remove(self, card: CardLike) -> Hand:
        c = Card.parse(card)
        if not self.masks[c.suit] >> c.rank & 1:
            raise DealError(f"card {c} is not in the hand")
        m = list(self.masks)
        m[c.suit] &= ~(1 << c.rank)
        return Hand(tuple(m))

    def __or__(self, other: Hand) -> Hand:
        return Hand(tuple(a | b for a, b in zip(self.masks, other.masks)))

    def __and__(self, other: Hand) -> Hand:
        return Hand(tuple(a & b for a, b in zip(self.masks, other.masks)))

    def __sub__(self, other: Hand) -> Hand:
        return Hand(tuple(a & ~b for a, b in zip(self.masks, other.masks)))

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        return f"Hand.from_pbn({self.to_pbn()!r})"


_RANK_CHARS = {c: i for i, c in enumerate(RANK_LETTERS) if i >= 2}


@dataclass(frozen=True, slots=True)
class Deal:
    """Four hands, indexed by :class:`Seat`; a hand may be ``None`` (unknown).

    ``Deal.from_pbn("N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872")``.
    A deal can also be an ending: all known hands hold the same number of cards,
    fewer than 13.  Construction checks that no card is held twice and that the
    counts are equal.
    """

    hands: tuple[Hand | None, ...]

    def __post_init__(self) -> None:
        hands = tuple(self.hands)
        if len(hands) != 4:
            raise DealError(f"a deal has 4 hands, got {len(hands)}")
        for h in hands:
            if h is not None and not isinstance(h, Hand):
                raise DealError(f"a deal's hands must be Hand or None, got {type(h).__name__}")
        object.__setattr__(self, "hands", hands)
        self._validate()

    def _validate(self) -> None:
        seen = [0, 0, 0, 0]
        counts = []
        for seat, h in zip(Seat, self.hands):
            if h is None:
                continue
            for s in range(4):
                dup = seen[s] & h.masks[s]
                if dup:
                    r = next(_ranks_desc(dup))
                    raise DealError(f"card {'SHDC'[s]}{RANK_LETTERS[r]} is in more than one hand "
                                    f"(seen again in {seat.letter}'s hand)")
                seen[s] |= h.masks[s]
            counts.append((seat, len(h)))
        if counts:
            n = counts[0][1]
            if n > 13:
                raise DealError(f"{counts[0][0].letter}'s hand has {n} cards (at most 13)")
            for _seat, c in counts[1:]:
                if c != n:
                    detail = ", ".join(f"{st.letter} {k}" for st, k in counts)
                    raise DealError(f"hands must hold equal numbers of cards ({detail})")

    # ---- construction -------------------------------------------------
    @classmethod
    def from_hands(cls, north: Hand | str | None, east: Hand | str | None,
                   south: Hand | str | None, west: Hand | str | None) -> Deal:
        def conv(h: Hand | str | None) -> Hand | None:
            return Hand.from_pbn(h) if isinstance(h, str) else h
        return cls((conv(north), conv(east), conv(south), conv(west)))

    @classmethod
    def from_pbn(cls, text: str, *, require_complete: bool = False) -> Deal:
        """Parse a PBN deal: ``"<first seat>:<hand> <hand> <hand> <hand>"``, hands clockwise
        from the first seat, ``-`` for an unknown hand.

        :param require_complete: if true, every hand must be known.
        :raises ParseError: for a malformed string (the message gives the column).
        :raises DealError: for a card held twice, unequal hand sizes, or (with
            ``require_complete``) a missing hand.
        """
        if not isinstance(text, str):
            raise ParseError(f"cannot make a deal from {type(text).__name__}", repr(text))
        stripped = text.strip()
        if len(stripped) < 2 or stripped[1] != ":":
            raise ParseError("a PBN deal starts with the first seat and a colon, like 'N:'",
                             text, 0)
        try:
            first = Seat.parse(stripped[0])
        except ParseError:
            raise ParseError("a PBN deal starts with N, E, S or W and a colon", text, 0) from None
        body = stripped[2:]
        parts = body.split()
        if len(parts) != 4:
            raise ParseError(f"a PBN deal has 4 hands separated by spaces, found {len(parts)}", text)
        hands: list[Hand | None] = [None] * 4
        offset = text.find(body) if body else 2
        for i, part in enumerate(parts):
            col = text.find(part, offset)
            offset = col + len(part)
            seat = first.next(i)
            if part == "-":
                if require_complete:
                    raise DealError(f"{seat.letter}'s hand is missing ('-') in deal {text!r}")
                continue
            try:
                hands[seat] = Hand.from_pbn(part)
            except ParseError as err:
                pos = None if err.position is None else col + err.position
                raise ParseError(f"{seat.letter}'s hand: {err.message}", text, pos) from None
            except DealError as err:
                raise DealError(f"{seat.letter}'s hand: {err}") from None
        try:
            return cls(tuple(hands))
        except DealError as err:
            raise DealError(f"{err} in deal {text!r}") from None

    def to_pbn(self, first: SeatLike = Seat.NORTH) -> str:
        """PBN deal text starting from ``first`` (default North); ``-`` for unknown hands."""
        f = Seat.parse(first)
        parts = []
        for i in range(4):
            h = self.hands[f.next(i)]
            parts.append("-" if h is None else h.to_pbn())
        return f"{f.letter}:" + " ".join(parts)

    # ---- queries ------------------------------------------------------
    def __getitem__(self, seat: SeatLike) -> Hand | None:
        return self.hands[Seat.parse(seat)]

    @property
    def north(self) -> Hand | None:
        return self.hands[0]

    @property
    def east(self) -> Hand | None:
        return self.hands[1]

    @property
    def south(self) -> Hand | None:
        return self.hands[2]

    @property
    def west(self) -> Hand | None:
        return self.hands[3]

    @property
    def is_complete(self) -> bool:
        """Every hand known."""
        return all(h is not None for h in self.hands)

    @property
    def cards_per_hand(self) -> int:
        """Cards in each known hand (13 for a full deal); 0 if no hand is known."""
        for h in self.hands:
            if h is not None:
                return len(h)
        return 0

    def holder(self, card: CardLike) -> Seat | None:
        """The seat holding ``card``, or None if no known hand holds it."""
        c = Card.parse(card)
        for seat, h in zip(Seat, self.hands):
            if h is not None and h.masks[c.suit] >> c.rank & 1:
                return seat
        return None

    def require_complete(self) -> Deal:
        """Return self, or raise :class:`DealError` naming the first unknown hand."""
        for seat, h in zip(Seat, self.hands):
            if h is None:
                raise DealError(f"{seat.letter}'s hand is unknown; all four hands are needed")
        return self

    def replace(self, seat: SeatLike, hand: Hand | str | None) -> Deal:
        """A copy with one hand replaced."""
        hands = list(self.hands)
        hands[Seat.parse(seat)] = Hand.from_pbn(hand) if isinstance(hand, str) else hand
        return Deal(tuple(hands))

    def without(self, cards: Sequence[CardLike]) -> Deal:
        """A copy with the given cards removed from whichever hands hold them (for example
        the cards played so far).  Cards must come off evenly to keep a valid deal.

        :raises DealError: if a card is not in any known hand.
        """
        masks = [list(h.masks) if h is not None else None for h in self.hands]
        for c in cards:
            card = Card.parse(c)
            seat = self.holder(card)
            if seat is None or not masks[seat][card.suit] >> card.rank & 1:  # type: ignore[index]
                raise DealError(f"card {card} is not in any hand")
            masks[seat][card.suit] &= ~(1 << card.rank)  # type: ignore[index]
        return Deal(tuple(None if m is None else Hand(tuple(m)) for m in masks))

    def rotate(self, steps: int) -> Deal:
        """The deal with every hand moved ``steps`` seats clockwise."""
        return Deal(tuple(self.hands[(i - steps) & 3] for i in range(4)))

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        return f"Deal.from_pbn({self.to_pbn()!r})"

    def _repr_html_(self) -> str:
        """The deal as an HTML hand diagram, for Jupyter (:func:`cardgames.html.deal_html`)."""
        return deal_html(self)

    def diagram(self) -> str:
        """A plain-text diagram: North on top, West and East in the middle, South below."""
        def lines(h: Hand | None) -> list[str]:
            if h is None:
                return ["-", "", "", ""]
            return [f"{'SHDC'[s]} " + ("".join(RANK_LETTERS[r] for r in _ranks_desc(m)) or "-")
                    for s, m in enumerate(h.masks)]
        n, e, s, w = (lines(h) for h in self.hands)
        pad = " " * 12
        out = [pad + x for x in n]
        out += [f"{wl:<24}{el}" for wl, el in zip(w, e)]
        out += [pad + x for x in s]
        return "\n".join(x.rstrip() for x in out)
