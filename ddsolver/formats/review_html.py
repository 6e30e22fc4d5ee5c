"""``ddsolver review --format html``: one self-contained page a player opens after a
session (nothing fetched; a small inline script; readable on a phone; printable).

Each board: where it came from, the player's seat and role, the contract and result
against double dummy and par, the auction, the lead's verdict, the costly cards with the
single-dummy verdict, and the play: a table with every trick (each card with declarer's
double-dummy tricks after it, the costly ones marked), which needs no script, and a
diagram of the cards still to play that steps trick by trick with the buttons under it
or the arrow keys (the script shows one step at a time; without it every step is shown).
The session's summary comes first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from cardgames.cards import Card, Seat, Strain
from cardgames.hands import Deal
from cardgames.html import FRAGMENT_CSS, RANK_TEXT, RED_SUITS, SEAT_NAME, SUIT_SYMBOL, deal_html, esc
from cardgames.play import Position
from cardgames.scoring import Contract

from ..review import BoardReview, SessionSummary
from .hand_records import PROBLEMS_CSS, problems_html
from .leads_html import LEADS_CSS, report_fragment
from .review_text import facts_text, summary_text

__all__ = ["HtmlWriter"]

_STYLE = re.compile(r"<style>.*?</style>", re.S)

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;
max-width:60rem;padding:0.5rem 1rem;color:#111;line-height:1.35}
h1{font-size:1.3rem;margin:0.4rem 0;overflow-wrap:anywhere}
.summary{white-space:pre-wrap;overflow-wrap:anywhere;font-family:ui-monospace,monospace;font-size:0.85rem;
background:#f6f6f6;padding:0.5rem;border-radius:4px}
section.board{border-top:2px solid #888;margin-top:1rem;padding-top:0.5rem;
break-inside:avoid-page}
section.board h2{font-size:1.05rem;margin:0.2rem 0;overflow-wrap:anywhere}
.facts,ul.verdicts{overflow-wrap:anywhere}
.facts{margin:0.2rem 0}
.lost{color:#b00020;font-weight:600}
.columns{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}
table.auction,table.tricks{border-collapse:collapse;font-size:0.9rem}
table.auction th,table.auction td{padding:0 0.5rem;text-align:left}
table.tricks th,table.tricks td{padding:0 0.3rem;text-align:left;white-space:nowrap}
table.tricks thead th{white-space:normal;font-weight:600;font-size:0.8rem}
table.tricks tr.current{background:#fff3b0}
.costly{color:#b00020;font-weight:700}
.red{color:#c8102e}
.dd{color:#555;font-size:0.75rem;vertical-align:super}
ul.verdicts{margin:0.3rem 0;padding-left:1.2rem}
.stepper .controls{margin:0.3rem 0}
.stepper button{font-size:1rem;min-width:2.5rem;min-height:2rem}
.js .stepper .step{display:none}
.js .stepper .step.on{display:block}
.stepper .step .caption{font-size:0.85rem;color:#333}
details.lead-analysis{margin:0.3rem 0;overflow-x:auto}
.note{color:#555;font-size:0.85rem}
@media print{.stepper .controls{display:none}}
"""

_SCRIPT = """
document.documentElement.classList.add('js');
function show(box, k){
  var steps = box.querySelectorAll('.step');
  k = Math.max(0, Math.min(steps.length - 1, k));
  steps.forEach(function(s, i){ s.classList.toggle('on', i === k); });
  box.dataset.at = k;
  var rows = box.closest('section').querySelectorAll('table.tricks tbody tr');
  rows.forEach(function(r, i){ r.classList.toggle('current', i === k - 1); });
  var tricks = box.querySelectorAll('.step:not([data-where])').length - 1;
  box.querySelector('.where').textContent = k === 0 ? 'before the lead'
      : steps[k].dataset.where || 'after trick ' + k + ' of ' + tricks;
}
document.querySelectorAll('.stepper').forEach(function(box){
  show(box, 0);
  box.querySelector('.prev').addEventListener('click', function(){
    show(box, +box.dataset.at - 1); });
  box.querySelector('.next').addEventListener('click', function(){
    show(box, +box.dataset.at + 1); });
  box.querySelector('.first').addEventListener('click', function(){ show(box, 0); });
  box.querySelector('.last').addEventListener('click', function(){ show(box, 1e9); });
  box.addEventListener('keydown', function(e){
    if (e.key === 'ArrowRight') { show(box, +box.dataset.at + 1); e.preventDefault(); }
    if (e.key === 'ArrowLeft') { show(box, +box.dataset.at - 1); e.preventDefault(); }
  });
});
// Arrow keys with no button focused step the board in view: the one whose stepper (its
// diagram and buttons) shows most on the screen, not a board of which only the trick
// table is left in view.
function inView(){
  var boxes = document.querySelectorAll('.stepper'), best = null, most = 0;
  for (var i = 0; i < boxes.length; i++) {
    var r = boxes[i].getBoundingClientRect();
    var shown = Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0);
    if (shown > most) { most = shown; best = boxes[i]; }
  }
  return best;
}
document.addEventListener('keydown', function(e){
  if (e.target !== document.body) return;
  var box = inView();
  if (!box) return;
  if (e.key === 'ArrowRight') show(box, +box.dataset.at + 1);
  if (e.key === 'ArrowLeft') show(box, +box.dataset.at - 1);
});
"""


def _card_text(card: Card) -> str:
    """A card as plain text, as the page writes it: ♥10."""
    return f"{SUIT_SYMBOL[card.suit]}{RANK_TEXT.get(int(card.rank), card.rank.letter)}"


def _card(card: Card) -> str:
    red = ' class="red"' if card.suit in RED_SUITS else ""
    return f"<span{red}>{_card_text(card)}</span>"


def _cards(group: str) -> str:
    """A group of equal cards as the advice names it (``HJ/HT``), drawn as cards."""
    try:
        return "/".join(_card(Card.parse(c)) for c in group.split("/"))
    except ValueError:
        return esc(group)


def _call(call: str) -> str:
    m = re.fullmatch(r"([1-7])(C|D|H|S|NT)", call)
    if m is None:
        return esc(call)
    if m.group(2) == "NT":
        return esc(call)
    suit = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}[m.group(2)]
    red = ' class="red"' if m.group(2) in "DH" else ""
    return f"{m.group(1)}<span{red}>{suit}</span>"


def _auction_html(r: BoardReview) -> str:
    if not r.auction or r.dealer is None:
        return ""
    order = [Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH]
    cells = [""] * order.index(r.dealer) + [_call(c) for c in r.auction]
    rows = ["<tr>" + "".join(f"<td>{c}</td>" for c in cells[i:i + 4]) + "</tr>"
            for i in range(0, len(cells), 4)]
    head = "".join(f"<th>{SEAT_NAME[s]}</th>" for s in order)
    return (f'<table class="auction"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def _steps(r: BoardReview, deal: Deal, strain: Strain) -> list[tuple[Deal, str, str]]:
    """The cards still to play before the lead and after each trick, with a caption and
    (for the step's place in the controls) where it is; a play that stops inside a trick
    (a claim after the lead, say) ends with a step of its own: the cards held as that trick
    began, and the cards played to it."""
    assert r.leader is not None
    pos = Position(deal, strain, r.leader)
    out = [(deal, f"declarer's side can take {r.trace[0]} double dummy", "")]
    in_trick: list[str] = []
    for i, card in enumerate(r.played):
        if i % 4 == 0:
            in_trick = []
        in_trick.append(f"{SEAT_NAME[pos.to_move]} {_card_text(card)}")
        pos.play(card)
        if (i + 1) % 4 == 0:
            trick = pos.tricks[-1]
            winner = SEAT_NAME[trick.winner] if trick.winner is not None else "?"
            caption = (f"trick {(i + 1) // 4} won by {winner}; "
                       f"declarer's side can take {r.trace[i + 1]} double dummy")
            out.append((pos.remaining_deal(), caption, ""))
    if len(r.played) % 4:
        number = len(r.played) // 4 + 1
        end = "the claim" if r.claim is not None else "where the play stops"
        caption = (f"trick {number} so far: {', '.join(in_trick)}; then {end}; declarer's "
                   f"side can take {r.trace[len(r.played)]} double dummy")
        out.append((out[-1][0], caption, f"in trick {number}, at {end}"))
    return out


def _tricks_html(r: BoardReview, deal: Deal, strain: Strain) -> str:
    costly = {c.index for c in r.costly}
    assert r.leader is not None
    pos = Position(deal, strain, r.leader)
    leaders = []
    for i, card in enumerate(r.played):
        if i % 4 == 0:
            leaders.append(pos.to_move)
        pos.play(card)
    rows = []
    for t in range(0, len(r.played), 4):
        cells = []
        for i in range(t, min(t + 4, len(r.played))):
            mark = ' class="costly" title="cost tricks double dummy"' if i in costly else ""
            cells.append(f"<td{mark}>{_card(r.played[i])}"
                         f'<span class="dd">{r.trace[i + 1]}</span></td>')
        rows.append(f"<tr><th>{t // 4 + 1}</th><td>{leaders[t // 4].letter}</td>"
                    f"{''.join(cells)}</tr>")
    return ('<table class="tricks"><thead><tr><th>trick</th><th>lead</th>'
            '<th colspan="4">cards in play order, each with declarer\'s double-dummy '
            "tricks after it</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _board_html(r: BoardReview, index: int) -> str:
    title = f"{esc(r.label)} &mdash; {SEAT_NAME[r.seat]} ({esc(r.role)})"
    parts = [f'<section class="board" id="board-{index}"><h2>{title}</h2>']
    parts.append(f'<p class="facts">{esc(facts_text(r))}</p>')
    verdicts = []
    if r.lead is not None:
        t = r.lead
        real = "" if t.real_cost is None else f"; on the real deal it cost {t.real_cost}"
        tied = ", tied with the best on every deal" if t.tied else ""
        verdicts.append(f"Your lead {_card(t.card)}: ranked {t.place} of {t.leads}{tied}, "
                        f"{t.cost_tricks:.2f} tricks, {t.cost_imps:.2f} IMPs and "
                        f"{t.cost_mp:.1f} MP% below the best lead{real}")
    for c in r.costly:
        sd = c.single_dummy
        verdict = ("not asked single dummy" if sd is None else
                   f'<span class="lost">a mistake from your seat too</span>: '
                   f"{_cards(sd.best)} was better single dummy" if sd.worse else
                   "only double dummy: from your seat it was as good as any")
        verdicts.append(f"Trick {c.trick}: {SEAT_NAME[c.seat]} played {_card(c.card)}, "
                        f'<span class="lost">{c.cost} trick{"s" * (c.cost != 1)} lost</span> '
                        f"double dummy; {verdict}")
    if r.line is not None:
        _, card, chance, best, best_chance = r.line
        verdicts.append(f"Your line: {_card(card)} at your first choice makes in "
                        f"{100 * chance:.0f}% of the worlds from your seat" + (
                            ", as much as any card" if chance >= best_chance else
                            f'; <span class="lost">the best, {esc(best)}, in '
                            f"{100 * best_chance:.0f}%</span>"))
    if r.claim is not None:
        after, claimed, there = r.claim
        verdicts.append(f"Claim after {after} card{'s' * (after != 1)}: {claimed} tricks, double dummy {there}")
    if verdicts:
        parts.append('<ul class="verdicts">' + "".join(f"<li>{v}</li>" for v in verdicts)
                     + "</ul>")
    if r.lead_report is not None:
        parts.append('<details class="lead-analysis"><summary>The lead analysis: every lead, '
                     "charted</summary>"
                     + _STYLE.sub("", report_fragment(r.lead_report, number=index,
                                                      style=False)) + "</details>")
    elif r.lead is not None:
        parts.append('<p class="note">(The lead\'s charts are drawn when the board is '
                     "reviewed in this run; this review was read from the store.)</p>")
    parts.append('<div class="columns">')
    parts.append(_auction_html(r))
    if r.deal is not None and r.played:
        deal = Deal.from_pbn(r.deal)
        contract = Contract.parse((r.contract or "").split(" by ")[0])
        assert contract is not None       # a board with a play has a contract
        strain = contract.strain
        steps = _steps(r, deal, strain)
        body = "".join(
            f'<div class="step" data-step="{k}"'
            + (f' data-where="{esc(where)}"' if where else "")
            + f'>{_STYLE.sub("", deal_html(d))}<div class="caption">{esc(caption)}</div></div>'
            for k, (d, caption, where) in enumerate(steps))
        parts.append(
            f'<div class="stepper" tabindex="0" aria-label="the play, trick by trick">'
            f"{body}<div class=\"controls\"><button class=\"first\" type=\"button\" "
            f'aria-label="before the lead">&laquo;</button><button class="prev" '
            f'type="button" aria-label="previous trick">&#x25C0;</button>'
            f'<button class="next" type="button" aria-label="next trick">&#x25B6;</button>'
            f'<button class="last" type="button" aria-label="the end">&raquo;</button> '
            f'<span class="where"></span></div></div>')
        parts.append("</div>")
        parts.append(_tricks_html(r, deal, strain))
    else:
        if r.deal is not None:
            parts.append(_STYLE.sub("", deal_html(Deal.from_pbn(r.deal))))
        parts.append("</div>")
    parts.append("</section>")
    return "".join(parts)


class HtmlWriter:
    """The page, written at the end (the summary stands first)."""

    def __init__(self, out: TextIO):
        self.out = out
        self.boards: list[BoardReview] = []

    def begin(self, settings: Mapping[str, Any]) -> None:
        self.settings = dict(settings)

    def write(self, r: BoardReview) -> None:
        self.boards.append(r)

    def end(self, summary: SessionSummary, problems: Sequence[str] = ()) -> None:
        """Write the page; ``problems`` are the boards left out, as reported on standard
        error (``FILE:LINE: reason``), listed under the summary."""
        player = self.settings["player"]
        title = f"Session review: {player}"
        boards = "".join(_board_html(r, k) for k, r in enumerate(self.boards, 1))
        notice = ""
        if problems:
            notice = problems_html(
                f"The input has {len(problems)} problem{'s' * (len(problems) != 1)}: boards "
                "left out of this review, or read in part", problems)
        elif not self.boards:
            notice = problems_html(f"{player} sat at no board of the files", ())
        # the lead analyses' styles, once for all (scoped to their .dds-leads blocks)
        css = LEADS_CSS if any(r.lead_report is not None for r in self.boards) \
            else FRAGMENT_CSS   # (LEADS_CSS holds FRAGMENT_CSS)
        self.out.write(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title><style>{_CSS}{css}{PROBLEMS_CSS}</style></head>"
            f"<body><h1>{esc(title)}</h1>"
            f"<p>Single dummy by {esc(self.settings['method'])}, "
            f"{self.settings['samples']} worlds, seed {self.settings['seed']}.</p>"
            f'<div class="summary">{esc(summary_text(summary, player))}</div>'
            f"{notice}{boards}<script>{_SCRIPT}</script></body></html>\n")
