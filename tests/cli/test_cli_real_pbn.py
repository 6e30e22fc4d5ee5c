"""Real session files as they come (issue 13, the command-line half): ``ddsolver table
--format pbn`` gives every input back byte for byte with only the double-dummy tags added,
several tables of one board are solved once and each tagged, the hand records show each
deal once, and every error line names its place once.

The fixtures are ``data/pbn-fidelity/`` and ``data/tables.pbn``; the corpus test reads the
40 real files of ``../shared/realpbn`` when that folder is there (it must be under
``CI=true``), solving two of them for real and the others with a solver that answers a
fixed table (what is checked there is the copy, not the tricks).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from ddsfiles import REAL_PBN, real_pbn_files

import ddsolver.batch
from cardgames import pbn
from ddsolver import DDTable, dd_table, par
from ddsolver.formats.tags import optimum_score_tag, par_contract_tag, result_table_lines

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "data" / "pbn-fidelity"
TABLES = ROOT / "data" / "tables.pbn"
REAL = REAL_PBN
ADDED = (b"[OptimumScore ", b"[ParContract ", b"[OptimumResultTable ", b"[DoubleDummyTricks ")


def strip_added(data: bytes) -> bytes:
    """``data`` without the lines of the tags ``table --format pbn`` adds or replaces (the
    tag lines and the rows of a result table)."""
    kept, rows = [], False
    for line in data.splitlines(keepends=True):
        if line.startswith(ADDED):
            rows = line.startswith(b"[OptimumResultTable ")
            continue
        if rows and line[:1].isalpha():
            continue  # a row of the result table
        rows = False
        kept.append(line)
    return b"".join(kept)


def has_added(data: bytes) -> bool:
    return any(line.startswith(ADDED) for line in data.splitlines())


def assert_given_back(original: bytes, output: bytes, where: object) -> None:
    """``output`` is ``original`` with only the three tags added, or replaced where the
    input had them already (with a DoubleDummyTricks tag)."""
    if has_added(original):  # tags replaced in place: what is left around them is equal
        assert strip_added(output) == strip_added(original), where
    else:
        assert strip_added(output) == original, where


def table_of(game: pbn.Game) -> DDTable:
    rows = game.get("OptimumResultTable").section  # type: ignore[union-attr]
    return DDTable.from_dict({d: {s: int(t) for d2, s, t in (r.split() for r in rows)
                                  if d2 == d} for d in "NESW"})


def games_of(data: bytes) -> list[pbn.Game]:
    return list(pbn.load(io.BytesIO(data), strict=False, validate=False))


def check_tags(game: pbn.Game) -> None:
    """The game's added tags are the facade's table and par of its deal."""
    deal = game.deal
    assert deal is not None
    table = dd_table(deal)
    assert game.get("OptimumResultTable").section == tuple(result_table_lines(table))
    expected = par(table, vul=game.vulnerable or "none", dealer=game.dealer or "N")
    assert game.tag("OptimumScore") == optimum_score_tag(expected)
    assert game.tag("ParContract") == par_contract_tag(expected)


def fixed_solver(monkeypatch) -> list[int]:
    """Replace the solver behind ``ddsolver table`` by one answering a fixed table; the
    list returned counts the deals it is asked for."""
    asked: list[int] = []
    fixed = DDTable.from_dict({d: {s: 7 for s in ("S", "H", "D", "C", "NT")} for d in "NESW"})

    def tables(deals, *, jobs=None, tt_mb=None) -> Iterator[tuple[int, DDTable]]:
        asked.append(len(deals))
        for i in range(len(deals)):
            yield i, fixed
    monkeypatch.setattr(ddsolver.batch, "iter_dd_tables", tables)
    return asked


# ---- the file given back ---------------------------------------------------------------------

FIXTURE_FILES = sorted(FIXTURES.glob("*.pbn")) + [TABLES]


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.name)
def test_pbn_output_is_the_input_with_only_the_tags_added(run_cli, path, tmp_path):
    target = tmp_path / "out.pbn"
    status, _, _ = run_cli("table", path, "--format", "pbn", "-o", target, "-j", "1",
                           "--tt-mb", "8", "-q")
    original, output = path.read_bytes(), target.read_bytes()
    assert_given_back(original, output, path)
    games = [g for g in games_of(output) if g.get("OptimumResultTable") is not None]
    assert games and status in (0, 1)
    check_tags(games[0])


def test_pbn_output_keeps_crlf_latin1_escapes_and_percent_lines(run_cli, tmp_path):
    for name in ("bridgecomposer-crlf.pbn", "latin1-charset.pbn"):
        path = FIXTURES / name
        target = tmp_path / name
        run_cli("table", path, "--format", "pbn", "-o", target, "-j", "1", "--tt-mb", "8", "-q")
        output = target.read_bytes()
        original = path.read_bytes()
        if b"\r\n" in original:  # the added lines end as the file's lines do
            assert output.count(b"\n") == output.count(b"\r\n")
        # The Latin-1 bytes are still Latin-1 (as UTF-8 they would not decode back).
        latin = [line for line in original.splitlines() if not line.isascii()]
        assert all(line in output.splitlines() for line in latin)
        pct = [line for line in original.splitlines() if line.startswith(b"%")]
        assert [line for line in output.splitlines() if line.startswith(b"%")] == pct


def test_pbn_output_to_standard_output_is_the_same_bytes(capsysbinary, tmp_path):
    from ddsolver.cli import main
    path = FIXTURES / "latin1-charset.pbn"
    target = tmp_path / "out.pbn"
    assert main(["table", str(path), "--format", "pbn", "-o", str(target), "-q", "-j", "1",
                 "--tt-mb", "8"]) == 0
    capsysbinary.readouterr()
    assert main(["table", str(path), "--format", "pbn", "-q", "-j", "1", "--tt-mb", "8"]) == 0
    out = capsysbinary.readouterr().out
    assert out == target.read_bytes()
    assert strip_added(out) == path.read_bytes()  # Latin-1 bytes, not re-encoded


def test_several_files_are_each_given_back_in_turn(run_cli, tmp_path):
    comment = tmp_path / "comment.pbn"
    comment.write_bytes(b"{only a comment}\r\n")
    bad = tmp_path / "bad.pbn"
    bad.write_bytes(b'[Board "9"]\n[Deal "N:AKQ.. - - -"]\n\n[Board "10"\n\n{end}\n')
    files = [FIXTURES / "bridgecomposer-crlf.pbn", comment, FIXTURES / "latin1-charset.pbn",
             bad, TABLES]
    target = tmp_path / "out.pbn"
    status, _, err = run_cli("table", *files, "--format", "pbn", "-o", target, "-j", "1",
                             "--tt-mb", "8", "-q")
    assert status == 1 and f"{bad}:2: board 9: " in err and f"{bad}:4: " in err
    # Each file's bytes, and an empty line (in the style of the line before) after a
    # file that does not end with one: the first file ends with one, the comment with
    # "\r\n", the Latin-1 file and the bad one with "\n".
    crlf, comment_, latin1, bad_, tables = (strip_added(p.read_bytes()) for p in files)
    assert crlf.endswith(b"\r\n\r\n") and latin1.endswith(b"]\n")
    expected = crlf + comment_ + b"\r\n" + latin1 + b"\n" + bad_ + b"\n" + tables
    assert strip_added(target.read_bytes()) == expected
    # The same file twice comes back twice.
    status, _, _ = run_cli("table", comment, TABLES, comment, "--format", "pbn", "-o", target,
                           "-j", "1", "--tt-mb", "8", "-q")
    assert strip_added(target.read_bytes()) == (
        comment.read_bytes() + b"\r\n" + TABLES.read_bytes() + b"\r\n" + comment.read_bytes())


# ---- the real corpus -------------------------------------------------------------------------

SOLVED_FOR_REAL = ("dominicprice__endplay/example1.pbn", "Anakin100100__zaobridge/example.pbn")


def test_real_files_solved_for_real_get_the_right_tags(run_cli, tmp_path):
    files = real_pbn_files()
    for name in SOLVED_FOR_REAL:
        path = REAL / name
        assert path in files
        target = tmp_path / "out.pbn"
        status, _, err = run_cli("table", path, "--format", "pbn", "-o", target, "-j", "1",
                                 "--tt-mb", "8", "-q")
        assert (status, err) == (0, ""), path
        output = target.read_bytes()
        assert_given_back(path.read_bytes(), output, path)
        games = games_of(output)
        assert games
        for game in games:
            check_tags(game)


def test_every_real_file_is_given_back_with_only_the_tags_added(run_cli, tmp_path,
                                                                monkeypatch):
    files = real_pbn_files()
    assert len(files) == 40
    asked = fixed_solver(monkeypatch)
    tagged = 0
    for path in files:
        target = tmp_path / "out.pbn"
        status, _, err = run_cli("table", path, "--format", "pbn", "-o", target, "-q")
        output = target.read_bytes()
        assert_given_back(path.read_bytes(), output, path)
        tagged += output.count(b"[OptimumResultTable ")
        for line in err.splitlines():  # the games that cannot be solved, each placed once
            assert line.startswith(f"{path}:") and line.count(str(path)) == 1, line
    # Every board with a full deal is tagged; each deal is solved once, not once a table.
    assert tagged > 3000
    assert sum(asked) < tagged / 2


# ---- several tables of one board -------------------------------------------------------------

def test_tables_of_one_board_are_solved_once_and_each_tagged(run_cli, tmp_path, monkeypatch):
    solved: list[int] = []
    real = ddsolver.batch.iter_dd_tables

    def counting(deals, **kw):
        solved.extend(range(len(deals)))
        return real(deals, **kw)
    monkeypatch.setattr(ddsolver.batch, "iter_dd_tables", counting)
    # One board a chunk: the other tables of a board come in later chunks.
    monkeypatch.setattr(ddsolver.batch, "CHUNK_PER_JOB", 1)
    target = tmp_path / "out.pbn"
    status, _, err = run_cli("table", TABLES, "--format", "pbn", "-o", target, "-j", "1",
                             "--tt-mb", "8")
    assert status == 0
    assert re.fullmatch(r"ddsolver: 6 boards \(2 deals, 6 tables\) solved in .*\n", err)
    assert len(solved) == 2
    games = games_of(target.read_bytes())
    assert [g.board for g in games] == [1, 1, 1, 2, 2, 2]
    assert [g.deal_inherited for g in games] == [False, False, True, False, True, True]
    for game in games:
        check_tags(game)


def test_text_summary_counts_boards_deals_and_tables(run_cli):
    status, out, err = run_cli("table", TABLES, "-j", "1", "--tt-mb", "8")
    # The text shows each deal once, naming the lines of its tables (the game of each
    # table starts a line before its Board tag).
    assert status == 0 and out.count(f"{TABLES} board ") == 2
    assert out.count("played at 3 tables (lines ") == 2
    assert "(lines 1, 18, 35)" in out
    assert "6 boards (2 deals, 6 tables) solved" in err


def test_text_shows_a_deal_once_however_its_tables_are_ordered(run_cli, tmp_path):
    """A results file in round order (board 1, board 2, board 1 again): the second table
    of board 1 points back to its block instead of printing the table again; every other
    format keeps one record per table."""
    from cardgames import pbn
    games = list(pbn.load_path(TABLES))
    ordered = tmp_path / "rounds.pbn"
    ordered.write_text(pbn.dumps([games[0], games[3], games[1], games[4]]))
    status, out, _ = run_cli("table", ordered, "-j", "1", "--tt-mb", "8", "-q")
    assert status == 0
    blocks = out.split("\n\n")
    assert [b.splitlines()[0].split("  ")[0].rsplit(" ", 1)[-1] for b in blocks] == \
        ["1", "2", "1", "2"]
    lines = [g.line for g in pbn.load_path(ordered)]
    assert out.count("Par ") == 2
    assert out.count(f"(line {lines[2]}): another table of the deal shown above at line "
                     f"{lines[0]}\n") == 1
    assert out.count(f"(line {lines[3]}): another table of the deal shown above at line "
                     f"{lines[1]}\n") == 1
    status, csv_out, _ = run_cli("table", ordered, "-j", "1", "--tt-mb", "8", "-q",
                                 "--format", "csv")
    assert status == 0 and len(csv_out.splitlines()) == 5


def test_play_of_every_table_is_analysed(run_cli):
    status, out, err = run_cli("play", TABLES, "-j", "1", "--tt-mb", "8")
    assert status == 0
    assert [line.split()[3] for line in out.splitlines() if " board " in line] == \
        ["4H", "3NT", "4SX", "2H", "3H", "2S"]
    assert "6 boards (2 deals, 6 tables) analysed" in err


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.boards = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "section" and "board" in (attrs.get("class") or "").split():
            self.boards += 1


def _html(run_cli, tmp_path, *files) -> _Ids:
    target = tmp_path / "report.html"
    status, _, err = run_cli("report", *files, "--html", target, "-j", "1", "--tt-mb", "8")
    assert status == 0, err
    parser = _Ids()
    parser.feed(target.read_text(encoding="utf-8"))
    return parser


def test_report_shows_each_deal_once(run_cli, tmp_path):
    page = _html(run_cli, tmp_path, TABLES)
    assert page.boards == 2
    assert sorted(page.ids) == ["board-1", "board-2"]


def test_report_ids_are_unique_when_a_board_number_comes_twice(run_cli, tmp_path):
    other = tmp_path / "other.pbn"  # board 1 again, another deal
    other.write_text('[Board "1"]\n[Deal "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 '
                     'T7.A762.QJ853.K4 543.T98.76.QT872"]\n')
    page = _html(run_cli, tmp_path, TABLES, other, TABLES)
    assert page.boards == 5  # two deals, one more, and the first two again (another file)
    assert len(page.ids) == len(set(page.ids)) == 5


# ---- error lines name their place once -------------------------------------------------------

DEAL = "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"
BAD_GAMES = f"""[Board "1"]
[Dealer "N"]
[Deal "{DEAL[:-1]}A"]
[Declarer "S"]
[Contract "4S"]
[Play "W"]
C2 C3 CK C5

[Board "2"]
[Dealer "N"]
[Deal "N:AKQ2.KJ3.T94.A65 - T7.A762.QJ853.K4 543.T98.76.QT872"]
[Declarer "S"]
[Contract "4S"]
[Play "W"]
C2 CJ CK C5

[Board "3"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "{DEAL}"]
[Declarer "##N"]
[Contract "4S"]
[Auction "N"]
1S Pass 2S Pass
4S Pass Pass Pass

[Board "4"]
[Dealer "S"]
[Vulnerable "None"]
[Deal "{DEAL}"]
[Contract "4S"]
[Auction "S"]
1S Pass 2S Pass
4S Pass Pass Pass
"""


def _check_placed_once(err: str, path: Path, expected: int) -> list[str]:
    lines = [line.removeprefix("ddsolver leads: ") for line in err.splitlines()
             if str(path) in line]
    assert len(lines) == expected, err
    for line in lines:
        assert re.match(rf"{re.escape(str(path))}:\d+: board \d+: ", line), line
        assert line.count(str(path)) == 1 and not re.search(r": \d+: ", line), line
    return lines


@pytest.mark.parametrize("command", ["table", "play", "leads"])
def test_each_error_line_names_its_place_once(run_cli, tmp_path, command):
    path = tmp_path / "bad.pbn"
    path.write_text(BAD_GAMES)
    extra = ["--samples", "20", "--seed", "1", "-q"] if command == "leads" else ["-q"]
    status, _, err = run_cli(command, path, "-j", "1", "--tt-mb", "8", *extra)
    assert status == 1
    lines = _check_placed_once(err, path, 2)
    assert lines[0].startswith(f"{path}:3: board 1: impossible deal")
    if command == "play":
        assert lines[1].startswith(f"{path}:11: board 2: cannot analyse the play of an "
                                   "incomplete deal")
    if command == "leads":  # Declarer inherited through ##: the game's line
        assert lines[1].startswith(f"{path}:27: board 4: the Declarer tag says N")
