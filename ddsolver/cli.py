"""The ``ddsolver`` command line: one subcommand per job.

* ``ddsolver table FILE.pbn [FILE ...]``: the double-dummy table of every board of PBN
  files (and par, once :func:`ddsolver.par` exists), as text, CSV or JSON.
* ``ddsolver solve DEAL --strain S --declarer N``: one deal given on the command line.

Exit status: 0 when everything went well, 1 when some boards could not be read or solved
(each one is reported on stderr as ``FILE:LINE: reason`` and the run goes on), 2 for a
usage error (a bad option, an input file that cannot be read, a malformed deal on the
command line).  User errors are reported in one plain line, never with a traceback.

Large files stream: boards are read a chunk at a time, solved on ``--jobs`` threads (one
solver each), and written in board order as they finish, so memory does not grow with
the size of the file.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from dataclasses import dataclass
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, TextIO

from cardgames import pbn
from cardgames.cards import Seat, Strain
from cardgames.errors import CardgamesError, PBNError
from cardgames.hands import Deal
from cardgames.play import Position
from cardgames.scoring import Vulnerability, board_dealer, board_vulnerability

from .solver import DEFAULT_TT_MB, DDTable, Solver, iter_dd_tables

__all__ = ["main"]

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
# Boards: what `table` reads from a PBN file
# ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Board:
    """One solvable board of an input file."""

    source: str
    line: int | None          # where its game starts in the file
    number: int | None        # the Board tag
    dealer: Seat | None       # Dealer tag, else by board number
    vulnerable: Vulnerability | None  # Vulnerable tag, else by board number
    deal: Deal


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
    dealer = game.dealer
    vul_text = game.vulnerable
    vulnerable = Vulnerability.parse(vul_text) if vul_text is not None else None
    if number is not None and number >= 1:
        dealer = dealer if dealer is not None else board_dealer(number)
        vulnerable = vulnerable if vulnerable is not None else board_vulnerability(number)
    return Board(source, game.line, number, dealer, vulnerable, deal)


def _read_boards(paths: Iterable[str], report: Callable[[str], None]) -> Iterator[Board]:
    """The solvable boards of the files, in order; every other game is reported (as
    ``FILE:LINE: reason``) and skipped."""
    for path in paths:
        def on_error(err: PBNError) -> None:
            report(str(err))
        # validate=False: only the tags a table needs are checked (by _board), so a
        # malformed Auction or Play section does not cost the board its table.
        with pbn.load_path(path, strict=False, validate=False, on_error=on_error) as reader:
            for game in reader:
                try:
                    yield _board(game, path)
                except CardgamesError as err:
                    report(str(err) if isinstance(err, PBNError)
                           else f"{_where(path, game.line)}: {err}")


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


# ---------------------------------------------------------------------------
# Par: computed when ddsolver has a `par` function (a later piece of work)
# ---------------------------------------------------------------------------

def _par_function() -> Callable[..., Any] | None:
    import ddsolver
    return getattr(ddsolver, "par", None)


def _par(par: Callable[..., Any] | None, board: Board, table: DDTable) -> dict | None:
    """``{"score": int (North-South's view), "contracts": [str, ...]}``, or None where par
    does not apply: no par function yet, an ending, or dealer or vulnerability unknown."""
    if par is None or board.deal.cards_per_hand != 13:
        return None
    if board.dealer is None or board.vulnerable is None:
        return None
    result = par(table, vul=board.vulnerable.name.lower(), dealer=board.dealer.letter)
    return {"score": int(result.score), "contracts": [str(c) for c in result.contracts]}


# ---------------------------------------------------------------------------
# Output formats
# ---------------------------------------------------------------------------

class _Writer:
    """Writes one record per board; ``has_par`` says whether par fields exist at all."""

    def __init__(self, out: TextIO, has_par: bool):
        self.out = out
        self.has_par = has_par

    def begin(self) -> None:
        pass

    def write(self, board: Board, table: DDTable, par: dict | None) -> None:
        raise NotImplementedError

    def end(self) -> None:
        pass


def _vul_text(board: Board) -> str:
    return str(board.vulnerable) if board.vulnerable is not None else "?"


def _dealer_text(board: Board) -> str:
    return board.dealer.letter if board.dealer is not None else "?"


def _par_text(par: dict) -> str:
    score = par["score"]
    contracts = ", ".join(par["contracts"]) or "passed out"
    return f"{'+' if score > 0 else ''}{score} ({contracts})"


class _TextWriter(_Writer):
    """A block per board: where it came from, dealer and vulnerability, the deal, the
    table (declarers down, strains across), and the par line when par is available."""

    def __init__(self, out: TextIO, has_par: bool):
        super().__init__(out, has_par)
        self.first = True

    def write(self, board: Board, table: DDTable, par: dict | None) -> None:
        number = board.number if board.number is not None else "?"
        head = (f"{board.source} board {number}  dealer {_dealer_text(board)}  "
                f"vul {_vul_text(board)}")
        n = board.deal.cards_per_hand
        if n != 13:
            head += f"  ({n}-card ending)"
        lines = [head, board.deal.to_pbn(), str(table)]
        if par is not None:
            lines.append(f"Par {_par_text(par)}")
        self.out.write(("" if self.first else "\n") + "\n".join(lines) + "\n")
        self.first = False


class _CsvWriter(_Writer):
    """A header row, then one row per board: file, board, dealer, vulnerable, deal, the 20
    table entries as ``<declarer>_<strain>`` columns, and par_score, par_contracts (space
    separated) when par is available."""

    def begin(self) -> None:
        self.csv = csv.writer(self.out, lineterminator="\n")
        header = ["file", "board", "dealer", "vulnerable", "deal", *_TABLE_COLUMNS]
        if self.has_par:
            header += ["par_score", "par_contracts"]
        self.csv.writerow(header)

    def write(self, board: Board, table: DDTable, par: dict | None) -> None:
        row = [board.source, "" if board.number is None else board.number,
               _dealer_text(board), _vul_text(board), board.deal.to_pbn()]
        row += [table.tricks(d, s) for d in Seat for s in _STRAINS]
        if self.has_par:
            row += ["", ""] if par is None else [par["score"], " ".join(par["contracts"])]
        self.csv.writerow(row)


class _JsonWriter(_Writer):
    """One JSON array, written an element at a time.  Each board is an object: file, line,
    board, dealer, vulnerable, deal, and ``dd`` (declarer -> strain -> tricks, the layout
    of ``DDTable.to_dict``); plus ``par`` (``{"score", "contracts"}`` or null where it does
    not apply) when par is available."""

    def begin(self) -> None:
        self.out.write("[")
        self.count = 0

    def write(self, board: Board, table: DDTable, par: dict | None) -> None:
        record: dict[str, Any] = {
            "file": board.source,
            "line": board.line,
            "board": board.number,
            "dealer": None if board.dealer is None else board.dealer.letter,
            "vulnerable": None if board.vulnerable is None else str(board.vulnerable),
            "deal": board.deal.to_pbn(),
            "dd": table.to_dict(),
        }
        if self.has_par:
            record["par"] = par
        self.out.write(("\n  " if self.count == 0 else ",\n  ") + json.dumps(record))
        self.count += 1

    def end(self) -> None:
        self.out.write("\n]\n")


_WRITERS: dict[str, type[_Writer]] = {"text": _TextWriter, "csv": _CsvWriter, "json": _JsonWriter}


# ---------------------------------------------------------------------------
# `ddsolver table`
# ---------------------------------------------------------------------------

def _progress(total: int | None, enabled: bool):
    from tqdm import tqdm
    # rate_noinv_fmt: always "boards/s", never tqdm's inverted "s/board" for slow rates.
    return tqdm(total=total, unit=" boards", file=sys.stderr, disable=not enabled,
                dynamic_ncols=True, leave=False,
                bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, "
                           "{rate_noinv_fmt}]")


def _check_readable(paths: Iterable[str]) -> None:
    for path in paths:
        if os.path.isdir(path):
            raise UsageError(f"{path} is a directory, not a PBN file")
        try:
            with open(path, "rb"):
                pass
        except OSError as err:
            raise UsageError(f"cannot read {path}: {err.strerror or err}") from None


def run_table(args: argparse.Namespace) -> int:
    _check_readable(args.files)
    show_progress = not args.quiet and sys.stderr.isatty()
    jobs = args.jobs or os.cpu_count() or 1
    par = _par_function()

    if args.output is None:
        out, close = sys.stdout, False
    else:
        try:
            out = open(args.output, "w", encoding="utf-8", newline="")
        except OSError as err:
            raise UsageError(f"cannot write {args.output}: {err.strerror or err}") from None
        close = True

    failed = 0
    solved = 0
    started = time.perf_counter()
    progress = _progress(_count_deals(args.files) if show_progress else None, show_progress)

    def report(message: str) -> None:
        nonlocal failed
        failed += 1
        progress.write(message, file=sys.stderr)

    writer = _WRITERS[args.format](out, has_par=par is not None)
    try:
        writer.begin()
        boards = _read_boards(args.files, report)
        for chunk in _chunks(boards, CHUNK_PER_JOB * jobs):
            # Tables come back as they finish; hold the early ones until the boards before
            # them are written, so the output is in file order.
            ready: dict[int, DDTable] = {}
            next_index = 0
            for index, table in iter_dd_tables([b.deal for b in chunk], jobs=jobs,
                                               tt_mb=args.tt_mb):
                ready[index] = table
                while next_index in ready:
                    board = chunk[next_index]
                    table = ready.pop(next_index)
                    writer.write(board, table, _par(par, board, table))
                    next_index += 1
                    solved += 1
                    progress.update(1)
                out.flush()
        writer.end()
        out.flush()
    finally:
        progress.close()
        if close:
            out.close()

    if not args.quiet:
        elapsed = time.perf_counter() - started
        rate = solved / elapsed if elapsed > 0 else 0.0
        summary = f"{PROG}: {solved} board{'s' * (solved != 1)} solved in {elapsed:.1f} s " \
                  f"({rate:.2f} boards/s)"
        if failed:
            summary += f"; {failed} could not be solved (reported above)"
        print(summary, file=sys.stderr)
    return 1 if failed else 0


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
  ddsolver table big.pbn --format json --jobs 2 --quiet > tables.json

Boards that cannot be read or solved are reported on stderr as FILE:LINE: reason and
skipped; the exit status is then 1.  The text format prints, for each board, declarer's
tricks with declarers down and strains across.
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
  ddsolver solve "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872" \\
      --strain NT --declarer S

`ddsolver COMMAND --help` describes each command.
"""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("ddsolver")
    except Exception:  # not installed: running from a source tree
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog=PROG, formatter_class=formatter, epilog=_MAIN_EXAMPLES,
        description="A double-dummy bridge solver: tables for PBN files, single deals.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    table = commands.add_parser(
        "table", formatter_class=formatter, epilog=_TABLE_EXAMPLES,
        help="the double-dummy table of every board of PBN files",
        description="Solve every board of one or more PBN files: the double-dummy table\n"
                    "(declarer's tricks for each declarer and strain), written in board\n"
                    "order as the boards finish.")
    table.add_argument("files", nargs="+", metavar="FILE.pbn", help="PBN files to read")
    table.add_argument("--format", choices=sorted(_WRITERS), default="text",
                       help="output format (default: text)")
    table.add_argument("-o", "--output", metavar="FILE",
                       help="write the results to FILE instead of standard output")
    table.add_argument("-j", "--jobs", type=_positive_int, default=None, metavar="N",
                       help="solver threads (default: all cores, here "
                            f"{os.cpu_count() or 1})")
    table.add_argument("--tt-mb", type=_positive_int, default=DEFAULT_TT_MB, metavar="MB",
                       help="transposition-table size per thread in MB "
                            f"(default: {DEFAULT_TT_MB})")
    table.add_argument("-q", "--quiet", action="store_true",
                       help="no progress bar and no summary (errors are still reported)")
    table.set_defaults(run=run_table)

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


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 some boards failed, 2 usage).

    argparse itself exits with status 2 on a malformed command line.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.run(args)
    except UsageError as err:
        print(f"{PROG} {args.command}: error: {err}", file=sys.stderr)
        return 2
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
