"""The exceptions that ``cardgames`` raises for bad input.

All of them derive from :class:`ValueError`, so a caller that only cares that
the input was wrong can catch that; each carries the offending text and, where
it makes sense, the position (column or line) of the problem.
"""

from __future__ import annotations

import math
import numbers
import operator

__all__ = ["CardgamesError", "ParseError", "DealError", "IllegalPlayError", "PBNError",
           "SamplingError", "IllegalCallError", "BiddingSystemError", "EXCERPT", "excerpt",
           "whole_number", "positive_number"]

#: The most characters of an offending text that an error message quotes.
EXCERPT = 100


def excerpt(text: str, position: int = 0) -> str:
    """``text`` if it is short, else :data:`EXCERPT` characters of it around ``position``
    (a quarter of them before it), with ``...`` where it was cut: what a message quotes of
    a text that may be a megabyte.

    >>> text = "12+ hcp, " * 700 + "frob"
    >>> cut = excerpt(text, text.index("frob"))
    >>> len(cut), cut[:12], cut[-12:]
    (103, '... hcp, 12+', '2+ hcp, frob')
    """
    if len(text) <= EXCERPT:
        return text
    start = min(max(position - EXCERPT // 4, 0), len(text) - EXCERPT)
    end = start + EXCERPT
    return ("..." if start else "") + text[start:end] + ("..." if end < len(text) else "")


def whole_number(name: str, value: object, *, least: int = 0, most: int | None = None,
                 unit: str = "") -> int:
    """``value`` as an int when it is a whole number from ``least`` to ``most`` (no top
    when None): Python's or numpy's integers, never a bool or a float.  Else a
    :class:`ValueError` naming ``name``, the range and the value given (``unit``, such as
    ``" of tricks"``, follows "whole number" in the message).

    >>> import numpy as np
    >>> whole_number("samples", np.int64(20), least=1)
    20
    >>> whole_number("samples", 2.0, least=1)
    Traceback (most recent call last):
    ...
    ValueError: samples must be a whole number of at least 1, got 2.0
    >>> whole_number("need", 14, most=13, unit=" of tricks")
    Traceback (most recent call last):
    ...
    ValueError: need must be a whole number of tricks from 0 to 13, got 14
    """
    try:
        n = None if isinstance(value, bool) else operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        n = None
    if n is None or n < least or (most is not None and n > most):
        if most is not None:
            want = f"from {least} to {most}"
        else:
            want = "0 or more" if least == 0 else f"of at least {least}"
        raise ValueError(f"{name} must be a whole number{unit} {want}, got {value!r}")
    return n


def positive_number(name: str, value: object) -> float:
    """``value`` as a float when it is a positive finite number (numpy's too, never a
    bool); else a :class:`ValueError` naming ``name`` and the value given.

    >>> positive_number("z", 2)
    2.0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or \
            not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return float(value)


class CardgamesError(ValueError):
    """Base class of every error raised for bad input in ``cardgames``."""


class ParseError(CardgamesError):
    """A piece of text (a card, seat, strain, hand, deal, contract...) is malformed.

    :param message: what is wrong.
    :param text: the text being parsed, or, where it may be long, an :func:`excerpt` of it
        around the problem (the message quotes ``text``).
    :param position: 0-based column in the text being parsed where the problem was found,
        if known.
    """

    def __init__(self, message: str, text: str | None = None, position: int | None = None):
        self.message = message
        self.text = text
        self.position = position
        detail = message
        if text is not None:
            detail += f": {text!r}"
            if position is not None:
                detail += f" at column {position + 1}"
        super().__init__(detail)


class DealError(CardgamesError):
    """A deal is well formed as text but impossible: a card twice, wrong counts..."""


class IllegalPlayError(CardgamesError):
    """A card was played that the rules do not allow (not held, or a revoke)."""


class PBNError(ParseError):
    """A PBN file is malformed.  ``line`` is the 1-based line number of the problem.

    ``str(err)`` names the place once, as ``FILE:LINE: reason``; :attr:`where` is that
    ``FILE:LINE`` and :attr:`reason` the rest, so that a caller adding context of its own
    (``board 3: ...``) does not name the place twice.

    ``raw`` is set by a lenient reader on the error of a game it skipped: the game's text
    as it stood in the file (with the comment blocks standing before it, each followed by
    an empty line, as :meth:`cardgames.pbn.Game.to_pbn` lays them out), ending with a
    newline, so that a tool can write the game back unchanged.  None otherwise.
    ``original`` is set with it when the game was read from bytes (a file opened by
    :func:`cardgames.pbn.load_path`): the bytes the game took in the file, exactly, with
    what stood between it and the game before (see :func:`cardgames.pbn.write_back`).
    """

    def __init__(self, message: str, text: str | None = None, line: int | None = None,
                 source: str | None = None):
        self.line = line
        self.source = source
        self.raw: str | None = None
        self.original: bytes | None = None
        super().__init__(message, text)
        self.reason: str = self.args[0]
        if self.where:
            self.args = (f"{self.where}: {self.reason}",)

    @property
    def where(self) -> str:
        """``FILE:LINE``, ``FILE``, ``LINE`` or ``""``: the place the error names."""
        return ":".join(str(part) for part in (self.source, self.line) if part is not None)


class SamplingError(CardgamesError):
    """Constraints on hidden hands that no deal can meet (found before dealing), or that
    accept deals too rarely to reach the sample count within the attempt or time budget.

    ``attempts`` and ``accepted`` say how far dealing got (both 0 when the constraints were
    rejected up front).
    """

    def __init__(self, message: str, attempts: int = 0, accepted: int = 0):
        self.attempts = attempts
        self.accepted = accepted
        super().__init__(message)

    def __reduce__(self) -> tuple[type, tuple[str, int, int]]:
        # Pickled whole (to come back from another process, a cluster's worker), counts too.
        return type(self), (self.args[0], self.attempts, self.accepted)


class IllegalCallError(CardgamesError):
    """A call the rules of the auction do not allow: an insufficient bid, a double of one's
    own side or of nothing, a redouble without a double, a call after the auction ended.

    ``call`` is the offending call as written, ``index`` its 0-based place in the auction
    (the message counts from 1, as a player does: "call 2 (1H)" is the second).
    """

    def __init__(self, message: str, call: str, index: int):
        self.message = message
        self.call = call
        self.index = index
        super().__init__(f"call {index + 1} ({call}): {message}")


class BiddingSystemError(CardgamesError):
    """A bidding system file is malformed: bad TOML, an unknown section, a call or auction
    that cannot be read or cannot happen, or a constraint that does not parse.

    ``source`` is the file name (if any), ``line`` the 1-based line of the problem (if it
    could be found) and ``key`` the dotted key of the offending entry.
    """

    def __init__(self, message: str, source: str | None = None, line: int | None = None,
                 key: str | None = None):
        self.message = message
        self.source = source
        self.line = line
        self.key = key
        where = ":".join(str(p) for p in (source, line) if p is not None)
        detail = f"{where}: {message}" if where else message
        if key is not None:
            detail += f" (at {key})"
        super().__init__(detail)
