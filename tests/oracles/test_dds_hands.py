"""The solver against the test hands shipped with DDS (../shared/data/dds-hands).

Every board of ``list*.txt`` (except ``largest.txt``, the hard cases kept for benchmarks):
its 20-entry table and the score of every opening lead; and every line of GIB's
``sol10.txt``: its table.  ``list100``/``list300`` repeat boards, so boards are deduplicated
by (deal, trump, leader).  The readers in ``ddsfiles`` get their own tests first.

All of them run in every run: the answers are computed once, on every core (``parallel``),
and each board's test compares its own.
"""

from __future__ import annotations

import pytest
from ddsfiles import (
    DDSFileError,
    expand_equals,
    parse_fut,
    parse_gib_line,
    parse_table,
    parse_txt,
    read_gib,
    read_txt,
    shared_data_file,
    unique_boards,
)
from parallel import ahead

from cardgames.cards import Card, Seat, Strain
from cardgames.play import Position
from ddsolver import DDTable

HANDS_DIR = shared_data_file("dds-hands")
TXT_FILES = sorted(p for p in HANDS_DIR.glob("list*.txt"))
ALL_BOARDS = [b for path in TXT_FILES for b in read_txt(path)]
UNIQUE_BOARDS = unique_boards(ALL_BOARDS)
GIB_BOARDS = read_gib(HANDS_DIR / "sol10.txt")


# ---- the readers -------------------------------------------------------------------------

LIST1 = '''NUMBER 1
PBN 0 0 0 0 "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
FUT 9 2 2 2 3 0 0 1 1 1 5 8 11 10 6 12 2 6 13 0 0 0 768 0 2048 0 32 0 5 5 5 5 5 5 4 4 4
TABLE 5 8 5 8 6 6 6 6 5 7 5 7 7 5 7 5 6 6 6 6
PAR "NS -110" "EW 110" "NS:EW 2S" "EW:EW 2S"
PAR2 "-110" "2S-EW"
PLAY 3 "CTC4CA"
TRACE 4 8 8 8 8
'''


def test_expand_equals_adds_the_lower_cards_whose_bits_are_set():
    assert expand_equals(3, 10, 768) == [Card.parse(c) for c in ("CT", "C9", "C8")]
    assert expand_equals(0, 12, 0) == [Card.parse("SQ")]


def test_parse_fut_gives_a_score_to_every_card_of_each_group():
    fut = parse_fut("FUT 2 3 0 10 12 768 2048 5 4")
    assert {str(c): v for c, v in fut.items()} == {"CT": 5, "C9": 5, "C8": 5, "SQ": 4, "SJ": 4}


def test_parse_fut_rejects_a_wrong_count():
    with pytest.raises(DDSFileError, match="x.txt:7"):
        parse_fut("FUT 2 3 0 10", "x.txt", 7)


def test_parse_table_turns_strain_major_into_declarer_rows():
    rows = parse_table("TABLE 5 8 5 8 6 6 6 6 5 7 5 7 7 5 7 5 6 6 6 6")
    assert rows[Seat.NORTH] == (5, 6, 5, 7, 6)   # S H D C NT for North
    assert rows[Seat.EAST] == (8, 6, 7, 5, 6)
    assert DDTable(rows).tricks("E", "S") == 8


def test_parse_txt_reads_every_line_of_a_board():
    (board,) = parse_txt(LIST1, "list1")
    assert board.id == "list1:1" and board.line == 2
    assert (board.dealer, board.vul, board.trump, board.first) == (Seat.NORTH, "none",
                                                                   Strain.SPADES, Seat.NORTH)
    assert board.declarer == Seat.WEST
    assert board.deal.north.to_pbn() == "QJ6.K652.J85.T98"
    assert len(board.fut) == 13 and board.fut[Card.parse("C8")] == 5
    assert board.table[Seat.WEST][Strain.SPADES] == 8
    assert board.par == ("NS -110", "EW 110", "NS:EW 2S", "EW:EW 2S")
    assert board.par2 == ("-110", "2S-EW")
    assert board.play == tuple(Card.parse(c) for c in ("CT", "C4", "CA"))
    assert board.trace == (8, 8, 8, 8)


def test_parse_txt_names_the_line_of_a_bad_board():
    broken = LIST1.replace("TABLE 5 8", "TABLE 5 x")
    with pytest.raises(DDSFileError, match=r"list1:4: TABLE"):
        parse_txt(broken, "list1")
    with pytest.raises(DDSFileError, match="NUMBER"):
        parse_txt(LIST1.replace("NUMBER 1", "NUMBER 2"), "list1")


def test_parse_gib_line_reads_north_south_tricks():
    line = "T5.K4.652.A98542 K6.QJT976.QT7.Q6 432.A.AKJ93.JT73 AQJ987.8532.84.K:65658888888843433232"
    board = parse_gib_line(line, "sol10", 1)
    assert board.deal.west.to_pbn() == "T5.K4.652.A98542"
    assert board.deal.south.to_pbn() == "AQJ987.8532.84.K"
    # NT digits 6 5 6 5 are declarers E N W S; East and West declare 13 - 6 = 7.
    assert [board.table[d][Strain.NOTRUMP] for d in Seat] == [5, 7, 5, 7]
    assert [board.table[d][Strain.CLUBS] for d in Seat] == [2, 10, 2, 10]
    with pytest.raises(DDSFileError, match="20 hex digits"):
        parse_gib_line(line[:-1], "sol10", 1)


def test_the_lists_hold_the_expected_boards():
    counts = {p.stem: len(read_txt(p)) for p in TXT_FILES}
    assert counts == {"list1": 1, "list10": 10, "list100": 100, "list300": 300, "list1000": 1000}
    assert len(UNIQUE_BOARDS) < len(ALL_BOARDS)  # list300 and list1000 repeat boards
    assert len(GIB_BOARDS) == 10


@pytest.mark.parametrize("board", ALL_BOARDS, ids=lambda b: b.id)
def test_each_board_is_consistent_with_itself(board):
    """Checks of the reader (no solver): the lines of one board agree with each other."""
    leader_hand = board.deal[board.first]
    assert set(board.fut) == set(leader_hand)
    # The best lead gives the leader's side what the declarer does not take.
    assert max(board.fut.values()) == 13 - board.table[board.declarer][board.trump]
    # TRACE starts with declarer's tricks before the lead, and has min(n, 48) + 1 numbers.
    assert board.trace[0] == board.table[board.declarer][board.trump]
    assert len(board.trace) == min(len(board.play), 48) + 1
    Position(board.deal, board.trump, board.first, board.play)  # the play is legal


# ---- the solver against DDS ------------------------------------------------------------------

# Answered in the background from the session's start (parallel.ahead); these tests run last.
# The 862 boards hold 639 deals (a deal comes back with another trump or leader), and GIB's
# deals may be among them: each deal's table is solved once, and its boards' lead scores
# right after it (the table's searches still in the transposition table).
_DEALS = list({b.deal: None for b in [*UNIQUE_BOARDS, *GIB_BOARDS]})
_LEADS_OF: dict = {}
for _b in UNIQUE_BOARDS:
    _LEADS_OF.setdefault(_b.deal, []).append(_b)
_AHEAD = ahead(__file__, _DEALS, lambda solver, deal: (
    solver.dd_table(deal),
    {b.id: solver.card_scores(deal, b.trump, b.first) for b in _LEADS_OF.get(deal, [])}))


@pytest.fixture(scope="module")
def answers() -> dict[str, tuple]:
    """Every unique board's table and lead scores, and every GIB table, by id: computed in
    the background, and on every core from the time the first test asks."""
    by_deal = dict(zip(_DEALS, _AHEAD.results()))
    return {**{b.id: (by_deal[b.deal][0], by_deal[b.deal][1][b.id]) for b in UNIQUE_BOARDS},
            **{g.id: by_deal[g.deal][0] for g in GIB_BOARDS}}


@pytest.fixture(params=UNIQUE_BOARDS, ids=[b.id for b in UNIQUE_BOARDS])
def board(request):
    return request.param


def _table_mismatches(expected: DDTable, got: DDTable) -> str:
    return "\n".join(f"{d.letter} {s.letter}: DDS {expected.tricks(d, s)}, ours {n}"
                     for d, s, n in got if n != expected.tricks(d, s))


@pytest.mark.slow
def test_table_matches_dds(answers, board):
    wrong = _table_mismatches(DDTable(board.table), answers[board.id][0])
    assert not wrong, f"{board.id} {board.deal.to_pbn()}\n{wrong}"


@pytest.mark.slow
def test_lead_scores_match_dds(answers, board):
    got = answers[board.id][1]
    wrong = [f"{card}: DDS {board.fut.get(card)}, ours {got.get(card)}"
             for card in sorted(set(got) | set(board.fut)) if got.get(card) != board.fut.get(card)]
    assert not wrong, (f"{board.id} {board.deal.to_pbn()} trump {board.trump.letter} "
                       f"leader {board.first.letter}\n" + "\n".join(wrong))


@pytest.mark.slow
@pytest.mark.parametrize("gib", GIB_BOARDS, ids=lambda b: b.id)
def test_gib_table_matches(answers, gib):
    wrong = _table_mismatches(DDTable(gib.table), answers[gib.id])
    assert not wrong, f"{gib.id} {gib.deal.to_pbn()}\n{wrong}"
