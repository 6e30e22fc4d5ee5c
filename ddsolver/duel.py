"""Deals played out card by card, each player from his own view: αμ against PIMC as declarer
(what ``ddsolver duel`` runs).

A *duel* plays every deal twice, once with each of two declarers (αμ with its M, or PIMC),
against the same defenders, and compares what they made.  Every card is chosen by its
player from what he can see:

* **Declarer** (for dummy too) sees his hand, dummy's and the cards played; he deals
  ``worlds`` worlds consistent with them and with the auction's constraints on the
  defenders (:func:`cardgames.worlds.deal_worlds`), and picks the card that makes the
  contract in the most of them -- by αμ (:func:`ddsolver.alphamu.alphamu`: one strategy for
  every world over his next M moves) or by PIMC (each world on its own: αμ with M = 1).
  Among cards that make equally often, the one with the most tricks on average over the
  worlds (PIMC's mean), then the lowest.
* **A defender** sees his hand, dummy's (after the opening lead) and the cards played, and
  deals his own worlds (the auction's constraints on partner's and declarer's hands); by
  PIMC he picks the card that beats the contract in the most of them, then the most tricks
  on average, then the lowest.  Or the defenders play *double dummy*, seeing every card
  (the strongest defence, and the cheapest).
* A card that is the only one the player may play (or whose cards are all equivalent) is
  played without a search.

**Common random numbers.**  A decision's worlds are seeded by the run's seed, the deal, the
player and the cards played so far: two declarers who reach the same point see the same
worlds, and the defenders, whose views then agree, make the same decisions.  The two plays
of a deal differ only where the declarers chose differently, and decisions met twice are
made once (a cache per deal).

**What is compared.**  For each deal: each declarer's tricks, whether he made, his score
(vulnerability of the board), the IMPs and matchpoints between the two, and the time his
decisions took.  Over the deals (:func:`summarise`): the make rate and mean tricks of each,
the deals whose outcome differs and the first declarer's win rate on them with a 95% Wilson
interval, the mean IMPs (with its standard error) and matchpoints.

Deals come from PBN files (their contract, declarer and vulnerability; the auction read by
a bidding system for the constraints) or are dealt as in Cazenave and Ventos's protocol
(:func:`protocol_deals`: 3NT by South, within a trick of making double dummy), seeded.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from cardgames.cards import Card, Seat, SeatLike, runs
from cardgames.constraints import Constraint
from cardgames.errors import CardgamesError, SamplingError, whole_number
from cardgames.hands import Deal, Hand
from cardgames.play import Position
from cardgames.sampling import check_seed, derived_seed
from cardgames.scoring import Contract, Vulnerability, imps, score
from cardgames.worlds import View, Worlds, deal_worlds

from .advise import pimc
from .alphamu import alphamu
from .solver import DEFAULT_TT_MB, Solver
from .stats import Z95

__all__ = ["Method", "DuelDeal", "Play", "DuelResult", "DuelSummary", "play_deal",
           "duel_deal", "duel", "summarise", "protocol_deals", "decision_seed", "wilson",
           "DEFAULT_WORLDS", "METHOD_KINDS"]

#: Worlds per decision when none are given (the protocol's 20).
DEFAULT_WORLDS = 20
#: How a player chooses: αμ (declarer only), PIMC, double dummy (defenders only).
METHOD_KINDS = ("alphamu", "pimc", "dd")


@dataclass(frozen=True)
class Method:
    """How one player (declarer, or the defenders) chooses his cards.

    :param kind: ``"alphamu"`` (declarer), ``"pimc"``, or ``"dd"`` (the defenders see
        every card).
    :param depth: αμ's M (declarer's side's moves searched with one strategy).
    :param worlds: worlds dealt per decision (listed all when there are no more).
    """

    kind: str
    depth: int = 2
    worlds: int = DEFAULT_WORLDS

    def __post_init__(self) -> None:
        if self.kind not in METHOD_KINDS:
            raise ValueError(f"a method is one of {', '.join(METHOD_KINDS)}, not "
                             f"{self.kind!r}")
        for name in ("depth", "worlds"):
            object.__setattr__(self, name, whole_number(name, getattr(self, name), least=1))

    @classmethod
    def parse(cls, text: str, worlds: int = DEFAULT_WORLDS) -> Method:
        """``"alphamu:2"`` (αμ, M = 2), ``"alphamu"`` (M = 2), ``"pimc"``, ``"dd"``.

        :raises ValueError: for anything else."""
        kind, _, m = text.strip().lower().partition(":")
        kind = {"am": "alphamu", "αμ": "alphamu", "alpha-mu": "alphamu"}.get(kind, kind)
        if kind not in METHOD_KINDS:
            raise ValueError(f"unknown method {text!r}: alphamu:M, pimc or dd")
        if m and kind != "alphamu":
            raise ValueError(f"{text!r}: only alphamu takes a depth (alphamu:M)")
        try:
            depth = int(m) if m else 2
        except ValueError:
            raise ValueError(f"{text!r}: the depth after alphamu: must be a whole number"
                             ) from None
        return cls(kind, depth, worlds)

    @property
    def label(self) -> str:
        if self.kind == "alphamu":
            return f"alphamu:{self.depth}"
        return self.kind

    def describe(self) -> str:
        if self.kind == "alphamu":
            return f"αμ M = {self.depth}, {self.worlds} worlds"
        if self.kind == "pimc":
            return f"PIMC, {self.worlds} worlds"
        return "double dummy"


@dataclass(frozen=True)
class DuelDeal:
    """A deal to play: its contract (with declarer), vulnerability, and the constraints the
    auction puts on each hand as dealt (what each player's worlds are dealt under)."""

    label: str                     # "seed 1 deal 17", "file.pbn:123 (board 5)"
    deal: Deal
    contract: Contract
    vulnerability: Vulnerability = Vulnerability.NONE
    constraints: Mapping[Seat, Constraint] = field(default_factory=dict)
    board: int | None = None

    def __post_init__(self) -> None:
        if self.contract.declarer is None:
            raise CardgamesError(f"{self.label}: the contract names no declarer")
        if any(h is None or len(h) != 13 for h in self.deal.hands):
            raise CardgamesError(f"{self.label}: the deal is not complete")

    @property
    def declarer(self) -> Seat:
        assert self.contract.declarer is not None
        return self.contract.declarer

    def hand(self, seat: Seat) -> Hand:
        """``seat``'s hand (the deal is complete)."""
        h = self.deal[seat]
        assert h is not None
        return h

    @property
    def key(self) -> str:
        """What identifies the deal's question: the deal, the contract and its declarer."""
        return f"{self.deal.to_pbn()} {self.contract}"


@dataclass(frozen=True)
class Play:
    """One play of a deal with one declarer: the cards, the result, and what the decisions
    cost (searched decisions only; forced cards are not counted)."""

    method: str                    # the declarer's Method.label
    played: tuple[Card, ...]
    tricks: int                    # declarer's
    made: bool
    score: int                     # declarer's side's
    decisions: int                 # declarer's decisions searched
    seconds: float                 # their time (CPU of this process's threads, wall)
    defence_decisions: int
    defence_seconds: float
    relaxed: int = 0               # decisions whose worlds dropped the auction's constraints

    def to_dict(self) -> dict:
        return {"method": self.method, "played": [str(c) for c in self.played],
                "tricks": self.tricks, "made": self.made, "score": self.score,
                "decisions": self.decisions, "seconds": round(self.seconds, 4),
                "defence_decisions": self.defence_decisions,
                "defence_seconds": round(self.defence_seconds, 4), "relaxed": self.relaxed}

    @classmethod
    def from_dict(cls, d: Mapping) -> Play:
        return cls(d["method"], tuple(Card.parse(c) for c in d["played"]), d["tricks"],
                   d["made"], d["score"], d["decisions"], d["seconds"],
                   d["defence_decisions"], d["defence_seconds"], d.get("relaxed", 0))


@dataclass(frozen=True)
class DuelResult:
    """A deal played with both declarers."""

    deal: DuelDeal
    dd_tricks: int                 # declarer's tricks double dummy on the real deal
    plays: tuple[Play, Play]

    @property
    def differ(self) -> bool:
        """The two declarers' outcomes (made or not) differ."""
        return self.plays[0].made != self.plays[1].made

    @property
    def imps(self) -> int:
        """IMPs to the first declarer."""
        return imps(self.plays[0].score - self.plays[1].score)

    @property
    def matchpoints(self) -> float:
        """The first declarer's matchpoints against the second (1 win, 0.5 tie, 0 loss)."""
        a, b = self.plays[0].score, self.plays[1].score
        return 1.0 if a > b else 0.5 if a == b else 0.0

    def to_dict(self) -> dict:
        d = self.deal
        return {"deal": d.label, "board": d.board, "pbn": d.deal.to_pbn(),
                "contract": str(d.contract), "declarer": d.declarer.letter,
                "vulnerable": str(d.vulnerability), "dd_tricks": self.dd_tricks,
                "plays": [p.to_dict() for p in self.plays], "differ": self.differ,
                "imps": self.imps, "matchpoints": self.matchpoints}


# ---- seeds and views -------------------------------------------------------------------

def decision_seed(seed: int, deal: DuelDeal, seat: Seat, played: Sequence[Card]) -> int:
    """The seed of one decision's worlds: the run's seed, the deal, the player and the
    cards played so far -- nothing of who the declarer is, so that two declarers who reach
    the same point meet the same worlds."""
    return derived_seed(seed, deal.key, int(seat), *(c.index for c in played))


#: The random completions a decision deals before it drops the auction's constraints: when
#: fewer than one in 500 meet them (none, once the play has shown a hand outside them), the
#: play has all but refuted the reading, and dealing on would cost a minute a decision.
RELAX_ATTEMPTS = 10_000


def _view(deal: DuelDeal, seat: Seat, played: Sequence[Card], relax: bool) -> View:
    """``seat``'s view (declarer's for dummy): his hand, dummy's once the lead is faced,
    the play, and the auction's constraints on the hands he cannot see."""
    decl = deal.declarer
    me = decl if seat == decl.partner else seat
    hands: dict[SeatLike, Hand | str | Iterable[Card | str]] = {me: deal.hand(me)}
    if played:
        hands[decl.partner] = deal.hand(decl.partner)
    constraints: dict[SeatLike, Constraint | str] = {} if relax else {
        s: c for s, c in deal.constraints.items() if s not in hands}
    return View.make(me, hands, deal.contract.strain, decl.lho, list(played), constraints)


def _worlds(deal: DuelDeal, seat: Seat, played: Sequence[Card], method: Method,
            seed: int) -> tuple[Worlds, bool]:
    """The worlds of a decision, and whether the auction's constraints had to be dropped
    (the play has shown a hand outside them, or all but: see ``RELAX_ATTEMPTS``)."""
    s = decision_seed(seed, deal, seat, played)
    try:
        return deal_worlds(_view(deal, seat, played, False), samples=method.worlds, seed=s,
                           limit=method.worlds,
                           max_attempts=max(RELAX_ATTEMPTS, 500 * method.worlds)), False
    except SamplingError:
        if not deal.constraints:
            raise
        return deal_worlds(_view(deal, seat, played, True), samples=method.worlds, seed=s,
                           limit=method.worlds), True


def _lowest(cards: Iterable[Card]) -> Card:
    """The lowest card: by rank, then clubs below diamonds below hearts below spades."""
    return min(cards, key=lambda c: (c.rank, -c.suit))


def _best_by_pimc(legal: Sequence[Card], arr: np.ndarray, goal: int,
                  among: Iterable[Card] | None = None) -> Card:
    """PIMC's choice: the card reaching ``goal`` tricks (for the mover's side) in the most
    worlds, then the most tricks on average, then the lowest."""
    allowed = set(legal if among is None else among)
    reach = (arr >= goal).sum(axis=0)
    mean = arr.sum(axis=0)
    best = max((int(reach[j]), int(mean[j])) for j, c in enumerate(legal) if c in allowed)
    return _lowest(c for j, c in enumerate(legal)
                   if c in allowed and (int(reach[j]), int(mean[j])) == best)


# ---- one play ----------------------------------------------------------------------------

class _Decisions:
    """Decisions of one deal, cached across its two plays (the same player at the same
    point with the same method decides the same), and the time they took."""

    def __init__(self, deal: DuelDeal, defence: Method, seed: int, jobs: int, tt_mb: int,
                 solver: Solver):
        self.deal = deal
        self.seed = seed
        self.jobs = jobs
        self.tt_mb = tt_mb
        self.solver = solver
        self.cache: dict[tuple, tuple[Card, float, bool]] = {}

    def choose(self, seat: Seat, played: tuple[Card, ...], legal: list[Card],
               method: Method) -> tuple[Card, float, bool, bool]:
        """(card, seconds, searched, relaxed) for ``seat`` to play after ``played``."""
        if len(_groups(played, legal)) == 1:
            return _lowest(legal), 0.0, False, False
        key = (seat, method, played)
        hit = self.cache.get(key)
        if hit is None:
            start = time.perf_counter()
            card, relaxed = self._decide(seat, played, legal, method)
            hit = (card, time.perf_counter() - start, relaxed)
            self.cache[key] = hit
        return hit[0], hit[1], True, hit[2]

    def _decide(self, seat: Seat, played: tuple[Card, ...], legal: list[Card],
                method: Method) -> tuple[Card, bool]:
        deal = self.deal
        decl = deal.declarer
        contract = deal.contract
        declaring = seat in (decl, decl.partner)
        if method.kind == "dd":
            scores = self.solver.card_scores(deal.deal, contract.strain, decl.lho, played)
            best = max(scores.values())
            return _lowest(c for c, t in scores.items() if t == best), False
        worlds, relaxed = _worlds(deal, seat, played, method, self.seed)
        need = contract.tricks_needed
        goal = need if declaring else 14 - need
        if method.kind == "pimc" or not declaring:
            legal_w, arr = pimc(worlds, contract, decl, jobs=self.jobs, tt_mb=self.tt_mb)
            return _best_by_pimc(legal_w, arr, goal), relaxed
        result = alphamu(worlds, declarer=decl, need=need, depth=method.depth,
                         jobs=self.jobs, tt_mb=self.tt_mb)
        top = result.best.makes
        tied = [row for row in result.cards if row.makes == top]
        if len(tied) == 1:
            return _lowest(tied[0].cards), relaxed
        legal_w, arr = pimc(worlds, contract, decl, jobs=self.jobs, tt_mb=self.tt_mb)
        return _best_by_pimc(legal_w, arr, goal,
                             among=[c for row in tied for c in row.cards]), relaxed


def _groups(played: tuple[Card, ...], legal: list[Card]) -> list[tuple[Card, ...]]:
    """The legal cards split into runs with nothing between them still in play (cards
    played to earlier tricks, or held by the mover, count as gone): equivalent for the
    mover whatever he sees."""
    done = len(played) - len(played) % 4
    gone = set(played[:done]) | set(legal)
    return runs(legal, gone.__contains__)


def play_deal(deal: DuelDeal, declarer: Method, defence: Method, *, seed: int,
              decisions: _Decisions | None = None, jobs: int = 1,
              tt_mb: int = DEFAULT_TT_MB) -> Play:
    """Play ``deal`` out with ``declarer`` choosing declarer's and dummy's cards and
    ``defence`` the defenders'; see the module docstring.

    :raises ValueError: αμ for the defence, or double dummy for declarer.
    :raises CardgamesError: a deal or constraints no world can be dealt from.
    """
    if declarer.kind == "dd":
        raise ValueError("declarer plays by alphamu or pimc (double dummy would see the "
                         "defenders' cards)")
    if defence.kind == "alphamu":
        raise ValueError("αμ plays for declarer; the defenders play by pimc or dd")
    if decisions is None:
        decisions = _Decisions(deal, defence, seed, jobs, tt_mb, Solver(tt_mb))
    decl = deal.declarer
    pos = Position(deal.deal, deal.contract.strain, decl.lho)
    dec_n = def_n = relaxed = 0
    dec_s = def_s = 0.0
    while not pos.is_terminal:
        seat = pos.to_move
        declaring = seat in (decl, decl.partner)
        card, spent, searched, relax = decisions.choose(
            seat, tuple(pos.played), list(pos.legal_cards()),
            declarer if declaring else defence)
        if searched:
            relaxed += relax
            if declaring:
                dec_n += 1
                dec_s += spent
            else:
                def_n += 1
                def_s += spent
        pos.play(card)
    tricks = pos.tricks_won(decl)
    made = tricks >= deal.contract.tricks_needed
    points = score(deal.contract, tricks, deal.vulnerability.is_vulnerable(decl))
    return Play(declarer.label, tuple(pos.played), tricks, made, points, dec_n, dec_s, def_n,
                def_s, relaxed)


def duel_deal(deal: DuelDeal, first: Method, second: Method, defence: Method, *, seed: int,
              jobs: int = 1, tt_mb: int = DEFAULT_TT_MB,
              done: Mapping[str, Play] | None = None,
              on_play: Callable[[Play], None] | None = None) -> DuelResult:
    """``deal`` played with each declarer against the same defenders (common random
    numbers: see the module docstring).  ``done`` holds plays already made (by method
    label: a resumed run); ``on_play`` is told of each new one."""
    solver = Solver(tt_mb)
    decisions = _Decisions(deal, defence, seed, jobs, tt_mb, solver)
    plays = []
    for method in (first, second):
        play = (done or {}).get(method.label)
        if play is None:
            play = play_deal(deal, method, defence, seed=seed, decisions=decisions,
                             jobs=jobs, tt_mb=tt_mb)
            if on_play is not None:
                on_play(play)
        plays.append(play)
    dd = solver.solve(deal.deal, deal.contract.strain, deal.declarer)
    return DuelResult(deal, dd, (plays[0], plays[1]))


def duel(deals: Iterable[DuelDeal], first: Method, second: Method, defence: Method, *,
         seed: int, jobs: int = 1, tt_mb: int = DEFAULT_TT_MB) -> Iterator[DuelResult]:
    """:func:`duel_deal` for each deal, in order."""
    for deal in deals:
        yield duel_deal(deal, first, second, defence, seed=seed, jobs=jobs, tt_mb=tt_mb)


# ---- the protocol's deals ------------------------------------------------------------------

def protocol_deals(count: int, seed: int, *, contract: str = "3NT", declarer: str = "S",
                   tolerance: int = 1, start: int = 0) -> Iterator[DuelDeal]:
    """Deals for ``contract`` by ``declarer`` whose double-dummy result is within
    ``tolerance`` tricks of the tricks needed (Cazenave and Ventos's protocol: 3NT by
    South, within one trick), dealt from ``seed``; the ``start``-th on (a resumed run asks
    for the same deals again and skips what is done)."""
    if check_seed(seed) is None:
        raise ValueError("protocol_deals needs a seed (a whole number 0 or more), so that "
                         "the deals can be dealt again")
    tolerance = whole_number("tolerance", tolerance, most=13, unit=" of tricks")
    count, start = whole_number("count", count), whole_number("start", start)
    try:
        declarer = Seat.parse(declarer).letter
    except CardgamesError as err:
        raise type(err)(f"declarer: {err}") from None
    bare = Contract.parse(contract)
    if bare is not None and bare.declarer is not None:
        raise ValueError(f"the contract {contract!r} names its declarer: give it without "
                         f"(declarer={declarer!r} names the declarer)")
    c = Contract.parse(contract + declarer)
    if c is None or c.declarer is None:
        raise ValueError(f"not a contract with its declarer: {contract}{declarer}")
    rng = np.random.default_rng(seed)
    solver = Solver(16)
    made = 0
    while made < start + count:
        perm = rng.permutation(52)
        deal = Deal(tuple(Hand.from_cards(Card.from_index(int(j)) for j in perm[i::4])
                          for i in range(4)))
        tricks = solver.solve(deal, c.strain, c.declarer)
        if abs(tricks - c.tricks_needed) > tolerance:
            continue
        if made >= start:
            yield DuelDeal(f"seed {seed} deal {made + 1}", deal, c)
        made += 1


# ---- the summary ----------------------------------------------------------------------------

def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n == 0:
        return (math.nan, math.nan)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class DuelSummary:
    """The duel over its deals (first declarer against the second)."""

    methods: tuple[str, str]
    deals: int
    made: tuple[int, int]
    mean_tricks: tuple[float, float]
    differ: int                    # deals whose outcome differs
    first_wins: int                # of those, the first declarer made and the second not
    win_rate: float
    win_ci: tuple[float, float]
    imps: float                    # mean IMPs a deal to the first
    imps_se: float
    matchpoints: float             # the first's mean matchpoints (0.5 = level)
    decisions: tuple[int, int]
    seconds_per_decision: tuple[float, float]
    defence_decisions: int
    defence_seconds_per_decision: float
    relaxed: int

    def to_dict(self) -> dict:
        def num(x: float) -> float | None:
            return None if isinstance(x, float) and math.isnan(x) else x
        return {"methods": list(self.methods), "deals": self.deals, "made": list(self.made),
                "make_rate": [num(m / self.deals if self.deals else math.nan)
                              for m in self.made],
                "mean_tricks": [num(x) for x in self.mean_tricks], "differ": self.differ,
                "first_wins": self.first_wins, "win_rate": num(self.win_rate),
                "win_ci": [num(x) for x in self.win_ci], "imps": num(self.imps),
                "imps_se": num(self.imps_se), "matchpoints": num(self.matchpoints),
                "decisions": list(self.decisions),
                "seconds_per_decision": [num(x) for x in self.seconds_per_decision],
                "defence_decisions": self.defence_decisions,
                "defence_seconds_per_decision": num(self.defence_seconds_per_decision),
                "relaxed": self.relaxed}


def summarise(results: Sequence[DuelResult]) -> DuelSummary:
    """The figures of a duel over its deals."""
    n = len(results)
    if n:
        methods = (results[0].plays[0].method, results[0].plays[1].method)
    else:
        methods = ("", "")
    made = tuple(sum(r.plays[i].made for r in results) for i in (0, 1))
    mean = tuple(sum(r.plays[i].tricks for r in results) / n if n else math.nan
                 for i in (0, 1))
    differ = [r for r in results if r.differ]
    wins = sum(r.plays[0].made for r in differ)
    imp = [r.imps for r in results]
    imps_mean = sum(imp) / n if n else math.nan
    imps_se = (float(np.std(imp, ddof=1)) / math.sqrt(n)) if n > 1 else math.nan
    decisions = tuple(sum(r.plays[i].decisions for r in results) for i in (0, 1))
    secs = tuple(sum(r.plays[i].seconds for r in results) for i in (0, 1))
    d_n = sum(p.defence_decisions for r in results for p in r.plays)
    d_s = sum(p.defence_seconds for r in results for p in r.plays)
    return DuelSummary(
        methods, n, (made[0], made[1]), (mean[0], mean[1]), len(differ), wins,
        wins / len(differ) if differ else math.nan, wilson(wins, len(differ)),
        imps_mean, imps_se, sum(r.matchpoints for r in results) / n if n else math.nan,
        (decisions[0], decisions[1]),
        (secs[0] / decisions[0] if decisions[0] else math.nan,
         secs[1] / decisions[1] if decisions[1] else math.nan),
        d_n, d_s / d_n if d_n else math.nan,
        sum(p.relaxed for r in results for p in r.plays))

