"""Boards read from PBN files: what the batch commands of the command line (``ddsolver
table``, ``report``, ``play``, ``leads``, ``advise``) work on, as a library.

* :class:`Inputs` reads the games of PBN files lazily, reports the ones that cannot be read
  (``FILE:LINE: reason``) through a callback and goes on, and keeps each file's bytes after
  its last game for a writer giving the files back;
* :func:`read_board` makes the :class:`Board` a table is solved for, :func:`played_board`
  the :class:`PlayedBoard` whose play is analysed; the facts of a board (dealer,
  vulnerability, contract, auction, lead, players) are read by :mod:`cardgames.facts`, the
  one reader every command uses;
* :func:`where`, :func:`located` and :func:`label_of` say where a problem is, the same way
  in every command.

Solving and analysing the boards in batches is :mod:`ddsolver.batch`; how the results look
is the business of :mod:`ddsolver.formats`.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from cardgames import lin, pbn
from cardgames.cards import Seat, Strain
from cardgames.errors import CardgamesError, PBNError
from cardgames.facts import BoardFacts
from cardgames.hands import Deal
from cardgames.play import Position
from cardgames.scoring import Contract, Vulnerability

from . import views

__all__ = ["Board", "read_board", "Inputs", "PlayedBoard", "played_board", "played_boards",
           "count_lines", "where", "located", "board_name", "game_label", "label_of"]


# ---------------------------------------------------------------------------
# Boards: what `table` and `report` read from a PBN file
# ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Board:
    """One game of an input file, with what the solver needs from it.

    ``deal`` is None only for a game kept so it can be written back (``--format pbn``)
    although it cannot be solved; such a game has been reported already.  A game that
    could not be read at all has ``game`` None too, and ``raw`` its text as it stood in
    the file (None if it was too long to keep).  ``warnings`` are the problems that leave
    the board's output incomplete (a bad Dealer or Vulnerable tag: no par), each as
    ``FILE:LINE: reason``.  ``original`` is, for a game that did not read, the bytes it
    took in its file (what ``--format pbn`` writes back).
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
    original: bytes | None = None
    file: int = 0             # the index of its file among the inputs (Inputs.paths)

    def _repr_html_(self) -> str:
        """The board as an HTML hand diagram, for Jupyter
        (:func:`ddsolver.formats.html_repr.board_html`, through :mod:`ddsolver.views`)."""
        return views.show("Board.html", self)

    @property
    def name(self) -> str | None:
        """What a reader calls the board (:func:`board_name`): ``"7"``, ``"4-1"``, None."""
        return board_name(self.game) if self.game is not None else \
            None if self.number is None else str(self.number)

    @property
    def first_of_deal(self) -> bool:
        """False for another table of a deal met earlier in the same file (the game's
        :attr:`~cardgames.pbn.Game.same_deal_as` is set): tables are boards, distinct deals
        the boards for which this is true."""
        return self.game is None or self.game.same_deal_as is None


def where(source: str, line: int | None) -> str:
    """``FILE:LINE``, or ``FILE`` where the line is not known: how a problem is located.
    A control character in the file name (a line break) is shown escaped, so the message
    stays on one line."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in source):
        source = source.encode("unicode_escape").decode("ascii")
    return f"{source}:{line}" if line is not None else source


def board_name(game: pbn.Game) -> str | None:
    """What a reader calls the board: its number (``"01"`` is ``"1"``), else the text of a
    ``Board`` tag that is no number (``"4-1"``, as BridgeComposer numbers a chapter's
    deals); None without one (absent, ``"?"``, or a number too large to read).

    >>> from cardgames import pbn
    >>> [board_name(pbn.Game([pbn.Tag("Board", v)])) for v in ("07", "4-1", "?", " ")]
    ['7', '4-1', None, None]
    """
    try:
        number = game.board
    except PBNError:
        return None
    if number is not None:
        return str(number)
    text = (game.tag("Board") or "").strip()
    if not text or text == "?":
        return None
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        text = text.encode("unicode_escape").decode("ascii")
    return text


def game_label(game: pbn.Game, source: str) -> str:
    """``FILE:LINE (board 4-1)``, a game as reports name it (without the board when it
    names none)."""
    name = board_name(game)
    return f"{source}:{game.line}" + (f" (board {name})" if name is not None else "")


def label_of(game: pbn.Game) -> str:
    """``"board 3: "``, the context a message about a game starts with (``""`` when the
    game names no board: see :func:`board_name`)."""
    name = board_name(game)
    return f"board {name}: " if name is not None else ""


def located(err: Exception, source: str, line: int | None, label: str = "") -> str:
    """``FILE:LINE: reason`` for an error about a game of ``source`` at ``line``, the place
    named once: a :class:`PBNError` that names its own place (``err.where``) keeps it, and
    only its ``reason`` follows.  ``label`` (``"board 3: "``) goes before the reason unless
    the reason starts with it already."""
    if isinstance(err, PBNError) and err.where:
        place = where(err.source if err.source is not None else source,
                      err.line if err.line is not None else line)
        reason = err.reason
    else:
        place, reason = where(source, line), str(err)
    if label and not reason.startswith(label):
        reason = label + reason
    return f"{place}: {reason}"


def read_board(game: pbn.Game, source: str) -> Board:
    """The board of a game, or a :class:`CardgamesError` saying why it cannot be solved.

    The dealer and the vulnerability are the board's facts (:class:`cardgames.facts.
    BoardFacts`: the tags, else the board number's); a tag that does not read, or a
    ``Board`` number too large to read, costs the board only what needs it (par, the
    number in the output), each said in :attr:`Board.warnings`."""
    deal = game.deal  # PBNError (with its line) for a malformed deal
    tag = game.get("Deal")
    line = tag.line if tag is not None and tag.line is not None else game.line
    facts = BoardFacts(game, source)
    warnings: list[str] = []
    number, bad_number = facts.number, facts.number_problem
    label = facts.label
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

    def tag_value(read: Callable[[], Any], what: str) -> Any:
        try:
            return read()
        except PBNError as err:
            warnings.append(f"{where(source, err.line if err.line is not None else game.line)}"
                            f": {label}{err.message}; par is left out (it needs the {what})")
            return None

    dealer = tag_value(lambda: facts.dealer, "dealer")
    vulnerable = tag_value(lambda: facts.vulnerability, "vulnerability")
    if bad_number is not None:
        # Said once: what the board loses for it.
        loses = ("par is left out (it needs the dealer and the vulnerability)"
                 if dealer is None or vulnerable is None else
                 "the board is written without its number")
        warnings.append(f"{where(source, bad_number.line or game.line)}: "
                        f"{bad_number.message}; {loses}")
    return Board(source, game.line, number, dealer, vulnerable, deal, game,
                 warnings=tuple(warnings))


class Inputs:
    """The games of the input files, read lazily; what a writer giving the files back needs
    besides the games (each file's bytes after its last game, :meth:`tail`) is kept per
    file.

    ``report`` gets every board that could not be read or solved; ``warn`` (by default
    ``report``) every problem that leaves an output incomplete without losing a board
    (a bad Dealer tag: no par; a part of a LIN board that does not read and is left out,
    :class:`~cardgames.lin.LINPartError`, which goes to ``part`` when one is given), and
    when no input file holds any game, one ``FILE: no games`` line per file (a file
    without games next to files with games is fine: a glob may take in an empty file).
    :attr:`warnings` counts the warnings.  :attr:`file` is the place in :attr:`paths` of
    the file being read (a file may be given twice), which each :class:`Board` records.
    """

    def __init__(self, paths: Iterable[str], report: Callable[[str], None], *,
                 keep_unsolvable: bool = False, warn: Callable[[str], None] | None = None,
                 part: Callable[[str], None] | None = None):
        self.paths = list(paths)
        self.report = report
        self._warn = warn or report
        self._part = part
        self.keep_unsolvable = keep_unsolvable
        self._tails: dict[int, bytes] = {}
        self.file = 0            # the index in paths of the file being read
        self.warnings = 0        # warnings given (each leaves some output incomplete)
        self.without_par = 0     # boards solved but left without par by a bad tag
        self.no_games = False    # set when every file has been read and none held a game

    def warn(self, message: str) -> None:
        self.warnings += 1
        self._warn(message)

    def tail(self, file: int) -> bytes:
        """The bytes after the last game of ``paths[file]`` (the whole file if it holds no
        game), once it has been read to the end; given once (memory stays flat)."""
        return self._tails.pop(file, b"")

    def games(self, *, with_errors: bool = False
              ) -> Iterator[tuple[str, pbn.Game | PBNError]]:
        """Every game that reads, with its file; syntax errors are reported and skipped,
        or with ``with_errors`` passed on in their place in the file (the error's ``raw``
        is the game's text).  When no file holds a game, says so for each file."""
        held = 0  # games, good or bad, in all the files
        for file, path in enumerate(self.paths):
            self.file = file
            skipped: list[PBNError] = []

            def on_error(err: PBNError) -> None:
                if isinstance(err, lin.LINPartError):
                    # the board is read without the part: a warning, no board lost
                    self.warnings += 1
                    (self._part or self._warn)(str(err))
                    return
                message = str(err)
                if self.keep_unsolvable and err.raw is None and not isinstance(
                        err, lin.LINError):
                    message += " (no empty line ends this game: too long to copy, left out)"
                self.report(message)
                skipped.append(err)

            # validate=False: each command checks only the tags it needs, so a malformed
            # Auction does not cost a board its table.
            with lin.open_games(path, strict=False, validate=False,
                                on_error=on_error) as reader:
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
                        self._tails[file] = reader.tail or b""
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
                yield Board(path, game.line, None, None, None, None, None, raw=game.raw,
                            original=game.original, file=self.file)
                continue
            try:
                board = read_board(game, path)
            except CardgamesError as err:
                self.report(located(err, path, game.line, label_of(game)))
                if self.keep_unsolvable:
                    yield Board(path, game.line, None, None, None, None, game, file=self.file)
                continue
            if self.file:
                board = replace(board, file=self.file)
            if board.warnings:
                # (a warning that costs nothing but the board's number leaves its par)
                if board.dealer is None or board.vulnerable is None:
                    self.without_par += 1
                for message in board.warnings:
                    self.warn(message)
            yield board


# ---------------------------------------------------------------------------
# Played boards: what `play` reads from a PBN file
# ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PlayedBoard:
    """A board whose play can be analysed."""

    source: str
    line: int | None          # the Play tag's line (where a bad play is reported)
    number: int | None
    contract: Contract        # with its declarer
    game: pbn.Game
    leader: Seat              # declarer's left-hand opponent, or an ending's own leader
    declarer_won: int = 0     # an ending's tricks won before it by declarer's side

    @property
    def name(self) -> str | None:
        """What a reader calls the board (:func:`board_name`): ``"7"``, ``"4-1"``, None."""
        return board_name(self.game)


def played_board(game: pbn.Game, source: str) -> PlayedBoard | None:
    """The board of a game if it has a contract and played cards; None if it has no play
    to analyse; a :class:`CardgamesError` if what it has is wrong."""
    play_tag = game.get("Play")
    if play_tag is None:
        return None
    cards = game.play_with_lines()  # PBNError with its line for a malformed Play section
    if not cards:
        return None
    line = play_tag.line
    label = label_of(game)
    text = game.contract
    if text is None or text.upper() == "PASS":
        raise PBNError(f"{label}a Play section needs a Contract to analyse it", line=line,
                       source=source)
    declarer = game.declarer
    if declarer is None:
        raise PBNError(f"{label}a Play section needs a Declarer to analyse it", line=line,
                       source=source)
    deal = game.deal
    if deal is None:
        raise PBNError(f"{label}no deal to analyse the play on", line=line, source=source)
    try:
        deal.require_complete()
    except CardgamesError as err:
        tag = game.get("Deal")
        raise PBNError(f"{label}cannot analyse the play of an incomplete deal: {err}",
                       line=tag.line if tag is not None and tag.line is not None else game.line,
                       source=source) from None
    leader = game.opening_leader
    if leader is None:
        raise PBNError(f"{label}the Play tag does not name the opening leader", line=line,
                       source=source)
    ending = deal.cards_per_hand < 13   # its Play tag names its own leader
    won = BoardFacts(game, source).declarer_won(deal.cards_per_hand)
    if leader != declarer.lho and not ending:
        raise PBNError(f"{label}the opening lead is {leader.letter}'s but declarer "
                       f"{declarer.letter}'s left-hand opponent is {declarer.lho.letter}",
                       line=line, source=source)
    contract = Contract.parse(text + declarer.letter)
    if contract is None:        # not reached: a passed-out board was turned away above
        raise PBNError(f"{label}no contract to analyse the play of", line=line, source=source)
    # The rules are checked here, while reading, so that a bad play is reported in file
    # order among the other reading errors, on the line of the card that breaks them.
    check_play(game, deal, contract.strain, leader, source)
    return PlayedBoard(source, line, game.board, contract, game, leader, won)


def check_play(game: pbn.Game, deal: Deal, strain: Strain, leader: Seat,
               source: str | None) -> None:
    """Every card of the game's Play section by the rules, from ``leader``'s lead: else a
    :class:`PBNError` on the line of the card that breaks them."""
    tag = game.get("Play")
    line = tag.line if tag is not None else game.line
    position = Position(deal, strain, leader)
    for i, (card, card_line) in enumerate(game.play_with_lines()):
        try:
            position.play(card)
        except CardgamesError as err:
            raise PBNError(f"{label_of(game)}card {i + 1} of the play (trick {i // 4 + 1}): "
                           f"{err}", line=card_line if card_line is not None else line,
                           source=source) from None


def played_boards(inputs: Inputs, report: Callable[[str], None]) -> Iterator[PlayedBoard]:
    """The boards of the input files that have a play to analyse, in order; a game whose
    play is wrong is reported (``FILE:LINE: reason``) and skipped, one without a play is
    passed over silently."""
    for path, game in inputs.games():
        if isinstance(game, PBNError):  # a game kept only to be copied back: nothing to play
            continue
        try:
            board = played_board(game, path)
        except CardgamesError as err:
            report(located(err, path, game.line, label_of(game)))
            continue
        if board is not None:
            yield board


def count_lines(paths: Iterable[str], start: bytes) -> int | None:
    """A quick count of the lines that start with ``start`` (``b"[Deal "``, ``b"[Play "``),
    for a progress bar's total (an upper bound: a Play tag without cards is counted too).
    Line ends are LF, CRLF or a lone CR, as the reader takes them; the files are read a
    piece at a time, so a file without line ends costs no memory.  None (no total) if an
    input is not a regular file: a pipe can be read only once, and it is the reader's; a
    device may never end."""
    paths = list(paths)
    for path in paths:
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                return None
        except OSError:
            return None  # the reader reports it
    count = 0
    keep = len(start) + 64  # what matters of a line not ended yet: its start
    for path in paths:
        with open(path, "rb") as fp:
            head = b""  # the start of the line that the last piece left open
            while True:
                piece = fp.read(1 << 16)
                if not piece:
                    break
                lines = (head + piece).splitlines()  # LF, CRLF and CR; a CRLF cut in two
                # makes one empty line too many, which does not start with anything.
                open_line = piece[-1:] not in (b"\n", b"\r")
                head = lines.pop()[:keep] if open_line and lines else b""
                count += sum(1 for raw in lines if raw.lstrip().startswith(start))
            if head.lstrip().startswith(start):
                count += 1
    return count
