"""The public API of ddsolver (DESIGN.md, "Public API contract"): names, accepted argument
forms, the DDTable value type, batches on threads, the Solver's table size, and the errors
raised for bad input, each with a message that names the offending thing.

Correctness against oracles lives in test_reference_dds, test_dds_hands and
test_solver_vs_minimax; here the deals are small endings (fast), plus one full deal.
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

import ddsolver
from cardgames.cards import Card, Seat, Strain
from cardgames.errors import CardgamesError
from cardgames.hands import Deal, Hand
from cardgames.minimax import alphabeta, card_values, random_ending
from cardgames.play import Position
from ddsolver import (
    DDTable,
    DealError,
    IllegalPlayError,
    ParseError,
    PlayOverError,
    Solver,
    card_scores,
    dd_table,
    dd_tables,
    iter_dd_tables,
    solve,
)
from ddsolver.solver import MAX_TT_MB

FULL_DEAL = "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"
# North AQ of spades, South two small, West Kx: the finesse works only if South leads.
FINESSE = "N:AQ... .32.. 54... K2..."


def endings(count: int, cards: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    return [random_ending(rng, cards) for _ in range(count)]


@pytest.fixture(scope="module")
def full_deal() -> Deal:
    return Deal.from_pbn(FULL_DEAL)


@pytest.fixture(scope="module")
def full_table(full_deal) -> DDTable:
    return dd_table(full_deal)


# ---- names and argument forms ---------------------------------------------------------

def test_the_package_exports_the_contract_names():
    for name in ("solve", "dd_table", "dd_tables", "card_scores", "Solver", "DDTable"):
        assert name in ddsolver.__all__
        assert callable(getattr(ddsolver, name))


def test_solve_accepts_strings_enums_and_numbers():
    deal = Deal.from_pbn(FINESSE)
    answers = {solve(deal, "NT", "E"), solve(deal, Strain.NOTRUMP, Seat.EAST),
               solve(deal, "notrump", "east"), solve(deal, 4, 1), solve(FINESSE, "N", "e")}
    assert answers == {0}  # South leads through West's king: East takes nothing
    assert solve(deal, "NT", "W") == 1  # North must lead from the AQ: West's king scores


def test_solve_is_the_table_entry(full_deal, full_table):
    assert solve(full_deal, "NT", "S") == full_table.tricks("S", "NT")
    assert solve(full_deal, "H", "W") == full_table.tricks(Seat.WEST, Strain.HEARTS)


def test_every_table_entry_is_a_solve_and_matches_the_minimax():
    for deal in endings(3, 3, seed=1):
        table = dd_table(deal)
        for declarer, strain, tricks in table:
            assert solve(deal, strain, declarer) == tricks
            ns = alphabeta(Position(deal, strain, declarer.lho))
            assert tricks == (ns if declarer.is_ns else 3 - ns)


def test_card_scores_accepts_cards_as_text_or_objects():
    deal = Deal.from_pbn(FINESSE)
    as_text = card_scores(deal, "NT", "S", ["S5"])
    assert as_text == card_scores(deal, Strain.NOTRUMP, Seat.SOUTH, [Card.parse("S5")])
    assert as_text == card_scores(deal, "NT", "S", "S5")
    assert as_text == {Card.parse("SK"): 0, Card.parse("S2"): 0}


# ---- card scores --------------------------------------------------------------------------

def test_card_scores_at_the_lead():
    scores = card_scores(FINESSE, "NT", "N")
    assert scores == {Card.parse("SA"): 1, Card.parse("SQ"): 1}


def test_card_scores_mid_trick_count_the_trick_in_progress():
    # Hearts trumps, West leads a spade, North ruffs; South's discard decides the diamonds.
    deal = Deal.from_pbn("N:.2.T98. ..K32.J ..AQJ6. 2..7.82")
    played = ["S2", "H2", "CJ"]
    scores = card_scores(deal, "H", "W", played)
    assert {str(c): v for c, v in scores.items()} == {"DA": 3, "DQ": 4, "DJ": 4, "D6": 3}
    assert scores == card_values(Position(deal, "H", "W", played))


def test_card_scores_are_ordered_by_card_and_cover_the_legal_cards(full_deal):
    scores = card_scores(full_deal, "S", "E", ["HQ"])  # South must follow in hearts
    assert list(scores) == sorted(scores)
    assert list(scores) == Position(full_deal, "S", "E", ["HQ"]).legal_cards()
    assert all(c.suit == Strain.HEARTS for c in scores)


def test_card_scores_in_a_full_deal_agree_with_the_table(full_deal, full_table):
    # West leads against South's hearts: the best lead holds South to its table tricks.
    scores = card_scores(full_deal, "H", "W")
    assert set(scores) == set(full_deal.west)
    assert max(scores.values()) == 13 - full_table.tricks("S", "H")


def test_solve_position_counts_ns_tricks_from_here():
    deal = Deal.from_pbn(FINESSE)
    solver = Solver(tt_mb=1)
    assert solver.solve_position(deal, "NT", "S") == 2
    assert solver.solve_position(deal, "NT", "S", ["S5", "SK", "SA", "H3"]) == 1
    assert solver.solve_position(deal, "NT", "S", "S5 SK SA H3 SQ H2 S4 S2") == 0


# ---- endings --------------------------------------------------------------------------------

def test_endings_of_every_size_are_solved():
    assert solve("N:A... K... 2... 3...", "NT", "S") == 1
    assert solve("N:A... K... 2... 3...", "NT", "E") == 0
    empty = Deal((Hand(),) * 4)
    assert solve(empty, "S", "N") == 0
    assert all(tricks == 0 for _, _, tricks in dd_table(empty))


def test_one_card_ending_scores_the_only_card():
    assert card_scores("N:A... K... 2... 3...", "S", "W") == {Card.parse("S3"): 0}


# ---- the DDTable value type -----------------------------------------------------------------

def test_dd_table_prints_as_a_grid(full_table):
    lines = str(full_table).splitlines()
    assert lines[0].split() == ["NT", "S", "H", "D", "C"]
    assert [line.split()[0] for line in lines[1:]] == ["N", "E", "S", "W"]
    for line in lines[1:]:
        declarer, *numbers = line.split()
        assert [int(n) for n in numbers] == [full_table.tricks(declarer, s)
                                             for s in ("NT", "S", "H", "D", "C")]


def test_dd_table_equality_hash_and_round_trips(full_table):
    copy = DDTable.from_dict(full_table.to_dict())
    assert copy == full_table and hash(copy) == hash(full_table)
    assert eval(repr(full_table), {"DDTable": DDTable}) == full_table
    other = DDTable(tuple(tuple(13 - v for v in row) for row in full_table.rows))
    assert other != full_table
    assert full_table.to_dict()["S"]["NT"] == full_table["S", "NT"] == full_table.tricks("S", "NT")


def test_dd_table_iterates_over_its_20_entries(full_table):
    entries = list(full_table)
    assert len(entries) == len(full_table) == 20
    assert entries[0][:2] == (Seat.NORTH, Strain.SPADES)
    assert entries[-1][:2] == (Seat.WEST, Strain.NOTRUMP)
    assert all(full_table.tricks(d, s) == n for d, s, n in entries)


def test_dd_table_is_indexed_by_declarer_and_strain(full_table):
    assert full_table[Seat.SOUTH, "NT"] == full_table.tricks("S", Strain.NOTRUMP)
    with pytest.raises(TypeError, match="declarer, strain"):
        full_table[0]  # type: ignore[index]


def test_dd_table_is_immutable(full_table):
    with pytest.raises(AttributeError):
        full_table.rows = ()  # type: ignore[misc]


@pytest.mark.parametrize("rows,words", [
    (((1, 2, 3, 4, 5),) * 3, "4 rows"),
    (((1, 2, 3, 4),) * 4, "4 rows"),
    (((1, 2, 3, 4, 14),) * 4, "0..13"),
])
def test_dd_table_rejects_a_bad_shape_or_value(rows, words):
    with pytest.raises(ValueError, match=words):
        DDTable(rows)


def test_dd_table_from_dict_names_missing_entries():
    with pytest.raises(ValueError, match="W NT"):
        DDTable.from_dict({d: {s: 0 for s in ("S", "H", "D", "C", "NT")} for d in "NES"})


# ---- batches on threads ---------------------------------------------------------------------

def test_dd_tables_keeps_input_order_and_jobs_do_not_change_answers():
    deals = endings(8, 6, seed=2)
    one = dd_tables(deals, jobs=1)
    two = dd_tables(deals, jobs=2)
    assert one == two
    assert one == [dd_table(d) for d in deals]


def test_iter_dd_tables_yields_each_index_once_from_a_generator():
    deals = endings(7, 5, seed=3)
    seen = dict(iter_dd_tables((d for d in deals), jobs=3, tt_mb=4))
    assert sorted(seen) == list(range(7))
    assert [seen[i] for i in range(7)] == dd_tables(deals, jobs=1, tt_mb=4)
    assert dd_tables([], jobs=2) == []


def test_iter_dd_tables_can_be_abandoned():
    gen = iter_dd_tables(endings(20, 5, seed=4), jobs=2, tt_mb=2)
    index, table = next(gen)
    assert isinstance(table, DDTable)
    gen.close()  # cancels the rest and joins the workers


def test_dd_tables_names_the_bad_deal():
    deals = endings(3, 3, seed=5)
    deals[2] = deals[2].replace("E", None)
    with pytest.raises(DealError, match=r"index 2.*E's hand is unknown"):
        dd_tables(deals, jobs=2)
    with pytest.raises(ParseError, match="index 1"):
        dd_tables([deals[0], "N:AK.. QJ.. T9.. 87"], jobs=1)


@pytest.mark.parametrize("jobs", [0, -1])
def test_dd_tables_rejects_a_bad_job_count(jobs):
    with pytest.raises(ValueError, match="jobs"):
        dd_tables(endings(1, 1, seed=6), jobs=jobs)


def test_module_functions_can_run_on_many_threads():
    deals = endings(12, 5, seed=7)
    expected = [solve(d, "S", "N") for d in deals]
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(lambda d: solve(d, "S", "N"), deals)) == expected


# ---- the Solver -------------------------------------------------------------------------------

@pytest.mark.parametrize("tt_mb", [1, 3, 16])
def test_solver_honours_its_table_size(tt_mb):
    solver = Solver(tt_mb=tt_mb)
    assert solver.tt_mb == tt_mb
    assert solver.tt_bytes <= tt_mb << 20
    assert solver.tt_bytes > (tt_mb << 20) // 2  # and uses most of it
    assert solver.tt_capacity > 0
    assert repr(solver) == f"Solver(tt_mb={tt_mb})"


def test_solver_counts_nodes_and_can_clear_its_table():
    solver = Solver(tt_mb=2)
    deal = endings(1, 7, seed=8)[0]
    assert solver.nodes == 0 and solver.tt_used == 0
    table = solver.dd_table(deal)
    assert solver.nodes > 0 and solver.tt_used > 0
    solver.clear()
    assert solver.tt_used == 0
    assert solver.dd_table(deal) == table
    assert solver.solve(deal, "C", "W") == table.tricks("W", "C")
    assert solver.card_scores(deal, "D", "N") == card_scores(deal, "D", "N")


@pytest.mark.parametrize("tt_mb", [0, -5, MAX_TT_MB + 1, 10**12])
def test_solver_rejects_a_table_size_out_of_range(tt_mb):
    with pytest.raises(ValueError, match=f"1 to {MAX_TT_MB} MB, got {tt_mb}"):
        Solver(tt_mb=tt_mb)


def test_solver_rejects_a_table_size_that_is_not_an_int():
    with pytest.raises(TypeError, match="tt_mb"):
        Solver(tt_mb=1.5)  # type: ignore[arg-type]


# ---- bad input --------------------------------------------------------------------------------

def test_an_incomplete_deal_is_refused():
    deal = Deal.from_pbn("N:AKQ2.KJ3.T94.A65 - T7.A762.QJ853.K4 543.T98.76.QT872")
    for call in (lambda: solve(deal, "NT", "S"), lambda: dd_table(deal),
                 lambda: card_scores(deal, "NT", "W")):
        with pytest.raises(DealError, match="E's hand is unknown"):
            call()


def test_unequal_hands_are_refused():
    with pytest.raises(DealError, match="equal numbers of cards"):
        solve("N:AK... Q... J... T...", "NT", "S")


def test_a_deal_of_the_wrong_type_is_refused():
    with pytest.raises(TypeError, match="Deal or a PBN deal string"):
        solve(["AK"], "NT", "S")  # type: ignore[arg-type]


def test_bad_strain_text_names_the_strain():
    with pytest.raises(ParseError, match=r"strain.*'X'"):
        solve(FINESSE, "X", "S")
    with pytest.raises(ParseError, match=r"strain.*'7'"):
        card_scores(FINESSE, "7", "S")


def test_bad_seat_text_names_the_parameter():
    with pytest.raises(ParseError, match=r"declarer.*'Q'"):
        solve(FINESSE, "NT", "Q")
    with pytest.raises(ParseError, match=r"leader.*'north-east'"):
        card_scores(FINESSE, "NT", "north-east")
    with pytest.raises(ParseError, match="declarer"):
        dd_table(FINESSE).tricks("X", "NT")


def test_a_card_not_held_is_named_with_its_place():
    with pytest.raises(IllegalPlayError, match=r"card 2 of the play.*S3.*held by W"):
        card_scores(FULL_DEAL, "NT", "W", ["S5", "S3"])


def test_a_revoke_is_named_with_its_place():
    # West leads a spade; North holds spades and may not play a heart.
    with pytest.raises(IllegalPlayError, match=r"card 2 of the play.*HK.*follow suit"):
        card_scores(FULL_DEAL, "NT", "W", ["S5", "HK"])


def test_a_card_outside_the_ending_is_named():
    with pytest.raises(IllegalPlayError, match=r"card 1 of the play.*HA.*not in any hand"):
        card_scores(FINESSE, "NT", "S", ["HA"])


def test_a_malformed_card_is_named_with_its_place():
    with pytest.raises(ParseError, match=r"card 2 of the play.*'SX'"):
        card_scores(FINESSE, "NT", "S", ["S5", "SX"])


def test_a_card_played_twice_is_refused():
    with pytest.raises(IllegalPlayError, match=r"card 5 of the play.*S5"):
        card_scores(FINESSE, "NT", "S", ["S5", "SK", "SA", "H3", "S5"])


def test_scores_after_the_last_card_are_refused():
    played = ["S5", "SK", "SA", "H3", "SQ", "H2", "S4", "S2"]
    with pytest.raises(PlayOverError, match="the play is over"):
        card_scores(FINESSE, "NT", "S", played)
    with pytest.raises(PlayOverError, match="no cards"):
        card_scores(Deal((Hand(),) * 4), "NT", "S")


def test_every_error_is_a_value_error_of_the_game_model():
    for cls in (DealError, IllegalPlayError, ParseError, PlayOverError):
        assert issubclass(cls, CardgamesError) and issubclass(cls, ValueError)
    assert issubclass(PlayOverError, IllegalPlayError)


def test_a_thread_keeps_one_solver_of_the_size_last_asked_for():
    # A Dask worker serving runs of several --tt-mb kept a table of each size for ever.
    import sys

    from ddsolver.solver import thread_solver
    first = thread_solver(24)
    assert thread_solver(24) is first
    second = thread_solver(32)
    assert second is not first and second.tt_mb == 32 and thread_solver(32) is second
    assert sys.getrefcount(first) == 2      # this name, and getrefcount's own argument
