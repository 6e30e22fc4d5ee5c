"""Every public function of ``ddsolver`` refuses an argument of the wrong type with a
TypeError or ValueError that names the argument, never an AttributeError or a message
from deep inside (``'<' not supported``, ``unhashable type``, ``'int' object is not
iterable``)."""

from __future__ import annotations

import pytest

import ddsolver
from ddsolver import DDTable, Solver

DEAL = "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"
HAND = "KQ72.J83.T94.A65"


def refused(call, *names: str) -> str:
    """The message of the TypeError/ValueError ``call`` raises; it names one of ``names``."""
    with pytest.raises((TypeError, ValueError)) as caught:
        call()
    message = str(caught.value)
    assert any(name in message for name in names), message
    return message


@pytest.mark.parametrize("table", [{"N": None}, {"N": 1}, 7.5],
                         ids=["row-none", "row-int", "float"])
def test_par_refuses_a_table_that_is_not_one(table):
    refused(lambda: ddsolver.par(table), "DD table", "par()")


def test_ddtable_from_dict_refuses_a_row_that_is_not_a_mapping():
    refused(lambda: DDTable.from_dict({"N": [1, 2, 3]}), "declarer N")
    refused(lambda: DDTable.from_dict(None), "DD table")  # type: ignore[arg-type]


@pytest.mark.parametrize("solver", ["x", 1, object()])
def test_analyse_play_refuses_a_solver_that_is_not_one(solver):
    refused(lambda: ddsolver.analyse_play(DEAL, "S", "W", [], solver=solver), "solver")


@pytest.mark.parametrize("played", [1, None, 2.5, b"SA"])
def test_played_cards_must_be_cards(played):
    refused(lambda: ddsolver.analyse_play(DEAL, "S", "W", played), "played")
    refused(lambda: ddsolver.card_scores(DEAL, "S", "W", played), "played")
    refused(lambda: Solver(1).play_trace(DEAL, "S", "W", played), "played")


@pytest.mark.parametrize("tt_mb", ["64", [64], {"mb": 64}, 6.4])
def test_tt_mb_must_be_an_int_everywhere(tt_mb):
    for call in (lambda: ddsolver.dd_tables([DEAL], tt_mb=tt_mb),
                 lambda: ddsolver.dd_table(DEAL, tt_mb=tt_mb),
                 lambda: ddsolver.solve(DEAL, "NT", "S", tt_mb=tt_mb),
                 lambda: ddsolver.card_scores(DEAL, "NT", "W", tt_mb=tt_mb),
                 lambda: ddsolver.analyse_play(DEAL, "S", "W", [], tt_mb=tt_mb),
                 lambda: Solver(tt_mb)):
        refused(call, "tt_mb")


@pytest.mark.parametrize("deals", [None, 5, DEAL], ids=["none", "int", "one-deal"])
def test_dd_tables_wants_an_iterable_of_deals(deals):
    refused(lambda: ddsolver.dd_tables(deals), "deals")
    refused(lambda: list(ddsolver.iter_dd_tables(deals)), "deals")


def test_jobs_is_bounded():
    from ddsolver.pool import MAX_JOBS, check_jobs, default_jobs
    assert check_jobs(MAX_JOBS) == MAX_JOBS and 1 <= default_jobs() <= MAX_JOBS
    import numpy as np

    from ddsolver.solver import check_tt_mb
    # numpy's integers, as seats, strains and tricks take them (they were a TypeError)
    assert type(check_jobs(np.int64(2))) is int and check_tt_mb(np.int32(16)) == 16
    assert ddsolver.dd_tables([DEAL], jobs=np.int64(1), tt_mb=np.int64(8)) == \
        [ddsolver.dd_table(DEAL)]
    refused(lambda: ddsolver.dd_tables([DEAL], jobs=100_000), "jobs")
    refused(lambda: ddsolver.analyse_leads(HAND, "4S", "S", samples=2, jobs=100_000), "jobs")


def test_counts_take_numpy_integers_and_refuse_floats():
    # samples=, batch= and the other counts refused numpy's integers (a TypeError-like
    # ValueError), where jobs= and tt_mb= took them; a float or a bool is still refused.
    import numpy as np

    from ddsolver import duel
    from ddsolver.cluster import chunk_size
    kwargs = {"hand": HAND, "contract": "4S", "declarer": "S", "seed": 1}
    got = ddsolver.analyse_leads(**kwargs, samples=np.int64(3), batch=np.int32(2),
                                 stop_z=2.0, min_samples=np.int8(2))
    assert got.samples == 3 and got == ddsolver.analyse_leads(**kwargs, samples=3, batch=2,
                                                              stop_z=2.0, min_samples=2)
    for bad in (3.0, True, "3"):
        refused(lambda bad=bad: ddsolver.analyse_leads(**kwargs, samples=bad), "samples")
        refused(lambda bad=bad: ddsolver.analyse_leads(**kwargs, samples=3, batch=bad), "batch")
    assert duel.Method("alphamu", np.int64(3), np.int16(8)) == duel.Method("alphamu", 3, 8)
    assert type(duel.Method("alphamu", np.int64(3)).depth) is int
    refused(lambda: duel.Method("alphamu", 2.0), "depth")
    assert chunk_size(None, chunk=np.int64(4)) == 4
    refused(lambda: chunk_size(None, chunk=4.0), "chunk")
    refused(lambda: next(duel.protocol_deals(1, 1, tolerance=1.0)), "tolerance")


@pytest.mark.parametrize("name, value", [
    ("hand", 5), ("hand", None), ("constraints", 1), ("constraints", ("N", "12+ hcp")),
    ("known", 1), ("z", None), ("max_attempts", None), ("max_attempts", "many"),
    ("predicate", "yes"), ("progress", 3),
])
def test_analyse_leads_names_a_bad_argument(name, value):
    kwargs = {"hand": HAND, "contract": "4S", "declarer": "S", "samples": 2, "seed": 1,
              name: value}
    refused(lambda: ddsolver.analyse_leads(**kwargs), name)


def test_analyse_leads_names_a_bad_known_hand():
    refused(lambda: ddsolver.analyse_leads(HAND, "4S", "S", samples=2, seed=1,
                                           known={"N": 1}), "known")


@pytest.mark.parametrize("entry", [9.7, "9", True])
def test_ddtable_takes_whole_numbers_only(entry):
    # int() made 9.7 a 9 and took "9" and True; from_dict refused them.
    refused(lambda: DDTable(((entry,) * 5,) * 4), "DD table")


def test_ddtable_takes_numpy_integers():
    import numpy as np
    assert DDTable(((np.int64(9),) * 5,) * 4).rows[0] == (9,) * 5


@pytest.mark.parametrize("args, kwargs, name", [
    ((1, 1), {"tolerance": -1}, "tolerance"),       # looped for ever
    ((1, -1), {}, "seed"), ((1, 1.5), {}, "seed"),
    ((1, None), {}, "seed"),                          # fresh entropy: never dealt again
    ((-1, 1), {}, "count"), ((1, 1), {"start": -2}, "start"),
    ((1, 1), {"declarer": "Q"}, "declarer"),
])
def test_protocol_deals_checks_its_arguments(args, kwargs, name):
    from ddsolver.duel import protocol_deals
    refused(lambda: list(protocol_deals(*args, **kwargs)), name)


def test_protocol_deals_takes_a_declarer_as_a_word():
    from ddsolver.duel import protocol_deals
    [deal] = protocol_deals(1, 1, declarer="north")
    assert deal.contract.declarer.letter == "N"


def test_advice_reports_compare_and_print_short():
    # The generated == compared a numpy array (an error); the repr held every world.
    from ddsolver import advise
    args = ("AKQJ.AKQ.AKQ.AKQ", "7NT", "S")
    kwargs = dict(seat="S", dummy="5432.5432.5432.5", played=["C2"], samples=30, seed=3)
    a = advise(*args, **kwargs)
    b = advise(*args, **kwargs, jobs=2)
    assert a == b
    assert len(repr(a)) < 5000 and "<Worlds: 30 sampled worlds (seed 3)" in repr(a)


def test_par_and_play_analyses_give_json_ready_dicts():
    import json
    result = ddsolver.par(DEAL, vul="ns", dealer="E")
    d = json.loads(json.dumps(result.to_dict()))
    assert d == {"score": result.score, "contracts": [str(c) for c in result.contracts],
                 "vul": "NS", "dealer": "E"}
    a = ddsolver.analyse_play(DEAL, "S", "W", ["HT", "HK", "H4", "H2"])
    d = json.loads(json.dumps(a.to_dict()))
    assert d["tricks"] == a.tricks and d["declarer"] == "S" and d["played"][1] == "HK"
    assert [(e["card"], e["cost"], e["declaring"]) for e in d["errors"]] == \
        [(str(e.card), e.cost, e.declaring) for e in a.errors]
