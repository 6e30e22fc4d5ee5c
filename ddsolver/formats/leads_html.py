"""Opening-lead reports as HTML: one self-contained page (``ddsolver leads --format html``)
and the fragment a notebook shows (``LeadReport._repr_html_``).

For each report: the deal as the leader sees it (their own hand; the hidden hands with the
constraints they were dealt under), the settings and the constraints as given, the table of
leads (every figure of the text report), and for every lead a chart of how many tricks the
leader's side took over the sampled deals: one bar per number of tricks, red where the
contract is beaten, grey where it makes, with the mean marked, its confidence interval
drawn above the bars, and the chance to set written beside it.  The charts are inline SVG
drawn here (no plotting library, no script, nothing fetched), on one scale within a report
so leads can be compared by eye.

A report that cannot be charted says so in words: no deal sampled, one deal (no standard
error, so no interval), or no per-deal tricks kept.  Undefined figures are written ``-``,
as in the text report, and never reach an SVG coordinate.  The output depends only on the
report: the same seed gives the same bytes.

>>> from ddsolver.leads import summarise_leads
>>> import numpy as np
>>> r = summarise_leads("KQ72.J83.T94.A65", "4S", "S", "none",
...                     np.array([[4] * 13, [3] * 13, [5] * 13]))
>>> fragment = report_fragment(r)
>>> fragment.count("<svg") == len(r.rows), "<script" in fragment
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TextIO

import numpy as np

from cardgames.cards import Card, Seat, Strain
from cardgames.errors import CardgamesError
from cardgames.hands import Deal, Hand
from cardgames.html import FRAGMENT_CSS, RED_SUITS, SEAT_NAME, SUIT_SYMBOL, esc, hand_html, unknown_hand_html

from ..leads import LeadReport, LeadRow
from ..stats import normal_tail
from . import GENERATOR
from .hand_records import PROBLEMS_CSS, problems_html
from .leads import LeaderTotal, LeadsWriter, heading_board, leader_totals, real_hands, table_lead_text

__all__ = ["report_html", "report_fragment", "LeadsHtmlWriter", "trick_counts"]

# Colours: the contract beaten (the leader's side's success) and made.
SET_COLOUR = "#c8102e"
MADE_COLOUR = "#9aa3ad"
# The line where the contract goes down and the chance to set, written: darker than the
# bars, so the bars' colour on screen is the bars'.
SET_TEXT_COLOUR = "#8a1020"

# The chart's geometry, in SVG user units (1 unit = 1 CSS px at the default size).
_W, _H = 320, 168
_LEFT, _RIGHT, _TOP, _BOTTOM = 12, 12, 40, 34

_CSS = (
    ".dds-leads{font-family:\"DejaVu Sans\",Arial,Helvetica,sans-serif;font-size:10.5pt;"
    "color:#111;background:#fff;line-height:1.35}"
    ".dds-leads .num,.dds-leads td{font-variant-numeric:tabular-nums}"
    ".dds-leads section.lead-report{border:0.8pt solid #999;border-radius:2mm;padding:3mm 4mm;"
    "margin:0 0 5mm 0}"
    ".dds-leads h2{font-size:13pt;margin:0 0 1mm 0}"
    ".dds-leads .where{color:#555;font-size:9pt;margin:0 0 2mm 0;overflow-wrap:anywhere}"
    ".dds-leads .top{display:flex;flex-wrap:wrap;gap:3mm 8mm;align-items:flex-start}"
    ".dds-leads .cg-deal{padding:0}"
    ".dds-leads .unknown-hand{max-width:46mm;white-space:normal;font-size:8.5pt}"
    ".dds-leads table{border-collapse:collapse}"
    ".dds-leads table.settings th{text-align:left;font-weight:normal;color:#555;"
    "padding:0 3mm 0 0;vertical-align:top;white-space:nowrap}"
    ".dds-leads table.settings td{padding:0;overflow-wrap:anywhere}"
    ".dds-leads h3{font-size:10.5pt;margin:3mm 0 1mm 0}"
    ".dds-leads ul.constraints{margin:0;padding-left:5mm}"
    ".dds-leads ul.constraints li{overflow-wrap:anywhere}"
    ".dds-leads .rate{color:#555;font-size:9pt}"
    ".dds-leads .notice{border:1pt solid #c8102e;border-radius:1.5mm;padding:1.5mm 3mm;"
    "margin:2mm 0;background:#fff6f6}"
    ".dds-leads .table-wrap{overflow-x:auto;margin:2mm 0}"
    ".dds-leads table.leads{font-size:9pt}"
    ".dds-leads table.leads th,.dds-leads table.leads td{border:0.5pt solid #bbb;"
    "padding:0.4mm 1.1mm;text-align:right;white-space:nowrap}"
    ".dds-leads table.leads th{background:#f0f0f0;font-weight:normal;text-align:center}"
    ".dds-leads table.leads td.lead{text-align:left;font-weight:bold}"
    ".dds-leads table.leads tr.best td{background:#fff3c4}"
    ".dds-leads table.leads td.mark{text-align:center}"
    ".dds-leads .red{color:#c8102e}"
    ".dds-leads .legend{font-size:9pt;color:#333;margin:2mm 0}"
    ".dds-leads .legend span.key{display:inline-block;width:3mm;height:3mm;"
    "vertical-align:-0.3mm;margin:0 1mm 0 3mm;border:0.4pt solid #555}"
    ".dds-leads .legend span.line{display:inline-block;width:0;height:3.4mm;"
    "vertical-align:-0.6mm;margin:0 1mm 0 3mm;border-left:1.6pt solid #111}"
    ".dds-leads .legend span.ci{display:inline-block;width:5mm;height:0;"
    "vertical-align:0.8mm;margin:0 1mm 0 3mm;border-top:1.6pt solid #1f4e99}"
    ".dds-leads .charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(82mm,1fr));"
    "gap:3mm 4mm}"
    ".dds-leads figure.lead-chart{margin:0;break-inside:avoid;page-break-inside:avoid;"
    "display:flex;flex-direction:column}"
    ".dds-leads figure.lead-chart svg{margin-top:auto}"
    ".dds-leads figure.lead-chart figcaption{font-size:9pt;margin:0 0 0.5mm 0}"
    ".dds-leads figure.lead-chart figcaption b{font-size:10pt}"
    ".dds-leads svg.dist{display:block;width:100%;max-width:120mm;height:auto}"
    ".dds-leads table.leaders td,.dds-leads table.leaders th{border:0.5pt solid #bbb;"
    "padding:0.4mm 1.6mm;text-align:right}"
    ".dds-leads table.leaders td.player{text-align:left}"
    # On paper a wide table cannot scroll: it is set smaller to fit the page's width.
    "@media print{.dds-leads .table-wrap{overflow:visible}"
    ".dds-leads table.leads{font-size:6pt}"
    ".dds-leads table.leads th,.dds-leads table.leads td{padding:0.2mm 0.5mm}"
    ".dds-leads table.leads th{white-space:normal}}"
)

_PAGE_CSS = (
    "*{box-sizing:border-box}"
    "body{margin:0;padding:8mm;background:#fff}"
    "header.page{border-bottom:1.5pt solid #333;margin-bottom:5mm;padding-bottom:2mm}"
    "header.page h1{font-size:15pt;margin:0 0 1mm 0}"
    "header.page p{margin:0;color:#444;font-size:9pt}"
    "footer.page{margin-top:5mm;font-size:8pt;color:#666}"
    "@media print{body{padding:0;-webkit-print-color-adjust:exact;print-color-adjust:exact}}"
)

_STRAIN_TEXT = {Strain.NOTRUMP: "NT", Strain.SPADES: "\u2660", Strain.HEARTS: "\u2665",
                Strain.DIAMONDS: "\u2666", Strain.CLUBS: "\u2663"}


# ---- small pieces -----------------------------------------------------------------------------

def _f(x: float, digits: int, *, sign: bool = False, scale: float = 1.0) -> str:
    """``x`` as the text report writes it; ``-`` when it is not defined (NaN)."""
    if not math.isfinite(x):
        return "-"
    return f"{x * scale:+.{digits}f}" if sign else f"{x * scale:.{digits}f}"


def _pair(p: tuple[float, float], digits: int, scale: float = 1.0) -> str:
    if not (math.isfinite(p[0]) and math.isfinite(p[1])):
        return "-"
    return f"{p[0] * scale:.{digits}f}\u2013{p[1] * scale:.{digits}f}"


def _rate(x: float) -> str:
    """A share as a percentage, three significant figures (as the text report writes it)."""
    return f"{100 * x:.3g}%" if math.isfinite(x) else "-"


def _card_html(card: Card) -> str:
    red = ' class="red"' if card.suit in RED_SUITS else ""
    rank = "10" if card.rank == 10 else str(card)[1:]
    return f"<span{red}>{SUIT_SYMBOL[card.suit]}</span>{esc(rank)}"


def _lead_html(row: LeadRow) -> str:
    """``♠K/♠Q``: the equivalent cards, with their suit symbols."""
    return "/".join(_card_html(c) for c in row.cards) if row.cards else esc(row.label)


def _contract_html(report: LeadReport) -> str:
    c = report.contract
    symbol = _STRAIN_TEXT[c.strain]
    if c.strain in (Strain.HEARTS, Strain.DIAMONDS):
        symbol = f'<span class="red">{symbol}</span>'
    return f"{c.level}{symbol}{'X' * c.doubled}"


def _level(z: float) -> str:
    """The confidence level of ``z`` (1.96: ``95%``)."""
    return f"{100 * (1 - 2 * normal_tail(z)):.3g}%" if math.isfinite(z) else "?"


def trick_counts(report: LeadReport) -> list[np.ndarray] | None:
    """Per row of the report, how many sampled deals gave the leader's side 0, 1, ... 13
    tricks with that lead (an array of 14 counts); None when the report kept no per-deal
    tricks (built by hand) or has no deal."""
    tricks = report.card_tricks
    if tricks is None or report.samples == 0 or not report.rows:
        return None
    arr = np.asarray(tricks)
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] != len(report.hand_cards):
        return None
    out = []
    for row in report.rows:
        if not row.cards or row.cards[0] not in report.hand_cards:
            return None
        column = arr[:, report.hand_cards.index(row.cards[0])].astype(np.int64)
        if column.min() < 0 or column.max() > 13:
            return None
        out.append(np.bincount(column, minlength=14))
    return out


# ---- the chart ------------------------------------------------------------------------------

def _chart_svg(row: LeadRow, counts: np.ndarray, lo: int, hi: int, top: int, set_at: int,
               level: str) -> str:
    """One lead's distribution as an SVG histogram of tricks ``lo..hi`` (bars scaled so
    ``top`` deals fill the height), the bars from ``set_at`` tricks up in the set colour;
    the mean as a line, its interval as a bar above; every number also written."""
    bins = hi - lo + 1
    plot_w = _W - _LEFT - _RIGHT
    plot_h = _H - _TOP - _BOTTOM
    bw = plot_w / bins
    base = _TOP + plot_h

    def x_of(t: float) -> float:
        """The x of ``t`` tricks: the centre of its bar (clamped into the plot)."""
        x = _LEFT + (t - lo + 0.5) * bw
        return min(max(x, _LEFT), _LEFT + plot_w)

    def n(v: float) -> str:
        assert math.isfinite(v), v    # never NaN in a coordinate
        return f"{v:.1f}"

    parts = [f'<rect x="0" y="0" width="{_W}" height="{_H}" fill="#fff"/>']
    labels = []     # the counts over the bars, drawn last (over the mean's line)
    for t in range(lo, hi + 1):
        k = int(counts[t])
        x0 = _LEFT + (t - lo) * bw + 0.12 * bw
        cls = "set" if t >= set_at else "made"
        colour = SET_COLOUR if t >= set_at else MADE_COLOUR
        if k:
            h = plot_h * k / top
            parts.append(f'<rect class="bar {cls}" x="{n(x0)}" y="{n(base - h)}" '
                         f'width="{n(0.76 * bw)}" height="{n(h)}" fill="{colour}">'
                         f"<title>{t} trick{'s' * (t != 1)}: {k} deal{'s' * (k != 1)}</title>"
                         "</rect>")
            labels.append(f'<text class="count" x="{n(x_of(t))}" y="{n(base - h - 2)}" '
                          'text-anchor="middle" font-size="9" fill="#333" stroke="#fff" '
                          f'stroke-width="3" paint-order="stroke">{k}</text>')
        parts.append(f'<text class="tick" x="{n(x_of(t))}" y="{n(base + 12)}" '
                     f'text-anchor="middle" font-size="10" fill="#111">{t}</text>')
    parts.append(f'<line x1="{_LEFT}" y1="{n(base)}" x2="{_LEFT + plot_w}" y2="{n(base)}" '
                 'stroke="#555" stroke-width="1"/>')
    if lo < set_at <= hi:   # where the contract starts to go down
        xs = _LEFT + (set_at - lo) * bw
        parts.append(f'<line class="set-line" x1="{n(xs)}" y1="{_TOP - 4}" x2="{n(xs)}" '
                     f'y2="{n(base)}" stroke="{SET_TEXT_COLOUR}" stroke-width="1" '
                     'stroke-dasharray="3 2"/>')
    parts.append(f'<text x="{n(_LEFT + plot_w / 2)}" y="{_H - 4}" text-anchor="middle" '
                 "font-size=\"9.5\" fill=\"#555\">tricks for the leader's side</text>")
    # The mean, and its interval as a bar with end ticks above the plot.
    if math.isfinite(row.mean):
        xm = x_of(row.mean)
        parts.append(f'<line class="mean" x1="{n(xm)}" y1="{_TOP - 18}" x2="{n(xm)}" '
                     f'y2="{n(base)}" stroke="#111" stroke-width="1.6"/>')
        # The label above its line, kept inside the chart near either edge.
        anchor = "start" if xm < _LEFT + 30 else "end" if xm > _W - _RIGHT - 30 else "middle"
        xt = xm - 2 if anchor == "end" else xm + 2 if anchor == "start" else xm
        parts.append(f'<text x="{n(xt)}" y="{_TOP - 22}" text-anchor="{anchor}" '
                     f'font-size="9.5" fill="#111">mean {_f(row.mean, 2)}</text>')
    lo_ci, hi_ci = row.ci
    if math.isfinite(lo_ci) and math.isfinite(hi_ci):
        x1, x2 = x_of(lo_ci), x_of(hi_ci)
        y = _TOP - 12
        parts.append(f'<g class="ci" stroke="#1f4e99" stroke-width="1.6">'
                     f'<line x1="{n(x1)}" y1="{y}" x2="{n(x2)}" y2="{y}"/>'
                     f'<line x1="{n(x1)}" y1="{y - 4}" x2="{n(x1)}" y2="{y + 4}"/>'
                     f'<line x1="{n(x2)}" y1="{y - 4}" x2="{n(x2)}" y2="{y + 4}"/>'
                     f"<title>{level} interval of the mean: {_pair(row.ci, 2)}</title></g>")
    parts.append(f'<text x="{_W - _RIGHT}" y="{_TOP - 32}" text-anchor="end" font-size="9.5" '
                 f'fill="{SET_TEXT_COLOUR}">set {_f(row.p_set, 1, scale=100)}%</text>')
    parts += labels
    deals = int(counts.sum())
    title = f"{row.label}: tricks for the leader's side over {deals} deal{'s' * (deals != 1)}"
    return (f'<svg class="dist" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_W} {_H}" '
            f'width="{_W}" height="{_H}" role="img" font-family="DejaVu Sans,Arial,sans-serif">'
            f"<title>{esc(title)}</title>{''.join(parts)}</svg>")


def _caption(report: LeadReport, row: LeadRow, level: str) -> str:
    """What the chart shows, in words: mean and interval, the chance to set."""
    contract = _contract_html(report)
    if row.n == 1:
        spread = " (one deal: no interval)"
    elif math.isfinite(row.se) and row.se == 0:
        spread = " (every deal the same: the interval has no width)"
    else:
        spread = (f', {level} CI <span class="ci">{_pair(row.ci, 2)}</span>'
                  if math.isfinite(row.ci[0]) else "")
    return (f"<b>{_lead_html(row)}</b> mean <span class=\"mean\">{_f(row.mean, 3)}</span> "
            f"tricks{spread}; sets {contract} on <span class=\"p-set\">"
            f"{_f(row.p_set, 1, scale=100)}</span>% of deals")


def _charts_html(report: LeadReport, counts: list[np.ndarray], level: str) -> str:
    used = [t for c in counts for t in range(14) if c[t]]
    set_at = 14 - report.contract.tricks_needed      # the leader's side's tricks to beat it
    # One scale for the report: every trick count seen, and the point where it goes down.
    lo = max(0, min(*used, set_at - 1))
    hi = min(13, max(*used, set_at))
    top = max(int(c.max()) for c in counts)
    legend = (f'<p class="legend">Bars: deals by tricks for the leader\'s side '
              f'(count above each bar).<span class="key" style="background:{SET_COLOUR}">'
              f'</span>contract beaten (at least {set_at} trick{"s" * (set_at != 1)})'
              f'<span class="key" style="background:{MADE_COLOUR}"></span>contract made'
              f'<span class="line"></span>mean<span class="ci"></span>{level} interval of '
              "the mean</p>")
    figures = []
    for row, c in zip(report.rows, counts):
        figures.append(f'<figure class="lead-chart" data-lead="{esc(row.label)}">'
                       f"<figcaption>{_caption(report, row, level)}</figcaption>"
                       f"{_chart_svg(row, c, lo, hi, top, set_at, level)}</figure>")
    return f'{legend}<div class="charts">{"".join(figures)}</div>'


# ---- the report -----------------------------------------------------------------------------

def _diagram_html(report: LeadReport) -> str:
    """The deal as the leader sees it: their hand, and for each hidden hand what it was
    dealt under (its constraint, or "any hand")."""
    hands: list[Hand | None] = [None, None, None, None]
    hands[report.leader] = report.hand
    deal = Deal(tuple(hands))
    roles = {report.declarer: "declarer", report.declarer.partner: "dummy",
             report.leader.partner: "partner"}
    parts = []
    for seat in Seat:
        if seat == report.leader:
            parts.append(hand_html(deal, seat))
        else:
            text = report.constraints.get(seat.letter)
            text = f"{roles[seat]}: {text}" if text else f"{roles[seat]}: any hand"
            if len(text) > 160:
                text = text[:150].rstrip() + " \u2026 (in full below)"
            parts.append(unknown_hand_html(seat, text))
    return (f'<div class="cg-deal"><div class="diagram">{"".join(parts)}'
            '<div class="table-box" aria-hidden="true"></div></div></div>')


def _seat_name(key: str) -> str:
    """``North`` for ``N``; any other key as it is (a report built by hand)."""
    try:
        return SEAT_NAME[Seat.parse(key)]
    except (CardgamesError, KeyError, TypeError):
        return str(key)


def _settings_html(report: LeadReport, level: str) -> str:
    rows: list[tuple[str, str]] = [
        ("Contract", f"{_contract_html(report)} by {SEAT_NAME[report.declarer]}"),
        ("Opening leader", SEAT_NAME[report.leader]),
        ("Vulnerable", esc(report.vulnerability)),
        ("Deals sampled", f'<span class="samples">{report.samples}</span>'
         + (" (stopped early: the best lead was clear)" if report.stopped_early else "")),
        ("Dealt", f"{report.attempts:,} (acceptance rate {_rate(report.acceptance_rate)})"),
        ("Seed", esc(report.seed)),
        ("Best by", esc(report.criterion)),
        ("Intervals", f"{level} (z = {_f(report.z, 2)})"),
    ]
    if report.auction is not None:
        rows.append(("Auction", esc(report.auction)))
        rows.append(("Read by", esc(report.system if report.system is not None
                                    else "no system")))
    body = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return f'<table class="settings">{body}</table>'


def _constraints_html(report: LeadReport) -> str:
    roles = {report.declarer.letter: "declarer", report.declarer.partner.letter: "dummy",
             report.leader.partner.letter: "partner"}
    if not report.constraints:
        items = "<li>none: the hidden hands were dealt at random</li>"
    else:
        out = []
        for key, text in report.constraints.items():
            name = _seat_name(key)
            role = f" ({roles[key]})" if key in roles else ""
            rate = report.seat_rates.get(key)
            alone = (f' <span class="rate">[alone {_rate(rate)} of deals]</span>'
                     if rate is not None else "")
            out.append(f"<li><b>{esc(name)}{role}</b>: {esc(text)}{alone}</li>")
        items = "".join(out)
    extra = []
    for verb, seats in real_hands(report):
        extra += [f"<li>the real {esc(_seat_name(key))} hand {verb}: {esc(text)}</li>"
                  for key, text in seats.items()]
    if report.unknown_calls:
        extra.append("<li>calls the system does not know (each costs only its own "
                     f"information): {esc('; '.join(report.unknown_calls))}</li>")
    extra += [f"<li>note: {esc(n)}</li>" for n in report.notes]
    if report.table is not None and report.rows:
        extra.append(f'<li class="table-lead">{esc(table_lead_text(report.table, report.best.label))}</li>')
    return (f'<h3>Constraints, as given</h3><ul class="constraints">{items}'
            f'{"".join(extra)}</ul>')


# (class, header, the cell's text)
_COLUMNS = (
    ("mean", "tricks", lambda r: _f(r.mean, 3)),
    ("se", "se", lambda r: _f(r.se, 3)),
    ("var", "var", lambda r: _f(r.var, 2)),
    ("sd", "sd", lambda r: _f(r.sd, 2)),
    ("ci", "{level} CI", lambda r: _pair(r.ci, 2)),
    ("p-set", "set %", lambda r: _f(r.p_set, 1, scale=100)),
    ("p-set-ci", "{level} CI", lambda r: _pair(r.p_set_ci, 1, 100)),
    ("score", "score", lambda r: _f(r.score, 1)),
    ("score-se", "\u00b1se", lambda r: _f(r.score_se, 1)),
    ("diff-tricks", "\u0394tricks", lambda r: _f(r.diff_tricks, 3, sign=True)),
    ("diff-tricks-se", "\u00b1se", lambda r: _f(r.diff_tricks_se, 3)),
    ("diff-imps", "\u0394IMPs", lambda r: _f(r.diff_imps, 2, sign=True)),
    ("diff-imps-se", "\u00b1se", lambda r: _f(r.diff_imps_se, 2)),
    ("mp-vs-best", "MP vs best", lambda r: _f(r.mp_vs_best, 1)),
    ("mp-vs-best-se", "\u00b1se", lambda r: _f(r.mp_vs_best_se, 1)),
    ("mp-field", "MP field", lambda r: _f(r.mp_field, 1)),
    ("mp-field-se", "\u00b1se", lambda r: _f(r.mp_field_se, 1)),
    ("p-best", "best %", lambda r: _f(r.p_best, 1, scale=100)),
)


def _mark(report: LeadReport, row: LeadRow) -> str:
    mark = "*" if row.best else ("=" if row.close else "")
    if row.tied:
        mark += " tied"
    if report.table is not None and row.label == report.table.label:
        mark += " >"
    return mark.strip()


def _table_html(report: LeadReport, level: str) -> str:
    head = "".join(f'<th class="{cls}">{esc(title.format(level=level))}</th>'
                   for cls, title, _ in _COLUMNS)
    body = []
    for row in report.rows:
        best = ' class="best"' if row.best else ""
        cells = "".join(f'<td class="{cls}">{cell(row)}</td>' for cls, _, cell in _COLUMNS)
        body.append(f'<tr{best} data-lead="{esc(row.label)}"><td class="mark">'
                    f'{esc(_mark(report, row))}</td><td class="lead">{_lead_html(row)}</td>'
                    f'<td class="n">{row.n}</td>{cells}</tr>')
    explain = (f"The leader's side's tricks (mean, its standard error, variance, SD and "
               f"{level} interval); % of deals that beat the contract (Wilson interval); "
               f"their mean score; and against the best lead on the same deals (paired): the "
               f"mean difference in tricks and IMPs, matchpoint % against the best alone and "
               f"in the field of all leads, each \u00b1 its SE.  '*' best by "
               f"{esc(report.criterion)}; '=' within {_f(report.z, 2)} paired SE of the best; "
               f"'tied': equal to it on every deal"
               + ("" if report.criterion == "mean" else f" by {esc(report.criterion)}")
               + ("; '&gt;' the lead made at the table" if report.table is not None else "")
               + "; '-': not defined.")
    return (f'<h3>Leads</h3><p class="legend">{explain}</p><div class="table-wrap">'
            f'<table class="leads"><thead><tr><th class="mark"></th><th class="lead">lead</th>'
            f'<th class="n">deals</th>{head}</tr></thead><tbody>{"".join(body)}</tbody>'
            "</table></div>")


def report_html(report: LeadReport, where: str | None = None, number: int = 1) -> str:
    """One report as a ``<section>`` (the page's CSS applies): what the leader sees, the
    settings and constraints, the table of leads and a chart per lead; ``where`` is the
    board's place (``FILE:LINE board N``); ``number`` makes the section's id."""
    level = _level(report.z)
    head = (f"Opening lead by {SEAT_NAME[report.leader]} against {_contract_html(report)} "
            f"by {SEAT_NAME[report.declarer]}")
    place = f'<p class="where">{esc(where)}</p>' if where else ""
    top = (f'<div class="top">{_diagram_html(report)}{_settings_html(report, level)}</div>'
           f"{_constraints_html(report)}")
    notices = []
    if len(report.hand) != 13:
        notices.append(f"The leader's hand holds {len(report.hand)} cards, not 13: this is "
                       "not an opening lead from a full deal, and the contract's trick "
                       "counts may not fit it.")
    if report.samples == 0 or not report.rows:
        notices.append("No deal was sampled, so there are no statistics and no charts for "
                       "this hand.")
        body = ""
    else:
        counts = trick_counts(report)
        if report.samples == 1:
            notices.append("Only one deal was sampled: the standard errors and intervals are "
                           "not defined (shown as -), and each chart is a single deal.")
        elif all(math.isfinite(r.se) and r.se == 0 for r in report.rows):
            notices.append("Every deal gave each lead the same number of tricks: the "
                           "intervals have no width.")
        charts = ""
        if counts is None:
            notices.append("This report kept no per-deal tricks, so the distributions "
                           "cannot be drawn; the table has every figure.")
        else:
            charts = (f"<h3>Tricks for the leader's side, deal by deal</h3>"
                      f"{_charts_html(report, counts, level)}")
        body = _table_html(report, level) + charts
    notice = "".join(f'<p class="notice" role="note">{esc(text)}</p>' for text in notices)
    return (f'<section class="lead-report" id="report-{number}"><h2>{head}</h2>{place}{top}'
            f"{notice}{body}</section>\n")


#: What :func:`report_fragment` needs of a page that holds it with ``style=False``.
LEADS_CSS = FRAGMENT_CSS + _CSS


def report_fragment(report: LeadReport, *, number: int = 1, style: bool = True) -> str:
    """The report as a self-contained fragment: what ``LeadReport._repr_html_`` shows.
    A page holding several gives each its ``number`` (the section's id), and its styles
    once (:data:`LEADS_CSS`, with ``style=False``)."""
    css = f"<style>{LEADS_CSS}</style>" if style else ""
    return f'<div class="dds-leads">{css}{report_html(report, number=number)}</div>'


def _totals_html(totals: Sequence[LeaderTotal]) -> str:
    rows = []
    for t in totals:
        real = (f"{t.real_cost}" if t.real_boards == t.boards else
                (f"{t.real_cost}/{t.real_boards}" if t.real_boards else "-"))
        rows.append(f'<tr><td class="player">{esc(t.player)}</td><td>{t.boards}</td>'
                    f"<td>{t.best}</td><td>{t.cost_tricks:.3f}</td>"
                    f"<td>{_f(t.cost_tricks_se, 3)}</td><td>{t.cost_imps:.2f}</td>"
                    f"<td>{_f(t.cost_imps_se, 2)}</td><td>{t.cost_mp:.1f}</td>"
                    f"<td>{_f(t.cost_mp_se, 1)}</td><td>{esc(real)}</td></tr>")
    return ("<section class=\"lead-report leaders\"><h2>Leads made at the table, by player"
            "</h2><p class=\"legend\">What they cost against the best lead of each board's "
            "sample (tricks and IMPs added up over the boards, MP% averaged; each \u00b1 its "
            "SE), and double-dummy tricks lost on the real deals.</p>"
            "<div class=\"table-wrap\"><table class=\"leaders\">"
            "<tr><th>player</th><th>boards</th><th>best</th><th>tricks</th><th>\u00b1se</th>"
            "<th>IMPs</th><th>\u00b1se</th><th>MP%</th><th>\u00b1se</th><th>real</th></tr>"
            f"{''.join(rows)}</table></div></section>\n")


class LeadsHtmlWriter(LeadsWriter):
    """Writes lead reports as one HTML page as they come (``ddsolver leads --format html``):
    the page's head before the first, a section per report, and with :meth:`finish` the
    summary of the leads made at the table and the page's end.  A run that analyses no
    board still writes a whole page, which says so."""

    def __init__(self, out: TextIO, many: bool):
        super().__init__("html", out, many)
        self.count = 0
        self._begun = False

    def _begin(self) -> None:
        if self._begun:
            return
        self._begun = True
        title = "Opening-lead analysis"
        self.out.write(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<meta name=\"generator\" content=\"{GENERATOR}\">\n"
            f"<title>{title}</title>\n<style>{_PAGE_CSS}{FRAGMENT_CSS}{_CSS}{PROBLEMS_CSS}</style>\n"
            f"</head>\n<body class=\"dds-leads\">\n<header class=\"page\"><h1>{title}</h1>"
            "<p>Double-dummy results over deals sampled to fit what the leader knows."
            "</p></header>\n<main>\n")

    def add(self, report: LeadReport, where: dict | None) -> None:
        self._begin()
        if report.table is not None:
            seat = report.leader.letter
            who = (f"{report.table.player} ({seat})" if report.table.player else
                   f"{SEAT_NAME[report.leader]} (no name)")
            self.table_leads.append((who, report.table))
        place = None
        if where:
            line = f":{where['line']}" if where.get("line") is not None else ""
            place = f"{where.get('source', '')}{line}{heading_board(where)}"
        self.count += 1
        self.out.write(report_html(report, place, self.count))
        self.out.flush()

    def finish(self, problems: Sequence[str] = ()) -> None:
        self._begin()
        if self.count == 0:
            self.out.write('<p class="notice" role="note">No board was analysed: there is '
                           "no report to show.</p>\n")
        if problems:
            self.out.write(problems_html(
                f"The input has {len(problems)} problem{'s' * (len(problems) != 1)}: boards "
                "left out, or analysed without a part that did not read", problems))
        totals = leader_totals(self.table_leads)
        if totals:
            self.out.write(_totals_html(totals))
        self.out.write(
            f"</main>\n<footer class=\"page\">{self.count} report"
            f"{'s' * (self.count != 1)}. Tricks are double dummy, for the opening leader's "
            f"side; scores are theirs. Made by {GENERATOR}.</footer>\n</body>\n</html>\n")
        self.out.flush()
