"""Play analysis (:mod:`ddsolver.analysis`) against DDS's ``TRACE`` lines, the reference
minimax, and its own properties.

The oracle: every ``TRACE`` line of the DDS ``list*.txt`` files (DDS ``AnalysePlay``:
declarer's side's tricks before any card and after each card, up to 48 cards).  The lists
repeat boards; every distinct (deal, trump, leader, play) one is checked in every run (295 of
them, about 40 s on one core).  Random plays of small endings are checked against
:func:`cardgames.minimax.alphabeta` at every card.
"""

from __future__ import annotations

import random

import pytest
from ddsfiles import read_txt, shared_data_file

from cardgames.cards import Card, Seat, Strain
from cardgames.errors import DealError, IllegalPlayError, ParseError
from cardgames.hands import Deal
from cardgames.minimax import alphabeta, random_ending
from cardgames.play import Position
from ddsolver import Solver, dd_table, solve
from ddsolver.analysis import CostlyCard, PlayAnalysis, analyse_play

_BOARDS = [b for path in sorted(shared_data_file("dds-hands").glob("list*.txt"))
           for b in read_txt(path)]


def _distinct_plays(boards):
    seen, out = set(), []
    for b in boards:
        key = (b.key, b.play)
        if key not in seen:
            seen.add(key)
            out.append(b)
    return out


TRACED = _distinct_plays(_BOARDS)
CHOSEN = TRACED


# ---- DDS ----------------------------------------------------------------------------------

def test_trace_lines_cover_the_plays():
    assert len(TRACED) == 995
    for b in TRACED:
        assert len(b.trace) == min(len(b.play), 48) + 1


@pytest.mark.oracle
@pytest.mark.parametrize("board", CHOSEN, ids=[b.id for b in CHOSEN])
def test_tricks_match_dds_trace(solver, board):
    analysis = analyse_play(board.deal, board.trump, board.first, board.play, solver=solver)
    assert analysis.declarer == board.declarer
    assert len(analysis.tricks) == len(board.play) + 1
    # DDS traces at most 48 cards: the last trick is forced.
    assert analysis.tricks[:len(board.trace)] == list(board.trace)
    # Before any card: the table's entry for this declarer and strain.
    declarer_row = board.table[board.declarer]
    assert analysis.tricks[0] == declarer_row[board.trump]
    check_consistent(analysis)


# ---- the minimax --------------------------------------------------------------------------

def _declarer_tricks_by_minimax(position: Position, declarer: Seat) -> int:
    ns = alphabeta(position)
    future = ns if declarer.is_ns else position.tricks_left - ns
    return position.tricks_won(declarer) + future


@pytest.mark.parametrize("seed", range(12))
def test_tricks_match_minimax_on_random_play_of_endings(solver, seed):
    rng = random.Random(seed)
    cards = 3 + seed % 2
    deal = random_ending(rng, cards)
    strain, leader = rng.choice(list(Strain)), rng.choice(list(Seat))
    position = Position(deal, strain, leader)
    expected = [_declarer_tricks_by_minimax(position, leader.rho)]
    while not position.is_terminal:
        position.play(rng.choice(position.legal_cards()))
        expected.append(_declarer_tricks_by_minimax(position, leader.rho))
    analysis = analyse_play(deal, strain, leader, position.played, solver=solver)
    assert analysis.tricks == expected
    check_consistent(analysis)


# ---- properties ---------------------------------------------------------------------------

def check_consistent(analysis: PlayAnalysis) -> None:
    """The trace moves only against the side that played the card, by exactly the errors,
    and a complete play ends with the tricks declarer's side really took."""
    declarer = analysis.declarer
    position = Position(analysis.deal, analysis.strain, analysis.leader)
    errors = iter(analysis.errors)
    expected_error = next(errors, None)
    for i, card in enumerate(analysis.played):
        seat = position.to_move
        position.play(card)
        before, after = analysis.tricks[i], analysis.tricks[i + 1]
        declaring = seat.is_ns == declarer.is_ns
        cost = before - after if declaring else after - before
        assert cost >= 0, f"card {i + 1} ({card}) helped its own side"
        # The trace counts the tricks already won, and no more than the rest can give.
        assert position.tricks_won(declarer) <= after <= \
            position.tricks_won(declarer) + position.tricks_left
        if cost:
            assert expected_error == CostlyCard(i, i // 4 + 1, seat, card, declaring, cost,
                                                before, after)
            expected_error = next(errors, None)
    assert expected_error is None
    if position.is_terminal:
        # Counted trick by trick from the rules of play.
        won = sum(1 for t in position.tricks if t.winner.is_ns == declarer.is_ns)
        assert analysis.tricks[-1] == won
    gained = sum(e.cost for e in analysis.errors if not e.declaring)
    lost = sum(e.cost for e in analysis.errors if e.declaring)
    assert analysis.tricks[-1] - analysis.tricks[0] == gained - lost
    assert analysis.cost("declarer") == lost and analysis.cost("defence") == gained


# ---- by hand ------------------------------------------------------------------------------

# North AQ of spades, East two hearts, South two low spades, West K2 of spades.
ENDING = Deal.from_pbn("N:AQ... .32.. 54... K2...")


def test_perfect_play_has_no_errors():
    # South leads a spade towards the AQ and North finesses the queen: East-West, declaring
    # (East declares when South leads), take nothing, which is what they were due.
    analysis = analyse_play(ENDING, "NT", "S", ["S5", "S2", "SQ", "H2"])
    assert analysis.declarer == Seat.EAST
    assert analysis.tricks[0] == dd_table(ENDING).tricks("E", "NT") == 0
    assert analysis.tricks == [0, 0, 0, 0, 0]
    assert analysis.errors == []


def test_declarer_error_in_a_small_ending():
    # North leads away from the AQ: declarer West must take the king.  Playing it under the
    # ace throws that trick away.
    analysis = analyse_play(ENDING, "NT", "N", ["SA", "H3", "S4", "SK", "SQ", "H2", "S5", "S2"])
    assert analysis.declarer == Seat.WEST
    assert analysis.tricks == [1, 1, 1, 1, 0, 0, 0, 0, 0]
    [error] = analysis.errors
    assert (error.index, error.trick, error.seat, error.card, error.declaring, error.cost) == \
        (3, 1, Seat.WEST, Card.parse("SK"), True, 1)
    assert error.side == "EW" and analysis.costly == analysis.errors
    assert str(error) == "card 4 (trick 1): W played SK, declarer's side lost 1 trick"
    assert analysis.cost("EW") == 1 and analysis.cost("NS") == 0 and analysis.cost("N") == 0
    check_consistent(analysis)


def test_defence_error_in_a_small_ending():
    # As in the perfect play, but North rises with the ace instead of finessing: West's king
    # then takes the second trick, one more than declarer East was due.
    analysis = analyse_play(ENDING, "NT", "S", ["S5", "S2", "SA", "H2", "SQ", "H3", "S4", "SK"])
    assert analysis.tricks == [0, 0, 0, 1, 1, 1, 1, 1, 1]
    [error] = analysis.errors
    assert (error.index, error.trick, error.seat, error.card, error.declaring, error.cost) == \
        (2, 1, Seat.NORTH, Card.parse("SA"), False, 1)
    assert str(error) == "card 3 (trick 1): N played SA, the defence lost 1 trick"
    assert analysis.cost("defence") == 1 and analysis.cost("declarer") == 0
    check_consistent(analysis)


def test_an_ending_led_by_declarers_side_counts_declarers_tricks():
    # The perfect play above (South leads, North finesses) with North declaring: South, on
    # lead, is on declarer's side, who had won 5 tricks before the ending.
    played = ["S5", "S2", "SQ", "H2"]
    defenders = analyse_play(ENDING, "NT", "S", played)        # East declares: 0 of 2
    mine = analyse_play(ENDING, "NT", "S", played, declarer="N", declarer_won=5)
    assert mine.declarer == Seat.NORTH and mine.declarer_won == 5
    assert mine.tricks == [5 + 2 - t for t in defenders.tricks] == [7, 7, 7, 7, 7]
    bad = analyse_play(ENDING, "NT", "S", ["S5", "S2", "SA", "H2", "SQ", "H3", "S4", "SK"],
                       declarer="N")
    [error] = bad.errors       # North's ace now costs declarer's side, not the defence
    assert (error.seat, error.declaring, error.cost, error.before, error.after) == \
        (Seat.NORTH, True, 1, 2, 1)
    check_consistent(bad)


@pytest.mark.parametrize("kwargs, match", [
    (dict(declarer_won=12), "declarer_won is 12.*0 to 11"),
    (dict(declarer_won=-1), "0 to 11"),
    (dict(declarer="Q"), "declarer"),
])
def test_an_endings_declarer_and_tricks_before_are_checked(kwargs, match):
    with pytest.raises(ValueError, match=match):
        analyse_play(ENDING, "NT", "S", [], **kwargs)


def test_a_whole_deal_must_be_led_by_declarers_left_hand_opponent():
    deal = _BOARDS[0].deal
    with pytest.raises(ValueError, match="the opening lead is N's but declarer S's"):
        analyse_play(deal, "S", "N", [], declarer="S")
    with pytest.raises(ValueError, match="0 to 0"):
        analyse_play(deal, "S", "N", [], declarer_won=1)
    assert analyse_play(deal, "S", "N", [], declarer="W").tricks == \
        analyse_play(deal, "S", "N", []).tricks


def test_no_cards_played_gives_the_table_entry():
    deal = Deal.from_pbn(_BOARDS[0].deal.to_pbn())
    analysis = analyse_play(deal, "H", "E", [])
    assert analysis.tricks == [solve(deal, "H", "N")]
    assert analysis.errors == [] and analysis.played == ()


def test_argument_forms_agree(solver):
    played = ["SA", "H3", "S4", "SK"]
    a = analyse_play(ENDING, "NT", "N", played)
    assert analyse_play(ENDING.to_pbn(), Strain.NOTRUMP, Seat.NORTH, "SA H3,S4 SK") == a
    assert analyse_play(ENDING, "N", "north", [Card.parse(c) for c in played],
                        solver=solver) == a
    assert str(a).splitlines()[0] == "NT by W, 4 cards: 1 tricks at the start, 0 now"


# ---- bad input ----------------------------------------------------------------------------

def test_revoke_names_the_card_and_its_place():
    deal = _BOARDS[0].deal     # East holds CQ4
    with pytest.raises(IllegalPlayError, match=r"card 2 of the play \(trick 1\).*D4.*follow"):
        analyse_play(deal, "S", "N", ["CT", "D4"])


def test_card_not_held_names_the_card_and_its_place():
    with pytest.raises(IllegalPlayError, match=r"card 2 of the play.*SK.*held by W"):
        analyse_play(ENDING, "NT", "N", ["SA", "SK"])


def test_too_many_cards():
    with pytest.raises(IllegalPlayError, match="card 9 of the play"):
        analyse_play(ENDING, "NT", "N", ["SA", "H3", "S4", "S2", "SQ", "H2", "S5", "SK", "SA"])


def test_bad_card_text_names_its_place():
    with pytest.raises(ParseError, match="card 2 of the play"):
        analyse_play(ENDING, "NT", "N", ["SA", "X9"])


@pytest.mark.parametrize("strain, leader, match", [("Z", "N", "strain"), ("NT", "Q", "leader")])
def test_bad_strain_or_leader(strain, leader, match):
    with pytest.raises(ParseError, match=match):
        analyse_play(ENDING, strain, leader, [])


def test_incomplete_deal():
    with pytest.raises(DealError):
        analyse_play(Deal.from_pbn("N:AKQJT98765432... - - -"), "S", "E", [])
    with pytest.raises(TypeError):
        analyse_play(42, "S", "E", [])


def test_errors_are_value_errors():
    for cls in (IllegalPlayError, ParseError, DealError):
        assert issubclass(cls, ValueError)


def test_solver_is_reused_across_cards():
    solver = Solver(tt_mb=4)
    board = CHOSEN[0]
    analyse_play(board.deal, board.trump, board.first, board.play[:8], solver=solver)
    assert solver.tt_used > 0
