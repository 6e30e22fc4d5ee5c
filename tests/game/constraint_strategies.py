"""Hypothesis strategies of constraints, shared by the tests of the constraint objects and
of the sampler."""

from __future__ import annotations

from hypothesis import strategies as st

from cardgames import Card
from cardgames.constraints import HCP, Holds, Lacks, Length, Not, Shape, balanced


def constraints():
    """Random vectorisable constraints (and, or, not of the basic terms)."""
    hcp = st.tuples(st.integers(0, 37), st.integers(0, 37)).map(
        lambda t: HCP(min(t), max(t)))
    length = st.tuples(st.sampled_from("SHDC"), st.integers(0, 13), st.integers(0, 13)).map(
        lambda t: Length(t[0], min(t[1:]), max(t[1:])))
    shape = st.lists(st.sampled_from(["4333", "4432", "5332", "5431", "6331", "4=3=3=3",
                                      "5=x=x=x", "x=x=4=x"]), min_size=1, max_size=2,
                     unique=True).map(lambda ps: Shape(*ps))
    cards = st.lists(st.integers(0, 51).map(Card.from_index), min_size=1, max_size=2)
    base = st.one_of(hcp, length, shape, st.just(balanced()), cards.map(Holds),
                     cards.map(Lacks))
    return st.recursive(base, lambda inner: st.one_of(
        st.tuples(inner, inner).map(lambda t: t[0] & t[1]),
        st.tuples(inner, inner).map(lambda t: t[0] | t[1]),
        inner.map(Not)), max_leaves=4)
