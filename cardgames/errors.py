"""The exceptions that ``cardgames`` raises for bad input.

All of them derive from :class:`ValueError`, so a caller that only cares that
the input was wrong can catch that; each carries the offending text and, where
it makes sense, the position (column or line) of the problem.
"""

from __future__ import annotations

__all__ = ["CardgamesError", "ParseError", "DealError", "IllegalPlayError", "PBNError",
           "SamplingError"]


class CardgamesError(ValueError):
    """Base class of every error raised for bad input in ``cardgames``."""


class ParseError(CardgamesError):
    """A piece of text (a card, seat, strain, hand, deal, contract...) is malformed.

    :param message: what is wrong.
    :param text: the text being parsed.
    :param position: 0-based column in ``text`` where the problem was found, if known.
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

    ``raw`` is set by a lenient reader on the error of a game it skipped: the game's text
    as it stood in the file (with the comment blocks standing before it, each followed by
    an empty line, as :meth:`cardgames.pbn.Game.to_pbn` lays them out), ending with a
    newline, so that a tool can write the game back unchanged.  None otherwise.
    """

    def __init__(self, message: str, text: str | None = None, line: int | None = None,
                 source: str | None = None):
        self.line = line
        self.source = source
        self.raw: str | None = None
        super().__init__(message, text)
        where = ""
        if source is not None:
            where = f"{source}:"
        if line is not None:
            where += f"{line}:"
        if where:
            self.args = (f"{where} {self.args[0]}",)


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
