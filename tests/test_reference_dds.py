"""The solver against DDS 2.9 on the shared reference deals (../shared/data/dds_reference.jsonl).

For each deal: all 20 table entries, the score of every opening lead, and the score of every
legal card in one mid-play position.  (The par fields belong to the par tests.)

Without ``DDSOLVER_FULL=1`` only every k-th deal runs, about ``SUBSET_SIZE`` of them, plus
the deals in ``REGRESSION_IDS``.

When DDS itself is importable (the ``endplay`` package, a bench extra), random endings are
also checked against it live, several questions to one solver per ending.
"""

from __future__ import annotations

import random

import pytest

from cardgames.cards import ALL_CARDS, Card, Rank, Seat, Strain, Suit
from cardgames.hands import Deal
from cardgames.minimax import random_ending
from cardgames.play import Position
from ddsfiles import FULL, every_kth, read_reference, shared_data_file
from ddsolver import DDTable, Solver

#: Deals checked in a normal run (all 400 with DDSOLVER_FULL=1): every k-th deal, about this
#: many.  Sized for under a minute at the solver's current speed; raise it as it gets faster.
SUBSET_SIZE = 20
#: Deals on which some commit of the solver has disagreed with DDS (found by full runs);
#: they run in every normal run as well.
REGRESSION_IDS = ("1001-0041", "1001-0106", "1001-0113", "1001-0153", "1001-0161",
                  "1001-0179", "1001-0224", "1001-0296", "1001-0394", "1001-0395")

REFERENCE = shared_data_file("dds_reference.jsonl")
ALL_DEALS = read_reference(REFERENCE)
_chosen = {d["id"] for d in every_kth(ALL_DEALS, SUBSET_SIZE)} | set(REGRESSION_IDS)
DEALS = [d for d in ALL_DEALS if d["id"] in _chosen]

# Module-scoped and parametrised, so pytest runs the three tests of one deal one after the
# other and the solver's table carries over between them.
@pytest.fixture(scope="module", params=DEALS, ids=[d["id"] for d in DEALS])
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
    assert set(REGRESSION_IDS) <= {d["id"] for d in ALL_DEALS}


@pytest.mark.slow
def test_table_matches_dds(solver, record):
    deal = Deal.from_pbn(record["pbn"])
    table = solver.dd_table(deal)
    expected = DDTable.from_dict(record["dd"])
    wrong = [f"{d.letter} {s.letter}: DDS {expected.tricks(d, s)}, ours {n}"
             for d, s, n in table if n != expected.tricks(d, s)]
    assert not wrong, f"{record['id']} {record['pbn']}\n" + "\n".join(wrong)


@pytest.mark.slow
def test_lead_scores_match_dds(solver, record):
    lead = record["lead"]
    deal = Deal.from_pbn(record["pbn"])
    got = solver.card_scores(deal, lead["strain"], lead["leader"])
    wrong = score_mismatches(lead["scores"], got)
    assert not wrong, (f"{record['id']} {record['pbn']} strain {lead['strain']} "
                       f"leader {lead['leader']}\n" + "\n".join(wrong))


@pytest.mark.slow
def test_position_scores_match_dds(solver, record):
    pos = record["position"]
    deal = Deal.from_pbn(record["pbn"])
    got = solver.card_scores(deal, pos["strain"], pos["leader"], pos["played"])
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
    from endplay.types import Card as ECard, Deal as EDeal, Denom, Player
    from endplay import _dds
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
