"""The single-dummy review of the boards of PBN files: what ``ddsolver advise FILE.pbn``
does, as a library.

For a board with a Contract, a Declarer and a Play section, :func:`review_board` goes
through the real play and, at every card of the reviewed side's (declarer and dummy for
declarer; the defender alone for a defender), asks which card was best single dummy
from that player's view at that moment (:func:`ddsolver.advise.advise`: PIMC, or αμ for
declarer's side): a card whose value is below the best card's is a :class:`Decision`
marked worse, the single-dummy counterpart of the double-dummy errors of
:func:`ddsolver.analyse_play`.  Where the play stops with the reviewed side to play, the
advice for that next card comes too.

The board's facts (the vulnerability from its tag, else the board number) are read by
:class:`cardgames.facts.BoardFacts`; an ending (fewer than 13 cards a hand) names its
earlier tricks in a ``DeclarerWon`` tag and may constrain its hidden hands with a
``Constraints`` tag, as in ``data/single_dummy.pbn`` (:func:`board_arguments`).
:func:`review_boards` goes through files, reports a board that cannot be reviewed as
``FILE:LINE: reason; board skipped`` and goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from cardgames import pbn
from cardgames.cards import Card, Seat, SeatLike
from cardgames.errors import CardgamesError, ParseError
from cardgames.facts import BoardFacts
from cardgames.play import Position
from cardgames.scoring import Contract, Vulnerability

from .advise import AdviceReport, advise
from .boards import Inputs, board_name, check_play, label_of, located, where

__all__ = ["Decision", "parse_constraints", "board_arguments", "card_value", "review_board",
           "review_boards", "ReviewedBoard"]


def parse_constraints(text: str | None) -> dict[Seat, str]:
    """``"W: 3 diamonds, holds D9; E: holds HA"`` -> {Seat.WEST: "3 diamonds, holds D9", ...}
    (the ``Constraints`` tag of ``data/single_dummy.pbn``).

    :raises ParseError: for a part without ``SEAT:``.
    """
    out: dict[Seat, str] = {}
    for part in (text or "").split(";"):
        if not part.strip():
            continue
        seat, sep, rest = part.partition(":")
        if not sep:
            raise ParseError("a constraint is written 'SEAT: constraint'", part.strip())
        out[Seat.parse(seat.strip())] = rest.strip()
    return out


def board_arguments(game: pbn.Game, seat: SeatLike | None = None,
                    played: Iterable[Card] | None = None) -> dict[str, Any]:
    """The keyword arguments of :func:`~ddsolver.advise.advise` for a PBN board from
    ``seat``'s view (default: the ``Seat`` tag, else declarer), after ``played`` (default:
    the board's whole Play section).  A board whose Deal holds fewer than 13 cards a hand
    is an ending: its cards are those in play, ``DeclarerWon`` the tricks declarer's side
    won before it.  ``Constraints`` (``"W: ...; E: ..."``) constrain the hidden hands.  The
    vulnerability is the ``Vulnerable`` tag's, else the board number's, else none.

    :raises CardgamesError: no contract, declarer or deal, or the seat's or dummy's hand
        missing.
    """
    deal = game.deal
    contract = game.contract
    declarer = game.declarer
    if deal is None or contract is None or declarer is None:
        raise CardgamesError("the board needs a Deal, a Contract and a Declarer")
    seat_tag = game.tag("Seat")
    who = Seat.parse(seat) if seat is not None else (
        Seat.parse(seat_tag) if seat_tag else declarer)
    if who == declarer.partner:
        who = declarer  # dummy's cards are declarer's to choose
    hand, dummy = deal[who], deal[declarer.partner]
    if hand is None or dummy is None:
        raise CardgamesError(f"the deal does not give {who.letter}'s and dummy's hands")
    size = len(hand)
    facts = BoardFacts(game)
    vulnerability = facts.vulnerability
    cards = list(game.play if played is None else played)
    return dict(hand=hand, contract=contract, declarer=declarer,
                vul=vulnerability if vulnerability is not None else Vulnerability.NONE,
                seat=who, dummy=dummy if cards or size < 13 else None,  # seen after the lead
                played=cards,
                leader=(declarer.lho if game.opening_leader is None else game.opening_leader),
                in_play=deal if size < 13 else None,
                declarer_won=facts.declarer_won(size),
                constraints=parse_constraints(game.tag("Constraints")))


@dataclass(frozen=True)
class Decision:
    """One card of the reviewed side's, set against the single-dummy advice before it."""

    board: str
    trick: int
    seat: Seat
    card: Card
    best: str            # the best card group by the method
    value: float         # the played card's value (PIMC: mean tricks; αμ: chance)
    best_value: float
    worlds: int
    exhaustive: bool
    file: str | None = None      # where the board is: its file and the line it starts on
    line: int | None = None
    contract: str | None = None  # "4H by S"

    @property
    def cost(self) -> float:
        # (rounded: a difference of two means is not worth its last binary digits)
        return round(self.best_value - self.value, 9)

    @property
    def worse(self) -> bool:
        return self.cost > 1e-9

    def to_dict(self) -> dict[str, Any]:
        return {"board": self.board, "trick": self.trick, "seat": self.seat.letter,
                "card": str(self.card), "best": self.best, "value": self.value,
                "best_value": self.best_value, "cost": self.cost, "worse": self.worse,
                "worlds": self.worlds, "exhaustive": self.exhaustive, "file": self.file,
                "line": self.line, "contract": self.contract}

    @classmethod
    def of(cls, report: AdviceReport, board: str, trick: int, seat: Seat,
           card: Card, *, file: str | None = None, line: int | None = None) -> Decision:
        """The played ``card`` set against ``report``, the advice just before it; ``file``
        and ``line`` say where the board is."""
        value, best_value, best = card_value(report, card)
        return cls(board, trick, seat, card, best, value, best_value, len(report.worlds),
                   report.worlds.exhaustive, file, line,
                   f"{report.contract.call} by {report.declarer.letter}")

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Decision:
        """The inverse of :meth:`to_dict`."""
        return cls(d["board"], int(d["trick"]), Seat.parse(d["seat"]), Card.parse(d["card"]),
                   d["best"], float(d["value"]), float(d["best_value"]), int(d["worlds"]),
                   bool(d["exhaustive"]), d.get("file"), d.get("line"), d.get("contract"))


def card_value(report: AdviceReport, card: Card) -> tuple[float, float, str]:
    """The played card's value, the best card's, and the best card's label."""
    row = report.row(card)
    if report.alphamu is not None:
        best = report.alphamu.best
        return report.alphamu.card(card).chance, best.chance, best.label
    best_row = max(report.rows, key=lambda r: r.mean)
    return row.mean, best_row.mean, best_row.label


def review_board(game: pbn.Game, seat: Seat, options: dict[str, Any],
                 progress: Callable[[int], None] | None = None, source: str | None = None
                 ) -> tuple[list[Decision], AdviceReport | None]:
    """Every card of ``seat``'s side in the board's play, set against the advice from
    ``seat``'s view just before it (cards that were the only legal choice, or equivalent
    to every other, are passed over); and, when the Play section stops with ``seat``'s
    side to play a card that is not forced, the advice for that next card (else None).
    ``options`` are :func:`~ddsolver.advise.advise`'s own (method, depth, samples, seed,
    jobs...)."""
    args = board_arguments(game, seat)
    declarer: Seat = args["declarer"]
    me: Seat = args["seat"]
    side = (declarer, declarer.partner) if me == declarer else (me,)
    play = args["played"]
    contract = Contract.parse(args["contract"])
    if contract is None:
        raise CardgamesError("a passed-out board has no play")
    deal = game.deal
    assert deal is not None  # board_arguments checked it
    check_play(game, deal, contract.strain, args["leader"], source)  # the real play, first
    pos = Position(deal, contract.strain, args["leader"])
    out = []
    for i, card in enumerate(play):
        mover = pos.to_move
        legal = pos.legal_cards()
        if mover in side and len(legal) > 1:
            report = advise(**board_arguments(game, me, played=play[:i]), progress=progress,
                            **options)
            if len(report.rows) > 1:
                board = board_name(game) or "?"
                out.append(Decision.of(report, board, i // 4 + 1, mover, card,
                                       file=source, line=game.line))
        pos.play(card)
    nxt = None
    if not pos.is_terminal and pos.to_move in side and len(pos.legal_cards()) > 1:
        nxt = advise(**args, progress=progress, **options)
    return out, nxt


@dataclass(frozen=True)
class ReviewedBoard:
    """A board's review: its decisions, and the advice for the next card when the play
    stops with the reviewed side to play."""

    game: pbn.Game
    source: str
    decisions: list[Decision]
    next: AdviceReport | None

    @property
    def label(self) -> str:
        """The board's name as the reports write it (:func:`~ddsolver.boards.board_name`;
        ``"?"`` without one)."""
        return board_name(self.game) or "?"

    @property
    def where(self) -> str:
        """``FILE:LINE``, the line the board starts on (:func:`~ddsolver.boards.where`)."""
        return where(self.source, self.game.line)


def review_boards(inputs: Inputs, seat: Seat, options: dict[str, Any],
                  progress: Callable[[int], None] | None = None) -> Iterator[ReviewedBoard]:
    """The review of every board of the inputs with a Play section, a Contract and a
    Declarer, in file order.  A board that cannot be reviewed is reported through the
    inputs' ``report`` as ``FILE:LINE: reason; board skipped``, and so is a game that does
    not read (by the reader); the run goes on."""
    for path, game in inputs.games():
        assert isinstance(game, pbn.Game)
        try:
            if game.get("Play") is None or game.contract is None or game.declarer is None:
                continue
            decisions, nxt = review_board(game, seat, options, progress, path)
        except CardgamesError as err:
            inputs.report(f"{located(err, path, game.line, label_of(game))}; board skipped")
            continue
        yield ReviewedBoard(game, path, decisions, nxt)
