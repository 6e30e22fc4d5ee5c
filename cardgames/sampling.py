"""Dealing the hidden hands at random, under constraints: the sampling half of Monte-Carlo
analysis.

Some cards are known (whole hands, or a few cards of a hand); the rest are dealt at random
to fill every hand to 13 cards, keeping only the deals whose hands meet the constraints of
:mod:`cardgames.constraints`.

How it is fast: a batch of deals is dealt at once with numpy (one random permutation of the
hidden cards per row), the high-card points, suit lengths and cards held of every hand of the
batch are computed with array operations, the constraints that can be written as array
operations (all of the above except predicates) filter the batch, and only the survivors are
turned into :class:`~cardgames.hands.Deal` objects and shown to the Python predicates.  Cards a
constraint requires at top level (``holds SA``, not under ``or``/``not``) are dealt to that
hand before shuffling: conditioning on them exactly, and never wasting a deal on them.

Randomness comes from ``numpy.random.default_rng(seed)``, and batches have a fixed size, so
a seed fixes the sequence of deals whatever the number of deals asked for at a time.

Impossible constraints are found before dealing where the arithmetic shows it (point or
length ranges that cannot add up, a card required in two hands or in a known hand of
another seat, a known hand that fails its constraint), and constraints that pass those
checks but accept too rarely stop at an attempt or time budget; both raise
:class:`~cardgames.errors.SamplingError` instead of hanging.
"""

from __future__ import annotations

import operator
import secrets
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .cards import SUIT_NAMES, Card, CardLike, Rank, Seat, SeatLike, Suit, cards_text
from .constraint_syntax import as_constraint
from .constraints import Constraint, contradiction
from .errors import DealError, SamplingError, whole_number
from .evaluation import MAX_HCP, RANK_BITS, Features
from .hands import HCP_BY_RANK, Deal, Hand

__all__ = ["Sampler", "SampleResult", "deal_hidden", "check_seed", "draw_seed", "derived_seed",
           "acceptance_rates", "check_feasible", "RATE_DEALS"]

@dataclass(frozen=True, slots=True)
class SampleResult:
    """Deals from :func:`deal_hidden`, with how many random deals it took."""

    deals: tuple[Deal, ...]
    attempts: int
    accepted: int
    seed: int | None

    @property
    def acceptance_rate(self) -> float:
        return self.accepted / self.attempts if self.attempts else 1.0


#: What the known cards may be given as: a deal, or seat -> a hand, its PBN text or cards.
_KnownHand = Hand | str | Iterable[CardLike] | None
KnownLike = (Deal | Mapping[Seat, _KnownHand] | Mapping[str, _KnownHand]
             | Mapping[SeatLike, _KnownHand] | None)


def _known_hands(known: KnownLike) -> list[Hand]:
    hands = [Hand()] * 4
    if known is None:
        return hands
    if isinstance(known, Deal):
        items: Iterable = zip(Seat, known.hands)
    elif isinstance(known, Mapping):
        items = known.items()
    else:
        raise TypeError(f"known must be a Deal or a mapping seat -> hand, got "
                        f"{type(known).__name__}")
    for seat_like, hand in items:
        seat = Seat.parse(seat_like)
        if hand is None:
            continue
        if isinstance(hand, str):
            hand = Hand.from_pbn(hand) if "." in hand else Hand.from_cards(hand.split())
        elif not isinstance(hand, Hand):
            hand = Hand.from_cards(hand)
        if len(hand) > 13:
            raise DealError(f"{seat.letter}'s known cards number {len(hand)} (at most 13)")
        hands[seat] = hands[seat] | hand
    seen = [0, 0, 0, 0]
    for seat, h in zip(Seat, hands):
        for s in range(4):
            dup = seen[s] & h.masks[s]
            if dup:
                r = dup.bit_length() - 1
                raise DealError(f"card {Card(Suit(s), Rank(r))} is known in two hands "
                                f"(again in {seat.letter}'s)")
            seen[s] |= h.masks[s]
    return hands


def draw_seed() -> int:
    """A fresh seed from the system's entropy (32 bits: short enough to type back), for a
    run given none, which records it so that it can be repeated."""
    return secrets.randbits(32)


def derived_seed(seed: int, *parts: int | str) -> int:
    """A seed of its own for one part of a seeded run (a decision, a board's sample), from
    the run's seed and what names the part (whole numbers, and texts taken by their CRC-32):
    the same part gets the same seed whatever else the run holds.

    >>> derived_seed(1, "deal", 3) == derived_seed(1, "deal", 3) != derived_seed(2, "deal", 3)
    True
    """
    words = [seed & 0xFFFFFFFF, seed >> 32 & 0xFFFFFFFF,
             *(zlib.crc32(p.encode()) if isinstance(p, str) else p for p in parts)]
    return int(np.random.SeedSequence(words).generate_state(1, np.uint64)[0] >> 1)


def check_seed(seed: int | None) -> int | None:
    """``seed`` as a plain ``int`` (or None); a clear ``ValueError`` unless it is None or a
    non-negative whole number (what ``numpy.random.default_rng`` takes as a seed).

    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be a non-negative whole number (or None), got -1
    """
    if seed is None:
        return None
    try:
        value = operator.index(seed)
    except TypeError:
        value = None
    if value is None or isinstance(seed, bool) or value < 0:
        raise ValueError(f"seed must be a non-negative whole number (or None), got {seed!r}")
    return value


class Sampler:
    """Deals that complete the known cards at random, every hand meeting its constraint.

    :param known: the known cards: a :class:`Deal` with unknown hands as None, or a mapping
        from seat to a hand (``Hand``, PBN text ``"AK2.Q3.."``, or a list of cards), which
        may hold fewer than 13 cards.
    :param constraints: seat -> :class:`Constraint`, constraint text, or a predicate on a
        :class:`Hand`.
    :param predicate: a test of the whole :class:`Deal`, applied last.
    :param batch_predicate: a test of a whole batch of deals at once, as redeal's
        ``accept`` but vectorised: a function of the four hands'
        :class:`~cardgames.evaluation.Features` (a tuple in seat order N, E, S, W) that
        returns a (B,) bool array, e.g. ``lambda f: f[0].hcp + f[2].hcp >= 25``.  Applied
        after the hands' own constraints and before ``predicate``.
    :param seed: seeds ``numpy.random.default_rng``: a non-negative whole number, a
        ``numpy.random.SeedSequence``, or None for fresh entropy (anything else is a
        ``ValueError``).
    :param batch_size: random deals dealt at once (fixed, so the seed fixes the sequence).
    :param max_attempts: the most random deals one call of :meth:`sample` may deal.
    :param max_seconds: the most time one call of :meth:`sample` may take.
    :raises SamplingError: if no deal can meet the constraints (found by arithmetic).
    :raises DealError: if the known cards are inconsistent (a card twice, over 13).
    :raises ParseError: for malformed constraint text or a bad seat.
    :raises ValueError: for a bad seed or batch size.
    """

    def __init__(self, known: KnownLike = None,
                 constraints: Mapping[SeatLike, object] | None = None, *,
                 predicate: Callable[[Deal], bool] | None = None,
                 batch_predicate: Callable[[tuple[Features, ...]], np.ndarray] | None = None,
                 seed: int | np.random.SeedSequence | None = None, batch_size: int = 4096,
                 max_attempts: int = 20_000_000,
                 max_seconds: float = 60.0):
        batch_size = whole_number("batch_size", batch_size, least=1)
        if constraints is not None and not isinstance(constraints, Mapping):
            raise TypeError(f"constraints must be a mapping seat -> constraint (a dict such "
                            f"as {{'N': '15-17 hcp'}}), got {type(constraints).__name__}")
        for name, f in (("predicate", predicate), ("batch_predicate", batch_predicate)):
            if f is not None and not callable(f):
                raise TypeError(f"{name} must be a function (or None), got {type(f).__name__}")
        max_attempts = whole_number("max_attempts", max_attempts, least=1)
        if not (isinstance(max_seconds, (int, float)) and not isinstance(max_seconds, bool)
                and max_seconds > 0):   # NaN fails too
            raise ValueError(f"max_seconds must be a positive number, got {max_seconds!r}")
        # A SeedSequence (a child stream of a seed, as the lead analysis deals its blocks
        # from) is taken as it is; anything else must be a plain seed.
        self.seed = seed if isinstance(seed, np.random.SeedSequence) else check_seed(seed)
        self.batch_size = int(batch_size)
        self.max_attempts = int(max_attempts)
        self.max_seconds = float(max_seconds)
        self.predicate = predicate
        self.batch_predicate = batch_predicate
        self._rng = np.random.default_rng(seed)
        self.attempts = 0
        self.accepted = 0
        self._buffer: list[Deal] = []

        hands = _known_hands(known)
        self.constraints: dict[Seat, Constraint] = {}
        for seat_like, c in (constraints or {}).items():
            seat = Seat.parse(seat_like)
            c = as_constraint(c)  # type: ignore[arg-type]
            self.constraints[seat] = (self.constraints[seat] & c) if seat in self.constraints \
                else c
        self.known = tuple(hands)
        self._predeal_required(hands)
        check_feasible(hands, self.constraints)
        self.dealt = tuple(hands)  # known cards plus those dealt up front for `holds`

        owner = np.full(52, -1, dtype=np.int8)
        for seat, h in zip(Seat, hands):
            for c in h:
                owner[c.index] = seat
        self._fixed_owner = owner
        self._pool = np.flatnonzero(owner < 0).astype(np.int8)
        self._slot_seat = np.concatenate(
            [np.full(13 - len(h), seat, dtype=np.int8) for seat, h in zip(Seat, hands)])
        self._exact = all(c.vectorised for c in self.constraints.values())
        self._hands = hands

    # ---- up-front checks ----------------------------------------------------------------
    def _predeal_required(self, hands: list[Hand]) -> None:
        """Give each hand the cards its constraint requires at top level, refusing the
        impossible: a card required in two hands, or held by another known hand."""
        wanted: dict[Card, Seat] = {}
        for seat, c in self.constraints.items():
            for card in sorted(c.required()):
                other = wanted.get(card)
                if other is not None and other != seat:
                    raise SamplingError(f"{card} is required in both {other.letter}'s and "
                                        f"{seat.letter}'s hands")
                holder = next((s for s, h in zip(Seat, hands) if card in h), None)
                if holder is not None and holder != seat:
                    raise SamplingError(f"{seat.letter} must hold {card}, but it is known to be "
                                        f"in {holder.letter}'s hand")
                wanted[card] = seat
                if holder is None:
                    hands[seat] = hands[seat].add(card)
        for seat, h in zip(Seat, hands):
            if len(h) > 13:
                raise SamplingError(f"{seat.letter} would hold {len(h)} cards: the known cards "
                                    f"and those its constraint requires are more than 13")

    # ---- dealing --------------------------------------------------------------------------
    @property
    def acceptance_rate(self) -> float:
        """Deals kept over random deals dealt, so far (1.0 before any dealing)."""
        return self.accepted / self.attempts if self.attempts else 1.0

    def _batch(self) -> list[Deal]:
        """Deal one batch; return the accepted deals in order."""
        b = self.batch_size
        m = len(self._pool)
        owner = np.broadcast_to(self._fixed_owner, (b, 52)).copy()
        if m:
            perm = self._rng.permuted(np.broadcast_to(self._pool, (b, m)), axis=1)
            owner[np.arange(b)[:, None], perm] = self._slot_seat
        self.attempts += b
        keep = None
        for seat, c in self.constraints.items():
            if len(self._hands[seat]) == 13:
                continue  # checked once, up front
            mask = c._prefilter(Features(owner == seat, self._rng))
            if mask is not None:
                keep = mask if keep is None else keep & mask
        rows = np.arange(b) if keep is None else np.flatnonzero(keep)
        if len(rows) and self.batch_predicate is not None:
            sub = owner[rows]
            mask = np.asarray(self.batch_predicate(tuple(Features(sub == s) for s in range(4))))
            if mask.shape != rows.shape or mask.dtype != bool:
                raise TypeError(f"batch_predicate must return a bool array of shape "
                                f"{rows.shape}, got {mask.dtype} {mask.shape}")
            rows = rows[mask]
        if len(rows) == 0:
            return []
        sub = owner[rows]
        # (k, 4 seats, 4 suits) rank masks
        masks = np.stack([((sub == s).reshape(-1, 4, 13) @ RANK_BITS) for s in range(4)], 1)
        out = []
        exact = self._exact
        checks = [] if exact else [(s, c) for s, c in self.constraints.items()
                                   if not c.vectorised]
        for row in masks.tolist():
            if checks and not all(c.accepts(Hand(tuple(row[s]))) for s, c in checks):
                continue
            deal = Deal(tuple(Hand(tuple(r)) for r in row))
            if self.predicate is not None and not self.predicate(deal):
                continue
            out.append(deal)
        self.accepted += len(out)
        return out

    def sample(self, n: int) -> list[Deal]:
        """The next ``n`` deals of this sampler's sequence.

        :raises SamplingError: if this call would deal more than ``max_attempts`` random
            deals or take longer than ``max_seconds`` (it stops early when the acceptance
            rate so far shows the budget cannot be enough).
        :raises ValueError: if ``n`` is not a whole number 0 or more.
        """
        n = whole_number("the number of deals", n)
        start_time = time.perf_counter()
        start_attempts, start_accepted = self.attempts, self.accepted
        out: list[Deal] = []
        while len(out) < n:
            if not self._buffer:
                tried = self.attempts - start_attempts
                got = self.accepted - start_accepted
                elapsed = time.perf_counter() - start_time
                if tried >= self.max_attempts or elapsed > self.max_seconds:
                    raise self._too_rare(n, len(out), tried, got, elapsed)
                if tried >= 100_000 or elapsed > 1.0:
                    # Give up early when the rate so far shows the budget cannot suffice
                    # (3/tried is the 95% upper bound on the rate when nothing was accepted).
                    rate = max(got, 3) / tried
                    needed = (n - len(out)) / rate
                    if needed > self.max_attempts - tried or \
                            needed * elapsed / tried > self.max_seconds - elapsed:
                        raise self._too_rare(n, len(out), tried, got, elapsed)
                self._buffer = self._batch()
                self._buffer.reverse()
                continue
            out.append(self._buffer.pop())
        return out

    def _too_rare(self, n: int, have: int, tried: int, got: int, elapsed: float) -> SamplingError:
        rate = got / tried if tried else 0.0
        if not self.constraints and self.predicate is None and self.batch_predicate is None:
            # Nothing to blame but the size of the request (every deal is kept).
            return SamplingError(
                f"{n:,} deals cannot be dealt within the budget of one call: {got:,} dealt "
                f"in {elapsed:.1f} s ({tried:,} tried); ask for fewer at a time, or raise "
                f"max_attempts ({self.max_attempts:,}) / max_seconds ({self.max_seconds:g})",
                attempts=tried, accepted=got)
        return SamplingError(
            f"the constraints accept too few deals: {got} of {tried:,} random deals "
            f"(rate {rate:.2g}) in {elapsed:.1f} s, {n} wanted ({have} found); loosen them or "
            f"raise max_attempts ({self.max_attempts:,}) / max_seconds ({self.max_seconds:g})",
            attempts=tried, accepted=got)

    def __iter__(self) -> Iterator[Deal]:
        while True:
            yield from self.sample(1)


def check_feasible(hands: Sequence[Hand], constraints: Mapping[Seat, Constraint]) -> None:
    """Raise :class:`SamplingError` when arithmetic shows that no deal gives the hands
    (known cards so far, 13 each when dealt) what ``constraints`` ask: a constraint that
    contradicts itself, known cards it excludes, points or suit lengths a hand cannot
    reach with the unseen cards, or ranges that cannot add up to what the hands still
    to be dealt share.  It proves impossibility only; passing it does not prove a deal
    exists."""
    pool_masks = [0x7FFC & ~(hands[0].masks[s] | hands[1].masks[s] | hands[2].masks[s]
                             | hands[3].masks[s]) for s in range(4)]
    pool = Hand(tuple(pool_masks))
    pool_hcp = sorted((HCP_BY_RANK.get(c.rank, 0) for c in pool), reverse=True)
    open_seats = [s for s in Seat if len(hands[s]) < 13]
    for seat, c in constraints.items():
        h = hands[seat]
        why = contradiction(c)
        if why is not None:
            raise SamplingError(f"{seat.letter}: {why}")
        lo, hi = c.hcp_bounds()
        lb = c.length_bounds()
        clash = c.forbidden() & set(h)
        if clash:
            raise SamplingError(f"{seat.letter} is known to hold {cards_text(frozenset(clash))}"
                                f", which its constraint '{c}' excludes")
        need = 13 - len(h)
        if need == 0:
            if not c.accepts(h):
                raise SamplingError(f"{seat.letter}'s known hand {h} does not meet its "
                                    f"constraint '{c}'")
            continue
        if h.hcp > hi:
            raise SamplingError(f"{seat.letter}'s known cards already have {h.hcp} points, "
                                f"more than '{c}' allows")
        if h.hcp + sum(pool_hcp[:need]) < lo:
            raise SamplingError(f"{seat.letter} cannot reach {lo} points: its known cards "
                                f"and the best {need} unseen cards give "
                                f"{h.hcp + sum(pool_hcp[:need])}")
        for s, (a, b) in enumerate(lb):
            have, free = h.length(s), pool.length(s)
            if have > b:
                raise SamplingError(f"{seat.letter} already holds {have} known "
                                    f"{SUIT_NAMES[s]}, more than '{c}' allows")
            if have + min(free, need) < a:
                raise SamplingError(f"{seat.letter} cannot hold {a} {SUIT_NAMES[s]}: only "
                                    f"{have + min(free, need)} are possible")
    # Across the hands still to be dealt: their points and suit lengths are the known
    # ones plus the whole unseen pool, so the ranges must be able to add up to that.
    if not open_seats:
        return
    total_hcp = sum(hands[s].hcp for s in open_seats) + sum(pool_hcp)
    bounds = {s: constraints[s].hcp_bounds() if s in constraints else (0, MAX_HCP)
              for s in open_seats}
    names = "+".join(s.letter for s in open_seats)
    _share(names, f"{total_hcp} points", total_hcp,
           sum(max(b[0], hands[s].hcp) for s, b in bounds.items()),
           sum(b[1] for b in bounds.values()))
    for s in range(4):
        total = sum(hands[t].length(s) for t in open_seats) + pool.length(s)
        lbs = {t: constraints[t].length_bounds()[s] if t in constraints
               else (0, 13) for t in open_seats}
        _share(names, f"{total} {SUIT_NAMES[s]}", total,
               sum(max(b[0], hands[t].length(s)) for t, b in lbs.items()),
               sum(b[1] for b in lbs.values()))


def _share(names: str, what: str, total: int, least: int, most: int) -> None:
    """A :class:`SamplingError` unless ranges adding up to ``least``..``most`` can hold
    the ``total`` the hands ``names`` share (``what``: "13 points", "5 hearts")."""
    if least > total:
        raise SamplingError(f"the hands {names} share {what}, but their constraints ask "
                            f"for at least {least}")
    if most < total:
        raise SamplingError(f"the hands {names} share {what}, but their constraints allow "
                            f"at most {most}")


def deal_hidden(known: KnownLike = None, constraints: Mapping[SeatLike, object] | None = None,
                n: int = 1, *, predicate: Callable[[Deal], bool] | None = None,
                seed: int | None = None, **options: Any) -> SampleResult:
    """``n`` deals completing ``known`` under ``constraints``; see :class:`Sampler`.

    >>> r = deal_hidden({"S": "AKQJ.AKQ.AKQ.AKQ"}, {"N": "5+ spades"}, 2, seed=1)
    >>> [d.north.length("S") >= 5 and d.south.hcp == 37 for d in r.deals]
    [True, True]

    :raises SamplingError: for impossible or too-rare constraints.
    """
    sampler = Sampler(known, constraints, predicate=predicate, seed=seed, **options)
    deals = sampler.sample(n)
    return SampleResult(tuple(deals), sampler.attempts, sampler.accepted, seed)


#: Random deals dealt to measure one seat's constraint alone (:func:`acceptance_rates`):
#: one batch of the sampler, a few milliseconds; the rate's SE is at most 0.8 points.
RATE_DEALS = 4096


def acceptance_rates(known: KnownLike,
                     constraints: Mapping[Seat, Constraint | str | Callable[[Hand], bool]],
                     seed: int | None, deals: int = RATE_DEALS) -> dict[Seat, float]:
    """The share of random deals (the ``known`` cards given) that each seat's constraint
    accepts on its own: which constraint makes dealing slow, and how much each says.
    Measured on ``deals`` deals of a sampler of its own (the same ``seed`` gives the same
    rates; the deals of the analysis are not touched).  0.0 for a constraint no deal can
    meet."""
    out: dict[Seat, float] = {}
    for seat_like, c in constraints.items():
        seat = Seat.parse(seat_like)
        try:
            sampler = Sampler(known, {seat: c}, seed=seed, batch_size=deals,
                              max_attempts=deals)
            sampler.sample(1)
            out[seat] = sampler.acceptance_rate
        except SamplingError as err:  # none in the batch, or impossible
            out[seat] = err.accepted / err.attempts if err.attempts else 0.0
    return out
