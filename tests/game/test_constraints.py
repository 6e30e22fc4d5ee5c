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
