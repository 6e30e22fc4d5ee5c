"""The single-dummy advice as text and CSV (``ddsolver advise``, and ``str(report)`` of an
:class:`~ddsolver.advise.AdviceReport`; its JSON is the report's own data,
:meth:`~ddsolver.advise.AdviceReport.to_dict`), and the review of the play of PBN boards
(:mod:`ddsolver.board_advice`) as text, JSON or CSV.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardgames.cards import Seat

from ..boards import where

if TYPE_CHECKING:
    from ..advise import AdviceReport
    from ..board_advice import Decision

__all__ = ["advice_text", "advice_csv", "advice_csv_rows", "ADVICE_CSV_FIELDS",
           "review_text", "review_json", "review_csv", "REVIEW_CSV_FIELDS"]

#: The columns of :func:`advice_csv`.
ADVICE_CSV_FIELDS = ("label", "n", "mean", "var", "sd", "se", "ci_low", "ci_high", "chance",
                     "chance_low", "chance_high", "score", "score_se", "diff_tricks",
                     "diff_tricks_se", "diff_imps", "diff_imps_se", "mp_vs_best",
                     "mp_vs_best_se", "mp_field", "mp_field_se", "best", "close", "tied",
                     "alphamu", "alphamu_front")


def advice_text(report: AdviceReport) -> str:
    """The advice as a readable table: PIMC's columns and, when it was run, αμ's."""
    v = report.view
    side = "defence" if report.defending else "declarer's side"
    goal = "beat" if report.defending else "make"
    played = " ".join(map(str, v.played)) or "nothing yet"
    lines = [f"{report.mover.letter} to play ({side}), {v.seat.letter}'s view; "
             f"{report.contract.call} by {report.declarer.letter}, vulnerable: "
             f"{report.vulnerability}; played: {played}",
             f"Worlds: {report.worlds.how}"]
    am = report.alphamu
    if am is not None:
        lines.append(f"αμ, depth {am.depth}: best {am.best.label}, makes in "
                     f"{am.best.makes} of {am.worlds} worlds ({100 * am.best.chance:.1f}%); "
                     f"{am.nodes:,} nodes, {am.leaves:,} world solves, "
                     f"{am.seconds:.2f} s")
    lines.append(f"'*' best; '=' within {report.z:.2f} paired SE of the best (PIMC)")
    w = max(9, *(len(r.label) for r in report.rows)) + 1
    head = (f"{'card':<{w}}{'tricks':>7}{'se':>6}{'sd':>6}{goal + '%':>7}"
            f"{'score':>8}{'dtricks':>8}{'dIMPs':>7}{'MPvsBest':>9}")
    if am is not None:
        head += f"{'αμ ' + goal + '%':>9}{'front':>6}"
    lines += ["", "PIMC: tricks for the mover's side (whole deal), % of worlds that "
                  f"{goal} the contract, score;", "paired against the best card", head,
              "-" * len(head)]
    for r in report.rows:
        mark = "*" if r.best else ("=" if r.close else " ")
        line = (f"{mark}{r.label:<{w - 1}}{r.mean:>7.3f}{_f(r.se, 3):>6}{_f(r.sd, 2):>6}"
                f"{100 * r.chance:>7.1f}{r.score:>8.1f}{r.diff_tricks:>+8.3f}"
                f"{r.diff_imps:>+7.2f}{r.mp_vs_best:>9.1f}")
        if am is not None:
            line += f"{100 * (r.alphamu or 0.0):>9.1f}{r.alphamu_front or 0:>6}"
        lines.append(line)
    return "\n".join(lines)


def advice_csv(report: AdviceReport, *, header: bool = True) -> str:
    """One line per card group, the columns of :data:`ADVICE_CSV_FIELDS`."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    if header:
        w.writerow(ADVICE_CSV_FIELDS)
    w.writerows(advice_csv_rows(report))
    return out.getvalue()


def advice_csv_rows(report: AdviceReport) -> list[list[str | int]]:
    """The rows of :func:`advice_csv` without its header (columns :data:`ADVICE_CSV_FIELDS`)."""
    return [[r.label, r.n, *(_fmt(x) for x in (
        r.mean, r.var, r.sd, r.se, r.ci[0], r.ci[1], r.chance, r.chance_ci[0],
        r.chance_ci[1], r.score, r.score_se, r.diff_tricks, r.diff_tricks_se,
        r.diff_imps, r.diff_imps_se, r.mp_vs_best, r.mp_vs_best_se, r.mp_field,
        r.mp_field_se)), int(r.best), int(r.close), int(r.tied),
        "" if r.alphamu is None else repr(r.alphamu),
        "" if r.alphamu_front is None else r.alphamu_front] for r in report.rows]


def _f(x: float, digits: int) -> str:
    return "-" if not math.isfinite(x) else f"{x:.{digits}f}"


def _fmt(x: float) -> str:
    return "" if not math.isfinite(x) else repr(float(x))


# ---- the review of a play ------------------------------------------------------------------

#: The columns of :func:`review_csv`.
REVIEW_CSV_FIELDS = ("file", "line", "board", "contract", "trick", "seat", "card", "best",
                     "value", "best_value", "cost", "worse", "worlds", "exhaustive")


def review_text(decisions: Sequence[Decision],
                upcoming: Sequence[tuple[str, str, AdviceReport]],
                seat: Seat, method: str, depth: int) -> str:
    """Every decision reviewed from ``seat``'s view, a line each (``?`` on a card worse
    than the best) under a line naming its board (where it is, its contract), the count,
    and the advice for the next card of each board whose play stops there (``upcoming``:
    the board's label, where it is, and the advice)."""
    unit = "chance of making" if method == "alphamu" else "mean tricks"
    lines = [f"Single-dummy review from {seat.letter}'s view ({method}"
             f"{f', depth {depth}' if method == 'alphamu' else ''}; value: {unit});"
             f" '?' a card worse than the best"]
    board = None
    for d in decisions:
        if (d.file, d.line, d.board) != board:
            board = (d.file, d.line, d.board)
            place = f"{where(d.file, d.line)}: " if d.file is not None else ""
            lines += ["", f"{place}board {d.board}"
                      f"{f', {d.contract}' if d.contract else ''}"]
        mark = "?" if d.worse else " "
        cost = f"  costs {d.cost:.3f} against {d.best}" if d.worse else ""
        # (a card as good as the best is not told that another card is "best")
        best = (f"best {d.best} {d.best_value:.3f}" if d.worse or str(d.card) in
                d.best.split("/") else f"as good as the best, {d.best}")
        lines.append(f"{mark} board {d.board} trick {d.trick:>2} {d.seat.letter} {d.card!s:<4}"
                     f"{d.value:>8.3f} ({best}; {d.worlds} "
                     f"{'listed' if d.exhaustive else 'sampled'} worlds){cost}")
    worse = sum(d.worse for d in decisions)
    lines.append("")
    lines.append(f"{len(decisions)} decisions reviewed, {worse} worse than the best card")
    for label, located_at, report in upcoming:
        lines += ["", f"{located_at}: board {label}: the play stops here; the next card:",
                  advice_text(report)]
    return "\n".join(lines) + "\n"


def review_json(decisions: Sequence[Decision],
                upcoming: Sequence[tuple[str, str, AdviceReport]]) -> str:
    """The decisions and the next cards' advice as one JSON object."""
    return json.dumps({"decisions": [d.to_dict() for d in decisions],
                       "next": [{"board": b, "where": w, **r.to_dict()}
                                for b, w, r in upcoming]},
                      indent=2) + "\n"


def review_csv(decisions: Sequence[Decision]) -> str:
    """One line per decision, the columns of :data:`REVIEW_CSV_FIELDS`."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(REVIEW_CSV_FIELDS)
    for d in decisions:
        row = d.to_dict()
        w.writerow([int(row[f]) if isinstance(row[f], bool) else row[f]
                    for f in REVIEW_CSV_FIELDS])
    return out.getvalue()
