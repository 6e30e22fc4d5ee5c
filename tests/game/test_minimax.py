"""Tests for cardgames.minimax, the reference double-dummy solver.

First endings worked out by hand, then the reference answers computed by DDS, then the
searches checked against each other (and against a third, functional search through
TrickGame) on random endings.
"""

import json
import os
import random
import time
from pathlib import Path

import pytest

from cardgames.cards import ALL_CARDS, Card, Seat, Strain
from cardgames.hands import Deal
from cardgames.minimax import (
    alphabeta,
    card_values,
    minimax,
    random_ending,
    random_position,
    solve_ending,
)
from cardgames.play import Position, TrickGame

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "data" / "dds_reference.jsonl"
FULL_SIZE = os.environ.get("DDSOLVER_FULL") == "1"


def values(position):
    """card_values with the cards written as text, to compare with literals."""
    return {str(card): v for card, v in card_values(position).items()}


def snapshot(position):
    return (position.played, position.to_move, position.tricks_ns, position.tricks_ew,
            tuple(position.hand(s) for s in Seat))


# ---- a finesse ---------------------------------------------------------------------------
#
#              North  S A Q
#   West  S K 2               East  H 3 2
#              South  S 5 4
#
# No-trump.  With South on lead, the S4 goes to West: if West plays low North's queen
# wins and the ace then drops the king; if West plays the king North takes the ace and
# the queen is good.  Two tricks.  With North on lead North must give the king a trick
# (1).  With East on lead East cashes both hearts while everyone else throws spades (0).
# West on lead must lead a spade into the ace-queen (2).
FINESSE = Deal.from_pbn("N:AQ... .32.. 54... K2...")
# The same with the king behind the ace-queen: the finesse loses, one trick.
FINESSE_OFFSIDE = Deal.from_pbn("N:AQ... K2... 54... .32..")


@pytest.mark.parametrize("leader, ns_tricks", [("S", 2), ("N", 1), ("E", 0), ("W", 2)])
def test_finesse_ending_depends_on_the_leader(leader, ns_tricks):
    assert solve_ending(FINESSE, "NT", leader) == ns_tricks


def test_finesse_loses_when_the_king_is_offside():
    assert solve_ending(FINESSE_OFFSIDE, "NT", "S") == 1


def test_finesse_inside_the_first_trick():
    # S4 then West's S2: North must finesse the queen (2); the ace leaves the king a trick (1).
    assert values(Position(FINESSE, "NT", "S", ["S4", "S2"])) == {"SA": 1, "SQ": 2}
    # S4 then West's king: now the ace wins and the queen is good (2); the queen loses (1).
    assert values(Position(FINESSE, "NT", "S", ["S4", "SK"])) == {"SA": 2, "SQ": 1}
    # With the king offside nothing North plays gains: one trick either way.
    assert values(Position(FINESSE_OFFSIDE, "NT", "S", ["S4", "H3"])) == {"SA": 1, "SQ": 1}


def test_card_values_count_for_the_side_to_move():
    # After S4 S2 SQ, East (to move) discards a heart; the queen wins this trick and the
    # ace drops the king: East-West take nothing, whatever East throws.
    position = Position(FINESSE, "NT", "S", ["S4", "S2", "SQ"])
    assert position.to_move is Seat.EAST
    assert values(position) == {"H3": 0, "H2": 0}
    # North-South's count includes the trick in progress, which they are winning.
    assert alphabeta(position) == minimax(position) == 2


def test_tricks_already_won_are_not_counted():
    # North (on lead) cashes the ace: West plays low, and then the queen loses to the king.
    position = Position(FINESSE, "NT", "N", ["SA", "H3", "S4", "S2"])
    assert position.tricks_ns == 1
    assert alphabeta(position) == minimax(position) == 0
    assert values(position) == {"SQ": 0}


# ---- a simple squeeze --------------------------------------------------------------------
#
#              North  S 2   H A 2
#   West  S 3   H K 5               East  D K Q J
#              South  H 4   D 2   C A
#
# No-trump, South to lead, three tricks to play.  North-South have two winners (CA, HA).
# South cashes the CA and West, who guards both spades (S3 against North's S2) and
# hearts (HK5 against North's HA2), must discard before North:
#   * West throws the S3: North throws the H2, and the HA then the S2 win: 3 tricks.
#   * West throws a heart: West's other heart falls under the HA, North having thrown
#     the S2, and the H2 is good: 3 tricks.
# Any other first lead loses the squeeze: the H4 first lets West win a trick with the S3
# or a heart (1 trick, the CA stranded); the D2 lets East win and cash diamonds (0).
SQUEEZE = Deal.from_pbn("N:2.A2.. ..KQJ. .4.2.A 3.K5..")
# The same threats with the guards in East, who discards after North: North must throw
# first, and East keeps whichever guard North did not attack.  Only two tricks.
SQUEEZE_WRONG_SIDE = Deal.from_pbn("N:2.A2.. 3.K5.. .4.2.A ..KQJ.")


def test_simple_squeeze_makes_all_three_tricks():
    assert solve_ending(SQUEEZE, "NT", "S") == 3


def test_squeeze_card_must_be_led_first():
    assert values(Position(SQUEEZE, "NT", "S")) == {"CA": 3, "H4": 1, "D2": 0}


def test_squeeze_on_the_wrong_side_fails():
    assert solve_ending(SQUEEZE_WRONG_SIDE, "NT", "S") == 2


def test_squeeze_inside_the_trick_west_to_discard():
    # After the CA, whatever West throws, North-South take all three tricks.
    position = Position(SQUEEZE, "NT", "S", ["CA"])
    assert position.to_move is Seat.WEST
    assert values(position) == {"S3": 0, "HK": 0, "H5": 0}
    # North must then keep the threat West gave up.  After West's S3: the H2 goes (3); the
    # S2 leaves West's HK5 guarding hearts (2: CA, HA); the HA leaves H2 and S2, both
    # losers to West's H5 and HK while South's H4 cannot get to a winner (1: the CA).
    position = Position(SQUEEZE, "NT", "S", ["CA", "S3"])
    assert values(position) == {"S2": 2, "HA": 1, "H2": 3}
    # After West's H5 the S2 goes: the HA drops the HK and the H2 is good (3).
    position = Position(SQUEEZE, "NT", "S", ["CA", "H5"])
    assert values(position) == {"S2": 3, "HA": 1, "H2": 2}


# ---- trump endings ------------------------------------------------------------------------
#
#              North  S 2   D 2
#   West  H A K                 East  H 4 3
#              South  D 4 3
#
# West leads.  In no-trump West cashes two hearts (0 for North-South).  With spades trumps
# North ruffs the first heart and leads a diamond to South: both tricks (2).
RUFF = Deal.from_pbn("N:2..2. .43.. ..43. .AK..")


def test_trumping_wins_tricks_that_notrump_loses():
    assert solve_ending(RUFF, "NT", "W") == 0
    assert solve_ending(RUFF, "S", "W") == 2


def test_overruff_beats_ruff():
    # One card each, spades trumps, West leads the HA: North ruffs with the S2 and
    # East overruffs with the S3 (0).  Give East a diamond instead and the ruff wins (1).
    assert solve_ending(Deal.from_pbn("N:2... 3... .2.. .A.."), "S", "W") == 0
    assert solve_ending(Deal.from_pbn("N:2... ..2. .2.. .A.."), "S", "W") == 1


#              North  S A   H A
#   West  H 3   D 2             East  S K   D 4
#              South  H 4   D 3
#
# Spades trumps, North leads.  Drawing the last trump first (SA drops the SK) and then
# cashing the HA takes both tricks.  Cashing the HA first lets East ruff with the king and
# North ruffs the diamond return: one trick.
DRAW_TRUMPS = Deal.from_pbn("N:A.A.. K..4. .4.3. .3.2.")


def test_draw_trumps_before_cashing_side_winners():
    assert values(Position(DRAW_TRUMPS, "S", "N")) == {"SA": 2, "HA": 1}
    assert solve_ending(DRAW_TRUMPS, "S", "N") == 2
    # In no-trump there is no ruff: both aces are tricks in either order.
    assert values(Position(DRAW_TRUMPS, "NT", "N")) == {"SA": 2, "HA": 2}


def test_second_hand_ruffs_inside_the_trick():
    # After the HA, East's choice, counted for East-West: ruffing wins a trick (1);
    # discarding the diamond lets the SA draw the king (0).
    position = Position(DRAW_TRUMPS, "S", "N", ["HA"])
    assert values(position) == {"SK": 1, "D4": 0}
    assert alphabeta(position) == 1


# ---- edge cases ------------------------------------------------------------------------------

def test_a_finished_play_is_worth_nothing_more():
    position = Position(RUFF, "S", "W", ["HA", "S2", "H3", "D3", "D2", "H4", "D4", "HK"])
    assert position.is_terminal
    assert minimax(position) == alphabeta(position) == 0
    assert card_values(position) == {}


def test_empty_deal_solves_to_zero():
    assert solve_ending(Deal.from_pbn("N:... ... ... ..."), "NT", "N") == 0


def test_solve_ending_accepts_played_cards():
    assert solve_ending(FINESSE, "NT", "S", ["S4", "SK"]) == 2


def test_searches_restore_the_position():
    position = Position(SQUEEZE, "NT", "S", ["CA", "S3"])
    before = snapshot(position)
    minimax(position)
    assert snapshot(position) == before
    alphabeta(position)
    assert snapshot(position) == before
    card_values(position)
    assert snapshot(position) == before


def test_last_trick_is_forced():
    deal = Deal.from_pbn("N:A... K... Q... J...")
    assert solve_ending(deal, "NT", "E") == 1
    assert solve_ending(deal, "H", "E") == 1


# ---- the DDS reference positions ---------------------------------------------------------
#
# dds_reference.jsonl holds, for every deal, a mid-play position scored by DDS.  The late
# ones are small enough for the reference solver: by default those with at most four
# tricks to play (36 cards or more played), with DDSOLVER_FULL=1 also those with five.

def _reference_positions(min_played):
    with REFERENCE.open() as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return [pytest.param(row, id=row["id"]) for row in rows
            if len(row["position"]["played"]) >= min_played]


@pytest.mark.slow
@pytest.mark.parametrize("row", _reference_positions(32 if FULL_SIZE else 36))
def test_card_values_agree_with_dds(row):
    pos = row["position"]
    position = Position(Deal.from_pbn(row["pbn"]), pos["strain"], pos["leader"], pos["played"])
    assert position.to_move is Seat.parse(pos["to_move"])
    assert values(position) == pos["scores"]


# ---- random endings: the searches agree -----------------------------------------------------

def _game_value(game, state):
    """North-South's final tricks by plain minimax through the functional TrickGame
    interface: no play/undo, no pruning, no cache -- a third, independent search."""
    if game.is_terminal(state):
        return game.utility(state)
    outcomes = [_game_value(game, game.result(state, a)) for a in game.actions(state)]
    return max(outcomes) if game.to_move(state).is_ns else min(outcomes)


def _random_positions(seed, count, sizes):
    rng = random.Random(seed)
    two_suits = [c for c in ALL_CARDS if c.suit in (0, 1)]  # endings where suits collide
    for i in range(count):
        deck = two_suits if i % 3 == 0 else None
        deal, strain, leader, played = random_position(rng, rng.choice(sizes), deck=deck)
        yield Position(deal, strain, leader, played)


def test_minimax_equals_alphabeta_on_random_endings():
    checked = 0
    for position in _random_positions(2024, 300, (1, 2, 3)):
        before = snapshot(position)
        assert minimax(position) == alphabeta(position), repr(position)
        assert snapshot(position) == before
        checked += 1
    assert checked == 300


def test_alphabeta_equals_a_functional_search_through_trick_game():
    for position in _random_positions(7, 150, (1, 2)):
        game = TrickGame(position.deal, position.strain, position.leader)
        state = game.initial_state()
        for card in position.played:
            state = game.result(state, card)
        assert _game_value(game, state) - state.tricks_ns == alphabeta(position), repr(position)


def test_best_card_value_is_the_solved_value_for_the_mover():
    for position in _random_positions(99, 150, (1, 2, 3, 4)):
        ns = alphabeta(position)
        mover_side = ns if position.to_move.is_ns else position.tricks_left - ns
        scores = card_values(position)
        assert list(scores) == position.legal_cards()
        assert max(scores.values()) == mover_side, repr(position)
        assert all(0 <= v <= position.tricks_left for v in scores.values())


def test_each_card_value_matches_playing_the_card_and_solving():
    for position in _random_positions(5, 100, (1, 2, 3)):
        mover_is_ns = position.to_move.is_ns
        tricks_left = position.tricks_left
        for card, score in card_values(position).items():
            ns_before = position.tricks_ns
            position.play(card)
            ns = position.tricks_ns - ns_before + minimax(position)
            position.undo()
            assert score == (ns if mover_is_ns else tricks_left - ns), (repr(position), card)


def test_four_card_endings_solve_quickly():
    rng = random.Random(4)
    for _ in range(5):
        deal = random_ending(rng, 4)
        for strain in (Strain.NOTRUMP, Strain.SPADES):
            position = Position(deal, strain, rng.choice(list(Seat)))
            start = time.perf_counter()
            alphabeta(position)
            card_values(position)
            assert time.perf_counter() - start < 2.0, repr(position)


# ---- random_ending and random_position -------------------------------------------------------

def test_random_ending_deals_n_distinct_cards_to_each_hand():
    rng = random.Random(1)
    for n in range(14):
        deal = random_ending(rng, n)
        assert deal.is_complete
        assert [len(h) for h in deal.hands] == [n] * 4
        assert sum(deal.holder(c) is not None for c in ALL_CARDS) == 4 * n


def test_random_ending_is_reproducible_from_the_seed():
    assert random_ending(random.Random(3), 5) == random_ending(random.Random(3), 5)
    assert random_ending(random.Random(3), 5) != random_ending(random.Random(4), 5)


def test_random_ending_deals_from_the_given_deck():
    deck = ["SA", "SK", "SQ", "SJ", "HA", "HK", "HQ", "HJ"]
    deal = random_ending(random.Random(0), 2, deck=deck)
    assert sorted(c for h in deal.hands for c in h) == sorted(Card.parse(c) for c in deck)


@pytest.mark.parametrize("n, deck", [(-1, None), (14, None), (2, ["SA"] * 8),
                                     (3, ["SA", "SK", "SQ", "SJ"])])
def test_random_ending_rejects_impossible_requests(n, deck):
    with pytest.raises(ValueError):
        random_ending(random.Random(0), n, deck=deck)


def test_random_position_plays_up_to_three_legal_cards():
    rng = random.Random(11)
    counts = set()
    for _ in range(200):
        deal, strain, leader, played = random_position(rng, 3)
        assert isinstance(strain, Strain) and isinstance(leader, Seat)
        assert 0 <= len(played) <= 3
        counts.add(len(played))
        position = Position(deal, strain, leader, played)  # raises if a card was illegal
        assert position.tricks == ()
    assert counts == {0, 1, 2, 3}
    assert random_position(rng, 0)[3] == ()
