"""The opening leads of the boards of PBN files: what ``ddsolver leads FILE.pbn`` does, as a
library.

For each board that names a contract and a declarer (the ``Contract``/``Declarer`` tags,
or a complete ``Auction``), from the real opening leader's hand with the other hands
hidden (:func:`board_leads`):

1. the board's facts are read by :class:`cardgames.facts.BoardFacts` (the vulnerability
   from its tag or the board number, the auction with its notes, the contract reconciled
   with the auction, the lead made at the table, the players);
2. the auction is read by a bidding system (:func:`cardgames.bidding.infer`): what it says
   about the three hidden hands is what they are dealt under, ANDed with the constraints
   given for the run; the leader's hand, and any given whole, need none;
3. the sample is dealt and solved (:func:`ddsolver.leads.analyse_leads`, run by the
   caller's ``analyse``, which owns the sample's settings and its progress);
4. only then is the real deal looked at: which inferred constraints its hidden hands
   break, and what the lead made at the table was worth there, double dummy.

A board that cannot be analysed is a :class:`~cardgames.errors.CardgamesError` (a
:class:`~cardgames.errors.PBNError` with its line where it can tell); :func:`lead_boards`
goes through files, reports such a board as ``FILE:LINE: reason`` and goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace

from cardgames import pbn
from cardgames.auction import Auction
from cardgames.bidding import BiddingSystem, CallMeaning, infer
from cardgames.cards import Seat
from cardgames.constraint_syntax import as_constraint
from cardgames.constraints import Constraint, breaks, usual
from cardgames.errors import CardgamesError, PBNError
from cardgames.facts import BoardFacts
from cardgames.hands import Hand
from cardgames.scoring import Contract, Vulnerability

from .boards import Inputs, label_of, located
from .leads import LeadReport, table_lead
from .solver import Solver

__all__ = ["LeadBoard", "LeaderGivenError", "LeadTally", "lead_board", "analyse_board",
           "lead_boards", "unknown_calls", "auction_text", "Analyse"]


class LeaderGivenError(CardgamesError):
    """A constraint or a hand was given for the seat that turns out to be the opening
    leader, whose hand the board itself gives."""

    def __init__(self, seat: Seat):
        super().__init__(f"{seat.name.title()} is the opening leader, whose hand is known: "
                         "no constraint or hand may be given for it")
        self.seat = seat


@dataclass(frozen=True)
class LeadBoard:
    """A board whose opening lead can be analysed, and what its analysis needs."""

    game: pbn.Game
    source: str
    contract: Contract             # with its declarer
    hand: Hand                     # the opening leader's
    vulnerability: Vulnerability   # the tag's, else the board number's, else none
    auction: Auction | None
    notes: tuple[str, ...]         # what was flagged about the board

    @property
    def declarer(self) -> Seat:
        assert self.contract.declarer is not None
        return self.contract.declarer

    @property
    def leader(self) -> Seat:
        return self.declarer.lho


def lead_board(game: pbn.Game, source: str) -> LeadBoard | None:
    """The board of a game, or None when it names no contract (absent, unknown or passed
    out): nothing to analyse, which is not an error.

    :raises CardgamesError: (a :class:`PBNError` with its line where it can tell) when the
        board cannot be analysed: an illegal auction, tags that contradict it, no deal, the
        leader's hand unknown.
    """
    _ = game.board  # a Board tag that does not read costs the board (PBNError)
    facts = BoardFacts(game, source)
    auction, notes = facts.auction()
    contract = facts.contract(auction)
    if contract is None:
        return None
    assert contract.declarer is not None
    deal = game.deal
    if deal is None:
        raise CardgamesError("no deal")
    leader = contract.declarer.lho
    hand = deal[leader]
    if hand is None:
        raise CardgamesError(f"the opening leader {leader.letter}'s hand is not known")
    if len(hand) != 13:
        raise CardgamesError(f"an ending of {len(hand)} cards a hand: this needs a whole "
                             f"deal, from the opening lead")
    vulnerability = facts.vulnerability
    return LeadBoard(game, source, contract, hand,
                     vulnerability if vulnerability is not None else Vulnerability.NONE,
                     auction, tuple(notes))


#: How a board's sample is dealt and solved: ``analyse(board, constraints, known)`` runs
#: :func:`ddsolver.leads.analyse_leads` for it with the run's settings (samples, seed,
#: jobs, progress, where the deals go).
Analyse = Callable[[LeadBoard, Mapping[Seat, Constraint | str], Mapping[Seat, Hand]],
                   LeadReport]


def analyse_board(board: LeadBoard, analyse: Analyse, *, system: BiddingSystem | None,
                  constraints: Mapping[Seat, str] | None = None,
                  known: Mapping[Seat, Hand] | None = None,
                  solver: Solver | None = None) -> LeadReport:
    """The lead report of a board: its hidden hands dealt under what ``system`` reads in
    its auction (None: the auction is not read) ANDed with ``constraints``, ``known``
    hands given whole; then the constraints the real hands break, and the lead made at
    the table valued on the real deal (with ``solver``, made here if not given).

    :raises LeaderGivenError: if ``constraints`` or ``known`` name the opening leader.
    :raises CardgamesError: from the analysis (constraints no deal meets, ...).
    """
    constraints = dict(constraints or {})
    known = dict(known or {})
    leader = board.leader
    if leader in constraints or leader in known:
        raise LeaderGivenError(leader)
    dealt: dict[Seat, Constraint | str] = dict(constraints)
    unknown: tuple[str, ...] = ()
    if board.auction is not None and system is not None:
        inference = infer(board.auction, system, extra=dict(constraints.items()))
        # The leader's hand is known, and so are those given whole: no constraint on them.
        dealt = {s: c for s, c in inference.constraints.items()
                 if s != leader and s not in known}
        unknown = unknown_calls(inference.unknown_calls)
    game = board.game
    facts = BoardFacts(game, board.source)
    notes = list(board.notes)
    if board.auction is not None and system is not None:
        notes += [f"{seat.letter}'s calls contradict one another: left out "
                  + "; ".join(parts) for seat, parts in sorted(inference.dropped.items())
                  if seat != leader and seat not in known]
    lead, lead_note = facts.lead(leader, board.hand)
    if lead_note:
        notes.append(lead_note)
    report = analyse(board, dealt, known)
    # Only now, the sample dealt, is the real deal looked at.
    deal = game.deal
    assert deal is not None
    broken, strays = {}, {}
    for seat, c in sorted(dealt.items()):
        real = deal[seat]
        if real is not None and len(real) == 13:
            c = as_constraint(c)
            why = breaks(c, real)
            if why is not None:
                broken[seat.letter] = why
            elif (why := breaks(usual(c), real)) is not None:
                strays[seat.letter] = why
    read_by = None if board.auction is None or system is None else system.name
    report = replace(report,
                     auction=None if board.auction is None else auction_text(board.auction),
                     system=read_by, broken=broken, strays=strays, unknown_calls=unknown,
                     notes=tuple(notes))
    if lead is not None:
        real_scores = None
        if all(h is not None and len(h) == 13 for h in deal.hands):
            solver = solver if solver is not None else Solver()
            real_scores = solver.card_scores(deal, board.contract.strain, leader)
        report = table_lead(report, lead, real_scores, facts.player(leader))
    return report


def unknown_calls(meanings: Iterable[CallMeaning]) -> tuple[str, ...]:
    """The calls the system does not explain, for the report: each bid, double and
    redouble by name; the passes (mostly those that end the auction, where no system has
    a table) only counted."""
    out = [f"{m.seat.letter} {m.call.name} after "
           f"{'the opening' if m.context.startswith('opening') else m.context}"
           for m in meanings if not m.call.is_pass]
    passes = sum(1 for m in meanings if m.call.is_pass)
    if passes:
        out.append(f"{passes} pass{'es' * (passes != 1)}")
    return tuple(out)


def auction_text(auction: Auction) -> str:
    """``"N: 1NT Pass 3NT Pass Pass Pass"``: the first caller and the calls."""
    return f"{auction.dealer.letter}: " + " ".join(c.name for c in auction.calls)


@dataclass
class LeadTally:
    """What :func:`lead_boards` met besides the reports: boards analysed, and boards without
    a contract (passed over, which is not an error).  The boards that could not be read or
    analysed went to the inputs' ``report``."""

    analysed: int = 0
    skipped: int = 0


def lead_boards(inputs: Inputs, run: Callable[[LeadBoard], LeadReport], tally: LeadTally,
                *, explain: Callable[[CardgamesError], str] = str
                ) -> Iterator[tuple[LeadBoard, LeadReport]]:
    """Every board of the inputs with its report (``run(board)``, typically
    :func:`analyse_board` with the run's settings), in file order.  A board that cannot be
    analysed is reported through the inputs' ``report`` as ``FILE:LINE: reason; board
    skipped`` (``explain`` words a reason that does not name its own place) and the run
    goes on; so is a game that does not read (by the reader)."""
    for path, game in inputs.games():
        assert isinstance(game, pbn.Game)
        try:
            board = lead_board(game, path)
            if board is None:
                tally.skipped += 1
                continue
            report = run(board)
        except CardgamesError as err:
            # The place once: a PBNError names its own (err.where).
            problem = err if isinstance(err, PBNError) else CardgamesError(explain(err))
            inputs.report(f"{located(problem, path, game.line, label_of(game))}; board skipped")
            continue
        tally.analysed += 1
        yield board, report
