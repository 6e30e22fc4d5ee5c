"""The public face of the double-dummy solver: plain functions and a :class:`Solver` class
over the private Cython core (:mod:`ddsolver._core`).

Everything here speaks the value types of :mod:`cardgames` (``Deal``, ``Card``, ``Seat``,
``Strain``) and accepts the strings players write (``"N"``, ``"NT"``, ``"SA"``, ``"S10"``).
Input is checked here, at the boundary, because the core trusts what it is given: an
incomplete deal, a bad seat or strain, or an illegal card in the play so far raises one of the
:mod:`ddsolver.errors` classes (all :class:`ValueError`) with the offending thing in the message.

>>> from cardgames import Deal
>>> deal = Deal.from_pbn("N:AQ... .32.. 54... K2...")
>>> solve(deal, "NT", "W")        # North leads away from the AQ: West takes the king
1
>>> solve(deal, "NT", "E")        # South leads towards the AQ: the finesse wins
0
>>> card_scores(deal, "NT", "S")  # either spade leads to the finesse
{Card.parse('S5'): 2, Card.parse('S4'): 2}

One :class:`Solver` owns one search context and its transposition table (TT); it is not
thread-safe.  The module-level functions keep one solver per thread
(:func:`thread_solver`), and :func:`ddsolver.pool.dd_tables` solves many deals on a pool of
threads, one solver each (the core releases the GIL while it searches).
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from cardgames.cards import ALL_CARDS, Card, CardLike, Seat, SeatLike, Strain, StrainLike
from cardgames.hands import Deal
from cardgames.play import Position

# The core is this module's alone: every other module reaches it through the names here.
from . import views
from ._core import Core, clear_stop, hook_signal, request_stop, stop_requested, unhook_signal
from .errors import DealError, IllegalPlayError, ParseError, PlayOverError

__all__ = ["DDTable", "Solver", "solve", "dd_table", "card_scores", "DEFAULT_TT_MB",
           "MAX_TT_MB", "STRAIN_ORDER", "check_tt_mb", "as_deal", "deal_masks", "batch_masks", "table_of",
           "cards_of",
           "played_items", "thread_solver", "request_stop", "clear_stop", "stop_requested",
           "hook_signal", "unhook_signal"]

# Stopping searches (the core's own functions; :mod:`ddsolver.pool` builds Ctrl-C on them):
# ``request_stop()`` stops every running search and every one started before ``clear_stop()``,
# each raising KeyboardInterrupt in its own thread; ``hook_signal(signum)`` (main thread only)
# makes a signal do that as it arrives, ``unhook_signal`` undoes it.

#: Transposition-table size, in MB, of a :class:`Solver` made without one.
DEFAULT_TT_MB = 64
#: The largest transposition table a :class:`Solver` accepts, in MB (64 GB): larger
#: sizes are typing slips, and would be refused by the system or swap it to a halt.
MAX_TT_MB = 65536

DealLike = Deal | str


# ---- the DD table --------------------------------------------------------------------

#: Strains in the order tables are printed (no-trump first, as hand records show them):
#: the text of :class:`DDTable`, par's table, and every output format of the command line.
STRAIN_ORDER = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)


@dataclass(frozen=True, slots=True)
class DDTable:
    """Declarer's double-dummy tricks for every declarer and strain of one deal (opening
    lead by declarer's left-hand opponent).  Immutable, hashable, equal when all 20 numbers
    are equal.

    ``rows[declarer][strain]``, declarers N E S W, strains S H D C NT (the enum orders);
    ``cards``, the cards in each hand of the deal (13, or fewer for an ending: the tricks
    a contract needs are counted against it; 0 for a deal with none), is not compared.

    >>> t = DDTable.from_dict({"N": {"NT": 9, "S": 5, "H": 7, "D": 5, "C": 9},
    ...                        "E": {"NT": 4, "S": 7, "H": 5, "D": 8, "C": 4},
    ...                        "S": {"NT": 9, "S": 5, "H": 7, "D": 5, "C": 9},
    ...                        "W": {"NT": 4, "S": 7, "H": 5, "D": 8, "C": 4}})
    >>> t.tricks("S", "NT")
    9
    >>> print(t)
         NT   S   H   D   C
    N     9   5   7   5   9
    E     4   7   5   8   4
    S     9   5   7   5   9
    W     4   7   5   8   4
    """

    rows: tuple[tuple[int, ...], ...]
    cards: int = field(default=13, compare=False)

    def __post_init__(self) -> None:
        try:   # whole numbers only (numpy's too): not 9.7, "9" or True
            if any(isinstance(v, bool) for row in self.rows for v in row):
                raise TypeError
            rows = tuple(tuple(operator.index(v) for v in row) for row in self.rows)
        except (TypeError, ValueError):
            raise ValueError(f"a DD table is 4 rows of 5 ints, got {self.rows!r}") from None
        if len(rows) != 4 or any(len(row) != 5 for row in rows):
            raise ValueError(f"a DD table is 4 rows (N E S W) of 5 ints (S H D C NT), "
                             f"got {self.rows!r}")
        if isinstance(self.cards, bool) or not hasattr(type(self.cards), "__index__") or \
                not 0 <= self.cards <= 13:
            raise ValueError(f"a DD table's cards per hand must be 0..13, not {self.cards!r}")
        object.__setattr__(self, "cards", operator.index(self.cards))
        for row in rows:
            for v in row:
                if not 0 <= v <= self.cards:
                    raise ValueError(f"a DD table entry must be 0..{self.cards} tricks, got {v}")
        object.__setattr__(self, "rows", rows)

    @classmethod
    def from_dict(cls, table: Mapping[SeatLike, Mapping[StrainLike, int]],
                  cards: int = 13) -> DDTable:
        """Inverse of :meth:`to_dict`: ``table[declarer][strain]``, keys as text or enums;
        ``cards`` in each hand of the deal (fewer than 13 for an ending).

        :raises ParseError: for a key that is not a seat or a strain.
        :raises ValueError: if an entry is missing or out of range.
        :raises TypeError: if ``table``, or a declarer's row of it, is not a mapping.
        """
        if not isinstance(table, Mapping):
            raise TypeError(f"a DD table as a dict is declarer -> strain -> tricks, got "
                            f"{type(table).__name__}")
        rows: list[list[int | None]] = [[None] * 5 for _ in range(4)]
        for seat_key, by_strain in table.items():
            seat = Seat.parse(seat_key)
            if not isinstance(by_strain, Mapping):
                raise TypeError(f"the DD table's row of declarer {seat.letter} must map "
                                f"strains to tricks, got {type(by_strain).__name__}")
            for strain_key, tricks in by_strain.items():
                strain = Strain.parse(strain_key)
                # (an int, or a numpy one: anything with __index__; not a bool nor 9.5)
                if isinstance(tricks, bool) or not hasattr(type(tricks), "__index__") or \
                        not 0 <= tricks <= 13:
                    raise ValueError(f"DD table entry {seat.letter} {strain.letter} must be "
                                     f"a whole number of tricks 0..13, not {tricks!r}")
                rows[seat][strain] = tricks.__index__()
        missing = [f"{Seat(d).letter} {Strain(s).letter}" for d in range(4) for s in range(5)
                   if rows[d][s] is None]
        if missing:
            raise ValueError(f"DD table is missing entries: {', '.join(missing)}")
        return cls(tuple(tuple(t for t in r if t is not None) for r in rows), cards)

    def tricks(self, declarer: SeatLike, strain: StrainLike) -> int:
        """Declarer's tricks with best play by both sides.

        :raises ParseError: for a bad seat or strain.
        """
        return self.rows[_seat(declarer, "declarer")][_strain(strain)]

    def __getitem__(self, key: tuple[SeatLike, StrainLike]) -> int:
        """``table["S", "NT"]`` is ``table.tricks("S", "NT")``."""
        if not isinstance(key, tuple) or len(key) != 2:
            raise TypeError(f"index a DD table with (declarer, strain), like table['S', 'NT'];"
                            f" got {key!r}")
        return self.tricks(*key)

    def __iter__(self) -> Iterator[tuple[Seat, Strain, int]]:
        """``(declarer, strain, tricks)`` for all 20 entries, declarers N E S W, strains
        S H D C NT within each."""
        for d in Seat:
            for s in Strain:
                yield d, s, self.rows[d][s]

    def __len__(self) -> int:
        return 20

    def to_dict(self) -> dict[str, dict[str, int]]:
        """``{"N": {"S": 5, "H": 7, "D": 5, "C": 9, "NT": 9}, "E": {...}, ...}``, the layout
        of the ``dd`` field of the reference data; ready for JSON."""
        return {d.letter: {s.letter: self.rows[d][s] for s in Strain} for d in Seat}

    def _repr_html_(self) -> str:
        """The table as an HTML grid, for Jupyter (:func:`ddsolver.formats.html_repr.table_html`,
        through :mod:`ddsolver.views`)."""
        return views.show("DDTable.html", self)

    def __str__(self) -> str:
        header = "   " + "".join(f"{s.letter:>4}" for s in STRAIN_ORDER)
        lines = [header]
        for d in Seat:
            lines.append(f"{d.letter:<3}" + "".join(f"{self.rows[d][s]:>4}" for s in STRAIN_ORDER))
        return "\n".join(lines)


# ---- boundary checks -----------------------------------------------------------------

def _seat(value: SeatLike, what: str) -> Seat:
    try:
        return Seat.parse(value)
    except ParseError as err:
        raise ParseError(f"{what}: {err.message}", err.text) from None


def _strain(value: StrainLike) -> Strain:
    try:
        return Strain.parse(value)
    except ParseError as err:
        raise ParseError(f"strain: {err.message}", err.text) from None


def as_deal(deal: DealLike) -> Deal:
    """A complete deal (or ending) whose hands hold equal numbers of cards."""
    if isinstance(deal, str):
        deal = Deal.from_pbn(deal)
    elif not isinstance(deal, Deal):
        raise TypeError(f"expected a Deal or a PBN deal string, got {type(deal).__name__}")
    deal.require_complete()
    # Deal checks this on construction; checked again because the core would read an
    # uneven deal as nonsense rather than fail.
    sizes = [len(h) for h in deal.hands]  # type: ignore[arg-type]
    if len(set(sizes)) != 1:
        detail = ", ".join(f"{s.letter} {n}" for s, n in zip(Seat, sizes))
        raise DealError(f"hands must hold equal numbers of cards ({detail})")
    return deal


def _masks(deal: Deal) -> tuple[int, ...]:
    """The core's view of a deal: 16 rank masks, [seat N E S W][suit S H D C]."""
    return tuple(m for h in deal.hands for m in h.masks)  # type: ignore[union-attr]


def _position(deal: Deal, strain: Strain, leader: Seat,
              played: Iterable[CardLike] | str) -> Position:
    """The position after ``played``, checked against the rules (the core does not check)."""
    items = played_items(played)
    cards: list[Card] = []
    for i, item in enumerate(items):
        try:
            card = Card.parse(item)
        except ParseError as err:
            raise ParseError(f"card {i + 1} of the play: {err.message}", err.text) from None
        if deal.holder(card) is None:
            raise IllegalPlayError(f"card {i + 1} of the play: {card} is not in any hand "
                                   f"of the deal")
        cards.append(card)
    return Position(deal, strain, leader, cards)


def played_items(played: Iterable[CardLike] | str) -> list:
    """The cards of a ``played`` argument: text split on spaces and commas, or the items of
    an iterable of cards.

    :raises TypeError: naming ``played`` when it is neither.
    """
    if isinstance(played, str):
        return played.replace(",", " ").split()
    if isinstance(played, (bytes, bytearray)) or not isinstance(played, Iterable):
        raise TypeError(f"played must be cards (a list such as ['SA', 'S2'], or text "
                        f"'SA S2'), got {type(played).__name__}")
    return list(played)


def _played_bytes(position: Position) -> bytes:
    return bytes(c.suit * 16 + c.rank for c in position.played)


# ---- the solver ----------------------------------------------------------------------

class Solver:
    """A double-dummy solver with its own transposition table of ``tt_mb`` megabytes.

    Reusing one solver saves allocating the table for every question, and consecutive
    questions about the same deal (solve, card_scores, positions of its play) reuse what
    the table already knows.  :meth:`dd_table` starts each strain with an empty
    table: entries are kept by trump, so other strains' entries would never be used.  The
    table never grows past ``tt_mb``; when it is full it is cleared.  Not thread-safe: give
    each thread its own (as :func:`thread_solver` does).

    :param tt_mb: transposition-table size in MB (1 to :data:`MAX_TT_MB`).
    :raises ValueError: if ``tt_mb`` is not 1 to :data:`MAX_TT_MB`.
    :raises MemoryError: if the system cannot give the table its memory.
    """

    __slots__ = ("_core",)

    def __init__(self, tt_mb: int = DEFAULT_TT_MB):
        self._core = Core(check_tt_mb(tt_mb))

    # ---- questions ---------------------------------------------------------------
    def solve(self, deal: DealLike, strain: StrainLike, declarer: SeatLike) -> int:
        """Declarer's tricks in ``strain``, opening lead by declarer's left-hand opponent,
        both sides playing perfectly.  ``deal`` may be an ending (fewer than 13 cards a hand).

        :raises DealError: if a hand is unknown or the hands hold unequal numbers of cards.
        :raises ParseError: for a bad strain or seat, or a malformed PBN deal string.
        """
        st = _strain(strain)
        decl = _seat(declarer, "declarer")
        d = as_deal(deal)
        ns, _, _ = self._core.solve(_masks(d), int(st), int(decl.lho))
        return ns if decl.is_ns else d.cards_per_hand - ns

    def solve_position(self, deal: DealLike, strain: StrainLike, leader: SeatLike,
                       played: Iterable[CardLike] | str = ()) -> int:
        """North-South's tricks from this point of the play to the end, the trick in
        progress counted and tricks already won not counted (the number
        :func:`cardgames.minimax.alphabeta` gives).

        :param leader: who led to the first trick.
        :param played: the cards played so far, in order, from the opening lead on (card
            objects or text; a string is split on spaces and commas).
        :raises DealError: if a hand is unknown or the hands are unequal.
        :raises ParseError: for a bad strain, seat or card.
        :raises IllegalPlayError: if a card in ``played`` is not held by the player to move,
            or fails to follow suit; the message names the card and its place in the play.
        """
        st = _strain(strain)
        lead = _seat(leader, "leader")
        d = as_deal(deal)
        position = _position(d, st, lead, played)
        ns, _, _ = self._core.solve(_masks(d), int(st), int(lead), _played_bytes(position))
        return ns

    def play_trace(self, deal: DealLike, strain: StrainLike, leader: SeatLike,
                   played: Iterable[CardLike] | str) -> list[int]:
        """North-South's tricks in all (those won so far and those still to come, both sides
        playing perfectly from there) before the first card and after each card of
        ``played``: ``len(played) + 1`` numbers.  One pass over the play: the cost is one
        search per card that was not forced.

        :raises DealError: if a hand is unknown or the hands are unequal.
        :raises ParseError: for a bad strain, seat or card.
        :raises IllegalPlayError: for an illegal card (the message names it and its place).
        """
        st = _strain(strain)
        lead = _seat(leader, "leader")
        d = as_deal(deal)
        position = _position(d, st, lead, played)
        return self._core.play_trace(_masks(d), int(st), int(lead), _played_bytes(position))

    def card_scores(self, deal: DealLike, strain: StrainLike, leader: SeatLike,
                    played: Iterable[CardLike] | str = ()) -> dict[Card, int]:
        """For every legal card of the player to move: the tricks the mover's side takes from
        here on if it plays that card and both sides then play perfectly.  The trick in
        progress counts (its cards already played included); tricks won before it do not.
        These are DDS ``SolveBoard`` ``solutions=3`` numbers.  The dict is ordered by card:
        spades to clubs, high to low.

        :param leader: who led to the first trick.
        :param played: the cards played so far, in order, from the opening lead on.
        :raises DealError: if a hand is unknown or the hands are unequal.
        :raises ParseError: for a bad strain, seat or card.
        :raises IllegalPlayError: if a card in ``played`` is not held by the player to move,
            or fails to follow suit; the message names the card and its place in the play.
        :raises PlayOverError: if every card has been played.
        """
        st = _strain(strain)
        lead = _seat(leader, "leader")
        d = as_deal(deal)
        position = _position(d, st, lead, played)
        if position.is_terminal:
            done = (f"all {d.cards_per_hand} tricks have been played" if d.cards_per_hand
                    else "the deal has no cards")
            raise PlayOverError(f"the play is over ({done}): no card is left to score")
        seat, scores = self._core.card_scores(_masks(d), int(st), int(lead),
                                              _played_bytes(position))
        out = {ALL_CARDS[(code >> 4) * 13 + (code & 15) - 2]: score for code, score in scores}
        legal = position.legal_cards()
        # The core makes its own moves; if they ever differ from the rules, say so loudly
        # rather than return a plausible-looking answer.
        if seat != position.to_move or set(out) != set(legal):
            raise RuntimeError(f"solver core disagrees with the rules at {position!r}: it moves "
                               f"{Seat(seat).letter} with {sorted(map(str, out))}, the rules "
                               f"say {position.to_move.letter} with {[str(c) for c in legal]}")
        return {card: out[card] for card in legal}

    def dd_table(self, deal: DealLike) -> DDTable:
        """Declarer's tricks for all 20 (declarer, strain) pairs.

        :raises DealError: if a hand is unknown or the hands are unequal.
        :raises ParseError: for a malformed PBN deal string.
        """
        masks = _masks(as_deal(deal))
        return table_of(self._core.dd_table(masks), cards_of(masks))

    # ---- positions in the core's encoding ------------------------------------------
    # For callers that build positions themselves by the thousand (the single-dummy
    # search, the batch and cluster workers) and would pay more for the checks above
    # than for a small search: a deal as 16 rank masks (:func:`deal_masks`), seats
    # 0..3 = N E S W, strains 0..4 = S H D C NT, a card as ``suit * 16 + rank``.  The
    # core checks every argument (a malformed deal, an illegal card: ValueError), but
    # the answers are in its encoding too.
    def dd_table_masks(self, masks: tuple[int, ...]) -> DDTable:
        """:meth:`dd_table` of a deal given as :func:`deal_masks`."""
        return table_of(self._core.dd_table(masks), cards_of(masks))

    def dd_strain_masks(self, masks: tuple[int, ...], strain: int) -> list[int]:
        """Declarer's tricks in ``strain`` for declarers N E S W: one strain of
        :meth:`dd_table_masks` (strains share nothing in the table, so the five can be
        solved apart)."""
        return self._core.dd_strain(masks, strain)

    def solve_masks(self, masks: tuple[int, ...], strain: int, leader: int,
                    trick: bytes = b"") -> int:
        """North-South's tricks from the start of the trick that ``leader`` leads (the
        cards of ``trick`` already played to it, as bytes ``suit * 16 + rank``) to the
        end: :meth:`solve_position` from the trick's start."""
        ns, _, _ = self._core.solve(masks, strain, leader, trick)
        return ns

    def card_scores_masks(self, masks: tuple[int, ...], strain: int, leader: int,
                          trick: bytes = b"") -> dict[int, int]:
        """:meth:`card_scores` from the start of the trick ``leader`` leads, the cards of
        ``trick`` played to it: ``{card code: tricks for the mover's side from here}``,
        a card code being ``suit * 16 + rank``."""
        _, scores = self._core.card_scores(masks, strain, leader, trick)
        return dict(scores)

    def reaches_many(self, worlds: Sequence[tuple[int, ...]], strain: int, leader: int,
                     asks: Sequence[tuple[int, bytes, int]], *, forget: bool = False) -> bytes:
        """Single-target (null-window) searches over many deals at one point of the play,
        the batch entry a single-dummy search takes its leaves from.

        :param worlds: deals, each as 16 rank masks (:func:`deal_masks`), all holding the
            same number of cards, ``leader`` to lead.
        :param asks: ``(world, played, target)``: a world's index, the cards played from
            that point (bytes, ``suit * 16 + rank``), and whether North-South take at
            least ``target`` tricks from that point (tricks the played cards complete
            counted).
        :param forget: empty the table first.  Otherwise it is kept from call to call
            (its entries hold for any deal), so later questions find what the earlier
            ones learnt; the next ordinary question starts afresh.
        :returns: one byte per ask, 1 for yes.
        :raises ValueError: / :raises TypeError: for a bad deal, play, index or target
            (everything is checked before the first search).
        """
        return self._core.reaches_many(list(worlds), strain, leader, list(asks), forget)

    def clear(self) -> None:
        """Empty the transposition table (it is also emptied whenever the deal changes)."""
        self._core.clear()

    # ---- introspection -----------------------------------------------------------
    @property
    def tt_mb(self) -> int:
        """The transposition-table size asked for, in MB."""
        return self._core.tt_mb

    @property
    def tt_bytes(self) -> int:
        """Bytes the transposition table occupies (at most ``tt_mb`` MB)."""
        return self._core.tt_bytes

    @property
    def tt_capacity(self) -> int:
        """Entries the table holds before it has to be cleared."""
        return self._core.tt_capacity

    @property
    def tt_used(self) -> int:
        """Entries in the table now."""
        return self._core.tt_used

    @property
    def nodes(self) -> int:
        """Search nodes visited since this solver was made."""
        return self._core.nodes

    def __repr__(self) -> str:
        return f"Solver(tt_mb={self.tt_mb})"


# ---- module-level functions -----------------------------------------------------------

# The one registry of solvers: each thread keeps a solver per table size it has asked for,
# reused from call to call (allocating a table costs more than a small search).  The
# module-level functions below, every thread of a :class:`~ddsolver.pool.SolverPool` and
# the worker threads of a Dask cluster all take their solvers from here; a thread's
# solvers go with the thread.
_THREAD = threading.local()


def thread_solver(tt_mb: int = DEFAULT_TT_MB) -> Solver:
    """This thread's solver of ``tt_mb`` MB, made on the thread's first call and kept (with
    its table) for the next; a call with another size replaces it, so a thread holds one
    table, of the size last asked for (a Dask worker serving runs of several ``--tt-mb``
    kept one of each before).

    >>> thread_solver(16) is thread_solver(16)
    True

    :raises TypeError: / :raises ValueError: for a bad ``tt_mb`` (:func:`check_tt_mb`).
    """
    size = check_tt_mb(tt_mb)
    solver: Solver | None = getattr(_THREAD, "solver", None)
    if solver is None or solver.tt_mb != size:
        solver = _THREAD.solver = Solver(size)
    return solver


def solve(deal: DealLike, strain: StrainLike, declarer: SeatLike, *,
          tt_mb: int = DEFAULT_TT_MB) -> int:
    """Declarer's double-dummy tricks, opening lead by declarer's left-hand opponent.

    ``solve(deal, "NT", "S")`` equals ``dd_table(deal).tricks("S", "NT")``.  See
    :meth:`Solver.solve`.

    :raises DealError: if a hand is unknown or the hands are unequal.
    :raises ParseError: for a bad strain or seat, or a malformed PBN deal string.
    """
    return thread_solver(tt_mb).solve(deal, strain, declarer)


def dd_table(deal: DealLike, *, tt_mb: int = DEFAULT_TT_MB) -> DDTable:
    """Declarer's tricks for all 20 (declarer, strain) pairs.  See :meth:`Solver.dd_table`.

    :raises DealError: if a hand is unknown or the hands are unequal.
    :raises ParseError: for a malformed PBN deal string.
    """
    return thread_solver(tt_mb).dd_table(deal)


def card_scores(deal: DealLike, strain: StrainLike, leader: SeatLike,
                played: Iterable[CardLike] | str = (), *,
                tt_mb: int = DEFAULT_TT_MB) -> dict[Card, int]:
    """Tricks for the mover's side for every legal card of the player to move.  See
    :meth:`Solver.card_scores`.

    :raises DealError: if a hand is unknown or the hands are unequal.
    :raises ParseError: for a bad strain, seat or card.
    :raises IllegalPlayError: for an illegal card in ``played`` (named, with its place).
    :raises PlayOverError: if every card has been played.
    """
    return thread_solver(tt_mb).card_scores(deal, strain, leader, played)


def check_tt_mb(tt_mb: object) -> int:
    """``tt_mb`` if it is a valid transposition-table size in MB (1 to :data:`MAX_TT_MB`).

    :raises TypeError: if it is not an int.
    :raises ValueError: if it is out of range.
    """
    if isinstance(tt_mb, bool) or not hasattr(type(tt_mb), "__index__"):
        raise TypeError(f"tt_mb must be an int (megabytes), got {type(tt_mb).__name__}")
    tt_mb = operator.index(tt_mb)  # type: ignore[arg-type]  # numpy's integers too
    if not 1 <= tt_mb <= MAX_TT_MB:
        raise ValueError(f"transposition table size must be 1 to {MAX_TT_MB} MB, got {tt_mb}")
    return tt_mb


def deal_masks(deal: DealLike) -> tuple[int, ...]:
    """A complete deal (or ending) in the core's encoding: 16 rank masks, [seat N E S W]
    [suit S H D C], bit ``r`` set for rank ``r`` -- what the ``*_masks`` methods of
    :class:`Solver` take, and what a deal costs to send to another process.

    >>> deal_masks("N:A... K... Q... J...")[::4]
    (16384, 8192, 4096, 2048)

    :raises DealError: if a hand is unknown or the hands are unequal.
    :raises ParseError: for a malformed PBN deal string.
    :raises TypeError: for something that is neither a Deal nor a PBN deal string.
    """
    return _masks(as_deal(deal))


def batch_masks(index: int, deal: DealLike) -> tuple[int, ...]:
    """:func:`deal_masks` of one deal of a batch; errors say which deal (0-based ``index``)
    was bad.

    :raises DealError: / :raises ParseError: / :raises TypeError: as :func:`deal_masks`,
        the message starting ``deal at index 3:``.
    """
    try:
        return _masks(as_deal(deal))
    except ParseError as err:
        raise ParseError(f"deal at index {index}: {err.message}", err.text,
                         err.position) from None
    except DealError as err:
        raise DealError(f"deal at index {index}: {err}") from None
    except TypeError as err:
        raise TypeError(f"deal at index {index}: {err}") from None


def table_of(by_strain: list[list[int]], cards: int = 13) -> DDTable:
    """The :class:`DDTable` of the core's answer, ``[strain S H D C NT][declarer N E S W]``
    (what :meth:`Solver.dd_strain_masks` gives, strain by strain), for a deal of ``cards``
    in each hand."""
    return DDTable(tuple(tuple(by_strain[s][d] for s in range(5)) for d in range(4)), cards)


def cards_of(masks: Sequence[int]) -> int:
    """The cards in each hand of a deal given as :func:`deal_masks` (North's)."""
    return sum(m.bit_count() for m in masks[:4])
