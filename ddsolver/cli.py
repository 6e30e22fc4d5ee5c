"""The ``ddsolver`` command line: one subcommand per job.

* ``ddsolver table FILE.pbn [FILE ...]``: the double-dummy table and par of every board of
  PBN files, as text, CSV, JSON, or the PBN files themselves with the standard tags added.
* ``ddsolver report FILE.pbn --html OUT.html``: printable hand records
  (:mod:`ddsolver.cli_report`).
* ``ddsolver play FILE.pbn``: trick-by-trick double-dummy analysis of the play recorded in
  the files, the costly cards marked (:mod:`ddsolver.cli_play`).
* ``ddsolver leads --hand ... --contract 4S --declarer S``: Monte-Carlo opening-lead
  analysis of one hand, or of every board of PBN files that names a contract
  (:mod:`ddsolver.cli_leads`).
* ``ddsolver solve DEAL --strain S --declarer N``: one deal given on the command line.

Exit status: 0 when everything went well, 1 when some boards could not be read or solved
(each one is reported on stderr as ``FILE:LINE: reason`` and the run goes on), when a
board's output is incomplete (a bad Dealer or Vulnerable tag: the table without par,
reported the same way) or when no input file holds any game (``FILE: no games``), 2 for
a usage error (a bad option, an input file that cannot be read, a malformed deal on the
command line), 130 when interrupted (Ctrl-C), 143 when stopped by SIGTERM.  User errors
are reported in one plain line, never with a traceback.

Large files stream: boards are read a chunk at a time, solved on ``--jobs`` threads (one
solver each), and written in board order as they finish, so memory does not grow with
the size of the file.  With ``--db FILE`` the tables also go to a results store
(:mod:`ddsolver.store`) as they are solved, so that an interrupted run can go on
(``--resume``) and a deal is never solved twice.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from typing import Any, TextIO

from cardgames import pbn
from cardgames.cards import Seat, Strain
from cardgames.errors import CardgamesError, PBNError
from cardgames.hands import Deal
from cardgames.play import Position
from cardgames.scoring import Vulnerability, board_dealer, board_vulnerability

from .par import ParResult, par
from .solver import DEFAULT_TT_MB, MAX_TT_MB, DDTable, Solver, iter_dd_tables
from .store import ResultStore, StoreError, deal_key

__all__ = ["main", "build_parser", "Board", "solve_boards", "UsageError"]

PROG = "ddsolver"

# Strains in the order hand records print them (no-trump first), and their column names.
_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
_TABLE_COLUMNS = [f"{d.letter}_{s.letter}" for d in Seat for s in _STRAINS]

#: Boards read and solved together per worker thread: the bound on what is held in memory
#: (the boards of one chunk and their results) while keeping every thread busy.
CHUNK_PER_JOB = 128


class UsageError(Exception):
    """A bad command line: reported in one line, exit status 2."""


# ---------------------------------------------------------------------------
# Boards: what `table`, `report` and `play` read from a PBN file
# ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Board:
    """One game of an input file, with what the solver needs from it.

    ``deal`` is None only for a game kept so it can be written back (``--format pbn``)
    although it cannot be solved; such a game has been reported already.  A game that
    could not be read at all has ``game`` None too, and ``raw`` its text as it stood in
    the file (None if it was too long to keep).  ``warnings`` are the problems that leave
    the board's output incomplete (a bad Dealer or Vulnerable tag: no par), each as
    ``FILE:LINE: reason``.
    """

    source: str
    line: int | None          # where its game starts in the file
    number: int | None        # the Board tag
    dealer: Seat | None       # Dealer tag, else by board number
    vulnerable: Vulnerability | None  # Vulnerable tag, else by board number
    deal: Deal | None
    game: pbn.Game | None = None
    raw: str | None = None
    warnings: tuple[str, ...] = ()


def _where(source: str, line: int | None) -> str:
    return f"{source}:{line}" if line is not None else source


def _board(game: pbn.Game, source: str) -> Board:
    """The board of a game, or a :class:`CardgamesError` saying why it cannot be solved."""
    deal = game.deal  # PBNError (with its line) for a malformed deal
    tag = game.get("Deal")
    line = tag.line if tag is not None and tag.line is not None else game.line
    number = game.board
    label = f"board {number}: " if number is not None else ""
    if deal is None:
        why = "no Deal tag" if tag is None else f"the deal is unknown ({tag.value!r})"
        raise PBNError(f"{label}{why}", line=line, source=source)
    try:
        deal.require_complete()
    except CardgamesError as err:
        raise PBNError(f"{label}cannot solve an incomplete deal: {err}", line=line,
                       source=source) from None
    # Only par needs the dealer and the vulnerability: a bad tag costs the board its par,
    # not its table.
    warnings: list[str] = []

    def tag_value(read: Callable[[], Any], what: str) -> tuple[Any, bool]:
        try:
            return read(), True
        except PBNError as err:
            warnings.append(f"{_where(source, err.line if err.line is not None else game.line)}"
                            f": {label}{err.message}; par is left out (it needs the {what})")
            return None, False

    dealer, dealer_ok = tag_value(lambda: game.dealer, "dealer")
    vul_text, vul_ok = tag_value(lambda: game.vulnerable, "vulnerability")
    vulnerable = Vulnerability.parse(vul_text) if vul_text is not None else None
    if number is not None and number >= 1:
        if dealer is None and dealer_ok:
            dealer = board_dealer(number)
        if vulnerable is None and vul_ok:
            vulnerable = board_vulnerability(number)
    return Board(source, game.line, number, dealer, vulnerable, deal, game,
                 warnings=tuple(warnings))


class _Inputs:
    """The games of the input files, read lazily; what the PBN writer needs to copy the
    files' layout (directives such as ``% PBN 2.1``, the empty lines around them, the
    closing comments) is kept per file.

    ``report`` gets every board that could not be read or solved; ``warn`` (by default
    ``report``) every problem that leaves an output incomplete without losing a board
    (a bad Dealer tag: no par), and, when no input file holds any game, one
    ``FILE: no games`` line per file.  :attr:`warnings` counts the warnings.
    """

    def __init__(self, paths: Iterable[str], report: Callable[[str], None], *,
                 keep_unsolvable: bool = False, warn: Callable[[str], None] | None = None):
        self.paths = list(paths)
        self.report = report
        self._warn = warn or report
        self.keep_unsolvable = keep_unsolvable
        self.directives: dict[str, list[str]] = {}
        self.epilogues: dict[str, list[str]] = {}
        self.heads: dict[str, list[str]] = {}
        self._readers: dict[str, pbn.PBNReader] = {}
        self.warnings = 0        # warnings given (each leaves some output incomplete)
        self.without_par = 0     # boards solved but left without par by a bad tag
        self.no_games = False    # set when every file has been read and none held a game

    def warn(self, message: str) -> None:
        self.warnings += 1
        self._warn(message)

    def blank_lines_at_end(self, path: str) -> int:
        """How many empty lines end the file (1, the usual layout, if it was not read)."""
        reader = self._readers.get(path)
        return 1 if reader is None else reader.blank_lines_at_end

    def games(self, *, with_errors: bool = False
              ) -> Iterator[tuple[str, pbn.Game | PBNError]]:
        """Every game that reads, with its file; syntax errors are reported and skipped,
        or with ``with_errors`` passed on in their place in the file (the error's ``raw``
        is the game's text).  When no file holds a game, says so for each file."""
        held = 0  # games, good or bad, in all the files
        for path in self.paths:
            skipped: list[PBNError] = []

            def on_error(err: PBNError) -> None:
                message = str(err)
                if self.keep_unsolvable and err.raw is None:
                    message += " (no empty line ends this game: too long to copy, left out)"
                self.report(message)
                skipped.append(err)

            # validate=False: each command checks only the tags it needs, so a malformed
            # Auction does not cost a board its table.
            with pbn.load_path(path, strict=False, validate=False, on_error=on_error) as reader:
                self.directives[path] = reader.directives
                self.epilogues[path] = reader.epilogue
                self.heads[path] = reader.head
                self._readers[path] = reader
                games = iter(reader)
                while True:
                    game = next(games, None)
                    # The errors of the games before this one (or before the end).
                    bad, skipped[:] = list(skipped), []
                    reader.errors.clear()  # they are ours now: memory stays flat
                    held += len(bad)
                    if with_errors:
                        for err in bad:
                            yield path, err
                    if game is None:
                        break
                    held += 1
                    yield path, game
        if held == 0:
            self.no_games = True
            for path in self.paths:
                self.warn(f"{path}: no games")

    def boards(self) -> Iterator[Board]:
        """The solvable boards, in order; every other game is reported (as
        ``FILE:LINE: reason``) and skipped, or with ``keep_unsolvable`` passed on with
        ``deal`` None so that it can be written back: a game that did not read at all
        with ``game`` None and its text as ``raw``."""
        for path, game in self.games(with_errors=self.keep_unsolvable):
            if isinstance(game, PBNError):
                yield Board(path, game.line, None, None, None, None, None, raw=game.raw)
                continue
            try:
                board = _board(game, path)
            except CardgamesError as err:
                self.report(str(err) if isinstance(err, PBNError)
                            else f"{_where(path, game.line)}: {err}")
                if self.keep_unsolvable:
                    yield Board(path, game.line, None, None, None, None, game)
                continue
            if board.warnings:
                self.without_par += 1
                for message in board.warnings:
                    self.warn(message)
            yield board


def _count_deals(paths: Iterable[str]) -> int:
    """A quick count of ``[Deal`` lines, for the progress bar's total."""
    count = 0
    for path in paths:
        with open(path, "rb") as fp:
            count += sum(1 for raw in fp if raw.lstrip().startswith(b"[Deal "))
    return count


def _chunks(items: Iterator[Board], size: int) -> Iterator[list[Board]]:
    while True:
        chunk = list(islice(items, size))
        if not chunk:
            return
        yield chunk


@dataclass(frozen=True, slots=True)
class Solved:
    """A board with its table (None for a game passed through unsolved) and where the
    table came from."""

    board: Board
    table: DDTable | None
    stored: bool = False      # found in the results store rather than solved now


def solve_boards(boards: Iterator[Board], *, jobs: int, tt_mb: int,
                 store: ResultStore | None = None) -> Iterator[Solved]:
    """The tables of the boards, in input order, as they finish.

    Boards are taken a chunk at a time (``CHUNK_PER_JOB * jobs``), which bounds memory.
    Deals found in ``store`` are not solved again; every table solved is written to the
    store at once (committed within a second, and by the caller on an interrupt).  A deal
    that occurs twice in a chunk is solved once.
    """
    for chunk in _chunks(boards, CHUNK_PER_JOB * jobs):
        keys = [None if b.deal is None else deal_key(b.deal) for b in chunk]
        ready: dict[str, DDTable] = {}
        if store is not None:
            ready.update(store.tables(k for k in keys if k is not None))
        from_store = set(ready)
        todo: dict[str, Deal] = {}
        for board, key in zip(chunk, keys):
            if key is not None and key not in ready and key not in todo:
                todo[key] = board.deal  # type: ignore[assignment]
        todo_keys = list(todo)
        next_index = 0

        def drain() -> Iterator[Solved]:
            # Hold tables that finish early until the boards before them are out, so the
            # output is in file order.
            nonlocal next_index
            while next_index < len(chunk):
                key = keys[next_index]
                if key is not None and key not in ready:
                    return
                board = chunk[next_index]
                next_index += 1
                yield Solved(board, None if key is None else ready[key], key in from_store)

        yield from drain()
        for index, table in iter_dd_tables(list(todo.values()), jobs=jobs, tt_mb=tt_mb):
            key = todo_keys[index]
            ready[key] = table
            if store is not None:
                store.put_table(key, table)
            yield from drain()
        if store is not None:
            store.commit()


# ---------------------------------------------------------------------------
# Par
# ---------------------------------------------------------------------------

def _par(board: Board, table: DDTable) -> ParResult | None:
    """Par of a board, or None where it does not apply: an ending, or dealer or
    vulnerability unknown (no Dealer/Vulnerable tag and no board number)."""
    if board.deal is None or board.deal.cards_per_hand != 13:
        return None
    if board.dealer is None or board.vulnerable is None:
        return None
    return par(table, vul=board.vulnerable, dealer=board.dealer)


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


def optimum_score_tag(result: ParResult) -> str:
    """The ``OptimumScore`` value: the side that scores, then the score (``NS 620``,
    ``EW 100``; ``NS 0`` for a deal passed out)."""
    side = "EW" if result.score < 0 else "NS"
    return f"{side} {abs(result.score)}"


def par_contract_tag(result: ParResult) -> str:
    """The ``ParContract`` value: each par contract as declarer(s), contract, ``X`` when
    doubled and the result, separated by ``"; "``: ``NS 4H+1``, ``E 4SX-2; W 4SX-2``...
    ``Pass`` for a deal passed out."""
    if not result.contracts:
        return "Pass"
    parts = []
    for c in result.contracts:
        seats = "".join(s.letter for s in c.declarers)
        mark = f"{c.result:+d}" if c.result else "="
        parts.append(f"{seats} {c.level}{c.strain.letter}{'X' if c.doubled else ''}{mark}")
    return "; ".join(parts)


#: The header of the standard ``OptimumResultTable`` (PBN 2.1): three columns, the last
#: two right-aligned in a width of 2.
RESULT_TABLE_HEADER = "Declarer;Denomination\\2R;Result\\2R"


def result_table_lines(table: DDTable) -> list[str]:
    """The rows of an ``OptimumResultTable``: ``N NT 13``, ``N  S 12``... declarers N E S
    W, denominations NT S H D C."""
    return [f"{d.letter} {s.letter:>2} {table.tricks(d, s):>2}" for d in Seat for s in _STRAINS]


# ---------------------------------------------------------------------------
# Output formats of `table`
# ---------------------------------------------------------------------------

class _Writer:
    """Writes one record per board."""

    def __init__(self, out: TextIO, inputs: _Inputs):
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


class _TextWriter(_Writer):
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


class _CsvWriter(_Writer):
    """A header row, then one row per board: file, board, dealer, vulnerable, deal, the 20
    table entries as ``<declarer>_<strain>`` columns, par_score (North-South's view) and
    par_contracts (space separated; both empty where par does not apply)."""

    def begin(self) -> None:
        self.csv = csv.writer(self.out, lineterminator="\n")
        self.csv.writerow(["file", "board", "dealer", "vulnerable", "deal", *_TABLE_COLUMNS,
                           "par_score", "par_contracts"])

    def write(self, board: Board, table: DDTable | None, par: ParResult | None) -> None:
        assert board.deal is not None and table is not None
        row = [board.source, "" if board.number is None else board.number,
               _dealer_text(board), _vul_text(board), board.deal.to_pbn()]
        row += [table.tricks(d, s) for d in Seat for s in _STRAINS]
        row += ["", ""] if par is None else [par.score, " ".join(map(str, par.contracts))]
        self.csv.writerow(row)


class _JsonWriter(_Writer):
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


class _PbnWriter(_Writer):
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


_WRITERS: dict[str, type[_Writer]] = {"text": _TextWriter, "csv": _CsvWriter,
                                      "json": _JsonWriter, "pbn": _PbnWriter}


# ---------------------------------------------------------------------------
# Shared by the batch commands
# ---------------------------------------------------------------------------

def progress_bar(total: int | None, enabled: bool, *, unit: str = "boards",
                 desc: str | None = None):
    """A tqdm bar on stderr counting ``unit`` (boards), with boards/s (off when ``enabled``
    is false: ``--quiet``, or stderr is not a terminal)."""
    from tqdm import tqdm
    try:
        size = os.get_terminal_size(sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):
        size = os.terminal_size((0, 0))
    # A pseudo-terminal that reports a size of 0 x 0 (`script`, some CI runners) would get
    # no bar at all: tqdm hides bars below the last row.  Assume 80 x 24 there.
    sized = size.columns > 0 and size.lines > 0
    # rate_noinv_fmt: always "boards/s", never tqdm's inverted "s/board" for slow rates.
    return tqdm(total=total, unit=f" {unit}", desc=desc, file=sys.stderr, disable=not enabled,
                dynamic_ncols=sized, ncols=None if sized else 80, nrows=None if sized else 24,
                leave=False,
                bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, "
                           "{rate_noinv_fmt}]")


def check_readable(paths: Iterable[str]) -> None:
    """A usage error for an input that is missing, unreadable or a directory."""
    for path in paths:
        if os.path.isdir(path):
            raise UsageError(f"{path} is a directory, not a PBN file")
        try:
            with open(path, "rb"):
                pass
        except OSError as err:
            raise UsageError(f"cannot read {path}: {err.strerror or err}") from None


def open_output(path: str | None, inputs: Iterable[str] = ()) -> tuple[TextIO, bool]:
    """Standard output (``None`` or ``-``) or the file, and whether to close it.

    :raises UsageError: if the file cannot be written, or is one of ``inputs`` (opening
        it for writing would empty it before it is read).
    """
    if path is None or path == "-":
        return sys.stdout, False
    target = os.path.realpath(path)
    if any(os.path.realpath(p) == target for p in inputs):
        raise UsageError(f"{path} is an input file: writing it would destroy it")
    try:
        return open(path, "w", encoding="utf-8", newline=""), True
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror or err}") from None


def open_store(args: argparse.Namespace) -> ResultStore | None:
    """The results store of ``--db`` (``--resume`` requires it to exist), or None."""
    if getattr(args, "resume", False) and not args.db:
        raise UsageError("--resume needs --db FILE: the store the interrupted run wrote")
    if not args.db:
        return None
    try:
        return ResultStore(args.db, must_exist=args.resume)
    except StoreError as err:
        raise UsageError(str(err)) from None


class Interrupted(Exception):
    """Ctrl-C during a batch, after what was solved was saved: exit status 130."""


def interrupted_message(done: int, store: ResultStore | None, kind: str = "tables") -> str:
    """What a user needs to know after Ctrl-C: what was kept and how to go on.  ``kind``
    is what the command stores: ``"tables"`` or ``"traces"`` (play analyses)."""
    boards = f"{done} board{'s' * (done != 1)}"
    if store is None:
        return (f"{PROG}: interrupted after {boards}; nothing is kept between runs without "
                "--db FILE")
    noun = {"tables": ("table", "tables"), "traces": ("play analysis", "play analyses")}[kind]
    return (f"{PROG}: interrupted after {boards}; {store.added} new "
            f"{noun[store.added != 1]} saved in {store.path} ({store.count(kind)} in all). "
            "Run the same command with --resume to go on from there.")


def add_batch_options(parser: argparse.ArgumentParser, *, store: str = "tables") -> None:
    """The options every batch command shares: jobs, TT size, quiet, and the store of
    ``store`` (what the command saves there: ``"tables"`` or ``"play analyses"``)."""
    parser.add_argument("-j", "--jobs", type=_positive_int, default=None, metavar="N",
                        help="solver threads (default: all cores, here "
                             f"{os.cpu_count() or 1})")
    parser.add_argument("--tt-mb", type=_tt_mb, default=DEFAULT_TT_MB, metavar="MB",
                        help="transposition-table size per thread in MB "
                             f"(default: {DEFAULT_TT_MB})")
    if store:
        parser.add_argument("--db", metavar="FILE",
                            help=f"results store (SQLite): {store} found there are not "
                                 f"worked out again, and every new one is saved there at "
                                 "once")
        parser.add_argument("--resume", action="store_true",
                            help="go on with an interrupted run: like --db, but FILE must "
                                 "exist already")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bar and no summary (errors are still reported)")


def summary_line(what: str, done: int, elapsed: float, failed: int,
                 stored: int = 0, store: ResultStore | None = None, *,
                 without_par: int = 0) -> str:
    rate = done / elapsed if elapsed > 0 else 0.0
    text = (f"{PROG}: {done} board{'s' * (done != 1)} {what} in {elapsed:.1f} s "
            f"({rate:.2f} boards/s)")
    if store is not None:
        text += f"; {stored} from {store.path}, {done - stored} solved now"
    if failed:
        text += f"; {failed} could not be {what} (reported above)"
    if without_par:
        text += f"; {without_par} without par (reported above)"
    return text


# ---------------------------------------------------------------------------
# `ddsolver table`
# ---------------------------------------------------------------------------

def run_table(args: argparse.Namespace) -> int:
    check_readable(args.files)
    show_progress = not args.quiet and sys.stderr.isatty()
    jobs = args.jobs or os.cpu_count() or 1
    store = open_store(args)
    if store is not None and args.resume and not args.quiet:
        print(f"{PROG}: resuming with {store.count()} tables in {store.path}", file=sys.stderr)
    try:
        out, close = open_output(args.output, args.files)
    except UsageError:
        if store is not None:
            store.close()
        raise

    failed = 0
    done = 0
    stored = 0
    started = time.perf_counter()
    progress = progress_bar(_count_deals(args.files) if show_progress else None, show_progress)

    def report(message: str) -> None:
        nonlocal failed
        failed += 1
        progress.write(message, file=sys.stderr)

    def warn(message: str) -> None:
        progress.write(message, file=sys.stderr)

    writer_class = _WRITERS[args.format]
    inputs = _Inputs(args.files, report, warn=warn,
                     keep_unsolvable=getattr(writer_class, "keeps_unsolvable", False))
    writer = writer_class(out, inputs)
    try:
        writer.begin()
        for item in solve_boards(inputs.boards(), jobs=jobs, tt_mb=args.tt_mb, store=store):
            board, table = item.board, item.table
            writer.write(board, table, None if table is None else _par(board, table))
            if table is not None:
                done += 1
                stored += item.stored
                progress.update(1)
            out.flush()
        writer.end()
        out.flush()
    except KeyboardInterrupt:
        progress.close()
        if store is not None:
            store.commit()
        print(interrupted_message(done, store), file=sys.stderr)
        raise Interrupted() from None
    finally:
        progress.close()
        if close:
            out.close()
        if store is not None:
            store.close()

    if not args.quiet:
        print(summary_line("solved", done, time.perf_counter() - started, failed, stored,
                           store, without_par=inputs.without_par), file=sys.stderr)
    return 1 if failed or inputs.warnings else 0


# ---------------------------------------------------------------------------
# `ddsolver solve`
# ---------------------------------------------------------------------------

def run_solve(args: argparse.Namespace) -> int:
    try:
        deal = Deal.from_pbn(args.deal, require_complete=True)
        strain = Strain.parse(args.strain)
        declarer = Seat.parse(args.declarer)
        played = args.played.replace(",", " ").split() if args.played else []
        position = Position(deal, strain, declarer.lho, played)
        solver = Solver()
        ns_to_come = solver.solve_position(deal, strain, declarer.lho, position.played)
    except CardgamesError as err:
        raise UsageError(str(err)) from None

    to_come = ns_to_come if declarer.is_ns else position.tricks_left - ns_to_come
    won = position.tricks_won(declarer)
    side = "N-S" if declarer.is_ns else "E-W"
    if played:
        print(f"Declarer {declarer.letter}, {strain.letter}, after {len(played)} "
              f"card{'s' * (len(played) != 1)}: {won + to_come} tricks for {side} "
              f"({won} won, {to_come} to come)")
    else:
        print(f"Declarer {declarer.letter}, {strain.letter}: {won + to_come} tricks")

    if args.cards:
        if position.is_terminal:
            raise UsageError("the play is over: no card left to score")
        scores = solver.card_scores(deal, strain, declarer.lho, position.played)
        mover = position.to_move
        mover_side = "N-S" if mover.is_ns else "E-W"
        print(f"{mover.letter} to play; tricks for {mover_side} from here, "
              f"the trick in progress included:")
        for card, tricks in scores.items():
            print(f"  {card}  {tricks}")
    return 0


# ---------------------------------------------------------------------------
# The parser
# ---------------------------------------------------------------------------

_TABLE_EXAMPLES = """\
examples:
  ddsolver table data/session.pbn
  ddsolver table data/session.pbn data/problems.pbn --format csv -o tables.csv
  ddsolver table data/session.pbn --format pbn -o session-dd.pbn
  ddsolver table big.pbn --format json --jobs 2 --quiet > tables.json
  ddsolver table big.pbn --format csv -o big.csv --db big.sqlite
  ddsolver table big.pbn --format csv -o big.csv --db big.sqlite --resume   # after Ctrl-C

Par is worked out for every full deal from its Dealer and Vulnerable tags (or, without
them, from the board number).  --format pbn writes the input back with the standard
OptimumResultTable, OptimumScore ("NS 620", "EW 100") and ParContract tags added; other
tags, sections, comments and the layout of the file are kept, and a game that cannot be
read or solved is written back as it was, without the new tags.

With --db FILE every table is saved in FILE as soon as it is solved, and deals already
in FILE are not solved again: after Ctrl-C (exit status 130), SIGTERM (143) or a crash,
the same command with --resume goes on where the run stopped and writes the whole
output again.

Boards that cannot be read or solved are reported on stderr as FILE:LINE: reason and
skipped; the exit status is then 1.  A bad Dealer or Vulnerable tag costs a board only
its par (reported the same way, exit status 1).  Input files without any game are
reported as FILE: no games (exit status 1).  The text format prints, for each board,
declarer's tricks with declarers down and strains across.
"""

_SOLVE_EXAMPLES = """\
examples:
  ddsolver solve "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872" \\
      --strain NT --declarer S
  ddsolver solve "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872" \\
      --strain NT --declarer S --cards
  ddsolver solve "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872" \\
      --strain H --declarer S --played "C2 C5 CJ CK" --cards

The opening lead is made by declarer's left-hand opponent.  The deal may be an ending
(fewer than 13 cards in each hand).
"""

_MAIN_EXAMPLES = """\
examples:
  ddsolver table data/session.pbn
  ddsolver table data/session.pbn --format pbn -o session-dd.pbn --db session.sqlite
  ddsolver report data/session.pbn --html session.html
  ddsolver play data/played.pbn
  ddsolver solve "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872" \\
      --strain NT --declarer S

`ddsolver COMMAND --help` describes each command.  Exit status: 0 all went well, 1 some
boards could not be read or solved or came out incomplete (each reported as FILE:LINE:
reason), or no input file held a game, 2 a usage error,
130 interrupted by Ctrl-C, 143 stopped by SIGTERM (both save what was solved first).
"""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _tt_mb(text: str) -> int:
    """``--tt-mb``: a whole number of megabytes, 1 to MAX_TT_MB."""
    value = _positive_int(text)
    if value > MAX_TT_MB:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_TT_MB} (MB), got {value}")
    return value


def _version() -> str:
    from . import __version__
    return __version__


def build_parser() -> argparse.ArgumentParser:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog=PROG, formatter_class=formatter, epilog=_MAIN_EXAMPLES,
        description="A double-dummy bridge solver: tables and par for PBN files, hand\n"
                    "records, play analysis, single deals.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    table = commands.add_parser(
        "table", formatter_class=formatter, epilog=_TABLE_EXAMPLES,
        help="the double-dummy table and par of every board of PBN files",
        description="Solve every board of one or more PBN files: the double-dummy table\n"
                    "(declarer's tricks for each declarer and strain) and par, written in\n"
                    "board order as the boards finish.")
    table.add_argument("files", nargs="+", metavar="FILE.pbn", help="PBN files to read")
    table.add_argument("--format", choices=sorted(_WRITERS), default="text",
                       help="output format (default: text)")
    table.add_argument("-o", "--output", metavar="FILE",
                       help="write the results to FILE instead of standard output")
    add_batch_options(table)
    table.set_defaults(run=run_table)

    # The other batch commands live in their own modules, which import this one.
    from . import cli_leads, cli_play, cli_report
    cli_report.add_parser(commands, formatter)
    cli_play.add_parser(commands, formatter)
    cli_leads.add_parser(commands, formatter)

    solve = commands.add_parser(
        "solve", formatter_class=formatter, epilog=_SOLVE_EXAMPLES,
        help="declarer's double-dummy tricks on one deal",
        description="Solve one deal given on the command line: declarer's tricks with best\n"
                    "play, optionally after some cards have been played, and with --cards\n"
                    "the value of every card the player to move may play.")
    solve.add_argument("deal", metavar="DEAL",
                       help='a PBN deal string, e.g. "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 '
                            'T7.A762.QJ853.K4 543.T98.76.QT872"')
    solve.add_argument("-s", "--strain", required=True, metavar="S",
                       help="trumps: S, H, D, C or NT")
    solve.add_argument("-d", "--declarer", required=True, metavar="SEAT",
                       help="declarer: N, E, S or W")
    solve.add_argument("--played", metavar="CARDS", default="",
                       help='cards played so far from the opening lead, e.g. "C2 C5 CJ CK"')
    solve.add_argument("--cards", action="store_true",
                       help="also print the value of every legal card of the player to move")
    solve.set_defaults(run=run_solve)
    return parser


class _Terminated(KeyboardInterrupt):
    """SIGTERM, turned into the same clean stop as Ctrl-C (exit status 143)."""


def _on_sigterm(signum, frame) -> None:
    raise _Terminated()


@contextmanager
def _sigterm_as_interrupt():
    """While a command runs, SIGTERM (a batch scheduler, ``kill``) stops it like Ctrl-C:
    what was solved is saved before the process exits.  Only the main thread may set a
    handler; elsewhere (an embedding program) nothing changes."""
    if threading.current_thread() is not threading.main_thread() or \
            not hasattr(signal, "SIGTERM"):
        yield
        return
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 some boards failed, 2 usage,
    130 interrupted by Ctrl-C, 143 stopped by SIGTERM).

    argparse itself exits with status 2 on a malformed command line.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        with _sigterm_as_interrupt():
            try:
                return args.run(args)
            except Interrupted as stop:
                # The command has said what was saved.
                return 143 if isinstance(stop.__context__, _Terminated) else 130
    except UsageError as err:
        print(f"{PROG} {args.command}: error: {err}", file=sys.stderr)
        return 2
    except StoreError as err:  # the results store failed during the run (disk full...)
        print(f"{PROG} {args.command}: error: {err}", file=sys.stderr)
        return 2
    except MemoryError as err:  # a --tt-mb the system cannot give
        print(f"{PROG} {args.command}: error: {err or 'out of memory'} "
              f"(a smaller --tt-mb, or fewer --jobs, needs less)", file=sys.stderr)
        return 2
    except _Terminated:
        print(f"{PROG}: terminated", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`ddsolver table ... | head`): stop quietly.
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 1
