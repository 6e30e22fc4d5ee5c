"""Single-dummy advice: which card should the player to move choose, seeing only his own
hand, dummy and the cards played so far?

The opening-lead report (:mod:`ddsolver.leads`) answers this for the first card; this
module does it for every card of the play, for declarer (and dummy) and for the defenders:

1. **Worlds.**  The hidden hands are completed in every way the play allows
   (:mod:`cardgames.worlds`): listed exhaustively when there are at most ``limit`` of them
   (20,000), each counting equally, otherwise sampled with a seed.  Auction constraints
   use the constraint language of :mod:`cardgames.constraints`.
2. **PIMC** (perfect-information Monte Carlo): each world is solved double dummy for every
   legal card of the player to move (:meth:`ddsolver.Solver.card_scores`), and each card
   (touching cards grouped) is summarised over the worlds with the lead report's own
   statistics (:func:`ddsolver.stats.compare`, shared, not copied): mean tricks for the
   mover's side, variance, SE, interval, chance of making (declarer's side) or beating
   (defence) the contract, mean score, paired differences against the best card in
   tricks, IMPs and matchpoints.  PIMC lets every world be played as if it were known:
   *strategy fusion*, the flaw :mod:`ddsolver.alphamu` repairs.
3. **αμ** (declarer's side only, ``method="alphamu"``): for each card, the chance of making
   when declarer's side plays one strategy for all worlds over its next ``depth`` moves,
   the defenders answering with perfect information (:func:`ddsolver.alphamu.alphamu`).
   The PIMC rows are computed too, on the same worlds, so the report shows both.

A two-way finesse for the queen (problem 1 of ``data/single_dummy.pbn``): PIMC calls it
sure, αμ finds the one world in 20 that no single line of play can save:

>>> r = advise("K98...", "7NT", "S", seat="S", dummy="AJT...", leader="S",
...            in_play="N:AJT... Q7.2.. K98... 6.43..", declarer_won=10,
...            method="alphamu", depth=4, seed=1)
>>> r.worlds.how, max(row.chance for row in r.rows), r.alphamu.best.makes
('all 20 worlds, each equally likely', 1.0, 19)
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field

import numpy as np

from cardgames.cards import ALL_CARDS, Card, CardLike, Seat, SeatLike, runs
from cardgames.constraints import Constraint
from cardgames.errors import CardgamesError, DealError, IllegalPlayError, positive_number, whole_number
from cardgames.hands import Deal, Hand
from cardgames.sampling import draw_seed
from cardgames.scoring import Contract, Vulnerability, VulnerabilityLike, contract_and_declarer
from cardgames.worlds import EXHAUSTIVE_LIMIT, View, Worlds, deal_worlds

from . import views
from .alphamu import DEFAULT_DEPTH, AlphaMuResult, alphamu
from .pool import SolverPool
from .solver import DEFAULT_TT_MB, Solver
from .stats import CRITERIA, Z95, compare, finite_or_none

__all__ = ["CardRow", "AdviceReport", "advise", "pimc", "card_groups", "legal_cards",
           "make_view", "METHODS"]

#: The two ways of advising.
METHODS = ("pimc", "alphamu")


@dataclass(frozen=True, slots=True)
class CardRow:
    """One card (a group of equivalent cards) of the player to move, over the worlds: the
    lead report's measures (:class:`ddsolver.leads.LeadRow`), from the mover's side's
    point of view, and αμ's chance when it was run."""

    cards: tuple[Card, ...]
    label: str
    n: int
    mean: float                    # mean tricks for the mover's side, the whole deal
    var: float
    sd: float
    se: float
    ci: tuple[float, float]
    chance: float                  # share of worlds where the mover's side succeeds
    chance_ci: tuple[float, float]  # (declarer: makes; defence: beats the contract)
    score: float                   # the mover's side's mean score
    score_se: float
    diff_tricks: float             # paired against the best card
    diff_tricks_se: float
    diff_imps: float
    diff_imps_se: float
    mp_vs_best: float
    mp_vs_best_se: float
    mp_field: float
    mp_field_se: float
    best: bool
    close: bool
    tied: bool
    alphamu: float | None = None   # αμ's chance of making with this card (None: not run)
    alphamu_front: int | None = None  # its Pareto front's size

    def to_dict(self) -> dict:
        d = asdict(self)
        d["cards"] = [str(c) for c in self.cards]
        d["ci"] = list(self.ci)
        d["chance_ci"] = list(self.chance_ci)
        return {k: finite_or_none(v) for k, v in d.items()}


@dataclass(frozen=True)
class AdviceReport:
    """The result of :func:`advise`: one :class:`CardRow` per card group, best first (by
    αμ's chance when αμ was run, else by ``criterion``), the worlds, and how they were
    searched.  ``card_tricks[i][j]`` is the mover's side's tricks in world ``i`` with the
    ``j``-th legal card (``legal``)."""

    view: View
    contract: Contract
    declarer: Seat
    vulnerability: Vulnerability
    method: str
    criterion: str
    z: float
    rows: tuple[CardRow, ...]
    worlds: Worlds
    legal: tuple[Card, ...]
    card_tricks: np.ndarray = field(repr=False, compare=False)   # (in the rows)
    alphamu: AlphaMuResult | None = None
    seconds: float = field(default=0.0, compare=False)

    @property
    def mover(self) -> Seat:
        return self.view.to_move

    @property
    def defending(self) -> bool:
        return self.mover not in (self.declarer, self.declarer.partner)

    @property
    def best(self) -> CardRow:
        return self.rows[0]

    def row(self, card: CardLike) -> CardRow:
        c = Card.parse(card)
        for r in self.rows:
            if c in r.cards:
                return r
        raise KeyError(f"{c} is not a legal card of {self.mover.letter} here")

    def to_dict(self) -> dict:
        am = self.alphamu
        return {
            "seat": self.view.seat.letter, "to_move": self.mover.letter,
            "contract": self.contract.call, "declarer": self.declarer.letter,
            "vulnerable": str(self.vulnerability),
            "played": [str(c) for c in self.view.played], "method": self.method,
            "criterion": self.criterion, "z": self.z,
            "worlds": len(self.worlds), "exhaustive": self.worlds.exhaustive,
            "total_worlds": self.worlds.total, "seed": self.worlds.seed,
            "alphamu": None if am is None else {
                "depth": am.depth, "best": am.best.label, "chance": am.best.chance,
                "nodes": am.nodes, "leaves": am.leaves, "seconds": am.seconds,
                "front": am.best.front},
            "rows": [r.to_dict() for r in self.rows],
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def to_csv(self, *, header: bool = True) -> str:
        """One line per card group (:func:`ddsolver.formats.advice.advice_csv`)."""
        return views.show("AdviceReport.csv", self, header=header)

    def to_text(self) -> str:
        """The advice as a readable table (:func:`ddsolver.formats.advice.advice_text`)."""
        return views.show("AdviceReport.text", self)

    def __str__(self) -> str:
        return self.to_text()


# ---- cards and worlds ------------------------------------------------------------------------

def card_groups(view: View, cards: Iterable[Card]) -> list[tuple[Card, ...]]:
    """The mover's ``cards`` split into equivalent groups: same suit, and every card between
    them played to an earlier trick, out of play, or in the mover's own hand -- equal in
    every world."""
    hand = view.hands[view.to_move]
    done = len(view.played) - len(view.played) % 4  # the trick in progress still counts
    gone = set(view.played[:done]) | {c for c in ALL_CARDS if c not in view.deck}
    return runs(cards, lambda x: x in gone or (hand is not None and x in hand))


def legal_cards(view: View) -> list[Card]:
    """The legal cards of the player to move (whose hand the viewer sees)."""
    hand = view.hands[view.to_move]
    if hand is None:
        raise IllegalPlayError(f"{view.to_move.letter} is to play, and {view.seat.letter} "
                               f"cannot see that hand")
    left = [c for c in hand if c not in set(view.played)]
    done = len(view.played) - len(view.played) % 4
    trick = view.played[done:]
    if trick:
        follow = [c for c in left if c.suit == trick[0].suit]
        if follow:
            return follow
    return left


def make_view(hand: Hand | str, contract: Contract | str, declarer: SeatLike | None = None,
              *, seat: SeatLike | None = None, dummy: Hand | str | None = None,
              played: Iterable[CardLike] | str = (), leader: SeatLike | None = None,
              in_play: Deal | Hand | str | None = None,
              constraints: Mapping[SeatLike, Constraint | str] | None = None
              ) -> tuple[View, Contract, Seat]:
    """The view of the player ``seat`` (declarer or a defender) holding ``hand``; see
    :func:`advise` for the arguments."""
    c, decl = contract_and_declarer(contract, declarer)
    me = Seat.parse(seat) if seat is not None else None
    if me is None:
        raise CardgamesError("say whose view this is (seat=)")
    if me == decl.partner:
        raise CardgamesError(f"{me.letter} is dummy, whose cards declarer chooses: advise "
                             f"declarer ({decl.letter}), with dummy's hand as dummy=")
    items = played.replace(",", " ").split() if isinstance(played, str) else list(played)
    hands: dict[SeatLike, Hand | str | Iterable[CardLike]] = {me: hand}
    dummy_seat = decl.partner
    if dummy is not None:
        hands[dummy_seat] = dummy
    elif items:
        raise CardgamesError(f"the opening lead has been faced: give dummy's ({dummy_seat.letter}) "
                             f"hand as dealt (dummy=)")
    first = Seat.parse(leader) if leader is not None else decl.lho
    view = View.make(me, hands, c.strain, first, items, constraints, in_play=in_play)
    if dummy is not None and not items and view.cards_per_hand == 13 and \
            me not in (decl, dummy_seat):
        raise CardgamesError("dummy's hand is not seen before the opening lead: leave "
                             "dummy= out until a card is played")
    mover = view.to_move
    if mover != me and not (me == decl and mover == dummy_seat):
        raise IllegalPlayError(f"it is {mover.letter}'s turn to play, not {me.letter}'s")
    return view, c, decl


# ---- the advice ------------------------------------------------------------------------------

def pimc(worlds: Worlds, contract: Contract, declarer: Seat, *, declarer_won: int = 0,
         jobs: int = 1, tt_mb: int = DEFAULT_TT_MB,
         progress: Callable[[int], None] | None = None) -> tuple[list[Card], np.ndarray]:
    """Every world solved for every legal card of the mover: the legal cards, and the
    mover's side's tricks over the whole deal (worlds x cards)."""
    view = worlds.view
    legal = legal_cards(view)
    mover = view.to_move
    decl_side = mover in (declarer, declarer.partner)
    before = 13 - view.cards_per_hand  # tricks before an ending
    prior = declarer_won if decl_side else before - declarer_won
    prior += view.tricks_won[mover & 1]

    def scores(solver: Solver, world: Deal) -> dict[Card, int]:
        return solver.card_scores(world, view.strain, view.leader, view.played)

    with SolverPool(jobs, tt_mb) as pool:
        solved = list(pool.map(scores, worlds.deals, progress=progress))
    arr = np.array([[prior + sc[c] for c in legal] for sc in solved], dtype=np.int64)
    return legal, arr.reshape(len(solved), len(legal))


def advise(hand: Hand | str, contract: Contract | str, declarer: SeatLike | None = None,
           vul: VulnerabilityLike = "none", *, seat: SeatLike | None = None,
           dummy: Hand | str | None = None, played: Iterable[CardLike] | str = (),
           leader: SeatLike | None = None, in_play: Deal | Hand | str | None = None,
           declarer_won: int = 0,
           constraints: Mapping[SeatLike, Constraint | str] | None = None,
           method: str = "pimc", depth: int = DEFAULT_DEPTH, samples: int = 200,
           seed: int | None = None, exhaustive: bool | None = None,
           limit: int = EXHAUSTIVE_LIMIT, jobs: int = 1, criterion: str = "mean",
           z: float = Z95, tt_mb: int = DEFAULT_TT_MB,
           progress: Callable[[int], None] | None = None) -> AdviceReport:
    """Single-dummy advice for the player to move; see the module docstring.

    :param hand: ``seat``'s hand as dealt (13 cards, or the ending's).
    :param contract: ``"4S"``, ``"6NTX"``, or with declarer ``"4SN"``.
    :param seat: whose view: declarer or a defender (dummy's cards are declarer's choice).
    :param dummy: dummy's hand as dealt (required once a card has been played; refused
        for the opening lead of a whole deal, which is made without seeing it).
    :param played: the cards played so far, from the opening lead on.
    :param leader: who led to the first trick (default declarer's left-hand opponent; an
        ending may start with another).
    :param in_play: for an ending, every card in it (all four hands, as a deal or cards).
    :param declarer_won: declarer's side's tricks before an ending began.
    :param constraints: seat -> constraint on a hidden hand as dealt.
    :param method: ``"pimc"`` or ``"alphamu"`` (declarer's side only).
    :param depth: αμ's M.
    :param samples: / :param seed: / :param exhaustive: / :param limit: the worlds
        (:func:`cardgames.worlds.deal_worlds`); a seed is drawn and recorded if none.
    :param criterion: PIMC's "best": ``"mean"``, ``"p_set"`` (the chance), ``"score"``.
    :raises CardgamesError: (its subclasses: ``DealError``, ``IllegalPlayError``,
        ``SamplingError``, ``ParseError``) for a hand that contradicts the play, a card
        played that its player cannot hold, constraints no world meets, a bad contract.
    :raises ValueError: bad method, depth, criterion, samples, seed.
    """
    start = time.perf_counter()
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {', '.join(CRITERIA)}, not {criterion!r}")
    z = positive_number("z", z)
    limit = whole_number("limit", limit)
    view, c, decl = make_view(hand, contract, declarer, seat=seat, dummy=dummy, played=played,
                              leader=leader, in_play=in_play, constraints=constraints)
    before = 13 - view.cards_per_hand
    if isinstance(declarer_won, bool) or not isinstance(declarer_won, int) or \
            not 0 <= declarer_won <= before:
        raise DealError(f"declarer_won must be 0 to {before} (the tricks before the "
                        f"ending), got {declarer_won!r}")
    if method == "alphamu" and view.to_move not in (decl, decl.partner):
        raise CardgamesError(f"αμ advises declarer's side; {view.to_move.letter} defends "
                             f"(use the pimc method)")
    vulnerability = Vulnerability.parse(vul)
    if seed is None:
        seed = draw_seed()
    worlds = deal_worlds(view, samples=samples, seed=seed, limit=limit, exhaustive=exhaustive)
    legal, arr = pimc(worlds, c, decl, declarer_won=declarer_won, jobs=jobs, tt_mb=tt_mb,
                      progress=progress)
    defending = view.to_move not in (decl, decl.partner)
    groups = card_groups(view, legal)
    index = {card: j for j, card in enumerate(legal)}
    cols = [[index[x] for x in g] for g in groups]
    for g, col in zip(groups, cols):
        bad = np.flatnonzero((arr[:, col] != arr[:, [col[0]]]).any(axis=1))
        if len(bad):
            raise RuntimeError(f"touching cards {'/'.join(map(str, g))} score differently in "
                               f"world {int(bad[0])}: {arr[bad[0], col].tolist()}")
    tricks = arr[:, [col[0] for col in cols]]
    stats = compare(tricks, c, vulnerability.is_vulnerable(decl), criterion, z,
                    declarer_side=not defending)
    am = None
    if method == "alphamu":
        am = alphamu(worlds, declarer=decl, need=c.tricks_needed, declarer_won=declarer_won,
                     depth=depth, jobs=jobs, tt_mb=tt_mb, progress=progress)
    rows = []
    for r in stats:
        cards = tuple(groups[r.index])
        a = am.card(cards[0]) if am is not None else None
        rows.append(CardRow(
            cards, "/".join(str(x) for x in cards), r.n, r.mean, r.var, r.sd, r.se, r.ci,
            r.chance, r.chance_ci, r.score, r.score_se, r.diff_tricks, r.diff_tricks_se,
            r.diff_imps, r.diff_imps_se, r.mp_vs_best, r.mp_vs_best_se, r.mp_field,
            r.mp_field_se, r.best, r.close, r.tied, None if a is None else a.chance,
            None if a is None else a.front))
    if am is not None:
        # αμ decides what is best; PIMC's marks stay on its own best row.
        rank = {row.label: i for i, row in enumerate(am.cards)}
        rows.sort(key=lambda r: rank.get(r.label, len(rank)))
    return AdviceReport(view, c, decl, vulnerability, method, criterion, z, tuple(rows),
                        worlds, tuple(legal), arr, am, time.perf_counter() - start)
