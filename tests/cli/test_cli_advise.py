"""``ddsolver advise``: one position in every format, the review of a file's play, and bad
input as one plain line with exit status 2.  The numbers themselves are tested in
tests/solver/test_advise.py and tests/oracles/test_single_dummy_problems.py."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "data"
FINESSE = ("advise", "--hand", "K98...", "--dummy", "AJT...", "--contract", "7NT",
           "--declarer", "S", "--seat", "S", "--leader", "S", "--in-play",
           "N:AJT... Q7.2.. K98... 6.43..", "--declarer-won", "10", "--seed", "1", "-q")


def test_one_position_text_json_csv(run_cli):
    status, out, err = run_cli(*FINESSE, "--method", "alphamu", "--depth", "4")
    assert status == 0 and err == ""
    assert "all 20 worlds" in out and "makes in 19 of 20" in out
    status, out, _ = run_cli(*FINESSE, "--method", "alphamu", "--format", "json")
    d = json.loads(out)
    assert d["exhaustive"] and d["worlds"] == 20 and d["alphamu"]["chance"] == 0.95
    status, out, _ = run_cli(*FINESSE, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["label"] for r in rows} == {"SK", "S9/S8"} and rows[0]["alphamu"] == ""


def test_review_of_a_files_play_marks_worse_cards(run_cli, tmp_path):
    status, out, err = run_cli("advise", DATA / "single_dummy.pbn", "--seat", "S",
                               "--method", "alphamu", "--depth", "3", "--seed", "1", "-q",
                               "--format", "json")
    assert status == 0, err
    result = json.loads(out)
    assert [(d["board"], d["card"]) for d in result["decisions"]] == [("2", "C6"), ("3", "S2")]
    # every problem stops with declarer's side to play: the advice for that card
    assert [(n["board"], n["to_move"]) for n in result["next"]] == [
        ("1", "S"), ("2", "N"), ("3", "S")]
    assert result["next"][2]["alphamu"]["chance"] == 0.5  # problem 3's answer
    # Problem 1 played out: South leads the 8 and, West following small, North finesses
    # the ten -- worse than rising with the ace from South's view (the finesse loses
    # whenever East holds the queen; the rise loses only to West's SQ76).
    board = (DATA / "single_dummy.pbn").read_text().split("{Problem 2")[0]
    board = board.replace('[Play "S"]\n*', '[Play "S"]\nS8 S6 ST SQ\n*')
    path = tmp_path / "one.pbn"
    path.write_text(board)
    status, out, err = run_cli("advise", path, "--seat", "S", "--seed", "1", "-q",
                               "--method", "alphamu", "--depth", "4")
    assert status == 0, err
    marked = [line for line in out.splitlines() if line.startswith("?")]
    assert len(marked) == 1 and " N ST " in marked[0] and "against SA" in marked[0]


def test_a_card_its_player_cannot_hold_is_one_plain_line(run_cli):
    status, out, err = run_cli(*FINESSE, "--played", "SA")
    assert status == 2 and out == ""
    assert "does not hold" in err and "Traceback" not in err and len(err.splitlines()) == 1


def test_constraints_no_world_meets_are_a_usage_error(run_cli):
    status, out, err = run_cli(*FINESSE, "--west", "4+ spades")
    assert status == 2 and out == "" and "no world" in err


def test_a_board_that_cannot_be_read_costs_only_itself(run_cli, tmp_path):
    bad = ('[Board "1"]\n[Deal "N:AJT... Q7.2.. K98... 6.43.."]\n[Contract "7NT"]\n'
           '[Declarer "S"]\n[DeclarerWon "10"]\n[Play "S"]\nSA - - -\n*\n')
    path = tmp_path / "bad.pbn"
    path.write_text(bad)
    status, out, err = run_cli("advise", path, "--seat", "S", "--seed", "1", "-q")
    assert status == 1 and "board skipped" in err


def test_the_commands_constants_mirror_the_librarys():
    from ddsolver.advise import METHODS
    from ddsolver.alphamu import DEFAULT_DEPTH
    from ddsolver.cli import advise as cli
    assert cli.METHODS == METHODS and cli.DEFAULT_DEPTH == DEFAULT_DEPTH


def test_review_goes_on_past_a_game_that_does_not_read(run_cli, tmp_path):
    """A file with one broken game: that game is reported as FILE:LINE: reason and the
    others are reviewed (the whole file used to be lost)."""
    text = (DATA / "single_dummy.pbn").read_text()
    first, rest = text.split("{Problem 2", 1)
    path = tmp_path / "broken.pbn"
    path.write_text(first + '[Board "9"\n[Deal "garbage\n\n{Problem 2' + rest)
    status, out, err = run_cli("advise", path, "--seat", "S", "--seed", "1", "-q",
                               "--format", "json")
    assert status == 1
    assert f"ddsolver advise: {path}:" in err and "Traceback" not in err
    assert len(err.splitlines()) == 1
    boards = {n["board"] for n in json.loads(out)["next"]}
    assert boards == {"1", "2", "3"}


def test_a_boards_vulnerability_comes_from_its_number_without_a_tag():
    """One reader of board facts: with no Vulnerable tag, advise takes the board number's
    vulnerability, as table and leads do (it used to take none)."""
    from cardgames import pbn
    from cardgames.scoring import Vulnerability
    from ddsolver.board_advice import board_arguments
    game = pbn.Game.from_pbn('[Board "2"]\n[Deal "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 '
                             'T7.A762.QJ853.K4 543.T98.76.QT872"]\n[Contract "3NT"]\n'
                             '[Declarer "S"]\n[Play "W"]\n*')
    assert board_arguments(game)["vul"] == Vulnerability.NS


def test_a_files_review_tells_its_boards_apart(run_cli, tmp_path):
    # The same boards in two files: each decision and each next card says where its board
    # is (file and line) and its contract, so that two board 2s are not one run of lines.
    text = (DATA / "single_dummy.pbn").read_text()
    first, second = tmp_path / "a.pbn", tmp_path / "b.pbn"
    first.write_text(text)
    second.write_text(text)
    args = ("--seat", "S", "-n", "5", "--seed", "1", "-q")
    status, out, err = run_cli("advise", first, second, *args, "--format", "json")
    assert status == 0, err
    result = json.loads(out)
    # (a game starts at the comment before its tags: "{Problem 2 ...}")
    line = {n: 1 + text[:text.index(f"{{Problem {n}")].count("\n") for n in (1, 2, 3)}
    contract = {"2": "6S by S", "3": "3NT by S"}
    decisions = [(d["file"], d["line"], d["board"], d["contract"])
                 for d in result["decisions"]]
    expected = [(str(p), line[int(b)], b, contract[b]) for p in (first, second)
                for b in ("2", "3")]
    assert decisions == expected
    assert [n["where"] for n in result["next"]] == [f"{p}:{line[n]}" for p in (first, second)
                                                    for n in (1, 2, 3)]
    status, out, _ = run_cli("advise", first, second, *args, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["file"], int(r["line"]), r["board"], r["contract"]) for r in rows] == expected
    assert all(r["cost"] == str(round(float(r["cost"]), 9)) for r in rows)
    status, out, _ = run_cli("advise", first, second, *args)
    assert f"{first}:{line[2]}: board 2, 6S by S" in out
    assert f"{second}:{line[2]}: board 2, 6S by S" in out
    assert f"{second}:{line[1]}: board 1: the play stops here" in out


REVOKE = ('[Event "qa"]\n[South "Ann"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
          '[Deal "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"]\n'
          '[Declarer "S"]\n[Contract "4S"]\n[Result "10"]\n[Play "W"]\nHT HK H4 H2\n'
          'S3 SA H5 S7\n*\n')    # East, holding spades, throws H5 on the second row


def test_a_revoke_is_reported_on_its_cards_line_by_advise_and_review(run_cli, tmp_path):
    path = tmp_path / "revoke.pbn"
    path.write_text(REVOKE)
    for argv in (("advise", path, "--seat", "S"), ("review", path, "--player", "Ann")):
        status, _, err = run_cli(*argv, "-n", "3", "--seed", "1", "-q")
        assert status == 1, argv
        assert (f"{path}:12: board 1: card 6 of the play (trick 2): E cannot play H5"
                in err), (argv, err)


def test_a_card_as_good_as_the_best_is_not_told_another_is_best():
    from cardgames.cards import Card, Seat
    from ddsolver.board_advice import Decision
    from ddsolver.formats.advice import review_text
    tie = Decision("1", 2, Seat.NORTH, Card.parse("H6"), "SA/SK/SQ", 12.0, 12.0, 20, False)
    same = Decision("1", 3, Seat.NORTH, Card.parse("SK"), "SA/SK/SQ", 12.0, 12.0, 20, False)
    worse = Decision("1", 4, Seat.NORTH, Card.parse("H2"), "SA/SK/SQ", 11.0, 12.0, 20, False)
    lines = review_text([tie, same, worse], [], Seat.NORTH, "pimc", 2).splitlines()
    assert "(as good as the best, SA/SK/SQ;" in next(x for x in lines if " H6 " in x)
    assert "(best SA/SK/SQ 12.000;" in next(x for x in lines if " SK " in x)
    worse_line = next(x for x in lines if " H2 " in x)
    assert worse_line.startswith("?") and "costs 1.000 against SA/SK/SQ" in worse_line
