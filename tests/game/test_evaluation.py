"""cardgames.evaluation, hand evaluation: losing-trick count, controls, total points, top
honours, suit quality, suit points and stoppers.  Each is checked on random hands against a count
written out here card by card: the counts of one hand, and, through the constraints of
cardgames.constraints on them, the per-hand test, the batch (numpy) test the sampler uses
over evaluation.Features, and the text syntax."""

from __future__ import annotations

import numpy as np
import pytest

from cardgames import Hand
from cardgames.constraint_syntax import parse_constraint
from cardgames.constraints import (
    LTC,
    Controls,
    Stopper,
    SuitHCP,
    SuitQuality,
    TopHonours,
    TotalPoints,
)
from cardgames.errors import ParseError
from cardgames.evaluation import (
    MAX_CONTROLS,
    MAX_LTC,
    MAX_POINTS,
    MAX_QUALITY,
    MAX_SUIT_HCP,
    Features,
    control_count,
    losing_tricks,
    stopper,
    suit_hcp,
    suit_quality,
    top_honours,
    total_points,
)
from cardgames.sampling import deal_hidden

RANKS = "AKQJT98765432"


def _random_hands(n: int, seed: int = 7) -> list[Hand]:
    rng = np.random.default_rng(seed)
    hands = []
    for _ in range(n):
        cards = rng.permutation(52)[:13]
        hands.append(Hand.from_cards([f"{'SHDC'[c // 13]}{RANKS[c % 13]}" for c in cards]))
    return hands


def _skewed_hands(n: int, seed: int = 8) -> list[Hand]:
    """Hands with long suits and voids, which uniform dealing rarely gives."""
    rng = np.random.default_rng(seed)
    hands = []
    for _ in range(n):
        weights = rng.dirichlet([0.3] * 4)
        picked: list[str] = []
        pool = [f"{s}{r}" for s in "SHDC" for r in RANKS]
        p = np.repeat(weights, 13) / 13
        idx = rng.choice(52, size=13, replace=False, p=p / p.sum())
        picked = [pool[i] for i in idx]
        hands.append(Hand.from_cards(picked))
    return hands


HANDS = _random_hands(400) + _skewed_hands(200)


def _suits(hand: Hand) -> list[str]:
    """The hand as four strings of rank letters, high first: ['AK4', 'QJ2', ...]."""
    return hand.to_pbn().split(".")


# ---- the counts written out by hand --------------------------------------------------------

def plain_ltc(hand: Hand) -> int:
    losers = 0
    for suit in _suits(hand):
        if len(suit) == 0:
            continue
        if len(suit) == 1:
            losers += 0 if suit == "A" else 1
        elif len(suit) == 2:
            losers += 2 - ("A" in suit) - ("K" in suit)
        else:
            losers += 3 - ("A" in suit) - ("K" in suit) - ("Q" in suit)
    return losers


def plain_controls(hand: Hand) -> int:
    return sum(2 * s.count("A") + s.count("K") for s in _suits(hand))


def plain_hcp(suit: str) -> int:
    return sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(r, 0) for r in suit)


def plain_tp(hand: Hand, length: bool, shortness: bool) -> int:
    suits = _suits(hand)
    points = sum(plain_hcp(s) for s in suits)
    for s in suits:
        if length and len(s) > 4:
            points += len(s) - 4
        if shortness:
            points += {0: 3, 1: 2, 2: 1}.get(len(s), 0)
    return points


def plain_top(hand: Hand, suit: int, top: int) -> int:
    return sum(1 for r in _suits(hand)[suit] if r in RANKS[:top])


def plain_quality(hand: Hand, suit: int) -> int:
    s = _suits(hand)[suit]
    return len(s) + sum(1 for r in s if r in "AKQJT")


def plain_stopper(hand: Hand, suit: int) -> bool:
    """A, Kx, Qxx or Jxxx: an honour with as many cards beside it as honours above it."""
    s = _suits(hand)[suit]
    return any(honour in s and len(s) >= need for honour, need in zip("AKQJ", (1, 2, 3, 4)))


# ---- the counts of one hand == the count written out, within their limits -----------------

@pytest.mark.parametrize("count, plain, top", [
    (losing_tricks, plain_ltc, MAX_LTC),
    (control_count, plain_controls, MAX_CONTROLS),
    (total_points, lambda h: plain_tp(h, True, False), MAX_POINTS),
    (lambda h: total_points(h, length=False, shortness=True), lambda h: plain_tp(h, False, True),
     MAX_POINTS),
    (lambda h: total_points(h, shortness=True), lambda h: plain_tp(h, True, True), MAX_POINTS),
    *[(lambda h, s=s, t=t: top_honours(h, "SHDC"[s], t), lambda h, s=s, t=t: plain_top(h, s, t),
       t) for s in range(4) for t in (1, 3, 5)],
    *[(lambda h, s=s: suit_quality(h, "SHDC"[s]), lambda h, s=s: plain_quality(h, s),
       MAX_QUALITY) for s in range(4)],
    *[(lambda h, s=s: suit_hcp(h, "SHDC"[s]), lambda h, s=s: plain_hcp(_suits(h)[s]),
       MAX_SUIT_HCP) for s in range(4)],
])
def test_counts_of_one_hand_match_the_plain_count(count, plain, top):
    for h in HANDS:
        assert 0 <= count(h) == plain(h) <= top, h


def test_batch_features_match_the_counts_of_each_hand():
    held = np.zeros((len(HANDS), 52), dtype=bool)
    for i, h in enumerate(HANDS):
        for c in h:
            held[i, c.index] = True
    f = Features(held)
    assert f.ltc.tolist() == [losing_tricks(h) for h in HANDS]
    assert f.controls.tolist() == [control_count(h) for h in HANDS]
    assert f.hcp.tolist() == [h.hcp for h in HANDS]
    assert f.lengths.tolist() == [list(h.lengths) for h in HANDS]
    assert f.shape.tolist() == [list(h.shape) for h in HANDS]


# ---- per-hand test == batch test == the count ------------------------------------------------

def _batch_mask(constraint, hands):
    held = np.zeros((len(hands), 52), dtype=bool)
    for i, h in enumerate(hands):
        for c in h:
            held[i, c.index] = True
    return constraint._mask(Features(held))


CASES = [
    (lambda lo, hi: LTC(lo, hi), plain_ltc, 12),
    (lambda lo, hi: Controls(lo, hi), plain_controls, 12),
    (lambda lo, hi: TotalPoints(lo, hi), lambda h: plain_tp(h, True, False), 55),
    (lambda lo, hi: TotalPoints(lo, hi, length=False, shortness=True),
     lambda h: plain_tp(h, False, True), 55),
    (lambda lo, hi: TotalPoints(lo, hi, shortness=True), lambda h: plain_tp(h, True, True), 55),
    *[(lambda lo, hi, s=s, t=t: TopHonours(s, min(lo, t), min(hi, t), t),
       lambda h, s=s, t=t: plain_top(h, s, t), 5) for s in range(4) for t in (1, 3, 5)],
    *[(lambda lo, hi, s=s: SuitQuality(s, lo, hi), lambda h, s=s: plain_quality(h, s), 18)
      for s in range(4)],
    *[(lambda lo, hi, s=s: SuitHCP(s, lo, hi), lambda h, s=s: plain_hcp(_suits(h)[s]), 10)
      for s in range(4)],
]


@pytest.mark.parametrize("make, count, top", CASES)
def test_batch_and_hand_tests_match_the_plain_count(make, count, top):
    values = np.array([count(h) for h in HANDS])
    assert len(set(values.tolist())) >= 2  # the hands exercise more than one value
    lows = sorted({int(np.percentile(values, q)) for q in (10, 40, 70)})
    for lo in [0] + lows:
        for hi in (lo, lo + 2, top):
            c = make(lo, hi)
            lo_, hi_ = c.low, c.high
            expected = (values >= lo_) & (values <= hi_)
            assert _batch_mask(c, HANDS).tolist() == expected.tolist(), str(c)
            assert [c.accepts(h) for h in HANDS] == expected.tolist(), str(c)
            # the text form means the same
            assert parse_constraint(str(c)) == c


@pytest.mark.parametrize("suit", range(4))
def test_stopper_tests_match_the_plain_rule(suit):
    c = Stopper("SHDC"[suit])
    expected = [plain_stopper(h, suit) for h in HANDS]
    assert 0.2 < sum(expected) / len(expected) < 0.8    # both answers exercised
    assert [stopper(h, "SHDC"[suit]) for h in HANDS] == expected
    assert [c.accepts(h) for h in HANDS] == expected
    assert _batch_mask(c, HANDS).tolist() == expected
    assert parse_constraint(str(c)) == c == parse_constraint(f"stopper in {'SHDC'[suit]}")


@pytest.mark.parametrize("pbn, stops, not_stops", [
    ("A.KJ543.Q32.J432", "SHDC", ""),         # a bare ace stops; Jxxx does
    ("K.Q2.J32.8765432", "", "SHDC"),         # a bare king, Qx, Jxx, no honour: none
    ("K2.Q32.JT98.AKQJ", "SHDC", ""),
])
def test_stopper_worked_examples(pbn, stops, not_stops):
    h = Hand.from_pbn(pbn)
    for s in stops:
        assert parse_constraint(f"stopper {s}").accepts(h), s
    for s in not_stops:
        assert parse_constraint(f"not stopper {s}").accepts(h), s


# ---- worked examples --------------------------------------------------------------------

@pytest.mark.parametrize("pbn, text", [
    # spades AKQ2 0 losers, hearts KJ3 2, diamonds T94 3, clubs A65 2
    ("AKQ2.KJ3.T94.A65", "7 ltc, 6 controls, 17 tp, 17 dp, 7 quality spades, 3 of top 3 spades"),
    # spades AKJT98 1 loser, hearts Q5 2 (a doubleton queen does not count), clubs KQ432 1
    ("AKJT98.Q5..KQ432", "4 ltc, 4 controls, 18 tp, 19 dp, 22 lsp, 10 quality spades, "
                         "2 of top 3 spades, 5 hcp in clubs, 1 of top 1 spades"),
    ("A.2.AK543.765432", "ltc<=5, 5 ltc, 5 controls, 14 tp, 15 dp, 18 lsp"),
])
def test_worked_examples(pbn, text):
    c = parse_constraint(text)
    h = Hand.from_pbn(pbn)
    assert c.accepts(h)
    for part in c.parts:  # and each is exact: one more or less fails
        lo, hi = part.low, part.high
        if lo != hi:
            continue
        for other in (lo - 1, lo + 1):
            try:
                wrong = type(part)(*_replace(part, other))
            except ValueError:  # out of range: no hand has it
                continue
            assert not wrong.accepts(h), str(wrong)


def _replace(part, value):
    fields = [getattr(part, f) for f in part.__dataclass_fields__]
    names = list(part.__dataclass_fields__)
    fields[names.index("low")] = fields[names.index("high")] = value
    return fields


# ---- the sampler deals under them ---------------------------------------------------------

def test_sampler_deals_under_the_new_constraints():
    text = "ltc<=7, 5+ controls, 2+ of top 3 hearts, 8+ quality hearts, 13+ tp"
    r = deal_hidden(None, {"S": text, "N": "10-12 dp, hcp in spades<=2"}, 40, seed=3)
    assert len(r.deals) == 40
    for d in r.deals:
        s, n = d.south, d.north
        assert plain_ltc(s) <= 7 and plain_controls(s) >= 5
        assert plain_top(s, 1, 3) >= 2 and plain_quality(s, 1) >= 8 and plain_tp(s, True, False) >= 13
        assert 10 <= plain_tp(n, False, True) <= 12 and plain_hcp(_suits(n)[0]) <= 2


def test_top_honours_required_cards_are_dealt_up_front():
    c = parse_constraint("3 of top 3 spades")
    assert {str(x) for x in c.required()} == {"SA", "SK", "SQ"}
    assert {str(x) for x in parse_constraint("top 2 hearts<=0").forbidden()} == {"HA", "HK"}


@pytest.mark.parametrize("text, fragment", [
    ("13 ltc", "ltc cannot be 13"),
    ("2 of top spades", "expected a number"),
    ("2 of 3 spades", "expected 'top N SUIT' after 'of'"),
    ("4 of top 3 spades", "cannot be 4"),
    ("quality 8", "expected a suit"),
    ("hcp in 4", "expected a suit"),
    ("top 14 spades>=1", "N 1..13"),
    ("stopper", "expected a suit after 'stopper'"),
    ("stopper in 3", "expected a suit after 'stopper'"),
])
def test_rejects_malformed_evaluation_terms(text, fragment):
    with pytest.raises(ParseError, match=fragment):
        parse_constraint(text)
