"""The hand-made single-dummy problems of data/single_dummy.pbn against their hand-derived
answers: αμ's numbers exactly (every world listed), and PIMC's numbers, which are wrong
where strategy fusion fools it (the comments of each problem say why, world by world)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgames import pbn
from ddsolver.advise import advise
from ddsolver.board_advice import board_arguments

DATA = Path(__file__).resolve().parents[2] / "data" / "single_dummy.pbn"
with DATA.open(encoding="utf-8") as _fp:
    GAMES = list(pbn.load(_fp))


def _answers() -> dict[int, dict[str, dict[str, int]]]:
    """Board -> {"AlphaMu": {...}, "PIMC": {...}}, read from the answer after each game."""
    text = DATA.read_text(encoding="utf-8")
    out: dict[int, dict[str, dict[str, int]]] = {}
    for block in re.split(r'\[Board "', text)[1:]:
        board = int(block.split('"', 1)[0])
        out[board] = {}
        for name in ("AlphaMu", "PIMC"):
            line = re.search(rf"^ {name}: (.*?)}}?$", block, re.M)
            assert line is not None, f"board {board}: no {name}: line"
            out[board][name] = {label: int(n) for label, n in
                                (item.split() for item in line.group(1).split(","))}
    return out


ANSWERS = _answers()


def test_every_problem_has_answers():
    assert sorted(ANSWERS) == [g.board for g in GAMES] == [1, 2, 3]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"board{g.board}")
def test_alphamu_and_pimc_match_the_hand_derived_answer(game):
    args = board_arguments(game)
    depth = int(game.tag("Depth"))
    report = advise(**args, method="alphamu", depth=depth, seed=1)
    assert report.worlds.exhaustive
    expected = ANSWERS[game.board]
    n = len(report.worlds)
    am = {row.label: row.makes for row in report.alphamu.cards}
    assert am == expected["AlphaMu"]
    pimc = {row.label: round(row.chance * n) for row in report.rows}
    assert pimc == expected["PIMC"]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"board{g.board}")
def test_pimc_is_fooled_where_alphamu_is_not(game):
    """In every problem PIMC gives some card a make-chance that αμ shows cannot be had:
    strategy fusion.  αμ never claims more than PIMC (one strategy for all worlds can
    only do worse than one per world)."""
    report = advise(**board_arguments(game), method="alphamu", depth=int(game.tag("Depth")),
                    seed=1)
    over = [r.label for r in report.rows if r.chance > r.alphamu]
    assert over
    assert all(r.alphamu <= r.chance for r in report.rows)


def test_two_way_finesse_world_count():
    """Problem 1: the defenders' six cards split three and three: C(6,3) = 20 worlds."""
    report = advise(**board_arguments(GAMES[0]), seed=1)
    assert len(report.worlds) == report.worlds.total == 20


def test_throw_in_line_is_preferred_only_when_alphamu_looks_far_enough():
    """Problem 2: below M = 7 the finesse's diamond guess is beyond the horizon and αμ, like
    PIMC, calls it sure; from M = 7 on, the throw-in is the only sure line."""
    args = board_arguments(GAMES[1])
    shallow = advise(**args, method="alphamu", depth=4, seed=1).alphamu
    assert shallow.card("CQ").makes == 12
    deep = advise(**args, method="alphamu", depth=7, seed=1).alphamu
    assert deep.best.label == "CA" and deep.card("CQ").makes == 10


def test_discard_guess_front_has_one_vector_per_ace():
    """Problem 3: after the S4, declarer's two strategies (keep the HA, keep the DA) each win
    one world: a Pareto front of two vectors, neither better."""
    report = advise(**board_arguments(GAMES[2]), method="alphamu", depth=3, seed=1)
    assert report.alphamu.card("S4").front == 2
    assert sorted(report.alphamu.fronts["S4"]) == [1, 2]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"board{g.board}")
def test_the_real_deal_is_one_of_the_worlds(game):
    """Each problem's Deal agrees with what its player knows (play, constraints)."""
    report = advise(**board_arguments(game), seed=1)
    assert game.deal in report.worlds.deals
