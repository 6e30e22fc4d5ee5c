"""cardgames.auction: calls, their annotations, the laws of the auction, and the final
contract with its declarer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames import Seat, Strain
from cardgames.auction import DOUBLE, PASS, REDOUBLE, Auction, Call, CallKind
from cardgames.errors import IllegalCallError, ParseError
from cardgames.scoring import Contract

# ---- calls -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, name", [
    ("1C", "1C"), ("1n", "1NT"), ("7NT", "7NT"), ("3♠", "3S"), ("Pass", "Pass"), ("p", "Pass"),
    ("X", "X"), ("Dbl", "X"), ("XX", "XX"), ("Rdbl", "XX"),
])
def test_reads_calls(text, name):
    assert Call.parse(text).name == name


@pytest.mark.parametrize("text", ["8C", "0S", "1Z", "", "Pas", "1NTX", "XXX"])
def test_rejects_what_is_not_a_call(text):
    with pytest.raises(ParseError):
        Call.parse(text)


def test_annotations_print_but_do_not_change_equality():
    c = Call.parse("2C*!=3=")
    assert c.alert and c.suffix == "!" and c.note == 3
    assert c == Call.parse("2C") and hash(c) == hash(Call.parse("2C"))
    assert str(c) == "2C*!=3=" and eval(repr(c)) == c and str(c.bare) == "2C"


def test_bids_compare_in_bidding_order():
    order = [Call.bid(level, s) for level in range(1, 8) for s in "CDHSN"]
    assert [c.rank for c in order] == list(range(35))
    assert Call.parse("1NT") > Call.parse("1S") > Call.parse("1H") > Call.parse("1D")
    assert Call.parse("2C") > Call.parse("1NT")


def test_call_kinds():
    assert PASS.kind == CallKind.PASS and DOUBLE.kind == CallKind.DOUBLE
    assert REDOUBLE.kind == CallKind.REDOUBLE and Call.parse("4H").is_bid


# ---- contracts and declarers -------------------------------------------------------------

@pytest.mark.parametrize("text, contract", [
    ("N: 1NT P 3NT AP", "3NTN"),
    ("E: 1NT P 3NT P P P", "3NTE"),
    ("N: 1S P 2S AP", "2SN"),
    ("N: 1H P 1S P 2H AP", "2HN"),
    # a suit bid by both partners: the first to name it declares
    ("N: 1H P 1S P 4S AP", "4SS"),
    ("N: 1S P 2H P 2S P 4S AP", "4SN"),
    ("S: 1D P 1H P 1NT P 3NT AP", "3NTS"),
    ("W: 1C P 1NT P 2NT P 3NT AP", "3NTE"),
    # doubled, redoubled
    ("N: 1S X P P P", "1SXN"),
    ("N: 4S X AP", "4SXN"),
    ("N: 1S X XX AP", "1SXXN"),
    ("N: 1S P P X XX AP", "1SXXN"),
    ("N: 3NT P P X P P XX AP", "3NTXXN"),
    # a double then a new bid: the double is gone
    ("N: 1H X 2H X 3H AP", "3HN"),
    # competitive: the side that bid last declares, its first to name the strain
    ("N: 1H 1S 2H 2S 3H 3S AP", "3SE"),
    ("N: 1H 1S 2H 2S P P 3H AP", "3HN"),
    ("N: 1C 1S X 2S 3H P 4H X AP", "4HXN"),
    ("W: 1S 2H 2S 3H P 4H X AP", "4HXN"),
    ("N: 1D 1H 1S 2H 2S 3H P P 3S AP", "3SS"),
    ("N: P P 1S 2H 2S 3H 3S 4H 4S 5H X AP", "5HXW"),
])
def test_contract_and_declarer(text, contract):
    a = Auction.parse(text)
    assert a.is_complete
    assert a.contract == Contract.parse(contract)
    assert a.declarer == a.contract.declarer


def test_passed_out():
    a = Auction.parse("N: P P P P")
    assert a.is_complete and a.is_passed_out and a.contract is None and a.declarer is None
    assert Auction.parse("AP", dealer="W") == Auction(Seat.WEST, [PASS] * 4)


def test_three_passes_do_not_end_an_unopened_auction():
    a = Auction.parse("N: P P P")
    assert not a.is_complete and a.next_seat == Seat.WEST and a.is_legal("1C")


def test_ap_adds_just_the_passes_that_end_it():
    assert len(Auction.parse("N: 1NT AP")) == 4
    assert len(Auction.parse("N: 1NT P 3NT P AP")) == 6
    assert len(Auction.parse("N: P AP")) == 4
    with pytest.raises(ParseError, match="nothing may follow AP"):
        Auction.parse("N: 1NT AP P")


def test_reads_pbn_annotations_and_separators():
    a = Auction.parse("S: 1NT P 2C! =1= P 2H* $2 P 3NT ? AP")
    assert [c.name for c in a][:7] == ["1NT", "Pass", "2C", "Pass", "2H", "Pass", "3NT"]
    assert a.calls[2].suffix == "!" and a.calls[2].note == 1
    assert a.calls[4].alert and a.calls[6].suffix == "?"
    assert Auction.parse("1NT-P-3NT-AP", dealer="N").contract == Contract.parse("3NTN")
    assert eval(repr(a)) == a


def test_incomplete_auction_has_the_contract_so_far():
    a = Auction.parse("E: 1H X 2H")
    assert not a.is_complete and a.contract == Contract.parse("2HE") and a.next_seat == Seat.NORTH
    assert a.then("P", "P", "P").is_complete
    assert a[:2] == Auction.parse("E: 1H X") and a[1] == Call.parse("X") and a[-1].name == "2H"


def test_needs_a_dealer():
    with pytest.raises(ParseError, match="dealer"):
        Auction.parse("1NT P 3NT AP")
    with pytest.raises(ParseError, match="twice"):
        Auction.parse("N: 1NT", dealer="S")


# ---- illegal auctions -----------------------------------------------------------------------

@pytest.mark.parametrize("text, index, call, reason", [
    ("N: 1S 1H", 1, "1H", "insufficient"),
    ("N: 1NT P 2C P 1S", 4, "1S", "insufficient"),
    ("N: 2S 2S", 1, "2S", "insufficient"),
    ("N: X", 0, "X", "nothing"),
    ("N: P P X", 2, "X", "nothing"),
    ("N: 1S P X", 2, "X", "own side"),
    ("N: 1S X X", 2, "X", "already doubled"),
    ("N: 1S XX", 1, "XX", "without a double"),
    ("N: XX", 0, "XX", "nothing"),
    ("N: 1S X P XX", 3, "XX", "own side"),
    ("N: 1S X XX XX", 3, "XX", "already redoubled"),
    ("N: 1S X XX X", 3, "X", "already redoubled"),
    ("N: P P P P 1C", 4, "1C", "ended"),
    ("N: 1C P P P P", 4, "Pass", "ended"),
    ("N: 1C X P P P 1D", 5, "1D", "ended"),
])
def test_rejects_illegal_calls_naming_call_and_index(text, index, call, reason):
    with pytest.raises(IllegalCallError, match=reason) as info:
        Auction.parse(text)
    assert info.value.index == index and info.value.call == call
    assert f"call {index + 1} ({call})" in str(info.value)   # counted from 1, as players do
    assert isinstance(info.value, ValueError)


def test_constructor_checks_legality_too():
    with pytest.raises(IllegalCallError):
        Auction("N", ["1S", "1H"])
    assert Auction.parse("N: 1S").is_legal("X")  # E may double N's 1S
    assert not Auction.parse("N: 1S P").is_legal("X")


# ---- property: random legal auctions --------------------------------------------------------

@st.composite
def legal_auctions(draw):
    dealer = draw(st.sampled_from(list(Seat)))
    a = Auction(dealer)
    while not a.is_complete and len(a) < 40:
        options = [c for c in [PASS, DOUBLE, REDOUBLE] if a.is_legal(c)]
        last = a.last_bid.rank if a.last_bid else -1
        options += [Call.bid(r // 5 + 1, "CDHSN"[r % 5]) for r in range(last + 1, min(last + 4, 35))]
        a = a.then(draw(st.sampled_from(options)))
    return a


def _declarer_by_hand(a: Auction):
    bids = [(i, s, c) for i, s, c in a.seated() if c.is_bid]
    if not bids:
        return None
    _, last_seat, last = bids[-1]
    return next(s for _, s, c in bids if c.strain == last.strain and s % 2 == last_seat % 2)


@settings(max_examples=200, deadline=None)
@given(legal_auctions())
def test_random_auctions_round_trip_and_declarer_is_first_to_name_strain(a):
    assert Auction.parse(repr(a)[len("Auction.parse('"):-2]) == a
    assert a.declarer == _declarer_by_hand(a)
    if a.contract is not None:
        bids = [c for c in a if c.is_bid]
        assert (a.contract.level, a.contract.strain) == (bids[-1].level, bids[-1].strain)
        assert a.contract.strain in Strain
