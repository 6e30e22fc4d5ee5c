"""cardgames.sampling: the sampler (every constraint honoured, the right frequencies,
seeded, impossible constraints refused fast)."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from constraint_strategies import constraints
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cardgames import Deal, Hand, Seat
from cardgames.constraints import HCP, AllOf, Holds, Length, Predicate, Shape
from cardgames.errors import SamplingError
from cardgames.sampling import Sampler, deal_hidden

WEST = "KQ72.J83.T94.A65"


def test_module_doctests_pass():
    import doctest

    import cardgames.sampling as sampling_module
    failures, attempted = doctest.testmod(sampling_module)
    assert attempted > 0 and failures == 0


# ---- the sampler honours every constraint ---------------------------------------------------

def _check_hand(c, hand: Hand) -> None:
    """An independent check of a constraint, straight from its definition."""
    if isinstance(c, HCP):
        assert c.low <= sum({14: 4, 13: 3, 12: 2, 11: 1}.get(x.rank, 0) for x in hand) <= c.high
    elif isinstance(c, Length):
        assert c.low <= sum(1 for x in hand if x.suit == c.suit) <= c.high
    elif isinstance(c, Holds):
        assert all(x in hand.cards for x in c.cards)
    elif isinstance(c, AllOf):
        for p in c.parts:
            _check_hand(p, hand)
    else:
        assert c.accepts(hand)


@given(seat_constraints=st.dictionaries(
           st.sampled_from([Seat.NORTH, Seat.EAST, Seat.SOUTH]),
           st.lists(st.one_of(
               st.tuples(st.integers(0, 25), st.integers(0, 12)).map(
                   lambda t: HCP(t[0], min(37, t[0] + t[1]))),
               st.tuples(st.sampled_from("SHDC"), st.integers(0, 6), st.integers(0, 5)).map(
                   lambda t: Length(t[0], t[1], t[1] + t[2])),
               st.sampled_from(["4333", "4432", "5332", "5431", "5=x=x=x", "x=4=x=x"]).map(Shape),
               st.sampled_from(["SA", "SJ", "HK", "HQ", "DA", "C2", "CK"]).map(Holds)),
               min_size=1, max_size=3).map(lambda parts: AllOf(parts)),
           min_size=1, max_size=3),
       seed=st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_every_sampled_deal_meets_every_constraint(seat_constraints, seed):
    try:
        sampler = Sampler({"W": WEST}, seat_constraints, seed=seed, batch_size=2048,
                          max_attempts=200_000, max_seconds=5)
        deals = sampler.sample(5)
    except SamplingError:
        assume(False)
    west = Hand.from_pbn(WEST)
    for deal in deals:
        assert deal.is_complete and all(len(h) == 13 for h in deal.hands)
        assert deal.west == west
        for seat, c in seat_constraints.items():
            _check_hand(c, deal[seat])
            assert c.accepts(deal[seat])


@given(c=constraints(), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_nested_and_or_not_constraints_are_honoured(c, seed):
    try:
        deals = Sampler({"W": WEST}, {"N": c}, seed=seed, batch_size=1024,
                        max_attempts=20_000, max_seconds=1).sample(3)
    except SamplingError:
        assume(False)
    assert all(c.accepts(d.north) for d in deals)


def test_not_lacks_two_cards_means_either_card():
    deals = Sampler({"W": WEST}, {"N": "not lacks HA HK"}, seed=2).sample(200)
    assert all("HA" in d.north or "HK" in d.north for d in deals)
    assert any(("HA" in d.north) != ("HK" in d.north) for d in deals)


def test_known_cards_and_python_predicates_are_honoured():
    seen = []

    def more_spades_than_hearts(hand: Hand) -> bool:
        return hand.length("S") > hand.length("H")

    def east_short_in_clubs(deal: Deal) -> bool:
        seen.append(deal)
        return deal.east.length("C") <= 2

    sampler = Sampler({"W": WEST, "N": ["HA", "HK"]},
                      {"N": Predicate(more_spades_than_hearts) & HCP(10, 37),
                       "S": "holds DA, 4+ diamonds"},
                      predicate=east_short_in_clubs, seed=3)
    deals = sampler.sample(20)
    assert len(deals) == 20 and len(seen) >= 20
    for d in deals:
        assert "HA" in d.north and "HK" in d.north and d.north.hcp >= 10
        assert d.north.length("S") > d.north.length("H")
        assert "DA" in d.south and d.south.length("D") >= 4
        assert d.east.length("C") <= 2
    assert 0 < sampler.acceptance_rate < 1
    assert sampler.accepted >= 20 and sampler.attempts >= sampler.accepted


def test_a_deal_with_unknown_hands_is_completed():
    deal = Deal.from_pbn("N:AKQ2.KJ3.T94.A65 - - -")
    [d] = deal_hidden(deal, {}, 1, seed=1).deals
    assert d.north == deal.north and d.is_complete


# ---- the frequencies are right ----------------------------------------------------------

def _within(count: int, n: int, p: float, k: float = 4.0) -> None:
    """count ~ Binomial(n, p): within k standard errors (k=4: a false alarm once in ~16000
    runs, and the seeds are fixed, so the test is deterministic)."""
    se = math.sqrt(n * p * (1 - p))
    assert abs(count - n * p) <= k * se, (count, n * p, se)


def test_an_unconstrained_hidden_hand_holds_a_given_card_a_third_of_the_time():
    n = 6000
    deals = Sampler({"W": WEST}, seed=12345).sample(n)
    for card in ("SA", "HA", "C2"):
        for seat in ("N", "E", "S"):
            count = sum(card in d[seat] for d in deals)
            _within(count, n, 1 / 3)


def test_required_cards_dealt_up_front_condition_exactly_like_rejection():
    # Given that North holds the HA, North holds the HK with chance 12/38: 12 free places in
    # North's hand for the 38 cards that are neither West's nor the HA.
    n = 3000
    p = 12 / 38
    by_predeal = Sampler({"W": WEST}, {"N": "holds HA"}, seed=7).sample(n)
    by_rejection = Sampler({"W": WEST}, {"N": Predicate(lambda h: "HA" in h)}, seed=7).sample(n)
    for deals in (by_predeal, by_rejection):
        assert all("HA" in d.north for d in deals)
        _within(sum("HK" in d.north for d in deals), n, p)


def test_hcp_distribution_of_a_hidden_hand_matches_the_exact_mean():
    # West holds 10 points, so the other three share 30: each hidden hand averages 10.
    n = 4000
    deals = Sampler({"W": WEST}, seed=99).sample(n)
    hcp = np.array([d.north.hcp for d in deals], dtype=float)
    assert abs(hcp.mean() - 10.0) <= 4 * hcp.std(ddof=1) / math.sqrt(n)


# ---- seeding ------------------------------------------------------------------------------

def test_same_seed_same_deals_in_any_chunking():
    a = Sampler({"W": WEST}, {"N": "12+ hcp"}, seed=5).sample(10)
    s = Sampler({"W": WEST}, {"N": "12+ hcp"}, seed=5)
    b = s.sample(3) + s.sample(7)
    assert a == b
    assert a != Sampler({"W": WEST}, {"N": "12+ hcp"}, seed=6).sample(10)


# ---- impossible and too-rare constraints --------------------------------------------------

@pytest.mark.parametrize("constraints, fragment", [
    ({"N": "20+ hcp", "E": "20+ hcp"}, "share 30 points"),
    ({"N": "hcp<=2", "E": "hcp<=2", "S": "hcp<=2"}, "at most 6"),
    ({"N": "5+ spades", "E": "5+ spades"}, "share 9 spades"),
    ({"N": "holds SK"}, "known to be in W's hand"),
    ({"N": "holds SA", "E": "holds SA"}, "required in both"),
    ({"N": "13 spades"}, "only 9 are possible"),
    ({"N": "5+ spades, 5+ hearts, 5+ diamonds"}, "cannot add up to 13"),
    ({"N": "hcp>=20, hcp<=10"}, "no hand has 20 or more"),
    ({"N": "4333, 5+ spades"}, "no hand has 5 or more"),
    ({"W": "unbalanced"}, "does not meet"),
    ({"N": "holds SA SJ ST S9 S8 S6 S5 S4 S3 HA HK HQ HT H9"}, "more than 13"),
])
def test_impossible_constraints_are_refused_before_dealing(constraints, fragment):
    start = time.perf_counter()
    with pytest.raises(SamplingError) as info:
        Sampler({"W": WEST}, constraints, seed=1)
    assert fragment in str(info.value)
    assert time.perf_counter() - start < 1.0


def test_too_rare_constraints_stop_at_the_budget():
    # Possible (North 30 of the 30 points left), but about one deal in 10^8.
    start = time.perf_counter()
    sampler = Sampler({"W": WEST}, {"N": "30 hcp"}, seed=1, max_attempts=300_000)
    with pytest.raises(SamplingError) as info:
        sampler.sample(10)
    assert time.perf_counter() - start < 10
    assert "accept too few deals" in str(info.value)
    assert info.value.attempts <= 300_000 and info.value.accepted == 0


def test_time_budget_stops_a_slow_predicate():
    sampler = Sampler({"W": WEST}, {"N": Predicate(lambda h: False)}, seed=1, max_seconds=1.0)
    start = time.perf_counter()
    with pytest.raises(SamplingError):
        sampler.sample(5)
    assert time.perf_counter() - start < 3


def test_bad_known_cards_are_deal_errors():
    from cardgames.errors import DealError
    with pytest.raises(DealError):
        Sampler({"W": WEST, "N": ["SK"]})


@pytest.mark.parametrize("seed", [-1, 1.5, "1", True])
def test_bad_seeds_are_a_clear_value_error(seed):
    with pytest.raises(ValueError, match="seed must be a non-negative whole number"):
        Sampler({"W": WEST}, seed=seed)


def test_seed_zero_and_numpy_integers_are_seeds():
    a = Sampler({"W": WEST}, seed=np.int64(7)).sample(3)
    assert Sampler({"W": WEST}, seed=7).sample(3) == a
    assert Sampler({"W": WEST}, seed=0).seed == 0


def test_a_usually_part_deals_strays_at_its_weight():
    # Under "12-20 hcp, usually 15-17 hcp" a hand outside 15-17 is kept a tenth as often:
    # its share is w*P(out) / (P(in) + w*P(out)) of the random 12-20 hands
    from cardgames.constraint_syntax import parse_constraint
    from cardgames.sampling import acceptance_rates
    n = 6000
    wide = deal_hidden(None, {"N": "12-20 hcp"}, n, seed=3).deals
    p_in = sum(15 <= d.north.hcp <= 17 for d in wide) / n
    expected = 0.1 * (1 - p_in) / (p_in + 0.1 * (1 - p_in))
    c = parse_constraint("12-20 hcp, usually 15-17 hcp")
    got = deal_hidden(None, {"N": c}, n, seed=3).deals
    share = sum(not 15 <= d.north.hcp <= 17 for d in got) / n
    se = (expected * (1 - expected) / n) ** 0.5
    assert abs(share - expected) < 4 * se, (share, expected)
    assert all(12 <= d.north.hcp <= 20 for d in got)
    # the same seed, the same deals; the rate counts the strays by their weight
    assert deal_hidden(None, {"N": c}, 50, seed=3).deals == got[:50]
    r_usual = acceptance_rates(None, {"N": "15-17 hcp"}, 3)[Seat.NORTH]
    r_c = acceptance_rates(None, {"N": c}, 3)[Seat.NORTH]
    assert r_usual < r_c < r_usual * 1.3


@pytest.mark.parametrize("n", [1.5, None, True, -1])
def test_the_number_of_deals_is_a_whole_number(n):
    with pytest.raises(ValueError, match="whole number"):
        Sampler({}, {}, seed=1).sample(n)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="whole number"):
        deal_hidden({}, {}, n, seed=1)  # type: ignore[arg-type]


def test_arguments_of_the_wrong_kind_are_named():
    with pytest.raises(TypeError, match="constraints must be a mapping"):
        Sampler({}, ["5+ spades"], seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="predicate must be a function"):
        Sampler({}, {}, predicate=5)  # type: ignore[arg-type]
    for bad in (float("nan"), -1, 0):
        with pytest.raises(ValueError, match="max_seconds"):
            Sampler({}, {}, max_seconds=bad)
    for bad_attempts in (2.5, 0, True):   # 2.5 was taken as 2
        with pytest.raises(ValueError, match="max_attempts"):
            Sampler({}, {}, max_attempts=bad_attempts)  # type: ignore[arg-type]


def test_not_of_an_empty_allof_deals_nothing():
    # AllOf([]) accepts every hand; its batch mask was None ("no filter"), which Not
    # passed on, so the sampler dealt hands "not (any)" refuses.
    from cardgames.constraints import Not
    assert not Not(AllOf([])).accepts(Hand.from_pbn(WEST))
    with pytest.raises(SamplingError):
        Sampler(None, {"N": Not(AllOf([]))}, seed=1, max_seconds=1).sample(2)
    assert len(Sampler(None, {"N": AllOf([])}, seed=1).sample(2)) == 2
