"""A player's session reviewed, board by board: what ``ddsolver review`` does, as a library.

For every board of the files that the player sat at (his name in a ``North`` ... ``West``
tag, compared without case), from his seat:

* the contract and its result against the double-dummy result and par, and the points
  his side scored against par's;
* his opening lead, if he made it, against the lead analysis under the auction
  (:func:`ddsolver.board_leads.analyse_board`): its cost in tricks, IMPs and matchpoints
  against the best lead on the same sampled deals, and on the real deal double dummy;
* his cards in the play that cost tricks double dummy (as declarer, dummy's too), each
  set against the single-dummy advice from his own view just before it
  (:func:`ddsolver.advise.advise`, PIMC or αμ): a mistake he could have seen, or one
  only double dummy shows.

:func:`summarise` adds them up: tricks lost by the lead, by declarer play and by defence,
how many of those the single-dummy advice confirms, points against par, and the boards
where the most was lost.  A board that cannot be reviewed is reported and skipped.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from cardgames import pbn
from cardgames.bidding import BiddingSystem
from cardgames.cards import Card, Seat
from cardgames.errors import CardgamesError
from cardgames.facts import BoardFacts
from cardgames.play import Position
from cardgames.sampling import derived_seed
from cardgames.scoring import Contract, Vulnerability, score

from .advise import advise
from .analysis import analyse_play
from .board_advice import Decision, board_arguments
from .board_leads import analyse_board, lead_board
from .boards import Inputs, board_name, check_play, game_label, label_of, located
from .leads import TableLead, analyse_leads
from .par import par
from .solver import DEFAULT_TT_MB, Solver

__all__ = ["CostlyPlay", "BoardReview", "SessionSummary", "review_board", "review_boards",
           "summarise", "seat_of", "NO_CONTRACT"]

#: The role on a board that records no contract (no auction that ends, no Contract tag):
#: shown with its deal, double-dummy facts and par, and left out of the points to par.
NO_CONTRACT = "no contract recorded"


def seat_of(game: pbn.Game, player: str) -> Seat | None:
    """The seat ``player`` sat in (his name in a seat's tag, without case), or None."""
    name = player.strip().casefold()
    for seat in Seat:
        value = game.tag(seat.name.title())
        if value is not None and value.strip().casefold() == name:
            return seat
    return None


@dataclass(frozen=True)
class CostlyPlay:
    """One of the player's cards (or, as declarer, dummy's) that cost tricks double
    dummy, and what the single-dummy advice from his view said of it (None where it was
    not asked: the opening lead, which the lead analysis judges)."""

    index: int                 # the card's place in the play, from 0
    trick: int
    seat: Seat
    card: Card
    cost: int                  # tricks lost double dummy
    single_dummy: Decision | None

    @property
    def visible(self) -> bool | None:
        """Whether the card was worse than the best single-dummy card too (a mistake
        the player could have seen); None if not asked."""
        return None if self.single_dummy is None else self.single_dummy.worse

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "trick": self.trick, "seat": self.seat.letter,
                "card": str(self.card), "cost": self.cost, "visible": self.visible,
                "single_dummy": None if self.single_dummy is None
                else self.single_dummy.to_dict()}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CostlyPlay:
        sd = d.get("single_dummy")
        return cls(int(d["index"]), int(d["trick"]), Seat.parse(d["seat"]),
                   Card.parse(d["card"]), int(d["cost"]),
                   None if sd is None else Decision.from_dict(sd))


@dataclass(frozen=True)
class BoardReview:
    """One board from the player's seat."""

    label: str                 # FILE:LINE (board N)
    board: int | None
    seat: Seat
    role: str                  # "declarer", "dummy", "defender", "passed out", NO_CONTRACT
    contract: str | None       # "4SX by N"; None when passed out
    tricks: int | None         # declarer's tricks (the play's, else the Result tag)
    dd: int | None             # declarer's tricks double dummy from the start
    par: str | None            # "NS 620: 4SN="
    score: int | None          # the player's side's points
    par_score: int | None      # par from the player's side
    lead: TableLead | None     # his opening lead, judged
    lead_seen: str | None      # why the lead was not judged, if he led
    costly: tuple[CostlyPlay, ...] = ()
    notes: tuple[str, ...] = ()
    claim: tuple[int, int, int] | None = None   # (cards played, tricks claimed, DD there)
    deal: str | None = None    # the deal (PBN), for a page that shows it
    auction: tuple[str, ...] = ()
    dealer: Seat | None = None
    leader: Seat | None = None
    played: tuple[Card, ...] = ()
    trace: tuple[int, ...] = ()   # declarer's DD tricks before the play and after each card
    #: Declarer's line at his first choice (after the lead, dummy seen): (the card's place
    #: in the play, the card, its chance to make, the best card's label and chance), the
    #: chances over the worlds from his view (αμ's with --method alphamu, else PIMC's).
    line: tuple[int, Card, float, str, float] | None = None
    #: Points the player's side lost, double dummy: by his opening lead, by his costly
    #: cards, by the claim (each the score at declarer's DD tricks before it less after).
    points_lost: tuple[int, int, int] = (0, 0, 0)
    #: The whole lead analysis (every lead, its deals), for a page's charts; kept in memory
    #: only (a review read back from the store has none).
    lead_report: Any = field(default=None, compare=False, repr=False)

    @property
    def claim_tricks(self) -> int:
        """Tricks the claim gave up double dummy, for the player's side: a declarer who
        claimed fewer than there were, a defender who let him claim more."""
        if self.claim is None or self.role == "dummy":
            return 0
        _, claimed, there = self.claim
        return max(0, there - claimed) if self.role == "declarer" else max(0, claimed - there)

    @property
    def lead_tricks(self) -> int:
        """Tricks the lead cost on the real deal, double dummy (0 if not judged)."""
        if self.lead is None or self.lead.real_cost is None:
            return 0
        return max(0, self.lead.real_cost)

    @property
    def play_tricks(self) -> int:
        """Tricks his cards in the play (the lead left out) cost double dummy."""
        return sum(c.cost for c in self.costly)

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "board": self.board, "seat": self.seat.letter,
                "role": self.role, "contract": self.contract, "tricks": self.tricks,
                "dd": self.dd, "par": self.par, "score": self.score,
                "par_score": self.par_score,
                "lead": None if self.lead is None else self.lead.to_dict(),
                "lead_not_judged": self.lead_seen,
                "lead_tricks": self.lead_tricks,
                "costly": [c.to_dict() for c in self.costly],
                "play_tricks": self.play_tricks,
                "claim": None if self.claim is None else dict(zip(
                    ("after_cards", "claimed", "dd"), self.claim)),
                "claim_tricks": self.claim_tricks, "notes": list(self.notes),
                "deal": self.deal, "auction": list(self.auction),
                "dealer": None if self.dealer is None else self.dealer.letter,
                "leader": None if self.leader is None else self.leader.letter,
                "played": [str(c) for c in self.played], "trace": list(self.trace),
                "points_lost": {"lead": self.points_lost[0], "play": self.points_lost[1],
                                "claim": self.points_lost[2]},
                "line": None if self.line is None else {
                    "index": self.line[0], "card": str(self.line[1]),
                    "chance": self.line[2], "best": self.line[3],
                    "best_chance": self.line[4]}}

    @property
    def line_given_up(self) -> float:
        """The chance to make the line gave up against the best line (0 if not judged)."""
        return 0.0 if self.line is None else max(0.0, self.line[4] - self.line[2])

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BoardReview:
        """The inverse of :meth:`to_dict` (a review kept in the results store)."""
        claim = d.get("claim")
        seat = lambda x: None if x is None else Seat.parse(x)  # noqa: E731
        return cls(d["label"], d["board"], Seat.parse(d["seat"]), d["role"], d["contract"],
                   d["tricks"], d["dd"], d["par"], d["score"], d["par_score"],
                   None if d["lead"] is None else TableLead.from_dict(d["lead"]),
                   d["lead_not_judged"], tuple(CostlyPlay.from_dict(c) for c in d["costly"]),
                   tuple(d["notes"]),
                   None if claim is None else (claim["after_cards"], claim["claimed"],
                                               claim["dd"]),
                   deal=d["deal"], auction=tuple(d["auction"]), dealer=seat(d["dealer"]),
                   leader=seat(d["leader"]), played=tuple(Card.parse(c) for c in d["played"]),
                   trace=tuple(d["trace"]),
                   points_lost=(d["points_lost"]["lead"], d["points_lost"]["play"],
                                d["points_lost"]["claim"]),
                   line=None if d.get("line") is None else (
                       d["line"]["index"], Card.parse(d["line"]["card"]), d["line"]["chance"],
                       d["line"]["best"], d["line"]["best_chance"]))


def _seed(seed: int, game: pbn.Game, what: str) -> int:
    """A board's own seed for ``what`` (the lead sample, an advice): the same board gives
    the same answers whatever else the run holds."""
    return derived_seed(seed, f"{game.deal.to_pbn() if game.deal else ''} {what}")


def review_board(game: pbn.Game, source: str, player: str, *, seed: int, samples: int = 50,
                 method: str = "pimc", depth: int = 2, system: BiddingSystem | None = None,
                 solver: Solver | None = None, tt_mb: int = DEFAULT_TT_MB,
                 jobs: int = 1) -> BoardReview | None:
    """The board from ``player``'s seat; None if he did not sit at it.

    :raises CardgamesError: a board that cannot be reviewed (no complete deal, a play
        that breaks the rules, an auction that does not read).
    """
    seat = seat_of(game, player)
    if seat is None:
        return None
    solver = solver if solver is not None else Solver(tt_mb)
    deal = game.deal
    if deal is None or not deal.is_complete:
        raise CardgamesError("the deal is not complete")
    facts = BoardFacts(game, source)
    label = game_label(game, source)
    auction, notes_read = facts.auction()
    contract = facts.contract(auction)
    vul = facts.vulnerability or Vulnerability.NONE
    dealer = facts.dealer
    full = deal.cards_per_hand == 13
    par_result = (par(solver.dd_table(deal), vul=vul, dealer=dealer)
                  if dealer is not None and full else None)
    mine_ns = seat.is_ns
    par_mine = None if par_result is None else (par_result.score if mine_ns
                                                else -par_result.score)
    calls = tuple(game.auction)
    if contract is None:
        # Passed out (an auction of four passes, or the Contract tag says so) scores 0; a
        # board that records no contract at all (a hand record, an auction cut short) has
        # no score to set against par.
        tagged = game.contract   # read as BoardFacts.contract reads it: None is passed out
        passed = (auction.contract is None if auction is not None and auction.is_complete
                  else tagged is not None and Contract.parse(tagged) is None)
        return BoardReview(label, game.board, seat, "passed out" if passed else NO_CONTRACT,
                           None, None, None,
                           None if par_result is None else str(par_result),
                           0 if passed else None, par_mine, None, None, deal=deal.to_pbn(),
                           auction=calls, dealer=dealer)
    declarer = contract.declarer
    assert declarer is not None
    role = ("declarer" if seat == declarer else "dummy" if seat == declarer.partner
            else "defender")
    play = game.play
    leader = game.opening_leader or declarer.lho   # an ending's Play tag names its own
    check_play(game, deal, contract.strain, leader, source)   # a bad card: on its line
    analysis = analyse_play(deal, contract.strain, leader, play, solver=solver,
                            declarer=declarer,
                            declarer_won=facts.declarer_won(deal.cards_per_hand))
    ours = list(analysis.tricks)
    complete = len(play) == 4 * deal.cards_per_hand
    tricks = ours[-1] if complete else game.result
    dd = ours[0]
    claim = None
    if play and not complete and tricks is not None:   # a Result without a play: no claim
        claim = (len(play), tricks, ours[-1])
    points = None
    if tricks is not None:
        declarer_points = score(contract, tricks, vul.is_vulnerable(declarer))
        points = declarer_points if seat.is_ns == declarer.is_ns else -declarer_points
    notes: list[str] = list(notes_read)
    # The opening lead.
    lead = None
    lead_seen = None
    lead_report = None
    if seat == declarer.lho == leader and play and full:
        def analyse(b: Any, dealt: Any, known: Any) -> Any:
            return analyse_leads(b.hand, b.contract, b.declarer, b.vulnerability,
                                 constraints=dealt, known=known, samples=samples,
                                 seed=_seed(seed, game, "lead"), jobs=jobs, tt_mb=tt_mb)
        try:
            board = lead_board(game, source)
            assert board is not None    # the contract is known
            report = analyse_board(board, analyse, system=system, solver=solver)
            lead, lead_report = report.table, report
            if lead is None:
                lead_seen = "the lead at the table is not in the play"
        except CardgamesError as err:
            lead_seen = f"not judged: {err}"
    # His costly cards (as declarer, dummy's too), each asked single dummy.
    side = {declarer, declarer.partner} if role == "declarer" else {seat}
    costly = []
    if role != "dummy":
        for e in analysis.errors:
            if e.seat not in side or (e.index == 0 and lead is not None):
                continue    # an opening lead is the lead analysis's to judge
            decision = None
            try:
                args = board_arguments(game, seat if role == "defender" else declarer,
                                       played=play[:e.index])
                options: dict[str, Any] = {"samples": samples, "method": method,
                                           "seed": _seed(seed, game, f"card {e.index}"),
                                           "jobs": jobs, "tt_mb": tt_mb}
                if method == "alphamu":
                    options["depth"] = depth
                decision = Decision.of(advise(**args, **options),
                                       board_name(game) or "?",
                                       e.trick, e.seat, e.card)
            except CardgamesError as err:
                notes.append(f"card {e.index + 1} ({e.card}) not asked single dummy: {err}")
            costly.append(CostlyPlay(e.index, e.trick, e.seat, e.card, e.cost, decision))
    vulnerable = vul.is_vulnerable(declarer)
    mine = 1 if seat.is_ns == declarer.is_ns else -1

    def lost(before: int, after: int) -> int:
        """Points the player's side lost when declarer's DD tricks went before -> after."""
        return mine * (score(contract, before, vulnerable) - score(contract, after, vulnerable))

    lead_points = lost(ours[0], ours[1]) if lead is not None and len(ours) > 1 else 0
    play_points = sum(lost(ours[c.index], ours[c.index + 1]) for c in costly)
    claim_points = 0
    if claim is not None and role != "dummy":
        claim_points = max(0, lost(claim[2], claim[1]))
    line = None
    if role == "declarer":
        line = _line(game, deal, contract, declarer, leader, play, seed, samples, method,
                     depth, jobs, tt_mb, notes)
    text = (f"{contract.level}{contract.strain.letter}{'X' * contract.doubled} "
            f"by {declarer.letter}")
    return BoardReview(label, game.board, seat, role, text, tricks, dd,
                       None if par_result is None else str(par_result), points, par_mine,
                       lead, lead_seen, tuple(costly), tuple(notes), claim,
                       deal=deal.to_pbn(), auction=calls, dealer=dealer, leader=leader,
                       played=tuple(play), trace=tuple(ours), line=line,
                       points_lost=(lead_points, play_points, claim_points),
                       lead_report=lead_report)


def _line(game: pbn.Game, deal: Any, contract: Any, declarer: Seat, leader: Seat,
          play: list[Card], seed: int, samples: int, method: str, depth: int, jobs: int,
          tt_mb: int, notes: list[str]) -> tuple[int, Card, float, str, float] | None:
    """Declarer's first choice (the first card of his side's with a real choice), the
    chance to make of the card he chose and of the best card there."""
    pos = Position(deal, contract.strain, leader)
    for i, card in enumerate(play):
        if pos.to_move in (declarer, declarer.partner) and len(pos.legal_cards()) > 1:
            options: dict[str, Any] = {"samples": samples, "method": method, "jobs": jobs,
                                       "seed": _seed(seed, game, f"line {i}"),
                                       "tt_mb": tt_mb}
            if method == "alphamu":
                options["depth"] = depth
            try:
                report = advise(**board_arguments(game, declarer, played=play[:i]),
                                **options)
            except CardgamesError as err:
                notes.append(f"the line not judged: {err}")
                return None

            def chance(row: Any) -> float:
                return float(row.alphamu if row.alphamu is not None else row.chance)
            best = max(report.rows, key=chance)
            return i, card, chance(report.row(card)), best.label, chance(best)
        pos.play(card)
    return None


def board_key(game: pbn.Game) -> str:
    """What identifies a board's review besides the player and the settings: its whole
    game (deal, auction, play, players...), as a digest."""
    return hashlib.sha256(game.to_pbn().encode("utf-8")).hexdigest()


def review_boards(inputs: Inputs, player: str, *, seed: int,
                  progress: Callable[[], None] | None = None, store: Any = None,
                  settings: str = "", on_new: Callable[[], None] | None = None,
                  **options: Any) -> Iterator[BoardReview]:
    """:func:`review_board` for every board of the inputs the player sat at, in order; a
    board that cannot be reviewed is reported (``FILE:LINE: reason; board skipped``).
    With ``store`` (a :class:`~ddsolver.store.ResultStore`), a board reviewed before under
    the same ``settings`` is taken from it, and each new review is saved there at once
    (``on_new`` is told of each)."""
    solver = Solver(options.get("tt_mb", DEFAULT_TT_MB))
    for path, game in inputs.games():
        assert isinstance(game, pbn.Game)
        review = None
        key = None
        if store is not None and seat_of(game, player) is not None:
            key = (board_key(game), settings, player.strip().casefold())
            found = store.reviews([key]).get(key)
            if found is not None:
                try:
                    review = replace(BoardReview.from_dict(json.loads(found)),
                                     label=game_label(game, path))
                except (ValueError, KeyError, TypeError, AttributeError, IndexError):
                    store.damaged_row()   # reviewed again, and the row replaced
        if review is None:
            try:
                review = review_board(game, path, player, seed=seed, solver=solver,
                                      **options)
            except CardgamesError as err:
                if seat_of(game, player) is not None:
                    inputs.report(f"{located(err, path, game.line, label_of(game))}; "
                                  "board skipped")
            if review is not None and store is not None and key is not None:
                store.put_review(key, json.dumps(review.to_dict(), allow_nan=False))
                if on_new is not None:
                    on_new()
        if progress is not None:
            progress()
        if review is not None:
            yield review


@dataclass(frozen=True)
class SessionSummary:
    boards: int
    declared: int
    defended: int
    dummy: int
    lead_tricks: int           # tricks the opening leads cost on the real deals, DD
    leads_judged: int
    declarer_tricks: int       # declarer play's costly cards, DD
    declarer_visible: int      # ... those the single-dummy advice confirms
    declarer_cards: int
    claim_tricks: int          # tricks given up by claims (and accepting them), DD
    lead_points: int           # points the leads, declarer play, defence and claims lost
    declarer_points: int
    defence_points: int
    claim_points: int
    lines_judged: int          # declared boards whose line was judged
    line_given_up: float       # chance to make given up by the lines, added up
    defence_tricks: int        # defence's costly cards (the lead left out), DD
    defence_visible: int
    defence_cards: int
    score: int                 # points scored on the boards with a result
    par_score: int             # par on the same boards
    worst: tuple[tuple[str, int], ...] = field(default=())   # (label, tricks lost)
    scored: int = 0            # the boards with a result and a par (score, par_score's)

    def to_dict(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        d["worst"] = [{"board": b, "tricks": t} for b, t in self.worst]
        return d


def summarise(reviews: Iterable[BoardReview]) -> SessionSummary:
    reviews = list(reviews)
    declarer = [r for r in reviews if r.role == "declarer"]
    defence = [r for r in reviews if r.role == "defender"]
    dcards = [c for r in declarer for c in r.costly]
    fcards = [c for r in defence for c in r.costly]
    scored = [r for r in reviews if r.score is not None and r.par_score is not None]
    lost = sorted(((r.label, r.lead_tricks + r.play_tricks + r.claim_tricks)
                   for r in reviews),
                  key=lambda x: -x[1])
    return SessionSummary(
        boards=len(reviews), declared=len(declarer), defended=len(defence),
        dummy=sum(r.role == "dummy" for r in reviews),
        lead_tricks=sum(r.lead_tricks for r in reviews),
        leads_judged=sum(r.lead is not None for r in reviews),
        declarer_tricks=sum(c.cost for c in dcards),
        declarer_visible=sum(c.cost for c in dcards if c.visible),
        declarer_cards=len(dcards),
        claim_tricks=sum(r.claim_tricks for r in reviews),
        lead_points=sum(r.points_lost[0] for r in reviews),
        declarer_points=sum(r.points_lost[1] for r in declarer),
        defence_points=sum(r.points_lost[1] for r in defence),
        claim_points=sum(r.points_lost[2] for r in reviews),
        lines_judged=sum(r.line is not None for r in declarer),
        line_given_up=sum(r.line_given_up for r in declarer),
        defence_tricks=sum(c.cost for c in fcards),
        defence_visible=sum(c.cost for c in fcards if c.visible),
        defence_cards=len(fcards),
        score=sum(r.score for r in scored if r.score is not None),
        par_score=sum(r.par_score for r in scored if r.par_score is not None),
        worst=tuple(x for x in lost[:3] if x[1] > 0), scored=len(scored))
