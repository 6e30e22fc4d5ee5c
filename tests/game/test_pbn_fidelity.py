"""Reading PBN files as other programs write them, and giving them back byte for byte.

The fixtures in ``data/pbn-fidelity/`` imitate what real writers produce (see its README);
the corpus test reads the 40 real files of ``../shared/realpbn`` when that folder is there
(it must be under ``CI=true``).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from ddsfiles import REAL_PBN, real_pbn_files
from timing import assert_linear, fastest

from cardgames import pbn
from cardgames.cards import Card, Seat
from cardgames.errors import PBNError
from cardgames.pbn import Tag, load_path, loads, rewrite, write_back

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "data" / "pbn-fidelity"
REAL = REAL_PBN

D1 = "N:872.T9.JT94.9764 AKJT96.762.A2.Q8 .AQJ853.K7653.AK Q543.K4.Q8.JT532"
D2 = "E:J965.J8.K76.KQ92 A82.QT9.9852.754 KT7.A52.QT43.J86 Q43.K7643.AJ.AT3"
HEADER = "Declarer;Denomination\\2R;Result\\2R"


def _copy(path: Path, tags_for=None) -> bytes:
    out = io.BytesIO()
    rewrite(path, out, tags_for)
    return out.getvalue()


def _added(game: pbn.Game) -> list[Tag]:
    return [Tag("OptimumScore", "NS 400"), Tag("ParContract", "NS 3NT"),
            Tag("OptimumResultTable", HEADER, ("N NT  9", "N  S  8"))]


# ---------------------------------------------------------------------------
# The real corpus
# ---------------------------------------------------------------------------

def _holds_card(game: pbn.Game) -> bool:
    deal = game.tag("Deal") or ""
    return bool(set(deal[2:]) & set("AKQJT98765432"))


def test_every_board_of_every_real_file_is_read():
    files = real_pbn_files()
    assert len(files) == 40
    boards = 0
    for path in files:
        reader = load_path(path, strict=False, validate=False)
        boards += sum(_holds_card(game) for game in reader)
        assert reader.errors == [], path
    assert boards == 4046  # the count in realpbn/README.md


def test_every_real_file_round_trips_byte_for_byte():
    for path in real_pbn_files():
        assert _copy(path) == path.read_bytes(), path


def test_real_files_with_added_tags_keep_every_line_in_place():
    for path in real_pbn_files():
        original = path.read_bytes()
        copied = _copy(path, _added)
        # Every original line is still there, in order: removing the lines of the three
        # tags (and the old ones they replaced) from both leaves the same bytes.
        def strip(data: bytes) -> list[bytes]:
            kept, skipping = [], False
            for line in data.splitlines(keepends=True):
                if line.startswith((b"[OptimumScore ", b"[ParContract ",
                                    b"[OptimumResultTable ")):
                    skipping = line.startswith(b"[OptimumResultTable ")
                    continue
                if skipping and line[:1].isalpha() and not line.startswith(b"["):
                    continue  # a row of a result table
                skipping = False
                kept.append(line)
            return kept
        assert strip(copied) == strip(original), path
        games = list(load_path(path, strict=False, validate=False))
        added = list(pbn.load(io.BytesIO(copied), strict=False, validate=False))
        assert len(added) == len(games), path
        for game in added:
            assert game.tag("OptimumScore") == "NS 400", (path, game.line)
            assert game.get("OptimumResultTable").section == ("N NT  9", "N  S  8")


def test_real_files_read_with_validation_report_true_breaks_on_their_lines():
    for path in real_pbn_files():
        reader = load_path(path, strict=False)
        list(reader)
        for err in reader.errors:
            assert err.line is not None and err.source == str(path)
            assert str(err).count(str(path)) == 1


# ---------------------------------------------------------------------------
# The fixtures: byte-exact round trips and what they read as
# ---------------------------------------------------------------------------

FIXTURE_NAMES = ["bridgecomposer-crlf.pbn", "latin1-charset.pbn", "tables-mixed-eol.pbn",
                 "auction-play.pbn", "wrapped-tag.pbn"]


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_round_trips_byte_for_byte(name):
    path = FIXTURES / name
    assert _copy(path) == path.read_bytes()


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_with_added_tags_only_gains_lines(name):
    path = FIXTURES / name
    copied = _copy(path, _added)
    original = path.read_bytes().splitlines(keepends=True)
    new = copied.splitlines(keepends=True)
    # The original lines form a subsequence of the new ones (the old table is replaced).
    it = iter(new)
    missing = [line for line in original
               if not line.startswith((b"[Optimum", b"N ")) and line not in it]
    assert missing == []


def test_crlf_commentary_escapes_and_an_existing_table_replaced_in_place():
    path = FIXTURES / "bridgecomposer-crlf.pbn"
    copied = _copy(path, _added).decode("ascii")
    lines = copied.split("\r\n")
    assert "\n" not in copied.replace("\r\n", "")          # CRLF kept, and for new lines
    assert lines.count('[Event "Club \\\\ Pairs \\"A\\""]') == 2  # escapes as written
    table = lines.index(f'[OptimumResultTable "{HEADER}"]')
    assert lines[table - 1] == "Par was 3NT.}"             # in place: after the commentary
    assert lines[table + 1:table + 4] == ["N NT  9", "N  S  8", '[OptimumScore "NS 400"]']
    assert lines[table + 4] == '[BCFlags "1f"]'
    assert lines.count('[OptimumScore "NS 400"]') == 2 and '[OptimumScore "NS 0"]' not in lines
    # Board 2 gets the new tags after its last tag, before its closing commentary.
    second = lines.index('[Board "2"]')
    assert lines[second + 6:second + 9] == ['[Result "?"]', '[OptimumScore "NS 400"]',
                                            '[ParContract "NS 3NT"]']
    assert lines[second + 12:second + 15] == ["{Nothing to say.", "", "Really.}"]


def test_bridgecomposer_fixture_reads_commentary_with_empty_lines_and_3n():
    games = list(load_path(FIXTURES / "bridgecomposer-crlf.pbn"))
    assert [g.board for g in games] == [1, 2]
    first = games[0]
    assert first.contract == "3N" and first.declarer == Seat.SOUTH
    assert first.tag("Event") == 'Club \\ Pairs "A"'
    table = first.get("OptimumResultTable")
    assert table.comments == ("{South held the hearts.\n\nNorth's spades were good.\n\n\n"
                              "Par was 3NT.}",)
    assert games[1].trailing_comments == ("{Nothing to say.\n\nReally.}",)


def test_latin1_file_stays_latin1_and_new_text_follows_its_charset():
    path = FIXTURES / "latin1-charset.pbn"
    games = list(load_path(path))
    assert games[0].tag("Event") == "Chorzów, Málaga"
    # %%!R lines stay with their board, in place.
    assert games[0].get("Contract").comments == ("%%!R 8a9b8a9b8a9b8a9b8a9b",)
    assert games[1].get("Deal").comments == ("%%!R 12345678901234567890",)
    copied = _copy(path, lambda g: [Tag("Annotator", "Ólafur")])
    assert b'[Annotator "\xd3lafur"]\n' in copied  # Latin-1, as the file is
    assert b"Chorz\xf3w" in copied
    # A file that says ISO-8859-1 but holds UTF-8 stays UTF-8.
    text = '%Content-type: text/x-pbn; charset=ISO-8859-1\n[Event "Málaga"]\n'.encode()
    (game,) = loads(text)
    assert write_back(game, [Tag("Site", "Ólafur")]).endswith('[Site "Ólafur"]\n'.encode())
    # Plain ASCII under a charset=ISO-8859-1 line: new text in Latin-1.
    (game,) = loads(b'%Content-type: text/x-pbn; charset=ISO-8859-1\n[Event "x"]\n')
    assert write_back(game, [Tag("Site", "é")]).endswith(b'[Site "\xe9"]\n')


def test_several_tables_of_a_board_share_the_first_tables_deal():
    games = list(load_path(FIXTURES / "tables-mixed-eol.pbn"))
    assert [g.index for g in games] == [0, 1, 2, 3, 4]
    assert [g.board for g in games] == [1, 1, 1, 2, 2]
    assert [g.same_deal_as for g in games] == [None, 0, 0, None, 3]
    assert [g.deal_inherited for g in games] == [False, False, True, False, False]
    assert games[2].deal == games[0].deal and games[2].get("Deal") is None
    assert games[4].deal == games[3].deal  # "#" inheritance
    assert len({g.same_deal_as if g.same_deal_as is not None else g.index
                for g in games}) == 2  # two distinct deals, five tables


def test_mixed_line_ends_are_kept_line_by_line():
    path = FIXTURES / "tables-mixed-eol.pbn"
    copied = _copy(path, lambda g: [Tag("OptimumScore", "NS 1")])
    assert copied.count(b"\r\n") == path.read_bytes().count(b"\r\n") + 5
    assert copied.count(b"\n") - copied.count(b"\r\n") == 1  # the one LF line, only


def test_auction_without_contract_gives_contract_declarer_and_play():
    first, second = load_path(FIXTURES / "auction-play.pbn")
    assert first.get("Contract") is None and first.get("Declarer") is None
    assert first.auction == ["Pass", "1S", "2H", "X", "Pass", "Pass", "Pass"]
    assert (first.contract, first.declarer) == ("2HX", Seat.SOUTH)
    # "^R" (a revoke noted) is dropped, "+" ends the play: it is to be continued.
    assert first.play == [Card.parse(c) for c in ("HK", "H9", "H2", "HA", "CA", "C2", "C4",
                                                   "C8")]
    assert second.declarer == Seat.SOUTH  # "^S": an irregular declarer, still South
    assert second.contract == "3N"
    assert second.auction == ["Pass", "1NT", "Pass", "3NT", "Pass", "Pass", "Pass"]
    assert second.play == [Card.parse(c) for c in ("SK", "S3", "S5", "SA")]


def test_a_tag_broken_over_lines_is_read_in_lenient_mode_only():
    path = FIXTURES / "wrapped-tag.pbn"
    (game,) = load_path(path, strict=False)
    assert game.tag("Event") == "Wrapped" and game.board == 1
    with pytest.raises(PBNError) as caught:
        list(load_path(path))
    assert caught.value.line == 2
    # Replacing the broken tag replaces all of its lines.
    copied = write_back(game, [Tag("Event", "One line")])
    assert copied == path.read_bytes().replace(b'[Event\n "Wrapped"]', b'[Event "One line"]')


# ---------------------------------------------------------------------------
# The cases one by one
# ---------------------------------------------------------------------------

def test_an_empty_line_inside_a_comment_does_not_end_the_game():
    text = '[Board "1"]\n{a comment\n\nover a paragraph}\n[Dealer "N"]\n\n[Board "2"]\n'
    games = list(loads(text))
    assert [g.names() for g in games] == [["Board", "Dealer"], ["Board"]]
    assert games[0].get("Dealer").comments == ("{a comment\n\nover a paragraph}",)
    assert pbn.dumps(games, directives=()) == text + "\n"


def test_an_unclosed_comment_costs_one_game_and_names_its_line():
    text = '[Board "1"]\n{never closed\n\n[Board "2"]\n\n[Board "3"]\n'
    with pytest.raises(PBNError) as caught:
        list(loads(text, source="f.pbn"))
    assert caught.value.line == 2 and "unterminated" in str(caught.value)
    reader = loads(text.encode(), strict=False, source="f.pbn")
    assert [g.board for g in reader] == [2, 3]
    (err,) = reader.errors
    assert err.line == 2 and err.original == b'[Board "1"]\n{never closed\n'


def test_rewrite_writes_a_game_that_does_not_read_back_as_it_was(tmp_path):
    text = b'% PBN 2.1\n\n[Board "1"]\n[Deal "N:bad"]\n[Dealer\n\n[Board "2"]\n\n'
    path = tmp_path / "bad.pbn"
    path.write_bytes(text)
    errors: list[PBNError] = []
    out = io.BytesIO()
    rewrite(path, out, _added, on_error=errors.append)
    assert len(errors) == 1 and errors[0].line == 5
    assert out.getvalue().startswith(text[:text.index(b"\n\n[Board \"2\"]")])
    assert out.getvalue().endswith(b'[OptimumResultTable "' + HEADER.encode() +
                                   b'"]\nN NT  9\nN  S  8\n\n')


def test_percent_lines_of_a_board_stay_with_it_in_both_writers():
    text = ('% PBN 2.1\n\n[Board "1"]\n%%!R 0123\n[Deal "' + D1 + '"]\n\n'
            '% PBN 2.0\n% Import\n[Board "2"]\n')
    games = list(loads(text))
    assert pbn.dumps(games, directives=["% PBN 2.1"]) \
        == text.replace("% PBN 2.1\n\n", "% PBN 2.1\n") + "\n"
    (one, two) = loads(text.encode())
    assert write_back(one) + write_back(two) == text.encode()
    assert write_back(one, [Tag("OptimumScore", "NS 0")]).endswith(
        b'%%!R 0123\n[Deal "' + D1.encode() + b'"]\n[OptimumScore "NS 0"]\n')


def test_model_writer_keeps_escapes_as_written():
    text = '[Event "a\\\\b \\"q\\" c\\d"]\n[Site "x\\\\"]\n'
    (game,) = loads(text)
    assert game.tag("Event") == 'a\\b "q" c\\d'
    assert game.to_pbn() == text
    game.set_tag("Event", "new \\ one")
    assert game.get("Event").tag_line == '[Event "new \\ one"]'


def test_write_back_needs_a_game_read_from_bytes():
    (game,) = loads('[Board "1"]\n')
    with pytest.raises(ValueError, match="not read from bytes"):
        write_back(game, [Tag("OptimumScore", "NS 0")])


def test_write_back_replaces_a_tag_in_place_keeping_its_comment_and_the_line_rest():
    text = (b'[Board "1"]\n{old par}\n[OptimumScore "NS 1"] ; computed\n[Dealer "N"]\n'
            b'[OptimumResultTable "x"]\nN NT 1\n% keep me\nN S 2\n[Result "9"]\n')
    (game,) = loads(text)
    out = write_back(game, [Tag("OptimumScore", "EW 2"),
                            Tag("OptimumResultTable", HEADER, ("A", "B", "C"))])
    assert out == (b'[Board "1"]\n{old par}\n[OptimumScore "EW 2"] ; computed\n'
                   b'[Dealer "N"]\n[OptimumResultTable "' + HEADER.encode() + b'"]\n'
                   b'A\nB\nC\n% keep me\n[Result "9"]\n')


def test_write_back_at_the_end_of_a_file_without_a_final_line_end():
    (game,) = loads(b'[Board "1"]\r\n[Dealer "N"]')
    assert write_back(game, [Tag("OptimumScore", "NS 0")]) == \
        b'[Board "1"]\r\n[Dealer "N"]\r\n[OptimumScore "NS 0"]\r\n'


def test_lone_carriage_returns_are_line_ends_too():
    data = b'[Board "1"]\r[Dealer "N"]\r\r[Board "2"]\r'
    reader = loads(data)
    games = list(reader)
    assert [g.board for g in games] == [1, 2]
    assert b"".join(write_back(g) for g in games) + (reader.tail or b"") == data


def test_contract_3n_is_a_notrump_contract():
    game = next(loads('[Contract "3N"]\n[Play "W"]\nHK H2 H5 HA\n- - - S2\n'))
    assert game.contract == "3N"
    assert len(game.play) == 5


def test_end_position_contract_may_be_a_bare_trump_suit():
    (game,) = loads(f'[Deal "{D1}"]\n[Contract "H"]\n')
    assert game.contract == "H"


def test_empty_contract_and_declarer_are_taken_from_a_complete_auction():
    text = ('[Dealer "S"]\n[Declarer ""]\n[Contract ""]\n[Auction "S"]\n'
            '1S Pass 2NT Pass\n3C X 4S 5C\nX Pass Pass Pass\n[Play "S"]\nDA D2 D9 D7\n'
            'HQ HK HA H3\n')
    (game,) = loads(text)
    assert (game.contract, game.declarer) == ("5CX", Seat.EAST)
    assert len(game.play) == 8
    (incomplete,) = loads('[Auction "N"]\n1S Pass\n')
    assert incomplete.contract is None and incomplete.declarer is None


def test_irregularities_and_annotations_in_the_auction_and_play():
    text = ('[Contract "4S"]\n[Declarer "^N"]\n[Auction "N"]\n- ^S 1D ^I 1C\n4S! 3NT? AP\n'
            '[Play "E"]\nC5 C2 ^R S5 ^L CK\n')
    (game,) = loads(text)
    assert game.declarer == Seat.NORTH
    assert game.auction[:4] == ["-", "1D", "1C", "4S"]
    assert game.play == [Card.parse(c) for c in ("C5", "C2", "S5", "CK")]


def test_error_names_its_place_once():
    text = '[Board "1"]\n[Dealer "N"]\n[Contract "9Z"]\n'
    (game,) = loads(text, source="f.pbn", validate=False)
    with pytest.raises(PBNError) as caught:
        game.contract  # noqa: B018
    err = caught.value
    assert str(err).startswith("f.pbn:3: ") and str(err).count("f.pbn") == 1
    assert err.where == "f.pbn:3"
    assert err.reason == str(err)[len("f.pbn:3: "):]
    # A caller adding its own context uses .reason and names the place once.
    assert f"{err.where}: board 1: {err.reason}".count("f.pbn") == 1


def test_error_of_an_inherited_tag_names_the_games_line():
    text = '[Dealer "##Q"]\n[Board "1"]\n\n[Board "2"]\n'
    games = list(loads(text, source="f.pbn", validate=False))
    with pytest.raises(PBNError) as caught:
        games[1].dealer  # noqa: B018
    assert caught.value.line == 4


# ---------------------------------------------------------------------------
# Speed: linear in the input
# ---------------------------------------------------------------------------

def _synthetic(games: int) -> bytes:
    block = (f'[Event "Synthetic"]\r\n[Board "{{}}"]\r\n[Dealer "N"]\r\n[Vulnerable "None"]\r\n'
             f'[Deal "{D1}"]\r\n{{{{a note\r\n\r\nover lines}}}}\r\n%%!R 0123\r\n'
             '[Auction "N"]\r\nPass 1S Pass 2S\r\nAP\r\n\r\n')
    return b"% PBN 2.1\r\n\r\n" + "".join(block.format(i % 32 + 1)
                                          for i in range(games)).encode()


def _copy_time(data: bytes) -> float:
    def copy() -> None:
        reader = loads(data, strict=False, validate=False)
        out = b"".join(write_back(g, [Tag("OptimumScore", "NS 0")]) for g in reader)
        assert len(out) > len(data)
    return fastest(copy, 2)


def test_reading_and_writing_back_stay_linear_in_the_input():
    assert_linear(lambda k: _copy_time(_synthetic(k)), 5000)


# A file mixing encodings, as real files do (the Precision 1C file says ISO-8859-1 and holds
# UTF-8): the Event line Latin-1, the comment after a tag this replaces UTF-8.
MIXED_ENCODINGS = (b'[Event "Chorz\xf3w"]\n[Board "1"]\n[Dealer "N"]\n'
                   b'[OptimumScore "NS 620"] {5\xe2\x82\xac prize, par by Caf\xc3\xa9}\n'
                   b'[ParContract "NS 4S="]\n')


def test_write_back_keeps_each_lines_bytes_in_a_file_mixing_encodings():
    """Only the new tag text is encoded: the bytes around a replaced tag pair stay as they
    were, whatever the encoding the file's other lines set (Latin-1 here, which cannot
    hold the euro sign of the UTF-8 comment)."""
    (game,) = loads(MIXED_ENCODINGS)
    out = write_back(game, [Tag("OptimumScore", "EW 100"), Tag("ParContract", "EW 3HX-1")])
    assert out == MIXED_ENCODINGS.replace(b"NS 620", b"EW 100").replace(b"NS 4S=", b"EW 3HX-1")


def test_write_back_replaces_every_copy_of_a_tag_and_removes_tags():
    """A tag the game holds twice is replaced once, its other copy going with its rows (a
    line keeping what stands beside the tag pair); ``remove`` takes a tag out, and a line
    left blank goes (it would end the game)."""
    text = (b'[Board "1"]\n[OptimumResultTable "x"]\nN NT 13\n[OptimumScore "NS 0"]\n'
            b'[OptimumResultTable "y"] {second}\nN S 13\n[ParContract "NS 7NT"]  \n'
            b'[Result "9"]\n')
    (game,) = loads(text)
    out = write_back(game, [Tag("OptimumResultTable", HEADER, ("A",))],
                     remove=["ParContract", "OptimumScore", "Absent"])
    assert out == (b'[Board "1"]\n[OptimumResultTable "' + HEADER.encode() + b'"]\nA\n'
                   b' {second}\n[Result "9"]\n')
    (again,) = loads(out)
    assert again.names() == ["Board", "OptimumResultTable", "Result"]
    with pytest.raises(ValueError, match="tag OptimumScore is given twice"):
        write_back(game, [Tag("OptimumScore", "NS 0"), Tag("OptimumScore", "NS 1")])
