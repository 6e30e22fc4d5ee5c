"""Par: the result of a deal when both sides bid perfectly, knowing every card.

Par is computed from a double-dummy table (tricks for every declarer and strain), the
vulnerability and the dealer, with the rules of DDS's ``DealerPar`` (the function behind the
``PAR2`` lines of DDS's test hands and behind ``endplay.dds.par``), which this module agrees
with on the tables of real deals (every reference deal and DDS test hand, in each
vulnerability and dealer).  On some tables no deal can have (North 13 tricks in no-trump,
South none), DealerPar passes over a seven-level sacrifice in the owner's strain by the
opponent who sits before the owner; this module follows rule 3 there too:

1. **Who owns the deal.**  For each side, its highest makeable contract (the best of the two
   partners' tricks in each strain).  The side whose highest makeable contract ranks higher in
   the bidding owns the deal.  When both sides can make the *same* highest contract, the side
   that can bid it first owns it: the first player, from the dealer round the table, whose own
   tricks make it.  When neither side can make anything, the deal is passed out (score 0).
2. **The owner's candidates.**  In each strain, the owner's highest makeable contract and its
   score.  Candidates ranked below the cheapest contract reaching the best score (3NT rather
   than 5C, both 400) are dropped: they are never worth bidding.
3. **The opponents' cheapest sacrifice** against each candidate: in each strain, the lowest
   contract that outbids it, doubled, and how many tricks it goes down.  In the candidate's
   own strain the bidding order matters: an opponent sitting before every owner who makes the
   contract may bid it at the same level; one sitting after must go a level higher.
4. **Does the sacrifice pay?**  It pays when its doubled penalty is less than the candidate's
   score.  Going through the candidates from the highest down, the first one against which
   a sacrifice pays is where the opponents would stop the owner; the others are contracts the
   owner could play undisturbed.
5. **The verdict.**  If the best undisturbed contract scores more than the penalty the owner
   can collect, the owner plays it: every candidate with that score is a par contract, bid at
   the lowest level that still keeps the opponents' sacrifices unprofitable and keeps the
   game or slam bonus (so ``2C+1`` rather than ``3C=`` when the opponents cannot afford to
   compete over 2C).  Otherwise (on a tie too) the opponents sacrifice: every strain and
   declarer that goes down the fewest tricks is a par contract.

Declarers are named as DDS names them: both partners when they take the same number of
tricks in the strain (``"4HNS+1"``), otherwise the one who takes more (``"3NTS="``).

>>> from ddsolver.solver import DDTable
>>> table = DDTable.from_dict({"N": {"S": 5, "H": 7, "D": 5, "C": 9, "NT": 9},
...                            "E": {"S": 7, "H": 5, "D": 8, "C": 4, "NT": 4},
...                            "S": {"S": 5, "H": 7, "D": 5, "C": 9, "NT": 9},
...                            "W": {"S": 7, "H": 5, "D": 8, "C": 4, "NT": 4}})
>>> result = par(table, vul="none", dealer="N")
>>> result.score, [str(c) for c in result.contracts]
(300, ['4DEWx-2'])
>>> print(result)
NS 300: 4DEWx-2

North-South make 3NT (400); East-West's cheapest way over it is 4D doubled, two down, 300.
Vulnerable, the sacrifice costs 500 against 600, so it still pays:

>>> par(table, vul="both", dealer="N").score
500
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardgames.cards import Seat, SeatLike, Strain
from cardgames.errors import DealError, ParseError
from cardgames.hands import Deal
from cardgames.scoring import Contract, Vulnerability, VulnerabilityLike, game_level, score, score_for

from .solver import DDTable, dd_table

__all__ = ["ParContract", "ParResult", "par"]

# Strains from the lowest to the highest in the bidding.
_BIDDING_ORDER = (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES, Strain.NOTRUMP)
_BID_RANK = {strain: i for i, strain in enumerate(_BIDDING_ORDER)}

_SIDES = ((Seat.NORTH, Seat.SOUTH), (Seat.EAST, Seat.WEST))


def _bid(level: int, strain: Strain) -> int:
    """The contract's place in the bidding: 0 for 1C up to 34 for 7NT."""
    return 5 * (level - 1) + _BID_RANK[strain]


def _penalty(down: int, vulnerable: bool) -> int:
    """What ``down`` undertricks doubled cost (0 for none).  The penalty does not depend on
    the contract, so any contract will do for :func:`cardgames.scoring.score`: 7NT lets
    every count from 1 to 13 be written."""
    if down <= 0:
        return 0
    return -score(Contract(7, Strain.NOTRUMP, 1), 13 - down, vulnerable)


# ---- result types ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ParContract:
    """One par contract: level, strain, its declarer(s), doubled or not, and the result.

    ``declarers`` is one seat, or both seats of a side (North before South, East before
    West) when either partner can declare it with the same result.  ``result`` is the
    number of overtricks (0 or more) for a contract that makes, or minus the number of
    undertricks for a doubled sacrifice.

    >>> c = ParContract(4, Strain.HEARTS, (Seat.NORTH, Seat.SOUTH), False, 1)
    >>> str(c), c.dds_text, c.tricks
    ('4HNS+1', '4H-NS+1', 11)
    >>> [str(x) for x in ParContract(4, Strain.SPADES, (Seat.EAST,), True, -2).per_declarer()]
    ['4SEx-2']
    """

    level: int
    strain: Strain
    declarers: tuple[Seat, ...]
    doubled: bool
    result: int

    @property
    def tricks(self) -> int:
        """Declarer's tricks: level + 6 + result."""
        return self.level + 6 + self.result

    @property
    def is_ns(self) -> bool:
        """True when North-South declare."""
        return self.declarers[0].is_ns

    def per_declarer(self) -> tuple[ParContract, ...]:
        """The same contract once per declarer (two when both partners are named), as
        ``endplay`` lists DDS's par contracts."""
        return tuple(ParContract(self.level, self.strain, (seat,), self.doubled, self.result)
                     for seat in self.declarers)

    def contracts(self) -> tuple[Contract, ...]:
        """The :class:`cardgames.scoring.Contract` for each declarer."""
        return tuple(Contract(self.level, self.strain, int(self.doubled), seat)
                     for seat in self.declarers)

    def score(self, vul: VulnerabilityLike) -> int:
        """North-South's score for this contract and result (:func:`score_for`)."""
        return score_for(self.contracts()[0], self.tricks, vul)

    @property
    def dds_text(self) -> str:
        """The contract as DDS's ``DealerPar`` writes it: ``4S*-EW-1``, ``3N-W+2``, ``2C-NS``."""
        strain = "N" if self.strain == Strain.NOTRUMP else self.strain.letter
        seats = "".join(s.letter for s in self.declarers)
        result = f"{self.result:+d}" if self.result else ""
        return f"{self.level}{strain}{'*' if self.doubled else ''}-{seats}{result}"

    def __str__(self) -> str:
        """``4HNS+1``, ``4SEx-2``, ``3NTS=``: contract, declarer(s), ``x`` if doubled, result."""
        seats = "".join(s.letter for s in self.declarers)
        result = f"{self.result:+d}" if self.result else "="
        return f"{self.level}{self.strain.letter}{seats}{'x' if self.doubled else ''}{result}"


@dataclass(frozen=True, slots=True)
class ParResult:
    """Par for one deal: ``score`` from North-South's side (negative when East-West gain)
    and the par ``contracts`` (empty when the deal is passed out), in the order DDS's
    ``DealerPar`` lists them; also the ``vul`` and ``dealer`` it was computed for.
    """

    score: int
    contracts: tuple[ParContract, ...]
    vul: Vulnerability = Vulnerability.NONE
    dealer: Seat = Seat.NORTH

    @property
    def dds_text(self) -> tuple[str, ...]:
        """The fields of a DDS ``PAR2`` line: the score, then each contract, e.g.
        ``("100", "3C*-EW-1", "2N*-EW-1")``; ``("0", "pass")`` for a passed-out deal."""
        if not self.contracts:
            return ("0", "pass")
        return (str(self.score),) + tuple(c.dds_text for c in self.contracts)

    def to_dict(self) -> dict[str, Any]:
        """``{"score": 620, "contracts": ["4SN="], "vul": "None", "dealer": "N"}`` (JSON)."""
        return {"score": int(self.score), "contracts": [str(c) for c in self.contracts],
                "vul": str(self.vul), "dealer": self.dealer.letter}

    def __str__(self) -> str:
        """``NS 300: 4DEWx-2``, ``NS -620: 4SE=, 4HW=``; ``NS 0: passed out``."""
        listed = ", ".join(map(str, self.contracts)) if self.contracts else "passed out"
        return f"NS {self.score}: {listed}"


# ---- the algorithm -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Candidate:
    """The owner's highest makeable contract in one strain."""

    strain: Strain
    level: int
    score: int     # the owner's score for making it (undoubled)


class _Par:
    """Par from a table: the five steps of the module docstring, one method each."""

    def __init__(self, table: DDTable, vul: Vulnerability, dealer: Seat):
        self.table = table
        self.vul = vul
        self.dealer = dealer
        # Each side's best tricks in each strain (the better partner declares).
        self.best = [{strain: max(table.tricks(a, strain), table.tricks(b, strain))
                      for strain in Strain} for a, b in _SIDES]

    def tricks(self, seat: Seat, strain: Strain) -> int:
        return self.table.tricks(seat, strain)

    def rotation(self) -> list[Seat]:
        """The seats in bidding order, dealer first."""
        return [self.dealer.next(i) for i in range(4)]

    def declarers(self, side: int, strain: Strain) -> tuple[Seat, ...]:
        """The partner(s) of ``side`` who take the side's best tricks in ``strain``."""
        return tuple(s for s in _SIDES[side] if self.tricks(s, strain) == self.best[side][strain])

    # Step 1.
    def owner(self) -> int | None:
        """0 for North-South, 1 for East-West, None when nobody can make anything."""
        tops = []
        for side in (0, 1):
            makeable = [_bid(t - 6, s) for s, t in self.best[side].items() if t >= 7]
            tops.append(max(makeable, default=-1))
        if tops[0] != tops[1]:
            return 0 if tops[0] > tops[1] else 1
        if tops[0] < 0:
            return None
        # Both sides can make the same contract: whoever can bid it first.
        level, strain = tops[0] // 5 + 1, _BIDDING_ORDER[tops[0] % 5]
        for seat in self.rotation():
            if self.tricks(seat, strain) >= level + 6:
                return 0 if seat.is_ns else 1
        raise AssertionError("a makeable contract with no declarer")  # pragma: no cover

    # Step 2.
    def candidates(self, side: int) -> list[_Candidate]:
        """The owner's highest makeable contract in each strain, highest bid first, without
        the ones below the cheapest contract reaching the best score."""
        vulnerable = self.vul.is_vulnerable(_SIDES[side][0])
        found = []
        for strain, t in self.best[side].items():
            if t >= 7:
                level = t - 6
                found.append(_Candidate(strain, level,
                                        score(Contract(level, strain), t, vulnerable)))
        best_score = max(c.score for c in found)
        cheapest = min(_bid(c.level, c.strain) for c in found if c.score == best_score)
        found = [c for c in found if _bid(c.level, c.strain) >= cheapest]
        found.sort(key=lambda c: _bid(c.level, c.strain), reverse=True)
        return found

    # Step 3.
    def sacrifices(self, side: int, cand: _Candidate) -> list[tuple[int, ParContract]]:
        """Every way the other side can outbid ``cand``: ``(undertricks, contract)``, one per
        strain, except in ``cand``'s own strain, where there is one per opponent (the order
        of bidding decides the level).  Undertricks may be 0 or less: the opponents make it.
        Contracts above 7NT are left out."""
        other = 1 - side
        out = []
        for strain in _BIDDING_ORDER:
            if strain != cand.strain:
                level = cand.level + (0 if _BID_RANK[strain] > _BID_RANK[cand.strain] else 1)
                if level <= 7:
                    down = level + 6 - self.best[other][strain]
                    out.append((down, ParContract(level, strain, self.declarers(other, strain),
                                                  True, -down)))
                continue
            # The same strain: an opponent who speaks before every owner that can make the
            # contract may bid it at the same level; after one, a level higher.
            owner_has_bid = False
            for seat in self.rotation():
                if (0 if seat.is_ns else 1) == side:
                    owner_has_bid |= self.tricks(seat, strain) == cand.level + 6
                    continue
                level = cand.level + owner_has_bid
                if level <= 7:
                    down = level + 6 - self.tricks(seat, strain)
                    out.append((down, ParContract(level, strain, (seat,), True, -down)))
        return out

    # Step 4.
    def most_undertricks_that_pay(self, side: int, cand: _Candidate) -> int:
        """The most undertricks, doubled, that cost the other side less than ``cand``
        scores (0 if even one costs more)."""
        vulnerable = self.vul.is_vulnerable(_SIDES[1 - side][0])
        down = 0
        while down < 13 and _penalty(down + 1, vulnerable) < cand.score:
            down += 1
        return down

    # Step 5.
    def solve(self) -> tuple[int, tuple[ParContract, ...]]:
        side = self.owner()
        if side is None:
            return 0, ()
        sign = 1 if side == 0 else -1

        best_plus = 0                   # the owner's best score where nobody competes
        plus: list[tuple[_Candidate, int]] = []   # (candidate, spare undertricks)
        stopped_at: list[tuple[int, ParContract]] | None = None  # the sacrifices that pay
        most_down = 0
        for cand in self.candidates(side):
            options = self.sacrifices(side, cand)
            cheapest = min((down for down, _ in options), default=None)
            limit = self.most_undertricks_that_pay(side, cand)
            if cheapest is not None and cheapest <= limit:
                # The opponents would outbid this one.  The first (highest) such candidate
                # is where the owner gets the most from their sacrifice.
                if stopped_at is None or cheapest > most_down:
                    stopped_at = [(d, c) for d, c in options if d == cheapest]
                most_down = max(most_down, cheapest)
            else:
                best_plus = max(best_plus, cand.score)
                spare = 99 if cheapest is None else cheapest - limit
                plus.append((cand, spare))

        penalty = _penalty(most_down, self.vul.is_vulnerable(_SIDES[1 - side][0]))
        if stopped_at is None or best_plus > penalty:
            made = tuple(self.lowest_level(side, cand, spare)
                         for cand, spare in plus if cand.score == best_plus)
            return sign * best_plus, made
        return sign * penalty, self.listed_sacrifices(stopped_at)

    def lowest_level(self, side: int, cand: _Candidate, spare: int) -> ParContract:
        """``cand`` bid as low as it can be: each undertrick beyond the first that the
        opponents' best sacrifice would cost past paying allows one level lower, down to
        the lowest level with the same bonus (game or part score; slams are not lowered)."""
        game = game_level(cand.strain)
        if cand.level >= 6:
            floor = cand.level
        elif cand.level >= game:
            floor = game
        else:
            floor = 1
        level = max(floor, cand.level - max(spare - 1, 0))
        return ParContract(level, cand.strain, self.declarers(side, cand.strain), False,
                           cand.level - level)

    @staticmethod
    def listed_sacrifices(options: list[tuple[int, ParContract]]) -> tuple[ParContract, ...]:
        """The sacrifices as DDS lists them: by strain from clubs up; in the owner's strain,
        both opponents as one entry when they sacrifice at the same level, otherwise the
        one who sacrifices lower."""
        out = []
        for strain in _BIDDING_ORDER:
            here = [c for _, c in options if c.strain == strain]
            if len(here) == 2:
                a, b = here
                if a.level == b.level:
                    seats = tuple(sorted(a.declarers + b.declarers))
                    here = [ParContract(a.level, strain, seats, True, a.result)]
                else:
                    here = [min(here, key=lambda c: c.level)]
            out.extend(here)
        return tuple(out)


# ---- the public function -------------------------------------------------------------

def _table(value: Deal | str | DDTable | Mapping) -> DDTable:
    if isinstance(value, DDTable):
        if value.cards != 13:
            raise DealError(f"par needs the whole deal: this table is of hands of "
                            f"{value.cards} cards each")
        return value
    if isinstance(value, (Deal, str)):
        deal = Deal.from_pbn(value) if isinstance(value, str) else value
        if deal.is_complete and deal.cards_per_hand != 13:
            # (a table of an ending counts its few tricks: no contract scores on it)
            raise DealError(f"par needs the whole deal: these hands hold "
                            f"{deal.cards_per_hand} cards each")
        return dd_table(deal)
    if isinstance(value, Mapping):
        return DDTable.from_dict(value)
    raise TypeError(f"par() needs a Deal, a PBN deal string or a DDTable, "
                    f"not {type(value).__name__}")


def par(deal_or_table: Deal | str | DDTable | Mapping, vul: VulnerabilityLike = "none",
        dealer: SeatLike = "N") -> ParResult:
    """Par for a deal, or for its double-dummy table.

    :param deal_or_table: a :class:`cardgames.hands.Deal` or a PBN deal string (solved
        with :func:`ddsolver.solver.dd_table`), a :class:`ddsolver.solver.DDTable`, or a
        table as a dict (``{"N": {"S": 5, ...}, ...}``, as :meth:`DDTable.to_dict` gives).
    :param vul: ``none``/``ns``/``ew``/``both`` in any case, or ``"-"``, ``"All"``, a
        :class:`cardgames.scoring.Vulnerability` (see :meth:`Vulnerability.parse`).
    :param dealer: a seat letter or :class:`cardgames.cards.Seat`.
    :raises ParseError: for a bad vulnerability, dealer or PBN string.
    :raises DealError: for an incomplete or impossible deal.
    :raises TypeError: for anything that is neither a deal nor a table.
    """
    try:
        vulnerability = Vulnerability.parse(vul)
    except ParseError as err:
        raise ParseError(f"vul: {err.message}", err.text) from None
    try:
        seat = Seat.parse(dealer)
    except ParseError as err:
        raise ParseError(f"dealer: {err.message}", err.text) from None
    table = _table(deal_or_table)
    score_ns, contracts = _Par(table, vulnerability, seat).solve()
    return ParResult(score_ns, contracts, vulnerability, seat)
