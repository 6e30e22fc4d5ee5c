"""Printable hand records as one self-contained HTML page (``ddsolver report``).

For every board: the four hands in a compass diagram (North at the top, West on the left),
board number, dealer and vulnerability, high-card points, the double-dummy table (declarer's
tricks for every declarer and strain, the contracts that make in bold) and par.  The page
needs nothing from outside (the CSS is inline, there are no scripts or images), prints two
boards across and three down on A4 or Letter, and never splits a board over two pages.
:class:`HtmlReport` writes it a board at a time, so a large file streams.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from cardgames.cards import Seat, Strain
from cardgames.html import SEAT_NAME, esc, hand_html
from cardgames.scoring import Vulnerability

from ..boards import Board, where
from ..par import ParContract, ParResult
from ..solver import STRAIN_ORDER, DDTable
from . import GENERATOR

__all__ = ["HtmlReport", "compass_html", "info_html", "dd_grid_html", "par_html",
           "problems_html", "PROBLEMS_CSS"]

_STRAIN_SYMBOL = {Strain.NOTRUMP: "NT", Strain.SPADES: "\u2660", Strain.HEARTS: "\u2665",
                  Strain.DIAMONDS: "\u2666", Strain.CLUBS: "\u2663"}
_SEAT_NAME = SEAT_NAME
# Table rows in hand-record order (partners together); strains in STRAIN_ORDER.
_TABLE_SEATS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)

#: The notice of what a page leaves out (:func:`problems_html`), for every page that has one.
PROBLEMS_CSS = """.problems{border:1pt solid #c8102e;border-radius:2mm;margin:3mm 0;
 padding:2mm 3mm;font-size:9pt;break-inside:avoid;page-break-inside:avoid}
.problems h2{font-size:10.5pt;margin:0 0 1mm 0;color:#c8102e}
.problems p{margin:0 0 1mm 0}
.problems ul{margin:0;padding-left:5mm}
.problems li{font-family:"DejaVu Sans Mono",Consolas,monospace;font-size:8pt;
 overflow-wrap:anywhere}
"""

_CSS = """
*{box-sizing:border-box}
body{font-family:"DejaVu Sans",Arial,Helvetica,sans-serif;font-size:10.5pt;color:#111;
 margin:0;padding:8mm;background:#fff}
header.report{border-bottom:1.5pt solid #333;margin-bottom:5mm;padding-bottom:2mm}
header.report h1{font-size:15pt;margin:0 0 1mm 0}
header.report p{margin:0;color:#444;font-size:9pt}
h2.file{font-size:12pt;margin:4mm 0 2mm 0;grid-column:1/-1}
.boards{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:5mm 6mm}
.board{border:0.8pt solid #999;border-radius:2mm;padding:3mm;break-inside:avoid;
 page-break-inside:avoid}
.diagram{display:grid;grid-template-columns:1fr 1fr 1fr;grid-template-rows:auto auto auto;
 align-items:center;gap:1mm 2mm}
.info{grid-column:1;grid-row:1;align-self:start;font-size:9pt;line-height:1.35}
.info{white-space:nowrap}
.info .number{font-size:13pt;font-weight:bold;display:block;white-space:normal;
 overflow-wrap:anywhere}
.hand{line-height:1.3;white-space:nowrap}
.hand.north{grid-column:2;grid-row:1}
.hand.west{grid-column:1;grid-row:2}
.hand.east{grid-column:3;grid-row:2;padding-left:2mm}
.hand.south{grid-column:2;grid-row:3}
.hand .who{font-size:8pt;color:#555;text-transform:uppercase;letter-spacing:.04em}
.sym{display:inline-block;width:1.15em}
.red{color:#c8102e}
.void{color:#777}
.compass{grid-column:2;grid-row:2;justify-self:center;width:23mm;height:23mm;position:relative;
 border:0.8pt solid #555;border-radius:1mm;background:#fafafa;font-size:8.5pt}
.compass span{position:absolute;width:7mm;text-align:center;line-height:1.1}
.compass .n{top:0.5mm;left:50%;margin-left:-3.5mm}
.compass .s{bottom:0.5mm;left:50%;margin-left:-3.5mm}
.compass .w{left:0.5mm;top:50%;margin-top:-0.55em}
.compass .e{right:0.5mm;top:50%;margin-top:-0.55em}
.compass .vul{background:#e8a0a0;border-radius:0.5mm}
.compass .dealer{font-weight:bold;text-decoration:underline}
.compass small{font-size:7pt;color:#333}
.dd{grid-column:3;grid-row:3;justify-self:start;border-collapse:collapse;font-size:8.5pt}
.dd th,.dd td{border:0.5pt solid #bbb;padding:0.3mm 1.2mm;text-align:center;min-width:5mm}
.dd th{background:#f0f0f0;font-weight:normal}
.dd td.makes{font-weight:bold}
.dd td.fails{color:#777}
.par{margin:2mm 0 0 0;font-size:9pt}
.par b{font-weight:bold}
.note{grid-column:1;grid-row:3;align-self:end;font-size:7.5pt;color:#666}
footer.report{margin-top:5mm;font-size:8pt;color:#666}
.problems{grid-column:1/-1;order:-1}
""" + PROBLEMS_CSS + """@media screen and (max-width:880px){.boards{grid-template-columns:minmax(0,1fr)}}
@page{size:auto;margin:10mm}
@media print{
 body{padding:0;font-size:9.5pt;-webkit-print-color-adjust:exact;print-color-adjust:exact}
 header.report{margin-bottom:3mm}
 .boards{gap:3.5mm 5mm}
 .board{padding:2.5mm}
 .hand{line-height:1.2}
 /* Narrower table cells: with the screen's, two boards across need about 198 mm, more
    than A4 leaves inside its margins (190 mm), and the right-hand board was cut off. */
 .dd th,.dd td{padding:0.3mm 0.7mm;min-width:4mm}
}
"""


_esc = esc
_hand_html = hand_html


def compass_html(board: Board) -> str:
    """The compass of a board: each seat's letter and high-card points, the vulnerable
    seats shaded, the dealer underlined."""
    deal = board.deal
    assert deal is not None
    parts = []
    vul = board.vulnerable
    for seat in Seat:
        classes = [seat.letter.lower()]
        if vul is not None and vul.is_vulnerable(seat):
            classes.append("vul")
        if board.dealer == seat:
            classes.append("dealer")
        hand = deal[seat]
        points = "?" if hand is None else hand.hcp  # an unknown hand (a notebook's Board)
        parts.append(f'<span class="{" ".join(classes)}" title="{_SEAT_NAME[seat]}">'
                     f"{seat.letter}<br><small>{points}</small></span>")
    return f'<div class="compass" aria-label="compass">{"".join(parts)}</div>'


def info_html(board: Board) -> str:
    """The board's number, dealer and vulnerability (``?`` where not known)."""
    number: object = board.number
    if number is None:   # a Board tag that is not a number ("4-1") is shown as it is
        tag = board.game.known("Board") if board.game is not None else None
        number = tag or "?"
    dealer = "?" if board.dealer is None else _SEAT_NAME[board.dealer]
    vul = "?" if board.vulnerable is None else _vul_words(board.vulnerable)
    ending = board.deal.cards_per_hand if board.deal is not None else 13
    extra = f"<br>{ending}-card ending" if 0 < ending != 13 else ""
    return (f'<div class="info"><span class="number">Board {_esc(number)}</span>'
            f'Dealer: <span class="dealer-name">{_esc(dealer)}</span><br>'
            f'Vul: <span class="vul-name">{_esc(vul)}</span>{extra}</div>')


def _vul_words(vul: Vulnerability) -> str:
    return {Vulnerability.NONE: "None", Vulnerability.NS: "N-S", Vulnerability.EW: "E-W",
            Vulnerability.BOTH: "Both"}[vul]


def dd_grid_html(table: DDTable, cards: int) -> str:
    """The double-dummy table as a grid, declarers down (N S E W), strains across, the
    contracts that make in bold; ``cards`` is the cards per hand of the deal."""
    # A contract makes with 7 tricks of 13; in an ending, with more than half of them.
    needed = 7 if cards == 13 else cards // 2 + 1
    head = "".join(f'<th{" class=red" if s in (Strain.HEARTS, Strain.DIAMONDS) else ""}>'
                   f"{_STRAIN_SYMBOL[s]}</th>" for s in STRAIN_ORDER)
    rows = []
    for seat in _TABLE_SEATS:
        cells = []
        for strain in STRAIN_ORDER:
            tricks = table.tricks(seat, strain)
            cls = "makes" if tricks >= needed else "fails"
            cells.append(f'<td class="{cls}" data-declarer="{seat.letter}" '
                         f'data-strain="{strain.letter}">{tricks}</td>')
        rows.append(f"<tr><th>{seat.letter}</th>{''.join(cells)}</tr>")
    return (f'<table class="dd" title="double-dummy tricks for declarer">'
            f"<tr><th></th>{head}</tr>{''.join(rows)}</table>")


def _contract_html(contract: ParContract) -> str:
    strain = contract.strain
    symbol = _STRAIN_SYMBOL[strain]
    if strain in (Strain.HEARTS, Strain.DIAMONDS):
        symbol = f'<span class="red">{symbol}</span>'
    seats = "".join(s.letter for s in contract.declarers)
    doubled = "x" if contract.doubled else ""
    result = f"{contract.result:+d}" if contract.result else "="
    return f"{contract.level}{symbol}{doubled} {seats} {result}"


def par_html(result: ParResult | None) -> str:
    """Par's score and contracts as a line (nothing without a par)."""
    if result is None:
        return ""
    side = "EW" if result.score < 0 else "NS"
    contracts = ", ".join(_contract_html(c) for c in result.contracts) or "passed out"
    return (f'<p class="par" data-score="{result.score}">Par: <b>{side} {abs(result.score)}'
            f"</b> \u2014 {contracts}</p>")


class HtmlReport:
    """Writes the report a board at a time: :meth:`begin`, :meth:`board` per board,
    :meth:`end`.  The caller gives each deal once (one diagram per distinct deal, not per
    table); element ids stay unique when a board number comes twice."""

    def __init__(self, out: TextIO, title: str, subtitle: str):
        self.out = out
        self.title = title
        self.subtitle = subtitle
        self.source: str | None = None
        self.many_files = False
        self.count = 0
        self._ids: set[str] = set()  # the element ids given, each once

    def begin(self, many_files: bool) -> None:
        self.many_files = many_files
        self.out.write(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<meta name=\"generator\" content=\"{GENERATOR}\">\n"
            f"<title>{_esc(self.title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            f'<header class="report"><h1>{_esc(self.title)}</h1>'
            f"<p>{_esc(self.subtitle)}</p></header>\n<main class=\"boards\">\n")

    def board(self, board: Board, table: DDTable, par: ParResult | None) -> None:
        deal = board.deal
        assert deal is not None
        if self.many_files and board.source != self.source:
            self.out.write(f'<h2 class="file">{_esc(board.source)}</h2>\n')
        self.source = board.source
        number = "" if board.number is None else f' id="{self._id(board.number)}"'
        hands = "".join(_hand_html(deal, seat) for seat in Seat)
        self.out.write(
            f'<section class="board"{number} data-source="{_esc(where(board.source, board.line))}">'
            f'<div class="diagram">{info_html(board)}{hands}{compass_html(board)}'
            f"{dd_grid_html(table, deal.cards_per_hand)}</div>{par_html(par)}</section>\n")
        self.count += 1

    def _id(self, number: int) -> str:
        """``board-3``; ``board-3-2``, ``board-3-3``... for a board number met again (in
        another file, or a deal that is not the board's first): an id names one element."""
        name = f"board-{number}"
        k = 1
        while name in self._ids:
            k += 1
            name = f"board-{number}-{k}"
        self._ids.add(name)
        return name

    def end(self, failed: int, problems: Sequence[str] = (), without_par: int = 0) -> None:
        """Close the page.  ``problems`` are the messages reported on the way
        (``FILE:LINE: reason``): the boards left out (``failed`` of them) and the ones shown
        without par (``without_par``).  They are listed in a notice that the page shows
        above the boards (it is written last, as the boards stream out, and placed first
        by the grid's ``order``)."""
        if problems:
            self.out.write(_problems_html(failed, problems, without_par))
        note = (f"; {failed} board{'s' * (failed != 1)} could not be read or solved"
                if failed else "")
        self.out.write(
            "</main>\n<footer class=\"report\">"
            f"{self.count} board{'s' * (self.count != 1)}{_esc(note)}. Double-dummy tricks "
            "for the declarer named on the left of each row (bold: the contract makes); "
            "par from the board's dealer and vulnerability; numbers under the seats in the "
            f"compass are high-card points. Made by {GENERATOR}.</footer>\n</body>\n</html>\n")


def _problems_html(failed: int, problems: Sequence[str], without_par: int) -> str:
    said = []
    if failed:
        said.append(f"{failed} board{'s' * (failed != 1)} could not be read or solved and "
                    f"{'are' if failed != 1 else 'is'} left out")
    if without_par:
        said.append(f"{without_par} board{'s' * (without_par != 1)} "
                    f"{'are' if without_par != 1 else 'is'} shown without par")
    summary = "; ".join(said) or "the input has problems"
    return problems_html(summary[0].upper() + summary[1:], problems)


def problems_html(summary: str, problems: Sequence[str]) -> str:
    """The notice of what a page leaves out: ``summary`` (a sentence as it is to stand,
    without its full stop), then each message (``FILE:LINE: reason``) as reported on
    standard error."""
    items = "".join(f"<li>{_esc(message)}</li>" for message in problems)
    reasons = f" The reasons, as file:line: reason:</p><ul>{items}</ul>" if items else "</p>"
    return (f'<aside class="problems" role="note"><h2>Not everything is shown</h2>'
            f"<p>{_esc(summary)}.{reasons}</aside>\n")
