"""The real LIN files of ``../shared/reallin`` (BBO hand records, vugraph archives, robot
matches), read by the commands as PBN files are: every board solved by ``ddsolver table``
and its play analysed by ``ddsolver play``, with no error; and the PBN reader itself,
given one, names it as LIN at its line (so that a program calling it directly is told
what it holds).
"""

from __future__ import annotations

import json
import re

from ddsfiles import real_lin_files

from cardgames import lin, pbn


def test_every_real_lin_file_is_solved_and_its_play_analysed(run_cli):
    files = real_lin_files()
    assert len(files) >= 20
    boards = 0
    for path in files:
        deals = len(re.findall(r"md\|", path.read_bytes().decode("latin-1")))
        status, out, err = run_cli("table", path, "--quiet", "--format", "json")
        assert (status, err) == (0, ""), (path, err)
        tables = json.loads(out)
        assert len(tables) == deals, path
        boards += len(tables)
        status, out, err = run_cli("play", path, "--quiet", "--format", "json")
        played = [g for g in lin.load_path(path) if g.play]
        if not played:   # a bidding practice file: nothing to analyse is a failure
            assert status == 1 and "no board has a Contract and played cards" in err, path
            assert json.loads(out) == []
            continue
        assert (status, err) == (0, ""), (path, err)
        analysed = json.loads(out)
        assert len(analysed) == len(played), path
        for a, g in zip(analysed, played):
            # The play analysed is the record's, to its claim or where it stops.
            assert [c["card"] for c in a["cards"]] == [str(c) for c in g.play]
            assert a["result_tag"] == (None if g.tag("Result") is None
                                       else int(g.tag("Result")))
    assert boards == 153


def test_a_lin_file_given_back_as_pbn_with_its_tables(run_cli, tmp_path):
    # The vugraph archive: both rooms of each board, comments and alerts, as PBN games
    # with the double-dummy tags, which read back to the same boards and tables.
    path = next(p for p in real_lin_files() if p.name == "test_vugraph.lin")
    out = tmp_path / "vugraph.pbn"
    status, _, err = run_cli("table", path, "--quiet", "--format", "pbn", "-o", out)
    assert (status, err) == (0, "")
    again = list(pbn.load_path(out))
    original = list(lin.load_path(path))
    assert [(g.board, g.tag("Room"), g.deal, g.auction, g.play, g.tag("Result"))
            for g in again] == [(g.board, g.tag("Room"), g.deal, g.auction, g.play,
                                 g.tag("Result")) for g in original]
    assert all(g.tag("OptimumResultTable") for g in again)
    status, first, _ = run_cli("table", path, "--quiet", "--format", "json")
    status, second, _ = run_cli("table", out, "--quiet", "--format", "json")
    assert [t["dd"] for t in json.loads(first)] == [t["dd"] for t in json.loads(second)]


def test_every_lin_record_is_an_error_of_the_reader_not_a_game():
    # Read leniently, a LIN file yields no game: each record is an error at its line.
    for path in real_lin_files():
        reader = pbn.load_path(path, strict=False)
        games = list(reader)
        assert games == [], path
        assert reader.errors and all("LIN record" in e.message for e in reader.errors), path
        text = path.read_bytes().decode("latin-1")
        first = next(i for i, line in enumerate(text.splitlines(), 1)
                     if re.match(r"\s*[a-zA-Z]{2}\|", line))
        assert reader.errors[0].line == first, path


def test_a_claim_ends_the_play_and_is_set_against_double_dummy(run_cli, tmp_path):
    # South, with all the spades, plays 1S; West leads a heart and South claims ten of
    # the thirteen tricks he has.
    path = tmp_path / "claim.lin"
    path.write_text("pn|s,w,n,e|md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|sv|o|"
                    "mb|1S|mb|p|mb|p|mb|p|pc|HA|mc|10|\n")
    status, out, err = run_cli("play", path, "--format", "json", "-q")
    assert (status, err) == (0, "")
    (game,) = json.loads(out)
    assert game["claim"] == {"after_cards": 1, "claimed": 10, "dd": 13, "difference": -3}
    assert game["tricks_taken"] is None and game["result_tag"] == 10
    status, out, _ = run_cli("play", path, "-q")
    assert "claimed 10 after 1 card, double dummy 13 there: 3 tricks fewer" in out
    # Every claim of the real files against the double-dummy trace at its point.
    claims = 0
    for real in real_lin_files():
        status, out, _ = run_cli("play", real, "--format", "json", "-q")
        for g in json.loads(out):
            if g["claim"] is not None:
                claims += 1
                last = g["cards"][-1]["dd"]
                assert g["claim"]["dd"] == last
                assert g["claim"]["difference"] == g["result_tag"] - last
    assert claims >= 10
