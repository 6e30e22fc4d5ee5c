"""The output formats of ``ddsolver table``: each board's double-dummy table and par as
text, CSV, JSON, or the input PBN written back with the standard tags added.

A writer takes the boards in file order, one at a time (:meth:`TableWriter.write`), between
:meth:`~TableWriter.begin` and :meth:`~TableWriter.end`, so a large file streams.
:data:`WRITERS` maps each format's name to its writer.
"""

from __future__ import annotations

import csv
import json
from typing import Any, TextIO

from cardgames import pbn
from cardgames.cards import Seat

from ..boards import Board, Inputs
from ..par import ParResult
from ..solver import STRAIN_ORDER, DDTable
from .tags import RESULT_TABLE_HEADER, optimum_score_tag, par_contract_tag, result_table_lines

__all__ = ["TableWriter", "TextWriter", "CsvWriter", "JsonWriter", "PbnWriter", "WRITERS",
           "TABLE_COLUMNS", "par_record", "par_text"]

#: The CSV columns of the table: ``<declarer>_<strain>``, declarers N E S W, strains NT S H D C.
TABLE_COLUMNS = [f"{d.letter}_{s.letter}" for d in Seat for s in STRAIN_ORDER]


def par_record(result: ParResult | None) -> dict | None:
    """``{"score": int (North-South's view), "contracts": ["4SN=", ...]}`` or None."""
    if result is None:
        return None
    return {"score": int(result.score), "contracts": [str(c) for c in result.contracts]}


def par_text(result: ParResult) -> str:
    """``+620 (4SN=)``, ``-100 (5DNx-1)``, ``0 (passed out)``: North-South's view."""
    score = result.score
    contracts = ", ".join(str(c) for c in result.contracts) or "passed out"
    return f"{'+' if score > 0 else ''}{score} ({contracts})"


class TableWriter:
    """Writes one record per board.  ``inputs`` is what the boards are read from (the PBN
    writer copies the files' layout from it)."""

    #: Whether the writer wants the games that cannot be solved too (to write them back):
    #: the reader is made with ``keep_unsolvable`` set to this.
    keeps_unsolvable = False

    def __init__(self, out: TextIO, inputs: Inputs):
        self.out = out
        self.inputs = inputs

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
    """A block per board: where it came from, dealer and vulnerability, the deal, the
    table (declarers down, strains across), and the par line for full deals."""

    def begin(self) -> None:
        self.first = True

    def write(self, board: Board, table: DDTable | None, par: ParResult | None) -> None:
        assert board.deal is not None and table is not None
        number = board.number if board.number is not None else "?"
        head = (f"{board.source} board {number}  dealer {_dealer_text(board)}  "
                f"vul {_vul_text(board)}")
        n = board.deal.cards_per_hand
        if n != 13:
            head += f"  ({n}-card ending)"
        lines = [head, board.deal.to_pbn(), str(table)]
        if par is not None:
            lines.append(f"Par {par_text(par)}")
        self.out.write(("" if self.first else "\n") + "\n".join(lines) + "\n")
        self.first = False


class CsvWriter(TableWriter):
    """A header row, then one row per board: file, board, dealer, vulnerable, deal, the 20
    table entries as ``<declarer>_<strain>`` columns, par_score (North-South's view) and
    par_contracts (space separated; both empty where par does not apply)."""

    def begin(self) -> None:
        self.csv = csv.writer(self.out, lineterminator="\n")
        self.csv.writerow(["file", "board", "dealer", "vulnerable", "deal", *TABLE_COLUMNS,
                           "par_score", "par_contracts"])

    def write(self, board: Board, table: DDTable | None, par: ParResult | None) -> None:
        assert board.deal is not None and table is not None
        row = [board.source, "" if board.number is None else board.number,
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
    """The input games written back, with ``OptimumResultTable`` (every solved board),
    ``OptimumScore`` and ``ParContract`` (full deals whose par is known) added, or
    replaced where the game had them.  Everything else is kept as read: the other tags,
    their sections and comments, the comments between games, the top of the first input
    file (its directives and the empty lines around them), each file's closing comments
    and the empty lines that end the last one.  ``#`` inheritance is written resolved.
    A game that cannot be solved is written back without the new tags, and one that
    does not read at all (a syntax error) exactly as it stood in the file; both are
    reported, as they are with every format."""

    keeps_unsolvable = True

    def begin(self) -> None:
        self.source: str | None = None
        self.started = False
        self.gap = False  # something was written after which an empty line is due
        self.last: str | None = None  # the file of the last thing written

    def _put(self, text: str, source: str) -> None:
        """Write a game or a block of comments (``text`` ends with a newline), after the
        empty line that separates it from what came before."""
        if self.gap:
            self.out.write("\n")
        self.out.write(text)
        self.gap = True
        self.last = source

    def _start(self, source: str) -> None:
        # The top of the file as it was: its directives and empty lines; directives met
        # later in the first game go after the others.
        lines = list(self.inputs.heads.get(source) or [])
        directives = self.inputs.directives.get(source) or []
        at_top = [i for i, line in enumerate(lines) if line.startswith("%")]
        later = directives[len(at_top):]
        if not at_top:
            lines[:0] = later or list(pbn.DEFAULT_DIRECTIVES)
        elif later:
            lines[at_top[-1] + 1:at_top[-1] + 1] = later
        self.out.write("".join(line + "\n" for line in lines))
        self.started = True

    def _close_through(self, stop: int) -> None:
        """Write the closing comments of the files from the current one up to, not
        including, ``self.inputs.paths[stop]`` (files without a game included)."""
        paths = self.inputs.paths
        start = paths.index(self.source) if self.source in paths else 0
        for path in paths[start:stop]:
            blocks = self.inputs.epilogues.get(path) or []
            if blocks:
                self._put("\n\n".join(blocks) + "\n", path)

    def write(self, board: Board, table: DDTable | None, par: ParResult | None) -> None:
        if not self.started:
            self._start(board.source)
            self.source = self.inputs.paths[0]
        if board.source != self.source:
            self._close_through(self.inputs.paths.index(board.source))
            self.source = board.source
        game = board.game
        if game is None:  # did not read: its text as it was (reported already)
            if board.raw is not None:
                self._put(board.raw, board.source)
            return
        if table is not None:
            # Appended in this order where absent: the two one-line tags, then the table.
            if par is not None:
                game.set_tag("OptimumScore", optimum_score_tag(par))
                game.set_tag("ParContract", par_contract_tag(par))
            game.set_section("OptimumResultTable", RESULT_TABLE_HEADER,
                             result_table_lines(table))
        self._put(game.to_pbn(), board.source)

    def end(self) -> None:
        if not self.started:  # no game at all: the directives and comments still go out
            self._start(self.inputs.paths[0] if self.inputs.paths else "")
        self._close_through(len(self.inputs.paths))
        if self.last is not None:  # end as the file of the last game or comments ended
            self.out.write("\n" * self.inputs.blank_lines_at_end(self.last))


#: The writer of each ``--format``.
WRITERS: dict[str, type[TableWriter]] = {"text": TextWriter, "csv": CsvWriter,
                                         "json": JsonWriter, "pbn": PbnWriter}
