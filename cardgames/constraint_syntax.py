"""The text syntax of hand constraints: ``"15-17 hcp, 5+ spades"`` -> a
:class:`~cardgames.constraints.Constraint`.

    >>> str(parse_constraint("5+ hearts, hcp<=10, holds SA"))
    '5+ hearts, 0-10 hcp, holds SA'

The text syntax (for the command line) is a comma-separated list of terms that must all
hold (``and`` also separates them); ``or`` joins alternatives inside one item and binds
tighter than the comma, so ``"11-15 hcp, 5+ spades or 5+ hearts"`` means 11-15 points and a
five-card major.  ``not`` negates one term; ``usually`` makes one term likely rather than
certain (:class:`~cardgames.constraints.Usually`: a hand outside it is dealt a tenth as
often, or ``usually(0.2)`` a fifth).  The terms:

============================================  ===============================================
``15-17 hcp``, ``12+ hcp``, ``hcp>=12``,      high-card points (A=4 K=3 Q=2 J=1), inclusive
``hcp<=10``, ``hcp=8``, ``hcp 6-9``
``5+ spades``, ``4-5 hearts``,                suit length; suits as words (``spades``,
``spades>=4``, ``clubs<=2``, ``3 diamonds``   ``spade``), letters ``S H D C`` or symbols
``4333``, ``5431``                            shape, the suits in any order
``4=4=3=2``, ``5=x=x=x``                      exact pattern in the order S=H=D=C; ``x`` is any
``balanced`` / ``unbalanced``                 4333, 4432 or 5332 (or not)
``semibalanced``                              balanced, 5422 or 6322
``holds SA``, ``holds SA HK``                 these cards are in the hand
``lacks SA``                                  none of these cards is in the hand
``any``                                       no constraint
``4+ hcp in spades``, ``hcp in hearts<=2``    high-card points in one suit
``ltc<=7``, ``7-8 ltc``                       losing-trick count (basic: missing A K Q among
                                              the top min(length, 3) cards of each suit)
``5+ controls``, ``controls 3-4``             controls: ace 2, king 1
``13+ tp``                                    hcp + length points (1 per card over four)
``10-12 dp``                                  hcp + shortness points (void 3, singleton 2,
                                              doubleton 1): dummy points; ``lsp``: both
``2+ of top 3 spades``, ``top 5 hearts>=3``   how many of the N highest cards of a suit
``8+ quality hearts``, ``sq spades>=9``       suit quality: length + honours (A K Q J 10)
``stopper hearts``, ``stopper in hearts``     a stopper: A, Kx, Qxx or Jxxx
``freakness<=7``                              Pavlicek's freakness of the pattern (0-20)
``13-14 pp``, ``pp outside spades>=12``       Pavlicek's total points (hcp, aces-and-tens
                                              point, his shortness points; none in the suit
                                              after ``outside``)
``11+ support hearts``                        his support points for raising that suit
``10-14 rp``                                  his points for a notrump dummy (revalued)
``pt<6.5``, ``pt in spades>=4.5``             his playing tricks, in halves
``qt>=2``, ``qt in hearts 1-2``               quick tricks (A-K 2, A-Q 1.5, A 1, K-Q 1, K-x
                                              0.5)
============================================  ===============================================

Malformed text raises :class:`~cardgames.errors.ParseError` naming the offending text and
its column.  A Python predicate on a hand joins in with :class:`Predicate` (``& Predicate(fn)``,
or ``Predicate(batch=fn)`` to test a numpy batch at once); a predicate on the whole deal goes
to :class:`Sampler` as ``predicate=`` (one deal) or ``batch_predicate=`` (a batch).
:func:`as_constraint` takes a constraint, its text or a predicate on a hand alike: what the
sampler and the bidding module accept for a hand.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from .cards import SUIT_NAMES, Card, Suit
from .constraints import (
    HCP,
    LTC,
    USUALLY_WEIGHT,
    AllOf,
    Any,
    Constraint,
    Controls,
    Freakness,
    Holds,
    Lacks,
    Length,
    Not,
    PavlicekPoints,
    PlayingTricks,
    Predicate,
    QuickTricks,
    RevaluedPoints,
    Shape,
    Stopper,
    SuitHCP,
    SuitQuality,
    SupportPoints,
    TopHonours,
    TotalPoints,
    Usually,
    any_of,
    balanced,
    check_usually_weight,
    semibalanced,
    unbalanced,
)
from .errors import ParseError, excerpt
from .evaluation import (
    MAX_CONTROLS,
    MAX_FREAKNESS,
    MAX_HCP,
    MAX_LTC,
    MAX_PLAYING_HALVES,
    MAX_POINTS,
    MAX_QUALITY,
    MAX_QUICK_HALVES,
    MAX_SUIT_HCP,
)
from .hands import Hand

__all__ = ["parse_constraint", "as_constraint"]

#: How deep parentheses and ``not`` may nest: far beyond any real constraint, and far
#: short of Python's recursion limit (the parser and the constraints it builds recurse).
MAX_DEPTH = 100
#: The most digits a number may have: every count here is below 100 (a shape such as
#: ``4333`` is four), and ``int()`` refuses numbers of more than 4,300 digits.
_MAX_DIGITS = 9

# The words (and symbols) for a suit, upper-cased.
_SUIT_WORDS = {"SPADES": Suit.SPADES, "SPADE": Suit.SPADES, "S": Suit.SPADES, "♠": Suit.SPADES,
               "HEARTS": Suit.HEARTS, "HEART": Suit.HEARTS, "H": Suit.HEARTS, "♥": Suit.HEARTS,
               "DIAMONDS": Suit.DIAMONDS, "DIAMOND": Suit.DIAMONDS, "D": Suit.DIAMONDS,
               "♦": Suit.DIAMONDS, "CLUBS": Suit.CLUBS, "CLUB": Suit.CLUBS, "C": Suit.CLUBS,
               "♣": Suit.CLUBS}

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<pattern>(?:\d{1,2}|[xX])(?:=(?:\d{1,2}|[xX])){3})
  | (?P<num>\d+(?:\.\d+)?)
  | (?P<op>>=|<=|==|=|<|>)
  | (?P<punct>[,+\-()])
  | (?P<word>[A-Za-z][A-Za-z0-9]*|[♠♥♦♣][A-Za-z0-9]*)
""", re.VERBOSE)


def _is_shape(text: str) -> bool:
    """A number token that reads as a shape (``4333``), not a count or a weight."""
    return len(text) == 4 and text.isdigit()


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str
    text: str
    pos: int


def _quoted(text: str) -> str:
    """A word of the text as a message quotes it: an excerpt, should the word be long."""
    return repr(excerpt(text))


def _tokenise(text: str) -> list[_Tok]:
    out = []
    i = 0
    while i < len(text):
        m = _TOKEN.match(text, i)
        if m is None:
            raise ParseError(f"unexpected character {text[i]!r}", excerpt(text, i), i)
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
        self.depth = 0  # parentheses and `not` open around the current term

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
        return ParseError(message, excerpt(self.text, t.pos), t.pos)

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
            raise self.error(f"unexpected {_quoted(self.tok.text)} (separate terms with commas)")
        return parts[0] if len(parts) == 1 else AllOf(parts)

    def disjunction(self) -> Constraint:
        parts = [self.term()]
        while self.is_word("or"):
            self.take()
            parts.append(self.term())
        return any_of(parts)

    def term(self) -> Constraint:
        t = self.tok
        nests = (t.kind == "word" and t.text.lower() in ("not", "usually")) or t.text == "("
        if not nests:
            return self.simple_term(t)
        if self.depth >= MAX_DEPTH:
            raise self.error(f"parentheses and 'not' nest more than {MAX_DEPTH} deep")
        self.depth += 1
        try:
            return self.nested_term(t)
        finally:
            self.depth -= 1

    def nested_term(self, t: _Tok) -> Constraint:
        """``not TERM``, ``usually TERM``, ``usually(0.2) TERM`` or ``( ... )``."""
        self.take()
        if t.text.lower() == "usually":
            weight = USUALLY_WEIGHT
            # "usually(0.2) TERM" -- not "usually (4333)", a shape in parentheses
            if self.tok.text == "(" and self.peek().kind == "num" and \
                    self.peek(2).text == ")" and not _is_shape(self.peek().text):
                self.take()
                w = self.take()
                self.take()
                weight = float(w.text)
                try:
                    check_usually_weight(weight)
                except ValueError as err:
                    raise self.error(str(err), w) from None
            at = self.tok
            part = self.term()
            try:
                return Usually(part, weight)
            except ValueError as err:
                raise self.error(str(err), at) from None
        if t.text != "(":
            part = self.term()   # (its own errors name their place)
            try:
                return Not(part)
            except ValueError as err:
                raise self.error(str(err), t) from None
        parts = [self.disjunction()]
        while self.tok.text == "," or self.is_word("and"):
            self.take()
            parts.append(self.disjunction())
        if self.tok.text != ")":
            raise self.error("expected ')'")
        self.take()
        return parts[0] if len(parts) == 1 else AllOf(parts)

    def simple_term(self, t: _Tok) -> Constraint:
        """Any term but ``not`` and parentheses."""
        if t.kind == "pattern":
            self.take()
            return self.shape(t)
        if t.kind == "num":
            return self.number_first()
        if t.kind == "word":
            word = t.text.lower()
            if word in _SUBJECT_WORDS or re.fullmatch(r"top\d*", word):
                return self.after_subject(t, self.subject())
            if word in ("balanced", "semibalanced", "unbalanced", "any"):
                self.take()
                return {"balanced": balanced, "semibalanced": semibalanced,
                        "unbalanced": unbalanced, "any": Any}[word]()
            if word in ("holds", "lacks", "has"):
                self.take()
                cards = self.card_list(t)
                return Lacks(cards) if word == "lacks" else Holds(cards)
            if word == "stopper":
                self.take()
                if self.is_word("in"):
                    self.take()
                return Stopper(self.suit_word("after 'stopper'"))
            if word == "shape":
                self.take()
                s = self.take()
                if s.kind not in ("num", "pattern"):
                    raise self.error("expected a shape like 4333 or 4=4=3=2 after 'shape'", s)
                return self.shape(s)
            if t.text.upper() in _SUIT_WORDS:
                return self.after_subject(t, self.subject())
            close = difflib.get_close_matches(word, _VOCABULARY, n=1, cutoff=0.75)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise self.error(f"unknown word {_quoted(t.text)} ({hint}expected a suit, "
                             f"{', '.join(_LISTED[:-1])} or {_LISTED[-1]})")
        if t.kind == "end":
            before = self.toks[self.i - 1].text if self.i else ""
            raise self.error(f"expected a term after {_quoted(before)}" if before else
                             "expected a term")
        raise self.error(f"unexpected {_quoted(t.text)}")

    def shape(self, t: _Tok) -> Shape:
        try:
            return Shape(t.text)
        except ParseError as err:
            raise self.error(err.message, t) from None

    def card_list(self, head: _Tok) -> list[Card]:
        cards: list[Card] = []
        while self.tok.kind == "word" or (self.tok.kind == "num" and cards is not None):
            t = self.tok
            if t.kind == "num" or t.text.lower() in ("and", "or", "not"):
                break
            try:
                cards.append(Card.parse(t.text))
            except ParseError:
                raise self.error(f"not a card: {_quoted(t.text)} (write suit then rank, like "
                                 f"SA or H10)", t) from None
            self.take()
        if not cards:
            raise self.error(f"expected cards after {_quoted(head.text)}, like SA or HK")
        return cards

    def number(self) -> tuple[Fraction, _Tok]:
        t = self.take()
        if t.kind != "num":
            raise self.error("expected a number", t)
        whole, _, part = t.text.partition(".")
        if len(part) > _MAX_DIGITS:
            raise self.error(f"number too long ({len(t.text):,} characters)", t)
        return Fraction(self.whole(whole, t)) + (Fraction(int(part), 10 ** len(part))
                                                 if part else 0), t

    def whole(self, digits: str, t: _Tok) -> int:
        """The value of a run of digits, or a ParseError for one too long to mean anything."""
        if "." in digits:
            raise self.error(f"expected a whole number, not {_quoted(digits)}", t)
        if len(digits.lstrip("0")) > _MAX_DIGITS:
            raise self.error(f"number too large ({len(digits):,} digits)", t)
        return int(digits)

    def subject(self) -> _Subject:
        """What a number counts: 'hcp', a suit (its length), 'hcp in SUIT', 'ltc',
        'controls', 'tp'/'dp'/'lsp', 'quality SUIT', 'top N SUIT'."""
        t = self.take()
        word = t.text.lower() if t.kind == "word" else ""
        if word == "hcp":
            if self.is_word("in"):
                self.take()
                suit = self.suit_word("after 'hcp in'")
                return _Subject(f"hcp in {SUIT_NAMES[suit]}", MAX_SUIT_HCP,
                                lambda lo, hi: SuitHCP(suit, lo, hi))
            return _Subject("hcp", MAX_HCP, HCP)
        if word in ("ltc", "losers"):
            return _Subject("ltc", MAX_LTC, LTC)
        if word == "controls":
            return _Subject("controls", MAX_CONTROLS, Controls)
        if word in _POINTS:
            length, shortness = _POINTS[word]
            return _Subject(word, MAX_POINTS,
                            lambda lo, hi: TotalPoints(lo, hi, length, shortness))
        if word == "freakness":
            return _Subject("freakness", MAX_FREAKNESS, Freakness)
        if word == "pp":
            if self.is_word("outside"):
                self.take()
                partner = self.suit_word("after 'pp outside'")
                return _Subject(f"pp outside {SUIT_NAMES[partner]}", MAX_POINTS,
                                lambda lo, hi: PavlicekPoints(lo, hi, partner))
            return _Subject("pp", MAX_POINTS, PavlicekPoints)
        if word == "support":
            trumps = self.suit_word("after 'support'")
            return _Subject(f"support {SUIT_NAMES[trumps]}", MAX_POINTS,
                            lambda lo, hi: SupportPoints(trumps, lo, hi))
        if word == "rp":
            return _Subject("rp", MAX_POINTS, RevaluedPoints)
        if word in ("pt", "qt"):
            kind, top = ((PlayingTricks, MAX_PLAYING_HALVES) if word == "pt"
                         else (QuickTricks, MAX_QUICK_HALVES))
            in_suit: Suit | None = None
            if self.is_word("in"):
                self.take()
                in_suit = self.suit_word(f"after '{word} in'")
            name = word if in_suit is None else f"{word} in {SUIT_NAMES[in_suit]}"
            return _Subject(name, Fraction(top, 2),
                            lambda lo, hi: kind(lo, hi, in_suit), Fraction(1, 2))
        if word in ("quality", "sq"):
            suit = self.suit_word("after 'quality'")
            return _Subject(f"quality {SUIT_NAMES[suit]}", MAX_QUALITY,
                            lambda lo, hi: SuitQuality(suit, lo, hi))
        m = re.fullmatch(r"top(\d*)", word)
        if m is not None:
            if m.group(1):
                top = self.whole(m.group(1), t)
            else:
                value, at = self.number()
                top = self.whole(at.text, at) if value.denominator == 1 else 0
            if not 1 <= top <= 13:
                raise self.error("'top N' counts the N highest cards of a suit, N 1..13", t)
            if self.is_word("in"):
                self.take()
            suit = self.suit_word(f"after 'top {top}'")
            return _Subject(f"top {top} {SUIT_NAMES[suit]}", top,
                            lambda lo, hi: TopHonours(suit, lo, hi, top))
        held = _SUIT_WORDS.get(t.text.upper()) if t.kind == "word" else None
        if held is not None:
            return _Subject(SUIT_NAMES[held], 13, lambda lo, hi: Length(held, lo, hi))
        raise self.error("expected 'hcp' or a suit (spades, hearts, diamonds, clubs), or "
                         "ltc, controls, tp, dp, lsp, pp, rp, support SUIT, freakness, pt, qt, "
                         "quality SUIT, top N SUIT", t)

    def suit_word(self, where: str) -> Suit:
        t = self.take()
        suit = _SUIT_WORDS.get(t.text.upper()) if t.kind == "word" else None
        if suit is None:
            raise self.error(f"expected a suit {where}", t)
        return suit

    def check_step(self, subject: _Subject, value: Fraction | int, at: _Tok) -> None:
        """A ParseError unless ``value`` is a whole number (a multiple of 0.5 for tricks)."""
        if Fraction(value) % subject.step:
            what = "a whole number" if subject.step == 1 else "a multiple of 0.5"
            raise self.error(f"{subject.name} counts must be {what}, not {float(value):g}", at)

    def make(self, subject: _Subject, lo: Fraction | int, hi: Fraction | int | None,
             at: _Tok) -> Constraint:
        """The constraint of ``lo <= subject <= hi`` (``hi`` None: no upper limit)."""
        top = subject.top
        hi = top if hi is None else min(hi, top)
        for v in (lo, hi):
            self.check_step(subject, v, at)
        if lo > top:
            raise self.error(f"{subject.name} cannot be {float(lo):g} or more (at most "
                             f"{float(top):g})", at)
        if lo > hi:
            raise self.error(f"empty range {float(lo):g}-{float(hi):g} for {subject.name}", at)
        if subject.step == 1:
            return subject.make(int(lo), int(hi))
        return subject.make(float(lo), float(hi))

    def counted(self) -> _Subject:
        """The subject after a number: ``spades``, or ``of top 3 spades``."""
        if self.is_word("of"):
            self.take()
            if not (self.tok.kind == "word" and self.tok.text.lower().startswith("top")):
                raise self.error("expected 'top N SUIT' after 'of'")
        return self.subject()

    def number_first(self) -> Constraint:
        """``15-17 hcp``, ``12+ hcp``, ``5 spades``, ``2+ of top 3 hearts``, ``4333`` ..."""
        n, t = self.number()
        if _is_shape(t.text) and (self.tok.kind == "end" or self.tok.text in (",", ")")
                                 or self.is_word("and", "or")):
            return self.shape(t)
        if self.tok.text == "-" and self.peek().kind == "num":
            self.take()
            m, _ = self.number()
            return self.make(self.counted(), n, m, t)
        if self.tok.text == "+":
            self.take()
            return self.make(self.counted(), n, None, t)
        if self.tok.text == "-":
            raise self.error(f"'{t.text}-' has no upper end (write {t.text}+ for at least "
                             f"{t.text}, or a range such as 0-{t.text} for at most)")
        return self.make(self.counted(), n, n, t)

    def after_subject(self, head: _Tok, subject: _Subject) -> Constraint:
        """``hcp>=12``, ``spades<=3``, ``hcp 15-17``, ``ltc 7-8``, ``controls 5+``."""
        if self.tok.kind == "op":
            op = self.take()
            n, t = self.number()
            self.check_step(subject, n, t)
            if op.text in ("=", "=="):
                return self.make(subject, n, n, t)
            if op.text == ">=":
                return self.make(subject, n, None, t)
            if op.text == ">":
                return self.make(subject, n + subject.step, None, t)
            if op.text == "<=":
                return self.make(subject, 0, n, t)
            if n == 0:
                raise self.error(f"{subject.name} cannot be below 0", t)
            return self.make(subject, 0, n - subject.step, t)
        if self.tok.kind == "num":
            n, t = self.number()
            if self.tok.text == "-" and self.peek().kind == "num":
                self.take()
                m, _ = self.number()
                return self.make(subject, n, m, t)
            if self.tok.text == "+":
                self.take()
                return self.make(subject, n, None, t)
            return self.make(subject, n, n, t)
        raise self.error(f"expected a comparison (>=, <=, =, <, >) or a number after "
                         f"{_quoted(head.text)}")


@dataclass(frozen=True, slots=True)
class _Subject:
    """A count a range applies to: its name (for messages), its largest value, and the
    constraint a range of it makes."""

    name: str
    top: int | Fraction
    make: Callable[..., Constraint]
    step: Fraction = Fraction(1)


_POINTS = {"tp": (True, False), "dp": (False, True), "lsp": (True, True)}
_SUBJECT_WORDS = frozenset({"hcp", "ltc", "losers", "controls", "quality", "sq", "freakness",
                            "pp", "support", "rp", "pt", "qt"}) | set(_POINTS)
#: Every word a term may start with, as an unknown word's message lists them.
_VOCABULARY = ("hcp", "spades", "hearts", "diamonds", "clubs", "balanced", "semibalanced",
               "unbalanced", "shape", "holds", "lacks", "stopper", "ltc", "controls", "tp",
               "dp", "lsp", "quality", "top", "freakness", "pp", "support", "rp", "pt", "qt",
               "any", "not", "usually")
#: The same, as the message lists them (the suits as one).
_LISTED = tuple(w for w in _VOCABULARY if w not in ("spades", "hearts", "diamonds", "clubs"))


def parse_constraint(text: str) -> Constraint:
    """Read the text syntax described in the module docstring.

    >>> str(parse_constraint("hcp>=12 and spades<=3"))
    '12+ hcp, spades<=3'

    :raises ParseError: for malformed text, with the offending text and its column.
    """
    if isinstance(text, Constraint):
        return text
    if not isinstance(text, str):
        raise ParseError(f"cannot make a constraint from {type(text).__name__}",
                         excerpt(repr(text)))
    return _Parser(text).parse()


def as_constraint(value: Constraint | str | Callable[[Hand], bool]) -> Constraint:
    """A :class:`~cardgames.constraints.Constraint` from a constraint, its text (read by
    :func:`parse_constraint`), or a predicate on a hand (made a
    :class:`~cardgames.constraints.Predicate`).

    >>> as_constraint("15-17 hcp, balanced") == HCP(15, 17) & balanced()
    True

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
