"""Tests for cardgames.scoring: Law 77 scores, contract text, Law 2 board rotation, IMPs and
matchpoints.

The expected scores below are worked by hand from the Law 77 schedule (the working is in
the comment beside each), not taken from the code under test.
"""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardgames.scoring as scoring_module
from cardgames import CardgamesError, ParseError, Seat, Strain
from cardgames.scoring import (
    IMP_TABLE,
    Contract,
    Vulnerability,
    board_dealer,
    board_vulnerability,
    format_result,
    game_level,
    imps,
    matchpoint_percentages,
    matchpoints,
    parse_result,
    score,
    score_for,
)


def C(text: str) -> Contract:
    contract = Contract.parse(text)
    assert contract is not None
    return contract


contracts = st.builds(Contract, level=st.integers(1, 7), strain=st.sampled_from(Strain),
                      doubled=st.integers(0, 2),
                      declarer=st.one_of(st.none(), st.sampled_from(Seat)))


# ---------------------------------------------------------------------------
# Doctests in the module
# ---------------------------------------------------------------------------

def test_module_doctests_pass():
    failures, attempted = doctest.testmod(scoring_module)
    assert attempted > 0
    assert failures == 0


# ---------------------------------------------------------------------------
# Scores worked by hand from Law 77
# ---------------------------------------------------------------------------

# (contract, tricks, vulnerable, score, working)
HAND_WORKED = [
    ("4S", 10, True, 620, "4x30=120 trick score; vul game 500"),
    ("3NT", 10, False, 430, "40+30+30=100; non-vul game 300; one overtrick 30"),
    ("1NTX", 5, True, -500, "down 2 doubled vul: 200 + 300"),
    ("7NTXX", 13, True, 2980, "(40+6x30)x4=880; game 500; grand vul 1500; redoubled 100"),
    ("1C", 13, False, 190, "20; part score 50; six overtricks 6x20=120"),
    ("2SX", 8, False, 470, "2x30x2=120, a game: 300; doubled 50"),
    ("1NTXX", 8, True, 1160, "40x4=160, a game: vul 500; redoubled 100; "
                             "one redoubled vul overtrick 400"),
    ("1NT", 7, False, 90, "40; part score 50"),
    ("2NT", 8, True, 120, "40+30=70; part score 50 (vulnerability does not matter)"),
    ("3NT", 9, True, 600, "100; vul game 500"),
    ("4H", 10, False, 420, "120; non-vul game 300"),
    ("5C", 11, False, 400, "5x20=100; non-vul game 300"),
    ("5C", 11, True, 600, "100; vul game 500"),
    ("4D", 10, True, 130, "4x20=80, not a game: part score 50"),
    ("5D", 12, True, 620, "100; vul game 500; overtrick 20"),
    ("6S", 12, False, 980, "180; game 300; small slam non-vul 500"),
    ("6S", 12, True, 1430, "180; game 500; small slam vul 750"),
    ("6NT", 12, True, 1440, "40+5x30=190; game 500; small slam vul 750"),
    ("6C", 13, False, 940, "120; game 300; small slam 500; overtrick 20"),
    ("7S", 13, True, 2210, "210; game 500; grand slam vul 1500"),
    ("7NT", 13, False, 1520, "220; game 300; grand slam non-vul 1000"),
    ("7C", 13, False, 1440, "140; game 300; grand slam 1000"),
    ("1CX", 7, False, 140, "20x2=40; part score 50; doubled 50"),
    ("1CX", 7, True, 140, "as non-vul: a doubled part score has no vul bonus"),
    ("1CX", 8, False, 240, "140; one doubled non-vul overtrick 100"),
    ("1CX", 8, True, 340, "140; one doubled vul overtrick 200"),
    ("1NTX", 7, True, 180, "40x2=80; part score 50; doubled 50"),
    ("2HX", 8, True, 670, "60x2=120, a game: vul 500; doubled 50"),
    ("4SX", 10, False, 590, "120x2=240; game 300; doubled 50"),
    ("4SX", 10, True, 790, "240; game 500; doubled 50"),
    ("4HX", 11, False, 690, "240; game 300; doubled 50; overtrick 100"),
    ("3NTX", 9, True, 750, "100x2=200; game 500; doubled 50"),
    ("1CXX", 7, False, 230, "20x4=80; part score 50; redoubled 100"),
    ("1HXX", 7, False, 520, "30x4=120, a game: 300; redoubled 100"),
    ("2CXX", 8, True, 760, "40x4=160; game 500; redoubled 100"),
    ("3NTXX", 11, False, 1200, "100x4=400; game 300; redoubled 100; 2 overtricks x200"),
    ("6HXX", 12, True, 2070, "180x4=720; game 500; small slam vul 750; redoubled 100"),
    ("3NT", 8, False, -50, "down 1 undoubled non-vul"),
    ("3NT", 8, True, -100, "down 1 undoubled vul"),
    ("4SX", 7, False, -500, "down 3 doubled non-vul: 100 + 200 + 200"),
    ("4SX", 6, False, -800, "down 4 doubled non-vul: 500 + 300"),
    ("4SX", 6, True, -1100, "down 4 doubled vul: 200 + 3x300"),
    ("6HX", 11, True, -200, "down 1 doubled vul"),
    ("6HXX", 11, False, -200, "down 1 redoubled non-vul: 2x100"),
    ("7NTXX", 0, True, -7600, "down 13 redoubled vul: 2x(200 + 12x300)"),
]


@pytest.mark.parametrize("text, tricks, vulnerable, expected, working", HAND_WORKED,
                         ids=[f"{r[0]}-{r[1]}-{'V' if r[2] else 'NV'}" for r in HAND_WORKED])
def test_score_matches_hand_worked_law_77_value(text, tricks, vulnerable, expected, working):
    assert score(C(text), tricks, vulnerable) == expected, working


# Cumulative undertrick penalties for down 1..13, worked from Law 77:
#   undoubled 50 / 100 each; doubled non-vul 100, 200, 200, then 300 each;
#   doubled vul 200 then 300 each; redoubled twice doubled.
UNDERTRICKS = {
    (0, False): [50 * k for k in range(1, 14)],
    (0, True): [100 * k for k in range(1, 14)],
    (1, False): [100, 300, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500],
    (1, True): [200, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500, 3800],
    (2, False): [200, 600, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000],
    (2, True): [400, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000, 7600],
}


@pytest.mark.parametrize("doubled, vulnerable", sorted(UNDERTRICKS),
                         ids=[f"{'-XX'[d] or 'undoubled'}-{'V' if v else 'NV'}"
                              for d, v in sorted(UNDERTRICKS)])
def test_undertrick_schedule_for_every_level_and_strain(doubled, vulnerable):
    schedule = UNDERTRICKS[doubled, vulnerable]
    for level in range(1, 8):
        for strain in Strain:
            contract = Contract(level, strain, doubled)
            for down in range(1, level + 7):
                assert score(contract, level + 6 - down, vulnerable) == -schedule[down - 1], \
                    (str(contract), down)


def _reference_score(level: int, strain: Strain, doubled: int, tricks: int, vul: bool) -> int:
    """A second, deliberately plain scorer: walks trick by trick through the Law 77 table."""
    need = level + 6
    multiplier = (1, 2, 4)[doubled]
    if tricks < need:
        total = 0
        for k in range(1, need - tricks + 1):
            if doubled == 0:
                each = 100 if vul else 50
            elif vul:
                each = 200 if k == 1 else 300
            else:
                each = 100 if k == 1 else 200 if k <= 3 else 300
            total += each * (1 if doubled == 0 else doubled)
        return -total
    minor = strain in (Strain.CLUBS, Strain.DIAMONDS)
    trick_score = 0
    for k in range(1, level + 1):
        if strain == Strain.NOTRUMP:
            trick_score += 40 if k == 1 else 30
        else:
            trick_score += 20 if minor else 30
    trick_score *= multiplier
    total = trick_score
    if trick_score >= 100:
        total += 500 if vul else 300
    else:
        total += 50
    if level == 6:
        total += 750 if vul else 500
    if level == 7:
        total += 1500 if vul else 1000
    total += (0, 50, 100)[doubled]
    for _ in range(tricks - need):
        if doubled == 0:
            total += 20 if minor else 30
        else:
            total += (100 if not vul else 200) * doubled
    return total


def test_score_agrees_with_trick_by_trick_reference_on_every_case():
    checked = 0
    for level in range(1, 8):
        for strain in Strain:
            for doubled in range(3):
                contract = Contract(level, strain, doubled)
                for vul in (False, True):
                    for tricks in range(14):
                        assert score(contract, tricks, vul) == \
                            _reference_score(level, strain, doubled, tricks, vul), \
                            (str(contract), tricks, vul)
                        checked += 1
    assert checked == 7 * 5 * 3 * 2 * 14


def test_score_agrees_with_endplay_on_every_case():
    # endplay (an independent bridge library, installed for the benchmarks) as an external
    # oracle; its Contract.score is from declarer's side, with Vul.both / Vul.none.
    endplay = pytest.importorskip("endplay.types")
    penalties = (endplay.Penalty.passed, endplay.Penalty.doubled, endplay.Penalty.redoubled)
    for level in range(1, 8):
        for strain in Strain:
            for doubled in range(3):
                contract = Contract(level, strain, doubled, Seat.NORTH)
                for tricks in range(14):
                    theirs = endplay.Contract(level=level, denom=endplay.Denom(int(strain)),
                                              declarer=endplay.Player.north,
                                              penalty=penalties[doubled],
                                              result=tricks - contract.tricks_needed)
                    for vul, their_vul in ((False, endplay.Vul.none), (True, endplay.Vul.both)):
                        assert score(contract, tricks, vul) == theirs.score(their_vul), \
                            (str(contract), tricks, vul)


@pytest.mark.parametrize("strain", list(Strain))
def test_game_level_is_the_lowest_level_whose_making_score_holds_a_game_bonus(strain):
    # Made exactly, not vulnerable, below a slam: a part score comes to at most 140 (trick
    # score under 100, bonus 50), a game to at least 400 (bonus 300).
    made = {level: score(Contract(level, strain), 6 + level, False) for level in range(1, 6)}
    games = [level for level, total in made.items() if total >= 300]
    assert game_level(strain) == games[0]
    assert all(made[level] <= 140 for level in range(1, games[0]))
    assert game_level(strain.name) == game_level(strain)


def test_game_level_refuses_what_is_not_a_strain():
    with pytest.raises(ParseError):
        game_level("Z")


def test_passed_out_board_scores_zero():
    assert score(None, 0, True) == 0
    assert score_for(None, 0, Vulnerability.BOTH) == 0


@pytest.mark.parametrize("tricks", [-1, 14, 7.0, True])
def test_score_rejects_impossible_trick_counts(tricks):
    with pytest.raises(CardgamesError, match="tricks"):
        score(C("4S"), tricks, False)


def test_score_refuses_a_board_vulnerability_for_the_vulnerable_flag():
    # Vulnerability.EW is truthy, so without this check it would silently mean "vulnerable".
    with pytest.raises(TypeError, match="score_for"):
        score(C("4S"), 10, Vulnerability.EW)


def test_score_rejects_a_contract_string():
    with pytest.raises(TypeError):
        score("4S", 10, False)


def test_score_for_is_north_south_view():
    assert score_for(C("4SN"), 10, Vulnerability.NS) == 620
    assert score_for(C("4SS"), 10, Vulnerability.EW) == 420
    assert score_for(C("4SE"), 10, Vulnerability.NS) == -420
    assert score_for(C("4SW"), 10, "All") == -620
    assert score_for(C("3NTXE"), 7, "None") == 300           # down 2 doubled non-vul: 100 + 200
    assert score_for(C("3NTXE"), 7, Vulnerability.EW) == 500  # down 2 doubled vul: 200 + 300


def test_score_for_needs_a_declarer():
    with pytest.raises(CardgamesError, match="declarer"):
        score_for(C("4S"), 10, Vulnerability.NONE)


def test_score_for_rejects_bad_vulnerability_text():
    with pytest.raises(ParseError):
        score_for(C("4SN"), 10, "sometimes")


# ---------------------------------------------------------------------------
# Score properties
# ---------------------------------------------------------------------------

@given(contracts, st.booleans())
def test_score_never_decreases_with_more_tricks(contract, vul):
    scores = [score(contract, t, vul) for t in range(14)]
    assert scores == sorted(scores)


@given(contracts, st.integers(0, 13), st.booleans())
def test_score_sign_says_whether_the_contract_made(contract, tricks, vul):
    result = score(contract, tricks, vul)
    assert (result > 0) == (tricks >= contract.tricks_needed)
    assert (result < 0) == (tricks < contract.tricks_needed)
    assert result % 10 == 0


@given(st.integers(1, 7), st.sampled_from(Strain), st.integers(0, 13), st.booleans())
def test_doubling_helps_a_made_contract_and_hurts_a_failed_one(level, strain, tricks, vul):
    plain, doubled, redoubled = (score(Contract(level, strain, d), tricks, vul) for d in range(3))
    if tricks >= level + 6:
        assert plain < doubled < redoubled
    else:
        assert plain > doubled > redoubled


@given(contracts, st.integers(0, 13))
def test_vulnerability_raises_the_stakes(contract, tricks):
    nonvul, vul = score(contract, tricks, False), score(contract, tricks, True)
    if tricks >= contract.tricks_needed:
        assert vul >= nonvul
    else:
        assert vul < nonvul


@given(contracts.filter(lambda c: c.declarer is not None), st.integers(0, 13),
       st.sampled_from(Vulnerability))
def test_score_for_is_score_signed_by_side(contract, tricks, vul):
    own = score(contract, tricks, vul.is_vulnerable(contract.declarer))
    expected = own if contract.declarer.is_ns else -own
    assert score_for(contract, tricks, vul) == expected


# ---------------------------------------------------------------------------
# Contract values and text
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, level, strain, doubled, declarer", [
    ("4S", 4, Strain.SPADES, 0, None),
    ("4s", 4, Strain.SPADES, 0, None),
    ("3NT", 3, Strain.NOTRUMP, 0, None),
    ("3N", 3, Strain.NOTRUMP, 0, None),
    ("3nt", 3, Strain.NOTRUMP, 0, None),
    ("4SX", 4, Strain.SPADES, 1, None),
    ("6HXX", 6, Strain.HEARTS, 2, None),
    ("6hxx", 6, Strain.HEARTS, 2, None),
    ("2D*", 2, Strain.DIAMONDS, 1, None),
    ("2D**", 2, Strain.DIAMONDS, 2, None),
    ("4SN", 4, Strain.SPADES, 0, Seat.NORTH),
    ("4SNx", 4, Strain.SPADES, 1, Seat.NORTH),
    ("4SxN", 4, Strain.SPADES, 1, Seat.NORTH),
    ("4SXXE", 4, Strain.SPADES, 2, Seat.EAST),
    ("3NTS", 3, Strain.NOTRUMP, 0, Seat.SOUTH),
    ("3NS", 3, Strain.NOTRUMP, 0, Seat.SOUTH),
    ("3NN", 3, Strain.NOTRUMP, 0, Seat.NORTH),
    ("3NTN", 3, Strain.NOTRUMP, 0, Seat.NORTH),
    ("1CW", 1, Strain.CLUBS, 0, Seat.WEST),
    ("N 4S", 4, Strain.SPADES, 0, Seat.NORTH),
    ("W2DX", 2, Strain.DIAMONDS, 1, Seat.WEST),
    ("4S by E", 4, Strain.SPADES, 0, Seat.EAST),
    ("4 S X by E", 4, Strain.SPADES, 1, Seat.EAST),
    ("  7NTXX  ", 7, Strain.NOTRUMP, 2, None),
    ("4♠", 4, Strain.SPADES, 0, None),
    ("5♣X", 5, Strain.CLUBS, 1, None),
])
def test_parses_common_contract_notations(text, level, strain, doubled, declarer):
    assert Contract.parse(text) == Contract(level, strain, doubled, declarer)


@pytest.mark.parametrize("text", ["Pass", "pass", "P", "Passed out", "ALL PASS", "AP", " pass "])
def test_passed_out_board_parses_to_none(text):
    assert Contract.parse(text) is None


@pytest.mark.parametrize("text, position", [
    ("", 0),
    ("S", 0),
    ("8S", 0),
    ("0NT", 0),
    ("10S", 0),
    ("4", 1),
    ("4Z", 1),
    ("4SXXX", 2),
    ("4SXNX", 4),
    ("4SNE", 3),
    ("N4SN", 3),
    ("4S by", 5),
    ("4S Q", 3),
    ("4SX*", 3),
    ("Passs", 0),
])
def test_rejects_malformed_contract_with_text_and_column(text, position):
    with pytest.raises(ParseError) as info:
        Contract.parse(text)
    assert info.value.text == text
    assert info.value.position == position
    assert repr(text) in str(info.value)


def test_contract_parse_rejects_non_text():
    with pytest.raises(ParseError):
        Contract.parse(42)  # type: ignore[arg-type]


def test_contract_parse_returns_a_contract_unchanged():
    contract = C("4SN")
    assert Contract.parse(contract) is contract


@pytest.mark.parametrize("kwargs", [
    dict(level=0, strain=Strain.SPADES), dict(level=8, strain=Strain.SPADES),
    dict(level=True, strain=Strain.SPADES), dict(level=4, strain=Strain.SPADES, doubled=3),
    dict(level=4, strain=Strain.SPADES, doubled=-1),
])
def test_contract_rejects_out_of_range_fields(kwargs):
    with pytest.raises(CardgamesError):
        Contract(**kwargs)


def test_contract_normalises_strain_and_declarer_given_as_text():
    assert Contract(4, "S", 1, "n") == Contract(4, Strain.SPADES, 1, Seat.NORTH)
    assert type(Contract(3, 4).strain) is Strain


def test_contract_is_immutable_and_hashable():
    contract = C("4SXN")
    with pytest.raises(AttributeError):
        contract.level = 5  # type: ignore[misc]
    assert len({contract, C("4SNX"), C("4SX")}) == 2


def test_contract_text_forms():
    assert str(C("4sxn")) == "4SXN"
    assert C("4sxn").call == "4SX"
    assert str(C("3n")) == "3NT"
    assert repr(C("6hxx")) == "Contract.parse('6HXX')"
    assert C("3NT").tricks_needed == 9


@given(contracts)
def test_contract_str_and_repr_round_trip(contract):
    assert Contract.parse(str(contract)) == contract
    assert eval(repr(contract), {"Contract": Contract}) == contract


@given(contracts, st.sampled_from(["", " ", "  "]), st.booleans())
def test_contract_parse_ignores_case_and_spacing(contract, gap, lower):
    parts = [str(contract.level), contract.strain.letter, "X" * contract.doubled,
             contract.declarer.letter if contract.declarer is not None else ""]
    text = gap.join(p for p in parts if p)
    assert Contract.parse(text.lower() if lower else text) == contract


@given(st.text(max_size=12))
def test_contract_parse_only_ever_raises_parse_error(text):
    try:
        Contract.parse(text)
    except ParseError:
        pass


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, contract, tricks", [
    ("4SNx-2", "4SXN", 8),
    ("3NTS=", "3NTS", 9),
    ("4S+1", "4S", 11),
    ("7NT=", "7NT", 13),
    ("1C+6", "1C", 13),
    ("7NTXXW-13", "7NTXXW", 0),
    ("4H E - 1", "4HE", 9),
    ("2dx =", "2DX", 8),
])
def test_parses_contract_with_result(text, contract, tricks):
    assert parse_result(text) == (C(contract), tricks)


def test_passed_out_result_is_none_and_zero_tricks():
    assert parse_result("Pass") == (None, 0)
    assert format_result(None, 0) == "Pass"


@pytest.mark.parametrize("text, position", [
    ("4S", 2),
    ("4S ", 2),
    ("7NT+1", 3),
    ("1C-8", 2),
    ("4S+0", 2),
    ("4S-0", 2),
    ("9S=", 0),
    ("4Q=", 1),
    ("Pass=", 0),
])
def test_rejects_malformed_or_impossible_result(text, position):
    with pytest.raises(ParseError) as info:
        parse_result(text)
    assert info.value.text == text
    assert info.value.position == position


@given(contracts, st.integers(0, 13))
def test_result_text_round_trips(contract, tricks):
    assert parse_result(format_result(contract, tricks)) == (contract, tricks)


def test_format_result_examples():
    assert format_result(C("4SXN"), 8) == "4SXN-2"
    assert format_result(C("3NTS"), 9) == "3NTS="
    assert format_result(C("4H"), 11) == "4H+1"


# ---------------------------------------------------------------------------
# Vulnerability
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("none", Vulnerability.NONE), ("None", Vulnerability.NONE), ("Love", Vulnerability.NONE),
    ("-", Vulnerability.NONE), ("ns", Vulnerability.NS), ("NS", Vulnerability.NS),
    ("N-S", Vulnerability.NS), ("ew", Vulnerability.EW), ("EW", Vulnerability.EW),
    ("both", Vulnerability.BOTH), ("All", Vulnerability.BOTH), ("Both", Vulnerability.BOTH),
    (" all ", Vulnerability.BOTH), (2, Vulnerability.EW), (Vulnerability.NS, Vulnerability.NS),
])
def test_parses_vulnerability_words(text, expected):
    assert Vulnerability.parse(text) is expected


@pytest.mark.parametrize("bad", ["", "N", "NSEW", "vul", 4, -1, True, None, 1.0])
def test_rejects_unknown_vulnerability(bad):
    with pytest.raises(ParseError):
        Vulnerability.parse(bad)


def test_vulnerability_error_names_the_text():
    with pytest.raises(ParseError, match="'sometimes'") as info:
        Vulnerability.parse("sometimes")
    assert info.value.text == "sometimes"


@pytest.mark.parametrize("vul, vulnerable_seats", [
    (Vulnerability.NONE, ""), (Vulnerability.NS, "NS"), (Vulnerability.EW, "EW"),
    (Vulnerability.BOTH, "NESW"),
])
def test_is_vulnerable_by_seat(vul, vulnerable_seats):
    for seat in Seat:
        assert vul.is_vulnerable(seat) == (seat.letter in vulnerable_seats)
        assert vul.is_vulnerable(seat.letter.lower()) == (seat.letter in vulnerable_seats)


def test_is_vulnerable_rejects_a_non_seat():
    with pytest.raises(ParseError):
        Vulnerability.NS.is_vulnerable("X")


def test_vulnerability_text_forms_round_trip():
    assert [str(v) for v in Vulnerability] == ["None", "NS", "EW", "All"]
    for v in Vulnerability:
        assert Vulnerability.parse(str(v)) is v
        assert eval(repr(v), {"Vulnerability": Vulnerability}) is v


# ---------------------------------------------------------------------------
# Board rotation (Law 2)
# ---------------------------------------------------------------------------

# Boards 1..16 as printed on duplicate boards.
ROTATION = [
    (1, "N", "None"), (2, "E", "NS"), (3, "S", "EW"), (4, "W", "Both"),
    (5, "N", "NS"), (6, "E", "EW"), (7, "S", "Both"), (8, "W", "None"),
    (9, "N", "EW"), (10, "E", "Both"), (11, "S", "None"), (12, "W", "NS"),
    (13, "N", "Both"), (14, "E", "None"), (15, "S", "NS"), (16, "W", "EW"),
]


@pytest.mark.parametrize("board, dealer, vul", ROTATION)
def test_board_dealer_and_vulnerability_follow_law_2(board, dealer, vul):
    for cycle in range(4):  # the pattern repeats every 16 boards
        n = board + 16 * cycle
        assert board_dealer(n) is Seat.parse(dealer)
        assert board_vulnerability(n) is Vulnerability.parse(vul)


@pytest.mark.parametrize("board", [0, -1, -16])
def test_rejects_board_numbers_below_one(board):
    with pytest.raises(CardgamesError, match="board") as info:
        board_dealer(board)
    assert isinstance(info.value, ValueError)
    with pytest.raises(CardgamesError):
        board_vulnerability(board)


@pytest.mark.parametrize("board", ["1", 1.0, True, None])
def test_rejects_non_integer_board_numbers(board):
    with pytest.raises(TypeError):
        board_vulnerability(board)


# ---------------------------------------------------------------------------
# IMPs
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("diff, expected", [
    (0, 0), (10, 0), (20, 1), (40, 1), (50, 2), (80, 2), (90, 3), (120, 3), (130, 4),
    (160, 4), (170, 5), (210, 5), (220, 6), (260, 6), (270, 7), (310, 7), (320, 8), (360, 8),
    (370, 9), (420, 9), (430, 10), (490, 10), (500, 11), (590, 11), (600, 12), (740, 12),
    (750, 13), (890, 13), (900, 14), (1090, 14), (1100, 15), (1290, 15), (1300, 16),
    (1490, 16), (1500, 17), (1740, 17), (1750, 18), (1990, 18), (2000, 19), (2240, 19),
    (2250, 20), (2490, 20), (2500, 21), (2990, 21), (3000, 22), (3490, 22), (3500, 23),
    (3990, 23), (4000, 24), (7600, 24), (20000, 24),
])
def test_imp_scale_boundaries(diff, expected):
    assert imps(diff) == expected
    assert imps(-diff) == -expected


def test_imps_between_rows_count_in_the_lower_row():
    assert imps(15) == 0
    assert imps(45) == 1
    assert imps(-3995.5) == -23


def test_imp_table_rows_are_contiguous_and_agree_with_imps():
    assert IMP_TABLE[0][0] == 0 and IMP_TABLE[-1] == (4000, None, 24)
    for (_low, high, n), (next_low, _h, next_n) in zip(IMP_TABLE, IMP_TABLE[1:]):
        assert high + 10 == next_low
        assert next_n == n + 1
    for low, high, n in IMP_TABLE:
        assert imps(low) == n
        if high is not None:
            assert imps(high) == n


def test_imps_typical_swings():
    assert imps(620 - 170) == 10       # vul game bid and made against a part score
    assert imps(1430 - 680) == 13      # vul slam bid against game making 12 tricks
    assert imps(500 - 620) == -3       # a sacrifice that cost 500 against a vul game


@pytest.mark.parametrize("bad", ["100", None, True])
def test_imps_rejects_non_numbers(bad):
    with pytest.raises(TypeError):
        imps(bad)


@given(st.integers(-10000, 10000), st.integers(-10000, 10000))
def test_imps_is_odd_monotone_and_bounded(a, b):
    assert imps(-a) == -imps(a)
    assert 0 <= abs(imps(a)) <= 24
    if a <= b:
        assert imps(a) <= imps(b)


# ---------------------------------------------------------------------------
# Matchpoints
# ---------------------------------------------------------------------------

def test_matchpoints_two_per_beaten_score_one_per_tie():
    assert matchpoints([420, 420, 170, -50]) == [5.0, 5.0, 2.0, 0.0]
    assert matchpoints([100, 200, 300]) == [0.0, 2.0, 4.0]


def test_matchpoints_all_equal_share_the_board():
    assert matchpoints([620] * 5) == [4.0] * 5


def test_matchpoints_acbl_scale():
    assert matchpoints([420, 420, 170, -50], win=1, tie=0.5) == [2.5, 2.5, 1.0, 0.0]


def test_matchpoints_of_single_and_empty_boards():
    assert matchpoints([]) == []
    assert matchpoints([400]) == [0.0]
    assert matchpoint_percentages([]) == []
    assert matchpoint_percentages([400]) == [50.0]


def test_matchpoint_percentages():
    assert matchpoint_percentages([100, 200, 300]) == [0.0, 50.0, 100.0]
    assert matchpoint_percentages([420, 420, -50]) == [75.0, 75.0, 0.0]


def test_matchpoints_rejects_non_numeric_scores():
    with pytest.raises(TypeError):
        matchpoints([420, "430"])


@given(st.lists(st.integers(-760, 760).map(lambda x: x * 10), max_size=30))
def test_matchpoints_share_the_total_and_follow_the_order(scores):
    n = len(scores)
    points = matchpoints(scores)
    assert sum(points) == n * (n - 1)  # every pair of scores hands out 2 matchpoints
    for s, p in zip(scores, points):
        for t, q in zip(scores, points):
            if s > t:
                assert p > q
            elif s == t:
                assert p == q
    percentages = matchpoint_percentages(scores)
    assert all(0.0 <= x <= 100.0 for x in percentages)
    if n:
        assert sum(percentages) == pytest.approx(50.0 * n)


def test_values_that_would_score_silently_wrong_are_refused():
    # "none" is a true string: read as a bool it scored 4S vulnerable (620)
    for vul in ("none", "NS", None):
        with pytest.raises(TypeError, match="score_for"):
            score(Contract.parse("4S"), 10, vul)  # type: ignore[arg-type]
    assert score(Contract.parse("4S"), 10, False) == 420
    with pytest.raises(ValueError, match="NaN"):
        imps(float("nan"))          # was 24
    with pytest.raises(ValueError, match="NaN"):
        matchpoints([float("nan"), 1.0])   # was a tie with everything


def test_numpy_integers_are_tricks_and_levels_and_an_int_is_no_vulnerability():
    """np.int64(10) tricks was "must be 0..13, not 10"; an int vulnerability (EW = 2) was
    read as a bool, so a non-vulnerable North scored as vulnerable."""
    import numpy as np
    four = Contract.parse("4S")
    assert score(four, np.int64(10), True) == 620 and format_result(four, np.int64(10)) == "4S="
    assert Contract(np.int64(4), "S") == four and type(Contract(np.int64(4), "S").level) is int
    with pytest.raises(TypeError, match="vulnerable=True/False"):
        score(Contract.parse("4SN"), 10, int(Vulnerability.EW))
    assert score(four, 10, np.bool_(True)) == 620
    with pytest.raises(CardgamesError, match="whole number 0..13, not 10.0"):
        score(four, 10.0, True)
