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
from typing import Any

from cardgames.cards import Card, CardLike, Seat, SeatLike, Strain, StrainLike
from cardgames.hands import Deal
from cardgames.play import Position

from .errors import DealError, IllegalPlayError, ParseError
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
    the cards that moved it, in play order.  Of an ending (fewer than 13 cards a hand),
    ``declarer_won`` is the tricks declarer's side won before it, counted in ``tricks``;
    ``declarer_seat`` names declarer when the ending's leader is on declarer's side.
    """

    deal: Deal
    strain: Strain
    leader: Seat
    played: tuple[Card, ...]
    tricks: list[int]
    errors: list[CostlyCard] = field(default_factory=list)
    declarer_won: int = 0
    declarer_seat: Seat | None = None

    @property
    def declarer(self) -> Seat:
        """Declarer: the opening leader's right-hand opponent, unless an ending says
        otherwise (:attr:`declarer_seat`)."""
        return self.leader.rho if self.declarer_seat is None else self.declarer_seat

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

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON-ready data: the deal (PBN), strain, leader, declarer, the
        cards, ``tricks``, ``declarer_won`` and each costly card."""
        return {"deal": self.deal.to_pbn(), "strain": self.strain.letter,
                "leader": self.leader.letter, "declarer": self.declarer.letter,
                "played": [str(c) for c in self.played], "tricks": list(self.tricks),
                "declarer_won": self.declarer_won,
                "errors": [{"index": e.index, "trick": e.trick, "seat": e.seat.letter,
                            "card": str(e.card), "declaring": e.declaring, "cost": e.cost,
                            "before": e.before, "after": e.after} for e in self.errors]}

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
                 tt_mb: int = DEFAULT_TT_MB, declarer: SeatLike | None = None,
                 declarer_won: int = 0) -> PlayAnalysis:
    """Declarer's side's double-dummy tricks before the first card and after each card of
    ``played``, and the cards that cost tricks.

    :param deal: a complete deal (or an ending: hands of equal size), or a PBN deal string.
    :param strain: the trump strain, ``"NT"`` for no-trump.
    :param leader: the opening leader; declarer is the leader's right-hand opponent.
    :param played: the cards in playing order from the opening lead (card objects or text;
        a string is split on spaces and commas); any number, up to the whole play.
    :param solver: the solver to ask (default: this thread's shared one, ``tt_mb`` MB).
    :param declarer: of an ending, declarer, when the ending's leader is on declarer's
        side (default: the leader's right-hand opponent, as a whole deal must have it).
    :param declarer_won: of an ending, the tricks declarer's side won before it (PBN's
        ``DeclarerWon``), counted in the tricks; 0 to 13 less the cards a hand.
    :raises DealError: if a hand is unknown or the hands are unequal, or for a
        ``declarer_won`` out of range.
    :raises ParseError: for a bad strain, seat or card, or a malformed PBN string.
    :raises IllegalPlayError: for a card not held by the player to move, or a revoke (the
        message names the card and its place in the play); for a whole deal whose leader
        is not declarer's left-hand opponent.
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
    try:
        side = lead.rho if declarer is None else Seat.parse(declarer)
    except ParseError as err:
        raise ParseError(f"declarer: {err.message}", err.text) from None
    _check_ending(d, lead, side, declarer_won)
    cards = _check_play(d, trumps, lead, played).played
    if solver is None:
        solver = thread_solver(tt_mb)
    elif not isinstance(solver, Solver):
        raise TypeError(f"solver must be a ddsolver.Solver (or None), got "
                        f"{type(solver).__name__}")

    # One pass over the play in the core (not one replay per card): North-South's tricks
    # in all, before and after each card; the leader's right-hand opponent's side has the
    # rest of the tricks if that is East-West.
    ns_totals = solver.play_trace(d, trumps, lead, cards)
    total = d.cards_per_hand
    trace = [ns if lead.rho.is_ns else total - ns for ns in ns_totals]
    return analysis_of_trace(d, trumps, lead, cards, trace, declarer=side,
                             declarer_won=declarer_won)


def _check_ending(deal: Deal, leader: Seat, declarer: Seat, won: int) -> None:
    if isinstance(won, bool) or not isinstance(won, int):
        raise TypeError(f"declarer_won must be an int, got {type(won).__name__}")
    before = 13 - deal.cards_per_hand
    if not 0 <= won <= before:
        raise DealError(f"declarer_won is {won}: the tricks declarer's side won before "
                        f"{'the deal' if not before else 'this ending'} are 0 to {before}")
    if before == 0 and declarer != leader.rho:
        raise IllegalPlayError(f"the opening lead is {leader.letter}'s but declarer "
                               f"{declarer.letter}'s left-hand opponent is "
                               f"{declarer.lho.letter}")


def analysis_of_trace(deal: Deal, strain: Strain, leader: Seat, cards: Sequence[Card],
                      tricks: list[int], *, declarer: Seat | None = None,
                      declarer_won: int = 0) -> PlayAnalysis:
    """The analysis of a legal play from its trace: ``tricks`` holds the double-dummy
    tricks of the leader's right-hand opponent's side within the deal's cards, before the
    first card and after each card (:meth:`Solver.play_trace` seen from there: what a
    results store keeps); ``declarer`` and ``declarer_won`` as :func:`analyse_play` takes
    them.  The costly cards are the ones that moved the count against the side that
    played them."""
    if declarer is None:
        declarer = leader.rho
    if declarer.is_ns != leader.rho.is_ns:     # an ending led by declarer's side
        tricks = [deal.cards_per_hand - t for t in tricks]
    tricks = [t + declarer_won for t in tricks]
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
    return PlayAnalysis(deal, strain, leader, tuple(cards), list(tricks), errors,
                        declarer_won, None if declarer == leader.rho else declarer)
