"""``ddsolver duel``: the protocol's deals and a file's boards played out, the reports in
each format, the played deals as PBN that ``ddsolver play`` replays to the same results,
a stored run resumed without playing again, threads that change nothing, and bad input as
one plain line.  The play itself is tested in tests/solver/test_duel.py."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "data"
# Small and quick: 4 worlds a decision, double-dummy defenders.
QUICK = ("--seed", "3", "-w", "4", "--defence", "dd", "-q")


def _plays(report: dict) -> list[tuple[str, tuple[str, ...], int]]:
    """(method, cards, tricks) of every play of a JSON report, in order."""
    return [(p["method"], tuple(p["played"]), p["tricks"])
            for d in report["deals"] for p in d["plays"]]


@pytest.mark.parametrize("argv, message", [
    ((), "nothing to play"),
    (("--deals", "2", DATA / "played.pbn"), "not both"),
    (("--deals", "2", "--declarers", "pimc"), "names two methods"),
    (("--deals", "2", "--declarers", "pimc,pimc"), "are the same"),
    (("--deals", "2", "--declarers", "dd,pimc"), "not dd"),
    (("--deals", "2", "--declarers", "alphamu:x,pimc"), "whole number"),
    (("--deals", "2", "--declarers", "minimax,pimc"), "unknown method"),
    (("--deals", "2", "--seed", "-4"), "--seed must be"),
    (("--deals", "2", "--seed", "one"), "--seed must be"),
    (("--deals", "2", "--tolerance", "-1"), "--tolerance must be"),
    ((DATA / "played.pbn", "--tolerance", "2"), "--tolerance chooses"),
    (("--deals", "2", "--contract", "8NT"), "--contract: contract level must be 1..7: '8NT'"),
    (("--deals", "2", "--declarer", "Q"), "--declarer: unknown seat"),
    (("--deals", "2", "--contract", "3NTN", "--declarer", "E"),
     "--contract 3NTN names declarer N, --declarer says E"),
    (("--deals", "2", "--contract", "pass"), "nothing to play"),
    ((DATA / "played.pbn", "--declarer", "N"), "--declarer chooses the protocol's deals"),
    ((DATA / "played.pbn", "--contract", "4S"), "--contract chooses the protocol's deals"),
    (("no-such-file.pbn",), "no-such-file.pbn"),
])
def test_bad_arguments_are_one_plain_line(run_cli, argv, message):
    status, out, err = run_cli("duel", *argv, "-q")
    assert status == 2 and out == ""
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_protocol_deals_in_every_format_and_replayed_by_play(run_cli, tmp_path):
    status, out, err = run_cli("duel", "--deals", "2", *QUICK, "--format", "json",
                               "--pbn", tmp_path / "played.pbn")
    assert status == 0 and err == ""
    report = json.loads(out)
    assert report["settings"]["seed"] == 3 and report["settings"]["defence"] == "double dummy"
    assert [d["deal"] for d in report["deals"]] == ["seed 3 deal 1", "seed 3 deal 2"]
    plays = _plays(report)
    assert [m for m, _, _ in plays] == ["alphamu:2", "pimc"] * 2
    assert all(len(cards) == 52 for _, cards, _ in plays)
    summary = report["summary"]
    made = [sum(p["made"] for d in report["deals"] for p in d["plays"][i:i + 1])
            for i in (0, 1)]
    assert summary["deals"] == 2 and summary["made"] == made
    # The PBN games: each play once, and `ddsolver play` finds the same tricks in them.
    status, out, err = run_cli("play", tmp_path / "played.pbn", "--format", "json", "-q")
    assert status == 0, err
    replayed = json.loads(out)
    assert [g["tricks_taken"] for g in replayed] == [t for _, _, t in plays]
    assert [tuple(c["card"] for c in g["cards"]) for g in replayed] == [
        cards for _, cards, _ in plays]
    assert [g["dd_start"] for g in replayed] == [
        d["dd_tricks"] for d in report["deals"] for _ in (0, 1)]
    # Text and CSV carry the same results.
    status, text, _ = run_cli("duel", "--deals", "2", *QUICK)
    assert status == 0 and "2 deals played with each declarer" in text
    for d in report["deals"]:
        line = next(x for x in text.splitlines() if x.startswith(d["deal"]))
        assert line.split()[5:7] == [str(d["dd_tricks"]), str(d["plays"][0]["tricks"])]
    status, table, _ = run_cli("duel", "--deals", "2", *QUICK, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(table)))
    assert len(rows) == 2 and [r["deal"] for r in rows] == ["seed 3 deal 1", "seed 3 deal 2"]


def test_the_same_seed_and_any_number_of_threads_give_the_same_plays(run_cli):
    def plays(*extra: str) -> list:
        status, out, err = run_cli("duel", "--deals", "3", *QUICK, "--format", "json",
                                   *extra)
        assert status == 0, err
        return _plays(json.loads(out))
    once = plays()
    assert plays("--jobs", "2") == once
    assert plays("--seed", "4") != once


def test_a_stored_run_is_resumed_without_playing_again(run_cli, tmp_path):
    db = tmp_path / "duel.sqlite"
    status, first, _ = run_cli("duel", "--deals", "2", *QUICK, "--format", "json",
                               "--db", db)
    assert status == 0
    # One more deal: the first two come from the store, the third is played now.
    status, out, err = run_cli("duel", "--deals", "3", "--seed", "3", "-w", "4",
                               "--defence", "dd", "--format", "json", "--db", db, "--resume")
    assert status == 0
    assert "resuming with 4 plays" in err      # two deals, two declarers each
    assert "2 from" in err and "1 played now" in err
    assert _plays(json.loads(out))[:4] == _plays(json.loads(first))
    # Other settings (worlds) are another question: nothing reused.
    status, out, err = run_cli("duel", "--deals", "1", "--seed", "3", "-w", "5",
                               "--defence", "dd", "--db", db)
    assert status == 0 and "0 from" in err and "1 played now" in err
    status, out, err = run_cli("duel", "--deals", "1", *QUICK, "--resume", "--db",
                               tmp_path / "missing.sqlite")
    assert status == 2 and "missing.sqlite" in err


def test_a_files_boards_and_a_bad_board_named_by_its_line(run_cli, tmp_path):
    text = (DATA / "played.pbn").read_text()
    games = text.split("\n\n")
    # A copy of the first board, second in the file, whose deal lost its last hand:
    # reported on its line, the rest played.
    bad = games[0]
    start = bad.index('[Deal "') + len('[Deal "')
    end = bad.index('"]', start)
    hands = bad[start:end].split()
    bad = bad[:start] + " ".join(hands[:-1] + ["-"]) + bad[end:]
    path = tmp_path / "boards.pbn"
    path.write_text(games[0] + "\n\n" + bad + "\n\n" + "\n\n".join(games[1:]))
    status, out, err = run_cli("duel", path, *QUICK, "--no-inference", "--format", "json")
    assert status == 1
    line = 1 + (games[0] + "\n\n").count("\n")
    skipped = [x for x in err.splitlines() if "skipped" in x]
    assert len(skipped) == 1 and f"{path}:{line}" in skipped[0]
    assert "not complete" in skipped[0]
    report = json.loads(out)
    labelled = [d["deal"] for d in report["deals"]]
    assert len(labelled) == text.count("[Contract ") and all(
        x.startswith(f"{path}:") for x in labelled)
    assert [d["board"] for d in report["deals"]][:1] == [1]


def test_the_contract_may_name_its_declarer(run_cli):
    # --contract 3NTN is --contract 3NT --declarer N (North is seat 0: not "no declarer").
    def deals(*extra: str) -> list:
        status, out, err = run_cli("duel", "--deals", "1", *QUICK, "--format", "json",
                                   *extra)
        assert status == 0, err
        report = json.loads(out)
        assert report["settings"]["declarer"] == "N"
        return [(d["pbn"], d["contract"]) for d in report["deals"]]
    named = deals("--contract", "3NTN")
    assert named == deals("--declarer", "N") == deals("--contract", "3NTN", "--declarer", "N")
    assert named[0][1] == "3NTN"


def test_an_ending_is_skipped_as_an_ending_not_as_an_unknown_hand(run_cli):
    # data/single_dummy.pbn holds endings only: every hand is known, with 3 or 6 cards.
    status, _, err = run_cli("duel", DATA / "single_dummy.pbn", *QUICK)
    assert status == 1
    skipped = [x for x in err.splitlines() if "skipped" in x]
    assert len(skipped) == 3 and all("an ending of" in x and "whole deal" in x
                                     for x in skipped)
    assert "not known" not in err
