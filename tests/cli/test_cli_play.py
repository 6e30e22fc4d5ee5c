"""``ddsolver play``: end to end on data/played.pbn and on malformed play records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardgames import pbn
from cardgames.pbn import play_section
from cardgames.play import Position
from ddsolver import cli
from ddsolver.analysis import analyse_play

DATA = Path(__file__).resolve().parents[2] / "data"
PLAYED = DATA / "played.pbn"
PROBLEMS = DATA / "problems.pbn"
ENDING = "N:A2.J.. ..KQ.K 4..2.A K3.Q.."   # S leads in NT: CA squeezes West
WHOLE = "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"
# The squeeze played out: West lets the heart queen go, North keeps the heart jack.
SQUEEZE = ["CA", "HQ", "S2", "CK", "S4", "S3", "SA", "DK", "HJ", "DQ", "D2", "SK"]


def ending_game(board: int, cards: list[str], *, contract: str = "1NT",
                declarer: str = "E", leader: str = "S", extra: str = "") -> str:
    lines = "\n".join(play_section(cards, leader, "NT")) if cards else "*"
    return (f'[Board "{board}"]\n[Deal "{ENDING}"]\n[Declarer "{declarer}"]\n'
            f'[Contract "{contract}"]\n{extra}[Play "{leader}"]\n{lines}\n')


def write(tmp_path: Path, *games: str) -> Path:
    path = tmp_path / "play.pbn"
    path.write_text("\n".join(games))
    return path


@pytest.fixture(scope="module")
def played_games() -> list[pbn.Game]:
    with pbn.load_path(PLAYED) as reader:
        return list(reader)


def test_played_data_file_is_what_its_generator_writes(played_games):
    assert len(played_games) == 6
    for game in played_games:
        assert len(game.play) == 52
        assert game.contract and game.declarer is not None


def test_play_json_matches_the_analysis_of_every_board(run_cli, played_games):
    status, out, err = run_cli("play", PLAYED, "--format", "json", "-j", "2", "-q")
    assert (status, err) == (0, "")
    records = json.loads(out)
    assert [r["board"] for r in records] == [g.board for g in played_games]
    errors_seen = 0
    for record, game in zip(records, played_games):
        strain = game.contract[1:].rstrip("X")
        analysis = analyse_play(game.deal, strain, game.declarer.lho, game.play)
        assert record["declarer"] == game.declarer.letter
        assert record["leader"] == game.declarer.lho.letter
        assert record["dd_start"] == analysis.tricks[0]
        assert [c["dd"] for c in record["cards"]] == analysis.tricks[1:]
        assert [c["card"] for c in record["cards"]] == [str(c) for c in game.play]
        assert record["tricks_taken"] == int(game.tag("Result")) == record["result_tag"]
        assert [(e["card"], e["seat"], e["cost"]) for e in record["errors"]] == \
               [(str(e.card), e.seat.letter, e.cost) for e in analysis.errors]
        costly = [c for c in record["cards"] if "cost" in c]
        assert [(c["card"], c["cost"]) for c in costly] == \
               [(e["card"], e["cost"]) for e in record["errors"]]
        assert record["declarer_cost"] + record["defence_cost"] == \
               sum(e.cost for e in analysis.errors)
        errors_seen += len(analysis.errors)
    assert errors_seen > 0, "the example file should show some costly cards"


def test_play_text_shows_every_trick_and_names_the_costly_cards(run_cli, played_games):
    status, out, err = run_cli("play", PLAYED, "-j", "2")
    assert status == 0
    assert "6 boards analysed" in err
    blocks = out.strip().split("\n\n")
    assert len(blocks) == 6
    # Board 2 (seed-made): South's CQ on trick 4 costs declarer's side a trick.
    block = blocks[1]
    lines = block.splitlines()
    assert lines[0].endswith("4H by N  lead E")
    trick_rows = [line for line in lines if line[:5].strip().isdigit()]
    assert len(trick_rows) == 13
    assert "CQ?" in trick_rows[3]
    assert "trick 4: S played CQ, declarer's side lost 1 trick (10 -> 9)" in block
    assert "took 9 (4H-1)" in lines[2]


def test_play_passes_over_boards_without_play(run_cli):
    # Nothing to analyse is a failure, as for leads and review, and said under --quiet.
    for quiet in ((), ("--quiet",)):
        status, out, err = run_cli("play", PROBLEMS, *quiet)
        assert status == 1 and out == ""
        assert "no board has a Contract and played cards" in err


def test_play_on_an_ending_with_the_squeeze_and_a_mistake(run_cli, tmp_path):
    good = ending_game(1, SQUEEZE)
    bad = ending_game(2, ["CA", "HQ", "HJ", "CK", "S4", "S3", "SA", "DK", "S2", "DQ", "D2",
                          "SK"])
    path = write(tmp_path, good, bad)
    status, out, err = run_cli("play", path, "--format", "json", "-q")
    assert status == 0, err
    first, second = json.loads(out)
    # East declares NT, so the declarer's side (E-W) starts with 0 of 3 tricks.
    assert first["dd_start"] == 0 and first["tricks_taken"] == 0 and first["errors"] == []
    # West lets the heart queen go: the heart jack becomes good, no change (still 0);
    # then North throws the heart jack: North-South lose the squeeze trick.
    assert second["errors"] == [{"card": "HJ", "seat": "N", "trick": 1, "index": 2,
                                 "side": "defence", "cost": 1, "before": 0, "after": 1}]


def test_play_reports_bad_records_with_file_and_line_and_goes_on(run_cli, tmp_path):
    revoke = ending_game(1, ["CA", "SK", "S2", "DK"])          # East holds the club king
    no_contract = ending_game(2, ["CA"], contract="?")
    # (a whole deal: an ending's Play tag names its own leader, as anyone may lead there)
    wrong_leader = (f'[Board "3"]\n[Deal "{WHOLE}"]\n[Declarer "E"]\n[Contract "1NT"]\n'
                    f'[Play "N"]\n' + "\n".join(play_section(["SA"], "N", "NT")) + "\n")
    not_a_card = ('[Board "4"]\n[Deal "' + ENDING + '"]\n[Declarer "E"]\n[Contract "1NT"]\n'
                  '[Play "S"]\nCA SK S2 ZZ\n')
    good = ending_game(5, ["CA", "SK", "S2", "CK"])
    path = write(tmp_path, revoke, no_contract, wrong_leader, not_a_card, good)
    status, out, err = run_cli("play", path, "--format", "json", "-q")
    assert status == 1
    assert [r["board"] for r in json.loads(out)] == [5]
    lines = err.strip().splitlines()
    assert len(lines) == 4 and "Traceback" not in err
    # The line of the card that breaks the rules (the row after the Play tag).
    assert lines[0].startswith(f"{path}:6: board 1: card 4 of the play (trick 1): E cannot "
                               "play DK: must follow suit to CA")
    assert lines[1].startswith(f"{path}:12: board 2: ") and "Contract" in lines[1]
    assert lines[2].startswith(f"{path}:19: board 3: ") and "opening lead" in lines[2]
    assert lines[3].startswith(f"{path}:27:") and "'ZZ' is not a card" in lines[3]


@pytest.mark.parametrize("game_index", [0, 3])
@pytest.mark.parametrize("cut", [1, 5, 9])
def test_an_ending_cut_from_a_played_deal_reads_as_the_deal_did(run_cli, tmp_path,
                                                                 played_games, game_index, cut):
    """Cut a played board after ``cut`` tricks and write the rest as an ending: its own
    leader (the last trick's winner, on either side), DeclarerWon the tricks declarer's side
    won so far.  ``play`` must give the same double-dummy values from there on as it gives
    the whole deal, and the same tricks taken."""
    game = played_games[game_index]
    strain = game.contract[1:].rstrip("X")
    declarer = game.declarer
    position = Position(game.deal, strain, declarer.lho)
    for card in game.play[:4 * cut]:
        position.play(card)
    won = position.tricks_won(declarer)
    leader = position.to_move
    rest = game.play[4 * cut:]
    ending = (f'[Board "{game.board}"]\n[Deal "{position.remaining_deal().to_pbn()}"]\n'
              f'[Declarer "{declarer.letter}"]\n[Contract "{game.contract}"]\n'
              f'[DeclarerWon "{won}"]\n[Play "{leader.letter}"]\n'
              + "\n".join(play_section([str(c) for c in rest], leader, strain)) + "\n")
    status, out, err = run_cli("play", write(tmp_path, ending), "--format", "json", "-q")
    assert (status, err) == (0, "")
    [record] = json.loads(out)
    whole = analyse_play(game.deal, strain, declarer.lho, game.play)
    assert record["declarer_won"] == won and record["leader"] == leader.letter
    assert record["dd_start"] == whole.tricks[4 * cut]
    assert [c["dd"] for c in record["cards"]] == whole.tricks[4 * cut + 1:]
    assert record["tricks_taken"] == whole.tricks[-1]
    # The costly cards are the whole deal's after the cut, charged to the same side.
    later = [(str(e.card), e.seat.letter, e.cost, e.declaring) for e in whole.errors
             if e.index >= 4 * cut]
    assert [(e["card"], e["seat"], e["cost"], e["side"] == "declarer")
            for e in record["errors"]] == later


def test_an_ending_without_declarer_won_says_so_and_a_bad_one_is_refused(run_cli, tmp_path):
    plain = ending_game(1, ["CA"])
    status, out, _ = run_cli("play", write(tmp_path, plain), "-q")
    assert status == 0 and "no DeclarerWon tag: none counted" in out
    bad = ending_game(2, ["CA"], extra='[DeclarerWon "11"]\n')   # 3 cards a hand: 10 before
    status, out, err = run_cli("play", write(tmp_path, bad), "-q")
    assert status == 1
    assert "DeclarerWon tag says '11'" in err and "0 to 10" in err and ":5:" in err


def test_play_reports_an_illegal_card_on_its_own_line(run_cli, tmp_path):
    # Trick 1: CA S3 S2 CK, won by South's ace.  Trick 2: South leads S4 and West, who
    # holds SK, discards HQ: a revoke, on the second row of the Play section.
    revoke = ending_game(1, ["CA", "S3", "S2", "CK", "S4", "HQ"])
    not_held = ending_game(2, ["CA", "S3", "S2", "CK", "S4", "DK"])  # East holds DK
    path = write(tmp_path, revoke, not_held)
    status, out, err = run_cli("play", path, "-q")
    assert status == 1 and out == ""
    assert err.splitlines() == [
        f"{path}:7: board 1: card 6 of the play (trick 2): W cannot play HQ: must follow "
        "suit to S4 (S held)",
        f"{path}:15: board 2: card 6 of the play (trick 2): W to play cannot play DK: it is "
        "held by E"]


def test_play_mentions_a_result_tag_that_disagrees(run_cli, tmp_path):
    game = ending_game(1, SQUEEZE, extra='[Result "2"]\n')
    status, out, _ = run_cli("play", write(tmp_path, game), "-q")
    assert status == 0
    assert "the Result tag says 2" in out


def test_play_help_has_examples(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["play", "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert "examples:" in text and "ddsolver play data/played.pbn" in text


def test_played_file_matches_its_generator():
    """data/played.pbn is what data/make_played.py writes (the solver picks the cards, so
    a solver change that changed an answer would show here)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_played", DATA / "make_played.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.played_text() == PLAYED.read_text()


def test_play_db_saves_every_trace_and_resumes_after_an_interrupt(run_cli, tmp_path, monkeypatch):
    from ddsolver import batch as boards
    from ddsolver.store import ResultStore

    reference = tmp_path / "reference.json"
    assert run_cli("play", PLAYED, "--format", "json", "-o", reference, "-q")[0] == 0

    db = tmp_path / "play.sqlite"
    out = tmp_path / "out.json"
    real_put = ResultStore.put_trace
    calls = 0

    def put(self, key, tricks):
        nonlocal calls
        real_put(self, key, tricks)
        calls += 1
        if calls == 2:
            raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(ResultStore, "put_trace", put)
        status, _, err = run_cli("play", PLAYED, "--format", "json", "-o", out,
                             "--db", db, "-j", "1")
    assert status == 130
    assert "2 new play analyses saved" in err and "--resume" in err

    status, _, err = run_cli("play", PLAYED, "--format", "json", "-o", out, "--db", db,
                         "--resume")
    assert status == 0
    assert "resuming with 2 play analyses" in err
    assert f"2 from {db}, 4 analysed now" in err
    assert out.read_text() == reference.read_text()

    # A third run takes every trace from the store, costly cards rebuilt the same way.
    monkeypatch.setattr(boards, "analyse_play",
                        lambda *a, **k: pytest.fail("a stored trace was analysed again"))
    status, _, err = run_cli("play", PLAYED, "--format", "json", "-o", out, "--db", db)
    assert status == 0 and f"6 from {db}, 0 analysed now" in err
    assert out.read_text() == reference.read_text()
    monkeypatch.undo()

    # A trace damaged in the store (one count where a card's should be: it used to end in
    # an IndexError traceback) is analysed again and said.
    import sqlite3
    with sqlite3.connect(db) as con:
        key = con.execute("SELECT deal, strain, leader, played FROM play_traces").fetchone()
        con.execute("UPDATE play_traces SET tricks='1' WHERE deal=? AND strain=? AND "
                    "leader=? AND played=?", key)
    status, _, err = run_cli("play", PLAYED, "--format", "json", "-o", out, "--db", db)
    assert status == 0 and f"5 from {db}, 1 analysed now" in err, err
    assert "1 stored result did not read (damaged)" in err
    assert out.read_text() == reference.read_text()


def test_a_play_the_lin_reader_left_out_is_named_in_the_summary(run_cli, tmp_path):
    # West's H3 played by North after South's H2: the reader warns and leaves the play out; the summary
    # must not read as though the file held no play at all without a word.
    lin = ("pn|a,b,c,d|st||md|3S346TJH9QD69TC57K,S7H2347KD37JKC46A,S2KH58TD2458C389J,|rh||"
           "ah|Board 9|sv|e|mb|p|mb|1S|mb|p|mb|2H|mb|p|mb|3H|mb|p|mb|3N|mb|p|mb|4H|mb|p|"
           "mb|5H|mb|p|mb|p|mb|p|pg||pc|C3|pc|CT|pc|CK|pc|CA|pg||pc|HK|pc|H5|pc|H6|pc|H9|"
           "pg||pc|H2|pc|H3|pg||\n")
    path = tmp_path / "bad.lin"
    path.write_text(lin)
    status, out, err = run_cli("play", path)
    assert status == 1 and out == ""
    lines = err.strip().splitlines()
    assert "H3" in lines[0] and "the play is left out" in lines[0]
    assert lines[-1].endswith("(the warning above left some out)")


@pytest.mark.parametrize("result", ["14", "NS 10", "-1"])
def test_a_result_that_is_no_trick_count_is_said_not_dropped(run_cli, tmp_path, result):
    game = ending_game(1, SQUEEZE[:4], extra=f'[Result "{result}"]\n')
    status, out, _ = run_cli("play", write(tmp_path, game), "-q")
    assert status == 0
    assert f"the Result tag '{result}' is not a trick count (0-13)" in out


def test_a_board_named_not_numbered_keeps_its_name(run_cli, tmp_path):
    """A Board tag such as "4-1" (BridgeComposer's chapter and deal) was written "board ?"
    in the table's and the play's headings, and left out of messages and review labels."""
    from ddsolver.boards import game_label as _label
    path = tmp_path / "named.pbn"
    bad = SQUEEZE[:2] + ["SA"] + SQUEEZE[3:]          # North plays the ace twice
    path.write_text(ending_game("4-1", SQUEEZE) + "\n" + ending_game("4-2", bad),
                    encoding="utf-8")
    for command in ("table", "play"):
        status, out, err = run_cli(command, path, "--quiet")
        assert f"{path} board 4-1  " in out, (command, out)
    assert status == 1 and "board 4-2: SA is played twice" in err
    game = pbn.Game([pbn.Tag("Board", "4-1")], line=3)
    assert _label(game, "f") == "f:3 (board 4-1)"
