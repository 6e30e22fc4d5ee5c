"""Hand evaluation: the counts that value one bridge hand, each with its range.

- high-card points (:attr:`Hand.hcp <cardgames.hands.Hand.hcp>`): ace 4, king 3, queen 2,
  jack 1; 0 to :data:`MAX_HCP` (37).
- :func:`losing_tricks`, the losing-trick count (LTC): in each suit, the top
  ``min(length, 3)`` places not filled by the ace, king or queen (the basic count, no half
  losers); 0 to :data:`MAX_LTC` (12).
- :func:`control_count`: ace 2, king 1; 0 to :data:`MAX_CONTROLS` (12).
- :func:`total_points`: high-card points plus one per card over four in a suit (length
  points) and/or void 3, singleton 2, doubleton 1 (shortness points); 0 to
  :data:`MAX_POINTS` (55, a ceiling).
- :func:`top_honours`: how many of the N highest cards of a suit the hand holds; 0 to N.
- :func:`suit_quality` (Klinger's): the length of a suit plus its honours A K Q J 10; 0 to
  :data:`MAX_QUALITY` (18).
- :func:`suit_hcp`: high-card points in one suit; 0 to :data:`MAX_SUIT_HCP` (10).

Richard Pavlicek's counts, as his "Point Count" and "Patterns and Freakness" pages on
rpbridge.net define them (the counts his lead simulations constrain hands by):

- :func:`freakness`: 1 per card over four or under three in each suit, plus 2 with a void
  or else 1 with a singleton; 0 to :data:`MAX_FREAKNESS` (20).
- :func:`pavlicek_points`: his total points for suit bidding: hcp, 1 for four aces and
  tens together (:func:`aces_and_tens_point`), and :func:`shortness_points` (void 3,
  singleton 2, doubleton 1, less for short honours).
- :func:`support_points`: total points plus, with four trumps, 2 per void and 1 per
  singleton; :func:`revalued_points`: a notrump dummy's hcp, the aces-and-tens point and 1
  per card over four in the longest suit if the queen or better heads it.
- :func:`playing_tricks` (his table of honour holdings plus 1 per card over three) and
  :func:`quick_tricks`, both in half tricks.

The ``MAX_*`` constants are those upper limits; :mod:`cardgames.constraints` bounds its
ranges with them.  The functions value one :class:`~cardgames.hands.Hand`;
:class:`Features` computes the same counts for one seat across a numpy batch of deals,
which is what lets the sampler of :mod:`cardgames.sampling` test thousands of deals at once.

    >>> from cardgames.hands import Hand
    >>> hand = Hand.from_pbn("AKJT98.Q5..KQ432")
    >>> losing_tricks(hand), control_count(hand), total_points(hand), suit_quality(hand, "S")
    (4, 4, 18, 10)
"""

from __future__ import annotations

import numpy as np

from .cards import Suit, SuitLike
from .hands import HCP_BY_RANK, Hand

__all__ = ["losing_tricks", "control_count", "total_points", "top_honours", "suit_quality",
           "stopper", "suit_hcp", "freakness", "aces_and_tens_point", "shortness_points",
           "pavlicek_points", "support_points", "revalued_points", "playing_tricks",
           "quick_tricks", "Features", "MAX_HCP", "MAX_LTC", "MAX_CONTROLS", "MAX_POINTS",
           "MAX_QUALITY", "MAX_SUIT_HCP", "MAX_FREAKNESS", "MAX_PLAYING_HALVES",
           "MAX_QUICK_HALVES", "PLAYING_PATTERNS", "QUICK_PATTERNS", "HCP52", "CONTROLS52",
           "RANK_BITS"]

# ---- the limits ----------------------------------------------------------------------------

#: The most high-card points: A K Q J of four suits, less the three points a thirteen-card
#: hand lacks.
MAX_HCP = 37
#: The most losers: three in each of four suits.
MAX_LTC = 12
#: The most controls: four aces and four kings.
MAX_CONTROLS = 12
#: A ceiling for total points: 37 hcp plus at most 18 for distribution.
MAX_POINTS = 55
#: The best suit quality: thirteen cards, five of them honours.
MAX_QUALITY = 18
#: The most high-card points in one suit: A K Q J.
MAX_SUIT_HCP = 10

# ---- card tables (card index = suit * 13 + rank - 2, as Card.index) ------------------------

#: High-card points of each of the 52 cards, by card index.
HCP52 = np.array([HCP_BY_RANK.get(i % 13 + 2, 0) for i in range(52)], dtype=np.int16)
#: Controls of each of the 52 cards (ace 2, king 1), by card index.
CONTROLS52 = np.array([{14: 2, 13: 1}.get(i % 13 + 2, 0) for i in range(52)], dtype=np.int16)
#: The rank-mask bit of each of the 13 cards of a suit, rank 2 first: a (..., 13) bool array
#: of one suit's cards held, times this, is that suit's rank mask (as ``Hand.masks``).
RANK_BITS = np.array([1 << r for r in range(2, 15)], dtype=np.int64)


# ---- one hand ------------------------------------------------------------------------------

def losing_tricks(hand: Hand) -> int:
    """The losing-trick count (LTC), in its basic form: in each suit, the number of the
    top ``min(length, 3)`` places not filled by the ace, king or queen -- a void has no
    loser, a singleton one unless it is the ace, a doubleton counts the missing A and K,
    a longer suit the missing A, K and Q.  So ``Qx`` is two losers and ``AQx`` one; the
    half-loser refinements some authors add are left out.  0 to 12.
    """
    total = 0
    for s in range(4):
        top = min(hand.length(s), 3)
        held = sum(1 for i, r in enumerate((14, 13, 12)) if i < top and hand.masks[s] >> r & 1)
        total += top - held
    return total


def control_count(hand: Hand) -> int:
    """Controls: ace 2, king 1.  0 to 12."""
    return sum(2 * (m >> 14 & 1) + (m >> 13 & 1) for m in hand.masks)


def total_points(hand: Hand, length: bool = True, shortness: bool = False) -> int:
    """High-card points plus, with ``length``, one point for every card over four in a suit
    (the length points of the ACBL's opening-bid count) and, with ``shortness``, 3 for a
    void, 2 for a singleton and 1 for a doubleton (Goren's distributional points, used to
    value a hand as dummy for partner's suit)."""
    points = hand.hcp
    for n in hand.lengths:
        if length:
            points += max(0, n - 4)
        if shortness:
            points += max(0, 3 - n)
    return points


def top_honours(hand: Hand, suit: Suit | str, top: int = 3) -> int:
    """How many of the ``top`` highest cards of ``suit`` (the ace down) the hand holds."""
    mask = hand.masks[Suit.parse(suit)]
    return sum(1 for r in range(15 - top, 15) if mask >> r & 1)


def suit_quality(hand: Hand, suit: Suit | str) -> int:
    """Ron Klinger's suit quality: the length of ``suit`` plus the honours (A K Q J 10) in
    it.  His test for an overcall asks for quality at least the number of tricks bid (a
    two-level overcall: 8)."""
    s = Suit.parse(suit)
    return hand.length(s) + top_honours(hand, s, 5)


def stopper(hand: Hand, suit: Suit | str) -> bool:
    """Whether the hand stops ``suit`` in no-trump, as a standard card counts a stopper:
    the ace, the king with one more card, the queen with two more, the jack with three
    more (A, Kx, Qxx, Jxxx)."""
    s = Suit.parse(suit)
    mask, n = hand.masks[s], hand.length(s)
    return any(mask >> rank & 1 and n >= extra + 1
               for extra, rank in enumerate(range(14, 10, -1)))


def suit_hcp(hand: Hand, suit: Suit | str) -> int:
    """High-card points in one suit."""
    mask = hand.masks[Suit.parse(suit)]
    return sum(p for r, p in HCP_BY_RANK.items() if mask >> r & 1)


# ---- Richard Pavlicek's counts (rpbridge.net: "Point Count", 2z04; "Patterns and
# ---- Freakness", 7z70) ------------------------------------------------------------------

#: The most freakness: 13-0-0-0 (9 cards over four, three suits each 3 under three, a void).
MAX_FREAKNESS = 20
#: The most playing tricks, in half tricks: a 13-card suit headed by A-K-Q (3 + 10 tricks).
MAX_PLAYING_HALVES = 26
#: The most quick tricks, in half tricks: A-K in every suit.
MAX_QUICK_HALVES = 16

_A, _K, _Q, _J, _T = 14, 13, 12, 11, 10
#: Playing tricks for the honours of one suit, in half tricks: (value, honours, min length),
#: best first; a suit scores the first pattern it matches (Pavlicek's table: A-K-Q 3 tricks;
#: A-K-J, A-Q-J 2.5; A-K, A-Q-10, K-Q-J 2; A-Q, A-J-x, K-Q-x, K-J-10 1.5; A, K-Q, K-J, K-10-x,
#: Q-J-x 1; K-x, Q-x-x, J-10-x 0.5), ``x`` being any lower card.
PLAYING_PATTERNS: tuple[tuple[int, tuple[int, ...], int], ...] = (
    (6, (_A, _K, _Q), 3),
    (5, (_A, _K, _J), 3), (5, (_A, _Q, _J), 3),
    (4, (_A, _K), 2), (4, (_A, _Q, _T), 3), (4, (_K, _Q, _J), 3),
    (3, (_A, _Q), 2), (3, (_A, _J), 3), (3, (_K, _Q), 3), (3, (_K, _J, _T), 3),
    (2, (_A,), 1), (2, (_K, _Q), 2), (2, (_K, _J), 2), (2, (_K, _T), 3), (2, (_Q, _J), 3),
    (1, (_K,), 2), (1, (_Q,), 3), (1, (_J, _T), 3),
)
#: Quick (defensive) tricks of one suit, in half tricks, the same way: A-K 2, A-Q 1.5, A 1,
#: K-Q 1, K-x 0.5 (the usual table; Pavlicek's point-count page gives none of its own).
QUICK_PATTERNS: tuple[tuple[int, tuple[int, ...], int], ...] = (
    (4, (_A, _K), 2), (3, (_A, _Q), 2), (2, (_A,), 1), (2, (_K, _Q), 2), (1, (_K,), 2),
)


def _holds(mask: int, ranks: tuple[int, ...]) -> bool:
    return all(mask >> r & 1 for r in ranks)


def _pattern_halves(mask: int, patterns: tuple[tuple[int, tuple[int, ...], int], ...]) -> int:
    length = mask.bit_count()
    return next((v for v, ranks, n in patterns if length >= n and _holds(mask, ranks)), 0)


def freakness(hand: Hand) -> int:
    """Pavlicek's freakness of the hand's pattern: one point for each card over four or
    under three in each suit, plus 2 if the hand has a void, else 1 if it has a singleton.
    4-3-3-3 is 0, 4-4-3-2 1, 5-3-3-2 2, 4-4-4-1 and 5-4-2-2 3, 13-0-0-0 20; a balanced
    hand has at most 2.  0 to :data:`MAX_FREAKNESS`."""
    lengths = hand.lengths
    points = sum(max(0, n - 4) + max(0, 3 - n) for n in lengths)
    return points + (2 if 0 in lengths else 1 if 1 in lengths else 0)


def aces_and_tens_point(hand: Hand) -> int:
    """1 if the hand holds four or more aces and tens together, else 0: the point Pavlicek
    adds to the high-card points "for all bidding"."""
    return int(sum((m >> _A & 1) + (m >> _T & 1) for m in hand.masks) >= 4)


def shortness_points(hand: Hand, suit: SuitLike) -> int:
    """Pavlicek's distributional points of one suit, for suit bidding: a void 3; a
    singleton 2, but none for a singleton king or queen and 1 for a singleton jack; a
    doubleton 1, but none for K-Q, K-J, Q-J, Q-x or J-x."""
    mask = hand.masks[Suit.parse(suit)]
    n = mask.bit_count()
    if n == 0:
        return 3
    if n == 1:
        return 0 if mask >> _K & 1 or mask >> _Q & 1 else 1 if mask >> _J & 1 else 2
    if n == 2:
        return 0 if not mask >> _A & 1 and (mask >> _Q & 1 or mask >> _J & 1) else 1
    return 0


def pavlicek_points(hand: Hand, partner_suit: SuitLike | None = None) -> int:
    """Total points as Pavlicek counts them for suit bidding: high-card points, the
    aces-and-tens point, and the distributional points of :func:`shortness_points` in every
    suit but ``partner_suit`` (he counts none in partner's suit unless a fit is known in
    another).  0 to :data:`MAX_POINTS`."""
    skip = None if partner_suit is None else Suit.parse(partner_suit)
    return hand.hcp + aces_and_tens_point(hand) + sum(
        shortness_points(hand, s) for s in Suit if s != skip)


def support_points(hand: Hand, trumps: SuitLike) -> int:
    """Pavlicek's points for raising partner's ``trumps``: his total points (shortness
    counted in every suit but ``trumps``, the fit being there; none in partner's suit, he
    says, unless a fit is known in another) plus, with four or more trumps, the dummy
    points: 2 more for each void and 1 more for each singleton."""
    t = Suit.parse(trumps)
    points = pavlicek_points(hand, partner_suit=t)
    if hand.length(t) >= 4:
        points += sum(2 if n == 0 else 1 if n == 1 else 0 for n in hand.lengths)
    return points


def revalued_points(hand: Hand) -> int:
    """Pavlicek's points for a hand to be dummy in notrump: high-card points, the
    aces-and-tens point, and one point for each card over four in the longest suit if it is
    headed by the queen or better (no shortness points in notrump)."""
    best = 0
    for m in hand.masks:
        if m >> _Q & 1 or m >> _K & 1 or m >> _A & 1:
            best = max(best, m.bit_count() - 4)
    longest = max(hand.lengths)
    long_points = best if best + 4 == longest else 0
    return hand.hcp + aces_and_tens_point(hand) + max(0, long_points)


def playing_tricks(hand: Hand, suit: SuitLike | None = None) -> float:
    """Pavlicek's playing tricks, in the whole hand or in one suit: per suit, the honours
    by :data:`PLAYING_PATTERNS` plus one trick for each card over three.  A multiple of
    0.5, 0 to 13."""
    suits = range(4) if suit is None else (Suit.parse(suit),)
    halves = sum(_pattern_halves(hand.masks[s], PLAYING_PATTERNS)
                 + 2 * max(0, hand.length(s) - 3) for s in suits)
    return halves / 2


def quick_tricks(hand: Hand, suit: SuitLike | None = None) -> float:
    """Quick tricks, in the whole hand or in one suit, by :data:`QUICK_PATTERNS`.  A
    multiple of 0.5, 0 to 8."""
    suits = range(4) if suit is None else (Suit.parse(suit),)
    return sum(_pattern_halves(hand.masks[s], QUICK_PATTERNS) for s in suits) / 2


# ---- one seat across a batch of deals ------------------------------------------------------

class Features:
    """One hand's features across a batch of deals, computed on first use.

    ``held`` is a (B, 52) bool array: row ``b`` says which cards (by card index) the hand
    holds in deal ``b``.  Every property is a numpy array over the B deals.
    """

    __slots__ = ("held", "rng", "_hcp", "_lengths", "_shape", "_ltc", "_controls",
                 "_shortness", "_aces_tens")

    def __init__(self, held: np.ndarray, rng: np.random.Generator | None = None):
        self.held = held  # (B, 52) bool: the hand holds card i
        self.rng = rng    # the sampler's: draws for the "usually" constraints
        self._hcp: np.ndarray | None = None
        self._lengths: np.ndarray | None = None
        self._shape: np.ndarray | None = None
        self._ltc: np.ndarray | None = None
        self._controls: np.ndarray | None = None
        self._shortness: np.ndarray | None = None
        self._aces_tens: np.ndarray | None = None

    @classmethod
    def of_hand(cls, hand: Hand, rng: np.random.Generator | None = None) -> Features:
        """A batch of one: ``hand``'s features (a hand's test run as the batch test)."""
        held = np.zeros((1, 52), dtype=bool)
        held[0, [c.index for c in hand]] = True
        return cls(held, rng)

    def uniform(self) -> np.ndarray | None:
        """(B,) fresh uniform draws in [0, 1) from the sampler's generator (a
        :class:`~cardgames.constraints.Usually` keeps a hand outside its usual range with
        them); None without a generator."""
        if self.rng is None:
            return None
        return np.asarray(self.rng.random(self.held.shape[0]))

    @property
    def suits(self) -> np.ndarray:
        """(B, 4, 13) bool: held by suit S H D C, rank 2 first (the ace is [..., 12])."""
        return self.held.reshape(-1, 4, 13)

    @property
    def ltc(self) -> np.ndarray:
        """(B,) losing-trick count, as :func:`losing_tricks`."""
        if self._ltc is None:
            s = self.suits
            top = np.minimum(self.lengths, 3)
            self._ltc = (top - s[:, :, 12] - (s[:, :, 11] & (top >= 2))
                         - (s[:, :, 10] & (top >= 3))).sum(axis=1)
        return self._ltc

    @property
    def controls(self) -> np.ndarray:
        """(B,) controls, as :func:`control_count`."""
        if self._controls is None:
            self._controls = self.held @ CONTROLS52
        return self._controls

    @property
    def hcp(self) -> np.ndarray:
        """(B,) high-card points."""
        if self._hcp is None:
            self._hcp = self.held @ HCP52
        return self._hcp

    @property
    def lengths(self) -> np.ndarray:
        """(B, 4) suit lengths, S H D C."""
        if self._lengths is None:
            self._lengths = self.held.reshape(-1, 4, 13).sum(axis=2)
        return self._lengths

    @property
    def shape(self) -> np.ndarray:
        """(B, 4) suit lengths, longest first."""
        if self._shape is None:
            self._shape = -np.sort(-self.lengths, axis=1)
        return self._shape

    # Pavlicek's counts (the functions of the same names above, across the batch)

    def _patterns(self, patterns: tuple[tuple[int, tuple[int, ...], int], ...]) -> np.ndarray:
        """(B, 4) half tricks of each suit by a table of honour patterns, best first."""
        s, n = self.suits, self.lengths
        out = np.zeros(n.shape, dtype=np.int16)
        open_ = np.ones(n.shape, dtype=bool)
        for value, ranks, length in patterns:
            hit = open_ & (n >= length)
            for r in ranks:
                hit &= s[:, :, r - 2]
            out[hit] = value
            open_ &= ~hit
        return out

    def playing_halves(self) -> np.ndarray:
        """(B, 4) playing tricks of each suit, in half tricks (:func:`playing_tricks`)."""
        return self._patterns(PLAYING_PATTERNS) + 2 * np.maximum(self.lengths - 3, 0)

    def quick_halves(self) -> np.ndarray:
        """(B, 4) quick tricks of each suit, in half tricks (:func:`quick_tricks`)."""
        return self._patterns(QUICK_PATTERNS)

    @property
    def freakness(self) -> np.ndarray:
        """(B,) freakness (:func:`freakness`)."""
        n = self.lengths
        extra = np.where((n == 0).any(axis=1), 2, (n == 1).any(axis=1).astype(np.int16))
        return (np.maximum(n - 4, 0) + np.maximum(3 - n, 0)).sum(axis=1) + extra

    @property
    def aces_tens(self) -> np.ndarray:
        """(B,) the aces-and-tens point (:func:`aces_and_tens_point`)."""
        if self._aces_tens is None:
            s = self.suits
            self._aces_tens = ((s[:, :, _A - 2].sum(axis=1) + s[:, :, _T - 2].sum(axis=1))
                               >= 4).astype(np.int16)
        return self._aces_tens

    @property
    def shortness(self) -> np.ndarray:
        """(B, 4) Pavlicek's distributional points of each suit (:func:`shortness_points`)."""
        if self._shortness is None:
            s, n = self.suits, self.lengths
            ace, king, queen, jack = (s[:, :, r - 2] for r in (_A, _K, _Q, _J))
            single = np.where(king | queen, 0, np.where(jack, 1, 2))
            double = np.where(~ace & (queen | jack), 0, 1)
            self._shortness = np.select([n == 0, n == 1, n == 2], [3, single, double], 0)
        return self._shortness

    def pavlicek_points(self, partner_suit: int | None = None) -> np.ndarray:
        """(B,) Pavlicek's total points (:func:`pavlicek_points`)."""
        short = self.shortness
        if partner_suit is not None:
            short = np.delete(short, partner_suit, axis=1)
        return self.hcp + self.aces_tens + short.sum(axis=1)

    def support_points(self, trumps: int) -> np.ndarray:
        """(B,) Pavlicek's support points for ``trumps`` (:func:`support_points`)."""
        n = self.lengths
        dummy = (2 * (n == 0) + (n == 1)).sum(axis=1)
        return self.pavlicek_points(trumps) + np.where(n[:, trumps] >= 4, dummy, 0)

    def revalued_points(self) -> np.ndarray:
        """(B,) Pavlicek's notrump-dummy points (:func:`revalued_points`)."""
        s, n = self.suits, self.lengths
        headed = s[:, :, _A - 2] | s[:, :, _K - 2] | s[:, :, _Q - 2]
        best = np.where(headed, n - 4, -13).max(axis=1)
        long_points = np.where(best + 4 == n.max(axis=1), np.maximum(best, 0), 0)
        return self.hcp + self.aces_tens + long_points
