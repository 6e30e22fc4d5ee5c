"""The worlds a player at the table cannot tell apart: every way the cards he cannot see may
lie, given what he has seen.

A player sees his own hand, dummy's hand once the opening lead is faced, and every card
played.  :class:`View` holds exactly that, read from the play: who played each card (the
seats follow from the trick winners, which the played cards decide), which suits each
hidden hand has shown out of, and which cards each hidden hand is known to have held
because it played them.  :func:`deal_worlds` completes the hidden hands:

* **exhaustively** when the number of ways is at most ``limit`` (20,000 by default): every
  world is listed once, in a fixed order, and each counts equally -- the exact
  distribution, not an estimate;
* **by sampling** otherwise: ``samples`` worlds dealt uniformly from those consistent with
  the play, with a seeded ``numpy.random.default_rng`` (the same seed, the same worlds).

Why equal weights are exact: the deal was random, so every completion of the hidden cards
that agrees with what was seen is equally likely, and the auction's constraints only cut
some of them out.  What the play says is used as hard facts (a player who showed out holds
no more of that suit; a card played is gone); what a defender's choice among cards says
(restricted choice, signals) is not used.

Cards a hidden hand must hold (its suit is the one a player void in it cannot take) are
placed before the rest are shuffled, so sampling never wastes a deal on a show-out; the
auction's constraints (:mod:`cardgames.constraints`, on the hand as it was dealt, played
cards included) are applied by rejection within an attempt budget.  A ``usually`` part
(:class:`~cardgames.constraints.Usually`) keeps a hand outside it with its weight, a
seeded draw, as the lead sampler does; a listing so thinned is a weighted sample of the
worlds, not all of them, and says so (``exhaustive`` False).

The deal may be an ending: every hand then starts with the same number of cards, fewer
than 13, and the cards not in it are simply not in play.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import cast

import numpy as np

from .cards import ALL_CARDS, Card, CardLike, Seat, SeatLike, Strain, StrainLike
from .constraint_syntax import as_constraint
from .constraints import Constraint, usual
from .errors import DealError, IllegalPlayError, SamplingError, whole_number
from .evaluation import Features
from .hands import Deal, Hand
from .play import trick_winner
from .sampling import check_feasible, check_seed

__all__ = ["View", "Worlds", "deal_worlds", "EXHAUSTIVE_LIMIT", "count_worlds"]

#: At most this many worlds are listed one by one instead of sampled.
EXHAUSTIVE_LIMIT = 20_000


def _hand(value: Hand | str | Iterable[CardLike]) -> Hand:
    if isinstance(value, Hand):
        return value
    if isinstance(value, str):
        return Hand.from_pbn(value) if "." in value else Hand.from_cards(value.split())
    return Hand.from_cards(value)


@dataclass(frozen=True)
class View:
    """What one player knows at a point of the play.

    :param seat: the player whose view this is (declarer, dummy -- which is declarer's
        view -- or a defender).
    :param hands: seat -> the hand as dealt (before any card was played) for every seat the
        player can see: his own, and dummy's once the opening lead is faced.  All hold
        ``cards_per_hand`` cards (13, or fewer for an ending).
    :param strain: trumps.
    :param leader: who led to the first trick (of the deal, or of the ending).
    :param played: the cards played so far, in order.

    Use :meth:`make`, which checks everything and reads the play.
    """

    seat: Seat
    hands: tuple[Hand | None, ...]       # by seat; None for a hand the player cannot see
    strain: Strain
    leader: Seat
    played: tuple[Card, ...]
    cards_per_hand: int
    players: tuple[Seat, ...]            # who played each card of ``played``
    shown: tuple[Hand, ...]              # by seat: the cards each seat has played
    voids: tuple[frozenset[int], ...]    # by seat: suits it has shown out of
    to_move: Seat
    tricks_won: tuple[int, int] = (0, 0)  # N-S, E-W, in the play given
    constraints: Mapping[Seat, Constraint] = field(default_factory=dict)
    deck: Hand = Hand.from_cards(ALL_CARDS)  # the cards in play (fewer in an ending)

    @classmethod
    def make(cls, seat: SeatLike, hands: Mapping[SeatLike, Hand | str | Iterable[CardLike]],
             strain: StrainLike, leader: SeatLike, played: Iterable[CardLike] | str = (),
             constraints: Mapping[SeatLike, Constraint | str] | None = None,
             in_play: Deal | Hand | str | Iterable[CardLike] | None = None) -> View:
        """The view of ``seat``, checked against the rules.

        :raises DealError: known hands that clash or differ in size, or a card played by a
            hidden hand that is in a known one.
        :raises IllegalPlayError: a card played twice, not held by a known hand that plays
            it, a revoke by a known hand, or a hidden hand following to a suit it showed
            out of (each names the card and its place in the play).
        :raises SamplingError: a constraint on a hand the player can see.

        ``in_play``: for an ending (fewer than 13 cards a hand), every card of the ending,
        all four hands (the player knows which cards are gone); None for a full deal.
        """
        me = Seat.parse(seat)
        st = Strain.parse(strain)
        first = Seat.parse(leader)
        known: list[Hand | None] = [None] * 4
        for s_like, given in hands.items():
            if given is not None:
                known[Seat.parse(s_like)] = _hand(given)
        if known[me] is None:
            raise DealError(f"the hand of {me.letter}, whose view this is, is not given")
        Deal(tuple(known))  # clashes and unequal sizes
        size = len(known[me])  # type: ignore[arg-type]
        if size < 1:
            raise DealError(f"{me.letter}'s hand is empty: nothing to play")
        if in_play is None:
            if size != 13:
                raise DealError(f"an ending of {size} cards a hand: say which cards are in "
                                f"play (in_play=, all four hands of the ending)")
            deck = Hand.from_cards(ALL_CARDS)
        else:
            ending = Deal.from_pbn(in_play) if isinstance(in_play, str) and ":" in in_play \
                else in_play
            if isinstance(ending, Deal):
                deck = Hand()
                for part in ending.hands:
                    deck = deck | (part or Hand())
            else:
                deck = _hand(ending)
            if len(deck) != 4 * size:
                raise DealError(f"the cards in play number {len(deck)}, not 4 x {size}")
            for seat_, mine in zip(Seat, known):
                if mine is not None and (mine - deck):
                    raise DealError(f"{seat_.letter}'s hand holds {(mine - deck).to_pbn()}, "
                                    f"which is not in play")
        items = played.replace(",", " ").split() if isinstance(played, str) else list(played)
        cards = tuple(Card.parse(c) for c in items)
        if len(cards) > 4 * size:
            raise IllegalPlayError(f"{len(cards)} cards played, but the deal has only "
                                   f"{4 * size}")
        players: list[Seat] = []
        shown = [0] * 4  # 52-bit masks
        voids: list[set[int]] = [set(), set(), set(), set()]
        seen: dict[Card, int] = {}
        trick_leader = first
        trick: list[Card] = []
        won = [0, 0]
        for i, c in enumerate(cards):
            where = f"card {i + 1} of the play ({c})"
            if c in seen:
                raise IllegalPlayError(f"{where}: already played as card {seen[c] + 1}")
            seen[c] = i
            who = trick_leader.next(len(trick))
            hand = known[who]
            holder = next((s for s in Seat if (k := known[s]) is not None and c in k), None)
            if c not in deck:
                raise IllegalPlayError(f"{where}: not in play in this ending")
            if hand is not None:
                if c not in hand:
                    elsewhere = f" (it is in {holder.letter}'s hand)" if holder is not None else ""
                    raise IllegalPlayError(f"{where}: played by {who.letter}, whose hand "
                                           f"{hand.to_pbn()} does not hold it{elsewhere}")
                if trick and c.suit != trick[0].suit:
                    led = trick[0].suit
                    left = [x for x in hand.suit_cards(led) if x not in seen]
                    if left:
                        raise IllegalPlayError(f"{where}: {who.letter} revokes, holding "
                                               f"{' '.join(map(str, left))} in the suit led")
            else:
                if holder is not None:
                    raise DealError(f"{where}: played by {who.letter}, but {c} is in "
                                    f"{holder.letter}'s hand")
                if c.suit in voids[who]:
                    raise IllegalPlayError(f"{where}: {who.letter} showed out of "
                                           f"{'SHDC'[c.suit]} earlier, so cannot hold {c}")
                if trick and c.suit != trick[0].suit:
                    voids[who].add(int(trick[0].suit))
                if bin(shown[who]).count("1") >= size:
                    raise IllegalPlayError(f"{where}: {who.letter} has no card left")
            shown[who] |= 1 << c.index
            players.append(who)
            trick.append(c)
            if len(trick) == 4:
                winner = trick_winner(trick_leader, trick, st)
                won[winner & 1] += 1
                trick_leader = winner
                trick = []
        if len(cards) == 4 * size:
            raise IllegalPlayError("every card has been played: there is nothing to advise")
        to_move = trick_leader.next(len(trick))
        cons: dict[Seat, Constraint] = {}
        for s_like, c_like in (constraints or {}).items():
            s = Seat.parse(s_like)
            if known[s] is not None:
                raise SamplingError(f"{s.letter}'s hand is known to {me.letter}: a constraint "
                                    f"on it ({c_like}) means nothing")
            con = as_constraint(c_like)
            cons[s] = cons[s] & con if s in cons else con
        shown_hands = tuple(Hand.from_cards(ALL_CARDS[j] for j in range(52) if m >> j & 1)
                            for m in shown)
        return cls(me, tuple(known), st, first, cards, size, tuple(players), shown_hands,
                   tuple(frozenset(v) for v in voids), to_move, (won[0], won[1]), cons, deck)

    # ---- what follows from it -------------------------------------------------------
    @property
    def hidden(self) -> tuple[Seat, ...]:
        """The seats whose hands the player cannot see."""
        return tuple(s for s in Seat if self.hands[s] is None)

    def unseen(self) -> list[Card]:
        """The cards in play that the player has not seen (in no known hand, not played),
        in card order."""
        out = []
        for c in self.deck:
            if any(h is not None and c in h for h in self.hands):
                continue
            if any(c in sh for sh in self.shown):
                continue
            out.append(c)
        return out

    def _layout(self) -> tuple[list[Seat], dict[Seat, int], dict[Seat, list[Card]], list[Card]]:
        """The hidden seats, how many more cards each needs, the unseen cards each must
        hold (the other hidden seats are void in their suit), and the unseen cards that
        could go to more than one hidden seat."""
        hidden = list(self.hidden)
        need = {s: self.cards_per_hand - len(self.shown[s]) for s in hidden}
        forced: dict[Seat, list[Card]] = {s: [] for s in hidden}
        free: list[Card] = []
        for c in self.unseen():
            can = [s for s in hidden if c.suit not in self.voids[s]]
            if not can:
                raise SamplingError(f"no hidden hand can hold {c}: "
                                    f"{' and '.join(s.letter for s in hidden)} have all shown "
                                    f"out of {'SHDC'[c.suit]}")
            if len(can) == 1:
                forced[can[0]].append(c)
            else:
                free.append(c)
        for s in hidden:
            if len(forced[s]) > need[s]:
                raise SamplingError(f"{s.letter} must hold {len(forced[s])} more cards "
                                    f"({' '.join(map(str, forced[s]))}: the others showed out "
                                    f"of those suits) but has only {need[s]} left")
        if len(hidden) > 2 and any(self.voids[s] for s in hidden):
            # Only before dummy is faced are three hands hidden, and then nobody has played.
            raise SamplingError("three hidden hands with a show-out cannot happen: dummy is "
                                "seen once the opening lead is faced")
        return hidden, need, forced, free


@dataclass(frozen=True)
class Worlds:
    """The worlds of a :class:`View`: complete deals (hands as dealt), equally likely.

    ``exhaustive`` says whether they are every world there is (``total`` of them, before
    the constraints cut some out) or a sample; ``attempts`` is how many random
    completions were dealt (sampling) or listed (exhaustive) to find them.
    """

    view: View
    deals: tuple[Deal, ...]
    exhaustive: bool
    total: int            # ways to complete the hidden hands, constraints aside
    attempts: int
    seed: int | None

    def __len__(self) -> int:
        return len(self.deals)

    def __repr__(self) -> str:    # (not every deal: a listing may hold 20,000)
        return f"<Worlds: {self.how}>"

    def __iter__(self) -> Iterator[Deal]:
        return iter(self.deals)

    @property
    def how(self) -> str:
        """One phrase for a report: ``"all 20 worlds"`` or ``"200 sampled worlds (seed 1)"``."""
        if self.exhaustive:
            cut = f" (of {self.total:,} before the constraints)" if self.total != len(self) \
                else ""
            return f"all {len(self):,} worlds{cut}, each equally likely"
        return f"{len(self):,} sampled worlds (seed {self.seed}) of {self.total:,}"


def count_worlds(view: View) -> int:
    """The number of ways to complete the hidden hands (constraints aside)."""
    _, need, forced, free = _split(view)
    rest = {s: need[s] - len(forced[s]) for s in need}
    total = 1
    left = len(free)
    for k in rest.values():
        total *= math.comb(left, k)
        left -= k
    return total


def _split(view: View) -> tuple[list[Seat], dict[Seat, int], dict[Seat, list[Card]],
                               list[Card]]:
    hidden, need, forced, free = view._layout()
    n_free = len(free)
    rest = sum(need[s] - len(forced[s]) for s in hidden)
    if rest != n_free:
        raise DealError(f"the hidden hands ({', '.join(s.letter for s in hidden)}) need "
                        f"{rest} more cards, but {n_free} unseen cards are free to go to them")
    return hidden, need, forced, free


def deal_worlds(view: View, *, samples: int = 200, seed: int | None = None,
                limit: int = EXHAUSTIVE_LIMIT, exhaustive: bool | None = None,
                max_attempts: int = 2_000_000) -> Worlds:
    """The worlds of ``view``; see the module docstring.

    :param samples: worlds to deal when not listing them all.
    :param seed: seeds the sampling (a whole number 0 or more, or None).
    :param limit: list every world when there are at most this many.
    :param exhaustive: True to list every world whatever their number, False to sample
        even when they are few (None: by ``limit``).
    :param max_attempts: the most random completions sampling may deal.
    :raises SamplingError: when no world meets the constraints (named), or too few do to
        deal ``samples`` within ``max_attempts``.
    """
    seed = check_seed(seed)
    samples = whole_number("samples", samples, least=1)
    hidden, need, forced, free = _split(view)
    total = count_worlds(view)
    listing = exhaustive if exhaustive is not None else total <= limit
    base = [view.shown[s] for s in Seat]
    for s in hidden:
        base[s] = base[s] | Hand.from_cards(forced[s])
    rest = [need[s] - len(forced[s]) for s in hidden]
    cons = [(s, view.constraints[s]) for s in hidden if s in view.constraints]
    if cons and view.cards_per_hand == 13:
        # Arithmetic first: constraints no world can meet (more points than are unseen,
        # say) are said at once, not after max_attempts random worlds.  Shown-out suits are
        # left out of it, so it never refuses a possible world.
        known = [base[s] if s in hidden else view.hands[s] for s in Seat]
        assert all(h is not None for h in known)   # every seat not hidden is seen whole
        try:
            check_feasible(cast(list[Hand], known), dict(cons))
        except SamplingError as err:
            raise SamplingError(f"no world meets the constraints: {err}", attempts=0) from None

    # 'usually' parts: accepts() takes every hand, so the weight is drawn here, from the
    # batch test of a batch of one, as the sampler draws it.
    weighted = [(s, c) for s, c in cons if usual(c) is not c]
    rng = np.random.default_rng(seed)
    thinned = 0     # worlds of a listing left out by a 'usually' draw

    def make(parts: list[list[Card]]) -> Deal | None:
        nonlocal thinned
        hands = list(view.hands)
        for s, extra in zip(hidden, parts):
            hands[s] = base[s] | Hand.from_cards(extra)
        for s, c in cons:
            hand = hands[s]
            if hand is None or not c.accepts(hand):  # (every hidden hand is made above)
                return None
        for s, c in weighted:
            kept = c._prefilter(Features.of_hand(cast(Hand, hands[s]), rng))
            if kept is not None and not kept[0]:
                thinned += 1
                return None
        return Deal(tuple(hands))

    deals: list[Deal] = []
    if listing:
        attempts = 0
        for parts in _partitions(free, rest):
            attempts += 1
            d = make(parts)
            if d is not None:
                deals.append(d)
        if not deals:
            raise SamplingError(_impossible(view, cons, attempts), attempts=attempts)
        return Worlds(view, tuple(deals), not thinned, total, attempts, seed)
    attempts = 0
    cut = np.cumsum(rest)[:-1]
    while len(deals) < samples:
        if attempts >= max_attempts:
            if not deals:
                raise SamplingError(_impossible(view, cons, attempts), attempts=attempts)
            raise SamplingError(f"the constraints accept too few worlds: {len(deals)} of "
                                f"{attempts:,} dealt, {samples} wanted; loosen them",
                                attempts=attempts, accepted=len(deals))
        attempts += 1
        order = rng.permutation(len(free))
        parts = [[free[j] for j in chunk] for chunk in np.split(order, cut)]
        d = make(parts)
        if d is not None:
            deals.append(d)
    return Worlds(view, tuple(deals), False, total, attempts, seed)


def _partitions(free: list[Card], sizes: list[int]) -> Iterator[list[list[Card]]]:
    """Every way to give ``sizes[i]`` of ``free`` to part i, in a fixed order."""
    if len(sizes) == 1:
        yield [list(free)]
        return
    for chosen in combinations(range(len(free)), sizes[0]):
        picked = set(chosen)
        first = [free[j] for j in chosen]
        others = [free[j] for j in range(len(free)) if j not in picked]
        for tail in _partitions(others, sizes[1:]):
            yield [first, *tail]


def _impossible(view: View, cons: list[tuple[Seat, Constraint]], attempts: int) -> str:
    text = "; ".join(f"{s.letter}: {c}" for s, c in cons) or "none"
    return (f"no world meets the constraints ({text}) given what the play has shown "
            f"({attempts:,} worlds tried)")
