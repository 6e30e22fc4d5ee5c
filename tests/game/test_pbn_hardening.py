"""The PBN reader against hostile or odd input: line ends of every system, lines without
end, binary data, huge numbers, shapes that made it quadratic, and values the writer must
give back exactly (issue 14)."""

from __future__ import annotations

import io
import os
import stat
import time
from pathlib import Path

import pytest
from timing import assert_linear, fastest

from cardgames import pbn
from cardgames.errors import PBNError
from cardgames.pbn import MAX_LINE, Tag, load, load_path, loads, write_back
from ddsolver.boards import Inputs, count_lines, read_board

ROOT = Path(__file__).resolve().parents[2]
DATA_FILES = sorted((ROOT / "data").glob("*.pbn")) + sorted(
    (ROOT / "data" / "pbn-fidelity").glob("*.pbn"))
D1 = "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"


def _with_line_ends(data: bytes, eol: bytes) -> bytes:
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").replace(b"\n", eol)


def _summary(reader: pbn.PBNReader) -> list:
    games = [(g.line, [(t.name, t.value, t.section, t.comments) for t in g.tags])
             for g in reader]
    return [games, [(e.line, e.reason) for e in reader.errors]]


# ---- 1. line ends --------------------------------------------------------------------

@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("eol", [b"\n", b"\r\n", b"\r"], ids=["LF", "CRLF", "CR"])
def test_every_reader_reads_lf_crlf_and_cr_alike(path, eol, tmp_path):
    data = _with_line_ends(path.read_bytes(), eol)
    expected = _summary(loads(_with_line_ends(path.read_bytes(), b"\n"), strict=False))
    file = tmp_path / "f.pbn"
    file.write_bytes(data)
    readers = {
        "load_path": load_path(file, strict=False),
        "loads bytes": loads(data, strict=False),
        "loads str": loads(data.decode("latin-1"), strict=False),
        "load binary file": load(io.BytesIO(data), strict=False),
        "load text file": load(io.TextIOWrapper(io.BytesIO(data), encoding="latin-1"),
                               strict=False),
    }
    for name, reader in readers.items():
        assert _summary(reader) == expected, name
    # ... and the bytes come back as they were, these line ends included.
    reader = loads(data, strict=False)
    assert b"".join(write_back(g) for g in reader) + (reader.tail or b"") == data


@pytest.mark.parametrize("eol", [b"\r\n", b"\r"], ids=["CRLF", "CR"])
def test_line_ends_cut_between_two_pieces_of_the_stream(eol):
    # The reader reads 64 KB at a time: a CRLF cut in two must stay one line end, and a
    # CR at the end of a piece must wait for the next to know it.
    line = b'[Note "' + b"x" * 50 + b'"]' + eol
    data = (line * (3 * (1 << 16) // len(line) + 7)) + eol + b'[Board "2"]' + eol
    for shift in range(4):
        shifted = b" " * shift + data
        reader = load(io.BytesIO(shifted))
        games = list(reader)
        assert len(games) == 2
        assert b"".join(write_back(g) for g in games) + (reader.tail or b"") == shifted


def test_count_lines_counts_boards_with_any_line_end(tmp_path):
    data = (ROOT / "data" / "session.pbn").read_bytes()
    counts = []
    for eol in (b"\n", b"\r\n", b"\r"):
        file = tmp_path / "f.pbn"
        file.write_bytes(_with_line_ends(data, eol))
        counts.append(count_lines([str(file)], b"[Deal "))
    assert counts == [32, 32, 32]


# ---- 4. unbounded lines, binary data, devices -------------------------------------------

def test_a_line_without_end_stops_the_file_with_an_error_on_its_line():
    data = f'[Board "1"]\n[Deal "{D1}"]\n\n[Board "2"]\n'.encode() + b"x" * (MAX_LINE + 10)
    reader = loads(data, strict=False)
    games = list(reader)
    assert [g.board for g in games] == [1]
    (err,) = reader.errors
    assert err.line == 5 and "longer than" in err.reason
    assert len(str(err)) < 400  # an excerpt, not the megabyte
    with pytest.raises(PBNError) as caught:
        list(loads(data))
    assert caught.value.line == 5


def test_a_long_line_is_refused_without_reading_the_rest_of_the_stream():
    class Endless(io.RawIOBase):
        def __init__(self):
            self.given = 0

        def readable(self):
            return True

        def readinto(self, buffer):
            buffer[:] = b"a" * len(buffer)
            self.given += len(buffer)
            return len(buffer)

    stream = Endless()
    reader = load(stream, strict=False)
    assert list(reader) == []
    assert reader.errors[0].line == 1
    assert stream.given <= MAX_LINE + (1 << 17)


def test_a_nul_byte_stops_the_file_with_an_error():
    data = f'[Board "1"]\n[Deal "{D1}"]\n\n[Board "2"]\nab\0cd\n\n[Board "3"]\n'.encode()
    reader = loads(data, strict=False)
    assert [g.board for g in reader] == [1]
    (err,) = reader.errors
    assert err.line == 5 and "NUL" in err.reason


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_gives_an_error_at_once():
    start = time.perf_counter()
    reader = load_path("/dev/zero", strict=False)
    assert list(reader) == []
    assert reader.errors and reader.errors[0].line == 1
    assert time.perf_counter() - start < 5
    assert count_lines(["/dev/zero"], b"[Deal ") is None  # not read for a progress total
    assert stat.S_ISCHR(os.stat("/dev/zero").st_mode)


def test_count_lines_leaves_a_pipe_to_the_reader(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert count_lines([str(fifo)], b"[Deal ") is None  # would block, and eat the input


def test_messages_quote_an_excerpt_of_a_long_value():
    long = "x" * 200_000
    sources = [f'[Board "1"]\n[Vulnerable "{long}"]\n',
               f'[Board "1"]\n[Deal "N:{long}"]\n',
               f'[Board "1"]\n[Contract "{long}"]\n',
               f'[Board "1"]\n[Dealer "{long}"]\n',
               f'[Board "1"]\n[Auction "N"]\n{long}\n',
               f'[Board "1"]\n[{long} x]\n',
               f'[Board "1"]\n[T "v"] x {long} [\n',
               f'[Board "1"]\n[{long} "v\n']
    for text in sources:
        with pytest.raises(PBNError) as caught:
            list(loads(text))
        assert len(str(caught.value)) < 500, str(caught.value)[:300]
        assert caught.value.line == (3 if "Auction" in text else 2)


# ---- 5. numbers ---------------------------------------------------------------------------

def test_a_huge_board_number_costs_its_board_only():
    huge = "9" * 4301
    text = (f'[Board "1"]\n[Deal "{D1}"]\n\n[Board "{huge}"]\n[Deal "{D1}"]\n\n'
            f'[Board "3"]\n[Deal "{D1}"]\n')
    reader = loads(text, strict=False)
    games = list(reader)
    assert [g.line for g in games] == [1, 7]
    (err,) = reader.errors
    assert err.line == 4 and "too large" in err.reason and len(str(err)) < 400
    # Read without validation (as the command line does), the board still solves: its
    # number only feeds dealer and vulnerability, which its tags can give.
    games = list(loads(text, validate=False))
    board = read_board(games[1], "f.pbn")
    assert board.number is None and board.deal is not None
    assert "too large" in board.warnings[0]


def test_inputs_go_on_past_a_huge_board_number(tmp_path):
    file = tmp_path / "f.pbn"
    file.write_text(f'[Board "{"1" * 5000}"]\n[Deal "{D1}"]\n\n[Board "2"]\n[Deal "{D1}"]\n')
    reported: list[str] = []
    boards = list(Inputs([str(file)], reported.append).boards())
    assert [b.number for b in boards] == [None, 2]
    assert len(reported) == 1 and reported[0].startswith(f"{file}:1:")


def test_leading_zeros_do_not_count_as_digits():
    (game,) = loads('[Board "' + "0" * 5000 + '7"]\n')
    assert game.board == 7


# ---- 12. values the writer gives back exactly ------------------------------------------------

def test_text_after_a_tag_starting_with_percent_round_trips():
    text = f'[Board "1"]\n[Deal "{D1}"] %note\n[Dealer "N"]\n'
    games = list(loads(text))
    assert games[0].get("Deal").section == ("%note",)
    assert list(loads(pbn.dumps(games))) == games


def test_write_back_keeps_percent_text_after_a_replaced_tag():
    (game,) = loads(b'[Board "1"]\n[OptimumScore "NS 0"] %keep\n[Dealer "N"]\n')
    out = write_back(game, [Tag("OptimumScore", "NS 420")])
    assert out == b'[Board "1"]\n[OptimumScore "NS 420"] %keep\n[Dealer "N"]\n'


@pytest.mark.parametrize("value", ["###", "####", "###x"])
def test_values_made_by_triple_hash_round_trip(value):
    text = f'[Site "{value}"]\n[Board "1"]\n\n[Board "2"]\n\n[Board "3"]\n[Site "y"]\n'
    games = list(loads(text))
    assert [g.tag("Site") for g in games] == [value[2:], value[2:], "y"]
    assert list(loads(pbn.dumps(games))) == games


def test_hash_values_made_in_code_round_trip():
    games = [pbn.Game([Tag("Board", "1"), Tag("Site", "#")]),
             pbn.Game([Tag("Board", "2"), Tag("Site", "##a"), Tag("Note", "\\#b")])]
    back = list(loads(pbn.dumps(games)))
    assert back == games
    assert [g.tag("Site") for g in back] == ["#", "##a"]


# ---- 3. linear time ----------------------------------------------------------------------------

GAME = f'[Board "1"]\n[Deal "{D1}"]\n\n'


def _comment_reopened(n: int) -> bytes:    # a '{' comment closed and reopened on each line
    return ('[Board "1"]\n{ start\n' + "x } { y\n" * n + "}\n\n" + GAME * 10).encode()


def _comments_unclosed(n: int) -> bytes:   # many '{' never closed, between empty lines
    return ('[Board "1"]\n{ never closed\n\n' + "{ a\n\n" * n + GAME).encode()


def _tags_on_one_line(n: int) -> bytes:
    return "".join(f'[T{i} "v"]' for i in range(n)).encode() + b"\n"


def _sticky_tags(n: int) -> bytes:         # many '##' tags, then games inheriting them
    return ("".join(f'[S{i} "##v"]\n' for i in range(n)) + '[Board "0"]\n\n'
            + GAME * 200).encode()


def _games(n: int) -> bytes:
    return (GAME * n).encode()


def _seconds(data: bytes) -> float:
    def read() -> None:
        for _game in loads(data, strict=False, validate=False):
            pass
    return fastest(read)


@pytest.mark.parametrize("shape, n", [(_comment_reopened, 6000), (_comments_unclosed, 3000),
                                      (_tags_on_one_line, 4000), (_sticky_tags, 1500),
                                      (_games, 3000)],
                         ids=["comment-reopened", "comments-unclosed", "tags-on-one-line",
                              "sticky-tags", "games"])
def test_reading_time_grows_linearly(shape, n):
    assert_linear(lambda k: _seconds(shape(k)), n)


def test_the_linear_time_check_fails_quadratic_time_and_passes_linear():
    assert_linear(lambda k: k * 1e-3, 100)
    with pytest.raises(pytest.fail.Exception, match="16.0x, 16.0x, 16.0x"):
        assert_linear(lambda k: (k * 1e-3) ** 2, 100)


@pytest.mark.parametrize("line", ["y", ""])
def test_an_endless_run_of_lines_stops_the_reading(line):
    """`yes | ddsolver table /dev/stdin`: a game that never ends (no empty line), or empty
    lines without end, is no PBN file; the reading stops with an error on the line past
    :data:`MAX_RUN_LINES` instead of holding every line."""
    def endless():
        while True:
            yield line + "\n"
    reader = pbn.PBNReader(endless(), strict=False, source="stdin")
    assert list(reader) == []
    assert reader.errors and reader.errors[-1].line == pbn.MAX_RUN_LINES + 1
    assert "in a row" in reader.errors[-1].reason


def test_the_game_a_long_line_cuts_short_is_not_said_too_long_to_copy():
    """The error of a line over :data:`MAX_LINE` is the whole story (the rest of the
    file is not read): its ``raw`` is the text read before it, empty when a game had not
    started, not None, which would mean a game too long to copy."""
    data = b'[Board "1"]\n\n{' + b"y" * (MAX_LINE + 1) + b'}\n\n[Board "2"]\n'
    reader = loads(data, strict=False)
    assert [g.board for g in reader] == [1]
    [err] = reader.errors
    assert err.line == 3 and "longer than" in err.reason and err.raw == ""
