"""The command line, run end to end through ``ddsolver.cli.main`` on the files in data/ and
on malformed files.

Solving full deals takes about a second each at the solver's present speed, so these tests
use the endings and the two easy full deals of data/problems.pbn, and at most two boards of
the session.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ddsolver
from cardgames import pbn
from ddsolver import DDTable, cli, dd_table
from ddsolver.formats.table import par_record
from ddsolver.par import par as par_of

DATA = Path(__file__).resolve().parents[2] / "data"
SESSION = DATA / "session.pbn"
PROBLEMS = DATA / "problems.pbn"
DEAL = "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"
ENDING = "N:A2.J.. ..KQ.K 4..2.A K3.Q.."   # problem 1: South squeezes West in NT


def problem_tables() -> dict[int, dict]:
    """Board -> OptimumResultTable of the full deals in problems.pbn (checked against DDS)."""
    tables = {}
    with pbn.load_path(PROBLEMS) as reader:
        for game in reader:
            tag = game.get("OptimumResultTable")
            if tag is not None:
                rows = [line.split() for line in tag.section]
                tables[game.board] = {(d, s): int(n) for d, s, n in rows}
    return tables


def session_subset(tmp_path: Path, boards: int) -> Path:
    """The first ``boards`` boards of the session, as a file of their own."""
    with pbn.load_path(SESSION) as reader:
        games = [g for g in reader][:boards]
    path = tmp_path / "subset.pbn"
    path.write_text(pbn.dumps(games))
    return path


GOOD_GAME = '[Board "{n}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{deal}"]\n'


def write_games(tmp_path: Path, *games: str, name: str = "boards.pbn") -> Path:
    path = tmp_path / name
    path.write_text("% PBN 2.1\n" + "\n".join(games))
    return path


# ---- table: formats --------------------------------------------------------------------

def test_table_text_prints_every_board_with_its_table(run_cli):
    status, out, err = run_cli("table", PROBLEMS, "--quiet")
    assert status == 0
    assert err == ""
    blocks = out.strip().split("\n\n")
    assert len(blocks) == 6
    first = blocks[0].splitlines()
    assert first[0].startswith(f"{PROBLEMS} board 1 ")
    assert "3-card ending" in first[0]
    assert first[1] == ENDING
    assert first[2].split() == ["NT", "S", "H", "D", "C"]
    # Problem 5: South makes 7NT on a squeeze; the row of declarer S starts with 13.
    rows = {line.split()[0]: line.split()[1:] for line in blocks[4].splitlines()[3:7]}
    assert rows["S"][0] == "13"


def test_table_csv_parses_back_and_matches_the_reference_tables(run_cli):
    status, out, _ = run_cli("table", PROBLEMS, "--format", "csv", "-q")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [int(r["board"]) for r in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[0]["deal"] == ENDING
    for board, table in problem_tables().items():
        row = rows[board - 1]
        for (declarer, strain), tricks in table.items():
            assert int(row[f"{declarer}_{strain}"]) == tricks, (board, declarer, strain)


def test_table_json_parses_back_and_matches_the_reference_tables(run_cli):
    status, out, _ = run_cli("table", PROBLEMS, "--format", "json", "-q")
    assert status == 0
    records = json.loads(out)
    assert [r["board"] for r in records] == [1, 2, 3, 4, 5, 6]
    assert records[4]["dealer"] == "N" and records[4]["vulnerable"] == "NS"
    for board, table in problem_tables().items():
        dd = records[board - 1]["dd"]
        for (declarer, strain), tricks in table.items():
            assert dd[declarer][strain] == tricks


def test_table_json_of_a_file_without_games_is_an_empty_list_and_a_warning(run_cli, tmp_path):
    path = write_games(tmp_path, "")
    status, out, err = run_cli("table", path, "--format", "json", "-q")
    assert status == 1
    assert err == f"{path}: no games\n"
    assert json.loads(out) == []


def test_table_on_session_boards_matches_the_facade(run_cli, tmp_path):
    path = session_subset(tmp_path, 2)
    status, out, _ = run_cli("table", path, "--format", "json", "--jobs", "2", "-q")
    assert status == 0
    records = json.loads(out)
    assert [(r["board"], r["dealer"], r["vulnerable"]) for r in records] == [
        (1, "N", "None"), (2, "E", "NS")]
    with pbn.load_path(path) as reader:
        games = list(reader)
    for record, game in zip(records, games):
        assert record["dd"] == dd_table(game.deal).to_dict()


def test_table_results_come_out_in_board_order_with_several_jobs(run_cli):
    status, out, _ = run_cli("table", PROBLEMS, PROBLEMS, "--format", "csv", "-j", "2",
                         "-q")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [int(r["board"]) for r in rows] == [1, 2, 3, 4, 5, 6] * 2


def test_table_writes_to_the_output_file(run_cli, tmp_path):
    target = tmp_path / "out.csv"
    status, out, _ = run_cli("table", PROBLEMS, "--format", "csv", "-o", target, "-q")
    assert status == 0
    assert out == ""
    assert len(list(csv.DictReader(target.open()))) == 6


def test_table_summary_goes_to_stderr_unless_quiet(run_cli):
    status, out, err = run_cli("table", PROBLEMS, "--format", "csv")
    assert status == 0
    assert "6 boards solved" in err and "boards/s" in err
    assert "boards solved" not in out


def test_table_dealer_and_vulnerability_come_from_the_board_number_when_missing(run_cli, tmp_path):
    path = write_games(tmp_path, f'[Board "7"]\n[Deal "{ENDING}"]\n')
    status, out, _ = run_cli("table", path, "--format", "json", "-q")
    assert status == 0
    [record] = json.loads(out)
    assert (record["dealer"], record["vulnerable"]) == ("S", "All")


# ---- table: par ---------------------------------------------------------------------

def test_table_reports_par_for_full_deals_in_every_format(run_cli):
    status, out, _ = run_cli("table", PROBLEMS, "--format", "json", "-q")
    assert status == 0
    records = json.loads(out)
    assert [r["par"] is None for r in records] == [True] * 4 + [False] * 2  # endings: no par
    # Problem 5: North-South make 7NT, vulnerable (Dealer N, Vulnerable NS).
    assert records[4]["par"] == {"score": 2220, "contracts": ["7NTNS="]}
    for record in records[4:]:
        expected = par_of(DDTable.from_dict(record["dd"]), vul=record["vulnerable"],
                          dealer=record["dealer"])
        assert record["par"] == par_record(expected)

    status, out, _ = run_cli("table", PROBLEMS, "--format", "csv", "-q")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert (rows[0]["par_score"], rows[4]["par_score"]) == ("", "2220")
    assert rows[4]["par_contracts"] == "7NTNS="

    status, out, _ = run_cli("table", PROBLEMS, "-q")
    assert "Par +2220 (7NTNS=)" in out


# ---- table: malformed input ------------------------------------------------------------

def test_table_reports_a_bad_deal_with_file_and_line_and_goes_on(run_cli, tmp_path):
    bad = ENDING.replace("KQ", "KX")
    path = write_games(tmp_path, GOOD_GAME.format(n=1, deal=ENDING),
                       GOOD_GAME.format(n=2, deal=bad),
                       GOOD_GAME.format(n=3, deal=ENDING))
    status, out, err = run_cli("table", path, "--format", "csv", "-q")
    assert status == 1
    assert [int(r["board"]) for r in csv.DictReader(io.StringIO(out))] == [1, 3]
    # Line 1 is the % directive; game 2 starts on line 7 and its Deal tag is on line 10.
    assert f"{path}:10:" in err
    assert "bad deal" in err and "Traceback" not in err


@pytest.mark.parametrize("deal, why", [
    ("N:A2.J.. ..KQ.K 4..2.A A3.Q..", "more than one hand"),        # SA twice
    ("N:A2.J.. ..KQ.K 4..2.A K3.Q..2", "equal numbers"),          # West holds 4 cards
    ("N:A2.J.. ..KQ.K - K3.Q..", "incomplete"),                    # South unknown
])
def test_table_reports_an_impossible_or_incomplete_deal(run_cli, tmp_path, deal, why):
    path = write_games(tmp_path, GOOD_GAME.format(n=1, deal=deal),
                       GOOD_GAME.format(n=2, deal=ENDING))
    status, out, err = run_cli("table", path, "--format", "csv", "-q")
    assert status == 1
    assert f"{path}:5:" in err and why in err
    assert [int(r["board"]) for r in csv.DictReader(io.StringIO(out))] == [2]


def test_table_reports_a_game_without_a_deal(run_cli, tmp_path):
    path = write_games(tmp_path, '[Board "1"]\n[Dealer "N"]\n',
                       GOOD_GAME.format(n=2, deal=ENDING))
    status, out, err = run_cli("table", path, "-q")
    assert status == 1
    assert f"{path}:2: board 1: no Deal tag" in err
    assert "board 2" in out


def test_table_reports_a_syntax_error_and_reads_the_next_game(run_cli, tmp_path):
    path = write_games(tmp_path, '[Board "1"]\n[Deal "N:A2.J.. ..KQ.K 4..2.A K3.Q..]\n',
                       GOOD_GAME.format(n=2, deal=ENDING))
    status, out, err = run_cli("table", path, "--format", "json", "-q")
    assert status == 1
    assert f"{path}:3:" in err and "quote" in err
    assert [r["board"] for r in json.loads(out)] == [2]


def test_table_keeps_the_table_of_a_board_whose_play_section_is_bad(run_cli, tmp_path):
    game = GOOD_GAME.format(n=1, deal=ENDING) + '[Contract "1NT"]\n[Play "W"]\nSK ZZ\n'
    path = write_games(tmp_path, game)
    status, out, err = run_cli("table", path, "--format", "json", "-q")
    assert (status, err) == (0, "")
    assert len(json.loads(out)) == 1


# One suit each: solved at once, and a full deal, so par applies.
SUITS = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


@pytest.mark.parametrize("tag, value, why", [
    ("Dealer", "Q", "Dealer must be N, E, S or W, not 'Q'; par is left out (it needs the "
                    "dealer)"),
    ("Vulnerable", "Sometimes", "Vulnerable must be None, NS, EW or All, not 'Sometimes'; "
                                "par is left out (it needs the vulnerability)"),
])
def test_table_keeps_the_table_of_a_board_with_a_bad_dealer_or_vulnerable_tag(
        run_cli, tmp_path, tag, value, why):
    good = GOOD_GAME.format(n=1, deal=SUITS)
    right = {"Dealer": "N", "Vulnerable": "None"}[tag]
    bad = GOOD_GAME.format(n=2, deal=SUITS).replace(f'[{tag} "{right}"]', f'[{tag} "{value}"]')
    assert f'[{tag} "{value}"]' in bad
    path = write_games(tmp_path, good, bad)
    status, out, err = run_cli("table", path, "--format", "json", "-q")
    assert status == 1
    # Game 2 starts on line 7 (line 1 is the directive): Dealer on 8, Vulnerable on 9.
    line = 8 if tag == "Dealer" else 9
    assert err == f"{path}:{line}: board 2: {why}\n"
    first, second = json.loads(out)
    assert first["dd"] == second["dd"] == dd_table(SUITS).to_dict()
    assert first["par"] is not None and second["par"] is None
    assert second[tag.lower()] is None
    status, out, err = run_cli("table", path, "--format", "pbn", "-q")
    assert status == 1 and err == f"{path}:{line}: board 2: {why}\n"
    games = list(pbn.loads(out, validate=False))
    assert [g.tag(tag) for g in games] == [right, value]
    assert all("OptimumResultTable" in g for g in games)
    assert ["OptimumScore" in g for g in games] == [True, False]
    status, _, err = run_cli("table", path, "--format", "csv")
    assert "1 without par (reported above)" in err and "could not be" not in err


def test_every_batch_command_warns_when_no_file_holds_a_game(run_cli, tmp_path):
    empty = tmp_path / "empty.pbn"
    empty.write_text("")
    comments = tmp_path / "comments.pbn"
    comments.write_text("% PBN 2.1\n{nothing here}\n")
    for command in (["table"], ["table", "--format", "pbn"], ["report", "--html", "-"],
                    ["play"]):
        status, _, err = run_cli(command[0], empty, comments, *command[1:], "-q")
        assert (status, err.splitlines()) == (1, [f"{empty}: no games",
                                                  f"{comments}: no games"]), command


def test_a_file_without_games_is_fine_next_to_a_file_with_games(run_cli, tmp_path):
    empty = tmp_path / "empty.pbn"
    empty.write_text("")
    path = write_games(tmp_path, GOOD_GAME.format(n=1, deal=ENDING))
    status, out, err = run_cli("table", empty, path, "-q")
    assert (status, err) == (0, "")
    assert "board 1" in out


def test_a_file_of_bad_games_is_not_a_file_without_games(run_cli, tmp_path):
    path = write_games(tmp_path, '[Board "1"\n')
    status, _, err = run_cli("table", path, "-q")
    assert status == 1
    assert err.splitlines() == [f"{path}:2: unclosed tag Board: ']' missing: '[Board \"1\"'"]


def test_table_missing_file_is_a_plain_usage_error(run_cli, tmp_path):
    missing = tmp_path / "nowhere.pbn"
    status, out, err = run_cli("table", PROBLEMS, missing)
    assert status == 2
    assert out == ""
    assert err.strip() == f"ddsolver table: error: cannot read {missing}: No such file or directory"


def test_table_directory_is_a_usage_error(run_cli, tmp_path):
    status, _, err = run_cli("table", tmp_path)
    assert status == 2 and "is a directory" in err


@pytest.mark.parametrize("argv", [
    ["table"],
    ["table", str(PROBLEMS), "--format", "html"],
    ["table", str(PROBLEMS), "--jobs", "0"],
    ["solve", DEAL, "--strain", "NT"],
    ["frobnicate"],
])
def test_bad_usage_exits_2(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_no_command_prints_help_and_exits_2(capsys):
    assert cli.main([]) == 2
    assert "usage:" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["table", "solve", "report", "play"])
def test_every_command_help_has_examples(capsys, command):
    with pytest.raises(SystemExit) as exc:
        cli.main([command, "--help"])
    assert exc.value.code == 0
    help_text = capsys.readouterr().out
    assert "examples:" in help_text
    assert f"ddsolver {command} " in help_text.split("examples:")[1]


# ---- solve -----------------------------------------------------------------------------

def test_solve_prints_declarers_tricks(run_cli):
    status, out, _ = run_cli("solve", DEAL, "--strain", "NT", "--declarer", "S")
    assert status == 0
    tricks = ddsolver.solve(DEAL, "NT", "S")
    assert out == f"Declarer S, NT: {tricks} tricks\n"


def test_solve_cards_lists_every_legal_card_of_the_leader(run_cli):
    status, out, _ = run_cli("solve", ENDING, "--strain", "NT", "--declarer", "E",
                         "--cards")
    assert status == 0
    lines = out.splitlines()
    assert lines[1].startswith("S to play; tricks for N-S")
    assert {tuple(line.split()) for line in lines[2:]} == {("CA", "3"), ("D2", "1"),
                                                            ("S4", "1")}


def test_solve_after_played_cards_counts_tricks_won(run_cli):
    # Problem 4, the trump coup: after the heart ace is ruffed, South's side has won one
    # trick and takes the other three.
    coup = "N:.AK.A.2 KJ.4.3. AQ4..2. .QJ.KQ."
    status, out, _ = run_cli("solve", coup, "--strain", "S", "--declarer", "W",
                         "--played", "HA H4 S4 HJ", "--cards")
    assert status == 0
    assert out.splitlines()[0] == ("Declarer W, S, after 4 cards: 0 tricks for E-W "
                                   "(0 won, 0 to come)")
    assert "D2  3" in out and "S4" not in out


def test_solve_says_which_played_card_and_answers_nothing_it_cannot(run_cli):
    """A bad card of --played was not located; --cards after the last card printed the
    trick count, then an error."""
    ending = "N:AK... QJ... T9... 87..."
    status, out, err = run_cli("solve", ending, "--strain", "NT", "--declarer", "S",
                               "--played", "S8 SK Q")
    assert status == 2 and "--played: card 3, not a card" in err and "'Q'" in err
    status, out, err = run_cli("solve", ending, "--strain", "NT", "--declarer", "S",
                               "--played", "S8 SK SQ ST SA SJ S9 S7", "--cards")
    assert status == 2 and out == "" and "the play is over" in err


def test_a_deal_of_no_cards_is_a_table_of_nothing(run_cli, tmp_path):
    """A Deal tag of four empty hands took the whole run down (a traceback, the good
    boards' rows lost) once tables knew their cards; it is a table of zeros, as before."""
    path = tmp_path / "empty.pbn"
    path.write_text(f'[Board "1"]\n[Deal "{DEAL}"]\n\n[Board "2"]\n[Deal "N:... ... ... ..."]\n')
    status, out, err = run_cli("table", path, "--format", "csv", "-q")
    assert "Traceback" not in err and len(out.strip().splitlines()) == 3
    assert ddsolver.dd_table("N:... ... ... ...").cards == 0


def test_solve_rejects_bad_input_plainly(run_cli):
    for argv in (["solve", DEAL[:-1], "--strain", "NT", "--declarer", "S"],
                 ["solve", DEAL, "--strain", "X", "--declarer", "S"],
                 ["solve", DEAL, "--strain", "NT", "--declarer", "S", "--played", "SA"],
                 ["solve", "N:A2.J.. ..KQ.K - K3.Q..", "--strain", "NT", "--declarer", "S"]):
        status, out, err = run_cli(*argv)
        assert status == 2, argv
        assert err.startswith("ddsolver solve: error: ") and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1


# ---- entry points ----------------------------------------------------------------------

def test_python_dash_m_ddsolver_runs_the_command_line(run_process):
    result = run_process("solve", ENDING, "--strain", "NT", "--declarer", "E")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Declarer E, NT: 0 tricks\n"


def test_console_script_when_installed():
    script = Path(sys.executable).parent / ("ddsolver.exe" if os.name == "nt" else "ddsolver")
    if not script.exists():
        pytest.skip("the ddsolver console script is not installed beside this Python")
    result = subprocess.run([str(script), "table", str(PROBLEMS), "--format", "csv", "-q"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 7


def test_leads_is_a_subcommand_of_the_main_command(capsys):
    """`ddsolver leads` reaches the lead analysis; its JSON rows carry every card of the
    hand once (saved deals against card_scores: tests/test_leads.py)."""
    code = cli.main(["leads", "--leader", "W", "--hand", "KQ72.J83.T94.A65", "--contract", "4S",
                     "--declarer", "S", "--vul", "none", "--samples", "6", "--seed", "3",
                     "--format", "json", "--quiet"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    cards = [card for row in report["rows"] for card in row["cards"]]
    assert sorted(cards) == sorted(["SK", "SQ", "S7", "S2", "HJ", "H8", "H3", "DT", "D9", "D4",
                                    "CA", "C6", "C5"])
    assert report["samples"] == 6


def test_leads_usage_error_is_one_line_and_exit_2(capsys):
    code = cli.main(["leads", "--leader", "W", "--hand", "KQ72.J83.T94", "--contract", "4S",
                     "--declarer", "S", "--samples", "4", "--quiet"])
    assert code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.strip().count("\n") == 0
