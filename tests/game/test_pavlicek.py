"""Richard Pavlicek's hand evaluations in cardgames.evaluation (freakness, his total,
support and notrump-dummy points, playing tricks) and quick tricks; their constraints, text
syntax and batch tests; and predicates written as batch tests.

Each count is checked against his published figures where he gives them (the freakness of
the patterns and its theoretical average, the worked hands of his point-count study) and,
on random and skewed hands, against a count written out here from the suits as text, with
nothing shared with the library's bit masks."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from cardgames import Hand
from cardgames.constraint_syntax import parse_constraint
from cardgames.constraints import (
    Freakness,
    PavlicekPoints,
    PlayingTricks,
    Predicate,
    QuickTricks,
    RevaluedPoints,
    SupportPoints,
    breaks,
)
from cardgames.errors import ParseError, SamplingError
from cardgames.evaluation import (
    Features,
    freakness,
    pavlicek_points,
    playing_tricks,
    quick_tricks,
    revalued_points,
    support_points,
)
from cardgames.sampling import Sampler, deal_hidden

RANKS = "AKQJT98765432"


def _hands(n: int, seed: int, skew: float | None = None) -> list[Hand]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        if skew is None:
            idx = rng.permutation(52)[:13]
        else:
            p = np.repeat(rng.dirichlet([skew] * 4), 13)
            idx = rng.choice(52, size=13, replace=False, p=p / p.sum())
        out.append(Hand.from_cards([f"{'SHDC'[c // 13]}{RANKS[c % 13]}" for c in idx]))
    return out


HANDS = _hands(500, 11) + _hands(300, 12, skew=0.3)


# ---- the counts written out from the suits as text -----------------------------------------

def _suits(hand: Hand) -> list[str]:
    return hand.to_pbn().split(".")


def _plain_freakness(hand: Hand) -> int:
    lengths = [len(s) for s in _suits(hand)]
    points = sum(max(0, n - 4) + max(0, 3 - n) for n in lengths)
    if 0 in lengths:
        return points + 2
    return points + (1 if 1 in lengths else 0)


def _hcp(suit: str) -> int:
    return sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(c, 0) for c in suit)


def _plain_short(suit: str) -> int:
    if suit == "":
        return 3
    if len(suit) == 1:
        return {"K": 0, "Q": 0, "J": 1}.get(suit, 2)
    if len(suit) == 2:
        top = suit[0]
        no_count = top in "KQJ" and (("Q" in suit) or ("J" in suit))
        return 0 if no_count else 1
    return 0


def _aces_tens(hand: Hand) -> int:
    return int(sum(s.count("A") + s.count("T") for s in _suits(hand)) >= 4)


def _plain_points(hand: Hand, skip: int | None = None) -> int:
    suits = _suits(hand)
    return (sum(_hcp(s) for s in suits) + _aces_tens(hand)
            + sum(_plain_short(s) for i, s in enumerate(suits) if i != skip))


def _plain_support(hand: Hand, trumps: int) -> int:
    suits = _suits(hand)
    extra = sum({0: 2, 1: 1}.get(len(s), 0) for s in suits) if len(suits[trumps]) >= 4 else 0
    return _plain_points(hand, skip=trumps) + extra


def _plain_revalued(hand: Hand) -> int:
    suits = _suits(hand)
    longest = max(len(s) for s in suits)
    bonus = max((longest - 4 for s in suits if len(s) == longest and s[:1] in ("A", "K", "Q")),
                default=0)
    return sum(_hcp(s) for s in suits) + _aces_tens(hand) + max(0, bonus)


# Pavlicek's playing-trick table as he prints it; "x" is any lower card.
_PLAYING = {"AKQ": 3, "AKJ": 2.5, "AQJ": 2.5, "AK": 2, "AQT": 2, "KQJ": 2, "AQ": 1.5,
            "AJx": 1.5, "KQx": 1.5, "KJT": 1.5, "A": 1, "KQ": 1, "KJ": 1, "KTx": 1, "QJx": 1,
            "Kx": 0.5, "Qxx": 0.5, "JTx": 0.5}
_QUICK = {"AK": 2, "AQ": 1.5, "A": 1, "KQ": 1, "Kx": 0.5}


def _matches(suit: str, pattern: str) -> bool:
    honours = [c for c in pattern if c != "x"]
    if len(suit) < len(pattern) or any(c not in suit for c in honours):
        return False
    # each x stands for a card other than the named honours
    return len(suit) - len(honours) >= pattern.count("x")


def _table(suit: str, table: dict[str, float]) -> float:
    return max((v for p, v in table.items() if _matches(suit, p)), default=0)


def _plain_playing(hand: Hand, only: int | None = None) -> float:
    return sum(_table(s, _PLAYING) + max(0, len(s) - 3)
               for i, s in enumerate(_suits(hand)) if only is None or i == only)


def _plain_quick(hand: Hand, only: int | None = None) -> float:
    return sum(_table(s, _QUICK) for i, s in enumerate(_suits(hand))
               if only is None or i == only)


COUNTS = [
    ("freakness", freakness, _plain_freakness, lambda f: f.freakness),
    ("pp", pavlicek_points, _plain_points, lambda f: f.pavlicek_points()),
    ("pp outside hearts", lambda h: pavlicek_points(h, "H"), lambda h: _plain_points(h, 1),
     lambda f: f.pavlicek_points(1)),
    ("support spades", lambda h: support_points(h, "S"), lambda h: _plain_support(h, 0),
     lambda f: f.support_points(0)),
    ("support clubs", lambda h: support_points(h, "C"), lambda h: _plain_support(h, 3),
     lambda f: f.support_points(3)),
    ("rp", revalued_points, _plain_revalued, lambda f: f.revalued_points()),
    ("pt", playing_tricks, _plain_playing, lambda f: f.playing_halves().sum(axis=1) / 2),
    ("pt in diamonds", lambda h: playing_tricks(h, "D"), lambda h: _plain_playing(h, 2),
     lambda f: f.playing_halves()[:, 2] / 2),
    ("qt", quick_tricks, _plain_quick, lambda f: f.quick_halves().sum(axis=1) / 2),
    ("qt in spades", lambda h: quick_tricks(h, "S"), lambda h: _plain_quick(h, 0),
     lambda f: f.quick_halves()[:, 0] / 2),
]


def _features(hands: list[Hand]) -> Features:
    held = np.zeros((len(hands), 52), dtype=bool)
    for i, h in enumerate(hands):
        held[i, [c.index for c in h]] = True
    return Features(held)


@pytest.mark.parametrize("name,count,plain,batch", COUNTS, ids=[c[0] for c in COUNTS])
def test_counts_match_the_plain_count_hand_by_hand_and_in_a_batch(name, count, plain, batch):
    want = [plain(h) for h in HANDS]
    assert [count(h) for h in HANDS] == want
    assert np.asarray(batch(_features(HANDS))).tolist() == want
    assert len(set(want)) > 3  # the hands exercise the count


# ---- his published figures ------------------------------------------------------------------

@pytest.mark.parametrize("pattern,value", [
    ("4333", 0), ("4432", 1), ("5332", 2), ("4441", 3), ("5422", 3), ("5431", 4), ("7330", 8),
    ("6511", 8), ("13000", 20)])
def test_freakness_of_patterns(pattern, value):
    lengths = [13, 0, 0, 0] if pattern == "13000" else [int(c) for c in pattern]
    hand = Hand.from_pbn(".".join(RANKS[:n] for n in lengths))
    assert freakness(hand) == value


def test_freakness_averages_his_theoretical_figures():
    """rpbridge.net 8UA6: the theoretical average freakness of a hand is 2.98 and of a
    deal (four hands) 11.93.  Exactly, over every suit-length pattern and its chance."""
    total = math.comb(52, 13)
    mean = 0.0
    for a, b, c in itertools.product(range(14), repeat=3):
        d = 13 - a - b - c
        if d < 0:
            continue
        ways = math.comb(13, a) * math.comb(13, b) * math.comb(13, c) * math.comb(13, d)
        lengths = [a, b, c, d]
        f = sum(max(0, n - 4) + max(0, 3 - n) for n in lengths)
        f += 2 if 0 in lengths else 1 if 1 in lengths else 0
        mean += f * ways / total
    assert round(mean, 2) == 2.98
    assert round(4 * mean, 2) == 11.93
    # ... and the library's count gives the same mean on random hands, within sampling error
    sample = [freakness(h) for h in _hands(4000, 5)]
    assert abs(np.mean(sample) - mean) < 4 * np.std(sample) / math.sqrt(len(sample))


@pytest.mark.parametrize("pbn,points", [
    ("KJ865.AK7.43.T72", 12),   # his example 1: 11 hcp + a doubleton
    ("KJ865.AK74.3.T72", 13),   # example 2: the singleton is worth 2
    ("K.AQ765.K8765.32", 13),   # 12 hcp; a singleton king: its hcp, no shortness
    ("J.AQ765.K8765.32", 12),   # 10 hcp; a singleton jack: 2 in all
    ("QT.AQ765.K876.32", 12),   # 11 hcp; Q-x counts no doubleton point
    ("AQ.KJ765.8765.32", 12),   # 10 hcp; A-Q does
    ("AT.AT76.AT65.A32", 18),   # 16 hcp, a doubleton; four aces and tens: one more
])
def test_pavlicek_points_worked_examples(pbn, points):
    assert pavlicek_points(Hand.from_pbn(pbn)) == points


def test_support_and_revalued_points():
    hand = Hand.from_pbn("8.KJ76.A8765.432")  # 8 hcp, singleton 2, doubleton 0
    assert pavlicek_points(hand) == 10
    assert support_points(hand, "H") == 11  # 4 trumps: the singleton 1 more
    assert support_points(hand, "C") == 10  # 3 trumps: no dummy points
    assert pavlicek_points(hand, "S") == 8  # no shortness in partner's spades
    # Short in partner's suit: no shortness points there (rpbridge.net 2z04, note 1).
    short = Hand.from_pbn("K65432..Q432.J32")   # 6 hcp, a heart void
    assert support_points(short, "H") == 6
    assert support_points(short, "S") == 11     # spades: the void 3, and 2 more as dummy
    assert revalued_points(Hand.from_pbn("AQ876.K32.J2.876")) == 11  # 10 hcp + 1 long card
    assert revalued_points(Hand.from_pbn("J9876.K32.A2.876")) == 8   # not headed by a queen


@pytest.mark.parametrize("suit,tricks", [
    ("AKQ", 3), ("AKQJ", 4), ("AKJ2", 3.5), ("AK", 2), ("AQT", 2), ("KQJT9", 4),
    ("AQ", 1.5), ("AJ2", 1.5), ("KQ2", 1.5), ("KJT", 1.5), ("A", 1), ("KQ", 1), ("KJ", 1),
    ("KT2", 1), ("QJ2", 1), ("K2", 0.5), ("Q32", 0.5), ("JT2", 0.5), ("Q2", 0), ("J32", 0),
    ("K", 0), ("765432", 3)])
def test_playing_tricks_table(suit, tricks):
    # the suit in spades, the rest of the hand honourless and short: the table is per suit
    hand = Hand.from_pbn(f"{suit}.{'5432'[:13 - len(suit)]}..")
    assert playing_tricks(hand, "S") == tricks
    hearts = min(4, 13 - len(suit))
    assert playing_tricks(hand) == tricks + max(0, hearts - 3)  # + the long heart


# ---- constraints, syntax, sampling -----------------------------------------------------------

CONSTRAINTS = [
    ("freakness<=7", Freakness(0, 7), lambda h: freakness(h) <= 7),
    ("13-14 pp", PavlicekPoints(13, 14), lambda h: 13 <= pavlicek_points(h) <= 14),
    ("11+ support hearts", SupportPoints("H", 11), lambda h: support_points(h, "H") >= 11),
    ("10-14 rp", RevaluedPoints(10, 14), lambda h: 10 <= revalued_points(h) <= 14),
    ("pt<6.5", PlayingTricks(0, 6), lambda h: playing_tricks(h) < 6.5),
    ("pt in spades>=2.5", PlayingTricks(2.5, 13, "S"), lambda h: playing_tricks(h, "S") >= 2.5),
    ("qt 1.5-3", QuickTricks(1.5, 3), lambda h: 1.5 <= quick_tricks(h) <= 3),
    ("pp outside spades>12", PavlicekPoints(13, 55, "S"),
     lambda h: pavlicek_points(h, "S") > 12),
]


@pytest.mark.parametrize("text,made,test", CONSTRAINTS, ids=[c[0] for c in CONSTRAINTS])
def test_constraints_from_text_test_hands_and_batches_alike(text, made, test):
    c = parse_constraint(text)
    assert c == made
    assert parse_constraint(str(c)) == c
    want = [test(h) for h in HANDS]
    assert [c.accepts(h) for h in HANDS] == want
    assert c._mask(_features(HANDS)).tolist() == want
    assert 0 < sum(want) < len(want)
    failing = next(h for h, w in zip(HANDS, want) if not w)
    assert "has " in breaks(c, failing)


@pytest.mark.parametrize("text,fragment", [
    ("pt<6.3", "multiple of 0.5"), ("15.5 hcp", "whole number"), ("support 11", "suit"),
    ("pt in", "suit"), ("freakness>=21", "at most 20"), ("qt>=8.5", "at most 8")])
def test_rejects_malformed_terms(text, fragment):
    with pytest.raises(ParseError, match=fragment):
        parse_constraint(text)


def test_python_api_rejects_bad_ranges():
    with pytest.raises(ValueError, match="half tricks"):
        PlayingTricks(6.3, 7)
    with pytest.raises(ValueError, match="0 <= low <= high"):
        Freakness(5, 3)


def test_sampler_deals_under_pavlicek_constraints():
    west = Hand.from_pbn("AJ92.J2.J32.J432")
    c = {"S": "5+ spades, 4+ hearts, 13-14 pp, freakness<=7",
         "N": "4+ hearts, spades<=3, 11+ support hearts"}
    deals = deal_hidden({"W": west}, c, 40, seed=4).deals
    assert len(deals) == 40
    for d in deals:
        s, n = d.hands[2], d.hands[0]
        assert s.length("S") >= 5 and s.length("H") >= 4 and freakness(s) <= 7
        assert 13 <= pavlicek_points(s) <= 14
        assert n.length("H") >= 4 and n.length("S") <= 3 and support_points(n, "H") >= 11
    # the same seed deals the same deals
    assert deal_hidden({"W": west}, c, 40, seed=4).deals == deals


def test_predicates_as_batch_tests():
    longer = Predicate(batch=lambda f: f.lengths[:, 0] > f.lengths[:, 1])
    assert longer.vectorised
    want = [h.length("S") > h.length("H") for h in HANDS]
    assert [longer.accepts(h) for h in HANDS] == want
    assert longer._mask(_features(HANDS)).tolist() == want
    both = longer & parse_constraint("10+ hcp")
    assert both.vectorised and both._mask(_features(HANDS)).tolist() == \
        [w and h.hcp >= 10 for w, h in zip(want, HANDS)]
    bad = Predicate(batch=lambda f: f.hcp)  # not a bool array
    with pytest.raises(TypeError, match="bool array"):
        bad._mask(_features(HANDS))
    with pytest.raises(TypeError):
        Predicate()


def test_sampler_batch_predicate_on_the_whole_deal():
    def game_values(f):
        return f[0].hcp + f[2].hcp >= 26

    result = deal_hidden({"W": "AJ92.J2.J32.J432"}, {"N": "4+ hearts"}, 60, seed=9,
                         batch_predicate=game_values)
    assert len(result.deals) == 60
    assert all(d.hands[0].hcp + d.hands[2].hcp >= 26 and d.hands[0].length("H") >= 4
               for d in result.deals)
    assert result.acceptance_rate < 0.5  # the predicate did reject deals
    with pytest.raises(TypeError, match="bool array"):
        Sampler({"W": "AJ92.J2.J32.J432"}, seed=1,
                batch_predicate=lambda f: f[0].hcp).sample(1)
    with pytest.raises(SamplingError):
        Sampler({"W": "AJ92.J2.J32.J432"}, seed=1, max_attempts=50_000,
                batch_predicate=lambda f: f[0].hcp > 40).sample(1)
