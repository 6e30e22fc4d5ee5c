"""The solver against DDS 2.9 on the shared reference deals (../shared/data/dds_reference.jsonl).

For every one of the 400 deals, in every run: all 20 table entries, the score of every
opening lead, and the score of every legal card in one mid-play position.  (The par fields
belong to the par tests.)  The answers are computed once, on every core (``parallel``), and
each deal's test compares its own.

When DDS itself is importable (the ``endplay`` package, a bench extra), random endings are
also checked against it live, several questions to one solver per ending.
"""

from __future__ import annotations

import random

import pytest
from ddsfiles import FULL, read_reference, shared_data_file
from parallel import ahead

from cardgames.cards import ALL_CARDS, Card, Rank, Seat, Strain, Suit
from cardgames.hands import Deal
from cardgames.minimax import random_ending
from cardgames.play import Position
from ddsolver import DDTable, Solver

REFERENCE = shared_data_file("dds_reference.jsonl")
ALL_DEALS = read_reference(REFERENCE)


def _answers(solver: Solver, record: dict) -> tuple:
    """Our table, lead scores and position scores for one reference deal."""
    deal = Deal.from_pbn(record["pbn"])
    lead, pos = record["lead"], record["position"]
    return (solver.dd_table(deal),
            solver.card_scores(deal, lead["strain"], lead["leader"]),
            solver.card_scores(deal, pos["strain"], pos["leader"], pos["played"]))


# Answered in the background from the session's start (parallel.ahead); these tests run last.
_AHEAD = ahead(__file__, ALL_DEALS, _answers)


@pytest.fixture(scope="module")
def answers() -> dict[str, tuple]:
    """Every deal's answers by id: computed in the background, and on every core from the
    time the first test asks."""
    return dict(zip((d["id"] for d in ALL_DEALS), _AHEAD.results()))


@pytest.fixture(params=ALL_DEALS, ids=[d["id"] for d in ALL_DEALS])
def record(request):
    return request.param


def score_mismatches(expected: dict[str, int], got: dict) -> list[str]:
    """Cards whose scores differ, or that only one side lists, as readable lines."""
    got_text = {str(card): v for card, v in got.items()}
    lines = []
    for card in sorted(set(expected) | set(got_text)):
        e, g = expected.get(card), got_text.get(card)
        if e != g:
            lines.append(f"{card}: DDS {e}, ours {g}")
    return lines


def test_reference_file_is_complete():
    assert len(ALL_DEALS) == 400
    assert len({d["id"] for d in ALL_DEALS}) == len(ALL_DEALS)


@pytest.mark.slow
def test_table_matches_dds(answers, record):
    table = answers[record["id"]][0]
    expected = DDTable.from_dict(record["dd"])
    wrong = [f"{d.letter} {s.letter}: DDS {expected.tricks(d, s)}, ours {n}"
             for d, s, n in table if n != expected.tricks(d, s)]
    assert not wrong, f"{record['id']} {record['pbn']}\n" + "\n".join(wrong)


@pytest.mark.slow
def test_lead_scores_match_dds(answers, record):
    lead = record["lead"]
    got = answers[record["id"]][1]
    wrong = score_mismatches(lead["scores"], got)
    assert not wrong, (f"{record['id']} {record['pbn']} strain {lead['strain']} "
                       f"leader {lead['leader']}\n" + "\n".join(wrong))


@pytest.mark.slow
def test_position_scores_match_dds(answers, record):
    pos = record["position"]
    got = answers[record["id"]][2]
    wrong = score_mismatches(pos["scores"], got)
    assert not wrong, (f"{record['id']} {record['pbn']} strain {pos['strain']} "
                       f"leader {pos['leader']} played {' '.join(pos['played'])} "
                       f"({pos['to_move']} to move)\n" + "\n".join(wrong))


# ---- random endings against DDS, live -------------------------------------------------------

#: Endings checked in a normal run (FULL_FACTOR times as many with DDSOLVER_FULL=1); each gets
#: a table, a solve and LIVE_QUESTIONS card-score questions, all on one solver.
LIVE_ENDINGS = 1600
LIVE_QUESTIONS = 4
LIVE_BATCH = 200
FULL_FACTOR = 5


@pytest.fixture(scope="module")
def dds():
    """endplay's DDS binding, or skip (it is installed with the bench extra)."""
    return pytest.importorskip("endplay.dds")


def _dds_scores(dds, deal: Deal, strain: Strain, leader: Seat, played) -> dict[Card, int]:
    """DDS SolveBoard (all cards) for the player to move after ``played``."""
    from endplay import _dds
    from endplay.types import Card as ECard
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player
    board = EDeal(deal.to_pbn())
    board.trump = Denom(int(strain))
    board.first = Player(int(leader))
    for card in played:
        board.play(ECard(str(card)))
    # SolveBoard with target -1, solutions 3: every legal card with its exact score.  DDS
    # keeps its table between calls about the same deal and once answered one trick short
    # after earlier questions (N:7.A9.9.8 A42.T.7. 8.62.3.4 T.3.J.J2, spades, West leads,
    # DJ D9 D7 D3 C2 C8: East's trumps score 4 by the minimax, by a fresh DDS and by us),
    # so its memory is freed first: the oracle must not depend on history.
    _dds.FreeMemory()
    _dds.SetMaxThreads(1)  # DDS needs its memory back before the next call
    fut = _dds.futureTricks()
    _dds.SolveBoard(board._data, -1, 3, 1, fut, 0)
    scores = {}
    for i in range(fut.cards):
        suit = Suit(int(fut.suit[i]))
        # ``equals`` has bit r set for each lower card of the same value.
        for rank in [fut.rank[i]] + [r for r in range(2, 15) if fut.equals[i] >> r & 1]:
            scores[Card(suit, Rank(rank))] = fut.score[i]
    return scores


@pytest.mark.slow
@pytest.mark.parametrize("batch", range(-(-LIVE_ENDINGS * (FULL_FACTOR if FULL else 1)
                                          // LIVE_BATCH)))
def test_random_endings_match_live_dds(dds, batch):
    rng = random.Random(700_000 + batch)
    failures = []
    for _ in range(LIVE_BATCH):
        cards = rng.randint(5, 10)
        deck = None
        if cards <= 9 and rng.random() < 0.5:  # three suits: more ruffs and discards
            suits = rng.sample(list(Suit), 3)
            deck = [c for c in ALL_CARDS if c.suit in suits]
        deal = random_ending(rng, cards, deck=deck)
        solver = Solver(tt_mb=4)
        solver.dd_table(deal)
        asked = ["dd_table"]
        strain, declarer = rng.choice(list(Strain)), rng.choice(list(Seat))
        best_lead = max(_dds_scores(dds, deal, strain, declarer.lho, ()).values())
        got = solver.solve(deal, strain, declarer)
        if got != cards - best_lead:
            failures.append(f"{deal!r} solve({strain.letter}, declarer {declarer.letter}) "
                            f"after {asked}: ours {got}, DDS {cards - best_lead}")
            continue
        asked.append(f"solve({strain.letter}, {declarer.letter})")
        for _ in range(LIVE_QUESTIONS):
            position = Position(deal, rng.choice(list(Strain)), rng.choice(list(Seat)))
            for _ in range(rng.randrange(4 * cards - 1)):
                position.play(rng.choice(position.legal_cards()))
            args = (deal, position.strain, position.leader, position.played)
            got_scores = solver.card_scores(*args)
            expected = _dds_scores(dds, *args)
            if got_scores != expected:
                wrong = {str(c): (got_scores.get(c), expected.get(c)) for c in expected
                         if got_scores.get(c) != expected.get(c)}
                failures.append(f"{position!r} after {asked}: (ours, DDS) {wrong}")
                break
            asked.append(f"card_scores({position.strain.letter}, {position.leader.letter}, "
                         f"{len(position.played)} cards)")
    assert not failures, f"{len(failures)} endings disagree with DDS:\n" + "\n".join(failures)
