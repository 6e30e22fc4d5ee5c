"""Tests for cardgames.hands: Hand and Deal, their PBN text, their queries and their errors."""

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgames.cards import ALL_CARDS, Card, Seat
from cardgames.errors import DealError, ParseError
from cardgames.hands import Deal, Hand

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
REFERENCE = DATA / "dds_reference.jsonl"

FULL = "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"


@st.composite
def deals(draw, min_cards=0, max_cards=13):
    """A random deal (or ending) of n cards a hand, dealt from a shuffled pack."""
    n = draw(st.integers(min_cards, max_cards))
    pack = draw(st.permutations(ALL_CARDS))
    return Deal(tuple(Hand.from_cards(pack[i * n:(i + 1) * n]) for i in range(4)))


seats = st.sampled_from(list(Seat))


# ---- Hand: text ---------------------------------------------------------------------

def test_hand_from_pbn_reads_suits_in_spade_heart_diamond_club_order():
    hand = Hand.from_pbn("AKQ2.KJ3.T94.A65")
    assert [str(c) for c in hand.suit_cards("S")] == ["SA", "SK", "SQ", "S2"]
    assert [str(c) for c in hand.suit_cards("C")] == ["CA", "C6", "C5"]
    assert hand.to_pbn() == "AKQ2.KJ3.T94.A65"
    assert str(hand) == hand.to_pbn()


def test_hand_accepts_ten_as_10_and_lower_case_and_any_rank_order():
    assert Hand.from_pbn("10942.akq.j.") == Hand.from_pbn("T942.AKQ.J.")
    assert Hand.from_pbn("29T4...").to_pbn() == "T942..."


def test_hand_allows_empty_suits_and_the_empty_hand():
    assert Hand.from_pbn(".AK..").cards == (Card.parse("HA"), Card.parse("HK"))
    assert len(Hand.from_pbn("...")) == 0
    assert Hand.from_pbn("...") == Hand()


def test_hand_repr_round_trips_through_eval():
    hand = Hand.from_pbn("AKQ2.KJ3.T94.A65")
    assert eval(repr(hand)) == hand


def test_hand_rejects_duplicate_card():
    with pytest.raises(DealError, match="SK"):
        Hand.from_pbn("AKK.2.3.4")
    with pytest.raises(DealError):
        Hand.from_pbn("T10...")  # the ten, written both ways


def test_hand_rejects_wrong_number_of_suits():
    with pytest.raises(ParseError, match="4 suits"):
        Hand.from_pbn("AKQ.J")
    with pytest.raises(ParseError):
        Hand.from_pbn("A.K.Q.J.T")


@pytest.mark.parametrize("text, column", [("AKX...", 2), ("AK.Q1..", 4), ("..A.Z", 4),
                                          ("1...", 0), (" A...", 0)])
def test_hand_rejects_bad_character_giving_its_column(text, column):
    with pytest.raises(ParseError) as info:
        Hand.from_pbn(text)
    assert info.value.position == column
    assert f"column {column + 1}" in str(info.value)
    assert info.value.text == text


def test_hand_from_pbn_rejects_non_strings():
    with pytest.raises(ParseError):
        Hand.from_pbn(None)  # type: ignore[arg-type]


def test_hand_from_cards_and_its_duplicate_error():
    assert Hand.from_cards(["SA", "H10", Card.parse("C2")]) == Hand.from_pbn("A.T..2")
    with pytest.raises(DealError):
        Hand.from_cards(["SA", "AS"])


def test_hand_masks_are_checked():
    with pytest.raises(DealError):
        Hand((1, 0, 0, 0))  # bit 0 is not a rank
    with pytest.raises(DealError):
        Hand((0, 0, 0))  # type: ignore[arg-type]
    assert Hand.from_pbn("A...").masks == (1 << 14, 0, 0, 0)


# ---- Hand: queries --------------------------------------------------------------------

def test_hand_iterates_in_writing_order_and_knows_membership():
    hand = Hand.from_pbn("K2..A.Q")
    assert [str(c) for c in hand] == ["SK", "S2", "DA", "CQ"]
    assert "SK" in hand and Card.parse("DA") in hand
    assert "SQ" not in hand and 42 not in hand
    assert len(hand) == 4


def test_hand_lengths_shape_and_hcp():
    hand = Hand.from_pbn("AKQ2.KJ3.T94.A65")
    assert hand.lengths == (4, 3, 3, 3)
    assert hand.length("H") == 3
    assert hand.shape == (4, 3, 3, 3)
    assert hand.hcp == 4 + 3 + 2 + 3 + 1 + 4
    assert Hand.from_pbn("...").hcp == 0


@pytest.mark.parametrize("text, balanced", [
    ("AKQ2.KJ3.T94.A65", True),     # 4333
    ("AKQ2.KJ32.T9.A65", True),     # 4432
    ("AKQ32.KJ3.T9.A65", True),     # 5332
    ("AKQ32.KJ32.T9.A6", False),    # 5422
    ("AKQ2.KJ32.T942.A", False),    # 4441
    ("AKQ5432.KJ3.T9.A", False),    # 7321
])
def test_hand_is_balanced_only_for_4333_4432_5332(text, balanced):
    assert Hand.from_pbn(text).is_balanced is balanced


def test_hand_add_remove_and_set_operations():
    hand = Hand.from_pbn("AK...")
    assert hand.add("HQ") == Hand.from_pbn("AK.Q..")
    assert hand.remove("SK") == Hand.from_pbn("A...")
    with pytest.raises(DealError):
        hand.add("SA")
    with pytest.raises(DealError):
        hand.remove("SQ")
    other = Hand.from_pbn("KQ...")
    assert hand | other == Hand.from_pbn("AKQ...")
    assert hand & other == Hand.from_pbn("K...")
    assert hand - other == Hand.from_pbn("A...")


def test_hands_are_hashable_values():
    assert len({Hand.from_pbn("A..."), Hand.from_pbn("A..."), Hand.from_pbn("K...")}) == 2


# ---- Deal: text ---------------------------------------------------------------------

def test_deal_from_pbn_puts_hands_clockwise_from_the_first_seat():
    deal = Deal.from_pbn(FULL)
    assert deal.north == Hand.from_pbn("AKQ2.KJ3.T94.A65")
    assert deal.east == Hand.from_pbn("J986.Q54.AK2.J93")
    assert deal[Seat.SOUTH] == Hand.from_pbn("T7.A762.QJ853.K4")
    assert deal["W"] == Hand.from_pbn("543.T98.76.QT872")
    rotated = Deal.from_pbn("E:J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872 AKQ2.KJ3.T94.A65")
    assert rotated == deal
    assert deal.to_pbn("E") == rotated.to_pbn("E")


@given(deals(), seats)
def test_deal_pbn_round_trips_from_any_first_seat(deal, first):
    text = deal.to_pbn(first)
    assert text.startswith(f"{first.letter}:")
    again = Deal.from_pbn(text)
    assert again == deal
    assert again.to_pbn(first) == text
    assert Deal.from_pbn(deal.to_pbn()) == deal


@given(deals())
def test_deal_repr_round_trips_through_eval(deal):
    assert eval(repr(deal)) == deal


@given(deals(), seats)
def test_deal_with_unknown_hand_round_trips(deal, missing):
    partial = deal.replace(missing, None)
    text = partial.to_pbn()
    assert text.split()[missing].endswith("-")
    assert Deal.from_pbn(text) == partial
    assert not partial.is_complete


@given(deals(min_cards=1))
def test_deal_endings_keep_equal_hand_sizes(deal):
    n = deal.cards_per_hand
    assert all(len(h) == n for h in deal.hands)
    assert deal.is_complete
    # Every card is held by exactly one seat.
    held = [deal.holder(c) for c in ALL_CARDS]
    assert sum(h is not None for h in held) == 4 * n


def test_deal_reads_unknown_hands_as_none():
    deal = Deal.from_pbn("N:AKQ2.KJ3.T94.A65 - T7.A762.QJ853.K4 -")
    assert deal.east is None and deal.west is None
    assert not deal.is_complete
    assert deal.cards_per_hand == 13
    assert Deal.from_pbn("S:- - - -").cards_per_hand == 0


def test_deal_require_complete_names_the_missing_hand():
    text = "N:AKQ2.KJ3.T94.A65 - T7.A762.QJ853.K4 543.T98.76.QT872"
    with pytest.raises(DealError, match="E's hand"):
        Deal.from_pbn(text, require_complete=True)
    with pytest.raises(DealError, match="E's hand"):
        Deal.from_pbn(text).require_complete()
    assert Deal.from_pbn(FULL, require_complete=True).require_complete().is_complete


def test_deal_rejects_duplicate_card_between_hands():
    text = "N:AKQ2.KJ3.T94.A65 A986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"
    with pytest.raises(DealError, match="SA"):
        Deal.from_pbn(text)


def test_deal_rejects_duplicate_card_inside_a_hand():
    text = "N:AKQQ.KJ3.T94.A65 - - -"
    with pytest.raises(DealError, match="N's hand"):
        Deal.from_pbn(text)


def test_deal_rejects_hands_of_different_sizes():
    with pytest.raises(DealError, match="equal"):
        Deal.from_pbn("N:AKQ2.KJ3.T94.A6 J986.Q54.AK2.J93 - -")
    with pytest.raises(DealError, match="at most 13"):
        Deal.from_pbn("N:AKQJT98765432.A.. - - -")


@pytest.mark.parametrize("text, column", [
    ("N:AKQ2.KJ3.T94.A6X - - -", 17),
    ("N:- AKQ2.KJ3.T94.A6X - -", 19),
    ("W:AK... .Q.. ..Z. ...2", 15),
    ("N:A... K... Q... J..?.", 20),
])
def test_deal_rejects_bad_character_giving_its_column(text, column):
    with pytest.raises(ParseError) as info:
        Deal.from_pbn(text)
    assert info.value.position == column
    assert text[column] in "XZ?"
    assert f"column {column + 1}" in str(info.value)


@pytest.mark.parametrize("text", [
    "AKQ2.KJ3.T94.A65 - - -",           # no first seat
    "X:AKQ2.KJ3.T94.A65 - - -",         # bad first seat
    "N AKQ2.KJ3.T94.A65 - - -",         # no colon
    "N:AKQ2.KJ3.T94.A65 - -",           # three hands
    "N:- - - - -",                       # five hands
    "N:AKQ2.KJ3.T94 - - -",             # three suits
    "",
])
def test_deal_rejects_malformed_text_with_parse_error(text):
    with pytest.raises(ParseError):
        Deal.from_pbn(text)


def test_deal_errors_are_value_errors():
    for text in ("N:AKQQ... - - -", "N:X... - - -", "Q:- - - -"):
        with pytest.raises(ValueError):
            Deal.from_pbn(text)


def test_deal_from_pbn_rejects_non_strings():
    with pytest.raises(ParseError):
        Deal.from_pbn(None)  # type: ignore[arg-type]


def test_deal_constructor_checks_its_hands():
    with pytest.raises(DealError):
        Deal((None, None, None))  # type: ignore[arg-type]
    with pytest.raises(DealError):
        Deal(("AKQ...", None, None, None))  # type: ignore[arg-type]


# ---- Deal: queries ------------------------------------------------------------------

def test_deal_holder_finds_the_seat_of_a_card():
    deal = Deal.from_pbn(FULL)
    assert deal.holder("SA") is Seat.NORTH
    assert deal.holder("C2") is Seat.WEST
    assert Deal.from_pbn("N:AKQ2.KJ3.T94.A65 - - -").holder("C2") is None


def test_deal_rotate_moves_every_hand_clockwise():
    deal = Deal.from_pbn(FULL)
    turned = deal.rotate(1)
    assert turned.east == deal.north and turned.north == deal.west
    assert deal.rotate(4) == deal
    assert turned.rotate(-1) == deal


def test_deal_without_removes_cards_from_their_holders():
    deal = Deal.from_pbn(FULL)
    ending = deal.without(["SA", "SJ", "ST", "S5"])
    assert ending.cards_per_hand == 12
    assert ending.holder("SA") is None
    with pytest.raises(DealError):
        ending.without(["SA", "SK", "SQ", "S2"])


def test_deal_replace_one_hand():
    deal = Deal.from_pbn(FULL)
    assert deal.replace("E", None).east is None
    assert deal.replace("E", None).replace("E", "J986.Q54.AK2.J93") == deal


def test_deal_diagram_shows_all_four_hands():
    lines = Deal.from_pbn(FULL).diagram().splitlines()
    assert len(lines) == 12
    assert lines[0].strip() == "S AKQ2"
    assert lines[4].split() == ["S", "543", "S", "J986"]  # West, then East
    assert "-" in Deal.from_pbn("N:... ... ... ...").diagram()


def test_hcp_of_a_full_deal_adds_up_to_40():
    assert sum(h.hcp for h in Deal.from_pbn(FULL).hands) == 40


# ---- the reference corpus -------------------------------------------------------------

def _reference_deals():
    with REFERENCE.open() as f:
        return [json.loads(line)["pbn"] for line in f if line.strip()]


def test_every_reference_deal_parses_and_prints_back_unchanged():
    texts = _reference_deals()
    assert len(texts) == 400
    for text in texts:
        deal = Deal.from_pbn(text, require_complete=True)
        assert deal.cards_per_hand == 13
        assert sum(h.hcp for h in deal.hands) == 40
        assert deal.to_pbn() == text
