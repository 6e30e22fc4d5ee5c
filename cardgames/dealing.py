"""Dealing the hidden hands at random, under constraints: the sampling half of Monte-Carlo
analysis.

Some cards are known (whole hands, or a few cards of a hand); the rest are dealt at random
to fill every hand to 13 cards, keeping only the deals whose hands meet the constraints.
Each hand's constraint is a small composable object::

    >>> c = HCP(15, 17) & balanced()
    >>> str(c)
    '15-17 hcp, balanced'
    >>> parse_constraint("15-17 hcp, balanced") == c
    True
    >>> str(parse_constraint("5+ hearts, hcp<=10, holds SA"))
    '5+ hearts, 0-10 hcp, holds SA'

The text syntax (for the command line) is a comma-separated list of terms that must all
hold (``and`` also separates them); ``or`` joins alternatives inside one item and binds
tighter than the comma, so ``"11-15 hcp, 5+ spades or 5+ hearts"`` means 11-15 points and a
five-card major.  ``not`` negates one term.  The terms:

========================================  ===============================================
``15-17 hcp``, ``12+ hcp``, ``hcp>=12``,  high-card points (A=4 K=3 Q=2 J=1), inclusive
``hcp<=10``, ``hcp=8``, ``hcp 6-9``
``5+ spades``, ``4-5 hearts``,            suit length; suits as words (``spades``,
``spades>=4``, ``clubs<=2``, ``3 diamonds``  ``spade``), letters ``S H D C`` or symbols
``4333``, ``5431``                        shape, the suits in any order
``4=4=3=2``, ``5=x=x=x``                  exact pattern in the order S=H=D=C; ``x`` is any
``balanced`` / ``unbalanced``             4333, 4432 or 5332 (or not)
``holds SA``, ``holds SA HK``             these cards are in the hand
``lacks SA``                              none of these cards is in the hand
``any``                                   no constraint
========================================  ===============================================

Malformed text raises :class:`~cardgames.errors.ParseError` naming the offending text and
its column.  A Python predicate on a hand joins in with :class:`Predicate` (``& Predicate(fn)``);
a predicate on the whole deal goes to :class:`Sampler` as ``predicate=``.

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
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .cards import Card, CardLike, Rank, Seat, SeatLike, Suit
from .errors import DealError, ParseError, SamplingError
from .hands import HCP_BY_RANK, Deal, Hand

__all__ = ["Constraint", "HCP", "Length", "Shape", "Holds", "Lacks", "Predicate", "AllOf",
           "AnyOf", "Not", "Any", "balanced", "unbalanced", "parse_constraint", "Sampler",
           "SampleResult", "deal_hidden", "as_constraint"]

# ---- card tables (card index = suit * 13 + rank - 2, as Card.index) ------------------------

_HCP52 = np.array([HCP_BY_RANK.get(i % 13 + 2, 0) for i in range(52)], dtype=np.int16)
_RANK_BITS = np.array([1 << r for r in range(2, 15)], dtype=np.int64)
_MAX_HCP = 37  # A K Q J of four suits, less the three points a thirteen-card hand lacks
_SUIT_WORDS = {"SPADES": Suit.SPADES, "SPADE": Suit.SPADES, "S": Suit.SPADES, "♠": Suit.SPADES,
               "HEARTS": Suit.HEARTS, "HEART": Suit.HEARTS, "H": Suit.HEARTS, "♥": Suit.HEARTS,
               "DIAMONDS": Suit.DIAMONDS, "DIAMOND": Suit.DIAMONDS, "D": Suit.DIAMONDS,
               "♦": Suit.DIAMONDS, "CLUBS": Suit.CLUBS, "CLUB": Suit.CLUBS, "C": Suit.CLUBS,
               "♣": Suit.CLUBS}
_SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


class _Features:
    """One hand's features across a batch of deals, computed on first use."""

    __slots__ = ("held", "_hcp", "_lengths", "_shape")

    def __init__(self, held: np.ndarray):
        self.held = held  # (B, 52) bool: the hand holds card i
        self._hcp: np.ndarray | None = None
        self._lengths: np.ndarray | None = None
        self._shape: np.ndarray | None = None

    @property
    def hcp(self) -> np.ndarray:
        if self._hcp is None:
            self._hcp = self.held @ _HCP52
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


# ---- the constraints ------------------------------------------------------------------------

class Constraint:
    """What a hand must satisfy.  Combine with ``&`` (both), ``|`` (either) and ``~`` (not).

    Subclasses give an exact per-hand test (:meth:`accepts`), a batch test over numpy arrays
    (``_mask``; None when it needs Python, as :class:`Predicate` does) and the bounds used to
    find impossible constraints before dealing.  ``str()`` gives the text syntax back.
    """

    __slots__ = ()

    def accepts(self, hand: Hand) -> bool:
        """True if ``hand`` meets the constraint."""
        raise NotImplementedError

    def _mask(self, f: _Features) -> np.ndarray | None:
        """A (B,) bool array: which hands of the batch meet the constraint; None if this
        cannot be computed with array operations."""
        return None

    def _prefilter(self, f: _Features) -> np.ndarray | None:
        """A necessary condition as a batch mask (None: no filter).  For an exact
        constraint it is the constraint itself."""
        return self._mask(f)

    @property
    def vectorised(self) -> bool:
        """True if the batch test is exact (no Python predicate inside)."""
        return True

    def hcp_bounds(self) -> tuple[int, int]:
        """Points any hand meeting the constraint has: (at least, at most)."""
        return 0, _MAX_HCP

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
        return AllOf(_parts(self, AllOf) + _parts(as_constraint(other), AllOf))

    def __or__(self, other: Constraint) -> Constraint:
        return _any_of(_parts(self, AnyOf) + _parts(as_constraint(other), AnyOf))

    def __invert__(self) -> Constraint:
        return Not(self)

    def __repr__(self) -> str:
        return f"parse_constraint({str(self)!r})"


def as_constraint(value: Constraint | str | Callable[[Hand], bool]) -> Constraint:
    """A :class:`Constraint` from a constraint, its text, or a predicate on a hand.

    :raises ParseError: for malformed text.
    :raises TypeError: for anything else.
    """
    if isinstance(value, Constraint):
        return value
    if isinstance(value, str):
        return parse_constraint(value)
    if callable(value):
        return Predicate(value)
    raise TypeError(f"expected a Constraint, constraint text or a predicate, "
                    f"got {type(value).__name__}")


def _any_of(parts: Sequence[Constraint]) -> Constraint:
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
    high: int = _MAX_HCP

    def __post_init__(self) -> None:
        _check_range("hcp", self.low, self.high, _MAX_HCP)

    def accepts(self, hand: Hand) -> bool:
        return self.low <= hand.hcp <= self.high

    def _mask(self, f: _Features) -> np.ndarray:
        h = f.hcp
        return (h >= self.low) & (h <= self.high)

    def hcp_bounds(self) -> tuple[int, int]:
        return self.low, self.high

    def __str__(self) -> str:
        if self.low == 0 and self.high < _MAX_HCP:
            return f"0-{self.high} hcp"
        return f"{_range_text(self.low, self.high, _MAX_HCP)} hcp"


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

    def _mask(self, f: _Features) -> np.ndarray:
        n = f.lengths[:, self.suit]
        return (n >= self.low) & (n <= self.high)

    def length_bounds(self) -> tuple[tuple[int, int], ...]:
        return tuple((self.low, self.high) if s == self.suit else (0, 13) for s in range(4))

    def __str__(self) -> str:
        name = _SUIT_NAMES[self.suit]
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

    def _mask(self, f: _Features) -> np.ndarray:
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
                             p)
        known = [int(q) for q in parts if q != "x"]
        if any(n > 13 for n in known) or sum(known) > 13 or (len(known) == 4 and sum(known) != 13):
            raise ParseError("the lengths of a pattern must add up to 13", p)
        return "=".join(str(int(q)) if q != "x" else "x" for q in parts)
    if not re.fullmatch(r"\d{4}", text):
        raise ParseError("a shape is four digits like 4333, or an exact pattern like 4=4=3=2", p)
    digits = sorted((int(d) for d in text), reverse=True)
    if sum(digits) != 13:
        raise ParseError("the lengths of a shape must add up to 13", p)
    return "".join(map(str, digits))


def balanced() -> Shape:
    """4333, 4432 or 5332, suits in any order."""
    return Shape("4333", "4432", "5332")


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


def _cards_text(cards: frozenset[Card]) -> str:
    return " ".join(str(c) for c in sorted(cards))


@dataclass(frozen=True, slots=True, repr=False)
class Holds(Constraint):
    """The hand holds every one of ``cards`` (``Holds("SA HK")``, ``Holds(["SA"])``)."""

    cards: frozenset[Card]

    def __init__(self, cards: Iterable[CardLike] | CardLike):
        object.__setattr__(self, "cards", _cards(cards))

    def accepts(self, hand: Hand) -> bool:
        return all(c in hand for c in self.cards)

    def _mask(self, f: _Features) -> np.ndarray:
        return np.asarray(f.held[:, [c.index for c in self.cards]].all(axis=1))

    def required(self) -> frozenset[Card]:
        return self.cards

    def __str__(self) -> str:
        return f"holds {_cards_text(self.cards)}"


@dataclass(frozen=True, slots=True, repr=False)
class Lacks(Constraint):
    """The hand holds none of ``cards``."""

    cards: frozenset[Card]

    def __init__(self, cards: Iterable[CardLike] | CardLike):
        object.__setattr__(self, "cards", _cards(cards))

    def accepts(self, hand: Hand) -> bool:
        return not any(c in hand for c in self.cards)

    def _mask(self, f: _Features) -> np.ndarray:
        return np.asarray(~f.held[:, [c.index for c in self.cards]].any(axis=1))

    def forbidden(self) -> frozenset[Card]:
        return self.cards

    def __str__(self) -> str:
        return f"lacks {_cards_text(self.cards)}"


class Predicate(Constraint):
    """Any Python test of a hand: ``Predicate(lambda h: h.length("S") > h.length("H"))``.
    Run only on the deals that pass every array-computed constraint."""

    __slots__ = ("fn", "name")

    def __init__(self, fn: Callable[[Hand], bool], name: str | None = None):
        if not callable(fn):
            raise TypeError(f"Predicate needs a callable, got {type(fn).__name__}")
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "predicate")

    def accepts(self, hand: Hand) -> bool:
        return bool(self.fn(hand))

    @property
    def vectorised(self) -> bool:
        return False

    def __str__(self) -> str:
        return f"<{self.name}>"

    def __repr__(self) -> str:
        return f"Predicate({self.fn!r})"


class Any(Constraint):
    """No constraint."""

    __slots__ = ()

    def accepts(self, hand: Hand) -> bool:
        return True

    def _mask(self, f: _Features) -> np.ndarray:
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
        object.__setattr__(self, "parts", tuple(as_constraint(p) for p in parts))

    def accepts(self, hand: Hand) -> bool:
        return all(p.accepts(hand) for p in self.parts)

    @property
    def vectorised(self) -> bool:
        return all(p.vectorised for p in self.parts)

    def _mask(self, f: _Features) -> np.ndarray | None:
        if not self.vectorised:
            return None
        return self._prefilter(f)

    def _prefilter(self, f: _Features) -> np.ndarray | None:
        out = None
        for p in self.parts:
            m = p._prefilter(f)
            if m is not None:
                out = m if out is None else out & m
        return out

    def hcp_bounds(self) -> tuple[int, int]:
        bounds = [p.hcp_bounds() for p in self.parts]
        return max((b[0] for b in bounds), default=0), min((b[1] for b in bounds),
                                                             default=_MAX_HCP)

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
        object.__setattr__(self, "parts", tuple(as_constraint(p) for p in parts))
        if not self.parts:
            raise ValueError("AnyOf needs at least one part")

    def accepts(self, hand: Hand) -> bool:
        return any(p.accepts(hand) for p in self.parts)

    @property
    def vectorised(self) -> bool:
        return all(p.vectorised for p in self.parts)

    def _mask(self, f: _Features) -> np.ndarray | None:
        if not self.vectorised:
            return None
        return self._prefilter(f)

    def _prefilter(self, f: _Features) -> np.ndarray | None:
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
        object.__setattr__(self, "part", as_constraint(self.part))

    def accepts(self, hand: Hand) -> bool:
        return not self.part.accepts(hand)

    @property
    def vectorised(self) -> bool:
        return self.part.vectorised

    def _mask(self, f: _Features) -> np.ndarray | None:
        m = self.part._mask(f) if self.part.vectorised else None
        return None if m is None else ~m

    def _prefilter(self, f: _Features) -> np.ndarray | None:
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


# ---- the text syntax --------------------------------------------------------------------

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<pattern>(?:\d{1,2}|[xX])(?:=(?:\d{1,2}|[xX])){3})
  | (?P<num>\d+)
  | (?P<op>>=|<=|==|=|<|>)
  | (?P<punct>[,+\-()])
  | (?P<word>[A-Za-z][A-Za-z0-9]*|[♠♥♦♣][A-Za-z0-9]*)
""", re.VERBOSE)


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str
    text: str
    pos: int


def _tokenise(text: str) -> list[_Tok]:
    out = []
    i = 0
    while i < len(text):
        m = _TOKEN.match(text, i)
        if m is None:
            raise ParseError(f"unexpected character {text[i]!r}", text, i)
        if m.lastgroup != "space":
            out.append(_Tok(m.lastgroup, m.group(), i))  # type: ignore[arg-type]
        i = m.end()
    out.append(_Tok("end", "", len(text)))
    return out


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokenise(text)
        self.i = 0

    # helpers
    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> _Tok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def take(self) -> _Tok:
        t = self.toks[self.i]
        self.i = min(self.i + 1, len(self.toks) - 1)
        return t

    def error(self, message: str, tok: _Tok | None = None) -> ParseError:
        t = self.tok if tok is None else tok
        return ParseError(message, self.text, t.pos)

    def is_word(self, *words: str, k: int = 0) -> bool:
        t = self.peek(k) if k else self.tok
        return t.kind == "word" and t.text.lower() in words

    # grammar
    def parse(self) -> Constraint:
        if self.tok.kind == "end":
            raise self.error("empty constraint (write 'any' for none)")
        parts = [self.disjunction()]
        while self.tok.text == "," or self.is_word("and"):
            self.take()
            parts.append(self.disjunction())
        if self.tok.kind != "end":
            raise self.error(f"unexpected {self.tok.text!r} (separate terms with commas)")
        return parts[0] if len(parts) == 1 else AllOf(parts)

    def disjunction(self) -> Constraint:
        parts = [self.term()]
        while self.is_word("or"):
            self.take()
            parts.append(self.term())
        return _any_of(parts)

    def term(self) -> Constraint:
        t = self.tok
        if t.kind == "word" and t.text.lower() == "not":
            self.take()
            return Not(self.term())
        if t.text == "(":
            self.take()
            parts = [self.disjunction()]
            while self.tok.text == "," or self.is_word("and"):
                self.take()
                parts.append(self.disjunction())
            if self.tok.text != ")":
                raise self.error("expected ')'")
            self.take()
            return parts[0] if len(parts) == 1 else AllOf(parts)
        if t.kind == "pattern":
            self.take()
            return self.shape(t)
        if t.kind == "num":
            return self.number_first()
        if t.kind == "word":
            word = t.text.lower()
            if word == "hcp":
                self.take()
                return self.after_subject(t, None)
            if word in ("balanced", "unbalanced", "any"):
                self.take()
                return {"balanced": balanced, "unbalanced": unbalanced, "any": Any}[word]()
            if word in ("holds", "lacks", "has"):
                self.take()
                cards = self.card_list(t)
                return Lacks(cards) if word == "lacks" else Holds(cards)
            if word == "shape":
                self.take()
                s = self.take()
                if s.kind not in ("num", "pattern"):
                    raise self.error("expected a shape like 4333 or 4=4=3=2 after 'shape'", s)
                return self.shape(s)
            suit = _SUIT_WORDS.get(t.text.upper())
            if suit is not None:
                self.take()
                return self.after_subject(t, suit)
            raise self.error(f"unknown word {t.text!r} (expected hcp, a suit, a shape, "
                             f"balanced, holds or lacks)")
        if t.kind == "end":
            raise self.error("expected a term after the separator")
        raise self.error(f"unexpected {t.text!r}")

    def shape(self, t: _Tok) -> Shape:
        try:
            return Shape(t.text)
        except ParseError as err:
            raise ParseError(err.message, self.text, t.pos) from None

    def card_list(self, head: _Tok) -> list[Card]:
        cards: list[Card] = []
        while self.tok.kind == "word" or (self.tok.kind == "num" and cards is not None):
            t = self.tok
            if t.kind == "num" or t.text.lower() in ("and", "or", "not"):
                break
            try:
                cards.append(Card.parse(t.text))
            except ParseError:
                raise self.error(f"not a card: {t.text!r} (write suit then rank, like SA or "
                                 f"H10)", t) from None
            self.take()
        if not cards:
            raise self.error(f"expected cards after {head.text!r}, like SA or HK")
        return cards

    def number(self) -> tuple[int, _Tok]:
        t = self.take()
        if t.kind != "num":
            raise self.error("expected a number", t)
        return int(t.text), t

    def subject(self) -> tuple[_Tok, Suit | None]:
        """'hcp' or a suit word; returns the token and the suit (None for hcp)."""
        t = self.take()
        if t.kind == "word":
            if t.text.lower() == "hcp":
                return t, None
            suit = _SUIT_WORDS.get(t.text.upper())
            if suit is not None:
                return t, suit
        raise self.error("expected 'hcp' or a suit (spades, hearts, diamonds, clubs)", t)

    def make(self, suit: Suit | None, lo: int, hi: int, at: _Tok) -> Constraint:
        top = _MAX_HCP if suit is None else 13
        what = "hcp" if suit is None else _SUIT_NAMES[suit]
        hi = min(hi, top)
        if lo > top:
            raise self.error(f"{what} cannot be {lo} or more (at most {top})", at)
        if lo > hi:
            raise self.error(f"empty range {lo}-{hi} for {what}", at)
        return HCP(lo, hi) if suit is None else Length(suit, lo, hi)

    def number_first(self) -> Constraint:
        """``15-17 hcp``, ``12+ hcp``, ``5 spades``, ``4333`` ..."""
        n, t = self.number()
        if len(t.text) == 4 and (self.tok.kind == "end" or self.tok.text in (",", ")")
                                 or self.is_word("and", "or")):
            return self.shape(t)
        if self.tok.text == "-" and self.peek().kind == "num":
            self.take()
            m, _ = self.number()
            _, suit = self.subject()
            return self.make(suit, n, m, t)
        if self.tok.text == "+":
            self.take()
            _, suit = self.subject()
            return self.make(suit, n, 99, t)
        if self.tok.text == "-":
            self.take()
            _, suit = self.subject()
            return self.make(suit, 0, n, t)
        _, suit = self.subject()
        return self.make(suit, n, n, t)

    def after_subject(self, head: _Tok, suit: Suit | None) -> Constraint:
        """``hcp>=12``, ``spades<=3``, ``hcp 15-17``, ``hcp 12+``."""
        if self.tok.kind == "op":
            op = self.take()
            n, t = self.number()
            if op.text in ("=", "=="):
                return self.make(suit, n, n, t)
            if op.text == ">=":
                return self.make(suit, n, 99, t)
            if op.text == ">":
                return self.make(suit, n + 1, 99, t)
            if op.text == "<=":
                return self.make(suit, 0, n, t)
            if n == 0:
                raise self.error(f"{head.text} cannot be below 0", t)
            return self.make(suit, 0, n - 1, t)
        if self.tok.kind == "num":
            n, t = self.number()
            if self.tok.text == "-" and self.peek().kind == "num":
                self.take()
                m, _ = self.number()
                return self.make(suit, n, m, t)
            if self.tok.text == "+":
                self.take()
                return self.make(suit, n, 99, t)
            return self.make(suit, n, n, t)
        raise self.error(f"expected a comparison (>=, <=, =, <, >) or a number after "
                         f"{head.text!r}")


def parse_constraint(text: str) -> Constraint:
    """Read the text syntax described in the module docstring.

    >>> str(parse_constraint("hcp>=12 and spades<=3"))
    '12+ hcp, spades<=3'

    :raises ParseError: for malformed text, with the offending text and its column.
    """
    if isinstance(text, Constraint):
        return text
    if not isinstance(text, str):
        raise ParseError(f"cannot make a constraint from {type(text).__name__}", repr(text))
    return _Parser(text).parse()


# ---- the sampler ----------------------------------------------------------------------------

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


def _known_hands(known: Deal | Mapping[SeatLike, Hand | str | Iterable[CardLike] | None] | None
                 ) -> list[Hand]:
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
    :param seed: seeds ``numpy.random.default_rng``: a non-negative whole number, or None
        for fresh entropy (anything else is a ``ValueError``).
    :param batch_size: random deals dealt at once (fixed, so the seed fixes the sequence).
    :param max_attempts: the most random deals one call of :meth:`sample` may deal.
    :param max_seconds: the most time one call of :meth:`sample` may take.
    :raises SamplingError: if no deal can meet the constraints (found by arithmetic).
    :raises DealError: if the known cards are inconsistent (a card twice, over 13).
    :raises ParseError: for malformed constraint text or a bad seat.
    :raises ValueError: for a bad seed or batch size.
    """

    def __init__(self, known=None, constraints: Mapping[SeatLike, object] | None = None, *,
                 predicate: Callable[[Deal], bool] | None = None, seed: int | None = None,
                 batch_size: int = 4096, max_attempts: int = 20_000_000,
                 max_seconds: float = 60.0):
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self.seed = check_seed(seed)
        self.batch_size = int(batch_size)
        self.max_attempts = int(max_attempts)
        self.max_seconds = float(max_seconds)
        self.predicate = predicate
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
        self._check_feasible(hands)
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

    def _check_feasible(self, hands: list[Hand]) -> None:
        pool_masks = [0x7FFC & ~(hands[0].masks[s] | hands[1].masks[s] | hands[2].masks[s]
                                 | hands[3].masks[s]) for s in range(4)]
        pool = Hand(tuple(pool_masks))
        pool_hcp = sorted((HCP_BY_RANK.get(c.rank, 0) for c in pool), reverse=True)
        open_seats = [s for s in Seat if len(hands[s]) < 13]
        for seat, c in self.constraints.items():
            h = hands[seat]
            lo, hi = c.hcp_bounds()
            if lo > hi:
                raise SamplingError(f"{seat.letter}: no hand has {lo} or more and {hi} or "
                                    f"fewer points ({c})")
            lb = c.length_bounds()
            for s, (a, b) in enumerate(lb):
                if a > b:
                    raise SamplingError(f"{seat.letter}: no hand has {a} or more and {b} or "
                                        f"fewer {_SUIT_NAMES[s]} ({c})")
            if sum(a for a, _ in lb) > 13 or sum(b for _, b in lb) < 13:
                raise SamplingError(f"{seat.letter}: the suit lengths of '{c}' cannot add up "
                                    f"to 13 cards")
            clash = c.forbidden() & set(h)
            if clash:
                raise SamplingError(f"{seat.letter} is known to hold {_cards_text(frozenset(clash))}"
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
                                        f"{_SUIT_NAMES[s]}, more than '{c}' allows")
                if have + min(free, need) < a:
                    raise SamplingError(f"{seat.letter} cannot hold {a} {_SUIT_NAMES[s]}: only "
                                        f"{have + min(free, need)} are possible")
        # Across the hands still to be dealt: their points and suit lengths are the known
        # ones plus the whole unseen pool, so the ranges must be able to add up to that.
        if not open_seats:
            return
        total_hcp = sum(hands[s].hcp for s in open_seats) + sum(pool_hcp)
        bounds = {s: self.constraints[s].hcp_bounds() if s in self.constraints else (0, _MAX_HCP)
                  for s in open_seats}
        lo_sum = sum(max(b[0], hands[s].hcp) for s, b in bounds.items())
        hi_sum = sum(b[1] for b in bounds.values())
        names = "+".join(s.letter for s in open_seats)
        if lo_sum > total_hcp:
            raise SamplingError(f"the hands {names} share {total_hcp} points, but their "
                                f"constraints ask for at least {lo_sum}")
        if hi_sum < total_hcp:
            raise SamplingError(f"the hands {names} share {total_hcp} points, but their "
                                f"constraints allow at most {hi_sum}")
        for s in range(4):
            total = sum(hands[t].length(s) for t in open_seats) + pool.length(s)
            lbs = {t: self.constraints[t].length_bounds()[s] if t in self.constraints
                   else (0, 13) for t in open_seats}
            lo_sum = sum(max(b[0], hands[t].length(s)) for t, b in lbs.items())
            hi_sum = sum(b[1] for b in lbs.values())
            if lo_sum > total:
                raise SamplingError(f"the hands {names} share {total} {_SUIT_NAMES[s]}, but "
                                    f"their constraints ask for at least {lo_sum}")
            if hi_sum < total:
                raise SamplingError(f"the hands {names} share {total} {_SUIT_NAMES[s]}, but "
                                    f"their constraints allow at most {hi_sum}")

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
            mask = c._prefilter(_Features(owner == seat))
            if mask is not None:
                keep = mask if keep is None else keep & mask
        rows = np.arange(b) if keep is None else np.flatnonzero(keep)
        if len(rows) == 0:
            return []
        sub = owner[rows]
        # (k, 4 seats, 4 suits) rank masks
        masks = np.stack([((sub == s).reshape(-1, 4, 13) @ _RANK_BITS) for s in range(4)], 1)
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
        """
        if n < 0:
            raise ValueError(f"cannot deal {n} deals")
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
        return SamplingError(
            f"the constraints accept too few deals: {got} of {tried:,} random deals "
            f"(rate {rate:.2g}) in {elapsed:.1f} s, {n} wanted ({have} found); loosen them or "
            f"raise max_attempts ({self.max_attempts:,}) / max_seconds ({self.max_seconds:g})",
            attempts=tried, accepted=got)

    def __iter__(self) -> Iterator[Deal]:
        while True:
            yield from self.sample(1)


def deal_hidden(known=None, constraints: Mapping[SeatLike, object] | None = None, n: int = 1,
                *, predicate: Callable[[Deal], bool] | None = None, seed: int | None = None,
                **options) -> SampleResult:
    """``n`` deals completing ``known`` under ``constraints``; see :class:`Sampler`.

    >>> r = deal_hidden({"S": "AKQJ.AKQ.AKQ.AKQ"}, {"N": "5+ spades"}, 2, seed=1)
    >>> [d.north.length("S") >= 5 and d.south.hcp == 37 for d in r.deals]
    [True, True]

    :raises SamplingError: for impossible or too-rare constraints.
    """
    sampler = Sampler(known, constraints, predicate=predicate, seed=seed, **options)
    deals = sampler.sample(n)
    return SampleResult(tuple(deals), sampler.attempts, sampler.accepted, seed)
