"""Constraints on one hand, for dealing the hidden hands: high-card points, suit lengths,
shapes, cards held or lacking, ranges of the hand evaluation counts of
:mod:`cardgames.evaluation` (losing-trick count, controls, total points, top honours, suit
quality, points in a suit), a Python predicate, and their combinations (``&``, ``|``,
``~``).  Each constraint tests one :class:`~cardgames.hands.Hand` (``accepts``) and, except
predicates, a whole numpy batch of hands at once (``_mask``), which is what makes the
sampler in :mod:`cardgames.sampling` fast.  Their text form is read by
:mod:`cardgames.constraint_syntax`.

    >>> c = HCP(15, 17) & balanced()
    >>> str(c)
    '15-17 hcp, balanced'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from .cards import SUIT_NAMES, Card, CardLike, Suit, cards_text
from .errors import ParseError, excerpt
from .evaluation import (
    HCP52,
    MAX_CONTROLS,
    MAX_FREAKNESS,
    MAX_HCP,
    MAX_LTC,
    MAX_PLAYING_HALVES,
    MAX_POINTS,
    MAX_QUALITY,
    MAX_QUICK_HALVES,
    MAX_SUIT_HCP,
    Features,
    control_count,
    freakness,
    losing_tricks,
    pavlicek_points,
    playing_tricks,
    quick_tricks,
    revalued_points,
    stopper,
    suit_hcp,
    suit_quality,
    support_points,
    top_honours,
    total_points,
)
from .hands import Hand

# The counts (losing_tricks ... suit_hcp) live in evaluation; they stay importable from here,
# where they were defined before.
__all__ = ["Constraint", "HCP", "Length", "Shape", "Holds", "Lacks", "Predicate", "AllOf",
           "AnyOf", "Not", "Any", "Usually", "usual", "USUALLY_WEIGHT", "check_usually_weight",
           "balanced", "semibalanced", "unbalanced", "contradiction", "LTC", "Controls",
           "TotalPoints", "TopHonours", "SuitQuality", "SuitHCP", "Stopper", "Freakness",
           "PavlicekPoints", "SupportPoints", "RevaluedPoints", "PlayingTricks", "QuickTricks",
           "losing_tricks",
           "control_count", "total_points", "top_honours", "suit_quality", "suit_hcp", "breaks"]

# ---- the constraints ------------------------------------------------------------------------

class Constraint:
    """What a hand must satisfy.  Combine with ``&`` (both), ``|`` (either) and ``~`` (not),
    with another constraint or a predicate on a hand (text: read it first, with
    :func:`~cardgames.constraint_syntax.parse_constraint`).

    Subclasses give an exact per-hand test (:meth:`accepts`), a batch test over numpy arrays
    (``_mask``; None when it needs Python, as :class:`Predicate` does) and the bounds used to
    find impossible constraints before dealing.  ``str()`` gives the text syntax back.
    """

    __slots__ = ()

    def accepts(self, hand: Hand) -> bool:
        """True if ``hand`` meets the constraint."""
        raise NotImplementedError

    def _mask(self, f: Features) -> np.ndarray | None:
        """A (B,) bool array: which hands of the batch meet the constraint; None if this
        cannot be computed with array operations."""
        return None

    def _prefilter(self, f: Features) -> np.ndarray | None:
        """A necessary condition as a batch mask (None: no filter).  For an exact
        constraint it is the constraint itself."""
        return self._mask(f)

    @property
    def vectorised(self) -> bool:
        """True if the batch test is exact (no Python predicate inside)."""
        return True

    def hcp_bounds(self) -> tuple[int, int]:
        """Points any hand meeting the constraint has: (at least, at most)."""
        return 0, MAX_HCP

    def length_bounds(self) -> tuple[tuple[int, int], ...]:
        """Per suit S H D C: (at least, at most) cards."""
        return ((0, 13),) * 4

    def required(self) -> frozenset[Card]:
        """Cards every hand meeting the constraint holds."""
        return frozenset()

    def forbidden(self) -> frozenset[Card]:
        """Cards no hand meeting the constraint holds."""
        return frozenset()

    def __and__(self, other: Constraint) -> Constraint:
        return AllOf(_parts(self, AllOf) + _parts(_part(other), AllOf))

    def __or__(self, other: Constraint) -> Constraint:
        return any_of(_parts(self, AnyOf) + _parts(_part(other), AnyOf))

    def __invert__(self) -> Constraint:
        return Not(self)

    def __repr__(self) -> str:
        return f"parse_constraint({str(self)!r})"


def _part(value: Constraint | Callable[[Hand], bool]) -> Constraint:
    """A part of a combination (``&``, ``|``, ``~``, :class:`AllOf` ...): a constraint, or a
    predicate on a hand, made a :class:`Predicate`.  Text is not read here: that is
    :func:`cardgames.constraint_syntax.as_constraint`, in the module above this one.

    :raises TypeError: for text or anything else.
    """
    if isinstance(value, Constraint):
        return value
    if isinstance(value, str):
        raise TypeError(f"combine constraints, not text: read {excerpt(value)!r} with "
                        f"cardgames.constraint_syntax.as_constraint first")
    if callable(value):
        return Predicate(value)
    raise TypeError(f"expected a Constraint or a predicate, got {type(value).__name__}")


def any_of(parts: Sequence[Constraint]) -> Constraint:
    """``AnyOf(parts)``, with every Shape among them merged into one (at the place of the
    first): "4333 or 4432" is one Shape of two patterns, which is how Shape prints."""
    shapes = [p for p in parts if isinstance(p, Shape)]
    if len(shapes) > 1:
        merged = Shape(*dict.fromkeys(q for p in shapes for q in p.patterns))
        first = parts.index(shapes[0])
        parts = [merged if i == first else p for i, p in enumerate(parts)
                 if not isinstance(p, Shape) or i == first]
    return parts[0] if len(parts) == 1 else AnyOf(parts)


def _parts(c: Constraint, kind: type) -> tuple[Constraint, ...]:
    return c.parts if isinstance(c, kind) else (c,)  # type: ignore[attr-defined]


def _check_range(what: str, lo: int, hi: int, top: int) -> None:
    for v in (lo, hi):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{what} bounds must be ints, got {v!r}")
    if not 0 <= lo <= hi <= top:
        raise ValueError(f"{what} range must satisfy 0 <= low <= high <= {top}, got {lo}-{hi}")


def _range_text(lo: int, hi: int, top: int) -> str:
    if lo == hi:
        return f"{lo}"
    if hi >= top:
        return f"{lo}+"
    return f"{lo}-{hi}"


@dataclass(frozen=True, slots=True, repr=False)
class HCP(Constraint):
    """High-card points (A=4 K=3 Q=2 J=1) between ``low`` and ``high`` inclusive."""

    low: int = 0
    high: int = MAX_HCP

    def __post_init__(self) -> None:
        _check_range("hcp", self.low, self.high, MAX_HCP)

    def accepts(self, hand: Hand) -> bool:
        return self.low <= hand.hcp <= self.high

    def _mask(self, f: Features) -> np.ndarray:
        h = f.hcp
        return (h >= self.low) & (h <= self.high)

    def hcp_bounds(self) -> tuple[int, int]:
        return self.low, self.high

    def __str__(self) -> str:
        if self.low == 0 and self.high < MAX_HCP:
            return f"0-{self.high} hcp"
        return f"{_range_text(self.low, self.high, MAX_HCP)} hcp"


@dataclass(frozen=True, slots=True, repr=False)
class Length(Constraint):
    """Between ``low`` and ``high`` cards (inclusive) in ``suit``."""

    suit: Suit
    low: int = 0
    high: int = 13

    def __post_init__(self) -> None:
        object.__setattr__(self, "suit", Suit.parse(self.suit))
        _check_range("suit length", self.low, self.high, 13)

    def accepts(self, hand: Hand) -> bool:
        return self.low <= hand.length(self.suit) <= self.high

    def _mask(self, f: Features) -> np.ndarray:
        n = f.lengths[:, self.suit]
        return (n >= self.low) & (n <= self.high)

    def length_bounds(self) -> tuple[tuple[int, int], ...]:
        return tuple((self.low, self.high) if s == self.suit else (0, 13) for s in range(4))

    def __str__(self) -> str:
        name = SUIT_NAMES[self.suit]
        if self.low == 0 and self.high < 13:
            return f"{name}<={self.high}"
        return f"{_range_text(self.low, self.high, 13)} {name}"


@dataclass(frozen=True, slots=True, repr=False)
class Shape(Constraint):
    """One of the given shapes: ``"4333"`` is the lengths in any order of suits;
    ``"4=4=3=2"`` is the exact pattern S=H=D=C, where ``x`` stands for any length
    (``"5=x=x=x"``).  Several patterns mean any of them: ``Shape("4333", "4432", "5332")``.
    """

    patterns: tuple[str, ...]

    def __init__(self, *patterns: str):
        if len(patterns) == 1 and not isinstance(patterns[0], str):
            patterns = tuple(patterns[0])
        if not patterns:
            raise ValueError("Shape needs at least one pattern")
        canon = []
        for p in patterns:
            canon.append(_canonical_pattern(p))
        object.__setattr__(self, "patterns", tuple(canon))

    def _parsed(self) -> Iterator[tuple[bool, tuple[int | None, ...]]]:
        for p in self.patterns:
            if "=" in p:
                yield True, tuple(None if d == "x" else int(d) for d in p.split("="))
            else:
                yield False, tuple(int(d) for d in p)

    def accepts(self, hand: Hand) -> bool:
        lengths, shape = hand.lengths, hand.shape
        for exact, digits in self._parsed():
            if exact:
                if all(d is None or d == n for d, n in zip(digits, lengths)):
                    return True
            elif digits == shape:
                return True
        return False

    def _mask(self, f: Features) -> np.ndarray:
        out = None
        for exact, digits in self._parsed():
            if exact:
                m = np.ones(f.held.shape[0], dtype=bool)
                for s, d in enumerate(digits):
                    if d is not None:
                        m &= f.lengths[:, s] == d
            else:
                m = (f.shape == np.array(digits)).all(axis=1)
            out = m if out is None else out | m
        return out  # type: ignore[return-value]

    def length_bounds(self) -> tuple[tuple[int, int], ...]:
        lows, highs = [13] * 4, [0] * 4
        for exact, digits in self._parsed():
            for s in range(4):
                if exact:
                    d = digits[s]
                    lo, hi = (0, 13) if d is None else (d, d)
                else:
                    lo, hi = min(digits), max(digits)  # type: ignore[type-var,assignment]
                lows[s], highs[s] = min(lows[s], lo), max(highs[s], hi)
        return tuple(zip(lows, highs))

    def __str__(self) -> str:
        if set(self.patterns) == {"4333", "4432", "5332"}:
            return "balanced"
        if set(self.patterns) == {"4333", "4432", "5332", "5422", "6322"}:
            return "semibalanced"
        return " or ".join(self.patterns)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shape) and set(self.patterns) == set(other.patterns)

    def __hash__(self) -> int:
        return hash(frozenset(self.patterns))


def _canonical_pattern(p: str) -> str:
    if not isinstance(p, str):
        raise TypeError(f"a shape pattern is text like '4333' or '4=4=3=2', got {p!r}")
    text = p.strip().lower()
    if "=" in text:
        parts = text.split("=")
        if len(parts) != 4 or not all(re.fullmatch(r"\d{1,2}|x", q) for q in parts):
            raise ParseError("an exact pattern is four lengths S=H=D=C, like 4=4=3=2 or 5=x=x=x",
                             excerpt(p))
        known = [int(q) for q in parts if q != "x"]
        if any(n > 13 for n in known) or sum(known) > 13 or (len(known) == 4 and sum(known) != 13):
            raise ParseError("the lengths of a pattern must add up to 13", excerpt(p))
        return "=".join(str(int(q)) if q != "x" else "x" for q in parts)
    if not re.fullmatch(r"\d{4}", text):
        raise ParseError("a shape is four digits like 4333, or an exact pattern like 4=4=3=2",
                         excerpt(p))
    digits = sorted((int(d) for d in text), reverse=True)
    if sum(digits) != 13:
        raise ParseError("the lengths of a shape must add up to 13", excerpt(p))
    return "".join(map(str, digits))


def balanced() -> Shape:
    """4333, 4432 or 5332, suits in any order."""
    return Shape("4333", "4432", "5332")


def contradiction(c: Constraint) -> str | None:
    """Why no hand can meet ``c`` as far as its bounds tell (points, suit lengths), or
    None: ``"no hand has 13 or more and 12 or fewer points (...)"``, or cards it must
    hold that it must lack, or that break its points or lengths.  Cheap, and enough for
    the contradictions auctions and typing make; a constraint it passes may still be
    unmeetable in subtler ways."""
    lo, hi = c.hcp_bounds()
    if lo > hi:
        return f"no hand has {lo} or more and {hi} or fewer points ({c})"
    lengths = c.length_bounds()
    for s, (a, b) in enumerate(lengths):
        if a > b:
            return f"no hand has {a} or more and {b} or fewer {SUIT_NAMES[s]} ({c})"
    if sum(a for a, _ in lengths) > 13 or sum(b for _, b in lengths) < 13:
        return f"the suit lengths of '{c}' cannot add up to 13 cards"
    held, missing = c.required(), c.forbidden()
    if held & missing:
        return f"no hand both holds and lacks {cards_text(held & missing)} ({c})"
    if sum(max(0, int(card.rank) - 10) for card in held) > hi:
        return f"holding {cards_text(held)} is more than {hi} hcp ({c})"
    for s, (_, b) in enumerate(lengths):
        if sum(int(card.suit) == s for card in held) > b:
            return f"no hand holds {cards_text(held)} with {b} or fewer {SUIT_NAMES[s]} ({c})"
    return None


def semibalanced() -> Shape:
    """Balanced, or 5422 and 6322: no singleton or void, no seven-card suit, at most one
    suit of five or six (the shapes many players open 1NT with)."""
    return Shape("4333", "4432", "5332", "5422", "6322")


def unbalanced() -> Not:
    """Any shape but 4333, 4432 and 5332."""
    return Not(balanced())


def _cards(cards: Iterable[CardLike] | CardLike) -> frozenset[Card]:
    if isinstance(cards, (str, Card)):
        items: Iterable[CardLike] = cards.replace(",", " ").split() if isinstance(cards, str) \
            else [cards]
    else:
        items = cards
    out = frozenset(Card.parse(c) for c in items)
    if not out:
        raise ValueError("name at least one card")
    return out


@dataclass(frozen=True, slots=True, repr=False)
class Holds(Constraint):
    """The hand holds every one of ``cards`` (``Holds("SA HK")``, ``Holds(["SA"])``)."""

    cards: frozenset[Card]

    def __init__(self, cards: Iterable[CardLike] | CardLike):
        object.__setattr__(self, "cards", _cards(cards))

    def accepts(self, hand: Hand) -> bool:
        return all(c in hand for c in self.cards)

    def _mask(self, f: Features) -> np.ndarray:
        return np.asarray(f.held[:, [c.index for c in self.cards]].all(axis=1))

    def required(self) -> frozenset[Card]:
        return self.cards

    def __str__(self) -> str:
        return f"holds {cards_text(self.cards)}"


@dataclass(frozen=True, slots=True, repr=False)
class Lacks(Constraint):
    """The hand holds none of ``cards``."""

    cards: frozenset[Card]

    def __init__(self, cards: Iterable[CardLike] | CardLike):
        object.__setattr__(self, "cards", _cards(cards))

    def accepts(self, hand: Hand) -> bool:
        return not any(c in hand for c in self.cards)

    def _mask(self, f: Features) -> np.ndarray:
        return np.asarray(~f.held[:, [c.index for c in self.cards]].any(axis=1))

    def forbidden(self) -> frozenset[Card]:
        return self.cards

    def __str__(self) -> str:
        return f"lacks {cards_text(self.cards)}"


class Predicate(Constraint):
    """Any Python test of a hand: ``Predicate(lambda h: h.length("S") > h.length("H"))``.
    Run only on the deals that pass every array-computed constraint.

    With ``batch``, a test of a whole batch at once -- a function of the batch's
    :class:`~cardgames.evaluation.Features` returning a (B,) bool array -- it is vectorised
    like the built-in constraints: ``Predicate(batch=lambda f: f.lengths[:, 0] >
    f.lengths[:, 1])``.  Given only ``batch``, one hand is tested as a batch of one.  Given
    both, they must be the same test in two forms: the sampler runs ``batch``, a single
    hand (:meth:`accepts`, the worlds of single-dummy advice) runs ``fn``.
    """

    __slots__ = ("fn", "name", "batch")

    def __init__(self, fn: Callable[[Hand], bool] | None = None, name: str | None = None, *,
                 batch: Callable[[Features], np.ndarray] | None = None):
        if fn is None and batch is None:
            raise TypeError("Predicate needs a callable on a hand, or batch=")
        for what, f in (("Predicate", fn), ("batch", batch)):
            if f is not None and not callable(f):
                raise TypeError(f"{what} needs a callable, got {type(f).__name__}")
        self.fn = fn
        self.batch = batch
        self.name = name or getattr(fn if fn is not None else batch, "__name__", "predicate")

    def accepts(self, hand: Hand) -> bool:
        if self.fn is not None:
            return bool(self.fn(hand))
        mask = self._mask(Features.of_hand(hand))
        assert mask is not None  # fn or batch is given
        return bool(mask[0])

    def _mask(self, f: Features) -> np.ndarray | None:
        if self.batch is None:
            return None
        out = np.asarray(self.batch(f))
        if out.shape != (f.held.shape[0],) or out.dtype != bool:
            raise TypeError(f"the batch test of {self.name} must return a bool array of shape "
                            f"({f.held.shape[0]},), got {out.dtype} {out.shape}")
        return out

    @property
    def vectorised(self) -> bool:
        return self.batch is not None

    def __str__(self) -> str:
        return f"<{self.name}>"

    def __repr__(self) -> str:
        if self.fn is None:
            return f"Predicate(batch={self.batch!r})"
        return f"Predicate({self.fn!r})"


class Any(Constraint):
    """No constraint."""

    __slots__ = ()

    def accepts(self, hand: Hand) -> bool:
        return True

    def _mask(self, f: Features) -> np.ndarray:
        return np.ones(f.held.shape[0], dtype=bool)

    def __str__(self) -> str:
        return "any"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Any)

    def __hash__(self) -> int:
        return hash("any")


@dataclass(frozen=True, slots=True, repr=False)
class AllOf(Constraint):
    """Every part holds (what ``a & b`` makes)."""

    parts: tuple[Constraint, ...]

    def __init__(self, parts: Iterable[Constraint]):
        object.__setattr__(self, "parts", tuple(_part(p) for p in parts))

    def accepts(self, hand: Hand) -> bool:
        return all(p.accepts(hand) for p in self.parts)

    @property
    def vectorised(self) -> bool:
        return all(p.vectorised for p in self.parts)

    def _mask(self, f: Features) -> np.ndarray | None:
        if not self.vectorised:
            return None
        m = self._prefilter(f)
        # (no parts: every hand, as accepts() says -- not None, which 'not' would pass on)
        return np.ones(f.held.shape[0], dtype=bool) if m is None else m

    def _prefilter(self, f: Features) -> np.ndarray | None:
        out = None
        for p in self.parts:
            m = p._prefilter(f)
            if m is not None:
                out = m if out is None else out & m
        return out

    def hcp_bounds(self) -> tuple[int, int]:
        bounds = [p.hcp_bounds() for p in self.parts]
        return max((b[0] for b in bounds), default=0), min((b[1] for b in bounds),
                                                             default=MAX_HCP)

    def length_bounds(self) -> tuple[tuple[int, int], ...]:
        out = [(0, 13)] * 4
        for p in self.parts:
            out = [(max(a[0], b[0]), min(a[1], b[1])) for a, b in zip(out, p.length_bounds())]
        return tuple(out)

    def required(self) -> frozenset[Card]:
        return frozenset().union(*(p.required() for p in self.parts))

    def forbidden(self) -> frozenset[Card]:
        return frozenset().union(*(p.forbidden() for p in self.parts))

    def __str__(self) -> str:
        return ", ".join(str(p) for p in self.parts) or "any"


@dataclass(frozen=True, slots=True, repr=False)
class AnyOf(Constraint):
    """At least one part holds (what ``a | b`` makes)."""

    parts: tuple[Constraint, ...]

    def __init__(self, parts: Iterable[Constraint]):
        object.__setattr__(self, "parts", tuple(_part(p) for p in parts))
        if not self.parts:
            raise ValueError("AnyOf needs at least one part")
        if not self.vectorised and _holds_usually(self):
            # The sampler draws for 'usually' only in batches, and an alternative it cannot
            # test in batches sends the whole 'or' to accepts(), which keeps every hand.
            raise ValueError(f"'usually' cannot be joined by 'or' with a Python predicate "
                             f"({self}); join them with ',' or '&', or test the 'or' in the "
                             f"predicate")

    def accepts(self, hand: Hand) -> bool:
        return any(p.accepts(hand) for p in self.parts)

    @property
    def vectorised(self) -> bool:
        return all(p.vectorised for p in self.parts)

    def _mask(self, f: Features) -> np.ndarray | None:
        if not self.vectorised:
            return None
        return self._prefilter(f)

    def _prefilter(self, f: Features) -> np.ndarray | None:
        out = None
        for p in self.parts:
            m = p._prefilter(f)
            if m is None:  # this alternative cannot be pre-filtered, so nothing can be
                return None
            out = m if out is None else out | m
        return out

    def hcp_bounds(self) -> tuple[int, int]:
        bounds = [p.hcp_bounds() for p in self.parts]
        return min(b[0] for b in bounds), max(b[1] for b in bounds)

    def length_bounds(self) -> tuple[tuple[int, int], ...]:
        all_bounds = [p.length_bounds() for p in self.parts]
        return tuple((min(b[s][0] for b in all_bounds), max(b[s][1] for b in all_bounds))
                     for s in range(4))

    def required(self) -> frozenset[Card]:
        return frozenset.intersection(*(p.required() for p in self.parts))

    def forbidden(self) -> frozenset[Card]:
        return frozenset.intersection(*(p.forbidden() for p in self.parts))

    def __str__(self) -> str:
        return " or ".join(f"({p})" if isinstance(p, AllOf) else str(p) for p in self.parts)


@dataclass(frozen=True, slots=True, repr=False)
class Not(Constraint):
    """The part does not hold (what ``~a`` makes)."""

    part: Constraint

    def __post_init__(self) -> None:
        object.__setattr__(self, "part", _part(self.part))
        if _holds_usually(self.part):
            raise ValueError(f"'not' cannot take a 'usually' constraint ({self.part}): "
                             f"what a hand usually is does not say what it never is")

    def accepts(self, hand: Hand) -> bool:
        return not self.part.accepts(hand)

    @property
    def vectorised(self) -> bool:
        return self.part.vectorised

    def _mask(self, f: Features) -> np.ndarray | None:
        m = self.part._mask(f) if self.part.vectorised else None
        return None if m is None else ~m

    def _prefilter(self, f: Features) -> np.ndarray | None:
        return self._mask(f)

    def required(self) -> frozenset[Card]:
        # not (lacks X) is holds X only for one card: "not lacks SA HK" is "holds SA or HK"
        return self.part.forbidden() if isinstance(self.part, Lacks) and \
            len(self.part.cards) == 1 else frozenset()

    def forbidden(self) -> frozenset[Card]:
        return self.part.required() if isinstance(self.part, Holds) and \
            len(self.part.cards) == 1 else frozenset()

    def __str__(self) -> str:
        if self.part == balanced():
            return "unbalanced"
        inner = str(self.part)
        compound = isinstance(self.part, (AllOf, AnyOf)) or " or " in inner
        return f"not ({inner})" if compound else f"not {inner}"



#: How often a hand outside a :class:`Usually` constraint's part is kept, against one inside.
USUALLY_WEIGHT = 0.1


@dataclass(frozen=True, slots=True, repr=False)
class Usually(Constraint):
    """The part usually holds: a hand outside it is possible, dealt ``weight`` times as
    often as it would be otherwise (the sampler keeps it with that probability).  What
    real bidding is like: an upgraded 14-count opens a 15-17 notrump, a good three-card
    suit is bid as four.  Every hand meets it (:meth:`accepts`, :func:`breaks` and the
    bounds say so); :func:`usual` gives the strict constraint.  Only the sampler, which
    draws for it, treats a hand outside the part as less likely; ``not`` cannot take it.
    Text: ``usually 15-17 hcp``, ``usually(0.2) (15-17 hcp, balanced)``.

    >>> str(HCP(12, 30) & Usually(HCP(15, 17)))
    '12-30 hcp, usually 15-17 hcp'
    """

    part: Constraint
    weight: float = USUALLY_WEIGHT

    def __post_init__(self) -> None:
        object.__setattr__(self, "part", _part(self.part))
        check_usually_weight(self.weight)
        if not self.part.vectorised:
            raise ValueError(f"'usually' needs a constraint the sampler tests in batches, "
                             f"not a Python predicate ({self.part})")
        if _holds_usually(self.part):
            raise ValueError(f"'usually' cannot nest ({self.part})")

    def accepts(self, hand: Hand) -> bool:
        return True

    def _mask(self, f: Features) -> np.ndarray:
        inside = self.part._mask(f)
        assert inside is not None
        draws = f.uniform()
        if draws is None:       # no sampler drawing: every hand is possible
            return np.ones(f.held.shape[0], dtype=bool)
        return inside | (draws < self.weight)

    def __str__(self) -> str:
        inner = str(self.part)
        if isinstance(self.part, (AllOf, AnyOf)) or \
                (not isinstance(self.part, Not) and (" or " in inner or "," in inner)):
            inner = f"({inner})"
        # (the shortest decimal that reads back as the same weight: never '1e-05')
        head = "usually" if self.weight == USUALLY_WEIGHT else \
            f"usually({np.format_float_positional(self.weight, trim='-')})"
        return f"{head} {inner}"


def check_usually_weight(w: object) -> None:
    """A :class:`Usually` weight is a probability: ``ValueError`` otherwise."""
    if isinstance(w, bool) or not isinstance(w, (int, float)) or not 0 <= w <= 1:
        shown = f"{w:g}" if isinstance(w, (int, float)) and not isinstance(w, bool) else repr(w)
        raise ValueError(f"a 'usually' weight is a probability from 0 to 1, not {shown}")


def _holds_usually(c: Constraint) -> bool:
    """Whether a :class:`Usually` is in ``c`` (a :class:`Not` never holds one)."""
    if isinstance(c, Usually):
        return True
    return isinstance(c, (AllOf, AnyOf)) and any(_holds_usually(p) for p in c.parts)


def usual(c: Constraint) -> Constraint:
    """``c`` with each :class:`Usually` made strict (its part must hold): the hands as the
    constraint usually has them.  ``c`` itself when it holds none."""
    if isinstance(c, Usually):
        return c.part
    if isinstance(c, (AllOf, AnyOf)) and _holds_usually(c):
        return type(c)([usual(p) for p in c.parts])
    return c


# ---- hand evaluation: ranges of the counts of cardgames.evaluation --------------------------

def _value_text(subject: str, lo: int, hi: int, top: int) -> str:
    """``7-9 ltc``, ``5+ controls``, ``ltc<=7``: the text form of a range of a count."""
    if lo == 0 and hi < top:
        return f"{subject}<={hi}"
    return f"{_range_text(lo, hi, top)} {subject}"


@dataclass(frozen=True, slots=True, repr=False)
class LTC(Constraint):
    """A losing-trick count (see :func:`losing_tricks`) between ``low`` and ``high``."""

    low: int = 0
    high: int = MAX_LTC

    def __post_init__(self) -> None:
        _check_range("ltc", self.low, self.high, MAX_LTC)

    def accepts(self, hand: Hand) -> bool:
        return self.low <= losing_tricks(hand) <= self.high

    def _mask(self, f: Features) -> np.ndarray:
        n = f.ltc
        return (n >= self.low) & (n <= self.high)

    def __str__(self) -> str:
        return _value_text("ltc", self.low, self.high, MAX_LTC)


@dataclass(frozen=True, slots=True, repr=False)
class Controls(Constraint):
    """Controls (ace 2, king 1) between ``low`` and ``high``."""

    low: int = 0
    high: int = MAX_CONTROLS

    def __post_init__(self) -> None:
        _check_range("controls", self.low, self.high, MAX_CONTROLS)

    def accepts(self, hand: Hand) -> bool:
        return self.low <= control_count(hand) <= self.high

    def _mask(self, f: Features) -> np.ndarray:
        n = f.controls
        return (n >= self.low) & (n <= self.high)

    def __str__(self) -> str:
        return _value_text("controls", self.low, self.high, MAX_CONTROLS)


_POINT_WORDS = {(True, False): "tp", (False, True): "dp", (True, True): "lsp"}


@dataclass(frozen=True, slots=True, repr=False)
class TotalPoints(Constraint):
    """High-card points plus distribution between ``low`` and ``high`` (see
    :func:`total_points`).  In the text syntax ``tp`` counts length (``13+ tp``), ``dp``
    shortness (dummy points, ``dp 10-12``) and ``lsp`` both."""

    low: int = 0
    high: int = MAX_POINTS
    length: bool = True
    shortness: bool = False

    def __post_init__(self) -> None:
        _check_range("points", self.low, self.high, MAX_POINTS)
        if not (self.length or self.shortness):
            raise ValueError("TotalPoints counts length, shortness or both (else use HCP)")

    def accepts(self, hand: Hand) -> bool:
        return self.low <= total_points(hand, self.length, self.shortness) <= self.high

    def _mask(self, f: Features) -> np.ndarray:
        n = f.hcp.astype(np.int16)
        if self.length:
            n = n + np.maximum(f.lengths - 4, 0).sum(axis=1)
        if self.shortness:
            n = n + np.maximum(3 - f.lengths, 0).sum(axis=1)
        return (n >= self.low) & (n <= self.high)

    def hcp_bounds(self) -> tuple[int, int]:
        # Length points come to at most 9 (a 13-card suit), shortness points to at most 9
        # (three voids).
        extra = 9 * self.length + 9 * self.shortness
        return max(0, self.low - extra), min(self.high, MAX_HCP)

    def __str__(self) -> str:
        return _value_text(_POINT_WORDS[self.length, self.shortness], self.low, self.high,
                           MAX_POINTS)


@dataclass(frozen=True, slots=True, repr=False)
class TopHonours(Constraint):
    """Between ``low`` and ``high`` of the ``top`` highest cards of ``suit``:
    ``TopHonours("S", 2, 3)`` is "2 of the top 3 spades" (``2+ of top 3 spades``)."""

    suit: Suit
    low: int = 0
    high: int = 3
    top: int = 3

    def __post_init__(self) -> None:
        object.__setattr__(self, "suit", Suit.parse(self.suit))
        if isinstance(self.top, bool) or not isinstance(self.top, int) or not 1 <= self.top <= 13:
            raise ValueError(f"top must be 1..13, got {self.top!r}")
        _check_range("top honours", self.low, self.high, self.top)

    def _cards(self) -> list[int]:
        return [self.suit * 13 + r - 2 for r in range(15 - self.top, 15)]

    def accepts(self, hand: Hand) -> bool:
        return self.low <= top_honours(hand, self.suit, self.top) <= self.high

    def _mask(self, f: Features) -> np.ndarray:
        n = f.held[:, self._cards()].sum(axis=1)
        return (n >= self.low) & (n <= self.high)

    def length_bounds(self) -> tuple[tuple[int, int], ...]:
        return tuple((self.low, 13) if s == self.suit else (0, 13) for s in range(4))

    def required(self) -> frozenset[Card]:
        if self.low < self.top:
            return frozenset()
        return frozenset(Card.from_index(i) for i in self._cards())

    def forbidden(self) -> frozenset[Card]:
        if self.high > 0:
            return frozenset()
        return frozenset(Card.from_index(i) for i in self._cards())

    def __str__(self) -> str:
        subject = f"top {self.top} {SUIT_NAMES[self.suit]}"
        if self.low == 0 and self.high < self.top:
            return f"{subject}<={self.high}"
        return f"{_range_text(self.low, self.high, self.top)} of {subject}"


@dataclass(frozen=True, slots=True, repr=False)
class SuitQuality(Constraint):
    """Suit quality (length plus honours A K Q J 10, see :func:`suit_quality`) of ``suit``
    between ``low`` and ``high``: ``8+ quality hearts``."""

    suit: Suit
    low: int = 0
    high: int = MAX_QUALITY

    def __post_init__(self) -> None:
        object.__setattr__(self, "suit", Suit.parse(self.suit))
        _check_range("suit quality", self.low, self.high, MAX_QUALITY)

    def accepts(self, hand: Hand) -> bool:
        return self.low <= suit_quality(hand, self.suit) <= self.high

    def _mask(self, f: Features) -> np.ndarray:
        s = self.suit
        n = f.lengths[:, s] + f.held[:, s * 13 + 8:s * 13 + 13].sum(axis=1)
        return (n >= self.low) & (n <= self.high)

    def length_bounds(self) -> tuple[tuple[int, int], ...]:
        # quality = length + honours, and honours <= min(length, 5)
        lo = max(0, self.low - 5, (self.low + 1) // 2)
        return tuple((lo, min(13, self.high)) if s == self.suit else (0, 13) for s in range(4))

    def __str__(self) -> str:
        return _value_text(f"quality {SUIT_NAMES[self.suit]}", self.low, self.high,
                           MAX_QUALITY)


@dataclass(frozen=True, slots=True, repr=False)
class SuitHCP(Constraint):
    """High-card points in ``suit`` between ``low`` and ``high``: ``4+ hcp in spades``."""

    suit: Suit
    low: int = 0
    high: int = MAX_SUIT_HCP

    def __post_init__(self) -> None:
        object.__setattr__(self, "suit", Suit.parse(self.suit))
        _check_range("hcp in a suit", self.low, self.high, MAX_SUIT_HCP)

    def accepts(self, hand: Hand) -> bool:
        return self.low <= suit_hcp(hand, self.suit) <= self.high

    def _mask(self, f: Features) -> np.ndarray:
        s = self.suit
        n = f.held[:, s * 13:s * 13 + 13] @ HCP52[:13]
        return (n >= self.low) & (n <= self.high)

    def hcp_bounds(self) -> tuple[int, int]:
        return self.low, MAX_HCP

    def __str__(self) -> str:
        return _value_text(f"hcp in {SUIT_NAMES[self.suit]}", self.low, self.high,
                           MAX_SUIT_HCP)


@dataclass(frozen=True, slots=True, repr=False)
class Stopper(Constraint):
    """A stopper in ``suit`` (see :func:`~cardgames.evaluation.stopper`: A, Kx, Qxx or
    Jxxx): ``stopper hearts``.  What a no-trump bid shows in the opponents' suit."""

    suit: Suit

    def __post_init__(self) -> None:
        object.__setattr__(self, "suit", Suit.parse(self.suit))

    def accepts(self, hand: Hand) -> bool:
        return stopper(hand, self.suit)

    def _mask(self, f: Features) -> np.ndarray:
        s, n = f.suits[:, self.suit], f.lengths[:, self.suit]
        # the ace (rank index 12), or the king, queen, jack with 1, 2, 3 more cards
        return s[:, 12] | (s[:, 11] & (n >= 2)) | (s[:, 10] & (n >= 3)) | (s[:, 9] & (n >= 4))

    def length_bounds(self) -> tuple[tuple[int, int], ...]:
        return tuple((1, 13) if s == self.suit else (0, 13) for s in range(4))

    def __str__(self) -> str:
        return f"stopper {SUIT_NAMES[self.suit]}"


# ---- Pavlicek's counts: freakness, his points, playing and quick tricks ----------------------

def _trick_text(v: float) -> str:
    return f"{v:g}"


def _check_halves(what: str, lo: float, hi: float, top: float) -> None:
    for v in (lo, hi):
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise TypeError(f"{what} bounds must be numbers, got {v!r}")
        if float(v) * 2 != int(float(v) * 2):
            raise ValueError(f"{what} counts in half tricks: {v!r} is not a multiple of 0.5")
    if not 0 <= lo <= hi <= top:
        raise ValueError(f"{what} range must satisfy 0 <= low <= high <= {top:g}, "
                         f"got {lo:g}-{hi:g}")


@dataclass(frozen=True, slots=True, repr=False)
class Freakness(Constraint):
    """Pavlicek's freakness (see :func:`~cardgames.evaluation.freakness`) between ``low``
    and ``high``: ``freakness<=7``."""

    low: int = 0
    high: int = MAX_FREAKNESS

    def __post_init__(self) -> None:
        _check_range("freakness", self.low, self.high, MAX_FREAKNESS)

    def value(self, hand: Hand) -> int:
        return freakness(hand)

    def accepts(self, hand: Hand) -> bool:
        return self.low <= freakness(hand) <= self.high

    def _mask(self, f: Features) -> np.ndarray:
        n = f.freakness
        return (n >= self.low) & (n <= self.high)

    def __str__(self) -> str:
        return _value_text("freakness", self.low, self.high, MAX_FREAKNESS)


@dataclass(frozen=True, slots=True, repr=False)
class PavlicekPoints(Constraint):
    """Pavlicek's total points (see :func:`~cardgames.evaluation.pavlicek_points`) between
    ``low`` and ``high``, not counting shortness in ``partner_suit`` if given:
    ``13-14 pp``, ``pp outside spades>=11``."""

    low: int = 0
    high: int = MAX_POINTS
    partner_suit: Suit | None = None

    def __post_init__(self) -> None:
        if self.partner_suit is not None:
            object.__setattr__(self, "partner_suit", Suit.parse(self.partner_suit))
        _check_range("points", self.low, self.high, MAX_POINTS)

    def value(self, hand: Hand) -> int:
        return pavlicek_points(hand, self.partner_suit)

    def accepts(self, hand: Hand) -> bool:
        return self.low <= self.value(hand) <= self.high

    def _mask(self, f: Features) -> np.ndarray:
        n = f.pavlicek_points(self.partner_suit)
        return (n >= self.low) & (n <= self.high)

    def hcp_bounds(self) -> tuple[int, int]:
        # the aces-and-tens point and at most three voids (9) come on top of the hcp
        return max(0, self.low - 10), min(self.high, MAX_HCP)

    def __str__(self) -> str:
        what = "pp" if self.partner_suit is None else \
            f"pp outside {SUIT_NAMES[self.partner_suit]}"
        return _value_text(what, self.low, self.high, MAX_POINTS)


@dataclass(frozen=True, slots=True, repr=False)
class SupportPoints(Constraint):
    """Pavlicek's support points for raising ``trumps`` (see
    :func:`~cardgames.evaluation.support_points`) between ``low`` and ``high``:
    ``11+ support hearts``."""

    trumps: Suit
    low: int = 0
    high: int = MAX_POINTS

    def __post_init__(self) -> None:
        object.__setattr__(self, "trumps", Suit.parse(self.trumps))
        _check_range("support points", self.low, self.high, MAX_POINTS)

    def value(self, hand: Hand) -> int:
        return support_points(hand, self.trumps)

    def accepts(self, hand: Hand) -> bool:
        return self.low <= self.value(hand) <= self.high

    def _mask(self, f: Features) -> np.ndarray:
        n = f.support_points(self.trumps)
        return (n >= self.low) & (n <= self.high)

    def hcp_bounds(self) -> tuple[int, int]:
        # on top of the hcp: the aces-and-tens point, 3 + 2 for each of at most three voids
        return max(0, self.low - 16), min(self.high, MAX_HCP)

    def __str__(self) -> str:
        return _value_text(f"support {SUIT_NAMES[self.trumps]}", self.low, self.high,
                           MAX_POINTS)


@dataclass(frozen=True, slots=True, repr=False)
class RevaluedPoints(Constraint):
    """Pavlicek's points for a notrump dummy (see
    :func:`~cardgames.evaluation.revalued_points`) between ``low`` and ``high``:
    ``10-14 rp``."""

    low: int = 0
    high: int = MAX_POINTS

    def __post_init__(self) -> None:
        _check_range("revalued points", self.low, self.high, MAX_POINTS)

    def value(self, hand: Hand) -> int:
        return revalued_points(hand)

    def accepts(self, hand: Hand) -> bool:
        return self.low <= revalued_points(hand) <= self.high

    def _mask(self, f: Features) -> np.ndarray:
        n = f.revalued_points()
        return (n >= self.low) & (n <= self.high)

    def hcp_bounds(self) -> tuple[int, int]:
        # the aces-and-tens point and at most 9 long-suit points
        return max(0, self.low - 10), min(self.high, MAX_HCP)

    def __str__(self) -> str:
        return _value_text("rp", self.low, self.high, MAX_POINTS)


@dataclass(frozen=True, slots=True, repr=False)
class _Tricks(Constraint):
    """A count of tricks in half-trick steps, in the hand or in one ``suit``."""

    low: float = 0
    high: float = 13
    suit: Suit | None = None

    def __post_init__(self) -> None:
        if self.suit is not None:
            object.__setattr__(self, "suit", Suit.parse(self.suit))
        _check_halves(self._word, self.low, self.high, self._top / 2)

    _word = ""
    _top = 0

    def _halves(self, f: Features) -> np.ndarray:
        raise NotImplementedError

    def value(self, hand: Hand) -> float:
        raise NotImplementedError

    def accepts(self, hand: Hand) -> bool:
        return self.low <= self.value(hand) <= self.high

    def _mask(self, f: Features) -> np.ndarray:
        per_suit = self._halves(f)
        n = per_suit.sum(axis=1) if self.suit is None else per_suit[:, self.suit]
        return (n >= 2 * self.low) & (n <= 2 * self.high)

    def __str__(self) -> str:
        what = self._word if self.suit is None else f"{self._word} in {SUIT_NAMES[self.suit]}"
        top = self._top / 2
        if self.low == 0 and self.high < top:
            return f"{what}<={_trick_text(self.high)}"
        if self.low == self.high:
            rng = _trick_text(self.low)
        elif self.high >= top:
            rng = f"{_trick_text(self.low)}+"
        else:
            rng = f"{_trick_text(self.low)}-{_trick_text(self.high)}"
        return f"{rng} {what}"


@dataclass(frozen=True, slots=True, repr=False)
class PlayingTricks(_Tricks):
    """Pavlicek's playing tricks (see :func:`~cardgames.evaluation.playing_tricks`) between
    ``low`` and ``high``, multiples of 0.5, in the hand or in ``suit``: ``pt 5.5-6.5``,
    ``pt in spades>=4.5``."""

    low: float = 0
    high: float = MAX_PLAYING_HALVES / 2
    suit: Suit | None = None
    _word = "pt"
    _top = MAX_PLAYING_HALVES

    def _halves(self, f: Features) -> np.ndarray:
        return f.playing_halves()

    def value(self, hand: Hand) -> float:
        return playing_tricks(hand, self.suit)


@dataclass(frozen=True, slots=True, repr=False)
class QuickTricks(_Tricks):
    """Quick tricks (see :func:`~cardgames.evaluation.quick_tricks`) between ``low`` and
    ``high``, multiples of 0.5, in the hand or in ``suit``: ``qt<=1.5``."""

    low: float = 0
    high: float = MAX_QUICK_HALVES / 2
    suit: Suit | None = None
    _word = "qt"
    _top = MAX_QUICK_HALVES

    def _halves(self, f: Features) -> np.ndarray:
        return f.quick_halves()

    def value(self, hand: Hand) -> float:
        return quick_tricks(hand, self.suit)


def breaks(constraint: Constraint, hand: Hand) -> str | None:
    """What ``hand`` fails of ``constraint``, in words (None if it meets it): each failing
    term of the constraint with what the hand has, e.g. ``"15-17 hcp (has 14)"``."""
    if constraint.accepts(hand):
        return None
    parts = constraint.parts if isinstance(constraint, AllOf) else (constraint,)
    failed = []
    for p in parts:
        if p.accepts(hand):
            continue
        if isinstance(p, HCP):
            have = f"has {hand.hcp}"
        elif isinstance(p, Length):
            have = f"has {hand.length(p.suit)}"
        elif isinstance(p, Shape):
            have = "is " + "=".join(map(str, hand.lengths))
        elif isinstance(p, (Freakness, PavlicekPoints, SupportPoints, RevaluedPoints,
                            _Tricks)):
            have = f"has {p.value(hand):g}"
        else:
            have = "S=H=D=C " + "=".join(map(str, hand.lengths)) + f", {hand.hcp} hcp"
        failed.append(f"{p} ({have})")
    return "; ".join(failed)
