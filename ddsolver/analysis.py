"""Play analysis: how many tricks each card of a played deal cost, double dummy.

:func:`analyse_play` follows the play card by card and, after each card, asks the solver how
many tricks declarer's side would end with if everybody played perfectly from there (the
tricks already won included).  The numbers are DDS's ``AnalysePlay`` trace.  With perfect
play the number never moves; it moves only when a card costs its side tricks: down when
declarer's side errs, up when the defenders do.  Those cards are the errors.

One :class:`~ddsolver.solver.Solver` answers every question about the deal, so its
transposition table carries over from one card to the next and each later position is
quick.  A card that is its player's only legal card cannot change the value, so it is not
solved again; nor is the last trick, where every card is forced.

>>> from cardgames import Deal
>>> deal = Deal.from_pbn("N:AQ... .32.. 54... K2...")
>>> a = analyse_play(deal, "NT", "N", ["SA", "H3", "S4", "SK"])   # West throws the king
>>> a.declarer, a.tricks
(Seat.WEST, [1, 1, 1, 1, 0])
>>> [(str(e.card), e.seat.letter, e.cost) for e in a.errors]
[('SK', 'W', 1)]
>>> print(a.errors[0])
card 4 (trick 1): W played SK, declarer's side lost 1 trick
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from cardgames.cards import Card, CardLike, Seat, SeatLike, Strain, StrainLike
from cardgames.hands import Deal
from cardgames.play import Position

from .errors import IllegalPlayError, ParseError
from .solver import DEFAULT_TT_MB, Solver, as_deal, played_items, thread_solver

__all__ = ["CostlyCard", "PlayAnalysis", "analyse_play", "analysis_of_trace"]


@dataclass(frozen=True, slots=True)
class CostlyCard:
    """A card that cost its side tricks, double dummy.

    ``index`` is the card's 0-based place in the play, ``trick`` the 1-based trick it was
    played to, ``seat`` who played it and ``declaring`` whether that seat is on declarer's
    side.  ``cost`` is how many tricks its side lost by it (at least 1); ``before`` and
    ``after`` are declarer's side's double-dummy tricks before and after it.
    """

    index: int
    trick: int
    seat: Seat
    card: Card
    declaring: bool
    cost: int
    before: int
    after: int

    @property
    def side(self) -> str:
        """``"NS"`` or ``"EW"``: the side that played the card."""
        return "NS" if self.seat.is_ns else "EW"

    def __str__(self) -> str:
        who = "declarer's side" if self.declaring else "the defence"
        tricks = "trick" if self.cost == 1 else "tricks"
        return (f"card {self.index + 1} (trick {self.trick}): {self.seat.letter} played "
                f"{self.card}, {who} lost {self.cost} {tricks}")


@dataclass(frozen=True)
class PlayAnalysis:
    """The double-dummy trace of a play.

    ``tricks[0]`` is declarer's side's double-dummy tricks before the opening lead, and
    ``tricks[i]`` after the i-th card of ``played``, tricks already won included (so after
    the last card of a complete play it is the tricks declarer's side took).  ``errors`` are
    the cards that moved it, in play order.
    """

    deal: Deal
    strain: Strain
    leader: Seat
    played: tuple[Card, ...]
    tricks: list[int]
    errors: list[CostlyCard] = field(default_factory=list)

    @property
    def declarer(self) -> Seat:
        """Declarer: the opening leader's right-hand opponent."""
        return self.leader.rho

    @property
    def costly(self) -> list[CostlyCard]:
        """Another name for :attr:`errors`."""
        return self.errors

    def cost(self, side: str | SeatLike) -> int:
        """Tricks given away by one side: ``"NS"``/``"EW"``, ``"declarer"``/``"defence"``,
        or any seat of the side."""
        key = side.strip().upper() if isinstance(side, str) else side
        if key in ("NS", "EW"):
            return sum(e.cost for e in self.errors if e.side == key)
        if key in ("DECLARER", "DEFENCE", "DEFENSE"):
            return sum(e.cost for e in self.errors if e.declaring == (key == "DECLARER"))
        seat = Seat.parse(side)
        return sum(e.cost for e in self.errors if e.seat.is_ns == seat.is_ns)

    def __str__(self) -> str:
        head = (f"{self.strain.letter} by {self.declarer.letter}, {len(self.played)} cards: "
                f"{self.tricks[0]} tricks at the start, {self.tricks[-1]} now")
        return "\n".join([head] + [f"  {e}" for e in self.errors])


def _check_play(deal: Deal, strain: Strain, leader: Seat,
                played: Iterable[CardLike] | str) -> Position:
    """The position after ``played``, every card checked, an error naming the bad card."""
    items = played_items(played)
    position = Position(deal, strain, leader)
    for i, item in enumerate(items):
        where = f"card {i + 1} of the play (trick {i // 4 + 1})"
        try:
            card = Card.parse(item)
        except ParseError as err:
            raise ParseError(f"{where}: {err.message}", err.text) from None
        try:
            position.play(card)
        except IllegalPlayError as err:
            raise IllegalPlayError(f"{where}: {err}") from None
    return position


def analyse_play(deal: Deal | str, strain: StrainLike, leader: SeatLike,
                 played: Iterable[CardLike] | str, *, solver: Solver | None = None,
                 tt_mb: int = DEFAULT_TT_MB) -> PlayAnalysis:
    """Declarer's side's double-dummy tricks before the first card and after each card of
    ``played``, and the cards that cost tricks.

    :param deal: a complete deal (or an ending: hands of equal size), or a PBN deal string.
    :param strain: the trump strain, ``"NT"`` for no-trump.
    :param leader: the opening leader; declarer is the leader's right-hand opponent.
    :param played: the cards in playing order from the opening lead (card objects or text;
        a string is split on spaces and commas); any number, up to the whole play.
    :param solver: the solver to ask (default: this thread's shared one, ``tt_mb`` MB).
    :raises DealError: if a hand is unknown or the hands are unequal.
    :raises ParseError: for a bad strain, seat or card, or a malformed PBN string.
    :raises IllegalPlayError: for a card not held by the player to move, or a revoke; the
        message names the card and its place in the play.
    :raises TypeError: for a ``played`` that is not cards, a ``solver`` that is not a
        :class:`Solver`, a ``tt_mb`` that is not an int.
    """
    d = as_deal(deal)
    try:
        trumps = Strain.parse(strain)
    except ParseError as err:
        raise ParseError(f"strain: {err.message}", err.text) from None
    try:
        lead = Seat.parse(leader)
    except ParseError as err:
        raise ParseError(f"leader: {err.message}", err.text) from None
    cards = _check_play(d, trumps, lead, played).played
    if solver is None:
        solver = thread_solver(tt_mb)
    elif not isinstance(solver, Solver):
        raise TypeError(f"solver must be a ddsolver.Solver (or None), got "
                        f"{type(solver).__name__}")

    declarer = lead.rho
    # One pass over the play in the core (not one replay per card): North-South's tricks
    # in all, before and after each card; declarer's side has the rest of the tricks.
    ns_totals = solver.play_trace(d, trumps, lead, cards)
    total = d.cards_per_hand
    tricks = [ns if declarer.is_ns else total - ns for ns in ns_totals]
    return analysis_of_trace(d, trumps, lead, cards, tricks)


def analysis_of_trace(deal: Deal, strain: Strain, leader: Seat, cards: Sequence[Card],
                      tricks: list[int]) -> PlayAnalysis:
    """The analysis of a legal play from its trace: ``tricks`` holds declarer's side's
    double-dummy tricks before the first card and after each card (as
    :meth:`Solver.play_trace` gives them, seen from declarer's side); the costly cards are
    the ones that moved them against the side that played them."""
    declarer = leader.rho
    position = Position(deal, strain, leader)
    errors: list[CostlyCard] = []
    for i, card in enumerate(cards):
        seat = position.to_move
        position.play(card)
        before, after = tricks[i], tricks[i + 1]
        declaring = seat.is_ns == declarer.is_ns
        cost = before - after if declaring else after - before
        if cost > 0:
            errors.append(CostlyCard(i, i // 4 + 1, seat, card, declaring, cost, before, after))
    return PlayAnalysis(deal, strain, leader, tuple(cards), list(tricks), errors)
