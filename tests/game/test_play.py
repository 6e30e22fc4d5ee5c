"""Tests for cardgames.play: the rules of card play, Position's play/undo, and TrickGame."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames.cards import ALL_CARDS, Card, Seat, Strain
from cardgames.errors import DealError, IllegalPlayError, ParseError
from cardgames.hands import Deal, Hand
from cardgames.play import Position, Trick, TrickGame, trick_winner

FULL = Deal.from_pbn("N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872")

# A three-card ending used by the rule tests:
#   North  SA S2 H2      East  SK H3 D2
#   South  S3 HA D3      West  S4 H4 C2
ENDING = Deal.from_pbn("N:A2.2.. K.3.2. 3.A.3. 4.4..2")


def cards(text):
    return [Card.parse(t) for t in text.split()]


def snapshot(position):
    """Everything observable about a position, for comparing before and after."""
    return (position.to_move, position.trick_leader, position.current_trick, position.tricks,
            position.tricks_ns, position.tricks_ew, position.played, position.history,
            tuple(position.hand(s) for s in Seat), position.cards_left, position.tricks_left,
            position.is_terminal, tuple(position.legal_cards()))


@st.composite
def full_deals(draw):
    pack = draw(st.permutations(ALL_CARDS))
    return Deal(tuple(Hand.from_cards(pack[i * 13:(i + 1) * 13]) for i in range(4)))


# ---- following suit --------------------------------------------------------------------

def test_must_follow_suit_when_able():
    position = Position(ENDING, "NT", "N", cards("SA"))
    assert position.to_move is Seat.EAST
    assert position.legal_cards() == cards("SK")
    with pytest.raises(IllegalPlayError, match="follow suit"):
        position.play("H3")
    assert not position.is_legal("H3")
    assert position.current_trick == tuple(cards("SA"))  # the refused card changed nothing


def test_may_play_any_card_when_void_in_the_suit_led():
    position = Position(ENDING, "NT", "W", cards("C2"))
    assert position.to_move is Seat.NORTH
    assert position.legal_cards() == cards("SA S2 H2")
    position.play("H2")
    assert position.current_trick == tuple(cards("C2 H2"))


def test_leader_may_lead_any_card():
    position = Position(ENDING, "S", "S")
    assert position.legal_cards() == cards("S3 HA D3")


# ---- who wins a trick ---------------------------------------------------------------------

def test_highest_card_of_the_suit_led_wins_in_notrump():
    position = Position(ENDING, "NT", "N", cards("S2 SK S3 S4"))
    assert position.tricks[0].winner is Seat.EAST
    assert (position.tricks_ns, position.tricks_ew) == (0, 1)


def test_discards_never_win():
    # West leads the C2; nobody else has a club, and the aces thrown on it do not win.
    position = Position(ENDING, "NT", "W", cards("C2 SA SK HA"))
    assert position.tricks[0].winner is Seat.WEST
    # The same in a suit contract when nobody trumps (East discards rather than ruffs).
    position = Position(ENDING, "D", "W", cards("C2 SA H3 S3"))
    assert position.tricks[0].winner is Seat.WEST


def test_trumping_wins():
    position = Position(ENDING, "H", "W", cards("C2 H2 D2 D3"))
    assert position.tricks[0].winner is Seat.NORTH


def test_highest_trump_wins():
    position = Position(ENDING, "H", "W", cards("C2 H2 H3 HA"))
    assert position.tricks[0].winner is Seat.SOUTH
    position = Position(ENDING, "H", "W", cards("C2 H2 H3 D3"))
    assert position.tricks[0].winner is Seat.EAST


def test_a_trump_lead_is_won_by_the_highest_trump():
    position = Position(ENDING, "S", "N", cards("S2 SK S3 S4"))
    assert position.tricks[0].winner is Seat.EAST


@pytest.mark.parametrize("leader, played, strain, winner", [
    ("N", "SA", "NT", "N"),                      # a partial trick has a winner so far
    ("N", "S2 SK", "NT", "E"),
    ("E", "H5 HA S2", "NT", "S"),
    ("E", "H5 HA S2", "S", "W"),                 # ruff
    ("E", "H5 S3 S2 SK", "S", "N"),              # the highest trump, not the first
    ("E", "H5 SA H6 H4", "C", "W"),              # discards of other suits never win
    ("W", "D2 D3 CA D4", "H", "S"),              # a discard in a suit contract
    ("W", "D2 D3 CA D4", "C", "E"),              # the same card as a trump
])
def test_trick_winner(leader, played, strain, winner):
    assert trick_winner(Seat.parse(leader), cards(played), Strain.parse(strain)) is Seat.parse(winner)


def test_trick_winner_of_an_empty_trick_is_an_error():
    with pytest.raises(ValueError):
        trick_winner(Seat.NORTH, [], Strain.NOTRUMP)


# ---- whose turn ---------------------------------------------------------------------------

def test_players_follow_clockwise_within_a_trick():
    position = Position(FULL, "NT", "W")
    seen = []
    for _ in range(4):
        seen.append(position.to_move)
        position.play(position.legal_cards()[0])
    assert seen == [Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH]


def test_winner_leads_the_next_trick():
    position = Position(ENDING, "NT", "N", cards("S2 SK S3 S4"))
    assert position.to_move is Seat.EAST
    assert position.trick_leader is Seat.EAST
    position.play("D2")
    assert position.current_trick == tuple(cards("D2"))
    assert position.tricks[0] == Trick(Seat.NORTH, tuple(cards("S2 SK S3 S4")), Seat.EAST)


def test_trick_records_seats_in_playing_order():
    trick = Position(ENDING, "NT", "E", cards("D2 D3 C2 H2")).tricks[0]
    assert [trick.seat_of(i) for i in range(4)] == [Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH]
    assert str(trick) == "E: D2 D3 C2 H2"


def test_counts_of_cards_and_tricks_left_include_the_trick_in_progress():
    position = Position(ENDING, "NT", "N", cards("SA SK"))
    assert position.cards_left == 10
    assert position.tricks_left == 3
    position.play("S3")
    position.play("S4")
    assert position.tricks_left == 2
    assert position.tricks_won("S") == 1 and position.tricks_won(Seat.WEST) == 0


def test_the_game_ends_when_every_card_is_played():
    # North wins the spade, South the heart and then the diamond.
    position = Position(ENDING, "NT", "N", cards("SA SK S3 S4 H2 H3 HA H4 D3 C2 S2 D2"))
    assert position.is_terminal
    assert position.legal_cards() == []
    assert (position.tricks_ns, position.tricks_ew) == (3, 0)
    assert position.tricks_left == 0 and position.cards_left == 0


def test_remaining_deal_at_a_trick_boundary():
    position = Position(ENDING, "NT", "N", cards("SA SK S3 S4"))
    assert position.remaining_deal() == Deal.from_pbn("N:2.2.. .3.2. .A.3. .4..2")
    assert position.hand("N") == Hand.from_pbn("2.2..")


# ---- illegal plays ------------------------------------------------------------------------

def test_cannot_play_a_card_held_by_another_player():
    position = Position(ENDING, "NT", "N")
    with pytest.raises(IllegalPlayError, match="held by E"):
        position.play("SK")


def test_cannot_play_a_card_already_played():
    position = Position(ENDING, "NT", "N", cards("SA SK S3 S4"))
    with pytest.raises(IllegalPlayError, match="already been played"):
        position.play("SK")


def test_cannot_play_after_the_last_trick():
    position = Position(ENDING, "NT", "N", cards("SA SK S3 S4 H2 H3 HA H4 D3 C2 S2 D2"))
    with pytest.raises(IllegalPlayError):
        position.play("SA")


def test_cannot_undo_before_the_first_card():
    with pytest.raises(IllegalPlayError):
        Position(ENDING, "NT", "N").undo()


def test_a_malformed_card_is_a_parse_error_not_an_illegal_play():
    with pytest.raises(ParseError):
        Position(ENDING, "NT", "N").play("SX")


def test_position_rejects_an_illegal_play_list_naming_the_card():
    with pytest.raises(IllegalPlayError, match="card 2 of the play"):
        Position(ENDING, "NT", "N", cards("SA H3"))


def test_position_needs_every_hand():
    with pytest.raises(DealError):
        Position(FULL.replace("E", None), "NT", "N")


def test_illegal_play_errors_are_value_errors():
    with pytest.raises(ValueError):
        Position(ENDING, "NT", "N").play("SK")


# ---- undo, copy, repr -------------------------------------------------------------------

def test_undo_restores_everything_including_across_a_trick_boundary():
    position = Position(ENDING, "H", "W", cards("C2 H2 H3"))
    states = [snapshot(position)]
    for card in cards("HA S3 S4 SA"):  # completes the trick (South wins), then a new one
        position.play(card)
        states.append(snapshot(position))
    for expected in reversed(states[:-1]):
        position.undo()
        assert snapshot(position) == expected


def test_undo_returns_the_card_taken_back():
    position = Position(ENDING, "NT", "N", cards("SA SK S3 S4"))
    assert position.undo() == Card.parse("S4")
    assert position.to_move is Seat.WEST


def test_played_list_equals_playing_one_by_one():
    played = cards("SA SK S3 S4 H2 H3")
    one_by_one = Position(ENDING, "NT", "N")
    for card in played:
        one_by_one.play(card)
    assert snapshot(Position(ENDING, "NT", "N", played)) == snapshot(one_by_one)


def test_copy_is_independent():
    position = Position(ENDING, "NT", "N", cards("SA"))
    other = position.copy()
    other.play("SK")
    assert position.played == tuple(cards("SA"))
    assert snapshot(other) != snapshot(position)
    other.undo()
    assert snapshot(other) == snapshot(position)


def test_position_repr_round_trips_through_eval():
    position = Position(ENDING, "H", "W", cards("C2 H2 H3 HA S3"))
    again = eval(repr(position), {"Position": Position, "Deal": Deal})
    assert snapshot(again) == snapshot(position)
    assert again.strain is Strain.HEARTS and again.leader is Seat.WEST


# ---- the formal game ------------------------------------------------------------------------

def test_trick_game_interface():
    game = TrickGame(ENDING, "NT", "N")
    state = game.initial_state()
    assert game.to_move(state) is Seat.NORTH
    assert game.actions(state) == cards("SA S2 H2")
    assert not game.is_terminal(state)
    after = game.result(state, "SA")
    assert state.played == ()  # result does not change its argument
    assert after.played == tuple(cards("SA"))
    assert game.to_move(after) is Seat.EAST
    assert game.initial_state() is not game.initial_state()


def test_trick_game_plays_to_the_end_and_scores_north_south_tricks():
    game = TrickGame(FULL, "S", "E")
    state = game.initial_state()
    plies = 0
    while not game.is_terminal(state):
        state = game.result(state, game.actions(state)[-1])
        plies += 1
    assert plies == 52
    assert game.utility(state) == state.tricks_ns
    assert 0 <= game.utility(state) <= 13
    assert game.initial_state().played == ()


def test_trick_game_rejects_illegal_actions():
    game = TrickGame(ENDING, "NT", "N")
    state = game.result(game.initial_state(), "SA")
    with pytest.raises(IllegalPlayError):
        game.result(state, "H3")


# ---- property: random legal playouts ---------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(full_deals(), st.sampled_from(list(Strain)), st.sampled_from(list(Seat)), st.randoms())
def test_random_playouts_take_13_tricks_and_undo_back_to_the_start(deal, strain, leader, rng):
    position = Position(deal, strain, leader)
    start = snapshot(position)
    for _ in range(52):
        legal = position.legal_cards()
        assert legal, "the play ended early"
        assert set(legal) == {c for c in ALL_CARDS if position.is_legal(c)}
        assert legal == sorted(legal)  # writing order
        position.play(rng.choice(legal))
    assert position.is_terminal
    assert position.legal_cards() == []
    assert position.tricks_ns + position.tricks_ew == 13
    assert len(position.tricks) == 13

    # Each trick was won by the rules and the winner led the next.
    expected_leader = leader
    for trick in position.tricks:
        assert trick.leader is expected_leader
        assert trick.winner is trick_winner(trick.leader, trick.cards, strain)
        expected_leader = trick.winner
    assert position.tricks_ns == sum(t.winner.is_ns for t in position.tricks)

    for _ in range(52):
        position.undo()
    assert snapshot(position) == start
    with pytest.raises(IllegalPlayError):
        position.undo()
