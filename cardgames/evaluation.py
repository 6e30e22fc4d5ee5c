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

from .cards import Suit
from .hands import HCP_BY_RANK, Hand

__all__ = ["losing_tricks", "control_count", "total_points", "top_honours", "suit_quality",
           "suit_hcp", "Features", "MAX_HCP", "MAX_LTC", "MAX_CONTROLS", "MAX_POINTS",
           "MAX_QUALITY", "MAX_SUIT_HCP", "HCP52", "CONTROLS52", "RANK_BITS"]

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


def suit_hcp(hand: Hand, suit: Suit | str) -> int:
    """High-card points in one suit."""
    mask = hand.masks[Suit.parse(suit)]
    return sum(p for r, p in HCP_BY_RANK.items() if mask >> r & 1)


# ---- one seat across a batch of deals ------------------------------------------------------

class Features:
    """One hand's features across a batch of deals, computed on first use.

    ``held`` is a (B, 52) bool array: row ``b`` says which cards (by card index) the hand
    holds in deal ``b``.  Every property is a numpy array over the B deals.
    """

    __slots__ = ("held", "_hcp", "_lengths", "_shape", "_ltc", "_controls")

    def __init__(self, held: np.ndarray):
        self.held = held  # (B, 52) bool: the hand holds card i
        self._hcp: np.ndarray | None = None
        self._lengths: np.ndarray | None = None
        self._shape: np.ndarray | None = None
        self._ltc: np.ndarray | None = None
        self._controls: np.ndarray | None = None

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
