"""cardgames.constraints: the constraint objects -- their text form reads back as the same
constraint, and their batch (numpy) test agrees with the per-hand test."""

from __future__ import annotations

import numpy as np
import pytest
from constraint_strategies import constraints
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames import Card, Hand
from cardgames.constraint_syntax import parse_constraint
from cardgames.constraints import Length, Predicate
from cardgames.evaluation import Features


def test_module_doctests_pass():
    import doctest

    import cardgames.constraints as constraints_module
    failures, attempted = doctest.testmod(constraints_module)
    assert attempted > 0 and failures == 0


@given(constraints())
@settings(max_examples=200, deadline=None)
def test_text_form_round_trips(c):
    assert parse_constraint(str(c)) == c


@given(constraints(), st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True))
@settings(max_examples=200, deadline=None)
def test_batch_test_agrees_with_the_per_hand_test(c, indices):
    hand = Hand.from_cards(Card.from_index(i) for i in indices)
    held = np.zeros((1, 52), dtype=bool)
    held[0, indices] = True
    mask = c._mask(Features(held))
    assert bool(mask[0]) == c.accepts(hand)




def test_a_long_bad_shape_pattern_is_quoted_short():
    from cardgames.constraints import Shape
    from cardgames.errors import ParseError

    for pattern in ("4" * 10_000, "4=" * 5_000 + "4"):
        with pytest.raises(ParseError) as info:
            Shape(pattern)
        assert len(str(info.value)) < 250


def test_combinations_take_constraints_and_predicates_not_text():
    from cardgames.constraints import HCP, AllOf, Not, Predicate

    def long_spades(hand):
        return hand.length("S") >= 6

    both = HCP(12, 37) & long_spades
    assert isinstance(both, AllOf) and isinstance(both.parts[1], Predicate)
    # Text is read one layer up (constraint_syntax.as_constraint), not by the combinations.
    for combine in (lambda: HCP(12, 37) & "5+ spades", lambda: HCP(12, 37) | "5+ spades",
                    lambda: AllOf(["5+ spades"]), lambda: Not("balanced")):
        with pytest.raises(TypeError, match="as_constraint"):
            combine()


def test_contradiction_names_what_no_hand_can_meet():
    from cardgames.constraint_syntax import parse_constraint
    from cardgames.constraints import contradiction
    assert contradiction(parse_constraint("15-17 hcp, 5+ spades")) is None
    assert contradiction(parse_constraint("13+ hcp, hcp<=12")).startswith(
        "no hand has 13 or more and 12 or fewer points")
    assert contradiction(parse_constraint("4+ hearts, hearts<=3")).startswith(
        "no hand has 4 or more and 3 or fewer hearts")
    assert "cannot add up to 13 cards" in contradiction(
        parse_constraint("5+ spades, 5+ hearts, 4+ clubs"))


# ---- usually: a part that holds as a rule, not always ------------------------------------------

@given(constraints())
@settings(max_examples=100, deadline=None)
def test_usually_reads_back_and_every_hand_meets_it(c):
    from cardgames.constraints import AllOf, Usually, usual
    u = Usually(c) & Usually(c, 0.25)
    assert parse_constraint(str(u)) == u
    assert usual(u) == AllOf([c, c])
    hand = Hand.from_pbn("AKQJ.T98.765.432")
    assert u.accepts(hand)
    assert (usual(u).accepts(hand)) == c.accepts(hand)


def test_usually_without_a_generator_accepts_the_whole_batch():
    from cardgames.constraints import HCP, Usually
    held = np.zeros((3, 52), dtype=bool)
    held[:, :13] = True                      # every row: all the spades, 10 hcp
    assert Usually(HCP(20, 25))._mask(Features(held)).all()
    # with a generator: kept where the draw falls under the weight, else only if inside
    rng = np.random.default_rng(1)
    got = Usually(HCP(20, 25), 0.5)._mask(Features(np.repeat(held, 2000, 0), rng))
    assert 0.45 < got.mean() < 0.55


@pytest.mark.parametrize("make, message", [
    (lambda U, c: ~U(c), "'not' cannot take a 'usually'"),
    (lambda U, c: U(U(c)), "cannot nest"),
    (lambda U, c: U(c, 1.5), "probability from 0 to 1"),
    (lambda U, c: U(c, True), "probability from 0 to 1"),
    (lambda U, c: U(lambda h: True), "tests in batches"),
    # an 'or' with a Python predicate is tested hand by hand, where 'usually' keeps every
    # hand: its weight would be lost without a word
    (lambda U, c: U(c) | Predicate(lambda h: False), "joined by 'or' with a Python predicate"),
    (lambda U, c: Length("S", 13, 13) | (U(c) & Predicate(lambda h: False)),
     "joined by 'or'"),
])
def test_usually_refuses_what_it_cannot_mean(make, message):
    from cardgames.constraints import HCP, Usually
    with pytest.raises(ValueError, match=message):
        make(Usually, HCP(15, 17))


def test_usually_bounds_say_every_hand_so_nothing_contradicts():
    from cardgames.constraints import HCP, Usually, contradiction
    c = HCP(12, 20) & Usually(HCP(30, 37))   # usually impossible, but possible: 12-20
    assert contradiction(c) is None and c.hcp_bounds() == (12, 20)
