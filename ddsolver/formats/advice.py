"""The single-dummy advice as text and CSV (``ddsolver advise``, and ``str(report)`` of an
:class:`~ddsolver.advise.AdviceReport`); its JSON is the report's own data
(:meth:`~ddsolver.advise.AdviceReport.to_dict`).
"""

from __future__ import annotations

import csv
import io
import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..advise import AdviceReport

__all__ = ["advice_text", "advice_csv", "advice_csv_rows", "ADVICE_CSV_FIELDS"]

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
