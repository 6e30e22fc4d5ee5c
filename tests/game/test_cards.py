"""Tests for cardgames.cards: parsing, printing, hashing and ordering of the value types."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgames.cards import ALL_CARDS, Card, Rank, Seat, Strain, Suit
from cardgames.errors import CardgamesError, ParseError

cards = st.sampled_from(ALL_CARDS)


# ---- Seat ---------------------------------------------------------------------

@pytest.mark.parametrize("text, seat", [
    ("N", Seat.NORTH), ("e", Seat.EAST), (" S ", Seat.SOUTH), ("W", Seat.WEST),
    ("north", Seat.NORTH), ("East", Seat.EAST), ("SOUTH", Seat.SOUTH), ("west", Seat.WEST),
    (0, Seat.NORTH), (1, Seat.EAST), (2, Seat.SOUTH), (3, Seat.WEST),
    (Seat.WEST, Seat.WEST),
])
def test_seat_parses_letters_names_numbers_and_seats(text, seat):
    assert Seat.parse(text) is seat


@pytest.mark.parametrize("bad", ["X", "", "NE", "nord", 4, -1, True, None, 1.0])
def test_seat_rejects_anything_else_with_a_parse_error(bad):
    with pytest.raises(ParseError):
        Seat.parse(bad)


def test_seat_neighbours_go_clockwise():
    assert Seat.NORTH.lho is Seat.EAST
    assert Seat.NORTH.rho is Seat.WEST
    assert Seat.NORTH.partner is Seat.SOUTH
    assert Seat.WEST.lho is Seat.NORTH
    assert Seat.EAST.next(3) is Seat.NORTH
    assert [s.is_ns for s in Seat] == [True, False, True, False]


def test_seat_prints_as_its_letter():
    assert [str(s) for s in Seat] == ["N", "E", "S", "W"]
    assert f"{Seat.SOUTH}" == "S"
    assert Seat.EAST.letter == "E"


# ---- Strain and Suit ------------------------------------------------------------

@pytest.mark.parametrize("text, strain", [
    ("S", Strain.SPADES), ("h", Strain.HEARTS), ("Diamonds", Strain.DIAMONDS),
    ("club", Strain.CLUBS), ("♠", Strain.SPADES), ("♥", Strain.HEARTS), ("♦", Strain.DIAMONDS),
    ("♣", Strain.CLUBS), ("NT", Strain.NOTRUMP), ("nt", Strain.NOTRUMP), ("N", Strain.NOTRUMP),
    ("notrump", Strain.NOTRUMP), ("No Trumps", Strain.NOTRUMP), ("no-trump", Strain.NOTRUMP),
    (0, Strain.SPADES), (4, Strain.NOTRUMP), (Suit.CLUBS, Strain.CLUBS),
    (Strain.HEARTS, Strain.HEARTS),
])
def test_strain_parses_letters_names_symbols_numbers_and_suits(text, strain):
    assert Strain.parse(text) is strain


@pytest.mark.parametrize("bad", ["X", "", "SA", "NTT", 5, -1, False, None, 0.5])
def test_strain_rejects_anything_else_with_a_parse_error(bad):
    # "SA" (French sans-atout) is refused on purpose: it reads as the ace of spades.
    with pytest.raises(ParseError):
        Strain.parse(bad)


def test_strain_knows_its_trump_suit():
    assert Strain.HEARTS.suit is Suit.HEARTS
    assert Strain.NOTRUMP.suit is None
    assert [s.is_suit for s in Strain] == [True, True, True, True, False]
    assert [str(s) for s in Strain] == ["S", "H", "D", "C", "NT"]


@pytest.mark.parametrize("text, suit", [
    ("S", Suit.SPADES), ("hearts", Suit.HEARTS), ("♦", Suit.DIAMONDS), ("c", Suit.CLUBS),
    (3, Suit.CLUBS), (Strain.SPADES, Suit.SPADES), (Suit.HEARTS, Suit.HEARTS),
])
def test_suit_parses_letters_names_symbols_numbers_and_strains(text, suit):
    assert Suit.parse(text) is suit


@pytest.mark.parametrize("bad", ["NT", "N", Strain.NOTRUMP, 4, "X", None])
def test_suit_rejects_notrump_and_nonsense(bad):
    with pytest.raises(ParseError):
        Suit.parse(bad)


def test_suit_letters_symbols_and_strains():
    assert "".join(s.letter for s in Suit) == "SHDC"
    assert "".join(s.symbol for s in Suit) == "♠♥♦♣"
    assert all(s.strain == Strain(int(s)) for s in Suit)


# ---- Rank -------------------------------------------------------------------------

@pytest.mark.parametrize("text, rank", [
    ("A", Rank.ACE), ("k", Rank.KING), ("Q", Rank.QUEEN), ("J", Rank.JACK), ("T", Rank.TEN),
    ("t", Rank.TEN), ("10", Rank.TEN), ("9", Rank.NINE), ("2", Rank.TWO), (14, Rank.ACE),
    (2, Rank.TWO), (Rank.FIVE, Rank.FIVE),
])
def test_rank_parses_letters_digits_and_numbers(text, rank):
    assert Rank.parse(text) is rank


@pytest.mark.parametrize("bad", ["1", "11", "0", "X", "", "AA", 1, 15, True, None])
def test_rank_rejects_anything_else_with_a_parse_error(bad):
    with pytest.raises(ParseError):
        Rank.parse(bad)


def test_rank_prints_pbn_letters():
    assert "".join(str(r) for r in sorted(Rank, reverse=True)) == "AKQJT98765432"


# ---- Card -------------------------------------------------------------------------

@pytest.mark.parametrize("text, suit, rank", [
    ("SA", Suit.SPADES, Rank.ACE), ("S10", Suit.SPADES, Rank.TEN), ("ST", Suit.SPADES, Rank.TEN),
    ("h9", Suit.HEARTS, Rank.NINE), ("dq", Suit.DIAMONDS, Rank.QUEEN), (" C2 ", Suit.CLUBS, Rank.TWO),
    ("AS", Suit.SPADES, Rank.ACE), ("10H", Suit.HEARTS, Rank.TEN), ("tc", Suit.CLUBS, Rank.TEN),
])
def test_card_parses_suit_rank_and_rank_suit_forms(text, suit, rank):
    card = Card.parse(text)
    assert (card.suit, card.rank) == (suit, rank)


@pytest.mark.parametrize("bad", ["", "S", "S1", "S11", "X5", "SAA", "S 10", "5", "NTA", "♠Z", "♠"])
def test_card_rejects_malformed_text_naming_it(bad):
    with pytest.raises(ParseError) as info:
        Card.parse(bad)
    assert repr(bad) in str(info.value)
    assert info.value.text == bad


@pytest.mark.parametrize("bad", [None, 12, ("S", "A")])
def test_card_rejects_non_strings(bad):
    with pytest.raises(ParseError):
        Card.parse(bad)


def test_card_parse_returns_a_card_unchanged():
    card = Card.parse("HK")
    assert Card.parse(card) is card


def test_card_constructor_normalises_numbers_to_enums():
    card = Card(1, 13)
    assert type(card.suit) is Suit and type(card.rank) is Rank
    assert card == Card.parse("HK")
    assert hash(card) == hash(Card.parse("HK"))


def test_card_constructor_rejects_bad_suit_or_rank():
    with pytest.raises(ParseError):
        Card(4, 10)
    with pytest.raises(ParseError):
        Card(0, 1)


@given(cards)
def test_card_str_parses_back(card):
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card
    assert Card.parse(str(card)[1] + str(card)[0]) == card  # rank then suit


@given(cards)
def test_card_repr_round_trips_through_eval(card):
    assert eval(repr(card)) == card


def test_card_prints_ten_as_t():
    assert str(Card.parse("D10")) == "DT"
    assert repr(Card.parse("D10")) == "Card.parse('DT')"


@pytest.mark.parametrize("value", list(Seat) + list(Strain) + list(Suit) + list(Rank))
def test_enum_reprs_round_trip_through_eval(value):
    assert eval(repr(value)) is value


def test_card_index_numbers_the_pack_0_to_51():
    assert [c.index for c in ALL_CARDS] == list(range(52))
    assert all(Card.from_index(c.index) is c for c in ALL_CARDS)
    assert Card.parse("S2").index == 0
    assert Card.parse("CA").index == 51


def test_cards_are_hashable_and_equal_by_value():
    a, b = Card.parse("SA"), Card.parse("AS")
    assert a == b and hash(a) == hash(b)
    assert len({Card.parse(t) for t in ("SA", "AS", "sa", "S10", "ST")}) == 2
    assert {a: 1}[b] == 1


def test_cards_are_immutable():
    card = Card.parse("SA")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = Rank.KING  # type: ignore[misc]


def test_cards_sort_in_writing_order_suits_then_high_to_low():
    shuffled = [Card.parse(t) for t in ("C2", "SA", "H5", "S2", "HA", "DK", "CA")]
    assert [str(c) for c in sorted(shuffled)] == ["SA", "S2", "HA", "H5", "DK", "CA", "C2"]
    assert sorted(ALL_CARDS, reverse=True)[0] == Card.parse("C2")


def test_card_comparisons_agree_with_each_other():
    sa, s2 = Card.parse("SA"), Card.parse("S2")
    assert sa < s2 and sa <= s2 and s2 > sa and s2 >= sa and sa <= sa and sa >= sa
    assert not (s2 < sa)


def test_cards_do_not_compare_with_other_types():
    with pytest.raises(TypeError):
        Card.parse("SA") < "SK"  # noqa: B015


def test_card_knows_its_strain():
    assert Card.parse("HA").strain is Strain.HEARTS


def test_parse_errors_are_value_errors_naming_the_text():
    for parse, text in ((Seat.parse, "Q"), (Strain.parse, "Z"), (Suit.parse, "NT"),
                        (Rank.parse, "1"), (Card.parse, "SX")):
        with pytest.raises(ValueError) as info:
            parse(text)
        assert isinstance(info.value, ParseError)
        assert isinstance(info.value, CardgamesError)
        assert repr(text) in str(info.value)


def test_a_card_may_name_its_suit_by_symbol_as_strains_do():
    assert [str(Card.parse(x)) for x in ("♠A", "10♥", "♦t", "♧2")] == ["SA", "HT", "DT", "C2"]
    with pytest.raises(ParseError, match="not a card"):
        Card.parse("♠Z")


@pytest.mark.parametrize("index, error", [(-1, ValueError), (52, ValueError),
                                          (1.5, TypeError), ("3", TypeError)])
def test_from_index_refuses_what_is_not_a_card_index(index, error):
    # ALL_CARDS[-1] is the club ace: -1 read as a card without a word.
    with pytest.raises(error, match="card index"):
        Card.from_index(index)


def test_numpy_integers_read_as_seats_strains_suits_and_ranks():
    import numpy as np

    from cardgames.scoring import imps, matchpoints
    assert Seat.parse(np.int64(2)) is Seat.SOUTH and Strain.parse(np.int32(4)) is Strain.NOTRUMP
    assert Suit.parse(np.int8(1)) is Suit.HEARTS and Rank.parse(np.int64(14)) is Rank.ACE
    assert imps(np.int64(30)) == 1 and matchpoints([np.int64(420), 450]) == [0.0, 2.0]
    with pytest.raises(ParseError):
        Seat.parse(np.int64(4))
