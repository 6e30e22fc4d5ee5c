"""The core's batch entry for single-dummy search (``Solver.reaches_many``): many
null-window searches over sampled worlds on one table kept between them.  Each answer is
checked against an exact solve of the same position on a fresh solver."""

from __future__ import annotations

import random

import pytest

from cardgames import Deal
from cardgames.cards import ALL_CARDS
from cardgames.hands import Hand
from cardgames.play import Position
from ddsolver import Solver
from ddsolver.solver import deal_masks


def random_deal(rng: random.Random, cards: int) -> Deal:
    pack = rng.sample(ALL_CARDS, 52)
    return Deal(tuple(Hand.from_cards(pack[i::4][:cards]) for i in range(4)))


def random_play(rng: random.Random, deal: Deal, strain: str, leader: str, cards: int) -> bytes:
    pos = Position(deal, strain, leader)
    for _ in range(cards):
        legal = pos.legal_cards()
        pos.play(legal[rng.randrange(len(legal))])
    return bytes(c.suit * 16 + c.rank for c in pos.played)


@pytest.mark.parametrize("strain,trump", [("NT", 4), ("S", 0), ("D", 2)])
@pytest.mark.parametrize("size", [5, 8, 13])
def test_every_answer_is_the_exact_solve(strain, trump, size):
    """Worlds sharing one table, questions in an interleaved order, plays of 0..6 cards
    (tricks completed and not), every target: each answer equals the exact count."""
    rng = random.Random(size * 10 + trump)
    deals = [random_deal(rng, size) for _ in range(6)]
    worlds = [deal_masks(d) for d in deals]
    asks = []
    for _ in range(60):
        w = rng.randrange(len(deals))
        asks.append((w, random_play(rng, deals[w], strain, "E", rng.randrange(0, 7)),
                     rng.randrange(0, size + 1)))
    solver = Solver(8)
    got = solver.reaches_many(worlds, trump, 1, asks)
    fresh = Solver(8)
    for (w, played, target), yes in zip(asks, got):
        ns, won, _ = fresh._core.solve(worlds[w], trump, 1, played)
        assert bool(yes) == (ns + won >= target), (deals[w], played, target)
    # The table kept from the first call changes no answer of a second one.
    assert solver.reaches_many(worlds, trump, 1, asks[::-1]) == got[::-1]
    assert solver.reaches_many(worlds, trump, 1, asks, forget=True) == got


def test_the_table_stays_within_its_size():
    rng = random.Random(3)
    deals = [random_deal(rng, 13) for _ in range(30)]
    solver = Solver(1)
    solver.reaches_many([deal_masks(d) for d in deals], 4, 0,
                        [(w, b"", 7) for w in range(30)])
    assert solver.tt_used <= solver.tt_capacity


def test_bad_arguments_name_the_world_or_the_ask():
    rng = random.Random(4)
    a, b = deal_masks(random_deal(rng, 13)), deal_masks(random_deal(rng, 5))
    solver = Solver(1)
    with pytest.raises(ValueError, match="world 1 has 5 cards a hand, world 0 13"):
        solver.reaches_many([a, b], 4, 0, [(0, b"", 7)])
    with pytest.raises(ValueError, match="world must be 0..0, got 1"):
        solver.reaches_many([a], 4, 0, [(0, b"", 7), (1, b"", 7)])
    with pytest.raises(ValueError, match="target must be 0..13, got 14"):
        solver.reaches_many([a], 4, 0, [(0, b"", 14)])
    with pytest.raises(ValueError, match=r"item 1 \(world 0\): played card 1: .* not in N's"):
        east_card = next(s * 16 + r for s in range(4) for r in range(2, 15)
                         if a[4 + s] >> r & 1)
        solver.reaches_many([a], 4, 0, [(0, b"", 7), (0, bytes([east_card]), 7)])
    with pytest.raises(TypeError, match="item 0: expected"):
        solver.reaches_many([a], 4, 0, [(0, b"")])
    with pytest.raises(TypeError, match="world 0: a deal is a tuple"):
        solver.reaches_many([list(a)], 4, 0, [(0, b"", 7)])
    with pytest.raises(ValueError, match="world 0: mask 0"):
        solver.reaches_many([(1,) + a[1:]], 4, 0, [])
    assert solver.reaches_many([a], 4, 0, []) == b""
