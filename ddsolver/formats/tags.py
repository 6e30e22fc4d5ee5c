"""The standard PBN tags of double-dummy results (PBN 2.1): ``OptimumResultTable``,
``OptimumScore`` and ``ParContract``; and ``DoubleDummyTricks``, which BridgeComposer,
RealBridge and endplay write beside them (not in the standard).  An input's tables are read
back (:func:`table_entries`) to tell whether they agree with the solver's.

    >>> from ddsolver import DDTable
    >>> table = DDTable.from_dict({d: {s: 6 for s in ("S", "H", "D", "C", "NT")}
    ...                            for d in "NESW"})
    >>> result_table_lines(table)[:2]
    ['N NT  6', 'N  S  6']
"""

from __future__ import annotations

import re

from cardgames import pbn
from cardgames.cards import Seat, Strain
from cardgames.errors import ParseError

from ..par import ParResult
from ..solver import STRAIN_ORDER, DDTable

__all__ = ["RESULT_TABLE_HEADER", "result_table_lines", "optimum_score_tag",
           "par_contract_tag", "double_dummy_tricks_tag", "DDT_SEATS", "table_entries"]

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


#: The order of the declarers in ``DoubleDummyTricks``: N S E W (each with its strains NT
#: S H D C), as every file holding the tag writes it (BridgeComposer, RealBridge, endplay),
#: not the N E S W of the result table.
DDT_SEATS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
_DDT = re.compile(r"[0-9a-dA-D]{20}\Z")


def double_dummy_tricks_tag(table: DDTable, upper: bool = False) -> str:
    """The ``DoubleDummyTricks`` value: 20 hex digits, one a declarer and strain (declarers
    N S E W, strains NT S H D C), lower case as the files write them unless ``upper``."""
    text = "".join(f"{table.tricks(d, s):x}" for d in DDT_SEATS for s in STRAIN_ORDER)
    return text.upper() if upper else text


# The columns of a result table, by the names its header gives them.
_COLUMNS = {"declarer": 0, "denomination": 1, "suit": 1, "strain": 1, "result": 2,
            "tricks": 2}


def table_entries(tag: pbn.Tag) -> list[tuple[Seat, Strain, int]] | None:
    """The tricks an input's ``OptimumResultTable`` or ``DoubleDummyTricks`` gives, as
    (declarer, strain, tricks), or None for a value that does not read as one (a table
    whose header does not name its Declarer, Denomination and Result columns, a row that
    does not read, a ``DoubleDummyTricks`` that is not 20 hex digits).  A result table
    may hold some rows only (one row: the contract played)."""
    if tag.name == "DoubleDummyTricks":
        value = tag.value.strip()
        if not _DDT.match(value):
            return None
        return [(d, s, int(value[5 * i + j], 16)) for i, d in enumerate(DDT_SEATS)
                for j, s in enumerate(STRAIN_ORDER)]
    # "Declarer;Denomination\2R;Result\2R" (PBN), "Declarer Suit Tricks" (BBA)
    names = tag.value.split(";") if ";" in tag.value else tag.value.split()
    where: dict[int, int] = {}  # role (declarer, strain, tricks) -> column
    for column, name in enumerate(names):
        role = _COLUMNS.get(name.split("\\")[0].strip().lower())
        if role is not None:
            where.setdefault(role, column)
    if len(where) != 3:
        return None
    entries = []
    for row in tag.section:
        cells = row.split()
        if len(cells) != len(names):
            return None
        seat, strain, tricks = (cells[where[role]] for role in range(3))
        if not tricks.isdigit() or int(tricks) > 13:
            return None
        try:
            entries.append((Seat.parse(seat), Strain.parse(strain), int(tricks)))
        except ParseError:
            return None
    return entries
