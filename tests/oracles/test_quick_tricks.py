"""The search's quick-trick count against the brute-force minimax.

A quick-trick count at the start of a trick is a claim: the side on lead takes at least
that many tricks, in this position *and in every position that agrees with it on the
ranks it relied on* (the transposition table stores the result for all of them).  Both
halves are checked on random small endings (minimax values from :mod:`cardgames.minimax`):
the count never exceeds the side's tricks in the position, nor in positions made from it by
dealing the cards below the relied-on ranks of each suit anew among the hands (each hand
keeping its length in the suit).  Mostly no-trump, where the count is strongest (a suit whose
winners are split between the hands), some with trumps, and some trump contracts whose
trumps are all gone (counted as no-trump).
"""

from __future__ import annotations

import random

import pytest
from ddsfiles import FULL

from cardgames.cards import Seat, Strain
from cardgames.hands import Deal
from cardgames.minimax import alphabeta, random_ending
from cardgames.play import Position
from ddsolver import _core

#: Batches of random endings per test: 2 in a normal run (CI's), 12 with DDSOLVER_FULL=1.
BATCHES = 12 if FULL else 2
PER_BATCH = 150


def _masks(deal: Deal) -> tuple[int, ...]:
    return tuple(m for hand in deal.hands for m in hand.masks)


def _deal(masks: tuple[int, ...]) -> Deal:
    """The deal of 16 rank masks ([seat][suit])."""
    hands = []
    for seat in range(4):
        suits = []
        for s in range(4):
            m = masks[4 * seat + s]
            suits.append("".join("23456789TJQKA"[r - 2] for r in range(14, 1, -1) if (m >> r) & 1))
        hands.append(".".join(suits))
    return Deal.from_pbn("N:" + " ".join(hands))


def _side_tricks(masks: tuple[int, ...], trump: int, leader: int, side: int | None = None) -> int:
    """Tricks ``side`` (default: the side on lead) takes with best play (the minimax)."""
    deal = _deal(masks)
    ns = alphabeta(Position(deal, Strain(trump), Seat(leader)))
    n = sum(bin(m).count("1") for m in masks[:4])
    if side is None:
        side = leader % 2
    return ns if side == 0 else n - ns


def _agreeing(masks: tuple[int, ...], relied: list[int], rng: random.Random) -> tuple[int, ...]:
    """A position agreeing with ``masks`` on the top cards of each suit down to the lowest
    relied-on rank; the cards below are dealt anew, every hand keeping its length."""
    out = [[0] * 4 for _ in range(4)]
    for s in range(4):
        cards = sorted(((r, seat) for seat in range(4) for r in range(2, 15)
                        if (masks[4 * seat + s] >> r) & 1), reverse=True)
        low = (relied[s] & -relied[s]).bit_length() - 1 if relied[s] else 99
        top = [(r, seat) for r, seat in cards if r >= low]
        rest = cards[len(top):]
        owners = [seat for _, seat in rest]
        rng.shuffle(owners)
        for r, seat in top:
            out[seat][s] |= 1 << r
        for (r, _), seat in zip(rest, owners):
            out[seat][s] |= 1 << r
    return tuple(out[seat][s] for seat in range(4) for s in range(4))


@pytest.mark.parametrize("batch", range(BATCHES))
def test_quick_tricks_are_sure_tricks(batch):
    rng = random.Random(9000 + batch)
    core = _core.Core(4)
    wrong = []
    for _ in range(PER_BATCH):
        n = rng.randrange(2, 5)
        deal = random_ending(rng, n)
        masks = _masks(deal)
        roll = rng.random()
        if roll < 0.7:
            trump = 4
        else:
            trump = rng.randrange(4)
        leader = rng.randrange(4)
        count, relied = core.quick_tricks(masks, trump, leader, n)
        if count == 0:
            continue
        for variant in (masks, _agreeing(masks, relied, rng), _agreeing(masks, relied, rng)):
            exact = _side_tricks(variant, trump, leader)
            if count > exact:
                wrong.append((_deal(variant).to_pbn(), trump, leader, count, exact,
                              deal.to_pbn(), relied))
    assert not wrong, "\n".join(map(str, wrong[:10]))


@pytest.mark.parametrize("batch", range(BATCHES))
def test_sure_trump_tricks_are_sure(batch):
    """The same for the sure trump tricks of either side (top trumps, split top trumps, a
    guarded second trump over the top one, trumps above all of the other side's), which bound the
    search from both sides in trump contracts: never more than the side takes, here and in
    the positions that agree on the ranks relied on.  Random endings with the top trumps
    often split between the sides, where the count's rules differ."""
    rng = random.Random(9100 + batch)
    core = _core.Core(4)
    wrong = []
    seen = 0
    for _ in range(PER_BATCH):
        n = rng.randrange(2, 5)
        deal = random_ending(rng, n)
        masks = _masks(deal)
        trump = rng.randrange(4)
        leader = rng.randrange(4)
        for side in (0, 1):
            # Each count the search may cut on, with the ranks it relies on for it.
            for need in range(1, n + 1):
                count, relied = core.sure_trump_tricks(masks, trump, leader, side, need)
                if count < need:
                    break
                seen += 1
                for variant in (masks, _agreeing(masks, relied, rng)):
                    exact = _side_tricks(variant, trump, leader, side)
                    if count > exact:
                        wrong.append((_deal(variant).to_pbn(), trump, leader, side, count,
                                      exact, deal.to_pbn(), relied))
    assert seen > PER_BATCH // 4
    assert not wrong, "\n".join(map(str, wrong[:10]))


# Spades trumps; West K2 of trumps, South (West's right-hand opponent) AQ; North and East
# hold hearts.  With North-South on lead, West's king sits over the ace and makes a trick;
# with West on lead it must be led from (South wins the two with the queen, then drops the
# king with the ace).
_GUARDED_KING = Deal.from_pbn("N:.32.. .54.. AQ... K2...")


@pytest.mark.parametrize("leader, expected", [(0, 1), (2, 1), (3, 0)])
def test_guarded_second_trump_counts_only_off_lead(leader, expected):
    masks = _masks(_GUARDED_KING)
    count, _ = _core.Core(4).sure_trump_tricks(masks, 0, leader, 1)
    assert count == expected
    assert _side_tricks(masks, 0, leader, 1) >= count
