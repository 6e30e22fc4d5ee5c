"""The trick-taking rules of bridge card play, as a formal game.

A :class:`Position` is a complete deal (or an ending), a trump strain, the seat
that led to the first trick, and the cards played so far.  It knows whose turn
it is, which cards are legal, who won each trick, and can play and take back
cards.  The formal game view (``initial_state``, ``to_move``, ``actions``,
``result``, ``is_terminal``, ``utility``) is given by :class:`TrickGame`, with
utility = North-South's tricks.

Rules: each player must follow the suit led if able; a trick is won by the
highest trump in it, else by the highest card of the suit led; the winner of
a trick leads to the next one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import ALL_CARDS, Card, CardLike, Seat, SeatLike, Strain, StrainLike
from .errors import IllegalPlayError
from .hands import Deal, Hand

__all__ = ["Position", "Trick", "TrickGame", "trick_winner"]


def trick_winner(leader: Seat, cards: Sequence[Card], strain: Strain) -> Seat:
    """The seat that wins a complete or partial trick led by ``leader``.

    ``cards`` are in playing order.  The highest trump wins, else the highest card
    of the suit led.
    """
    if not cards:
        raise ValueError("an empty trick has no winner")
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        if c.suit == b.suit:
            if c.rank > b.rank:
                best = i
        elif strain != Strain.NOTRUMP and c.suit == strain:
            best = i
    return leader.next(best)


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick: who led, the cards in playing order, and (if complete) who won it."""

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat | None

    def seat_of(self, i: int) -> Seat:
        return self.leader.next(i)

    def __str__(self) -> str:
        return f"{self.leader.letter}: " + " ".join(str(c) for c in self.cards)


class Position:
    """A position in the play: a deal, a trump strain, the opening leader, and the
    cards played so far.  Mutable: :meth:`play` and :meth:`undo` move through the game.

    :param deal: every hand must be known; hands may hold fewer than 13 cards (an ending).
    :param strain: the trump strain (``"NT"`` for no-trump).
    :param leader: who leads to the first trick.
    :param played: cards already played, in order, from the first lead on.
    :raises DealError: if a hand is unknown.
    :raises IllegalPlayError: if a card in ``played`` is not held or is a revoke.
    """

    __slots__ = ("deal", "strain", "leader", "_masks", "_history", "_trick_leader", "_trick",
                 "_tricks", "_won")

    def __init__(self, deal: Deal, strain: StrainLike, leader: SeatLike,
                 played: Iterable[CardLike] = ()):
        deal.require_complete()
        self.deal = deal
        self.strain = Strain.parse(strain)
        self.leader = Seat.parse(leader)
        self._masks = [list(h.masks) for h in deal.hands]  # type: ignore[union-attr]
        self._history: list[tuple[Seat, Card]] = []
        self._trick_leader = self.leader
        self._trick: list[Card] = []
        self._tricks: list[Trick] = []
        self._won = [0, 0]  # tricks won by N-S, E-W
        for i, c in enumerate(played):
            try:
                self.play(c)
            except IllegalPlayError as err:
                raise IllegalPlayError(f"card {i + 1} of the play: {err}") from None

    # ---- the state ------------------------------------------------------
    @property
    def to_move(self) -> Seat:
        """The seat to play next."""
        return self._trick_leader.next(len(self._trick))

    @property
    def trick_leader(self) -> Seat:
        """Who led (or will lead) the current trick."""
        return self._trick_leader

    @property
    def current_trick(self) -> tuple[Card, ...]:
        """Cards played to the trick in progress (empty at a trick boundary)."""
        return tuple(self._trick)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        return tuple(self._tricks)

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played so far, in order."""
        return tuple(c for _, c in self._history)

    @property
    def history(self) -> tuple[tuple[Seat, Card], ...]:
        return tuple(self._history)

    @property
    def tricks_ns(self) -> int:
        return self._won[0]

    @property
    def tricks_ew(self) -> int:
        return self._won[1]

    def tricks_won(self, seat: SeatLike) -> int:
        """Tricks won so far by ``seat``'s side."""
        return self._won[Seat.parse(seat) & 1]

    @property
    def cards_left(self) -> int:
        """Cards still to be played, over all four hands."""
        return sum(bin(m).count("1") for hand in self._masks for m in hand)

    @property
    def tricks_left(self) -> int:
        """Tricks not yet complete (the trick in progress counts)."""
        return (self.cards_left + len(self._trick)) // 4

    @property
    def is_terminal(self) -> bool:
        return self.cards_left == 0

    def hand(self, seat: SeatLike) -> Hand:
        """The cards ``seat`` still holds."""
        return Hand(tuple(self._masks[Seat.parse(seat)]))

    def remaining_deal(self) -> Deal:
        """The cards still held, as a deal.  Not a valid :class:`Deal` inside a trick, where
        hands hold unequal numbers; use it at trick boundaries."""
        return Deal(tuple(self.hand(s) for s in Seat))

    def legal_cards(self) -> list[Card]:
        """The cards the player to move may play, in writing order (S..C, high to low)."""
        masks = self._masks[self.to_move]
        suits: Iterable[int] = range(4)
        if self._trick:
            led = self._trick[0].suit
            if masks[led]:
                suits = (led,)
        out = []
        for s in suits:
            m = masks[s]
            for r in range(14, 1, -1):
                if m >> r & 1:
                    out.append(ALL_CARDS[s * 13 + r - 2])
        return out

    def is_legal(self, card: CardLike) -> bool:
        c = Card.parse(card)
        masks = self._masks[self.to_move]
        if not masks[c.suit] >> c.rank & 1:
            return False
        if self._trick:
            led = self._trick[0].suit
            return c.suit == led or masks[led] == 0
        return True

    # ---- moving ---------------------------------------------------------
    def play(self, card: CardLike) -> None:
        """Play ``card`` for the player to move.

        :raises IllegalPlayError: if the game is over, the card is not in the mover's hand,
            or it fails to follow suit.
        """
        c = Card.parse(card)
        seat = self.to_move
        masks = self._masks[seat]
        if self.is_terminal:
            raise IllegalPlayError(f"cannot play {c}: every card has been played")
        if not masks[c.suit] >> c.rank & 1:
            holder = next((s for s in Seat if self._masks[s][c.suit] >> c.rank & 1), None)
            where = (f"it is held by {holder.letter}" if holder is not None
                     else "it has already been played")
            raise IllegalPlayError(f"{seat.letter} to play cannot play {c}: {where}")
        if self._trick:
            led = self._trick[0].suit
            if c.suit != led and masks[led]:
                raise IllegalPlayError(f"{seat.letter} cannot play {c}: must follow suit to "
                                       f"{self._trick[0]} ({'SHDC'[led]} held)")
        masks[c.suit] &= ~(1 << c.rank)
        self._history.append((seat, c))
        self._trick.append(c)
        if len(self._trick) == 4:
            winner = trick_winner(self._trick_leader, self._trick, self.strain)
            self._tricks.append(Trick(self._trick_leader, tuple(self._trick), winner))
            self._won[winner & 1] += 1
            self._trick_leader = winner
            self._trick = []

    def undo(self) -> Card:
        """Take back the last card played and return it.

        :raises IllegalPlayError: if no card has been played.
        """
        if not self._history:
            raise IllegalPlayError("no card to take back")
        seat, c = self._history.pop()
        if not self._trick:
            last = self._tricks.pop()
            self._won[last.winner & 1] -= 1  # type: ignore[operator]
            self._trick_leader = last.leader
            self._trick = list(last.cards)
        self._trick.pop()
        self._masks[seat][c.suit] |= 1 << c.rank
        return c

    def copy(self) -> Position:
        other = Position.__new__(Position)
        other.deal = self.deal
        other.strain = self.strain
        other.leader = self.leader
        other._masks = [list(m) for m in self._masks]
        other._history = list(self._history)
        other._trick_leader = self._trick_leader
        other._trick = list(self._trick)
        other._tricks = list(self._tricks)
        other._won = list(self._won)
        return other

    def __repr__(self) -> str:
        played = " ".join(str(c) for c in self.played)
        return (f"Position({self.deal!r}, {self.strain.letter!r}, {self.leader.letter!r}, "
                f"played={played.split()!r})")


class TrickGame:
    """The formal game over :class:`Position` states (functional: ``result`` copies).

    utility = tricks taken by North-South over the whole play.
    """

    def __init__(self, deal: Deal, strain: StrainLike, leader: SeatLike):
        self._initial = Position(deal, strain, leader)

    def initial_state(self) -> Position:
        return self._initial.copy()

    @staticmethod
    def to_move(state: Position) -> Seat:
        return state.to_move

    @staticmethod
    def actions(state: Position) -> list[Card]:
        return state.legal_cards()

    @staticmethod
    def result(state: Position, action: CardLike) -> Position:
        nxt = state.copy()
        nxt.play(action)
        return nxt

    @staticmethod
    def is_terminal(state: Position) -> bool:
        return state.is_terminal

    @staticmethod
    def utility(state: Position) -> int:
        return state.tricks_ns
