"""The auction: calls (bids, pass, double, redouble) and the sequence of them from the
dealer on, checked against the laws of the auction, with the final contract and declarer.

    >>> a = Auction.parse("N: 1H Pass 2H X 4H Pass Pass Pass")
    >>> a.contract, a.is_complete
    (Contract.parse('4HN'), True)
    >>> Auction.parse("1NT Pass 3NT AP", dealer="E").contract
    Contract.parse('3NTE')

Calls are written the way players and PBN 2.1 write them: ``1C``..``7NT`` (``N`` for
``NT``, suit symbols too), ``Pass``/``P``, ``X``/``Dbl``, ``XX``/``Rdbl``, and ``AP`` for
"all pass" (the passes that end the auction).  PBN's annotations are kept with the call they
follow but take no part in its equality: ``*`` (an alert), a suffix ``!``, ``?``, ``!!``,
``??``, ``!?``, ``?!``, and a note reference ``=1=``; numeric annotation glyphs (``$2``) are
read and dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import overload

from .cards import Seat, SeatLike, Strain, StrainLike
from .errors import IllegalCallError, ParseError
from .scoring import Contract

__all__ = ["CallKind", "Call", "Auction", "PASS", "DOUBLE", "REDOUBLE", "CallLike"]

#: Strains in bidding order, lowest first (the solver's numbering is S H D C NT).
BIDDING_ORDER = (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES, Strain.NOTRUMP)
_ORDER = {s: i for i, s in enumerate(BIDDING_ORDER)}
_SUFFIXES = ("!!", "??", "!?", "?!", "!", "?")
_CALL = re.compile(r"([1-7])\s*(NT|N|[SHDC♠♥♦♣])|(PASS|P)|(XX|RDBL|R)|(X|DBL|D)",
                   re.IGNORECASE)
_ANNOTATION = re.compile(r"(\*)|(!!|\?\?|!\?|\?!|!|\?)|=(\d+)=|\$(\d+)")
_ANNOTATIONS = re.compile(r"(?:\*|!!|\?\?|!\?|\?!|!|\?|=\d+=|\$\d+)+")


class CallKind(IntEnum):
    """What kind of call: a pass, a double, a redouble or a bid."""

    PASS = 0
    DOUBLE = 1
    REDOUBLE = 2
    BID = 3


@dataclass(frozen=True, slots=True, repr=False)
class Call:
    """One call.  ``Call.parse("1NT")``, ``Call.bid(4, "S")``, :data:`PASS`, :data:`DOUBLE`,
    :data:`REDOUBLE`.  ``level`` and ``strain`` are set for bids only (0 and None otherwise).

    The annotations (``alert``, ``suffix``, ``note``) print with the call but do not take
    part in equality or hashing: ``Call.parse("2C*") == Call.parse("2C")``.

    >>> Call.parse("1n!=2=")
    Call.parse('1NT!=2=')
    >>> Call.parse("3NT") > Call.parse("3S")
    True
    """

    kind: CallKind
    level: int = 0
    strain: Strain | None = None
    alert: bool = field(default=False, compare=False)
    suffix: str = field(default="", compare=False)
    note: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", CallKind(self.kind))
        if self.kind == CallKind.BID:
            if isinstance(self.level, bool) or not isinstance(self.level, int) \
                    or not 1 <= self.level <= 7:
                raise ParseError(f"a bid's level must be 1..7, not {self.level!r}",
                                 repr(self.level))
            if self.strain is None:
                raise ParseError("a bid needs a strain", str(self.level))
            if type(self.strain) is not Strain:
                object.__setattr__(self, "strain", Strain.parse(self.strain))
        elif self.level != 0 or self.strain is not None:
            raise ParseError(f"a {self.kind.name.lower()} has no level or strain",
                             f"{self.level}{self.strain or ''}")
        if self.suffix not in ("",) + _SUFFIXES:
            raise ParseError("an annotation suffix is one of ! ? !! ?? !? ?!", self.suffix)

    @classmethod
    def bid(cls, level: int, strain: StrainLike) -> Call:
        """The bid of ``level`` (1..7) in ``strain``."""
        return cls(CallKind.BID, level, Strain.parse(strain))

    @classmethod
    def parse(cls, value: CallLike) -> Call:
        """Read one call with its annotations: ``"1NT"``, ``"1n"``, ``"P"``, ``"Pass"``,
        ``"X"``, ``"Dbl"``, ``"XX"``, ``"2C*"``, ``"4S!=1="``.

        :raises ParseError: if the text is not a call.
        """
        if isinstance(value, Call):
            return value
        if not isinstance(value, str):
            raise ParseError(f"cannot make a call from {type(value).__name__}", repr(value))
        text = value.strip()
        m = _CALL.match(text)
        if m is None:
            raise ParseError("not a call (expected 1C..7NT, Pass, X or XX)", value)
        call = _from_match(m)
        end = m.end()
        if end < len(text) and text[end].isalnum():
            raise ParseError("not a call (expected 1C..7NT, Pass, X or XX)", value, end)
        return _annotate(call, text, end, value)

    @property
    def is_bid(self) -> bool:
        return self.kind == CallKind.BID

    @property
    def is_pass(self) -> bool:
        return self.kind == CallKind.PASS

    @property
    def rank(self) -> int:
        """Bids in bidding order: 1C = 0, 1D = 1 ... 7NT = 34; -1 for other calls."""
        if self.strain is None:
            return -1
        return (self.level - 1) * 5 + _ORDER[self.strain]

    @property
    def bare(self) -> Call:
        """The call without its annotations."""
        return Call(self.kind, self.level, self.strain)

    @property
    def name(self) -> str:
        """The call without annotations: ``1NT``, ``Pass``, ``X``, ``XX``."""
        if self.kind == CallKind.BID:
            return f"{self.level}{self.strain.letter}"  # type: ignore[union-attr]
        return ("Pass", "X", "XX")[self.kind]

    def __lt__(self, other: Call) -> bool:
        """Bids compare in bidding order (a bid is sufficient over every lower one)."""
        if not isinstance(other, Call):
            return NotImplemented
        return self.rank < other.rank

    def __gt__(self, other: Call) -> bool:
        if not isinstance(other, Call):
            return NotImplemented
        return self.rank > other.rank

    def __str__(self) -> str:
        text = self.name + ("*" if self.alert else "") + self.suffix
        return text + (f"={self.note}=" if self.note is not None else "")

    def __repr__(self) -> str:
        return f"Call.parse({str(self)!r})"


def _from_match(m: re.Match[str]) -> Call:
    if m.group(1):
        strain = m.group(2).upper()
        return Call.bid(int(m.group(1)), "NT" if strain == "N" else strain)
    if m.group(3):
        return PASS
    return REDOUBLE if m.group(4) else DOUBLE


def _annotate(call: Call, text: str, i: int, original: str) -> Call:
    """``call`` with the annotations written from ``text[i:]`` on (all of it must be
    annotations)."""
    alert, suffix, note = call.alert, call.suffix, call.note
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        m = _ANNOTATION.match(text, i)
        if m is None:
            raise ParseError(f"unexpected {text[i]!r} after a call (annotations are *, !, ?, "
                             f"=1= and $1)", original, i)
        if m.group(1):
            alert = True
        elif m.group(2):
            suffix = m.group(2)
        elif m.group(3):
            note = int(m.group(3))
        i = m.end()
    return Call(call.kind, call.level, call.strain, alert, suffix, note)


PASS = Call(CallKind.PASS)
DOUBLE = Call(CallKind.DOUBLE)
REDOUBLE = Call(CallKind.REDOUBLE)

CallLike = Call | str


@dataclass(frozen=True, slots=True)
class _State:
    """Where an auction stands after some calls."""

    last_bid: Call | None      # the highest bid so far
    bidder: Seat | None        # who made it
    doubled: int               # 0, 1 (doubled) or 2 (redoubled)
    doubler: Seat | None       # who made the last double or redouble
    trailing_passes: int       # passes since the last call that was not a pass
    calls: int                 # calls so far
    declarer: Seat | None      # first of the bidding side to name the last bid's strain

    @property
    def ended(self) -> bool:
        if self.last_bid is None and self.doubled == 0:
            return self.trailing_passes >= 4
        return self.trailing_passes >= 3


def _step(state: _State, call: Call, seat: Seat, firsts: dict[tuple[int, Strain], Seat]
          ) -> _State:
    """The state after ``seat`` makes ``call``; raises IllegalCallError (index = calls so
    far) if the laws forbid it.  ``firsts`` maps (side, strain) to the first seat of that
    side to bid the strain, and is updated."""
    index = state.calls
    if state.ended:
        raise IllegalCallError("the auction has already ended", str(call), index)
    if call.kind == CallKind.PASS:
        return _State(state.last_bid, state.bidder, state.doubled, state.doubler,
                      state.trailing_passes + 1, index + 1, state.declarer)
    if call.kind == CallKind.BID:
        if state.last_bid is not None and call.rank <= state.last_bid.rank:
            raise IllegalCallError(f"insufficient bid: {state.last_bid.name} was bid before",
                                   str(call), index)
        strain = call.strain
        assert strain is not None
        first = firsts.setdefault((seat & 1, strain), seat)
        return _State(call.bare, seat, 0, None, 0, index + 1, first)
    if state.last_bid is None:
        raise IllegalCallError(f"{'double' if call.kind == CallKind.DOUBLE else 'redouble'} "
                               f"of nothing: no bid has been made", str(call), index)
    assert state.bidder is not None
    if call.kind == CallKind.DOUBLE:
        if state.doubled:
            raise IllegalCallError(f"{state.last_bid.name} is already "
                                   f"{'doubled' if state.doubled == 1 else 'redoubled'}",
                                   str(call), index)
        if (state.bidder & 1) == (seat & 1):
            raise IllegalCallError(f"double of one's own side's bid ({state.last_bid.name})",
                                   str(call), index)
        return _State(state.last_bid, state.bidder, 1, seat, 0, index + 1, state.declarer)
    if state.doubled != 1:
        raise IllegalCallError("redouble without a double" if state.doubled == 0
                               else f"{state.last_bid.name} is already redoubled",
                               str(call), index)
    assert state.doubler is not None
    if (state.doubler & 1) == (seat & 1):
        raise IllegalCallError("redouble of one's own side's double", str(call), index)
    return _State(state.last_bid, state.bidder, 2, seat, 0, index + 1, state.declarer)


_START = _State(None, None, 0, None, 0, 0, None)


def _tokens(text: str) -> Iterator[tuple[str, int]]:
    """Whitespace-, comma- and dash-separated tokens with their columns."""
    for m in re.finditer(r"[^\s,\-–]+", text):
        yield m.group(), m.start()


@dataclass(frozen=True, slots=True, repr=False)
class Auction:
    """The calls made from the dealer on, legal by the laws of the auction.

    ``Auction(dealer, calls)`` takes calls or their text; :meth:`parse` reads a whole
    auction from text.  ``str()`` gives the calls; ``repr()`` round-trips.

    >>> Auction.parse("S: P P 1S X XX AP").contract
    Contract.parse('1SXXN')

    :raises IllegalCallError: for a call the laws do not allow, naming it and its index.
    :raises ParseError: for a call that cannot be read, or a bad dealer.
    """

    dealer: Seat
    calls: tuple[Call, ...] = ()

    def __post_init__(self) -> None:
        if type(self.dealer) is not Seat:
            object.__setattr__(self, "dealer", Seat.parse(self.dealer))
        if isinstance(self.calls, str):
            raise TypeError("calls must be a sequence of calls; use Auction.parse for text")
        calls = tuple(Call.parse(c) for c in self.calls)
        object.__setattr__(self, "calls", calls)
        state, firsts = _START, {}  # type: ignore[var-annotated]
        seat = self.dealer
        for call in calls:
            state = _step(state, call, seat, firsts)
            seat = seat.next()

    @classmethod
    def parse(cls, text: str, dealer: SeatLike | None = None) -> Auction:
        """Read ``"N: 1NT Pass 3NT AP"`` or, with ``dealer`` given, ``"1NT P 3NT AP"``.
        Calls are separated by spaces, commas or dashes (``"1NT-3NT"``); annotations
        (``*``, ``!``, ``?``, ``=1=``, ``$1``) attach to the call before them, written with
        it or apart -- a lone ``*`` marks an alert here, not the end of a PBN section as in
        :mod:`cardgames.pbn`; ``AP`` adds the passes that end the auction and must come last.

        :raises ParseError: for a token that is not a call, a missing or doubled dealer.
        :raises IllegalCallError: for an illegal call, with its index.
        """
        if not isinstance(text, str):
            raise ParseError(f"cannot make an auction from {type(text).__name__}", repr(text))
        body = text
        m = re.match(r"\s*([A-Za-z]+)\s*:", text)
        if m is not None:
            if dealer is not None:
                raise ParseError("the dealer is given twice (in the text and as dealer=)", text)
            dealer = m.group(1)
            body = text[m.end():]
            offset = m.end()
        else:
            offset = 0
        if dealer is None:
            raise ParseError("an auction needs its dealer (write 'N: 1NT P 3NT AP' or pass "
                             "dealer=)", text)
        seat = Seat.parse(dealer)
        calls: list[Call] = []
        state, firsts = _START, {}  # type: ignore[var-annotated]
        ended_by_ap = False
        for token, col in _tokens(body):
            pos = offset + col
            if ended_by_ap:
                raise ParseError("nothing may follow AP (all pass)", text, pos)
            if token.upper() == "AP":
                while not state.ended:
                    state = _step(state, PASS, seat.next(len(calls)), firsts)
                    calls.append(PASS)
                ended_by_ap = True
                continue
            if _ANNOTATIONS.fullmatch(token):
                if not calls:
                    raise ParseError("an annotation before any call", text, pos)
                calls[-1] = _annotate(calls[-1], token, 0, text)
                continue
            try:
                call = Call.parse(token)
            except ParseError as err:
                raise ParseError(err.message, text, pos) from None
            state = _step(state, call, seat.next(len(calls)), firsts)
            calls.append(call)
        return cls(seat, tuple(calls))

    # ---- queries --------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.calls)

    def __iter__(self) -> Iterator[Call]:
        return iter(self.calls)

    def seat(self, index: int) -> Seat:
        """Who makes call ``index`` (0 is the dealer)."""
        return self.dealer.next(index)

    def seated(self) -> Iterator[tuple[int, Seat, Call]]:
        """(index, seat, call) for every call."""
        for i, call in enumerate(self.calls):
            yield i, self.dealer.next(i), call

    def _state(self) -> _State:
        state, firsts = _START, {}  # type: ignore[var-annotated]
        for i, call in enumerate(self.calls):
            state = _step(state, call, self.dealer.next(i), firsts)
        return state

    @property
    def next_seat(self) -> Seat:
        """Whose turn it is to call."""
        return self.dealer.next(len(self.calls))

    @property
    def is_complete(self) -> bool:
        """True once the auction has ended (four passes, or three after a call)."""
        return self._state().ended

    @property
    def is_passed_out(self) -> bool:
        """True if all four players passed."""
        return self.is_complete and self._state().last_bid is None

    @property
    def last_bid(self) -> Call | None:
        """The highest bid so far (None before any)."""
        return self._state().last_bid

    @property
    def contract(self) -> Contract | None:
        """The contract as it stands, with its declarer (the final contract once the
        auction is complete); None before any bid and when the deal is passed out."""
        state = self._state()
        if state.last_bid is None:
            return None
        bid = state.last_bid
        return Contract(bid.level, bid.strain, state.doubled,  # type: ignore[arg-type]
                        state.declarer)

    @property
    def declarer(self) -> Seat | None:
        """The first player of the side that made the last bid to name its strain."""
        return self._state().declarer

    def is_legal(self, call: CallLike) -> bool:
        """True if ``call`` may be made now."""
        try:
            _step(self._state(), Call.parse(call), self.next_seat, {})
        except IllegalCallError:
            return False
        return True

    def then(self, *calls: CallLike) -> Auction:
        """This auction with ``calls`` made after it.

        :raises IllegalCallError: if one of them is illegal.
        """
        return Auction(self.dealer, self.calls + tuple(Call.parse(c) for c in calls))

    @overload
    def __getitem__(self, index: int) -> Call: ...

    @overload
    def __getitem__(self, index: slice) -> Auction: ...

    def __getitem__(self, index: int | slice) -> Call | Auction:
        """``auction[i]`` is call ``i``; ``auction[:n]`` the auction up to call ``n``."""
        if not isinstance(index, slice):
            return self.calls[index]
        if index.start not in (None, 0) or index.step not in (None, 1):
            raise TypeError("an auction slices only from its start, as auction[:n]")
        return Auction(self.dealer, self.calls[index])

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.calls)

    def __repr__(self) -> str:
        body = str(self)
        return f"Auction.parse({(self.dealer.letter + ': ' + body).rstrip()!r})"


def calls_text(calls: Sequence[Call] | Iterable[Call]) -> str:
    """The calls' names joined by spaces, without annotations: ``"1NT Pass 2C"``."""
    return " ".join(c.name for c in calls)
