"""αμ at full depth against an exact single-dummy oracle written from the definition, on
random small endings with sampled worlds.

The game αμ solves: declarer (for his side) picks one card per *information set* -- the
public play so far, the same in every world, since he sees only his hands and the cards
played -- and the defenders, seeing everything (the safe assumption), pick their cards
world by world.  The value of a declarer card at the root is the largest number of worlds
one strategy after it makes the contract in, whatever the defenders do.

The oracle decides, for a set S of worlds, whether one strategy makes in every world of S
(``wins``): at declarer's turn some card must do it; at a defender's turn *every* card he
could hold must be answered, each in the worlds where he holds it.  Then the root value is
the largest S that wins, found by trying the subsets largest first.  Nothing is shared with
αμ's code (no fronts, no double-dummy solver: the tricks are counted to the end)."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np

from cardgames.cards import Card, Seat
from cardgames.hands import Deal, Hand
from cardgames.play import Position, trick_winner
from cardgames.worlds import View, deal_worlds
from ddsolver.alphamu import alphamu


def oracle(worlds: list[Deal], view: View, declarer: Seat, need: int) -> dict[Card, int]:
    """For each legal card of declarer's side at the view's point: the most worlds in
    which one strategy starting with it makes ``need`` tricks (prior tricks counted)."""
    strain = view.strain
    sides = (declarer, declarer.partner)
    won0 = view.tricks_won[declarer & 1]
    done = len(view.played) - len(view.played) % 4
    trick0 = tuple(zip(view.players[done:], view.played[done:]))
    leader0 = view.players[done] if trick0 else view.to_move
    gone = frozenset(view.played)

    def legal(hand: frozenset, trick: tuple) -> list[Card]:
        if trick:
            follow = [c for c in hand if c.suit == trick[0][1].suit]
            if follow:
                return sorted(follow)
        return sorted(hand)

    @cache
    def wins(hands: tuple, trick: tuple, leader: Seat, won: int, S: frozenset) -> bool:
        left = (sum(len(h) for h in hands[next(iter(S))]) + len(trick)) // 4
        if won >= need:
            return True
        if won + left < need:
            return False
        mover = leader.next(len(trick))
        played_here = {c for _, c in trick}

        def after(card: Card, subset: frozenset) -> bool:
            new_hands = tuple(tuple(h - {card} if s == mover else h
                                    for s, h in enumerate(hw)) if w in subset else hw
                              for w, hw in enumerate(hands))
            t = trick + ((mover, card),)
            if len(t) < 4:
                return wins(new_hands, t, leader, won, subset)
            winner = trick_winner(leader, [c for _, c in t], strain)
            return wins(new_hands, (), winner, won + (winner in sides), subset)

        if mover in sides:   # one card for every world of S: they agree on his hand
            w0 = next(iter(S))
            return any(after(c, S) for c in legal(hands[w0][mover] - played_here, trick))
        cards = {c for w in S for c in legal(hands[w][mover], trick)}
        return all(after(c, frozenset(w for w in S if c in legal(hands[w][mover], trick)))
                   for c in cards)

    mover = leader0.next(len(trick0))
    hands = tuple(tuple(frozenset(d[s].cards) - gone for s in Seat) for d in worlds)
    out = {}
    n = len(worlds)
    w0 = hands[0][mover]
    for card in legal(w0, trick0):
        best = 0
        for size in range(n, 0, -1):
            if any(_after_root(wins, hands, trick0, leader0, won0, card, mover, strain, sides,
                               frozenset(S))
                   for S in combinations(range(n), size)):
                best = size
                break
        out[card] = best
    return out


def _after_root(wins, hands, trick, leader, won, card, mover, strain, sides, S) -> bool:
    new_hands = tuple(tuple(h - {card} if s == mover else h for s, h in enumerate(hw))
                      for hw in hands)
    t = trick + ((mover, card),)
    if len(t) < 4:
        return wins(new_hands, t, leader, won, S)
    winner = trick_winner(leader, [c for _, c in t], strain)
    return wins(new_hands, (), winner, won + (winner in sides), S)


def _endings(count: int, size: int, seed: int):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        cards = rng.permutation(52)[:4 * size]
        deal = Deal(tuple(Hand.from_cards(Card.from_index(int(j)) for j in cards[i::4])
                          for i in range(4)))
        strain = int(rng.integers(5))
        leader = Seat(int(rng.integers(4)))
        pos = Position(deal, strain, leader)
        for _ in range(int(rng.integers(0, 3))):
            pos.play(pos.legal_cards()[int(rng.integers(len(pos.legal_cards())))])
        if len(pos.legal_cards()) < 2:
            continue
        declarer = pos.to_move if rng.integers(2) else pos.to_move.partner
        out.append((deal, strain, leader, list(pos.played), declarer))
    return out


def test_full_depth_alphamu_is_the_exact_single_dummy_value():
    """Every root card's worlds, αμ (deep enough to see to the end) against the oracle,
    for every target that is neither sure nor hopeless, on 4-card endings with 6 worlds.
    PIMC (M = 1) is compared too: it must differ somewhere (strategy fusion), or these
    endings would not tell αμ from PIMC at all."""
    compared = fused = 0
    for seed in range(4):
        for i, (deal, strain, leader, played, declarer) in enumerate(_endings(3, 4, seed)):
            view = View.make(declarer, {declarer: deal[declarer],
                                        declarer.partner: deal[declarer.partner]},
                             strain, leader, played, in_play=deal)
            worlds = deal_worlds(view, samples=6, seed=seed * 10 + i, exhaustive=False)
            won = view.tricks_won[declarer & 1]
            left = len(deal[declarer].cards) - len(played) // 4
            for need in range(won + 1, won + left + 1):
                exact = oracle(list(worlds.deals), view, declarer, need)
                full = alphamu(worlds, declarer=declarer, need=need, depth=12)
                pimc = alphamu(worlds, declarer=declarer, need=need, depth=1)
                for card, makes in exact.items():
                    assert full.card(card).makes == makes, (seed, i, need, str(card))
                    assert pimc.card(card).makes >= makes     # PIMC never claims less
                    fused += pimc.card(card).makes > makes
                    compared += 1
    assert compared > 100 and fused >= 1, (compared, fused)
