"""The output of ``ddsolver leads``: opening-lead reports of one hand, or of every board of
PBN files, as text, JSON or CSV.

One report as text (:func:`report_text`, what ``str(report)`` and
:meth:`~ddsolver.leads.LeadReport.to_text` give) or CSV (:func:`report_csv`); its JSON is
the report's own data (:meth:`~ddsolver.leads.LeadReport.to_dict`).  :class:`LeadsWriter`
puts one or many reports into one output, with the session's summary of the leads made at
the table.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from cardgames.cards import Seat
from cardgames.errors import CardgamesError

from ..stats import normal_tail
from .csv_cells import text_cell

if TYPE_CHECKING:
    from ..leads import LeadReport, LeadRow, TableLead

__all__ = ["LeadsWriter", "LeaderTotal", "leader_totals", "report_text", "report_csv",
           "report_csv_rows", "table_lead_text", "summary_text", "CSV_FIELDS"]

_SEATS = {"N": "North", "E": "East", "S": "South", "W": "West"}
#: The longest constraint the text report writes out whole.
_LONGEST = 240

#: The columns of :func:`report_csv`.
CSV_FIELDS = ("label", "n", "mean", "var", "sd", "se", "ci_low", "ci_high", "p_set",
              "p_set_low", "p_set_high", "score", "score_se", "diff_tricks", "diff_tricks_se",
              "diff_imps", "diff_imps_se", "mp_vs_best", "mp_vs_best_se", "mp_field",
              "mp_field_se", "p_best", "best", "close", "tied", "table")


# ---- one report ---------------------------------------------------------------------------

def report_csv(report: LeadReport, *, header: bool = True) -> str:
    """One line per lead, the columns of :data:`CSV_FIELDS`; ``table`` is 1 on the row of
    the lead made at the table."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    if header:
        w.writerow(CSV_FIELDS)
    w.writerows(report_csv_rows(report))
    return out.getvalue()


def report_csv_rows(report: LeadReport) -> list[list[str | int]]:
    """The rows of :func:`report_csv` without its header, as cells (columns
    :data:`CSV_FIELDS`), for a writer that puts columns of its own before them."""
    table = report.table.label if report.table is not None else None
    return [[r.label, r.n, *(_fmt(x) for x in (
            r.mean, r.var, r.sd, r.se, r.ci[0], r.ci[1], r.p_set, r.p_set_ci[0],
            r.p_set_ci[1], r.score, r.score_se, r.diff_tricks, r.diff_tricks_se,
            r.diff_imps, r.diff_imps_se, r.mp_vs_best, r.mp_vs_best_se, r.mp_field,
            r.mp_field_se, r.p_best)), int(r.best), int(r.close), int(r.tied),
            int(r.label == table)] for r in report.rows]


def report_text(report: LeadReport) -> str:
    """A readable table, best lead first."""
    vul = str(report.vulnerability)
    lines = [f"Opening lead by {report.leader.letter} from {report.hand.to_pbn()} against "
             f"{report.contract.call} by {report.declarer.letter}, vulnerable: {vul}"]
    if report.auction is not None:
        lines.append(f"Auction {report.auction}, read by "
                     f"{report.system if report.system is not None else 'no system'}")
    stop = ""
    if report.stopped_early:
        stop = ", stopped early: best lead clear" + (
            " (but for the leads tied with it)" if any(r.tied for r in report.rows) else "")
    cons = "by seat:" if report.constraints else "none"
    lines.append(f"{report.samples} deal{'s' * (report.samples != 1)}, seed {report.seed}, acceptance rate "
                 f"{100 * report.acceptance_rate:.3g}% ({report.attempts:,} dealt){stop}; "
                 f"constraints: {cons}")
    lines += _constraint_lines(report)
    lines += [f"  the real {_SEATS[k]} hand {verb}: {v}"
              for verb, seats in real_hands(report) for k, v in seats.items()]
    if report.unknown_calls:
        lines.append("  calls the system does not know (each costs only its own "
                     "information): " + "; ".join(report.unknown_calls))
    lines += [f"  note: {n}" for n in report.notes]
    if report.table is not None:
        lines.append(table_lead_text(report.table, report.best.label))
    lines.append(f"'*' best by {report.criterion}; '=' within {report.z:.2f} paired SE of the "
                 f"best; 'tied': equal to it on every deal"
                 + ("" if report.criterion == "mean" else f" by {report.criterion}")
                 + ("; '>' the lead made at the table" if report.table is not None else ""))
    # the marks and the label
    w = max(9, *(len(r.label) for r in report.rows)) + (2 if report.table is not None else 1)
    ci = f"{100 * (1 - 2 * normal_tail(report.z)):.3g}% CI"

    lines += ["", "Defence's tricks (mean, its standard error, variance, SD, interval); % of "
                  "deals", "that beat the contract (Wilson interval); defence's mean score "
                  "and its SE; % of deals on", "which the lead takes the most tricks any "
                  "lead takes (best%)"]
    head = (f"{'lead':<{w}}{'tricks':>7}{'se':>6}{'var':>6}{'sd':>6}{ci:>12}{'set%':>6}"
            f"{ci:>12}{'score':>8}{'±se':>7}{'best%':>7}")
    lines += [head, "-" * len(head)]
    for r in report.rows:
        lines.append(
            f"{_report_mark(report, r)}{r.label:<{w - 1}}{r.mean:>7.3f}{_f(r.se, 3):>6}"
            f"{_f(r.var, 2):>6}"
            f"{_f(r.sd, 2):>6}{_pair(r.ci, 2):>12}{100 * r.p_set:>6.1f}"
            f"{_pair(r.p_set_ci, 1, 100):>12}{r.score:>8.1f}{_f(r.score_se, 1):>7}"
            f"{_f(100 * r.p_best, 1):>7}")

    lines += ["", "Against the best lead on the same deals (paired): mean difference in "
                  "tricks, in", "IMPs, matchpoint % against the best alone and in the "
                  "field of all leads; each ± its SE"]
    head = (f"{'lead':<{w}}{'dtricks':>8}{'±se':>7}{'dIMPs':>8}{'±se':>6}{'MPvsBest':>9}"
            f"{'±se':>6}{'MPfield':>8}{'±se':>6}")
    lines += [head, "-" * len(head)]
    for r in report.rows:
        lines.append(
            f"{_report_mark(report, r)}{r.label:<{w - 1}}{r.diff_tricks:>+8.3f}"
            f"{_f(r.diff_tricks_se, 3):>7}"
            f"{r.diff_imps:>+8.2f}{_f(r.diff_imps_se, 2):>6}{r.mp_vs_best:>9.1f}"
            f"{_f(r.mp_vs_best_se, 1):>6}{r.mp_field:>8.1f}{_f(r.mp_field_se, 1):>6}"
            f"{'  tied' if r.tied else ''}")
    return "\n".join(lines)


def _report_mark(report: LeadReport, r: LeadRow) -> str:
    """The row's marks: ``*``, ``=`` or a space; then ``>`` on the table's lead (only
    when the report has one, so the tables of a report without it keep their layout)."""
    if report.table is None:
        return _mark(r)
    return _mark(r) + (">" if r.label == report.table.label else " ")


def real_hands(report: LeadReport) -> tuple[tuple[str, dict[str, str]], ...]:
    """What the real hidden hands do against their constraints, for the report: the seats
    whose hand breaks its constraint, then those whose hand strays from the usual ranges
    (inside the constraint), each with its verb."""
    return ("breaks", report.broken), ("strays from the usual", report.strays)


def _constraint_lines(report: LeadReport) -> list[str]:
    """One line per constrained seat: its role, its constraint, and the share of
    random deals (the leader's hand given) its constraint accepts on its own."""
    if not report.constraints:
        return []
    roles = {report.declarer: "declarer", report.declarer.partner: "dummy",
             report.leader.partner: "partner"}
    out = []
    for key, text in report.constraints.items():
        try:
            seat = Seat.parse(key)
        except CardgamesError:
            out.append(f"  {key}: {text}")
            continue
        rate = report.seat_rates.get(key)
        alone = f"  [alone {100 * rate:.3g}% of deals]" if rate is not None else ""
        if len(text) > _LONGEST:  # a pass that denies a whole table of openings
            text = (f"{text[:_LONGEST - 30].rstrip()} ... ({len(text)} characters: "
                    f"all of it in JSON)")
        out.append(f"  {_SEATS[key]} ({roles.get(seat, '')}): {text}{alone}")
    return out


def table_lead_text(lead: TableLead, best: str) -> str:
    """One line: the lead, its place, its costs with their SEs, the real deal."""
    who = f" by {lead.player}" if lead.player else ""
    if lead.place == 1:
        cost = "the best lead over these deals: costs nothing"
    elif lead.tied:
        cost = (f"ranked {lead.place} of {lead.leads}, tied with {best} on every one of "
                "these deals: costs nothing")
    else:
        cost = (f"ranked {lead.place} of {lead.leads}; costs {lead.cost_tricks:.3f} ± "
                f"{_f(lead.cost_tricks_se, 3)} tricks, {lead.cost_imps:.2f} ± "
                f"{_f(lead.cost_imps_se, 2)} IMPs, {lead.cost_mp:.1f} ± "
                f"{_f(lead.cost_mp_se, 1)} MP% against {best}")
    real = ""
    if lead.real_tricks is not None:
        real = (f"; on the real deal {lead.real_tricks} trick"
                f"{'s' * (lead.real_tricks != 1)} double dummy")
        if lead.real_cost:
            real += f" ({lead.real_cost} fewer than the best lead there)"
        else:
            real += " (as many as any lead)"
    return f"Lead at the table: {lead.card}{who} ({lead.label}): {cost}{real}"


def _mark(r: LeadRow) -> str:
    return "*" if r.best else ("=" if r.close else " ")


def _pair(p: tuple[float, float], digits: int, scale: float = 1.0) -> str:
    return f"{_f(p[0] * scale, digits)}-{_f(p[1] * scale, digits)}"


def _fmt(x: float) -> str:
    return "" if not math.isfinite(x) else repr(float(x))


# ---- many reports -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LeaderTotal:
    """The leads one player made at the table over a session, set against the best lead
    of each board's sample: costs added up over the boards, their SEs combined as those of
    independent estimates (the root of the sum of squares)."""

    player: str                    # the name, or "West (no name)"
    boards: int
    best: int                      # boards where the table's lead was the best (or tied)
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
            who, n, sum(lead.best for lead in ls),
            sum(lead.cost_tricks for lead in ls), root([lead.cost_tricks_se for lead in ls]),
            sum(lead.cost_imps for lead in ls), root([lead.cost_imps_se for lead in ls]),
            sum(lead.cost_mp for lead in ls) / n, root([lead.cost_mp_se for lead in ls]) / n,
            sum(real), len(real)))
    return out


def heading_board(where: dict) -> str:
    """``" board 4-1"`` (or ``""``) for the heading of a report from ``where``: the board's
    name (:func:`ddsolver.boards.board_name`), else its number."""
    name = where.get("name", where.get("board"))
    return f" board {name}" if name is not None else ""


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
            if where:   # the board's number (or null): "name" is for people
                item = {**{k: v for k, v in where.items() if k != "name"}, **item}
            if self.many:
                self.json_items.append(item)
            else:
                self.out.write(json.dumps(item, indent=2) + "\n")
        elif self.fmt == "csv":
            if not self.many:
                self.out.write(report_csv(report, header=self.csv_header))
            else:
                # Through the csv module, so a file name with a comma or a quote stays one
                # cell, and guarded: a file name is text from the input (csv_cells).
                rows = csv.writer(self.out, lineterminator="\n")
                if self.csv_header:
                    rows.writerow(["source", "line", "board", *CSV_FIELDS])
                place = where or {}
                name = place.get("name", place.get("board"))
                prefix = [text_cell(place.get("source", "")),
                          "" if place.get("line") is None else place["line"],
                          "" if name is None else text_cell(str(name))]
                rows.writerows([*prefix, *row] for row in report_csv_rows(report))
            self.csv_header = False
        else:
            if where:
                self.out.write(f"{where['source']}:{where['line']}{heading_board(where)}\n")
            self.out.write(report_text(report) + "\n\n")
        self.out.flush()

    def finish(self, problems: Sequence[str] = ()) -> None:
        """Write what comes after the boards: the JSON of many boards (an object of
        ``boards`` and ``leaders``), or the text summary of the leads made at the table.
        ``problems`` (the boards left out, as reported on standard error) are for the
        HTML page to list; the other formats leave them to standard error."""
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
