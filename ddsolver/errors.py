"""The exceptions that :mod:`ddsolver` raises for bad input.

The game-model errors of :mod:`cardgames.errors` are re-exported here, so a caller of the
solver needs one import; :class:`PlayOverError` is the one addition.  All derive from
:class:`ValueError`.
"""

from __future__ import annotations

from cardgames.errors import CardgamesError, DealError, IllegalPlayError, ParseError

__all__ = ["CardgamesError", "ParseError", "DealError", "IllegalPlayError", "PlayOverError"]


class PlayOverError(IllegalPlayError):
    """Every card has been played, so there is no player to move and no card to score."""
