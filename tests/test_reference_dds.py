"""The solver against DDS 2.9 on the shared reference deals (../shared/data/dds_reference.jsonl).

For each deal: all 20 table entries, the score of every opening lead, and the score of every
legal card in one mid-play position.  (The par fields belong to the par tests.)

Without ``DDSOLVER_FULL=1`` only every k-th deal runs, about ``SUBSET_SIZE`` of them.
"""

from __future__ import annotations

import pytest

from cardgames.hands import Deal
from ddsfiles import every_kth, read_reference, shared_data_file
from ddsolver import DDTable

#: Deals checked in a normal run (all 400 with DDSOLVER_FULL=1).  Sized for about a minute
#: at the solver's current speed; raise it as the solver gets faster.
SUBSET_SIZE = 25

REFERENCE = shared_data_file("dds_reference.jsonl")
ALL_DEALS = read_reference(REFERENCE)
DEALS = every_kth(ALL_DEALS, SUBSET_SIZE)

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
