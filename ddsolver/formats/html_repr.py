"""What a notebook shows of a :class:`~ddsolver.boards.Board` and a
:class:`~ddsolver.solver.DDTable`: self-contained HTML fragments (inline CSS scoped to the
fragment, no script, nothing fetched), built from the same pieces as the printed hand
records (:mod:`ddsolver.formats.hand_records`) and the deal diagram of
:mod:`cardgames.html`.  The lead report's view is :mod:`ddsolver.formats.leads_html`.

>>> from ddsolver.solver import DDTable
>>> t = DDTable(((9, 5, 7, 5, 9), (4, 8, 6, 8, 4), (9, 5, 7, 5, 9), (4, 8, 6, 8, 4)))
>>> fragment = table_html(t)
>>> fragment.count("<td"), "<script" in fragment
(20, False)
"""

from __future__ import annotations

from cardgames.cards import Seat
from cardgames.html import FRAGMENT_CSS, hand_html

from ..boards import Board
from ..par import ParResult
from ..solver import DDTable
from .hand_records import compass_html, dd_grid_html, info_html, par_html

__all__ = ["board_html", "table_html", "TABLE_CSS"]

#: The DD table and par as the hand records draw them, scoped to a fragment's .dds-frag.
TABLE_CSS = (
    ".dds-frag{font-family:\"DejaVu Sans\",Arial,Helvetica,sans-serif;font-size:10.5pt;"
    "color:#111;background:#fff}"
    ".dds-frag .red{color:#c8102e}"
    ".dds-frag table.dd{border-collapse:collapse;font-size:9pt;"
    "font-variant-numeric:tabular-nums}"
    ".dds-frag .dd th,.dds-frag .dd td{border:0.5pt solid #bbb;padding:0.4mm 1.6mm;"
    "text-align:center;min-width:6mm}"
    ".dds-frag .dd th{background:#f0f0f0;font-weight:normal}"
    ".dds-frag .dd td.makes{font-weight:bold}"
    ".dds-frag .dd td.fails{color:#777}"
    ".dds-frag .par{margin:2mm 0 0 0;font-size:9pt}"
)

# The board's compass and its facts, as in the hand records, under .cg-deal.
_BOARD_CSS = (
    ".cg-deal .info{grid-column:1;grid-row:1;align-self:start;font-size:9pt;"
    "line-height:1.35;white-space:nowrap}"
    ".cg-deal .info .number{font-size:13pt;font-weight:bold;display:block;"
    "white-space:normal;overflow-wrap:anywhere}"
    ".cg-deal .compass{grid-column:2;grid-row:2;justify-self:center;width:23mm;height:23mm;"
    "position:relative;border:0.8pt solid #555;border-radius:1mm;background:#fafafa;"
    "font-size:8.5pt}"
    ".cg-deal .compass span{position:absolute;width:7mm;text-align:center;line-height:1.1}"
    ".cg-deal .compass .n{top:0.5mm;left:50%;margin-left:-3.5mm}"
    ".cg-deal .compass .s{bottom:0.5mm;left:50%;margin-left:-3.5mm}"
    ".cg-deal .compass .w{left:0.5mm;top:50%;margin-top:-0.55em}"
    ".cg-deal .compass .e{right:0.5mm;top:50%;margin-top:-0.55em}"
    ".cg-deal .compass .vul{background:#e8a0a0;border-radius:0.5mm}"
    ".cg-deal .compass .dealer{font-weight:bold;text-decoration:underline}"
    ".cg-deal .compass small{font-size:7pt;color:#333}"
    ".cg-deal .missing{grid-column:1/-1;color:#777}"
)


def table_html(table: DDTable, par: ParResult | None = None) -> str:
    """The table as a grid (declarers N S E W down, strains across; the contracts that
    make in bold), and ``par`` below it when given: what ``DDTable._repr_html_`` shows."""
    return (f'<div class="dds-frag"><style>{TABLE_CSS}</style>'
            f"{dd_grid_html(table, table.cards)}{par_html(par)}</div>")


def board_html(board: Board) -> str:
    """The board's number, dealer and vulnerability, its compass (vulnerable seats shaded,
    the dealer underlined, high-card points) and its four hands: what
    ``Board._repr_html_`` shows.  Unknown hands are drawn as unknown; a board without a
    deal says so."""
    deal = board.deal
    if deal is None:
        body = (f"{info_html(board)}"
                f'<div class="missing">The deal of this board is not known.</div>')
    else:
        hands = "".join(hand_html(deal, seat) for seat in Seat)
        body = f"{info_html(board)}{hands}{compass_html(board)}"
    return (f'<div class="cg-deal dds-board"><style>{FRAGMENT_CSS}{_BOARD_CSS}</style>'
            f'<div class="diagram">{body}</div></div>')
