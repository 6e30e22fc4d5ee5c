"""ddsolver.duel: deals played out card by card from each player's view.

The identities: αμ with M = 1 *is* PIMC, and the two declarers share the worlds where their
views agree, so a duel of ``alphamu:1`` against ``pimc`` plays every deal identically; a
play is legal and scored by the rules; the same seed gives the same plays.  Then the
protocol's deals, the summary's arithmetic, and bad input."""

from __future__ import annotations

import math

import pytest

from cardgames.cards import Seat
from cardgames.constraint_syntax import parse_constraint
from cardgames.hands import Deal
from cardgames.play import Position
from cardgames.scoring import Contract, Vulnerability, imps, score
from ddsolver import Solver
from ddsolver.duel import (
    DuelDeal,
    Method,
    decision_seed,
    duel_deal,
    play_deal,
    protocol_deals,
    summarise,
    wilson,
)


def test_method_parse_and_describe():
    assert Method.parse("alphamu:3") == Method("alphamu", 3)
    assert Method.parse("alphamu", 10) == Method("alphamu", 2, 10)
    assert Method.parse("PIMC").label == "pimc" and Method.parse("dd").describe() == \
        "double dummy"
    for bad, message in (("alphamu:x", "whole number"), ("pimc:2", "only alphamu"),
                         ("minimax", "unknown method"), ("alphamu:0", "at least 1")):
        with pytest.raises(ValueError, match=message):
            Method.parse(bad)


def test_protocol_deals_are_seeded_and_within_a_trick_of_making():
    solver = Solver(16)
    deals = list(protocol_deals(6, seed=3))
    assert [d.deal for d in deals] == [d.deal for d in protocol_deals(6, seed=3)]
    assert [d.deal for d in protocol_deals(3, seed=3, start=3)] == [d.deal for d in deals[3:]]
    for d in deals:
        assert str(d.contract) == "3NTS"
        assert abs(solver.solve(d.deal, "NT", "S") - 9) <= 1
    four = next(protocol_deals(1, seed=3, contract="4S", declarer="E", tolerance=0))
    assert solver.solve(four.deal, "S", "E") == 10
    with pytest.raises(ValueError, match="expected a strain"):
        next(protocol_deals(1, seed=1, contract="3XY"))
    with pytest.raises(ValueError, match="names its declarer"):
        next(protocol_deals(1, seed=1, contract="3NTN"))


@pytest.fixture(scope="module")
def deals() -> list[DuelDeal]:
    return list(protocol_deals(4, seed=11))


def test_a_play_is_legal_and_scored_by_the_rules(deals):
    for d in deals[:2]:
        play = play_deal(d, Method("pimc", worlds=8), Method("dd"), seed=1)
        pos = Position(d.deal, "NT", Seat.WEST)
        for card in play.played:       # raises for an illegal card
            pos.play(card)
        assert pos.is_terminal and len(play.played) == 52
        assert play.tricks == pos.tricks_won(Seat.SOUTH)
        assert play.made == (play.tricks >= 9)
        assert play.score == score(d.contract, play.tricks, False)
        # double-dummy defenders: declarer never takes more than the double-dummy count
        assert play.tricks <= Solver().solve(d.deal, "NT", "S")
        assert 0 < play.decisions <= 26 and 0 < play.defence_decisions <= 26


def test_alphamu_at_depth_one_plays_exactly_as_pimc(deals):
    """M = 1 is PIMC, card for card, and the worlds are common: identical plays."""
    for d in deals:
        r = duel_deal(d, Method("alphamu", 1, 8), Method("pimc", worlds=8),
                      Method("pimc", worlds=8), seed=5)
        assert r.plays[0].played == r.plays[1].played
        assert not r.differ and r.imps == 0 and r.matchpoints == 0.5


def test_the_same_seed_gives_the_same_plays_and_another_seed_other_worlds(deals):
    d = deals[0]
    a = duel_deal(d, Method("alphamu", 2, 8), Method("pimc", worlds=8), Method("dd"), seed=2)
    b = duel_deal(d, Method("alphamu", 2, 8), Method("pimc", worlds=8), Method("dd"), seed=2)
    assert [p.played for p in a.plays] == [p.played for p in b.plays]   # (times differ)
    assert decision_seed(2, d, Seat.SOUTH, ()) != decision_seed(3, d, Seat.SOUTH, ())
    assert decision_seed(2, d, Seat.SOUTH, ()) != decision_seed(2, d, Seat.NORTH, ())


def test_stored_plays_are_not_played_again(deals):
    d = deals[1]
    first = duel_deal(d, Method("alphamu", 2, 8), Method("pimc", worlds=8), Method("dd"),
                      seed=4)
    seen = []
    again = duel_deal(d, Method("alphamu", 2, 8), Method("pimc", worlds=8), Method("dd"),
                      seed=4, done={"pimc": first.plays[1]}, on_play=seen.append)
    assert [p.played for p in again.plays] == [p.played for p in first.plays]
    assert again.plays[1] is first.plays[1] and [p.method for p in seen] == ["alphamu:2"]


def test_constraints_shape_the_worlds_and_are_dropped_when_the_play_breaks_them():
    """A constraint that the real East breaks: once his cards show it, the decisions deal
    worlds without the auction (counted as relaxed), and the play goes on."""
    d = next(protocol_deals(1, seed=21))
    east = d.deal[Seat.EAST]
    wrong = parse_constraint(f"hcp<={max(0, east.hcp - 4)}")
    bent = DuelDeal(d.label, d.deal, d.contract, constraints={Seat.EAST: wrong})
    play = play_deal(bent, Method("pimc", worlds=6), Method("pimc", worlds=6), seed=1)
    assert len(play.played) == 52 and play.relaxed > 0


def test_summary_figures():
    d = next(protocol_deals(1, seed=11))
    from ddsolver.duel import DuelResult, Play

    def p(method: str, tricks: int) -> Play:
        return Play(method, (), tricks, tricks >= 9, score(d.contract, tricks, False), 10, 1.0,
                    5, 0.5)
    results = [DuelResult(d, 9, (p("a", 9), p("b", 8))),     # a wins: +12 IMPs (400 - -50)
               DuelResult(d, 9, (p("a", 8), p("b", 9))),
               DuelResult(d, 9, (p("a", 10), p("b", 9))),
               DuelResult(d, 9, (p("a", 9), p("b", 7)))]
    s = summarise(results)
    assert s.deals == 4 and s.made == (3, 2) and s.differ == 3 and s.first_wins == 2
    assert s.imps == pytest.approx((imps(450) - imps(450) + imps(30) + imps(500)) / 4)
    assert s.matchpoints == pytest.approx(3 / 4)
    assert s.seconds_per_decision == (0.1, 0.1) and s.defence_decisions == 40
    assert s.win_ci == wilson(2, 3)
    lo, hi = wilson(2, 3)
    assert lo < 2 / 3 < hi and math.isclose(lo, 0.2077, abs_tol=1e-3)
    assert math.isnan(summarise([]).imps)


def test_bad_input():
    d = next(protocol_deals(1, seed=11))
    with pytest.raises(ValueError, match="declarer plays by alphamu or pimc"):
        play_deal(d, Method("dd"), Method("pimc"), seed=1)
    with pytest.raises(ValueError, match="αμ plays for declarer"):
        play_deal(d, Method("pimc"), Method("alphamu"), seed=1)
    from cardgames.errors import CardgamesError
    with pytest.raises(CardgamesError, match="names no declarer"):
        DuelDeal("x", d.deal, Contract.parse("3NT"))
    half = Deal.from_pbn("N:AKQ... JT9... 876... 543...")
    with pytest.raises(CardgamesError, match="not complete"):
        DuelDeal("x", half, Contract.parse("3NTS"), Vulnerability.NONE)
