"""The output formats of ``ddsolver table``: each board's double-dummy table and par as
text, CSV, JSON, or the input PBN written back with the standard tags added.

A writer takes the boards in file order, one at a time (:meth:`TableWriter.write`), between
:meth:`~TableWriter.begin` and :meth:`~TableWriter.end`, so a large file streams.
:data:`WRITERS` maps each format's name to its writer.
"""

from __future__ import annotations

import csv
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, BinaryIO, TextIO

from cardgames import pbn
from cardgames.cards import Seat

from ..boards import Board, Inputs, label_of, located, where
from ..par import ParResult
from ..solver import STRAIN_ORDER, DDTable
from .csv_cells import text_cell
from .tags import (
    RESULT_TABLE_HEADER,
    double_dummy_tricks_tag,
    optimum_score_tag,
    par_contract_tag,
    result_table_lines,
    table_entries,
)

__all__ = ["TableWriter", "TextWriter", "CsvWriter", "JsonWriter", "PbnWriter", "WRITERS",
           "TABLE_COLUMNS", "par_record", "par_text"]

#: The CSV columns of the table: ``<declarer>_<strain>``, declarers N E S W, strains NT S H D C.
TABLE_COLUMNS = [f"{d.letter}_{s.letter}" for d in Seat for s in STRAIN_ORDER]


def par_record(result: ParResult | None) -> dict | None:
    """``{"score": int (North-South's view), "contracts": ["4SN=", ...]}`` or None."""
    if result is None:
        return None
    d = result.to_dict()
    return {"score": d["score"], "contracts": d["contracts"]}


def par_text(result: ParResult) -> str:
    """``+620 (4SN=)``, ``-100 (5DNx-1)``, ``0 (passed out)``: North-South's view."""
    score = result.score
    contracts = ", ".join(str(c) for c in result.contracts) or "passed out"
    return f"{'+' if score > 0 else ''}{score} ({contracts})"


class TableWriter:
    """Writes one record per board.  ``inputs`` is what the boards are read from (the PBN
    writer copies the files' layout from it).  ``notice`` is told, as ``FILE:LINE:
    reason``, what a writer changes of the input beyond what it adds, which costs no
    board anything (the PBN writer replacing an input's table that disagreed with the
    solver); by default it is a warning of ``inputs`` (:meth:`Inputs.warn`)."""

    #: Whether the writer wants the games that cannot be solved too (to write them back):
    #: the reader is made with ``keep_unsolvable`` set to this.
    keeps_unsolvable = False
    #: Whether the writer writes bytes (to a binary ``out``) rather than text.
    binary = False
    out: TextIO

    def __init__(self, out: Any, inputs: Inputs, *,
                 notice: Callable[[str], None] | None = None):
        self.out = out
        self.inputs = inputs
        self.notice = notice if notice is not None else inputs.warn

    def begin(self) -> None:
        pass

    def write(self, board: Board, table: DDTable | None, par: ParResult | None) -> None:
        raise NotImplementedError

    def end(self) -> None:
        pass


def _vul_text(board: Board) -> str:
    return str(board.vulnerable) if board.vulnerable is not None else "?"


def _dealer_text(board: Board) -> str:
    return board.dealer.letter if board.dealer is not None else "?"


class TextWriter(TableWriter):
    """A block per deal of a board: where it came from, dealer and vulnerability, the deal,
    the table (declarers down, strains across), and the par line for full deals.

    A board played at several tables (a results file: the same board and deal, game after
    game, :attr:`~cardgames.pbn.Game.same_deal_as`) is one block, which names its tables
    by their lines in the file; a table of it met again further on, after other boards,
    is one line pointing back to the block.  (The same deal under another board number
    is another board, with its own dealer and vulnerability: a block of its own.)"""

    #: Boards whose block is remembered, to point back to it: the most recent ones.
    REMEMBERED = 4096

    def begin(self) -> None:
        self.first = True
        # The block being gathered (written when a board of another deal comes): its
        # head, the rest of its lines, its key, and the file lines of its tables.
        self.head: str | None = None
        self.rest: list[str] = []
        self.key: tuple[int, int, str | None] | None = None
        self.tables: list[int | None] = []
        # key -> the file line of its block's first table
        self.shown: OrderedDict[tuple[int, int, str | None], int | None] = OrderedDict()

    def write(self, board: Board, table: DDTable | None, par: ParResult | None) -> None:
        assert board.deal is not None and table is not None
        game = board.game
        number = board.name or "?"
        key = None
        if game is not None and game.index is not None:
            first = game.index if game.same_deal_as is None else game.same_deal_as
            key = (board.file, first, (game.tag("Board") or "").strip() or None)
            if key == self.key:
                self.tables.append(board.line)
                return
            if key in self.shown:
                self._flush()
                first_line = self.shown[key]
                above = f"line {first_line}" if first_line is not None else "its first table"
                self._put([f"{board.source} board {number}  (line {board.line}): another "
                           f"table of the deal shown above at {above}"])
                return
        self._flush()
        head = (f"{board.source} board {number}  dealer {_dealer_text(board)}  "
                f"vul {_vul_text(board)}")
        n = board.deal.cards_per_hand
        if n != 13:
            head += f"  ({n}-card ending)"
        self.head, self.key, self.tables = head, key, [board.line]
        self.rest = [board.deal.to_pbn(), str(table)]
        if par is not None:
            self.rest.append(f"Par {par_text(par)}")
        if key is not None:
            self.shown[key] = board.line
            if len(self.shown) > self.REMEMBERED:
                self.shown.popitem(last=False)

    def end(self) -> None:
        self._flush()

    def _flush(self) -> None:
        if self.head is None:
            return
        lines = [self.head]
        if len(self.tables) > 1:
            where = ", ".join("?" if line is None else str(line) for line in self.tables)
            lines.append(f"played at {len(self.tables)} tables (lines {where})")
        self._put(lines + self.rest)
        self.head, self.key = None, None

    def _put(self, lines: list[str]) -> None:
        self.out.write(("" if self.first else "\n") + "\n".join(lines) + "\n")
        self.first = False


class CsvWriter(TableWriter):
    """A header row, then one row per board: file, board, dealer, vulnerable, deal, the 20
    table entries as ``<declarer>_<strain>`` columns, par_score (North-South's view) and
    par_contracts (space separated; both empty where par does not apply).  The file name
    is guarded against spreadsheet formulas (:mod:`~ddsolver.formats.csv_cells`)."""

    def begin(self) -> None:
        self.csv = csv.writer(self.out, lineterminator="\n")
        self.csv.writerow(["file", "board", "dealer", "vulnerable", "deal", *TABLE_COLUMNS,
                           "par_score", "par_contracts"])

    def write(self, board: Board, table: DDTable | None, par: ParResult | None) -> None:
        assert board.deal is not None and table is not None
        row = [text_cell(board.source), "" if board.number is None else board.number,
               _dealer_text(board), _vul_text(board), board.deal.to_pbn()]
        row += [table.tricks(d, s) for d in Seat for s in STRAIN_ORDER]
        row += ["", ""] if par is None else [par.score, " ".join(map(str, par.contracts))]
        self.csv.writerow(row)


class JsonWriter(TableWriter):
    """One JSON array, written an element at a time.  Each board is an object: file, line,
    board, dealer, vulnerable, deal, ``dd`` (declarer -> strain -> tricks, the layout of
    ``DDTable.to_dict``) and ``par`` (``{"score", "contracts"}``, or null where par does
    not apply)."""

    def begin(self) -> None:
        self.out.write("[")
        self.count = 0

    def write(self, board: Board, table: DDTable | None, par: ParResult | None) -> None:
        assert board.deal is not None and table is not None
        record: dict[str, Any] = {
            "file": board.source,
            "line": board.line,
            "board": board.number,
            "dealer": None if board.dealer is None else board.dealer.letter,
            "vulnerable": None if board.vulnerable is None else str(board.vulnerable),
            "deal": board.deal.to_pbn(),
            "dd": table.to_dict(),
            "par": par_record(par),
        }
        self.out.write(("\n  " if self.count == 0 else ",\n  ") + json.dumps(record))
        self.count += 1

    def end(self) -> None:
        self.out.write("\n]\n")


class PbnWriter(TableWriter):
    """The input files given back, each in turn, byte for byte, with ``OptimumResultTable``
    (every solved board), ``OptimumScore`` and ``ParContract`` (full deals whose par is
    known) added, or replaced in place where the game had them
    (:func:`cardgames.pbn.write_back`), and a ``DoubleDummyTricks`` the game has replaced
    in place too (it is not added).  Every other byte stays as it was and where it was:
    line ends (CRLF, LF, mixed), encoding (a Latin-1 file stays Latin-1, and a file
    mixing Latin-1 and UTF-8 lines keeps each line's bytes), escapes, ``#`` values,
    comments, ``%`` lines, empty lines.  A game that cannot be solved, or does not read at
    all, is written back exactly as it was (both are reported, as they are with every
    format).  A LIN file's boards come out as PBN games, with the same tags added.
    Writes bytes: ``out`` is a binary stream.

    The output never contradicts itself: a game holding one of these tags twice has the
    first replaced and the others removed, and a board left without par (a bad
    Vulnerable tag) loses the input's ``OptimumScore`` and ``ParContract``.  What the input said that the
    output does not is told through ``notice``, ``FILE:LINE: reason``, one line a board:
    a table of the input that disagreed with the solver, par tags removed.

    Files are given back one after the other; where the output so far does not end with
    an empty line (a file whose last game is not followed by one, or whose last line has
    no line end), a line end in its style and an empty line are put between, or the next
    file's first game would be read as part of its last."""

    keeps_unsolvable = True
    binary = True
    out: BinaryIO  # type: ignore[assignment]

    def begin(self) -> None:
        self.file: int | None = None  # the input file whose games are being written
        self.converted: set[int | None] = set()  # LIN files whose PBN header is written
        self.last: int | None = None  # the input file whose bytes were written last
        self.recent = b""  # the output's last bytes (at most _RECENT of them)
        self.eol = b"\n"  # the output's last line end

    def _put(self, file: int, data: bytes) -> None:
        """Write bytes of input file ``file``, after the bytes between files if the file
        changes (see the class)."""
        if not data:
            return
        if self.last is not None and file != self.last:
            gap = _between_files(self.recent, self.eol)
            if gap:
                self.out.write(gap)
                self.recent = (self.recent + gap)[-_RECENT:]
        self.out.write(data)
        self.recent = (self.recent + data[-_RECENT:])[-_RECENT:]
        self.eol = _last_eol(data) or self.eol
        self.last = file

    def _through(self, file: int) -> None:
        """Finish the files before ``file`` (the one being written and any without a game:
        their bytes after the last game, the whole file for one without games)."""
        start = 0 if self.file is None else self.file
        for done in range(start, file):
            self._put(done, self.inputs.tail(done))
        self.file = file

    def write(self, board: Board, table: DDTable | None, par: ParResult | None) -> None:
        if board.file != self.file:
            self._through(board.file)
        game = board.game
        if game is None:  # did not read: its bytes as they were (reported already)
            self._put(board.file, board.original or b"")
            return
        tags: list[pbn.Tag] = []
        remove: list[str] = []
        if table is not None:
            # Added in this order where absent: the two one-line tags, then the table.
            if par is not None:
                tags += [pbn.Tag("OptimumScore", optimum_score_tag(par)),
                         pbn.Tag("ParContract", par_contract_tag(par))]
            else:
                remove += ["OptimumScore", "ParContract"]
            tags.append(pbn.Tag("OptimumResultTable", RESULT_TABLE_HEADER,
                                tuple(result_table_lines(table))))
        if game.original is None:
            # Read from a LIN file: nothing to give back byte for byte, so the board is
            # written as a PBN game (the file's first one after the PBN header).
            if self.file not in self.converted:
                self.converted.add(self.file)
                self._put(board.file, b"% PBN 2.1\n% EXPORT\n")
            for tag in tags:
                game.set_section(tag.name, tag.value, tag.section)
            self._put(board.file, (game.to_pbn().rstrip("\n") + "\n\n").encode("utf-8"))
            return
        if table is not None:
            ddt = _in_file(game, "DoubleDummyTricks")
            if ddt:
                upper = any(c in "ABCD" for c in ddt[0].value)
                tags.append(pbn.Tag("DoubleDummyTricks", double_dummy_tricks_tag(table, upper)))
        try:
            data = pbn.write_back(game, tags, remove=remove)
        except ValueError as err:  # a tag that cannot go in (it never should): as it was
            self.inputs.warn(located(err, board.source, board.line, label_of(game))
                             + "; the game is written back as it was, without the tags")
            data = game.original
        else:
            if table is not None:   # (what was replaced or removed, once it has been)
                self._tell(board, table, par is None)
        self._put(board.file, data)

    def _tell(self, board: Board, table: DDTable, without_par: bool) -> None:
        """Say what of the input the board's output does not keep: a table that disagreed
        with the solver (or did not read), par tags taken out with par.  One line a
        board, at the first tag it names."""
        game = board.game
        assert game is not None
        said: list[str] = []
        lines: list[int] = []
        wrong: dict[str, None] = {}     # the names of the tables that disagreed...
        unread: dict[str, None] = {}    # ... and of those that did not read
        example = ""
        tables = _in_file(game, "OptimumResultTable") + _in_file(game, "DoubleDummyTricks")
        for tag in sorted(tables, key=lambda t: t.line or 0):
            entries = table_entries(tag)
            if entries is None:
                unread[tag.name] = None
            else:
                bad = next(((d, s, n) for d, s, n in entries if table.tricks(d, s) != n), None)
                if bad is None:
                    continue
                wrong[tag.name] = None
                if not example:
                    d, s, n = bad
                    example = f" ({d.letter} {s.letter}: {n}, solved {table.tricks(d, s)})"
            lines.append(tag.line or 0)
        if wrong:
            said.append(f"the input's {' and '.join(wrong)} disagreed with the "
                        f"solver{example}")
        if unread:
            said.append(f"the input's {' and '.join(unread)} did not read as a table of "
                        "tricks")
        if said:
            said = ["; ".join(said) + "; replaced"]
        gone = _in_file(game, "OptimumScore") + _in_file(game, "ParContract")
        if without_par and gone:
            lines.append(gone[0].line or 0)
            said.append("par is left out, so the input's "
                        + " and ".join(dict.fromkeys(t.name for t in gone)) + " are removed")
        if said:
            self.notice(f"{where(board.source, min(lines) or board.line)}: {label_of(game)}"
                        + "; ".join(said))

    def end(self) -> None:
        self._through(len(self.inputs.paths))


#: How many of the output's last bytes :class:`PbnWriter` keeps to tell whether they end
#: with an empty line: whether the last line (or its last part) is blank, and ended.
_RECENT = 256


def _last_eol(data: bytes) -> bytes | None:
    """The last line end in ``data`` (CRLF, LF or CR), or None."""
    k = max(data.rfind(b"\n"), data.rfind(b"\r"))
    if k < 0:
        return None
    if data[k:k + 1] == b"\n":
        return b"\r\n" if data[k - 1:k] == b"\r" else b"\n"
    return b"\r"


def _between_files(recent: bytes, eol: bytes) -> bytes:
    """What goes between the output so far, ending with ``recent``, and the next input
    file: nothing if it ends with an empty line (or is empty); else ``eol`` (its last
    line end) to end its last line if open, and one to make an empty line."""
    if not recent:
        return b""
    last = recent.splitlines(keepends=True)[-1]
    if not last.strip():  # an empty line, ended or not
        return b"" if last.endswith((b"\n", b"\r")) else eol
    return eol if last.endswith((b"\n", b"\r")) else eol + eol


def _in_file(game: pbn.Game, name: str) -> list[pbn.Tag]:
    """The game's tags called ``name`` that stand in its file (not inherited)."""
    return [t for t in game.tags if t.name == name and t.line is not None]


#: The writer of each ``--format``.
WRITERS: dict[str, type[TableWriter]] = {"text": TextWriter, "csv": CsvWriter,
                                         "json": JsonWriter, "pbn": PbnWriter}
