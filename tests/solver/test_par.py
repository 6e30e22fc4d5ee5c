"""Par (:mod:`ddsolver.par`) against DDS, by hand, and by its own properties.

The oracles: the ``par_dealer_N`` field of every deal of ``dds_reference.jsonl`` (DDS
``DealerParBin`` through endplay, both vulnerabilities), the ``PAR2`` line (DDS ``DealerPar``,
dealer and vulnerability of the board) and the scores of the ``PAR`` line (par when each
side bids first) of every board of the DDS ``list*.txt`` files, each from the table given
beside it, so all of them run in well under a second; a few deals solved here first; and,
when endplay is installed, DDS's ``DealerPar`` live on random tables.
"""

from __future__ import annotations

import re

import pytest
from ddsfiles import read_reference, read_txt, shared_data_file
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames.cards import Seat, Strain
from cardgames.errors import DealError, ParseError
from cardgames.hands import Deal
from cardgames.scoring import Vulnerability
from ddsolver.par import ParContract, ParResult, par
from ddsolver.solver import DDTable, dd_table

REFERENCE = read_reference(shared_data_file("dds_reference.jsonl"))
BOARDS = [b for path in sorted(shared_data_file("dds-hands").glob("list*.txt"))
          for b in read_txt(path)]

# The order in which DDS's binary par result (and so endplay) lists contracts: NT first.
_BIN_ORDER = {Strain.NOTRUMP: 0, Strain.SPADES: 1, Strain.HEARTS: 2, Strain.DIAMONDS: 3,
              Strain.CLUBS: 4}


def endplay_strings(result: ParResult) -> list[str]:
    """``result.contracts`` as endplay lists DDS's binary par result: sorted by strain
    (NT S H D C, stable), a side's contract split into one per declarer."""
    ordered = sorted(result.contracts, key=lambda c: _BIN_ORDER[c.strain])
    return [str(one) for c in ordered for one in c.per_declarer()]


def table_from(spec: dict[str, str]) -> DDTable:
    """A table from ``{"N": "S H D C NT tricks"...}``, e.g. ``{"N": "10 4 6 5 7", ...}``."""
    return DDTable(tuple(tuple(int(x) for x in spec[s].split()) for s in "NESW"))


# ---- DDS: the reference deals ---------------------------------------------------------------

def test_reference_file_has_par_for_every_deal():
    assert len(REFERENCE) == 400
    assert all(set(r["par_dealer_N"]) == {"none", "both"} for r in REFERENCE)


@pytest.mark.parametrize("record", REFERENCE, ids=[r["id"] for r in REFERENCE])
def test_par_matches_dds_on_reference_tables(record):
    table = DDTable.from_dict(record["dd"])
    for vul in ("none", "both"):
        expected = record["par_dealer_N"][vul]
        result = par(table, vul=vul, dealer="N")
        assert (result.score, endplay_strings(result)) == \
            (expected["score"], expected["contracts"]), vul


# Solving is slow next to the rest of this file: a few deals, spread over the file.
@pytest.mark.parametrize("record", REFERENCE[::100], ids=[r["id"] for r in REFERENCE[::100]])
def test_par_of_a_solved_deal_matches_dds(record):
    deal = Deal.from_pbn(record["pbn"])
    expected = record["par_dealer_N"]["both"]
    result = par(deal, vul=Vulnerability.BOTH, dealer=Seat.NORTH)
    assert (result.score, endplay_strings(result)) == (expected["score"], expected["contracts"])
    # A PBN string is solved the same way; the table is the one the file gives.
    assert par(record["pbn"], "All", "N") == result
    assert par(record["dd"], "both", "N") == result


# ---- DDS: the txt lists -------------------------------------------------------------------

def test_lists_have_par_lines():
    assert len(BOARDS) == 1411
    assert all(b.par2 and len(b.par) == 4 for b in BOARDS)


@pytest.mark.parametrize("board", BOARDS, ids=[b.id for b in BOARDS])
def test_par_matches_dds_par2_line(board):
    result = par(DDTable(board.table), vul=board.vul, dealer=board.dealer)
    assert result.dds_text == board.par2


@pytest.mark.parametrize("board", BOARDS, ids=[b.id for b in BOARDS])
def test_par_scores_match_dds_par_line(board):
    """``PAR "NS <s>" "EW <s>" ...``: par when North-South bid first (each from its own
    side's view).  Bidding first means holding the dealer's seat or the one after partner's
    opening pass: the better of the two dealers of that side."""
    table = DDTable(board.table)
    by_dealer = {seat: par(table, board.vul, seat).score for seat in Seat}
    ns_text, ew_text = board.par[0].split(), board.par[1].split()
    assert ns_text[0] == "NS" and ew_text[0] == "EW"
    assert int(ns_text[1]) == max(by_dealer[Seat.NORTH], by_dealer[Seat.SOUTH])
    assert int(ew_text[1]) == -min(by_dealer[Seat.EAST], by_dealer[Seat.WEST])


# ---- by hand ------------------------------------------------------------------------------

# North-South make 4S; East-West take 9 tricks in hearts and nothing much elsewhere.
SACRIFICE = table_from({"N": "10 4 6 5 7", "S": "10 4 6 5 7",
                        "E": "3 9 7 8 5", "W": "3 9 7 8 5"})


def test_sacrifice_that_pays_is_par():
    # 4S makes 420; 5H doubled goes two down, 300 non-vulnerable: East-West sacrifice.
    result = par(SACRIFICE, "none", "N")
    assert result.score == 300
    assert [str(c) for c in result.contracts] == ["5HEWx-2"]
    assert result.dds_text == ("300", "5H*-EW-2")
    # North-South vulnerable: 620 against 300, the sacrifice pays even more.
    assert par(SACRIFICE, "ns", "N").score == 300


def test_sacrifice_that_does_not_pay_leaves_the_game():
    # East-West vulnerable: two down doubled is 500, more than the 420 of 4S.
    result = par(SACRIFICE, "ew", "E")
    assert result.score == 420
    assert [str(c) for c in result.contracts] == ["4SNS="]


# Both sides take exactly 7 tricks in no-trump (with different opening leaders), and
# nothing above 1NT can be made.
BOTH_MAKE_1NT = table_from({"N": "5 5 5 5 7", "S": "5 5 5 5 7",
                            "E": "5 5 5 5 7", "W": "5 5 5 5 7"})


@pytest.mark.parametrize("dealer, score, contract", [
    ("N", 90, "1NTNS="), ("E", -90, "1NTEW="), ("S", 90, "1NTNS="), ("W", -90, "1NTEW=")])
def test_dealer_side_gets_the_contract_both_sides_can_make(dealer, score, contract):
    # The other side's cheapest way over 1NT is 2NT doubled one down (100): too dear.
    result = par(BOTH_MAKE_1NT, "none", dealer)
    assert (result.score, [str(c) for c in result.contracts]) == (score, [contract])


# North-South take 9 tricks in clubs; East-West 7 in spades and in no-trump.
PART_SCORE = table_from({"N": "6 5 5 9 6", "S": "6 5 5 9 6",
                         "E": "7 5 5 4 7", "W": "7 5 5 4 7"})


def test_part_score_is_bid_as_low_as_the_opponents_allow():
    # Vulnerable against vulnerable, 2S or 2NT doubled one down costs 200 > 110, so 2C is
    # high enough (1C would let East-West make 1NT): 2C+1.
    both = par(PART_SCORE, "both", "N")
    assert (both.score, [str(c) for c in both.contracts]) == (110, ["2CNS+1"])
    # Not vulnerable, 2S doubled one down costs only 100 < 110: North-South must bid 3C.
    none = par(PART_SCORE, "none", "N")
    assert (none.score, [str(c) for c in none.contracts]) == (110, ["3CNS="])


def test_game_is_not_lowered_to_a_part_score():
    # 11 tricks in hearts for North only, East-West have nothing: 4H+1 (not 1H+4).
    table = table_from({"N": "5 11 5 5 5", "S": "5 10 5 5 5", "E": "4 2 4 4 4",
                        "W": "4 2 4 4 4"})
    result = par(table, "none", "N")
    assert result.score == 450
    assert [str(c) for c in result.contracts] == ["4HN+1"]
    assert result.contracts[0].declarers == (Seat.NORTH,)


def test_deal_nobody_can_make_is_passed_out():
    table = table_from({s: "6 6 6 6 6" for s in "NESW"})
    result = par(table, "both", "W")
    assert result.score == 0 and result.contracts == ()
    assert result.dds_text == ("0", "pass")
    assert str(result) == "NS 0: passed out"


def test_text_forms():
    result = par(SACRIFICE, "none", "N")
    assert str(result) == "NS 300: 5HEWx-2"
    made = ParContract(3, Strain.NOTRUMP, (Seat.SOUTH,), False, 0)
    assert (str(made), made.dds_text) == ("3NTS=", "3N-S")
    over = ParContract(4, Strain.HEARTS, (Seat.NORTH, Seat.SOUTH), False, 1)
    assert (str(over), over.dds_text) == ("4HNS+1", "4H-NS+1")
    assert [str(c) for c in over.per_declarer()] == ["4HN+1", "4HS+1"]


# ---- inputs -------------------------------------------------------------------------------

@pytest.mark.parametrize("vul, expected", [
    ("none", 300), ("NONE", 300), ("-", 300), ("Love", 300), ("ns", 300), ("N-S", 300),
    ("ew", 420), ("EW", 420), ("both", 500), ("All", 500), (Vulnerability.EW, 420),
    (Vulnerability.BOTH, 500)])
def test_vulnerability_spellings(vul, expected):
    assert par(SACRIFICE, vul, "N").score == expected


@pytest.mark.parametrize("vul", ["nv", "vul", "", "NSEW", 7, None])
def test_bad_vulnerability_raises_parse_error(vul):
    with pytest.raises(ParseError, match="vul"):
        par(SACRIFICE, vul, "N")


@pytest.mark.parametrize("dealer", ["X", "", 4, None, "NE"])
def test_bad_dealer_raises_parse_error(dealer):
    with pytest.raises(ParseError, match="dealer"):
        par(SACRIFICE, "none", dealer)


def test_dealer_as_seat_or_word():
    assert par(BOTH_MAKE_1NT, "none", Seat.EAST) == par(BOTH_MAKE_1NT, "none", "east")


def test_bad_inputs():
    with pytest.raises(TypeError):
        par(42)
    with pytest.raises(ValueError):
        par({"N": {"S": 5}})                    # a table with entries missing
    with pytest.raises(DealError):
        par(Deal.from_pbn("N:AKQJT98765432... - - -"))  # not a complete deal
    with pytest.raises(ParseError):
        par("N:not a deal")
    assert issubclass(ParseError, ValueError)


def test_result_is_frozen_and_hashable():
    result = par(SACRIFICE, "none", "N")
    with pytest.raises(AttributeError):
        result.score = 0  # type: ignore[misc]
    assert hash(result) == hash(par(SACRIFICE, "none", "N"))


# ---- properties ---------------------------------------------------------------------------

def check_consistent(table: DDTable, result: ParResult) -> None:
    """What every par result must satisfy, whatever DDS says."""
    if not result.contracts:
        assert result.score == 0
        return
    assert result.score != 0
    for c in result.contracts:
        for seat in c.declarers:
            # The score of every listed contract is the par score...
            assert c.score(result.vul) == result.score
            one = ParContract(c.level, c.strain, (seat,), c.doubled, c.result)
            assert one.score(result.vul) == result.score
            # ...with the tricks its declarer takes double dummy.
            assert table.tricks(seat, c.strain) == c.tricks
        # The side that gains makes its contract; the other sacrifices, doubled.
        gains = (result.score > 0) == c.is_ns
        assert gains == (not c.doubled) == (c.result >= 0)
        # Both partners named only when both take the same tricks, and the better one.
        best = max(table.tricks(s, c.strain) for s in (c.declarers[0], c.declarers[0].partner))
        assert c.tricks == best or (c.doubled and len(c.declarers) == 1)
    # All contracts belong to one side.
    assert len({c.is_ns for c in result.contracts}) == 1


@pytest.mark.parametrize("vul", list(Vulnerability))
@pytest.mark.parametrize("dealer", list(Seat))
def test_every_listed_contract_scores_the_par_score(vul, dealer):
    for record in REFERENCE:
        table = DDTable.from_dict(record["dd"])
        check_consistent(table, par(table, vul, dealer))


def _tables():
    """Tables shaped like real ones: partners within a trick of each other, the other side
    near 13 minus, some strains long for one side."""
    noise = st.sampled_from([0, 0, 0, 1, -1])

    def build(draw):
        rows = [[0] * 5 for _ in range(4)]
        for strain in range(5):
            base = draw(st.integers(0, 13))
            for seat in range(4):
                mean = base if seat % 2 == 0 else 13 - base
                rows[seat][strain] = min(13, max(0, mean + draw(noise)))
        return DDTable(tuple(tuple(r) for r in rows))

    return st.composite(lambda draw: build(draw))()


@settings(max_examples=300, deadline=None)
@given(_tables(), st.sampled_from(list(Vulnerability)), st.sampled_from(list(Seat)))
def test_par_is_consistent_on_random_tables(table, vul, dealer):
    check_consistent(table, par(table, vul, dealer))


# ---- DDS live -----------------------------------------------------------------------------

# DDS numbers vulnerability 0 none, 1 both, 2 NS, 3 EW.
_DDS_VUL = {Vulnerability.NONE: 0, Vulnerability.BOTH: 1, Vulnerability.NS: 2,
            Vulnerability.EW: 3}


@settings(max_examples=500, deadline=None)
@given(_tables(), st.sampled_from(list(Vulnerability)), st.sampled_from(list(Seat)))
def test_par_matches_live_dds_dealer_par(table, vul, dealer):
    """DDS's text ``DealerPar`` (the PAR2 form).  DDS 2.9 as endplay bundles it writes a
    sacrifice by one player in the owner's strain without its ``*`` (``2N-E-1``; the lists
    DDS ships write ``2N*-E-1``, and its binary form then reads the result as made), so the
    ``*`` is put back before comparing."""
    _dds = pytest.importorskip("endplay._dds")
    data = _dds.ddTableResults()
    for seat, strain, tricks in table:
        data.resTable[strain][seat] = tricks
    out = _dds.parResultsDealer()
    _dds.DealerPar(data, out, int(dealer), _DDS_VUL[vul])
    contracts = tuple(re.sub(r"^(\d[SHDCN])-([NESW]-\d+)$", r"\1*-\2",
                             out.contracts[i].value.decode()) for i in range(out.number))
    expected = ("0", "pass") if contracts == ("pass",) else (str(out.score),) + contracts
    assert par(table, vul, dealer).dds_text == expected


@pytest.mark.parametrize("bad", [-1, 9.5, True, 14, "9"])
def test_a_dd_table_as_a_dict_takes_whole_tricks_only(bad):
    rows = {s: {t: 7 for t in ("S", "H", "D", "C", "NT")} for s in "NESW"}
    rows["N"]["NT"] = bad
    with pytest.raises(ValueError, match="N NT must be a whole number of tricks 0..13"):
        DDTable.from_dict(rows)
    rows["N"]["NT"] = 9
    assert DDTable.from_dict(rows).tricks("N", "NT") == 9


def test_par_of_an_ending_is_refused():
    with pytest.raises(DealError, match="whole deal"):
        par("N:AK... QJ... T9... 87...")    # was par 0 on a table of two tricks
    # its table too, which knows its cards: it was "passed out"
    with pytest.raises(DealError, match="whole deal: this table is of hands of 2 cards"):
        par(dd_table("N:AK... QJ... T9... 87..."))
