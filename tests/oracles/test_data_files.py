"""The example files in data/: they parse, the session follows the board rotation and its
generator, and every answer stated in problems.pbn agrees with the solver.

(data/verify_problems.py checks the same answers against DDS when endplay is installed;
the answers were checked that way when the problems were written.)
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from cardgames import pbn
from cardgames.cards import Seat
from cardgames.scoring import Vulnerability, board_dealer, board_vulnerability
from ddsolver import card_scores, dd_table

DATA = Path(__file__).resolve().parents[2] / "data"
SESSION = DATA / "session.pbn"
PROBLEMS = DATA / "problems.pbn"


def _script(name: str):
    """Import one of the scripts in data/ (they are not part of the package)."""
    spec = importlib.util.spec_from_file_location(f"data_{name}", DATA / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def session() -> list[pbn.Game]:
    with pbn.load_path(SESSION) as reader:
        return list(reader)


@pytest.fixture(scope="module")
def verify():
    return _script("verify_problems")


# ---- the session ---------------------------------------------------------------------

def test_session_has_32_boards_numbered_in_order(session):
    assert [g.board for g in session] == list(range(1, 33))


def test_session_dealer_and_vulnerability_follow_the_rotation(session):
    for game in session:
        assert game.dealer == board_dealer(game.board), game.board
        assert Vulnerability.parse(game.vulnerable) == board_vulnerability(game.board)
    # Spot checks straight from the Law 2 cycle, independent of cardgames.scoring.
    by_board = {g.board: g for g in session}
    assert (by_board[1].tag("Dealer"), by_board[1].tag("Vulnerable")) == ("N", "None")
    assert (by_board[4].tag("Dealer"), by_board[4].tag("Vulnerable")) == ("W", "All")
    assert (by_board[13].tag("Dealer"), by_board[13].tag("Vulnerable")) == ("N", "All")
    assert (by_board[16].tag("Dealer"), by_board[16].tag("Vulnerable")) == ("W", "EW")
    assert (by_board[17].tag("Dealer"), by_board[17].tag("Vulnerable")) == ("N", "None")


def test_session_deals_are_complete_distinct_and_written_from_the_dealer(session):
    deals = [g.deal for g in session]
    assert all(d.is_complete and d.cards_per_hand == 13 for d in deals)
    assert len(set(deals)) == 32
    for game in session:
        assert game.tag("Deal")[0] == game.tag("Dealer")


def test_session_is_in_export_layout_with_the_mandatory_tags_in_order(session):
    mandatory = ["Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
                 "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"]
    for game in session:
        assert game.names() == mandatory
    text = SESSION.read_text()
    assert text.startswith("% PBN 2.1\n% EXPORT\n")
    reader = pbn.loads(text)
    assert pbn.dumps(reader, directives=reader.directives) == text


def test_session_file_is_what_its_generator_writes():
    make_session = _script("make_session")
    assert make_session.session_text() == SESSION.read_text()


# ---- the problems --------------------------------------------------------------------

def test_problems_parse_and_each_states_an_answer(verify):
    problems = verify.problems(PROBLEMS)
    assert [p.board for p in problems] == [1, 2, 3, 4, 5, 6]
    for p in problems:
        assert "Answer:" in p.answer
        assert p.claims, f"board {p.board} states no checkable numbers"
        assert p.deal.is_complete


def test_problem_leads_cover_every_legal_card(verify):
    for p in verify.problems(PROBLEMS):
        for claim in p.claims:
            got = card_scores(p.deal, p.strain, p.leader, claim.played)
            assert set(claim.scores) == set(got), f"board {p.board}"


def test_problem_answers_match_the_solver(verify):
    for p in verify.problems(PROBLEMS):
        for claim in p.claims:
            got = card_scores(p.deal, p.strain, p.leader, claim.played)
            played = " ".join(map(str, claim.played))
            assert got == claim.scores, f"board {p.board}, after [{played}]"


def test_problem_full_deals_tables_match_the_solver(verify):
    full = [p for p in verify.problems(PROBLEMS) if p.table is not None]
    assert len(full) == 2
    for p in full:
        table = dd_table(p.deal)
        assert {(d, s): n for d, s, n in table} == p.table, f"board {p.board}"


def test_squeeze_works_only_against_the_player_who_discards_first(verify):
    """The two squeeze problems differ only in which defender holds the guards."""
    problems = {p.board: p for p in verify.problems(PROBLEMS)}
    for west_guard, east_guard in ((1, 2), (5, 6)):
        a, b = problems[west_guard].deal, problems[east_guard].deal
        assert (a[Seat.WEST], a[Seat.EAST]) == (b[Seat.EAST], b[Seat.WEST])
    assert max(problems[1].claims[0].scores.values()) == 3
    assert max(problems[2].claims[0].scores.values()) == 2
    assert problems[5].table[Seat.SOUTH, verify.Strain.NOTRUMP] == 13
    assert problems[6].table[Seat.SOUTH, verify.Strain.NOTRUMP] == 12
