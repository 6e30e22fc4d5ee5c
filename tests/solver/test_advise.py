"""ddsolver.advise and ddsolver.alphamu: the two oracle identities first (one world: αμ and
PIMC are double dummy; M = 1: αμ is PIMC), then the report and bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cardgames.cards import Card, Seat
from cardgames.errors import CardgamesError, DealError, IllegalPlayError, SamplingError
from cardgames.hands import Deal, Hand
from cardgames.play import Position
from cardgames.worlds import View, deal_worlds
from ddsolver import Solver
from ddsolver.advise import advise, card_groups
from ddsolver.alphamu import alphamu, front_max, front_min, pareto


def _random_positions(count: int, size: int, seed: int):
    """Endings of ``size`` cards a hand, dealt at random, with a few random legal cards
    played, declarer's side to move: (deal, strain, leader, played, declarer)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        cards = rng.permutation(52)[:4 * size]
        hands = [Hand.from_cards(Card.from_index(int(j)) for j in cards[i::4]) for i in range(4)]
        deal = Deal(tuple(hands))
        strain = int(rng.integers(5))
        leader = Seat(int(rng.integers(4)))
        pos = Position(deal, strain, leader)
        for _ in range(int(rng.integers(0, 6))):
            legal = pos.legal_cards()
            pos.play(legal[int(rng.integers(len(legal)))])
        if pos.is_terminal or len(pos.legal_cards()) < 2:
            continue
        declarer = pos.to_move if rng.integers(2) else pos.to_move.partner
        out.append((deal, strain, leader, list(pos.played), declarer))
    return out


def _view(deal, strain, leader, played, declarer):
    return View.make(declarer, {declarer: deal[declarer], declarer.partner:
                                deal[declarer.partner]}, strain, leader, played,
                     in_play=deal)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_one_world_alphamu_equals_double_dummy(solver: Solver, depth):
    """With the real deal as the only world, nothing is hidden: αμ's verdict for every card
    is the double-dummy one (the facade's card_scores, a separate path from αμ's leaves)."""
    for deal, strain, leader, played, declarer in _random_positions(12, 5, seed=depth):
        view = _view(deal, strain, leader, played, declarer)
        scores = solver.card_scores(deal, strain, leader, played)
        won = view.tricks_won[declarer & 1]
        for need in range(won, won + 6):
            result = alphamu([deal], view, declarer=declarer, need=need, depth=depth)
            for card, tricks in scores.items():
                assert result.card(card).makes == int(won + tricks >= need), \
                    (deal, strain, leader, played, card, need)


def test_one_world_pimc_equals_double_dummy(solver: Solver):
    for deal, strain, leader, played, declarer in _random_positions(10, 5, seed=11):
        view = _view(deal, strain, leader, played, declarer)
        hidden = [s for s in Seat if s not in (declarer, declarer.partner)]
        # constraints naming every hidden card leave exactly one world
        cons = {s: "holds " + " ".join(map(str, deal[s])) for s in hidden}
        report = advise(deal[declarer], "1NT" if strain == 4 else f"1{'SHDC'[strain]}",
                        declarer, seat=declarer, dummy=deal[declarer.partner], played=played,
                        leader=leader, in_play=deal, constraints=cons, seed=1)
        assert len(report.worlds) == 1
        scores = solver.card_scores(deal, strain, leader, played)
        prior = view.tricks_won[declarer & 1]  # declarer_won is 0
        for row in report.rows:
            assert row.mean == prior + scores[row.cards[0]]
        del view


def test_depth_one_alphamu_is_pimc_on_the_same_worlds():
    """M = 1: one move of declarer's, then every world double dummy -- PIMC exactly."""
    for i, (deal, strain, leader, played, declarer) in enumerate(
            _random_positions(8, 6, seed=5)):
        for need_extra in (0, 1):
            left = (4 * len(deal.north) - len(played) + len(played) % 4) // 4
            need = 13 - left + need_extra  # declarer_won below is 13 - cards, so this varies
            suit = "NT" if strain == 4 else "SHDC"[strain]
            report = advise(deal[declarer], f"{max(1, min(7, need - 6))}{suit}", declarer,
                            seat=declarer, dummy=deal[declarer.partner], played=played,
                            leader=leader, in_play=deal, declarer_won=0, method="alphamu",
                            depth=1, samples=25, seed=i, exhaustive=False)
            for row in report.rows:
                assert row.alphamu == pytest.approx(row.chance), row.label


@pytest.mark.parametrize("depth", [2, 3])
def test_optimisations_change_nothing(depth):
    """Cuts, dropped worlds, the transposition table, equivalent cards and the one-world
    shortcut against the plain search, card by card, on random endings with sampled
    worlds and every target."""
    for i, (deal, strain, leader, played, declarer) in enumerate(
            _random_positions(8, 5, seed=20 + depth)):
        view = _view(deal, strain, leader, played, declarer)
        worlds = deal_worlds(view, samples=6, seed=i, exhaustive=False)
        won = view.tricks_won[declarer & 1]
        for need in range(won + 1, won + 4):
            fast = alphamu(worlds, declarer=declarer, need=need, depth=depth)
            plain = alphamu(worlds, declarer=declarer, need=need, depth=depth, _plain=True)
            for card in (c for row in fast.cards for c in row.cards):
                assert fast.card(card).makes == plain.card(card).makes, (i, need, card)
            assert plain.nodes >= fast.nodes


def test_threads_change_nothing():
    view, worlds = _problem_worlds()
    one = alphamu(worlds, declarer="S", need=13, depth=4, jobs=1)
    two = alphamu(worlds, declarer="S", need=13, depth=4, jobs=2)
    assert one.fronts == two.fronts and one.leaves == two.leaves


@pytest.mark.parametrize("kwargs, match", [
    ({"need": -3}, "need must be .* 0 to 13"), ({"need": 14}, "need"),
    ({"need": 13, "declarer_won": 99}, "declarer_won must be .* 0 to 10"),
])
def test_alphamu_checks_its_tricks(kwargs, match):
    _, worlds = _problem_worlds()
    with pytest.raises(ValueError, match=match):
        alphamu(worlds, declarer="S", depth=2, **kwargs)


def test_alphamu_refuses_worlds_that_are_not_the_views():
    # South's hand in the world contradicts the view: the best card would be one South
    # does not hold.
    view, _ = _problem_worlds()
    wrong = Deal.from_pbn("N:AJT... Q9.2.. K87... 6.43..")
    with pytest.raises(ValueError, match="world 1 is not one of the view's: S"):
        alphamu([wrong], view, declarer="S", need=13)


def _problem_worlds():
    v = View.make("S", {"S": "K98...", "N": "AJT..."}, "NT", "S", [],
                  in_play="N:AJT... Q7.2.. K98... 6.43..")
    return v, deal_worlds(v, seed=1)


def test_alphamu_never_claims_more_than_pimc():
    for i, (deal, strain, leader, played, declarer) in enumerate(
            _random_positions(5, 5, seed=9)):
        report = advise(deal[declarer], "1NT" if strain == 4 else f"1{'SHDC'[strain]}",
                        declarer, seat=declarer, dummy=deal[declarer.partner], played=played,
                        leader=leader, in_play=deal, declarer_won=5, method="alphamu",
                        depth=3, samples=12, seed=i, exhaustive=False)
        for row in report.rows:
            assert row.alphamu <= row.chance + 1e-12


def test_fronts():
    assert pareto([0b101, 0b100, 0b011]) == [0b101, 0b011]
    assert front_max([0b100], [0b110, 0b001]) == [0b110, 0b001]
    assert front_min([0b110, 0b011], [0b101, 0b111]) == [0b110, 0b011]


FINESSE = dict(hand="K98...", contract="7NT", declarer="S", seat="S", dummy="AJT...",
               leader="S", in_play="N:AJT... Q7.2.. K98... 6.43..", declarer_won=10)


def test_report_is_the_same_for_the_same_seed_and_any_jobs():
    full = "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"
    deal = Deal.from_pbn(full)
    args = dict(hand=deal.south, contract="3NT", declarer="S", seat="S", dummy=deal.north,
                played=["HT", "HK", "H4", "HA"], samples=16, seed=4)
    a = advise(**args, jobs=1)
    b = advise(**args, jobs=2)
    assert a.to_json() == b.to_json()
    assert not a.worlds.exhaustive and "sampled" in a.to_text()


def test_defender_gets_pimc_advice_with_beat_chances():
    full = Deal.from_pbn("N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 "
                         "543.T98.76.QT872")
    r = advise(full.east, "3NT", "S", seat="E", dummy=full.north, played=["HT", "HK"],
               samples=12, seed=2)
    assert r.defending and r.mover == Seat.EAST
    assert {c for row in r.rows for c in row.cards} == {Card.parse(x) for x in ("HQ", "H5", "H4")}
    assert "beat" in r.to_text()
    with pytest.raises(CardgamesError, match="αμ advises declarer"):
        advise(full.east, "3NT", "S", seat="E", dummy=full.north, played=["HT", "HK"],
               method="alphamu", samples=4, seed=2)


def test_report_formats():
    r = advise(**FINESSE, method="alphamu", depth=2, seed=1)
    d = json.loads(r.to_json())
    assert d["exhaustive"] and d["worlds"] == 20 and d["alphamu"]["depth"] == 2
    csv_lines = r.to_csv().splitlines()
    assert csv_lines[0].startswith("label,n,mean") and len(csv_lines) == 1 + len(r.rows)
    assert "αμ" in r.to_text()


def test_card_groups_join_touching_cards_only():
    v = View.make("S", {"S": "K98...", "N": "AJT..."}, "NT", "S", [],
                  in_play="N:AJT... Q7.2.. K98... 6.43..")
    assert card_groups(v, [Card.parse(x) for x in ("SK", "S9", "S8")]) == [
        (Card.parse("SK"),), (Card.parse("S9"), Card.parse("S8"))]


def test_bad_input_is_one_clear_error():
    with pytest.raises(IllegalPlayError, match="turn"):
        advise(**{**FINESSE, "seat": "S"}, played=["S8"])  # West to play, not South
    with pytest.raises(IllegalPlayError, match="does not hold"):
        advise(**FINESSE, played=["SA"])
    with pytest.raises(SamplingError, match="no world"):
        advise(**FINESSE, constraints={"W": "holds SQ S7 S6 H4"})
    with pytest.raises(DealError, match="declarer_won"):
        advise(**{**FINESSE, "declarer_won": 11})
    with pytest.raises(CardgamesError, match="dummy"):
        advise(**{**FINESSE, "seat": "N"})
    with pytest.raises(ValueError, match="method"):
        advise(**FINESSE, method="magic")
    with pytest.raises(ValueError, match="z must be"):
        advise(**FINESSE, z=float("nan"))     # was 'within nan paired SE'
    with pytest.raises(ValueError, match="limit must be"):
        advise(**FINESSE, limit=-1)


def test_the_opening_lead_is_advised_without_seeing_dummy():
    """A file's review judged the opening lead from the leader's view with dummy's hand
    known (two hands hidden, not three): board_arguments always passed dummy=."""
    from cardgames import pbn
    from ddsolver.board_advice import board_arguments, card_value, review_board
    game = pbn.Game.from_pbn(
        '[Board "1"]\n[Dealer "N"]\n[Deal "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 '
        'T7.A762.QJ853.K4 543.T98.76.QT872"]\n[Contract "3NT"]\n[Declarer "S"]\n'
        '[Play "W"]\nC2 C5 CJ CK\n*\n')
    lead = board_arguments(game, "W", played=[])
    assert lead["dummy"] is None and board_arguments(game, "W")["dummy"] is not None
    with pytest.raises(CardgamesError, match="not seen before the opening lead"):
        advise(**{**lead, "dummy": game.deal.north}, samples=2, seed=1)
    decisions, _ = review_board(game, Seat.parse("W"), {"samples": 4, "seed": 1})
    (first,) = [d for d in decisions if d.trick == 1]
    unseen = advise(**lead, samples=4, seed=1)
    assert unseen.view.hands[Seat.parse("N")] is None     # three hands hidden
    assert (first.card, first.value, first.best_value, first.best) == \
        (Card.parse("C2"), *card_value(unseen, Card.parse("C2")))


def test_alphamu_leaf_cache_may_fill_between_the_worlds_asked(monkeypatch):
    """The leaf cache was cleared, when full, after the worlds it held were counted as
    known and before they were read back: a KeyError.  Asked again for more worlds with a
    cache of one entry, a position answers as it did."""
    import sys

    from ddsolver.advise import make_view
    search = sys.modules["ddsolver.alphamu"]       # the module (its function shadows it)
    view, _, decl = make_view(**{k: FINESSE[k] for k in ("hand", "contract", "declarer",
                                                          "seat", "dummy", "leader",
                                                          "in_play")})
    deals = deal_worlds(view, seed=1).deals
    s = search._Search(deals, view, decl, 13, 10, 1, 16, None)
    first = s.vectors(0b01, None)
    monkeypatch.setattr(search, "TT_ENTRIES", 1)
    both = s.vectors(0b11, None)
    assert [v & 0b01 for v in both] == first
