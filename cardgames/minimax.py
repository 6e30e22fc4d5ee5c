"""A reference double-dummy solver, written to be obviously correct rather than fast.

This is the test oracle for the fast solver in :mod:`ddsolver`: it walks the game
tree of :class:`cardgames.play.Position` with nothing but the rules of play.
North-South maximise the tricks they take, East-West minimise them, and the side
to move is simply whoever is to play next (so it changes with the winner of each
trick, not at every ply).

Three searches give the same number:

* :func:`minimax` -- every line of play, no pruning at all.  For tiny endings.
* :func:`alphabeta` -- minimax with alpha-beta pruning and a transposition cache at
  trick boundaries.  Solves endings of four cards a hand in a fraction of a second.
* :func:`card_values` -- the value of every legal card of the player to move, in
  the terms DDS's ``SolveBoard`` uses with ``solutions=3``.

All of them leave the position exactly as they found it (they move with
:meth:`~cardgames.play.Position.play` and :meth:`~cardgames.play.Position.undo`).

>>> from cardgames.hands import Deal
>>> deal = Deal.from_pbn("N:AQ... .32.. 54... K2...")
>>> solve_ending(deal, "NT", "S")   # South leads toward the AQ: the finesse wins
2
>>> solve_ending(deal, "NT", "N")   # North must lead away from the AQ
1

:func:`random_ending` and :func:`random_position` make random endings for tests.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import ALL_CARDS, Card, CardLike, Seat, SeatLike, Strain, StrainLike
from .hands import Deal, Hand
from .play import Position

__all__ = ["minimax", "alphabeta", "card_values", "solve_ending", "random_ending",
           "random_position"]


# ---- plain minimax -----------------------------------------------------------

def minimax(position: Position) -> int:
    """North-South's tricks from this point to the end of play, by exhaustive minimax.

    Tricks already won are not counted; the trick in progress is.  No pruning and no
    cache: the cost grows as the product of every hand's choices, so keep this to
    endings of about three cards a hand.  The position is restored before returning.
    """
    return _minimax_final(position) - position.tricks_ns


def _minimax_final(position: Position) -> int:
    """North-South's tricks at the end of play (tricks already won included)."""
    cards = position.legal_cards()
    if not cards:  # every card has been played
        return position.tricks_ns
    outcomes = []
    for card in cards:
        position.play(card)
        try:
            outcomes.append(_minimax_final(position))
        finally:
            position.undo()
    return max(outcomes) if position.to_move.is_ns else min(outcomes)


# ---- alpha-beta ----------------------------------------------------------------

def alphabeta(position: Position) -> int:
    """The same number as :func:`minimax`, found with alpha-beta pruning.

    North-South's tricks from this point to the end of play, counting the trick in
    progress but not the tricks already won.  The position is restored before returning.
    """
    # Any result lies in 0..tricks_left, so this window can never fail: the answer is exact.
    return _alphabeta(position, -1, position.tricks_left + 1, {})


# The cache maps a trick-boundary state to its exact value.  At a trick boundary the
# rest of the game depends only on the cards still held and on who leads (the strain
# is fixed for one search), and the value counts only tricks still to come, so the
# same state reached by different lines has the same value.  Inside a trick a state
# is reached by one line only (the cards of the trick are part of it), so there is
# nothing to share there.
_CacheKey = tuple[tuple[tuple[int, ...], ...], Seat]


def _alphabeta(position: Position, alpha: int, beta: int, cache: dict[_CacheKey, int]) -> int:
    """North-South's tricks from here, fail-soft alpha-beta.

    The result ``v`` is exact when ``alpha < v < beta``; when ``v <= alpha`` the true
    value is at most ``v``; when ``v >= beta`` it is at least ``v``.
    """
    cards = position.legal_cards()
    if not cards:  # every card has been played
        return 0

    key = None
    if not position.current_trick:
        key = (tuple(position.hand(seat).masks for seat in Seat), position.trick_leader)
        if key in cache:
            return cache[key]

    maximising = position.to_move.is_ns
    low, high = alpha, beta  # the window narrows as children are searched
    best: int | None = None
    for card in cards:
        ns_before = position.tricks_ns
        position.play(card)
        try:
            # If this card completed a trick that North-South won, that trick is part of
            # the value here but not of the value of the next state.
            gained = position.tricks_ns - ns_before
            value = gained + _alphabeta(position, low - gained, high - gained, cache)
        finally:
            position.undo()
        if maximising:
            best = value if best is None else max(best, value)
            low = max(low, value)
        else:
            best = value if best is None else min(best, value)
            high = min(high, value)
        if low >= high:
            # The other side has a better choice earlier in the tree, so best play
            # never comes here and the remaining cards cannot change the outcome.
            break
    assert best is not None  # ``cards`` is not empty, so the loop ran

    # Only exact values go in the cache: a bound found under one window would be a
    # wrong answer under another.
    if key is not None and alpha < best < beta:
        cache[key] = best
    return best


# ---- card values and conveniences -------------------------------------------------

def card_values(position: Position) -> dict[Card, int]:
    """For every legal card of the player to move: the tricks the mover's side takes
    from this point on if that card is played and both sides then play perfectly.

    The count starts with the trick in progress (its cards already played included)
    and runs to the end of play, out of :attr:`~cardgames.play.Position.tricks_left`;
    tricks already won are not counted.  This is what DDS's ``SolveBoard`` reports
    with ``solutions=3``.  Keys come in :meth:`~cardgames.play.Position.legal_cards`
    order; an empty dict when play is over.  The position is restored before returning.
    """
    mover_is_ns = position.to_move.is_ns
    tricks_left = position.tricks_left
    cache: dict[_CacheKey, int] = {}  # one strain throughout, so the cards can share it
    values: dict[Card, int] = {}
    for card in position.legal_cards():
        ns_before = position.tricks_ns
        position.play(card)
        try:
            ns = (position.tricks_ns - ns_before
                  + _alphabeta(position, -1, position.tricks_left + 1, cache))
        finally:
            position.undo()
        values[card] = ns if mover_is_ns else tricks_left - ns
    return values


def solve_ending(deal: Deal, strain: StrainLike, leader: SeatLike,
                 played: Sequence[CardLike] = ()) -> int:
    """North-South's tricks, with best play by both sides, in ``deal`` (a full deal or
    an ending) played in ``strain`` with ``leader`` on lead to the first trick.

    With ``played``, the cards already played from that lead on; the answer then
    counts the tricks from the trick in progress to the end, as :func:`alphabeta` does.
    """
    return alphabeta(Position(deal, strain, leader, played))


def random_ending(rng: random.Random, cards_per_hand: int, *,
                  deck: Sequence[CardLike] | None = None) -> Deal:
    """A random deal of ``cards_per_hand`` cards to each hand (0..13), drawn from ``rng``.

    :param deck: the cards to deal from (default: the whole pack).  A small deck, say
        two suits, gives endings where following suit matters more.
    :raises ValueError: if ``cards_per_hand`` is out of range, ``deck`` repeats a card,
        or it holds fewer than ``4 * cards_per_hand`` cards.
    """
    if not 0 <= cards_per_hand <= 13:
        raise ValueError(f"cards_per_hand must be 0..13, got {cards_per_hand}")
    pool = list(ALL_CARDS) if deck is None else [Card.parse(c) for c in deck]
    if len(set(pool)) != len(pool):
        raise ValueError("the deck holds a card twice")
    if len(pool) < 4 * cards_per_hand:
        raise ValueError(f"a deck of {len(pool)} cards cannot give four hands of "
                         f"{cards_per_hand}")
    cards = rng.sample(pool, 4 * cards_per_hand)
    n = cards_per_hand
    return Deal(tuple(Hand.from_cards(cards[i * n:(i + 1) * n]) for i in range(4)))


def random_position(rng: random.Random, cards_per_hand: int, *,
                    deck: Sequence[CardLike] | None = None
                    ) -> tuple[Deal, Strain, Seat, tuple[Card, ...]]:
    """A random ending (see :func:`random_ending`), strain and leader, with 0 to 3 legal
    cards already played to the first trick.

    Returns ``(deal, strain, leader, played)``, ready for
    ``Position(deal, strain, leader, played)``.
    """
    deal = random_ending(rng, cards_per_hand, deck=deck)
    strain = rng.choice(list(Strain))
    leader = rng.choice(list(Seat))
    position = Position(deal, strain, leader)
    for _ in range(rng.randrange(4) if cards_per_hand else 0):
        position.play(rng.choice(position.legal_cards()))
    return deal, strain, leader, position.played
