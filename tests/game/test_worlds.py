"""cardgames.worlds: the view read from the play, and the worlds dealt from it."""

from __future__ import annotations

import math

import pytest

from cardgames.cards import Card, Seat
from cardgames.errors import DealError, IllegalPlayError, SamplingError
from cardgames.hands import Deal
from cardgames.play import Position
from cardgames.worlds import View, count_worlds, deal_worlds

REAL = Deal.from_pbn("N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872")


def _view(played=(), constraints=None, seat="S"):
    return View.make(seat, {"S": REAL.south, "N": REAL.north}, "NT", "W", played, constraints)


def test_players_tricks_and_show_outs_are_read_from_the_play():
    # South's HA wins the first trick, East's DA the second.
    v = _view(["HT", "HK", "H4", "HA", "D3", "D6", "D4", "DA"])
    W, N, E, S = Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH
    assert v.players == (W, N, E, S, S, W, N, E)
    assert v.to_move == E and v.tricks_won == (1, 1)
    assert v.voids[W] == frozenset()
    assert v.shown[W].cards == (Card.parse("HT"), Card.parse("D6"))


def test_a_show_out_makes_the_suit_void_in_every_world():
    # West leads the S5, North wins the ace, East follows, South discards? South has spades.
    v = View.make("S", {"S": REAL.south, "N": REAL.north}, "NT", "W",
                  ["S5", "SA", "S6", "S7", "HK", "HQ", "H2", "H8", "CA", "CJ", "CK", "D7"])
    assert v.voids[Seat.WEST] == frozenset({3})  # West showed out of clubs
    worlds = deal_worlds(v, samples=50, seed=3)
    assert all(d.west.length("C") == 0 for d in worlds)
    for d in worlds:  # every world replays the play legally
        Position(d, "NT", "W", v.played)


def test_exhaustive_worlds_are_every_completion_once():
    v = View.make("S", {"S": "K98...", "N": "AJT..."}, "NT", "S", [],
                  in_play="N:AJT... Q7.2.. K98... 6.43..")
    worlds = deal_worlds(v, seed=1)
    assert worlds.exhaustive and len(worlds) == math.comb(6, 3) == count_worlds(v)
    assert len({d.to_pbn() for d in worlds}) == 20


def test_constraints_cut_worlds_and_are_named_when_none_is_left():
    v = View.make("S", {"S": "K98...", "N": "AJT..."}, "NT", "S", [],
                  in_play="N:AJT... Q7.2.. K98... 6.43..", constraints={"W": "holds SQ"})
    assert len(deal_worlds(v)) == 10
    v = View.make("S", {"S": "K98...", "N": "AJT..."}, "NT", "S", [],
                  in_play="N:AJT... Q7.2.. K98... 6.43..", constraints={"W": "4+ spades"})
    with pytest.raises(SamplingError, match="4\\+ spades"):
        deal_worlds(v)


def test_sampling_is_seeded_and_respects_constraints():
    v = _view(["HT"], {"W": "5+ clubs"})
    a = deal_worlds(v, samples=30, seed=7)
    b = deal_worlds(v, samples=30, seed=7)
    assert not a.exhaustive and a.deals == b.deals
    assert all(d.west.length("C") >= 5 and Card.parse("HT") in d.west for d in a)
    assert deal_worlds(v, samples=30, seed=8).deals != a.deals


def test_usually_keeps_a_hand_outside_it_with_its_weight():
    # accepts() takes every hand for 'usually': the weight must be drawn all the same.
    never = deal_worlds(_view(["HT"], {"E": "usually(0) 5+ clubs"}), samples=200, seed=2)
    assert all(d.east.length("C") >= 5 for d in never)
    # Without the constraint some 20% of East's hands hold five clubs; at the weight 0.1
    # about 20 / (20 + 0.1 * 80), 71%, do.
    plain = deal_worlds(_view(["HT"]), samples=2000, seed=3)
    weighted = deal_worlds(_view(["HT"], {"E": "usually 5+ clubs"}), samples=2000, seed=3)
    p = sum(d.east.length("C") >= 5 for d in plain) / 2000
    expected = p / (p + 0.1 * (1 - p))
    share = sum(d.east.length("C") >= 5 for d in weighted) / 2000
    assert abs(share - expected) < 4 * math.sqrt(expected * (1 - expected) / 2000)
    assert deal_worlds(_view(["HT"], {"E": "usually 5+ clubs"}), samples=2000,
                       seed=3).deals == weighted.deals


def test_a_listing_thinned_by_usually_is_a_sample_and_says_so():
    in_play = "N:AJT... Q7.2.. K98... 6.43.."
    make = lambda c: View.make("S", {"S": "K98...", "N": "AJT..."}, "NT", "S", [],  # noqa
                               in_play=in_play, constraints=c)
    every = deal_worlds(make({"W": "usually(0.5) holds SQ"}), seed=1)
    assert not every.exhaustive
    assert 10 <= len(every) < 20      # the 10 with West's queen, about half the others
    assert all(Card.parse("SQ") in d.west for d in deal_worlds(make({"W": "usually(0) holds SQ"}),
                                                              seed=1))
    assert deal_worlds(make({"W": "usually(1) holds SQ"}), seed=1).exhaustive


def test_impossible_constraints_are_refused_by_arithmetic_before_dealing():
    # E and W share the 13 points South and North do not hold: 15 each is impossible, and
    # so are six hearts for West (his HT and the four unseen ones are all he can have).
    # max_attempts=1: were worlds dealt to find this out, the error would be "too few".
    played = ["HT", "HK", "H4", "HA"]
    for constraints, reason in (({"W": "15+ hcp", "E": "15+ hcp"}, "cannot reach 15 points"),
                                ({"W": "6+ hearts"}, "cannot hold 6 hearts"),
                                ({"E": "8-10 hcp", "W": "8-10 hcp"}, "ask for at least 16")):
        with pytest.raises(SamplingError, match=reason) as err:
            deal_worlds(_view(played, constraints), samples=10, seed=1, max_attempts=1)
        assert err.value.attempts == 0 and "no world meets the constraints" in str(err.value)
    # A possible one still deals: the check proves only impossibility.
    worlds = deal_worlds(_view(played, {"W": "5 hearts", "E": "6+ hcp"}), samples=10, seed=1)
    assert all(d.west.length("H") == 5 and d.east.hcp >= 6 for d in worlds)


def test_a_card_not_in_the_players_hand_is_refused():
    with pytest.raises(IllegalPlayError, match="does not hold it"):
        _view(["HT", "H2"])  # North plays the H2, which South holds


def test_a_hidden_hand_cannot_play_a_card_of_a_known_hand():
    with pytest.raises(DealError, match="in S's hand"):
        _view(["HA"])


def test_following_a_suit_after_showing_out_is_refused():
    with pytest.raises(IllegalPlayError, match="showed out"):
        View.make("S", {"S": REAL.south, "N": REAL.north}, "NT", "W",
                  ["S5", "SA", "S6", "S7", "CA", "CJ", "CK", "D7", "C6", "C9", "C4", "C2"])


def test_a_known_hand_may_not_revoke():
    with pytest.raises(IllegalPlayError, match="revokes"):
        _view(["HT", "KH".replace("KH", "HK"), "H4", "D3"])


def test_an_ending_needs_its_cards_in_play():
    with pytest.raises(DealError, match="in play"):
        View.make("S", {"S": "K98...", "N": "AJT..."}, "NT", "S")
