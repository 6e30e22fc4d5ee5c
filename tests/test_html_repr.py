"""What a notebook shows (``_repr_html_`` of Deal, Board, DDTable and LeadReport) and the
lead report's HTML: self-contained fragments (no script, nothing fetched), every text
escaped, the cards, tricks and figures the objects hold as a reader sees them, one
well-formed SVG chart per lead whose bars add up to the sample, and words, not a broken
chart, for the cases a chart cannot show (no deal, one deal, no per-deal tricks).

Lead scores are injected (:func:`ddsolver.leads.summarise_leads`) from seeded random
numbers, so nothing is solved here but one small table."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from html_pages import bar_counts, close, lead_rows, number, pair, parse, svgs

from cardgames import Hand, Seat
from cardgames.cards import Suit
from cardgames.hands import Deal
from ddsolver import dd_table, dd_tables
from ddsolver.boards import Board
from ddsolver.formats.leads_html import trick_counts
from ddsolver.leads import LeadReport, lead_groups, summarise_leads
from ddsolver.solver import STRAIN_ORDER, DDTable

WEST = "KQ72.J83.T94.A65"
DEAL = "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"
SYMBOL = {Suit.SPADES: "\u2660", Suit.HEARTS: "\u2665", Suit.DIAMONDS: "\u2666",
          Suit.CLUBS: "\u2663"}
RANK = {"A": "A", "K": "K", "Q": "Q", "J": "J", "T": "10"}


def _self_contained(fragment: str) -> None:
    low = fragment.lower()
    assert "<script" not in low and "javascript:" not in low
    assert not re.search(r"\b(src|href)\s*=", low), "an external resource"
    assert "url(" not in low and "@import" not in low
    parse(fragment)     # every element closed


def _injected(n: int, seed: int, lo: int = 2, hi: int = 8, hand: str = WEST) -> np.ndarray:
    """``n`` deals x 13 cards of seeded random defence tricks in ``lo..hi``, equal within
    each group of touching cards (as a solver's would be)."""
    rng = np.random.default_rng(seed)
    h = Hand.from_pbn(hand)
    groups = lead_groups(h)
    per_group = rng.integers(lo, hi + 1, size=(n, len(groups)))
    where = {c: j for j, g in enumerate(groups) for c in g}
    return np.array([[per_group[i, where[c]] for c in h.cards] for i in range(n)])


def _report(n: int = 40, seed: int = 3, **kw) -> LeadReport:
    tricks = kw.pop("tricks", None)
    if tricks is None:
        tricks = _injected(n, seed)
    return summarise_leads(WEST, "4S", "S", "none", tricks, seed=seed, **kw)


def _hand_lines(node) -> list[str]:
    return [d.text() for d in node.iter("div", "suit")]


def _expected_lines(hand: Hand) -> list[str]:
    return [SYMBOL[s] + (" ".join(RANK.get(str(c)[1:], str(c)[1:]) for c in hand
                                  if c.suit == s) or "\u2014") for s in Suit]


# ---- Deal, Board, DDTable -------------------------------------------------------------------

def test_deal_shows_every_hand_with_red_suit_symbols():
    deal = Deal.from_pbn(DEAL)
    fragment = deal._repr_html_()
    _self_contained(fragment)
    root = parse(fragment)
    hands = {h.attrs["data-seat"]: h for h in root.iter("div", "hand")}
    assert sorted(hands) == ["E", "N", "S", "W"]
    for seat in Seat:
        assert _hand_lines(hands[seat.letter]) == _expected_lines(deal[seat])
    red = {s.text() for s in root.iter("span", "red")}
    assert red == {"\u2665", "\u2666"}
    assert {s.text() for s in root.iter("span", "sym")} == set(SYMBOL.values())


def test_partial_deal_and_ending_render_without_error():
    partial = Deal.from_pbn("N:AKQ2.KJ3.T94.A65 - - -")
    root = parse(partial._repr_html_())
    unknown = [h.attrs["data-seat"] for h in root.iter("div", "unknown")]
    assert unknown == ["E", "S", "W"]
    assert _hand_lines(next(root.iter("div", "north"))) == _expected_lines(partial[Seat.NORTH])
    ending = Deal.from_pbn("N:AK.K.. Q2.Q.. J3.J.. T4.T..")
    text = parse(ending._repr_html_()).text()
    assert "3-card ending" in text
    assert not list(parse(ending._repr_html_()).iter("div", "unknown"))
    empty = Deal((None, None, None, None))
    assert len(list(parse(empty._repr_html_()).iter("div", "unknown"))) == 4


def test_board_shows_number_dealer_vulnerability_and_points():
    deal = Deal.from_pbn(DEAL)
    from cardgames.scoring import Vulnerability
    board = Board("x.pbn", 1, 7, Seat.SOUTH, Vulnerability.BOTH, deal)
    fragment = board._repr_html_()
    _self_contained(fragment)
    root = parse(fragment)
    assert root.find("span", "number").text() == "Board 7"
    assert root.find("span", "dealer-name").text() == "South"
    compass = root.find("div", "compass")
    points = {s.attrs["title"]: s.find("small").text() for s in compass.iter("span")}
    assert points == {"North": str(deal[Seat.NORTH].hcp), "East": str(deal[Seat.EAST].hcp),
                      "South": str(deal[Seat.SOUTH].hcp), "West": str(deal[Seat.WEST].hcp)}
    assert all("vul" in s.classes for s in compass.iter("span") if "title" in s.attrs)
    # A board with an unknown hand, and one with no deal at all: words, no error.
    partial = Board("x.pbn", 1, 2, Seat.EAST, None, Deal.from_pbn("N:AKQ2.KJ3.T94.A65 - - -"))
    root = parse(partial._repr_html_())
    assert len(list(root.iter("div", "unknown"))) == 3
    assert root.find("span", "vul-name").text() == "?"
    nothing = Board("x.pbn", 1, 3, None, None, None)
    assert "not known" in parse(nothing._repr_html_()).text()


def test_board_escapes_nothing_it_is_not_given():
    # Board numbers are ints, but the source path is text from outside: it is not shown,
    # and nothing of it may leak unescaped.
    board = Board("<img src=x>.pbn", 1, 1, Seat.NORTH, None, Deal.from_pbn(DEAL))
    assert "<img" not in board._repr_html_()


def test_dd_table_is_a_grid_of_the_tables_numbers():
    deal = Deal.from_pbn(DEAL)
    table = dd_table(deal)
    fragment = table._repr_html_()
    _self_contained(fragment)
    cells = {(td.attrs["data-declarer"], td.attrs["data-strain"]): td
             for td in parse(fragment).iter("td")}
    assert len(cells) == 20
    for seat in Seat:
        for strain in STRAIN_ORDER:
            td = cells[(seat.letter, strain.letter)]
            tricks = table.tricks(seat, strain)
            assert int(td.text()) == tricks
            assert ("makes" in td.classes) == (tricks >= 7)


def _made(table: DDTable) -> set[tuple[str, str]]:
    return {(td.attrs["data-declarer"], td.attrs["data-strain"])
            for td in parse(table._repr_html_()).iter("td") if "makes" in td.classes}


def test_dd_table_of_an_ending_marks_what_makes_in_that_ending():
    # 5 cards a hand: a contract "makes" with 3 of them.
    rows = ((3, 2, 5, 0, 1), (2, 3, 0, 5, 4), (3, 2, 5, 0, 1), (2, 3, 0, 5, 4))
    expected = {(s.letter, st.letter) for s in Seat for st in STRAIN_ORDER
                if DDTable(rows).tricks(s, st) >= 3}
    assert _made(DDTable(rows, cards=5)) == expected
    ending_deal = "N:AKQ.32.. JT9.AK.. 876.QJ.. 54.T9.8."
    ending = dd_table(ending_deal)
    assert ending.cards == 5 and _made(ending) == {
        (s.letter, st.letter) for s in Seat for st in STRAIN_ORDER if ending.tricks(s, st) >= 3}
    assert [t.cards for t in dd_tables([ending_deal] * 2, jobs=2)] == [5, 5]   # the pool's
    with pytest.raises(ValueError, match="0..5 tricks"):
        DDTable(((6, 2, 5, 0, 1),) + rows[1:], cards=5)


def test_dd_table_marks_what_makes_whatever_the_numbers_add_up_to():
    """The table's cards were guessed as North's no-trump tricks plus East's, which is 13
    on fewer than half of real deals (6 here): 5 tricks in hearts was shown as making."""
    table = dd_table("N:J83.QT5.T753.K42 72.J973.K4.A9653 AKQT954.AK2.82.J 6.864.AQJ96.QT87")
    assert table.tricks("N", "NT") + table.tricks("E", "NT") != 13
    assert table.cards == 13 and _made(table) == {
        (s.letter, st.letter) for s in Seat for st in STRAIN_ORDER if table.tricks(s, st) >= 7}


# ---- the lead report -------------------------------------------------------------------------

_DIGITS = {"mean": 3, "se": 3, "var": 2, "sd": 2, "score": 1, "score-se": 1,
           "diff-tricks": 3, "diff-tricks-se": 3, "diff-imps": 2, "diff-imps-se": 2,
           "mp-vs-best": 1, "mp-vs-best-se": 1, "mp-field": 1, "mp-field-se": 1}


def _check_table(root, report: LeadReport) -> None:
    rows = lead_rows(root)
    assert list(rows) == [r.label for r in report.rows], "every lead, best first"
    for r in report.rows:
        shown = rows[r.label]
        name = r.label
        assert int(shown["n"]) == r.n
        for cls, digits in _DIGITS.items():
            value = getattr(r, cls.replace("-", "_"))
            assert close(number(shown[cls]), value, digits), (name, cls, shown[cls], value)
        assert close(number(shown["p-set"]), r.p_set, 1, 100), name
        assert close(number(shown["p-best"]), r.p_best, 1, 100), name
        for cls, values, digits, scale in (("ci", r.ci, 2, 1), ("p-set-ci", r.p_set_ci, 1, 100)):
            lo, hi = pair(shown[cls])
            assert close(lo, values[0], digits, scale) and close(hi, values[1], digits, scale), \
                (name, cls)
        assert shown["mark"].startswith("*") == r.best
        # The lead written with suit symbols: the same cards as the label.
        assert shown["lead"].replace("10", "T") == "/".join(
            SYMBOL[c.suit] + str(c)[1:] for c in r.cards)


def _check_charts(page: str, root, report: LeadReport) -> None:
    charts = svgs(page)
    figures = list(root.iter("figure", "lead-chart"))
    assert [f.attrs["data-lead"] for f in figures] == [r.label for r in report.rows]
    assert len(charts) == len(report.rows), "one chart per lead"
    tricks = np.asarray(report.card_tricks)
    for row, svg, figure in zip(report.rows, charts, figures):
        counts = bar_counts(svg)
        assert sum(counts.values()) == report.samples, row.label
        column = tricks[:, report.hand_cards.index(row.cards[0])]
        assert counts == {t: int((column == t).sum()) for t in set(column.tolist())}
        # Bars: one per number of tricks seen, heights in proportion to the counts, red
        # from the tricks that beat 4S (4) up.
        bars = [b for b in svg.iter("{http://www.w3.org/2000/svg}rect")
                if "bar" in b.get("class", "")]
        assert len(bars) == len(counts)
        assert sum("set" in b.get("class", "").split() for b in bars) == \
            sum(1 for t in counts if t >= 4)
        # Heights in proportion to the counts (on the report's one scale; the SVG writes
        # them to 0.1 unit).
        by_x = sorted(bars, key=lambda b: float(b.get("x", "0")))
        heights = [float(b.get("height", "nan")) for b in by_x]
        deals = [counts[t] for t in sorted(counts)]
        unit = max(heights) / max(deals)
        assert all(abs(h - k * unit) <= 0.1 for h, k in zip(heights, deals)), \
            f"{row.label}: bar heights {heights} not in proportion to {deals}"
        # The caption: mean, interval and the chance to set, as the report has them.
        assert close(number(figure.find("span", "mean").text()), row.mean, 3)
        assert close(number(figure.find("span", "p-set").text()), row.p_set, 1, 100)
        ci = figure.find("span", "ci")
        if row.n > 1 and row.se > 0:
            lo, hi = pair(ci.text())
            assert close(lo, row.ci[0], 2) and close(hi, row.ci[1], 2)
    for svg_text in re.findall(r"<svg\b.*?</svg>", page, flags=re.S):
        assert not re.search(r"nan|inf", svg_text, flags=re.I), "NaN in the SVG"


def test_lead_report_fragment_shows_the_reports_numbers_and_a_chart_per_lead():
    report = _report(40, seed=3, constraints={"S": "5+ spades, 12+ hcp"})
    page = report._repr_html_()
    _self_contained(page)
    root = parse(page)
    _check_table(root, report)
    _check_charts(page, root, report)
    # The leader's hand as they see it; the others unknown, with their constraints.
    hands = {h.attrs["data-seat"]: h for h in root.iter("div", "hand")}
    assert _hand_lines(hands["W"]) == _expected_lines(Hand.from_pbn(WEST))
    assert "5+ spades, 12+ hcp" in hands["S"].text()
    assert {s for s, h in hands.items() if "unknown" in h.classes} == {"N", "E", "S"}
    assert page == report._repr_html_(), "deterministic"


def test_trick_counts_are_the_per_deal_tricks_counted():
    report = _report(25, seed=11)
    counts = trick_counts(report)
    assert counts is not None
    for row, c in zip(report.rows, counts):
        j = report.hand_cards.index(row.cards[0])
        assert c.tolist() == np.bincount(report.card_tricks[:, j], minlength=14).tolist()
        assert int(c.sum()) == report.samples


def test_text_is_escaped():
    report = _report(6, seed=2, constraints={"S": "<script>alert(1)</script> & 5+ spades"})
    page = report._repr_html_()
    assert "<script" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; 5+ spades" in page
    assert "<script>alert(1)</script> & 5+ spades" in parse(page).text()


def test_one_sample_says_the_intervals_are_not_defined():
    report = _report(1, seed=4)
    page = report._repr_html_()
    root = parse(page)
    assert "Only one deal was sampled" in root.text()
    rows = lead_rows(root)
    assert all(row["se"] == "-" and row["ci"] == "-" for row in rows.values())
    _check_table(root, report)
    _check_charts(page, root, report)     # single bars, no NaN anywhere in the SVG
    for svg in svgs(page):
        assert not [g for g in svg.iter("{http://www.w3.org/2000/svg}g")
                    if g.get("class") == "ci"], "an interval drawn from one deal"


def test_every_deal_the_same_gives_zero_width_intervals_and_0_or_100_percent():
    # Every lead takes 5 tricks on every deal: 4S always goes down (100% set), the
    # intervals have no width.
    report = _report(tricks=np.full((12, 13), 5))
    page = report._repr_html_()
    root = parse(page)
    assert "the intervals have no width" in root.text()
    _check_table(root, report)
    _check_charts(page, root, report)
    assert {number(r["p-set"]) for r in lead_rows(root).values()} == {100.0}
    # ... and never (0%): 2 tricks on every deal.
    report = _report(tricks=np.full((12, 13), 2))
    page = report._repr_html_()
    root = parse(page)
    assert {number(r["p-set"]) for r in lead_rows(root).values()} == {0.0}
    _check_charts(page, root, report)


def test_mixed_set_chances_on_one_report():
    # The spade leads always beat it, the rest never: 0% and 100% side by side.
    tricks = np.where(np.array([c.suit == Suit.SPADES for c in Hand.from_pbn(WEST).cards]),
                      6, 3)
    report = _report(tricks=np.tile(tricks, (9, 1)))
    page = report._repr_html_()
    root = parse(page)
    _check_table(root, report)
    _check_charts(page, root, report)


def test_report_with_no_deal_says_so():
    base = _report(3, seed=1)
    empty = LeadReport(hand=base.hand, contract=base.contract, declarer=base.declarer,
                       vulnerability=base.vulnerability, criterion="mean", z=base.z, rows=(),
                       samples=0, attempts=0, acceptance_rate=math.nan, seed=1)
    page = empty._repr_html_()
    _self_contained(page)
    assert "No deal was sampled" in parse(page).text()
    assert "<svg" not in page and "nan" not in page.lower()


def test_report_without_per_deal_tricks_keeps_its_table():
    from dataclasses import replace
    report = replace(_report(8, seed=5), card_tricks=None)
    page = report._repr_html_()
    root = parse(page)
    assert "kept no per-deal tricks" in root.text()
    _check_table(root, report)
    assert "<svg" not in page


@pytest.mark.parametrize("criterion", ["mean", "p_set", "score"])
def test_every_criterion_marks_its_best(criterion):
    report = _report(30, seed=8, criterion=criterion)
    root = parse(report._repr_html_())
    rows = lead_rows(root)
    assert rows[report.best.label]["mark"].startswith("*")
    assert sum(r["mark"].startswith("*") for r in rows.values()) == 1


def test_partial_leader_hand_renders_and_says_so():
    # A report built by hand from a 5-card hand (an ending): no error, and a word on it.
    tricks = np.array([[1, 1, 0, 2, 1], [2, 2, 1, 2, 0], [1, 1, 1, 3, 1]])
    report = summarise_leads("KQ7.J8..", "4S", "S", "none", tricks)
    page = report._repr_html_()
    _self_contained(page)
    root = parse(page)
    assert "holds 5 cards, not 13" in root.text()
    _check_table(root, report)
    assert len(svgs(page)) == len(report.rows)
    for svg in svgs(page):
        assert sum(bar_counts(svg).values()) == 3


def test_odd_constraint_keys_and_broken_hands_are_shown_escaped():
    from dataclasses import replace
    report = replace(_report(5, seed=6, constraints={"S": "5+ spades"}),
                     constraints={"S": "5+ spades", "<x>": "any"},
                     broken={"S": "5+ spades & <more>"}, strays={"N": "15-17 hcp <x>"},
                     notes=("a <note>",))
    root = parse(report._repr_html_())
    items = [li.text() for li in root.find("ul", "constraints").iter("li")]
    assert "<x>: any" in items
    assert "the real South hand breaks: 5+ spades & <more>" in items
    assert "the real North hand strays from the usual: 15-17 hcp <x>" in items
    assert "note: a <note>" in items
