"""Hands and deals as HTML: the pieces of a hand diagram (suit symbols, red hearts and
diamonds, 10 written out) shared by the notebook view of a :class:`~cardgames.hands.Deal`
(:meth:`Deal._repr_html_ <cardgames.hands.Deal._repr_html_>`) and by the solver's pages
(``ddsolver report --html``, ``ddsolver leads --format html``).

Everything is a self-contained fragment: CSS in one ``<style>`` element scoped to the
fragment's own class (``cg-``), no script, nothing fetched.  All text is escaped.  A deal
with unknown hands (``None``) draws them as unknown rather than failing.

>>> from cardgames.hands import Deal
>>> page = deal_html(Deal.from_pbn("N:AKQ2.KJ3.T94.A65 - - -"))
>>> page.count('class="hand '), "unknown" in page, "<script" in page
(4, True, False)
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from .cards import Seat, Suit

if TYPE_CHECKING:  # hands imports this module (Deal._repr_html_): annotations only
    from .hands import Deal, Hand

__all__ = ["SUIT_SYMBOL", "RED_SUITS", "SEAT_NAME", "RANK_TEXT", "esc", "suit_html",
           "hand_html", "unknown_hand_html", "deal_html", "FRAGMENT_CSS"]

SUIT_SYMBOL = {Suit.SPADES: "\u2660", Suit.HEARTS: "\u2665", Suit.DIAMONDS: "\u2666",
               Suit.CLUBS: "\u2663"}
RED_SUITS = frozenset({Suit.HEARTS, Suit.DIAMONDS})
SEAT_NAME = {Seat.NORTH: "North", Seat.EAST: "East", Seat.SOUTH: "South", Seat.WEST: "West"}
# Ranks as a printed hand record writes them: 10, not T.
RANK_TEXT = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "10"}

# The diagram's look in a fragment (a notebook cell): every rule under .cg-deal, so the
# fragment neither takes styles from the notebook nor gives any to it.
FRAGMENT_CSS = (
    ".cg-deal{font-family:\"DejaVu Sans\",Arial,Helvetica,sans-serif;font-size:10.5pt;"
    "color:#111;background:#fff;display:inline-block;padding:2mm;line-height:1.3}"
    ".cg-deal .diagram{display:grid;grid-template-columns:auto auto auto;align-items:center;"
    "gap:1mm 3mm}"
    ".cg-deal .hand{white-space:nowrap;text-align:left}"
    ".cg-deal .hand.north{grid-column:2;grid-row:1}"
    ".cg-deal .hand.west{grid-column:1;grid-row:2}"
    ".cg-deal .hand.east{grid-column:3;grid-row:2}"
    ".cg-deal .hand.south{grid-column:2;grid-row:3}"
    ".cg-deal .who{font-size:8pt;color:#555;text-transform:uppercase;letter-spacing:.04em}"
    ".cg-deal .sym{display:inline-block;width:1.15em}"
    ".cg-deal .red{color:#c8102e}"
    ".cg-deal .void,.cg-deal .unknown-hand{color:#777}"
    ".cg-deal .table-box{grid-column:2;grid-row:2;justify-self:center;width:16mm;height:16mm;"
    "border:0.8pt solid #555;border-radius:1mm;background:#f4f4f4}"
)


def esc(text: object) -> str:
    """``text`` as HTML text or attribute value (quotes escaped too)."""
    return html.escape(str(text), quote=True)


def suit_html(hand: Hand, suit: Suit) -> str:
    """One suit of a hand: its symbol (red for hearts and diamonds), then its ranks
    highest first, or a dash for a void."""
    ranks = [card.rank for card in hand if card.suit == suit]
    red = " red" if suit in RED_SUITS else ""
    cards = " ".join(RANK_TEXT.get(int(r), str(int(r))) for r in ranks)
    body = esc(cards) if ranks else '<span class="void">\u2014</span>'
    return (f'<div class="suit" data-suit="{suit.name[0]}"><span class="sym{red}">'
            f"{SUIT_SYMBOL[suit]}</span>{body}</div>")


def hand_html(deal: Deal, seat: Seat) -> str:
    """The seat's hand with its name above it; an unknown hand as
    :func:`unknown_hand_html`."""
    hand = deal[seat]
    if hand is None:
        return unknown_hand_html(seat)
    suits = "".join(suit_html(hand, suit) for suit in Suit)
    return (f'<div class="hand {SEAT_NAME[seat].lower()}" data-seat="{seat.letter}">'
            f'<div class="who">{SEAT_NAME[seat]}</div>{suits}</div>')


def unknown_hand_html(seat: Seat, text: str = "not known") -> str:
    """A hand the diagram cannot show: the seat's name and ``text`` (escaped)."""
    return (f'<div class="hand {SEAT_NAME[seat].lower()} unknown" data-seat="{seat.letter}">'
            f'<div class="who">{SEAT_NAME[seat]}</div>'
            f'<div class="unknown-hand">{esc(text)}</div></div>')


def deal_html(deal: Deal) -> str:
    """The deal as a self-contained compass diagram (North at the top, West on the
    left): what :meth:`Deal._repr_html_ <cardgames.hands.Deal._repr_html_>` shows."""
    hands = "".join(hand_html(deal, seat) for seat in Seat)
    cards = deal.cards_per_hand
    label = f"{cards}-card ending" if deal.is_complete and 0 < cards < 13 else ""
    note = f'<div class="who">{esc(label)}</div>' if label else ""
    return (f'<div class="cg-deal"><style>{FRAGMENT_CSS}</style>'
            f'<div class="diagram">{hands}<div class="table-box" aria-hidden="true"></div>'
            f"</div>{note}</div>")
