"""``ddsolver convert``: LIN -> PBN -> LIN over the whole real corpus keeps every board's
deal, players, auction with its alerts, play and claim; PBN -> LIN -> PBN keeps the
boards of a PBN file; what LIN cannot say is said, not dropped silently."""

from __future__ import annotations

from pathlib import Path

from ddsfiles import real_lin_files, real_pbn_files

from cardgames import lin, pbn
from cardgames.cards import Card

DATA = Path(__file__).resolve().parents[2] / "data"


def _board(g: pbn.Game) -> tuple:
    return (g.board, g.tag("Room"), g.deal, g.dealer, g.vulnerable, g.auction,
            [t.value for t in g.tags if t.name == "Note"], g.play, g.tag("Result"),
            g.contract, g.declarer, [g.tag(s) for s in ("North", "East", "South", "West")])


def test_lin_to_pbn_to_lin_keeps_every_board_of_the_real_files(run_cli, tmp_path):
    files = real_lin_files()
    as_pbn, as_lin = tmp_path / "all.pbn", tmp_path / "all.lin"
    status, _, err = run_cli("convert", *files, "-o", as_pbn)
    assert status == 0 and "153 boards written as PBN" in err
    status, _, err = run_cli("convert", as_pbn, "--to", "lin", "-o", as_lin)
    assert status == 0 and "153 boards written as LIN" in err
    original = [_board(g) for path in files for g in lin.load_path(path)]
    assert [_board(g) for g in pbn.load_path(as_pbn)] == original
    assert [_board(g) for g in lin.load_path(as_lin)] == original
    # The vugraph commentary is kept, as PBN comments and as nt| again.
    assert "{benjy: no}" in as_pbn.read_text()
    assert "nt|benjy: no|" in as_lin.read_text()


def test_pbn_to_lin_to_pbn_keeps_the_boards(run_cli, tmp_path):
    as_lin, back = tmp_path / "a.lin", tmp_path / "a.pbn"
    assert run_cli("convert", DATA / "auctions.pbn", "--to", "lin", "-o", as_lin)[0] == 0
    assert run_cli("convert", as_lin, "-o", back, "-q")[0] == 0
    # (a Lead tag without a play comes back as the play's first card)
    played = lambda g: g.play or [Card.parse(g.tag("Lead"))] if g.tag("Lead") else g.play  # noqa: E731
    keys = lambda g: (g.board, g.deal, g.dealer, g.vulnerable, g.auction, played(g),  # noqa: E731
                      g.contract, g.declarer)
    assert [keys(g) for g in pbn.load_path(back)] == [
        keys(g) for g in pbn.load_path(DATA / "auctions.pbn")]
    assert sum(bool(g.tag("Lead")) and not g.play for g in pbn.load_path(DATA / "auctions.pbn"))


def test_a_play_without_an_auction_is_written_without_it_and_said(run_cli, tmp_path):
    # data/played.pbn gives contracts as tags, with no auction: LIN has no way to say
    # them, so each board is written without its play, and each is reported.
    out = tmp_path / "p.lin"
    status, _, err = run_cli("convert", DATA / "played.pbn", "--to", "lin", "-o", out)
    assert status == 1
    reported = [x for x in err.splitlines() if "written without its play" in x]
    games = list(pbn.load_path(DATA / "played.pbn"))
    assert len(reported) == sum(1 for g in games if g.play)
    assert all(x.startswith(f"{DATA / 'played.pbn'}:") for x in reported)
    back = list(lin.load_path(out))
    assert [g.deal for g in back] == [g.deal for g in games]
    assert all(not g.play for g in back)


def test_bad_input(run_cli, tmp_path):
    status, out, err = run_cli("convert", tmp_path / "missing.lin")
    assert status == 2 and "cannot read" in err and out == ""
    bad = tmp_path / "bad.lin"
    bad.write_text("qx|o1|md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|\n"
                   "qx|o2|md|3SZ,,,|\n")
    status, out, err = run_cli("convert", bad, "--to", "lin")
    assert status == 1 and out.count("\n") == 1
    assert f"{bad}:2: column 7: md|3SZ,,,|" in err and "board left out" in err


def test_a_part_left_out_is_not_a_board_lost(run_cli, tmp_path):
    """A LIN board whose auction does not read is written without it: said as a part left
    out (exit status 1), not as a board left out, and counted once."""
    deal = "md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|"
    text = (f"qx|o1|{deal}mb|1S|mb|p|mb|p|mb|p|mb|p|pc|D2|\n"   # a pass after the end
            f"qx|o2|{deal}mb|1S|mb|p|mb|p|mb|p|\n")
    path = tmp_path / "part.lin"
    path.write_text(text)
    status, out, err = run_cli("convert", path)
    assert status == 1 and out.count("[Deal ") == 2
    assert "board left out" not in err and "the auction and play are left out" in err
    assert "2 boards written as PBN, 1 of them with a part left out" in err
    assert "could not be read" not in err
    status, out, err = run_cli("table", path, "-j", "1")
    assert status == 1 and "2 boards (1 deal, 2 tables) solved" in err and "could not" not in err


def test_files_without_games_are_said_as_by_the_batch_commands(run_cli, tmp_path):
    """When no input holds a game, each is said to be empty (exit 1); a file without
    games next to files with games is fine, as for table."""
    empty, blank = tmp_path / "empty.pbn", tmp_path / "blank.lin"
    empty.write_text("")
    blank.write_text("\n\n")
    status, out, err = run_cli("convert", empty, blank, "--to", "lin")
    assert (status, out) == (1, "")
    assert err.splitlines()[:2] == [f"{empty}: no games", f"{blank}: no games"]
    status, out, err = run_cli("convert", DATA / "tables.pbn", empty, blank, "-q")
    assert (status, err) == (0, "") and out.count("[Deal ") > 0


def test_every_board_of_the_real_pbn_files_written_as_lin_reads_back(run_cli, tmp_path):
    """What LIN cannot hold is said and left out when written (an end position's deal, an
    unknown call, an illegal play, passes after the end), so that every board written
    reads back: none is lost or merged with the next on reading."""
    as_lin, back = tmp_path / "all.lin", tmp_path / "all.pbn"
    status, _, err = run_cli("convert", *real_pbn_files(), "--to", "lin", "-o", as_lin)
    written = int(err.strip().splitlines()[-1].split()[1])
    assert status == 1 and written > 4000
    status, _, err = run_cli("convert", as_lin, "-o", back)
    assert err.strip().splitlines()[-1] == f"ddsolver: {written} boards written as PBN", err
    assert status == 0
