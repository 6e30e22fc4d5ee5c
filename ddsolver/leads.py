"""Monte-Carlo opening-lead analysis: which card should the opening leader choose?

The leader sees only their own hand (and perhaps constraints from the auction on the others).
:func:`analyse_leads` deals the hidden hands at random under those constraints
(:mod:`cardgames.sampling`), solves every sampled deal once for all leads (one all-card
double-dummy solve, :meth:`ddsolver.Solver.card_scores` at trick one), and summarises each
lead over the sample:

>>> report = analyse_leads("KQ72.J83.T94.A65", "4S", "S", "none", samples=4, seed=1,
...                        constraints={"S": "5+ spades, 12+ hcp"})
>>> report.leader, report.samples, sorted(r.label for r in report.rows if r.cards[0].rank > 11)
(Seat.WEST, 4, ['CA', 'SK/SQ'])

**Equivalent leads.**  Cards of one suit that touch in the leader's hand (KQ, or T98: no
rank between them, in the whole deck) are the same lead in every deal: whatever the hidden
hands, nobody else holds a card between them, so a double-dummy solver gives them the same
score.  They form one row, labelled ``SK/SQ``.  Touching is judged in the full deck, not in
the leader's hand alone: the K and J of KJ are not grouped even when the queen is known to be
elsewhere, because the queen's holder changes the play.  The solver's scores are checked to
be equal within each group on every deal (a mismatch raises ``RuntimeError``).

**Statistics per lead** (the defence's view; :mod:`ddsolver.stats` defines each): mean,
variance, SD, SE and interval of the defence's double-dummy tricks; ``p_set``, the share of
deals that beat the contract, with its Wilson interval; the defence's mean score; and,
against the **best** lead by ``criterion`` (``"mean"`` tricks, ``"p_set"``, ``"score"``,
``"p_best"``, ``"mp"`` or ``"imps"``: :data:`ddsolver.stats.CRITERIA`) on the same deals,
the paired differences in tricks, IMPs and matchpoints, ``close`` (within ``z`` paired SEs
of it) and ``tied`` (equal to it on every deal by the criterion).

**Stopping early.**  With ``stop_z``, sampling goes in batches of ``batch`` deals and stops,
after at least ``min_samples``, as soon as every other lead is either more than ``stop_z``
paired SEs worse than the best or tied with it on every deal so far (no number of deals
would make a tie "clear", so ties must not hold sampling up); ``samples`` is then the
maximum.  Looking after every batch makes a
false "clear" more likely than a single look at the end would, so use a larger ``stop_z``
(2.5 to 3) than the confidence level you want.

**Reproducibility.**  Deals are dealt a chunk at a time (at most :data:`DEAL_CHUNK` deals,
so memory does not grow with ``samples``) before they are solved, each block of 1000 deals
from a random stream of its own fixed by the seed and the block's index
(:mod:`ddsolver.lead_chunks`: block 0 is ``numpy.random.default_rng(seed)``'s, block ``k``
the ``k``-th child of ``SeedSequence(seed)``); results are kept in sample order, so the
report is the same for the same seed whatever ``jobs`` is, and on a Dask cluster
(``client=``) whatever the number of workers and the chunk size.  Without a seed, one is
drawn from the system's entropy and recorded in the report (``report.seed``), so any run
can be repeated.
``jobs`` threads each own a :class:`~ddsolver.Solver` (the core releases the GIL while it searches).
"""

from __future__ import annotations

import json
import math
import operator
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from cardgames import pbn
from cardgames.cards import Card, CardLike, Seat, SeatLike, runs
from cardgames.constraint_syntax import as_constraint
from cardgames.constraints import Constraint
from cardgames.errors import CardgamesError, positive_number, whole_number
from cardgames.evaluation import Features
from cardgames.hands import Deal, Hand
from cardgames.sampling import Sampler, acceptance_rates, check_seed, draw_seed
from cardgames.scoring import Contract, Vulnerability, VulnerabilityLike, contract_and_declarer

from . import cluster, views
from .lead_chunks import BLOCK, LeadJob, chunk_bounds, cluster_chunks, local_chunks
from .pool import SolverPool, check_jobs
from .solver import DEFAULT_TT_MB
from .stats import CRITERIA, Z95, GroupStats, best_is_clear, compare, finite_or_none

__all__ = ["LeadRow", "LeadReport", "TableLead", "analyse_leads", "summarise_leads",
           "lead_groups", "lead_row", "table_lead", "deal_games", "DEAL_CHUNK"]


def lead_groups(hand: Hand | str) -> list[tuple[Card, ...]]:
    """The leader's cards split into equivalent leads: runs of touching cards of one suit
    (no rank between them in the deck), highest first, suits in the order S H D C.

    >>> ["/".join(map(str, g)) for g in lead_groups("KQ72.J83.T98.A")]
    ['SK/SQ', 'S7', 'S2', 'HJ', 'H8', 'H3', 'DT/D9/D8', 'CA']
    """
    if isinstance(hand, str):
        hand = Hand.from_pbn(hand)
    return runs(hand)


# ---- the rows and the report ------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class LeadRow:
    """One lead (a group of equivalent cards) summarised over the sample; see the module
    docstring for each measure.  Tricks and scores are the defence's."""

    cards: tuple[Card, ...]        # the equivalent cards, highest first
    label: str                     # "SK/SQ"
    n: int                         # deals
    mean: float                    # mean defence tricks
    var: float                     # sample variance (N - 1 divisor); NaN for one deal
    sd: float                      # its square root
    se: float                      # sd / sqrt(N)
    ci: tuple[float, float]        # mean -+ z se
    p_set: float                   # share of deals on which the contract goes down
    p_set_ci: tuple[float, float]  # Wilson interval
    score: float                   # defence's mean score
    score_se: float
    diff_tricks: float             # mean (this lead - best lead) tricks, same deals
    diff_tricks_se: float          # paired SE
    diff_imps: float               # mean IMPs of (this lead's score - best lead's score)
    diff_imps_se: float
    mp_vs_best: float              # % against the best lead alone (best = 50)
    mp_vs_best_se: float
    mp_field: float                # % in the field of all lead groups
    mp_field_se: float
    best: bool                     # the first row by the criterion
    close: bool                    # cannot be told apart from the best (within z SE)
    tied: bool = False             # not the best, but equal to it on every deal (so close)
    p_best: float = math.nan       # share of deals on which it takes the most tricks

    def to_dict(self) -> dict:
        d = asdict(self)
        d["cards"] = [str(c) for c in self.cards]
        d["ci"] = list(self.ci)
        d["p_set_ci"] = list(self.p_set_ci)
        return {k: finite_or_none(v) for k, v in d.items()}


def lead_row(stats: GroupStats, cards: tuple[Card, ...]) -> LeadRow:
    """The row of a lead whose ``cards`` (touching cards, highest first) have ``stats``."""
    return LeadRow(cards, "/".join(str(c) for c in cards), stats.n, stats.mean, stats.var,
                   stats.sd, stats.se, stats.ci, stats.chance, stats.chance_ci, stats.score,
                   stats.score_se, stats.diff_tricks, stats.diff_tricks_se, stats.diff_imps,
                   stats.diff_imps_se, stats.mp_vs_best, stats.mp_vs_best_se, stats.mp_field,
                   stats.mp_field_se, stats.best, stats.close, stats.tied, stats.p_best)


@dataclass(frozen=True, slots=True)
class TableLead:
    """The lead made at the table, set against the sample: what it cost against the best
    lead on the same deals (the paired differences of its row, turned round so that a
    positive cost is a loss), and what it was worth double dummy on the real deal."""

    card: Card                     # the card led
    label: str                     # its row's label ("SK/SQ")
    place: int                     # 1 = the best lead, 2 = the next ...
    leads: int                     # how many leads (rows) there are
    cost_tricks: float             # best lead's mean tricks - this lead's, same deals
    cost_tricks_se: float          # paired SE
    cost_imps: float               # mean IMPs lost against the best lead
    cost_imps_se: float
    cost_mp: float                 # matchpoint % lost against the best alone: 50 - mp_vs_best
    cost_mp_se: float
    real_tricks: int | None = None   # defence's double-dummy tricks on the real deal
    real_best: int | None = None     # ... with the best lead there
    player: str | None = None        # the leader's name (the West/North/... tag)
    tied: bool = False               # not first, but equal to the best on every deal

    @property
    def best(self) -> bool:
        """The best lead over the deals: first, or tied with the first on every deal."""
        return self.place == 1 or self.tied

    @property
    def real_cost(self) -> int | None:
        """Tricks the lead cost on the real deal, double dummy (None if not known)."""
        if self.real_tricks is None or self.real_best is None:
            return None
        return self.real_best - self.real_tricks

    def to_dict(self) -> dict:
        d = {k: getattr(self, k) for k in self.__slots__}
        d["card"] = str(self.card)
        d["real_cost"] = self.real_cost
        return {k: finite_or_none(v) for k, v in d.items()}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TableLead:
        """The inverse of :meth:`to_dict` (a figure JSON could not hold, None, is NaN)."""
        def num(key: str) -> float:
            v = d[key]
            return math.nan if v is None else float(v)
        return cls(Card.parse(d["card"]), d["label"], int(d["place"]), int(d["leads"]),
                   num("cost_tricks"), num("cost_tricks_se"), num("cost_imps"),
                   num("cost_imps_se"), num("cost_mp"), num("cost_mp_se"),
                   d.get("real_tricks"), d.get("real_best"), d.get("player"),
                   bool(d.get("tied", False)))

@dataclass(frozen=True)
class LeadReport:
    """The result of :func:`analyse_leads`: one :class:`LeadRow` per lead, best first by
    ``criterion``, and what produced them.

    ``card_tricks[i][j]`` is the defence's tricks on deal ``i`` when the leader leads
    ``hand_cards[j]`` (every card, not just one per group), and ``deals[i]`` the deal (kept
    unless ``keep_deals=False``), so any figure can be checked.
    """

    hand: Hand
    contract: Contract
    declarer: Seat
    vulnerability: Vulnerability
    criterion: str
    z: float
    rows: tuple[LeadRow, ...]
    samples: int
    attempts: int
    acceptance_rate: float
    seed: int | None
    constraints: dict[str, str] = field(default_factory=dict)
    hand_cards: tuple[Card, ...] = ()
    card_tricks: np.ndarray | None = field(default=None, repr=False, compare=False)
    deals: tuple[Deal, ...] = field(default=(), repr=False, compare=False)
    stopped_early: bool = False
    # What the board's auction said, when the constraints came from one (file mode):
    auction: str | None = None                 # "N: 1NT Pass 3NT Pass Pass Pass"
    system: str | None = None                  # the system that read it (None: not read)
    seat_rates: dict[str, float] = field(default_factory=dict)  # seat -> its constraint's
    #                                acceptance rate alone (cardgames.sampling.acceptance_rates)
    broken: dict[str, str] = field(default_factory=dict)  # seat -> what the real hand breaks
    # seat -> the usual ranges the real hand strays from (inside the constraint, outside
    # what the system's [stray] makes usual: cardgames.constraints.Usually)
    strays: dict[str, str] = field(default_factory=dict)
    unknown_calls: tuple[str, ...] = ()        # calls the system does not explain
    notes: tuple[str, ...] = ()                # what was flagged about the board
    table: TableLead | None = None             # the lead made at the table

    @property
    def leader(self) -> Seat:
        return self.declarer.lho

    @property
    def best(self) -> LeadRow:
        return self.rows[0]

    def row(self, card: CardLike) -> LeadRow:
        """The row holding ``card``."""
        c = Card.parse(card)
        for r in self.rows:
            if c in r.cards:
                return r
        raise KeyError(f"{c} is not in the leader's hand")

    # ---- output ---------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "contract": self.contract.call, "declarer": self.declarer.letter,
            "leader": self.leader.letter, "vulnerable": str(self.vulnerability),
            "hand": self.hand.to_pbn(), "constraints": dict(self.constraints),
            "samples": self.samples, "attempts": self.attempts,
            "acceptance_rate": self.acceptance_rate, "seed": self.seed,
            "criterion": self.criterion, "z": self.z, "stopped_early": self.stopped_early,
            "seat_acceptance_rates": dict(self.seat_rates), "auction": self.auction,
            "system": self.system, "broken": dict(self.broken), "strays": dict(self.strays),
            "unknown_calls": list(self.unknown_calls), "notes": list(self.notes),
            "table_lead": self.table.to_dict() if self.table is not None else None,
            "rows": [r.to_dict() for r in self.rows],
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The report as JSON (NaN written as null)."""
        return json.dumps(self.to_dict(), indent=indent)

    def to_csv(self, *, header: bool = True) -> str:
        """One line per lead (:func:`ddsolver.formats.leads.report_csv`); ``table`` is 1 on
        the row of the lead made at the table."""
        return views.show("LeadReport.csv", self, header=header)

    def to_text(self) -> str:
        """A readable table, best lead first (:func:`ddsolver.formats.leads.report_text`)."""
        return views.show("LeadReport.text", self)

    def __str__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        """The report as HTML for Jupyter: the table of leads and a chart of each lead's
        tricks (:func:`ddsolver.formats.leads_html.report_fragment`)."""
        return views.show("LeadReport.html", self)

    def games(self) -> list[pbn.Game]:
        """Every sampled deal as a PBN game, with the defence's tricks for each lead in a
        ``LeadTricks`` tag (``"SK:4 SQ:4 S7:3 ..."``)."""
        if self.card_tricks is None or len(self.deals) != self.samples:
            raise ValueError("the report kept no deals (analyse_leads(keep_deals=False))")
        return deal_games(self.deals, self.card_tricks, self.hand_cards, self.contract,
                          self.declarer, self.vulnerability)

    def to_pbn(self) -> str:
        return pbn.dumps(self.games())


def summarise_leads(hand: Hand | str, contract: Contract | str, declarer: SeatLike | None,
                    vul: VulnerabilityLike, card_tricks: Sequence[Mapping[CardLike, int]] |
                    np.ndarray, *, criterion: str = "mean", z: float = Z95,
                    seed: int | None = None, attempts: int | None = None,
                    acceptance_rate: float | None = None,
                    constraints: Mapping[str, str] | None = None,
                    deals: Sequence[Deal] = (), stopped_early: bool = False) -> LeadReport:
    """The report for given per-deal lead scores (the defence's tricks for each of the
    leader's cards, one mapping per deal, or an array deals x cards in hand order).  What
    :func:`analyse_leads` calls once the deals are solved; useful on its own to check the
    statistics.

    :raises ValueError: if a deal lacks a card's score or scores a card not in the hand,
        a score is not a whole number of tricks, cards of one group (touching cards) score
        differently, or ``z`` is not a positive number.
    """
    h = Hand.from_pbn(hand) if isinstance(hand, str) else hand
    c, decl = contract_and_declarer(contract, declarer)
    vulnerability = Vulnerability.parse(vul)
    z = positive_number("z", z)
    cards = h.cards
    if isinstance(card_tricks, np.ndarray):
        if card_tricks.dtype.kind not in "iuf" or (
                card_tricks.dtype.kind == "f" and
                not np.array_equal(card_tricks, np.round(card_tricks))):
            raise ValueError("card_tricks must hold whole numbers of tricks, not "
                             f"{card_tricks.dtype} values")
        arr = np.asarray(card_tricks, dtype=np.int64)
        if arr.ndim != 2 or arr.shape[1] != len(cards):
            raise ValueError(f"card_tricks must be deals x {len(cards)} cards, got {arr.shape}")
    else:
        rows_ = []
        for i, d in enumerate(card_tricks):
            by_card: dict[Card, int] = {}
            for k, v in d.items():
                card = Card.parse(k)
                if card not in h:
                    raise ValueError(f"deal {i}: a score for {card}, which is not in the hand")
                try:
                    if isinstance(v, bool):
                        raise TypeError
                    by_card[card] = operator.index(v)
                except TypeError:
                    raise ValueError(f"deal {i}: the score of {card} must be a whole number "
                                     f"of tricks, not {v!r}") from None
            try:
                rows_.append([by_card[x] for x in cards])
            except KeyError as err:
                raise ValueError(f"deal {i}: no score for lead {err.args[0]}") from None
        arr = np.array(rows_, dtype=np.int64).reshape(-1, len(cards))
    if arr.shape[0] == 0:
        raise ValueError("no deals to summarise")
    if arr.min() < 0 or arr.max() > 13:
        raise ValueError("lead scores must be 0..13 tricks")
    groups = lead_groups(h)
    index = {card: j for j, card in enumerate(cards)}
    cols = [[index[x] for x in g] for g in groups]
    for g, col in zip(groups, cols):
        bad = np.flatnonzero((arr[:, col] != arr[:, [col[0]]]).any(axis=1))
        if len(bad):
            raise ValueError(f"touching cards {'/'.join(map(str, g))} score differently on "
                             f"deal {int(bad[0])}: {arr[bad[0], col].tolist()}")
    tricks = arr[:, [col[0] for col in cols]]
    rows = [lead_row(g, groups[g.index]) for g in
            compare(tricks, c, vulnerability.is_vulnerable(decl), criterion, z)]
    n = arr.shape[0]
    return LeadReport(hand=h, contract=c, declarer=decl, vulnerability=vulnerability,
                      criterion=criterion, z=z, rows=tuple(rows), samples=n,
                      attempts=attempts if attempts is not None else n,
                      acceptance_rate=(acceptance_rate if acceptance_rate is not None
                                       else n / attempts if attempts else 1.0), seed=seed,
                      constraints=dict(constraints or {}), hand_cards=cards,
                      card_tricks=arr, deals=tuple(deals), stopped_early=stopped_early)


def deal_games(deals: Sequence[Deal], card_tricks: np.ndarray, cards: Sequence[Card],
               contract: Contract, declarer: Seat, vulnerability: Vulnerability, *,
               first: int = 1) -> list[pbn.Game]:
    """Sampled deals as PBN games (boards numbered from ``first``), each with the
    defence's tricks for each of the leader's ``cards`` (``card_tricks``: deals x cards)
    in a ``LeadTricks`` tag: what :meth:`LeadReport.games` and ``on_games`` give."""
    leader = declarer.lho
    note = f"{{defence's double-dummy tricks for each opening lead by {leader.letter}}}"
    games = []
    for i, deal in enumerate(deals):
        g = pbn.Game(line=None)
        g.set_tag("Event", "ddsolver leads")
        g.set_tag("Board", str(first + i))
        g.set_tag("Vulnerable", str(vulnerability))
        g.set_tag("Deal", deal.to_pbn(leader))
        g.set_tag("Declarer", declarer.letter)
        g.set_tag("Contract", contract.call)
        value = " ".join(f"{c}:{int(t)}" for c, t in zip(cards, card_tricks[i]))
        games.append(pbn.Game([*g.tags, pbn.Tag("LeadTricks", value, comments=(note,))]))
    return games


# ---- the lead made at the table --------------------------------------------------------------

def table_lead(report: LeadReport, card: CardLike, real: Mapping[Card, int] | None = None,
               player: str | None = None) -> LeadReport:
    """``report`` with the lead made at the table marked (:class:`TableLead`): its cost
    against the best lead over the report's deals, from its row's paired differences, and
    with ``real`` (the defence's double-dummy tricks for each lead on the real deal, as
    :meth:`ddsolver.Solver.card_scores` gives them) its value there.

    :raises CardgamesError: if the card is not in the leader's hand.
    """
    c = Card.parse(card)
    if c not in report.hand:
        raise CardgamesError(f"the lead at the table, {c}, is not in the leader's hand "
                             f"({report.hand.to_pbn()})")
    place, row = next((i + 1, r) for i, r in enumerate(report.rows) if c in r.cards)
    real_tricks = real_best = None
    if real is not None:
        real_tricks, real_best = int(real[c]), int(max(real.values()))
    # (0.0 - x: a cost of nothing is 0.0, not -0.0)
    lead = TableLead(c, row.label, place, len(report.rows), 0.0 - row.diff_tricks,
                     row.diff_tricks_se, 0.0 - row.diff_imps, row.diff_imps_se,
                     50.0 - row.mp_vs_best,
                     row.mp_vs_best_se, real_tricks, real_best, player, row.tied)
    return replace(report, table=lead)


# ---- the analysis ---------------------------------------------------------------------------

#: The most deals :func:`analyse_leads` deals before solving them: memory holds one chunk of
#: deals at a time, however many are asked for (with ``stop_z``, a ``batch`` is dealt in
#: chunks of this size too).  It is also the size of a random stream's block
#: (:data:`ddsolver.lead_chunks.BLOCK`).
DEAL_CHUNK = BLOCK


def analyse_leads(hand: Hand | str, contract: Contract | str, declarer: SeatLike | None = None,
                  vul: VulnerabilityLike = "none", *,
                  constraints: Mapping[SeatLike, Constraint | str | Callable] | None = None,
                  known: Mapping[SeatLike, Hand | str] | None = None,
                  predicate: Callable[[Deal], bool] | None = None,
                  batch_predicate: Callable[[tuple[Features, ...]], np.ndarray] | None = None,
                  samples: int = 1000, seed: int | None = None, jobs: int = 1,
                  criterion: str = "mean", z: float = Z95, stop_z: float | None = None,
                  min_samples: int = 100, batch: int = 100, tt_mb: int = DEFAULT_TT_MB,
                  keep_deals: bool = True, progress: Callable[[int], None] | None = None,
                  on_games: Callable[[list[pbn.Game]], None] | None = None,
                  max_attempts: int = 20_000_000, max_seconds: float = 60.0,
                  client: Any = None, chunk: int | None = None) -> LeadReport:
    """Monte-Carlo opening-lead analysis; see the module docstring.

    :param hand: the opening leader's 13 cards (``Hand`` or PBN text).
    :param contract: ``"4S"``, ``"3NTX"``, or with its declarer ``"4SN"``.
    :param declarer: the declarer's seat (may come with the contract instead); the leader
        is declarer's left-hand opponent.
    :param vul: the board's vulnerability (none, NS, EW, both).
    :param constraints: seat -> constraint on that hidden hand (object, text such as
        ``"15-17 hcp, balanced"``, or a predicate on a :class:`~cardgames.hands.Hand`).
    :param known: seat -> known cards of another hand (a whole hand, or a few cards).
    :param predicate: a test of the whole deal.
    :param batch_predicate: a test of a batch of deals at once, vectorised (redeal's
        ``accept``): see :class:`~cardgames.sampling.Sampler`, e.g. ``lambda f: f[0].hcp +
        f[2].hcp >= 25`` (North-South's points).
    :param samples: deals to solve (the maximum, with ``stop_z``).
    :param seed: seed of the deals, a whole number 0 or more (None: one is drawn from
        :mod:`secrets` and kept in ``report.seed``, so the run can be repeated).
    :param jobs: solver threads.
    :param criterion: what "best lead" means: ``"mean"`` tricks, ``"p_set"`` (the chance
        to set), ``"score"``, ``"p_best"`` (how often the lead is double-dummy best),
        ``"mp"`` or ``"imps"`` (against the other leads).
    :param z: the normal quantile of the intervals and of ``close``.
    :param stop_z: stop once every other lead is this many paired SEs worse than the best.
    :param min_samples: with ``stop_z``, never stop before this many deals (at least 2;
        the rule is checked at the end of each batch from then on).
    :param batch: deals per batch (with ``stop_z``, how often the rule is checked).
    :param progress: called with the number of deals just solved (for a progress bar).
    :param on_games: called with each chunk of deals as soon as it is solved, as the PBN
        games :meth:`LeadReport.games` would give (numbered on from the last chunk): to
        write every deal out without keeping them all (``keep_deals=False``).
    :param max_attempts: / :param max_seconds: the dealing budget per batch.
    :param client: a ``dask.distributed.Client``: the deals are dealt and solved on its
        cluster (``jobs`` is then not used), ``chunk`` deals a task (default: one per two
        worker threads, :func:`ddsolver.cluster.chunk_size`); the report is the same for
        any chunk and any cluster (:mod:`ddsolver.lead_chunks`).
    :raises SamplingError: constraints impossible or too rare.
    :raises ParseError: bad contract, seat, vulnerability or constraint text.
    :raises DealError: the known cards clash.
    :raises ValueError: bad samples, jobs, batch, min_samples, criterion, seed, z, stop_z,
        max_seconds, max_attempts.
    :raises TypeError: ``jobs`` not an int (checked by :func:`~ddsolver.solver.check_jobs`,
        as everywhere), ``hand`` neither a Hand nor text, ``constraints`` or ``known`` not
        a mapping, ``predicate`` or ``progress`` not callable.
    """
    if not isinstance(hand, (Hand, str)):
        raise TypeError(f"hand must be a Hand or PBN text such as 'KQ72.J83.T94.A65', got "
                        f"{type(hand).__name__}")
    h = Hand.from_pbn(hand) if isinstance(hand, str) else hand
    if len(h) != 13:
        raise CardgamesError(f"the leader's hand must hold 13 cards, not {len(h)}")
    for name, what, given in (("constraints", "constraint", constraints),
                              ("known", "hand", known)):
        if given is not None and not isinstance(given, Mapping):
            raise TypeError(f"{name} must be a mapping seat -> {what} (a dict such as "
                            f"{{'N': ...}}), got {type(given).__name__}")
    for name, f in (("predicate", predicate), ("batch_predicate", batch_predicate),
                    ("progress", progress), ("on_games", on_games)):
        if f is not None and not callable(f):
            raise TypeError(f"{name} must be a function (or None), got {type(f).__name__}")
    c, decl = contract_and_declarer(contract, declarer)
    vulnerability = Vulnerability.parse(vul)
    leader = decl.lho
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {', '.join(CRITERIA)}, not {criterion!r}")
    seed = check_seed(seed)
    if seed is None:
        seed = draw_seed()
    jobs = check_jobs(jobs)
    samples = whole_number("samples", samples, least=1)
    batch = whole_number("batch", batch, least=1)
    z = positive_number("z", z)
    stop_z = None if stop_z is None else positive_number("stop_z", stop_z)
    min_samples = whole_number("min_samples", min_samples, least=2)  # a standard error needs two
    known_hands: dict[Seat, Hand | str] = {leader: h}
    for seat_like, kh in (known or {}).items():
        seat = Seat.parse(seat_like)
        if seat == leader:
            raise CardgamesError("the leader's hand is given as `hand`, not in `known`")
        if not isinstance(kh, (Hand, str, Iterable)) or isinstance(kh, bytes):
            raise TypeError(f"known[{seat.letter!r}] must be a Hand, PBN text or cards, got "
                            f"{type(kh).__name__}")
        known_hands[seat] = kh
    cons = {Seat.parse(k): as_constraint(v) for k, v in (constraints or {}).items()}
    # Made here, and dropped, for its checks: constraints no deal can meet are refused now,
    # and so is a bad dealing budget (max_attempts, max_seconds).
    Sampler(known_hands, cons, predicate=predicate,  # type: ignore[arg-type]
            batch_predicate=batch_predicate, seed=seed, max_attempts=max_attempts,
            max_seconds=max_seconds)
    cons_text = {s.letter: str(v) for s, v in sorted(cons.items())}
    for s, kh in sorted(known_hands.items()):
        if s != leader:
            cons_text[s.letter] = f"known {kh}"
    deal_tests = [f"<{getattr(f, '__name__', 'predicate')}>"
                  for f in (batch_predicate, predicate) if f is not None]
    if deal_tests:
        cons_text["deal"] = ", ".join(deal_tests)

    groups = lead_groups(h)
    decl_vul = vulnerability.is_vulnerable(decl)
    step = batch if stop_z is not None else samples
    job = LeadJob(known_hands, cons, predicate, seed, max_attempts, max_seconds, c.strain,
                  leader, tuple(h.cards), tt_mb, secrets.token_hex(8), batch_predicate)
    want_deals = keep_deals or on_games is not None
    pool: SolverPool | None = None
    if client is None:
        pool = SolverPool(jobs, tt_mb)
        source = local_chunks(job, chunk_bounds(samples, step), pool, progress)
    else:
        size = cluster.chunk_size(client, cluster.THREADS_PER_DEAL, chunk, cluster.MIN_DEALS)
        source = cluster_chunks(job, chunk_bounds(samples, step, size), client, want_deals,
                                progress)
    deals: list[Deal] = []      # kept only with keep_deals
    scores: list[np.ndarray] = []  # per chunk: deals x cards in hand order, tricks (int8)
    counts: dict[int, tuple[int, int]] = {}  # block -> its sampler's attempts, accepted
    done = 0
    stopped = False
    cards = h.cards
    first = [cards.index(g[0]) for g in groups]
    try:
        # Dealt and solved a chunk at a time (lead_chunks), so memory holds a few chunks
        # of deals (and the scores, 13 bytes a deal), not the whole sample.
        for piece, new in source:
            scores.append(piece.tricks)
            counts[piece.start // BLOCK] = (piece.attempts, piece.accepted)
            if on_games is not None:
                on_games(deal_games(new, scores[-1], cards, c, decl, vulnerability,
                                    first=done + 1))
            done = piece.stop
            if keep_deals:
                deals += new
            at_check = done % step == 0 or done == samples
            if stop_z is not None and at_check and min_samples <= done < samples:
                arr = np.concatenate(scores)
                if best_is_clear(compare(arr[:, first], c, decl_vul, criterion, stop_z)):
                    stopped = True
                    break
    finally:
        source.close()
        if pool is not None:
            pool.close()
    attempts = sum(a for a, _ in counts.values())
    accepted = sum(k for _, k in counts.values())
    report = summarise_leads(h, c, decl, vulnerability, np.concatenate(scores),
                             criterion=criterion, z=z,
                             seed=seed, attempts=attempts,
                             acceptance_rate=accepted / attempts if attempts else 1.0,
                             constraints=cons_text,
                             deals=deals if keep_deals else (), stopped_early=stopped)
    if cons:
        rates = acceptance_rates(known_hands, cons, seed)
        report = replace(report, seat_rates={s.letter: r for s, r in sorted(rates.items())})
    return report
