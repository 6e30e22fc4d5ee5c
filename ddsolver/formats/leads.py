"""The output of ``ddsolver leads``: opening-lead reports of one hand, or of every board of
PBN files, as text, JSON or CSV.

A single report's own forms are :meth:`~ddsolver.leads.LeadReport.to_text`, ``to_json`` and
``to_csv``; :class:`LeadsWriter` puts one or many of them into one output.
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass
from typing import TextIO

from ..leads import CSV_FIELDS, LeadReport, TableLead
from .csv_cells import text_cell

__all__ = ["LeadsWriter", "LeaderTotal", "leader_totals"]

_SEATS = {"N": "North", "E": "East", "S": "South", "W": "West"}


@dataclass(frozen=True, slots=True)
class LeaderTotal:
    """The leads one player made at the table over a session, set against the best lead
    of each board's sample: costs added up over the boards, their SEs combined as those of
    independent estimates (the root of the sum of squares)."""

    player: str                    # the name, or "West (no name)"
    boards: int
    best: int                      # boards where the table's lead was the best
    cost_tricks: float             # summed over the boards
    cost_tricks_se: float
    cost_imps: float               # summed
    cost_imps_se: float
    cost_mp: float                 # matchpoint % lost, averaged over the boards
    cost_mp_se: float
    real_cost: int                 # double-dummy tricks lost on the real deals
    real_boards: int               # boards whose real deal was known

    def to_dict(self) -> dict:
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                for k, v in ((k, getattr(self, k)) for k in self.__slots__)}


def leader_totals(leads: list[tuple[str, TableLead]]) -> list[LeaderTotal]:
    """One :class:`LeaderTotal` per player (``leads``: the player's label and a board's
    table lead), in the order the players first lead."""
    by: dict[str, list[TableLead]] = {}
    for who, lead in leads:
        by.setdefault(who, []).append(lead)

    def root(xs: list[float]) -> float:
        return math.sqrt(sum(x * x for x in xs))

    out = []
    for who, ls in by.items():
        n = len(ls)
        real = [lead.real_cost for lead in ls if lead.real_cost is not None]
        out.append(LeaderTotal(
            who, n, sum(lead.place == 1 for lead in ls),
            sum(lead.cost_tricks for lead in ls), root([lead.cost_tricks_se for lead in ls]),
            sum(lead.cost_imps for lead in ls), root([lead.cost_imps_se for lead in ls]),
            sum(lead.cost_mp for lead in ls) / n, root([lead.cost_mp_se for lead in ls]) / n,
            sum(real), len(real)))
    return out


class LeadsWriter:
    """Writes lead reports in ``fmt`` (``"text"``, ``"json"`` or ``"csv"``) as they come.

    ``many`` is true for the reports of PBN boards: each one is headed by where it came
    from (``where``: ``source``, ``line``, ``board``), CSV rows carry those as leading
    columns, and JSON is one array written by :meth:`finish`.
    """

    def __init__(self, fmt: str, out: TextIO, many: bool):
        self.fmt = fmt
        self.out = out
        self.many = many
        self.json_items: list[dict] = []
        self.csv_header = True
        self.table_leads: list[tuple[str, TableLead]] = []

    def add(self, report: LeadReport, where: dict | None) -> None:
        if report.table is not None:
            seat = report.leader.letter
            who = f"{report.table.player} ({seat})" if report.table.player else \
                f"{_SEATS[seat]} (no name)"
            self.table_leads.append((who, report.table))
        if self.fmt == "json":
            item = report.to_dict()
            if where:
                item = {**where, **item}
            if self.many:
                self.json_items.append(item)
            else:
                self.out.write(json.dumps(item, indent=2) + "\n")
        elif self.fmt == "csv":
            if not self.many:
                self.out.write(report.to_csv(header=self.csv_header))
            else:
                # Through the csv module, so a file name with a comma or a quote stays one
                # cell, and guarded: a file name is text from the input (csv_cells).
                rows = csv.writer(self.out, lineterminator="\n")
                if self.csv_header:
                    rows.writerow(["source", "line", "board", *CSV_FIELDS])
                place = where or {}
                prefix = [text_cell(place.get("source", "")),
                          *("" if place.get(k) is None else place[k] for k in ("line", "board"))]
                rows.writerows([*prefix, *row] for row in report.csv_rows())
            self.csv_header = False
        else:
            if where:
                board = f" board {where['board']}" if where.get("board") is not None else ""
                self.out.write(f"{where['source']}:{where['line']}{board}\n")
            self.out.write(report.to_text() + "\n\n")
        self.out.flush()

    def finish(self) -> None:
        """Write what comes after the boards: the JSON of many boards (an object of
        ``boards`` and ``leaders``), or the text summary of the leads made at the table."""
        totals = leader_totals(self.table_leads)
        if self.fmt == "json" and self.many:
            self.out.write(json.dumps({"boards": self.json_items,
                                       "leaders": [t.to_dict() for t in totals]},
                                      indent=2) + "\n")
        elif self.fmt == "text" and totals:
            self.out.write(summary_text(totals) + "\n")
        self.out.flush()


def summary_text(totals: list[LeaderTotal]) -> str:
    """The session's leads at the table by player, as a table."""
    w = max(12, *(len(t.player) for t in totals)) + 2
    lines = ["Leads made at the table, by player: what they cost against the best lead of "
             "each board's", "sample (tricks and IMPs added up over the boards, MP% "
             "averaged; each ± its SE), and", "double-dummy tricks lost on the real deals"]
    head = (f"{'player':<{w}}{'boards':>7}{'best':>5}{'tricks':>8}{'±se':>7}{'IMPs':>8}"
            f"{'±se':>7}{'MP%':>7}{'±se':>6}{'real':>6}")
    lines += [head, "-" * len(head)]
    for t in totals:
        real = f"{t.real_cost}" if t.real_boards == t.boards else \
            (f"{t.real_cost}/{t.real_boards}" if t.real_boards else "-")
        lines.append(f"{t.player:<{w}}{t.boards:>7}{t.best:>5}{t.cost_tricks:>8.3f}"
                     f"{_f(t.cost_tricks_se, 3):>7}{t.cost_imps:>8.2f}{_f(t.cost_imps_se, 2):>7}"
                     f"{t.cost_mp:>7.1f}{_f(t.cost_mp_se, 1):>6}{real:>6}")
    return "\n".join(lines) + "\n"


def _f(x: float, digits: int) -> str:
    return "-" if not math.isfinite(x) else f"{x:.{digits}f}"
