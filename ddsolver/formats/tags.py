"""The standard PBN tags of double-dummy results (PBN 2.1): ``OptimumResultTable``,
``OptimumScore`` and ``ParContract``.

    >>> from ddsolver import DDTable
    >>> table = DDTable.from_dict({d: {s: 6 for s in ("S", "H", "D", "C", "NT")}
    ...                            for d in "NESW"})
    >>> result_table_lines(table)[:2]
    ['N NT  6', 'N  S  6']
"""

from __future__ import annotations

from cardgames.cards import Seat

from ..par import ParResult
from ..solver import STRAIN_ORDER, DDTable

__all__ = ["RESULT_TABLE_HEADER", "result_table_lines", "optimum_score_tag",
           "par_contract_tag"]

#: The header of the standard ``OptimumResultTable`` (PBN 2.1): three columns, the last
#: two right-aligned in a width of 2.
RESULT_TABLE_HEADER = "Declarer;Denomination\\2R;Result\\2R"


def result_table_lines(table: DDTable) -> list[str]:
    """The rows of an ``OptimumResultTable``: ``N NT 13``, ``N  S 12``... declarers N E S
    W, denominations NT S H D C."""
    return [f"{d.letter} {s.letter:>2} {table.tricks(d, s):>2}" for d in Seat
            for s in STRAIN_ORDER]


def optimum_score_tag(result: ParResult) -> str:
    """The ``OptimumScore`` value: the side that scores, then the score (``NS 620``,
    ``EW 100``; ``NS 0`` for a deal passed out)."""
    side = "EW" if result.score < 0 else "NS"
    return f"{side} {abs(result.score)}"


def par_contract_tag(result: ParResult) -> str:
    """The ``ParContract`` value: each par contract as declarer(s), contract, ``X`` when
    doubled and the result, separated by ``"; "``: ``NS 4H+1``, ``E 4SX-2; W 4SX-2``...
    ``Pass`` for a deal passed out."""
    if not result.contracts:
        return "Pass"
    parts = []
    for c in result.contracts:
        seats = "".join(s.letter for s in c.declarers)
        mark = f"{c.result:+d}" if c.result else "="
        parts.append(f"{seats} {c.level}{c.strain.letter}{'X' if c.doubled else ''}{mark}")
    return "; ".join(parts)
