"""``ddsolver table``: the PBN output format, par tags, and the results store (``--db``,
``--resume``, Ctrl-C).

Full deals take about a second each to solve, so these tests run on the endings and the two
easy full deals of data/problems.pbn, and on at most three boards of the session.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardgames import pbn
from cardgames.hands import Deal
from ddsolver import DDTable, cli, dd_table
from ddsolver import batch as boards
from ddsolver.formats.tags import optimum_score_tag, par_contract_tag
from ddsolver.par import par as par_of
from ddsolver.store import SCHEMA_VERSION, ResultStore

DATA = Path(__file__).resolve().parents[2] / "data"
SESSION = DATA / "session.pbn"
PROBLEMS = DATA / "problems.pbn"
ENDING = "N:A2.J.. ..KQ.K 4..2.A K3.Q.."
NEW_TAGS = {"OptimumResultTable", "OptimumScore", "ParContract"}


def read_games(text: str) -> list[pbn.Game]:
    return list(pbn.loads(text))


def result_table(game: pbn.Game) -> DDTable:
    """The OptimumResultTable of a game, as a DDTable."""
    tag = game.get("OptimumResultTable")
    assert tag.value == "Declarer;Denomination\\2R;Result\\2R"
    table: dict[str, dict[str, int]] = {}
    for line in tag.section:
        declarer, strain, tricks = line.split()
        table.setdefault(declarer, {})[strain] = int(tricks)
    assert len(tag.section) == 20
    return DDTable.from_dict(table)


def without_dd_tags(text: str) -> str:
    """``text`` with the tags ``table --format pbn`` adds (and their sections) taken out."""
    kept = []
    in_table = False
    for line in text.splitlines(keepends=True):
        if in_table and line.strip() and line[0] not in "[{;%":
            continue  # a row of an OptimumResultTable
        in_table = line.startswith("[OptimumResultTable ")
        if not in_table and not line.startswith(("[OptimumScore ", "[ParContract ")):
            kept.append(line)
    return "".join(kept)


def session_subset(tmp_path: Path, boards: int) -> Path:
    with pbn.load_path(SESSION) as reader:
        games = list(reader)[:boards]
        directives = reader.directives
    path = tmp_path / "subset.pbn"
    path.write_text(pbn.dumps(games, directives=directives))
    return path


# ---- --format pbn ----------------------------------------------------------------------

def test_pbn_output_reads_back_with_the_tables_and_par_of_every_board(run_cli):
    status, out, err = run_cli("table", PROBLEMS, "--format", "pbn", "-q")
    assert (status, err) == (0, "")
    reader = pbn.loads(out)
    games = list(reader)
    with pbn.load_path(PROBLEMS) as original_reader:
        originals = list(original_reader)
        assert reader.directives == original_reader.directives
    assert len(games) == 6
    for game, original in zip(games, originals):
        assert result_table(game) == dd_table(game.deal)
        # Everything else is as it was: other tags with their sections, the comments.
        assert [t for t in game.tags if t.name not in NEW_TAGS] == \
               [t for t in original.tags if t.name not in NEW_TAGS]
        assert game.preamble == original.preamble
        assert game.trailing_comments == original.trailing_comments
    # Endings have no par; the full deals do: 7NT vulnerable in 5, 6NT not vulnerable in 6.
    assert [g.tag("OptimumScore") for g in games] == [None] * 4 + ["NS 2220", "NS 990"]
    assert games[4].tag("ParContract") == "NS 7NT="
    for game in games[4:]:
        expected = par_of(result_table(game), vul=game.vulnerable, dealer=game.dealer)
        assert game.tag("OptimumScore") == optimum_score_tag(expected)
        assert game.tag("ParContract") == par_contract_tag(expected)


def test_pbn_output_of_session_boards_matches_the_facade_and_par(run_cli, tmp_path):
    path = session_subset(tmp_path, 2)
    target = tmp_path / "out.pbn"
    status, _, _ = run_cli("table", path, "--format", "pbn", "-o", target, "-j", "2", "-q")
    assert status == 0
    text = target.read_text()
    assert text.startswith("% PBN 2.1\n% EXPORT\n[Event ")
    games = read_games(text)
    assert [g.board for g in games] == [1, 2]
    for game in games:
        table = dd_table(game.deal)
        assert result_table(game) == table
        expected = par_of(table, vul=game.vulnerable, dealer=game.dealer)
        side, score = game.tag("OptimumScore").split()
        assert (1 if side == "NS" else -1) * int(score) == expected.score
        assert game.tag("ParContract") == par_contract_tag(expected)
        # The new tags follow the export tags, which keep their order.
        assert game.names()[:15] == ["Event", "Site", "Date", "Board", "West", "North",
                                     "East", "South", "Dealer", "Vulnerable", "Deal",
                                     "Scoring", "Declarer", "Contract", "Result"]


def test_pbn_output_writes_back_a_game_it_cannot_solve(run_cli, tmp_path):
    path = tmp_path / "mixed.pbn"
    path.write_text('% PBN 2.1\n[Event "header"]\n[Note "no deal here"]\n\n'
                    f'[Board "1"]\n[Deal "{ENDING}"]\n\n'
                    '{closing words}\n')
    status, out, err = run_cli("table", path, "--format", "pbn", "-q")
    assert status == 1
    assert f"{path}:2: no Deal tag" in err
    reader = pbn.loads(out)
    games = list(reader)
    assert [g.tag("Event") for g in games] == ["header", None]
    assert "OptimumResultTable" not in games[0]
    assert result_table(games[1]) == dd_table(ENDING)
    assert reader.epilogue == ["{closing words}"]


@pytest.mark.parametrize("name", ["problems.pbn", "played.pbn"])
def test_pbn_output_keeps_the_layout_of_the_input(run_cli, name, tmp_path):
    # data/played.pbn is long to solve: its first three games stand for it.
    text = (DATA / name).read_text()
    if name == "played.pbn":
        text = "\n\n".join(text.split("\n\n")[:3]) + "\n\n"
    path = tmp_path / name
    path.write_text(text)
    status, out, err = run_cli("table", path, "--format", "pbn", "-q")
    assert (status, err) == (0, "")
    # Every line as it was, the empty line after the header comment of problems.pbn and
    # the end of the file included; only the tags the command adds are new.
    assert without_dd_tags(out) == without_dd_tags(text)
    assert out.count("[OptimumResultTable") == len(list(pbn.loads(text)))


def test_pbn_output_writes_a_game_that_does_not_read_back_exactly_as_it_was(run_cli, tmp_path):
    bad_syntax = ('{board 2 as it came from the scorer}\n\n'
                  '[Board "2"\n[Dealer "E"]\n[Deal "#"]\n[Note  "odd spacing"]\n')
    unclosed_comment = '[Board "4"]\n{ never closed\n[Deal "' + ENDING + '"]\n'
    text = ('% PBN 2.1\n\n'
            f'[Board "1"]\n[Deal "{ENDING}"]\n\n'
            + bad_syntax + '\n'
            f'[Board "3"]\n[Deal "{ENDING}"]\n\n'
            + unclosed_comment + '\n'
            f'[Board "5"]\n[Deal "{ENDING}"]\n')
    path = tmp_path / "bad.pbn"
    path.write_text(text)
    status, out, err = run_cli("table", path, "--format", "pbn", "-q")
    assert status == 1
    assert err.splitlines() == [
        f"{path}:8: unclosed tag Board: ']' missing: '[Board \"2\"'",
        f"{path}:17: unterminated '{{' comment (no '}}' before the end of the game): "
        "'{ never closed'"]
    # The bad games are in their place, as they were, without the new tags.
    assert without_dd_tags(out) == text
    assert bad_syntax in out and unclosed_comment in out
    assert out.count("[OptimumResultTable") == 3
    reader = pbn.loads(out, strict=False)
    assert [g.board for g in reader] == [1, 3, 5]
    assert [e.raw for e in reader.errors] == [bad_syntax, unclosed_comment]


def test_pbn_output_replaces_stale_tags(run_cli, tmp_path):
    path = tmp_path / "stale.pbn"
    path.write_text('[Board "5"]\n[Dealer "N"]\n[Vulnerable "NS"]\n'
                    '[Deal "N:AKQ.AKJ.AKQT.432 765.765.65.98765 432.432.432.AKQJ '
                    'JT98.QT98.J987.T"]\n[OptimumScore "EW 50"]\n[ParContract "EW 1C"]\n'
                    '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\nN NT 0\n')
    status, out, _ = run_cli("table", path, "--format", "pbn", "-q")
    assert status == 0
    [game] = read_games(out)
    assert game.names() == ["Board", "Dealer", "Vulnerable", "Deal", "OptimumScore",
                            "ParContract", "OptimumResultTable"]
    assert game.tag("OptimumScore") == "NS 2220"
    assert result_table(game) == dd_table(game.deal)


# ---- --format pbn: what the input said is kept or corrected, never contradicted --------------

QA_DEAL = "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6"
QA_GAME = f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{QA_DEAL}"]\n'


def pbn_out(run_cli, *paths: Path, target: Path) -> tuple[int, bytes, str]:
    status, _, err = run_cli("table", *paths, "--format", "pbn", "-o", target, "-j", "1", "-q")
    return status, target.read_bytes(), err


def test_pbn_output_keeps_each_lines_bytes_in_a_file_mixing_encodings(run_cli, tmp_path):
    """A Latin-1 line and a UTF-8 comment beside a tag replaced: no crash, every board
    written, each line's bytes as they were (only the new tag text is encoded)."""
    path = tmp_path / "mixed.pbn"
    path.write_bytes(b'[Event "Chorz\xf3w"]\n' + QA_GAME.encode()
                     + b'[OptimumScore "NS 620"] {5\xe2\x82\xac prize, par by Caf\xc3\xa9}\n\n'
                     + QA_GAME.replace('"1"', '"2"').encode())
    status, out, err = pbn_out(run_cli, path, target=tmp_path / "out.pbn")
    assert (status, err) == (0, "")
    assert out.count(b"[OptimumResultTable ") == 2
    assert b'[Event "Chorz\xf3w"]\n' in out
    assert b'[OptimumScore "NS 100"] {5\xe2\x82\xac prize, par by Caf\xc3\xa9}\n' in out


def test_pbn_output_of_several_files_puts_an_empty_line_between_them(run_cli, tmp_path):
    """A file whose last game is not followed by an empty line, or whose last line has no
    line end, is not glued to the next file's first game: a line end in its style and
    an empty line go between (nothing where the file ends with an empty line)."""
    a = tmp_path / "a.pbn"
    a.write_bytes(b"% a\r\n" + QA_GAME.replace("\n", "\r\n").encode())  # ends "]\r\n"
    b = tmp_path / "b.pbn"
    b.write_bytes(QA_GAME.replace('"1"', '"2"').encode() + b"\n{tail comment}")
    c = tmp_path / "c.pbn"
    c.write_bytes(b"\n" + QA_GAME.replace('"1"', '"3"').encode() + b"\n\n")
    status, out, err = pbn_out(run_cli, a, b, c, a, target=tmp_path / "out.pbn")
    assert (status, err) == (0, "")
    parts = without_dd_tags(out.decode()).encode()
    assert parts == (a.read_bytes() + b"\r\n" + b.read_bytes() + b"\n\n" + c.read_bytes()
                     + a.read_bytes())
    assert [g.board for g in pbn.loads(out)] == [1, 2, 3, 1]


def test_pbn_output_replaces_a_stale_double_dummy_tricks_and_says_so(run_cli, tmp_path):
    """BridgeComposer's DoubleDummyTricks (declarers N S E W, strains NT S H D C, lower-case
    hex) is replaced in place with the right value, as the result table is; an input table
    that disagreed with the solver is said, one line a board, at its first tag (exit status
    0: nothing is lost).  A table that agreed is replaced without a word."""
    deal = "N:KJ74.A.Q54.AQT63 AQ85.Q93.J76.J95 T63.654.K9832.74 92.KJT872.AT.K82"
    table = dd_table(deal)
    ddt = "".join(f"{table.tricks(d, s):x}" for d in "NSEW" for s in ("NT", "S", "H", "D", "C"))
    rows = "".join(f"{d} {s:>2} {table.tricks(d, s)}\r\n" for d in "NESW"
                   for s in ("S", "H", "D", "C", "NT"))
    head = f'[Board "33"]\r\n[Dealer "N"]\r\n[Vulnerable "None"]\r\n[Deal "{deal}"]\r\n'
    stale = rows.replace(f"N NT {table.tricks('N', 'NT')}", "N NT 1")
    path = tmp_path / "stale.pbn"
    path.write_text(head + '[DoubleDummyTricks "1' + ddt[1:] + '"]\r\n'
                    '[OptimumResultTable "Declarer;Denomination\\2R;Result\\1R"]\r\n'
                    + stale + "\r\n", newline="")
    status, out, err = pbn_out(run_cli, path, target=tmp_path / "out.pbn")
    assert status == 0
    assert err == (f"{path}:5: board 33: the input's DoubleDummyTricks and OptimumResultTable "
                   f"disagreed with the solver (N NT: 1, solved {table.tricks('N', 'NT')}); "
                   "replaced\n")
    assert out.decode().splitlines()[4] == f'[DoubleDummyTricks "{ddt}"]'
    [game] = pbn.loads(out)
    assert result_table(game) == table
    right = tmp_path / "right.pbn"
    right.write_text(head + f'[DoubleDummyTricks "{ddt}"]\r\n\r\n', newline="")
    status, out, err = pbn_out(run_cli, right, target=tmp_path / "out.pbn")
    assert (status, err) == (0, "")
    assert out.decode().splitlines()[4] == f'[DoubleDummyTricks "{ddt}"]'


def test_pbn_output_without_par_removes_the_inputs_par_tags(run_cli, tmp_path):
    """A bad Vulnerable tag costs the board its par: the input's OptimumScore and
    ParContract go too (they would stand beside a fresh table, unchecked), and that is
    said."""
    path = tmp_path / "badvul.pbn"
    path.write_text(QA_GAME.replace('"None"', '"Sometimes"')
                    + '[OptimumScore "NS 620"]\n[ParContract "NS 4S="]\n\n')
    status, out, err = pbn_out(run_cli, path, target=tmp_path / "out.pbn")
    assert status == 1
    assert f"{path}:3: board 1: Vulnerable must be" in err
    assert (f"{path}:5: board 1: par is left out, so the input's OptimumScore and "
            "ParContract are removed\n") in err
    [game] = pbn.loads(out, validate=False)
    assert game.names() == ["Board", "Dealer", "Vulnerable", "Deal", "OptimumResultTable"]
    assert result_table(game) == dd_table(QA_DEAL)


def test_a_tag_given_twice_in_a_game_is_warned_of_and_every_copy_replaced(run_cli, tmp_path):
    """Two Board or Deal tags in one game: the first is read, and the second said (exit
    status 1: which one was meant is a guess).  Two result tables: the first replaced, the
    second removed, the disagreement said."""
    path = tmp_path / "dupdeal.pbn"
    path.write_text(QA_GAME + '[Board "2"]\n[Deal "W:AJ9754.J62.K62.6 32..A954.AQJ9875 '
                    'KQ86.KQT843.QJ.K T.A975.T873.T432"]\n')
    status, out, err = pbn_out(run_cli, path, target=tmp_path / "out.pbn")
    assert status == 1
    assert err == (f"{path}:5: board 1: tag Board given twice in one game (the first, line 1, "
                   f"is read)\n{path}:6: board 1: tag Deal given twice in one game (the first, "
                   "line 4, is read)\n")
    [game] = pbn.loads(out)
    assert result_table(game) == dd_table(QA_DEAL)
    path = tmp_path / "dup_ort.pbn"
    path.write_text(QA_GAME + '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\n'
                    'N NT 13\n[OptimumScore "NS 0"]\n'
                    '[OptimumResultTable "Declarer Suit Tricks"]\nN S 13\n\n')
    status, out, err = pbn_out(run_cli, path, target=tmp_path / "out.pbn")
    assert status == 0
    assert err == (f"{path}:5: board 1: the input's OptimumResultTable disagreed with the "
                   "solver (N NT: 13, solved 6); replaced\n")
    [game] = pbn.loads(out)
    assert game.names() == ["Board", "Dealer", "Vulnerable", "Deal", "OptimumResultTable",
                            "OptimumScore", "ParContract"]
    assert result_table(game) == dd_table(QA_DEAL)


def test_a_game_whose_tags_cannot_be_written_back_is_written_as_it_was(run_cli, tmp_path,
                                                                       monkeypatch):
    """Should a tag ever fail to go in (write_back's ValueError), the game is written back
    as it was and said, FILE:LINE, and the batch goes on: no traceback, no board lost."""
    def refuse(game, tags=(), *, remove=()):
        raise ValueError("tag OptimumScore holds text that latin-1 cannot encode")
    monkeypatch.setattr(pbn, "write_back", refuse)
    path = tmp_path / "two.pbn"
    path.write_text(QA_GAME + "\n" + QA_GAME.replace('"1"', '"2"'))
    status, out, err = pbn_out(run_cli, path, target=tmp_path / "out.pbn")
    assert status == 1 and out == path.read_bytes()
    assert err == "".join(f"{path}:{line}: board {n}: tag OptimumScore holds text that latin-1 "
                          "cannot encode; the game is written back as it was, without the "
                          "tags\n" for line, n in ((1, 1), (6, 2)))


def test_a_line_over_the_limit_is_reported_as_such(run_cli, tmp_path):
    """The rest of the file is not read after a line over MAX_LINE: the error says that,
    not that a game was too long to copy."""
    path = tmp_path / "long.pbn"
    path.write_bytes(QA_GAME.encode() + b"\n{" + b"y" * (pbn.MAX_LINE + 1) + b"}\n\n"
                     + QA_GAME.replace('"1"', '"2"').encode())
    status, out, err = pbn_out(run_cli, path, target=tmp_path / "out.pbn")
    assert status == 1
    assert err.startswith(f"{path}:6: line longer than 1,048,576 characters")
    assert "no empty line ends this game" not in err and len(err.splitlines()) == 1
    assert [g.board for g in pbn.loads(out)] == [1]


@pytest.mark.parametrize("tags, loses", [
    ('[Dealer "N"]\n[Vulnerable "None"]\n', "the board is written without its number"),
    ("", "par is left out"),
], ids=["with-dealer-and-vul", "without"])
def test_a_board_number_too_large_to_read_is_reported(run_cli, tmp_path, tags, loses):
    """A Board tag of 6,000 digits: the board is solved, and the number it cannot show is
    said (once), not left silently blank; exit status 1, as for any tag that costs part
    of a board's output."""
    deal = "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"
    path = tmp_path / "big.pbn"
    path.write_text(f'[Board "{"7" * 6000}"]\n{tags}[Deal "{deal}"]\n\n')
    status, out, err = run_cli("table", path, "--format", "csv", "-q")
    assert status == 1
    assert out.splitlines()[1].split(",")[1] == ""  # solved, the board column blank
    assert err.count(f"{path}:1: Board number '777") == 1 and loses in err
    assert "7" * 200 not in err  # the number quoted, not repeated whole


def test_par_tag_forms():
    table = DDTable.from_dict({"N": {"NT": 9, "S": 5, "H": 7, "D": 5, "C": 9},
                               "E": {"NT": 4, "S": 7, "H": 5, "D": 8, "C": 4},
                               "S": {"NT": 9, "S": 5, "H": 7, "D": 5, "C": 9},
                               "W": {"NT": 4, "S": 7, "H": 5, "D": 8, "C": 4}})
    sacrifice = par_of(table, vul="none", dealer="N")     # 4DEWx-2, 300 to NS
    assert optimum_score_tag(sacrifice) == "NS 300"
    assert par_contract_tag(sacrifice) == "EW 4DX-2"
    flat = DDTable.from_dict({d: {s: 6 for s in ("S", "H", "D", "C", "NT")}
                              for d in "NESW"})
    passed = par_of(flat, vul="none", dealer="N")
    assert (optimum_score_tag(passed), par_contract_tag(passed)) == ("NS 0", "Pass")
    ew = par_of(DDTable(tuple(tuple(13 - n for n in row) for row in
                              dd_table("N:AKQ.AKJ.AKQT.432 765.765.65.98765 "
                                       "432.432.432.AKQJ JT98.QT98.J987.T").rows)),
                vul="none", dealer="N")
    assert optimum_score_tag(ew).startswith("EW ")


# ---- the results store -------------------------------------------------------------------

def test_db_saves_every_table_and_a_second_run_solves_nothing(run_cli, tmp_path, monkeypatch):
    db = tmp_path / "tables.sqlite"
    status, first, err = run_cli("table", PROBLEMS, "--format", "json", "--db", db)
    assert status == 0
    assert f"0 from {db}, 6 solved now" in err
    with ResultStore(db) as store:
        assert len(store) == 6
        assert store.meta()["schema"] == str(SCHEMA_VERSION)

    def no_solving(deals, **kwargs):
        assert list(deals) == [], "a stored deal was solved again"
        return iter(())

    monkeypatch.setattr(boards, "iter_dd_tables", no_solving)
    status, second, err = run_cli("table", PROBLEMS, "--format", "json", "--db", db,
                              "--resume")
    assert status == 0
    assert second == first
    assert "resuming with 6 tables" in err and f"6 from {db}, 0 solved now" in err


def test_a_stored_table_knows_its_deals_cards(tmp_path):
    """A table read back from the store is of its deal's size: the notebook view counts
    what makes against it."""
    ending = Deal.from_pbn("N:AKQ.32.. JT9.AK.. 876.QJ.. 54.T9.8.")
    key = ending.to_pbn()
    with ResultStore(tmp_path / "t.sqlite") as store:
        store.put_table(key, dd_table(ending))
        got = store.tables([key])[key]
    assert got.cards == 5 and got == dd_table(ending)


def test_db_finds_a_deal_written_from_another_seat(run_cli, tmp_path, monkeypatch):
    db = tmp_path / "tables.sqlite"
    first = tmp_path / "a.pbn"
    first.write_text(f'[Board "1"]\n[Deal "{ENDING}"]\n')
    rotated = tmp_path / "b.pbn"
    rotated.write_text('[Board "1"]\n[Deal "E:..KQ.K 4..2.A K3.Q.. A2.J.."]\n')
    assert run_cli("table", first, "--db", db, "-q")[0] == 0
    monkeypatch.setattr(boards, "iter_dd_tables", lambda deals, **kw: iter(()) if not list(deals)
                        else pytest.fail("solved again"))
    status, out, _ = run_cli("table", rotated, "--db", db, "-q", "--format", "json")
    assert status == 0
    assert json.loads(out)[0]["dd"] == dd_table(ENDING).to_dict()


def test_a_deal_twice_in_one_run_is_solved_once(run_cli, tmp_path, monkeypatch):
    path = tmp_path / "twice.pbn"
    path.write_text(f'[Board "1"]\n[Deal "{ENDING}"]\n\n[Board "2"]\n[Deal "{ENDING}"]\n')
    real = boards.iter_dd_tables
    asked = []

    def counting(deals, **kwargs):
        deals = list(deals)
        asked.extend(deals)
        return real(deals, **kwargs)

    monkeypatch.setattr(boards, "iter_dd_tables", counting)
    status, out, _ = run_cli("table", path, "-q", "--format", "json")
    assert status == 0 and len(json.loads(out)) == 2 and len(asked) == 1


def interrupt_after(monkeypatch, boards: int) -> None:
    """Ctrl-C arrives just after the ``boards``-th table is saved."""
    real_put = ResultStore.put_table
    count = 0

    def put(self, key, table):
        nonlocal count
        real_put(self, key, table)
        count += 1
        if count == boards:
            raise KeyboardInterrupt

    monkeypatch.setattr(ResultStore, "put_table", put)


@pytest.mark.parametrize("fmt", ["csv", "pbn"])
def test_interrupted_run_resumes_to_the_same_output(run_cli, tmp_path, monkeypatch, fmt):
    reference = tmp_path / f"reference.{fmt}"
    assert run_cli("table", PROBLEMS, "--format", fmt, "-o", reference, "-q")[0] == 0

    db = tmp_path / "tables.sqlite"
    out = tmp_path / f"out.{fmt}"
    with monkeypatch.context() as patch:
        interrupt_after(patch, 3)
        status, _, err = run_cli("table", PROBLEMS, "--format", fmt, "-o", out,
                             "--db", db, "-j", "1")
    assert status == 130
    assert "interrupted after" in err and "3 new tables saved" in err and "--resume" in err
    assert "Traceback" not in err
    with ResultStore(db) as store:
        assert len(store) == 3

    status, _, err = run_cli("table", PROBLEMS, "--format", fmt, "-o", out, "--db", db,
                         "--resume", "-j", "2")
    assert status == 0
    assert f"3 from {db}, 3 solved now" in err
    assert out.read_text() == reference.read_text()


@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)],
                         ids=["ctrl-c", "sigterm"])
def test_ctrl_c_on_a_real_run_keeps_what_was_solved(tmp_path, signum, status):
    """The whole path: a subprocess solving full deals gets SIGINT (or SIGTERM) once the
    store holds a table, exits 130 (143) with a message, and the resumed run completes
    the output."""
    # Enough boards that the run is still solving when the signal comes (about 0.3 s a
    # board here; with 3 boards the signal could land while the process was exiting).
    boards = 10
    path = session_subset(tmp_path, boards)
    db = tmp_path / "tables.sqlite"
    out = tmp_path / "out.json"
    argv = [sys.executable, "-m", "ddsolver", "table", str(path), "--format", "json",
            "-o", str(out), "--db", str(db), "-j", "1"]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    # A shell running the tests in the background starts them with SIGINT ignored, which a
    # child would inherit: give it the default disposition, as a terminal's job has.
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if db.exists():
                try:
                    with sqlite3.connect(db) as con:
                        if con.execute("SELECT COUNT(*) FROM dd_tables").fetchone()[0] >= 1:
                            break
                except sqlite3.Error:
                    pass
            time.sleep(0.05)
        else:
            pytest.fail("no table was saved within a minute")
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    if proc.returncode == 0:
        pytest.skip("the run finished before the signal arrived")
    assert proc.returncode == status, err
    assert "interrupted after" in err and "--resume" in err and "Traceback" not in err
    with sqlite3.connect(db) as con:
        saved = con.execute("SELECT COUNT(*) FROM dd_tables").fetchone()[0]
    assert 1 <= saved < boards

    resumed = subprocess.run(argv + ["--resume"], capture_output=True, text=True, env=env,
                             timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{saved} from {db}" in resumed.stderr
    records = json.loads(out.read_text())
    with pbn.load_path(path) as reader:
        games = list(reader)
    assert [r["board"] for r in records] == list(range(1, boards + 1))
    for record, game in zip(records, games):
        assert record["dd"] == dd_table(game.deal).to_dict()


def test_resume_without_db_or_with_a_missing_db_is_a_usage_error(run_cli, tmp_path):
    status, _, err = run_cli("table", PROBLEMS, "--resume")
    assert status == 2 and "--resume needs --db" in err
    missing = tmp_path / "none.sqlite"
    status, _, err = run_cli("table", PROBLEMS, "--resume", "--db", missing)
    assert status == 2 and "nothing to resume" in err
    assert not missing.exists()


def test_db_that_is_not_a_store_is_refused_plainly(run_cli, tmp_path):
    text_file = tmp_path / "notes.txt"
    text_file.write_text("these are not tables\n" * 100)
    status, _, err = run_cli("table", PROBLEMS, "--db", text_file)
    assert status == 2
    assert err.startswith("ddsolver table: error: ") and "not a ddsolver results store" in err
    assert len(err.strip().splitlines()) == 1

    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE t (x)")
    con.close()
    status, _, err = run_cli("table", PROBLEMS, "--db", other)
    assert status == 2 and "not a ddsolver results store" in err


def test_db_from_a_newer_ddsolver_is_refused(run_cli, tmp_path):
    db = tmp_path / "tables.sqlite"
    ResultStore(db).close()
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    status, _, err = run_cli("table", PROBLEMS, "--db", db)
    assert status == 2 and "newer ddsolver" in err


def test_store_round_trips_a_table(tmp_path):
    table = dd_table(ENDING)
    with ResultStore(tmp_path / "s.sqlite") as store:
        store.put_table("key", table)
    with ResultStore(tmp_path / "s.sqlite", must_exist=True) as store:
        assert store.tables(["key", "other"]) == {"key": table}


@pytest.mark.parametrize("tricks", ["fff", "z" * 20, "f" * 20, "", 5])
def test_a_damaged_stored_table_is_solved_again_and_said(run_cli, tmp_path, tricks):
    # A row that does not read (a short one, not hex, a count over 13, empty) used to stop
    # the run with a traceback; now it is solved again, replaced, and counted on stderr.
    db, out, reference = tmp_path / "t.sqlite", tmp_path / "out.csv", tmp_path / "ref.csv"
    assert run_cli("table", PROBLEMS, "--format", "csv", "-q", "-o", reference,
                   "--db", db)[0] == 0
    with sqlite3.connect(db) as con:
        (key,) = con.execute("SELECT deal FROM dd_tables LIMIT 1").fetchone()
        con.execute("UPDATE dd_tables SET tricks=? WHERE deal=?", (tricks, key))
    status, _, err = run_cli("table", PROBLEMS, "--format", "csv", "-o", out, "--db", db,
                             "--resume")
    assert status == 0 and "Traceback" not in err, err
    assert f"{db}: 1 stored result did not read (damaged) and was worked out again" in err
    assert out.read_bytes() == reference.read_bytes()
    with ResultStore(db) as store:   # replaced: it reads now
        assert store.tables([key])[key] == dd_table(Deal.from_pbn(key))
        assert store.damaged == 0


def test_a_store_that_cannot_be_made_is_not_left_half_made(run_cli, tmp_path, monkeypatch):
    # A full disk while the new store's schema was written left a file without its mark,
    # which every later run refused as "not a ddsolver results store".
    db = tmp_path / "t.sqlite"

    def full(self, exists):
        self._db.execute("CREATE TABLE half (made)")
        self._db.commit()
        raise sqlite3.OperationalError("database or disk is full")
    with monkeypatch.context() as patch:
        patch.setattr(ResultStore, "_open", full)
        status, out, err = run_cli("table", PROBLEMS, "--db", db, "-q")
    assert status == 2 and out == ""
    assert f"cannot create {db}: database or disk is full" in err
    assert list(tmp_path.iterdir()) == []
    status, _, err = run_cli("table", PROBLEMS, "--db", db, "-q")
    assert status == 0, err


def test_table_help_describes_db_resume_and_pbn(capsys):
    with pytest.raises(SystemExit):
        cli.main(["table", "--help"])
    text = capsys.readouterr().out
    for word in ("--db", "--resume", "pbn", "OptimumResultTable", "130"):
        assert word in text


def test_output_onto_an_input_file_is_refused(run_cli, tmp_path):
    path = tmp_path / "in.pbn"
    text = f'[Board "1"]\n[Deal "{ENDING}"]\n'
    path.write_text(text)
    status, _, err = run_cli("table", path, "--format", "pbn", "-o", path)
    assert status == 2 and "is an input file" in err
    assert path.read_text() == text


def test_pbn_output_keeps_the_comments_of_files_without_games(run_cli, tmp_path):
    only_comment = tmp_path / "note.pbn"
    only_comment.write_text("{a file with only a comment}\n")
    board = tmp_path / "board.pbn"
    board.write_text(f'% PBN 2.1\n[Board "1"]\n[Deal "{ENDING}"]\n\n{{the end}}\n')
    status, out, _ = run_cli("table", only_comment, board, only_comment, "--format",
                         "pbn", "-q")
    assert status == 0
    assert out.count("{a file with only a comment}") == 2
    reader = pbn.loads(out)
    [game] = list(reader)
    assert result_table(game) == dd_table(ENDING)
    assert out.index("{the end}") > out.index("[OptimumResultTable")
    status, out, err = run_cli("table", only_comment, "--format", "pbn", "-q")
    assert out == "{a file with only a comment}\n"  # given back as it is
    assert (status, err) == (1, f"{only_comment}: no games\n")


def test_a_store_that_fails_during_the_run_is_reported_plainly(run_cli, tmp_path, monkeypatch):
    from ddsolver.store import StoreError

    def fail(self, key, table):
        raise StoreError(f"cannot write to {self.path}: database or disk is full")

    monkeypatch.setattr(ResultStore, "put_table", fail)
    db = tmp_path / "tables.sqlite"
    status, _, err = run_cli("table", PROBLEMS, "--db", db, "-q")
    assert status == 2
    assert err.strip() == f"ddsolver table: error: cannot write to {db}: database or disk is full"


@pytest.mark.parametrize("size", ["0", "65537", "lots"])
def test_a_table_size_out_of_range_is_a_usage_error(capsys, size):
    with pytest.raises(SystemExit) as stop:
        cli.main(["table", str(PROBLEMS), "--tt-mb", size, "-q"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "argument --tt-mb" in err and "Traceback" not in err


def test_a_table_the_system_cannot_give_is_reported_plainly(run_cli, monkeypatch):
    import ddsolver.solver as solver_module

    def refuse(tt_mb):
        raise MemoryError(f"cannot allocate a {tt_mb} MB transposition table")

    monkeypatch.setattr(solver_module, "Core", refuse)
    status, out, err = run_cli("table", PROBLEMS, "--tt-mb", "60000", "-q")
    assert status == 2
    assert "cannot allocate a 60000 MB transposition table" in err
    assert "--tt-mb" in err and "Traceback" not in err


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_ctrl_c_lost_in_a_finaliser_still_stops_the_batch(run_cli, tmp_path, monkeypatch):
    """Python drops an exception raised while a ``__del__`` runs: a Ctrl-C that lands in
    one (a Dask future's, freed on the client's loop) was lost, and a cluster run went on
    to the end with exit status 0.  The handler remembers it; the batch raises it again
    after the board."""
    from ddsolver.formats import table as table_formats

    class Finaliser:
        def __del__(self):
            signal.raise_signal(signal.SIGINT)   # raised here, printed and dropped

    writer = table_formats.WRITERS["csv"]
    real_write = writer.write
    calls = []

    def write(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            Finaliser()      # made and freed at once
        return real_write(self, *args, **kwargs)

    # Every table from the store: no search in this process to notice the signal, as on a
    # cluster, where the searches run in the workers.
    db = tmp_path / "s.db"
    assert run_cli("table", DATA / "session.pbn", "--format", "csv", "-q", "--db", db)[0] == 0
    monkeypatch.setattr(writer, "write", write)
    # SIGINT as the command line has it in its own process (Python's handler: the entry
    # point's import guard, ddsolver._launch, gives it back before main), whatever another
    # test left in this one (an import of ddsolver._launch leaves its guard in place)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        status, _, err = run_cli("table", DATA / "session.pbn", "--format", "csv", "-q",
                                 "--db", db)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert status == 130, err
    assert "interrupted after 1 board written" in err and len(calls) == 1
