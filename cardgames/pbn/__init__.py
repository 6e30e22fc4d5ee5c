"""Reading and writing PBN (Portable Bridge Notation 2.1) files.

The verbs follow :mod:`json`: :func:`load` / :func:`loads` / :func:`load_path` read,
:func:`dump` / :func:`dumps` write.  Reading streams: games come out one at a time
and the file is never held in memory, so a file of 100,000 boards costs the memory
of one board.

>>> text = '''% PBN 2.1
... [Board "1"]
... [Dealer "N"]
... [Deal "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"]
... [Contract "?"]
... '''
>>> reader = loads(text)
>>> game = next(reader)
>>> game.board, game.dealer, game.contract, reader.directives
(1, Seat.NORTH, None, ['% PBN 2.1'])
>>> game.deal.north
Hand.from_pbn('AKQ2.KJ3.T94.A65')

What a :class:`Game` keeps
--------------------------
A game is its tag pairs, in file order, unknown ones included.  Each :class:`Tag`
carries

* ``section``: the lines of data that follow the tag (the Auction, the Play, an
  ``OptimumResultTable``, any unknown section), verbatim, comments and all;
* ``comments``: comment blocks (``{...}`` possibly over several lines, or ``; ...``)
  standing before the tag, each exactly as written;
* ``trailing``: a comment on the tag's own line after the ``]``.

Comment lines after the last data line of a section belong to the *next* tag
(they usually introduce it); comment lines between a tag and its data, or between
data lines, are part of the section.  A ``{...}`` comment runs to its ``}`` across
empty lines (PBN 2.1: a game ends at an empty line *outside* comments).  Comments after
the last tag are the game's ``trailing_comments``; a block of comments standing alone
between games is the next game's ``preamble`` (or the reader's ``epilogue`` at the end
of the file).  ``%`` lines at the top of the file (``% PBN 2.1``, ``% EXPORT``...) are
the reader's :attr:`PBNReader.directives`, which :func:`dump` writes first; a ``%`` line
further down (BBA's ``% <hash>``, PS Bridge's ``%%!R``, ``% Import`` before each game)
stays where it stands, placed like a comment line.

With these rules ``loads(dumps(games))`` gives back equal games, and a file in the
standard export layout (one tag per line, a blank line after each game, no ``#``
values) comes back character for character::

    reader = loads(text)
    assert dumps(reader, directives=reader.directives) == text

Giving a file back byte for byte, with tags added
-------------------------------------------------
A game read from bytes (:func:`load_path`, or :func:`load`/:func:`loads` given bytes)
keeps the bytes it took in the file, :attr:`Game.original`: from the end of the game
before, so with the empty lines, ``%`` lines and comment blocks before it.  A skipped
bad game's error has them as :attr:`PBNError.original`, and the reader, once read to
the end, the bytes after the last game as :attr:`PBNReader.tail`.  Written one after
the other they are the file, exactly: line ends (CRLF, LF, mixed), encoding (Latin-1
bytes stay Latin-1), escapes, comments, ``#`` values, ``%`` lines in place.
:func:`write_back` gives a game's bytes with tags added (a tag the game has is replaced
in place).  This is what a tool adding results to files uses, e.g. ``ddsolver table
--format pbn``::

    with open(out_path, "wb") as out:
        with load_path(path, strict=False, validate=False,
                       on_error=lambda err: out.write(err.original or b"")) as reader:
            for game in reader:   # a bad game's error comes before the next game
                table, par = solve(game.deal)
                out.write(write_back(game, [
                    Tag("OptimumScore", "NS 420"), Tag("ParContract", "NS 4S="),
                    Tag("OptimumResultTable", "Declarer;Denomination\\2R;Result\\2R",
                        rows)]))
        out.write(reader.tail or b"")

:func:`rewrite` does just that for a callable giving each game's tags.  Several input
files are copied one after the other the same way (each keeps its own head and tail).

Several tables of one board
---------------------------
Results files repeat a board once per table: with the same ``Deal``, with ``"#"``, or
with no ``Deal`` at all after the board's first table.  Each game from a reader has an
:attr:`Game.index` (0, 1, 2... in reading order), and :attr:`Game.same_deal_as` is the
index of the first game of that reader holding the same deal (same text after ``#``
inheritance), None for the first.  A game without a ``Deal`` tag whose ``Board`` value
was met before with a deal takes that deal (:attr:`Game.deal_inherited` is then true).
So a tool solves a deal once: keep the result of each game whose ``same_deal_as`` is
None by its index, and reuse it for the others; tables are games, distinct deals are the
games with ``same_deal_as`` None.  The reader remembers each distinct deal's text (about
100 bytes a deal).

Tag values
----------
``"#"`` takes the value of the same tag in the nearest earlier game, and a value
starting with ``"##"`` sets the text after it for this and every later game
(PBN 2.1 section 4.8).  Both are resolved on reading, so a game never shows ``#``
and is self-contained: a tag inherited through ``##`` is inserted into later games
that omit it (with ``line`` None), and the writer writes resolved values.  ``"?"``
(unknown) and ``""`` are kept as text by :meth:`Game.tag`; the typed accessors
(:attr:`Game.deal`, :attr:`Game.dealer`, ...) return ``None`` for them.

Errors
------
Every problem is a :class:`~cardgames.errors.PBNError` carrying the message, the
offending line's text, its 1-based line number and the source name; ``str(err)`` names
the place once (``f.pbn:13: reason``); a caller adding context uses ``err.where`` and
``err.reason`` rather than prefixing ``str(err)`` with a place of its own.  Syntax (an
unclosed ``[``, a value without quotes, a missing closing quote, an unterminated
``{`` comment, section data before any tag) is found while reading.  The meaning
of the typed tags (a bad deal, a bad card in the Play section, an unknown seat...)
is checked by :meth:`Game.validate`, which the reader calls on every game unless
``validate=False``; with ``validate=False`` the same error comes up when the
accessor is used, still with its line.  In lenient mode (``strict=False``) a tag pair
broken over lines (``[Event`` on one, ``"x"]`` on the next) is joined and read; a bad
game is skipped, the error goes to :attr:`PBNReader.errors` (and to ``on_error``, once
the reader has reached the end of the bad game), and reading goes on with the next
game.  The error's ``raw`` holds the bad game's text as it stood in the file, so that a
tool copying a file can write it back unchanged.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import replace
from itertools import chain
from os import PathLike
from typing import Any, BinaryIO, TextIO

from ..errors import PBNError
from .game import Game, Original, Tag, check_comment, check_tag, play_section, use_text_reader
from .text import (
    COMMENT_START,
    EXCERPT,
    SPECIAL,
    TAG_LINE,
    TAG_PAIR,
    WS,
    Unit,
    brace_open_after,
    check_data,
    decode_line,
    excerpt,
    match_end,
    parse_tag,
    short,
    skip_comment,
    unclosed_brace,
    unescape,
)

__all__ = ["Tag", "Game", "PBNReader", "load", "loads", "load_path", "dump", "dumps",
           "play_section", "write_back", "rewrite", "DEFAULT_DIRECTIVES"]

#: What :func:`dump` writes at the top of a file unless told otherwise.
DEFAULT_DIRECTIVES: tuple[str, ...] = ("% PBN 2.1",)

#: The mandatory tag set, in the order the export format requires.  Used to place a
#: tag inherited through ``##`` where an exporter would have written it.
_MANDATORY_ORDER = {name: i for i, name in enumerate(
    ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
     "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"))}

#: The most lines of a bad game a lenient reader keeps for :attr:`PBNError.raw`: a game
#: with no empty line to end it stops being copied there (its error's ``raw`` is None),
#: so that a malformed file cannot fill the memory.
_RAW_LIMIT = 50_000

# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------

_TAG_NEW = Tag.__new__
(_SET_NAME, _SET_VALUE, _SET_SECTION, _SET_COMMENTS, _SET_TRAILING, _SET_LINE,
 _SET_NUMBERS, _SET_ESCAPED) = (getattr(Tag, f).__set__ for f in (
    "name", "value", "section", "comments", "trailing", "line", "section_line_numbers",
    "escaped"))


def _new_tag(name: str, value: str, section: tuple[str, ...], comments: tuple[str, ...],
             trailing: str | None, line: int, numbers: tuple[int, ...],
             escaped: str | None) -> Tag:
    """``Tag(...)`` for the reader.  A frozen dataclass's ``__init__`` costs about 2.4 us;
    setting the slots through their descriptors costs a third of that, which is most of
    the reading time saved on a file of two million tags.  The reader's values need none
    of the checks a hand-made tag gets."""
    tag = _TAG_NEW(Tag)
    _SET_NAME(tag, name)
    _SET_VALUE(tag, value)
    _SET_SECTION(tag, section)
    _SET_COMMENTS(tag, comments)
    _SET_TRAILING(tag, trailing)
    _SET_LINE(tag, line)
    _SET_NUMBERS(tag, numbers)
    _SET_ESCAPED(tag, escaped)
    return tag


class _Builder:
    """Collects the pieces of one game while it is read."""

    __slots__ = ("line", "tags", "pending", "end")

    def __init__(self, line: int):
        self.line = line
        # Each tag: [name, value, line, comments, trailing, section lines, their numbers,
        # escaped value], the section and numbers None until the tag has a section.
        self.tags: list[list] = []
        self.pending: list[Unit] = []  # comment-only units not yet placed
        self.end = line  # the last line that held a tag or section data

    def add_tag(self, name: str, value: str, line: int, leading: str | None,
                trailing: str | None, escaped: str | None = None) -> None:
        comments: tuple[str, ...] = ()
        if self.pending or leading:
            comments = tuple(u.text for u in self.pending) + ((leading,) if leading else ())
            self.pending = []
        self.tags.append([name, value, line, comments, trailing, None, None, escaped])
        if line > self.end:
            self.end = line

    def add_data(self, lines: list[str], numbers: list[int]) -> None:
        tag = self.tags[-1]
        if tag[5] is None:
            tag[5] = []
            tag[6] = []
        if self.pending:  # comments between a tag and its data belong to the section
            for unit in self.pending:
                tag[5].extend(unit.lines)
                tag[6].extend(unit.numbers)
            self.pending = []
        tag[5].extend(lines)
        tag[6].extend(numbers)
        self.end = numbers[-1]

    def build(self, preamble: tuple[str, ...], source: str | None) -> Game:
        tags = [_new_tag(name, value, () if section is None else tuple(section), comments,
                         trailing, line, () if numbers is None else tuple(numbers), escaped)
                for name, value, line, comments, trailing, section, numbers, escaped
                in self.tags]
        trailing_comments = tuple(u.text for u in self.pending)
        game = Game._make(tags, preamble, trailing_comments, self.line, source)
        game._end_of_tags = self.end
        return game


def _apply_unit(builder: _Builder, unit: Unit) -> None:
    """Classify a unit (comments only, tags, or section data) and add it to the game."""
    text = unit.text
    n = len(text)
    i = match_end(WS, text)
    while i < n and text[i] in "{;":
        i = match_end(WS, text, skip_comment(text, i))
    if i >= n:
        builder.pending.append(unit)
        return
    if text[i] != "[":
        if not builder.tags:
            raise unit.error(i, "section data before the first tag of the game")
        check_data(unit, i)
        builder.add_data(unit.lines, unit.numbers)
        return
    leading = text[:i].strip() or None
    while True:
        name, value, end, escaped = parse_tag(unit, i)
        line = unit.numbers[unit.row(i)]
        data_at = match_end(WS, text, end)
        j = data_at
        while j < n and text[j] in "{;":
            j = match_end(WS, text, skip_comment(text, j))
        if j < n and text[j] == "[":  # another tag on the same line
            builder.add_tag(name, value, line, leading, text[end:j].strip() or None, escaped)
            leading = None
            i = j
            continue
        if j >= n:
            builder.add_tag(name, value, line, leading, text[end:].lstrip() or None, escaped)
            builder.end = max(builder.end, unit.numbers[-1])
            return
        # Data after the tag on its line: it starts the tag's section.
        builder.add_tag(name, value, line, leading, None, escaped)
        check_data(unit, data_at)
        row = unit.row(data_at)
        rest = text[data_at:].split("\n")
        builder.add_data(rest, unit.numbers[row:row + len(rest)])
        return


def _unterminated(numbered: list[tuple[int, str]], source: str | None) -> PBNError:
    unit = Unit(numbered, source)
    pos = unclosed_brace(unit.text)
    return unit.error(pos or 0, "unterminated '{' comment (no '}' before the end of the game)")


#: The longest line the reader takes, in characters (bytes for a binary stream): far above
#: any real PBN line (a deal is 70 characters, a commentary paragraph a few thousand), low
#: enough that a file without line ends (``/dev/zero``, a binary file) is refused after
#: reading this much rather than filling the memory.  A longer line stops the reading of its
#: file with an error on that line.
MAX_LINE = 1 << 20

#: A run of this many lines without an empty one (a game that never ends), or of this
#: many empty lines, is no PBN file: its reading stops with an error there rather than
#: holding the lines (``yes | ddsolver table /dev/stdin``).  Real games are a few dozen lines.
MAX_RUN_LINES = 100_000

#: How much a file is read at a time (lines are cut from these pieces).
_CHUNK = 1 << 16
_LINE_ENDS_S = re.compile(r"(?<=\n)|(?<=\r)(?!\n)")


class _Unreadable(Exception):
    """The stream is not PBN text: a line longer than :data:`MAX_LINE`, or a NUL byte.
    Raised by :func:`_split_lines` once the lines before it have been given; the reader
    turns it into a :class:`PBNError` on the next line and stops reading the stream."""

    def __init__(self, reason: str, excerpt: str):
        super().__init__(reason)
        self.reason = reason
        self.excerpt = excerpt


def _split_lines(pieces: Iterable[Any], *, chunks: bool) -> Iterator[Any]:
    """The lines of ``pieces`` (str or bytes), each with its line end (LF, CRLF or a lone
    CR; the last line may have none).  With ``chunks`` the pieces are arbitrary parts of a
    stream (a line may span them; a CR ending one piece waits for the next, which may
    start with its LF); otherwise each piece is one or more whole lines, never joined with
    the next.  Never holds more than one line of :data:`MAX_LINE` and one piece.

    :raises _Unreadable: after the lines before it, for a line longer than
        :data:`MAX_LINE` or a NUL character.
    """
    rest: Any = None  # the start of a line not ended yet (chunks only)
    for piece in pieces:
        if not piece:
            continue
        binary = isinstance(piece, (bytes, bytearray))
        nul = piece.find(b"\0" if binary else "\0")
        if nul >= 0:
            piece = piece[:nul + 1]
        if rest is not None:
            piece = rest + piece
            rest = None
        if binary:
            lines = piece.splitlines(True)  # bytes split on LF, CRLF and CR only
        else:
            lines = [p for p in _LINE_ENDS_S.split(piece) if p]
        if (chunks or nul >= 0) and lines and lines[-1][-1:] not in ("\n", b"\n"):
            rest = lines.pop()  # not ended, or a CR whose LF may follow
        for line in lines:
            if len(line) > MAX_LINE:
                raise _too_long(line)
            yield line
        if nul >= 0:  # ``rest`` is the line holding it, up to it
            text = decode_line(bytes(rest[-EXCERPT:])) if binary else rest[-EXCERPT:]
            raise _Unreadable("a NUL character: this is not a PBN text file (a binary "
                              "file, or text in UTF-16?); reading stops here",
                              excerpt(text[:-1] + "<NUL>", len(text)))
        if rest is not None and len(rest) > MAX_LINE:
            raise _too_long(rest)
    if rest:
        yield rest


def _too_long(line: Any) -> _Unreadable:
    text = decode_line(bytes(line[:200])) if isinstance(line, (bytes, bytearray)) \
        else line[:200]
    return _Unreadable(f"line longer than {MAX_LINE:,} characters: not a PBN text file; "
                       "reading stops here", excerpt(text))


def _read_pieces(read: Callable[[int], Any]) -> Iterator[Any]:
    """A file's content a :data:`_CHUNK` at a time, until it ends."""
    while True:
        piece = read(_CHUNK)
        if not piece:
            return
        yield piece


_CHARSET = re.compile(rb"charset\s*=\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_LATIN1_NAMES = {b"iso-8859-1", b"iso8859-1", b"latin-1", b"latin1", b"l1", b"iso_8859-1",
                 b"windows-1252", b"cp1252"}
_RANKS = frozenset("AKQJT98765432akqjt")


class _RawLines:
    """Decodes a binary stream line by line for the reader, keeping the bytes of the lines
    that no game has taken yet (see :class:`Original`).  It is given the lines already cut
    (:func:`_split_lines`), with their line ends; each line is UTF-8 if it is valid UTF-8
    and Latin-1 (PBN's character set) otherwise, unless an encoding is given."""

    __slots__ = ("fp", "encoding", "buffer", "base", "latin1", "utf8", "charset_latin1")

    def __init__(self, fp: Iterable[bytes], encoding: str | None):
        self.fp = fp
        self.encoding = encoding
        self.buffer: list[bytes] = []
        self.base = 1               # the file line of buffer[0]
        self.latin1 = False         # a line that is not UTF-8 has been read
        self.utf8 = False           # a non-ASCII line that is UTF-8 has been read
        self.charset_latin1 = False  # a "% ... charset=ISO-8859-1" line has been read

    def __iter__(self) -> Iterator[str]:
        encoding = self.encoding
        buffer = self.buffer
        for piece in self.fp:  # one line each, with its line end (see _split_lines)
            buffer.append(piece)
            if piece[:1] == b"%":
                m = _CHARSET.search(piece)
                if m is not None and m.group(1).lower() in _LATIN1_NAMES:
                    self.charset_latin1 = True
            if encoding is not None:
                try:
                    yield piece.decode(encoding)
                except UnicodeDecodeError as err:
                    raise _Unreadable(f"not {encoding} text ({err.reason} at byte "
                                      f"{err.start + 1} of the line); reading stops here",
                                      excerpt(piece.decode("latin-1"), err.start)) from None
            elif piece.isascii():
                yield piece.decode("ascii")
            else:
                try:
                    text = piece.decode("utf-8")
                    self.utf8 = True
                except UnicodeDecodeError:
                    text = piece.decode("latin-1")
                    self.latin1 = True
                yield text

    @property
    def new_text_encoding(self) -> str:
        """How to encode text added to the file: as the file is written so far (a line
        that is not UTF-8 means Latin-1; UTF-8 beyond ASCII means UTF-8), else as its
        ``charset`` line says, else UTF-8."""
        if self.encoding is not None:
            return self.encoding
        if self.latin1:
            return "latin-1"
        if self.utf8:
            return "utf-8"
        return "latin-1" if self.charset_latin1 else "utf-8"

    def take(self, last: int) -> Original:
        """The lines not taken yet, through file line ``last``."""
        count = last - self.base + 1
        lines = self.buffer[:count]
        del self.buffer[:count]
        first, self.base = self.base, self.base + count
        return Original(lines, first, self.new_text_encoding)

    def rest(self) -> bytes:
        data = b"".join(self.buffer)
        self.base += len(self.buffer)
        self.buffer.clear()
        return data


def _broken_tag(line: str) -> bool:
    """A line that opens a tag pair and does not close it (its tokens go on below)."""
    return line.lstrip().startswith("[") and "]" not in line and not COMMENT_START.search(line)


#: The most lines a ``{`` comment may span: a comment still open after so many lines is
#: unterminated (a lenient reader goes on at its first empty line), so that an unclosed
#: ``{`` does not hold the rest of a big file in memory.
_COMMENT_LINES_LIMIT = _RAW_LIMIT

#: How many lines a lenient reader joins to complete a tag pair broken over lines.
_TAG_LINES_LIMIT = 8


class PBNReader:
    """The games of a PBN stream, read one at a time (an iterator of :class:`Game`).

    Made by :func:`load`, :func:`loads` and :func:`load_path`; see :func:`load` for the
    parameters.  Besides the games it gathers:

    * :attr:`directives`: the ``%`` lines at the top of the file (before the first game
      or comment block), verbatim (``"% PBN 2.1"``); a ``%`` line further down belongs
      to the game it stands in, or before, like a comment line;
    * :attr:`errors`: in lenient mode, one :class:`PBNError` per skipped game, its
      ``raw`` the game's text as it stood in the file (and ``original`` its bytes);
    * :attr:`epilogue`: comment blocks after the last game;
    * :attr:`head`: the lines before the first game (or comment block), verbatim:
      directives and empty lines, so a tool can copy the top of a file as it was;
    * :attr:`blank_lines_at_end`: how many empty lines end the stream (set once it is
      read to the end);
    * :attr:`tail`: for a stream of bytes, once it is read to the end, the bytes after
      the last game (empty lines, closing comments); None for a stream of text.

    It is its own iterator and can be used as a context manager, which closes a file
    that :func:`load_path` opened.
    """

    def __init__(self, lines: Iterable[str] | Iterable[bytes] | Any, *, strict: bool = True,
                 source: str | None = None, validate: bool = True,
                 on_error: Callable[[PBNError], None] | None = None,
                 _closing: object | None = None, _encoding: str | None = None):
        self.strict = strict
        self.source = source
        self.validate = validate
        self.on_error = on_error
        self.directives: list[str] = []
        self.errors: list[PBNError] = []
        self.epilogue: list[str] = []
        self.head: list[str] = []
        self.blank_lines_at_end = 0
        self.tail: bytes | None = None
        self._closing = _closing
        self._encoding = _encoding
        self._raw: _RawLines | None = None
        self._unreadable: PBNError | None = None  # why the stream stopped being read
        self._preamble: list[str] = []
        self._last: dict[str, str] = {}    # tag name -> value in the latest game that had it
        self._sticky: dict[str, str] = {}  # tag name -> value set with "##"
        self._inherited: dict[tuple[str, str], Tag] = {}  # the tags made for "##" values
        self._count = 0                    # games given so far
        self._deals: dict[str, int] = {}   # deal text -> index of the first game with it
        self._boards: dict[str, tuple[int, str]] = {}  # Board value -> (index, deal text)
        self._games = self._read(lines)

    def __iter__(self) -> PBNReader:
        return self

    def __next__(self) -> Game:
        return next(self._games)

    def close(self) -> None:
        """Stop reading; close the file if :func:`load_path` opened it."""
        self._games.close()
        if self._closing is not None and hasattr(self._closing, "close"):
            self._closing.close()

    def __enter__(self) -> PBNReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def version(self) -> str | None:
        """The PBN version named by a ``% PBN x.y`` directive, if one has been read."""
        for line in self.directives:
            words = line[1:].split()
            if len(words) >= 2 and words[0].upper() == "PBN":
                return words[1]
        return None

    # ---- the state machine ----------------------------------------------------
    def _text_lines(self, source: Any) -> Iterator[str]:
        """The lines of ``source`` as text (see :func:`_split_lines`): a file object is read
        a piece at a time, any other iterable taken as lines.  A stream of bytes is decoded
        by a :class:`_RawLines`, which keeps the bytes for :func:`write_back`."""
        read = getattr(source, "read", None)
        if callable(read):
            lines = _split_lines(_read_pieces(read), chunks=True)
        else:
            lines = _split_lines(source, chunks=False)
        first = next(lines, None)
        if first is None:
            return iter(())
        if isinstance(first, (bytes, bytearray)):
            self._raw = _RawLines(chain([bytes(first)], lines), self._encoding)
            return iter(self._raw)
        return chain([first], lines)

    def _numbered(self, source: Any) -> Iterator[tuple[int, str]]:
        """The lines, numbered from 1; a stream found not to be PBN text ends early, with
        the error kept as :attr:`_unreadable` (on the line after the last one given)."""
        number = 0
        run = 0       # lines in a row that are all empty, or all not empty
        empty = True  # ... which of the two
        try:
            for number, text in enumerate(self._text_lines(source), 1):  # noqa: B007
                if (not text.strip()) == empty:
                    run += 1
                    if run > MAX_RUN_LINES:
                        self._unreadable = PBNError(
                            f"{MAX_RUN_LINES:,} {'empty' if empty else 'non-empty'} lines in "
                            f"a row: not a PBN file of games (a game ends at an empty line); "
                            f"reading stops here", text=excerpt(text.rstrip("\r\n")),
                            line=number, source=self.source)
                        return
                else:
                    empty = not empty
                    run = 1
                yield number, text
        except _Unreadable as err:
            self._unreadable = PBNError(err.reason, text=err.excerpt, line=number + 1,
                                        source=self.source)

    def _read(self, lines: Any) -> Generator[Game, None, None]:
        source = self.source
        # In lenient mode the lines of the game being read are kept, so that a bad game's
        # error can carry its text (PBNError.raw): one game's lines, never the file's.
        keep = not self.strict
        raw: list[tuple[int, str]] = []
        builder: _Builder | None = None
        open_unit: list[tuple[int, str]] | None = None  # lines of a '{' comment still open
        tag_unit: list[tuple[int, str]] | None = None   # lines of a tag pair broken over lines
        # After an error in lenient mode: the error and the comment blocks that stood
        # before the bad game, until the end of the game (skipping its other lines).
        failure: tuple[PBNError, list[str]] | None = None
        in_head = True  # no game line yet: directives and empty lines go to self.head
        blanks = 0      # empty lines since the last line that was not empty
        last = 0        # the last line that was not empty
        line = ""
        stream = self._numbered(lines)
        numbered: Iterator[tuple[int, str]] = stream
        no_close_until = 0  # lines read again after an unclosed '{': none holds a '}'
        at_end = False  # the lines have run out (not only left to handle an open comment)
        while True:
            for number, text in numbered:
                line = text.rstrip("\r\n")
                if number == 1 and line.startswith("\ufeff"):
                    line = line[1:]
                try:
                    if open_unit is not None:
                        # A '{' comment runs to its '}', across empty lines (PBN 2.1, 3.8):
                        # an empty line inside it does not end the game.
                        open_unit.append((number, line))
                        if keep and len(raw) < _RAW_LIMIT:
                            raw.append((number, line))
                        if not line or line.isspace():
                            blanks += 1
                            if number <= no_close_until:
                                break  # no '}' will come: unterminated, see below
                            continue
                        blanks = 0
                        last = number
                        # Only the new line is scanned: a brace is the one state a comment
                        # carries from line to line (strings and ';' comments end with it).
                        if "}" in line and not brace_open_after(line, True):
                            unit = Unit(open_unit, source)
                            open_unit = None
                            assert builder is not None  # made by the line that opened it
                            _apply_unit(builder, unit)
                        elif len(open_unit) >= _COMMENT_LINES_LIMIT:
                            if self.strict:
                                raise _unterminated(open_unit, source)
                            break  # given up on, see below
                        continue
                    if tag_unit is not None and line and not line.isspace():
                        tag_unit.append((number, line))
                        if keep and len(raw) < _RAW_LIMIT:
                            raw.append((number, line))
                        last = number
                        if "]" not in line and len(tag_unit) < _TAG_LINES_LIMIT:
                            continue
                        numbered_tag, tag_unit = tag_unit, None
                        assert builder is not None
                        _apply_unit(builder, Unit(numbered_tag, source, joined=True))
                        continue
                    if tag_unit is not None:  # an empty line before the tag pair closed
                        numbered_tag, tag_unit = tag_unit, None
                        assert builder is not None
                        _apply_unit(builder, Unit(numbered_tag, source, joined=True))
                    if not line or line.isspace():
                        blanks += 1
                        if in_head:
                            self.head.append(line)
                        if failure is not None:
                            self._skipped(*failure, raw, last)
                            failure = None
                            raw = []
                        elif builder is not None:
                            done, builder = builder, None
                            game = self._finish(done, last)
                            raw = []
                            if game is not None:
                                yield game
                        continue
                    blanks = 0
                    last = number
                    if failure is not None:
                        if len(raw) < _RAW_LIMIT:
                            raw.append((number, line))
                        continue
                    if line[0] == "%":
                        if in_head:
                            self.directives.append(line)
                            self.head.append(line)
                            continue
                        # Further down, a '%' line stays where it stands, like a comment line.
                        if keep and len(raw) < _RAW_LIMIT:
                            raw.append((number, line))
                        if builder is None:
                            builder = _Builder(number)
                        builder.pending.append(Unit([(number, line)], source))
                        continue
                    in_head = False
                    if keep and len(raw) < _RAW_LIMIT:
                        raw.append((number, line))
                    if builder is None:
                        builder = _Builder(number)
                    m = TAG_LINE.match(line)
                    if m is not None:  # the common case, an export-style tag line
                        name, value = m.groups()
                        if "\\" in value:
                            builder.add_tag(name, unescape(value), number, None, None, value)
                        else:
                            builder.add_tag(name, value, number, None, None)
                    elif SPECIAL.search(line) is None:
                        if not builder.tags:
                            raise Unit([(number, line)], source).error(
                                0, "section data before the first tag of the game")
                        builder.add_data([line], [number])
                    elif "{" in line and unclosed_brace(line) is not None:
                        open_unit = [(number, line)]
                    elif keep and _broken_tag(line):
                        tag_unit = [(number, line)]
                    else:
                        _apply_unit(builder, Unit([(number, line)], source))
                except PBNError as err:
                    if self.strict:
                        raise err
                    builder = None
                    tag_unit = None
                    preamble, self._preamble = self._preamble, []
                    if line and not line.isspace():
                        failure = (err, preamble)  # reported at the end of the bad game
                    else:  # the empty line that ends the game found the error
                        self._skipped(err, preamble, raw, last)
                        raw = []
            else:
                at_end = True
            if self._unreadable is not None:
                break
            # A '{' comment still open at the end of the stream, or over more lines than
            # _COMMENT_LINES_LIMIT, is an error on the line that opened it; in lenient mode
            # reading starts again at the first empty line in it, so that one missing '}'
            # costs one game, not the rest of the file.  None of the lines read again holds
            # a '}' (the first would have closed the comment): a comment opened among them
            # is unterminated at its first empty line there (no_close_until), which keeps
            # the reading linear in a file of many unclosed comments.
            if open_unit is not None and not self.strict:
                cut = next((k for k, (_, t) in enumerate(open_unit) if not t.strip()), None)
                held_to = open_unit[-1][0]
                if cut is not None:
                    unclosed = _unterminated(open_unit[:cut], source)
                    replay = open_unit[cut:]
                    open_unit = None
                    last = replay[0][0] - 1
                    raw = [(n, t) for n, t in raw if n <= last]
                    preamble, self._preamble = self._preamble, []
                    builder = None
                    self._skipped(unclosed, preamble, raw, last)
                    raw = []
                    blanks = 0
                    no_close_until = max(no_close_until, held_to)
                    numbered = chain(replay, stream)
                    at_end = False
                    continue
                if not at_end:  # over the limit with no empty line: skip to the next one
                    failure = (_unterminated(open_unit, source), self._preamble)
                    self._preamble = []
                    open_unit = None
                    builder = None
                    continue
            if not at_end:
                continue
            break
        unreadable = self._unreadable
        if unreadable is not None:
            # The rest of the stream is not read: the game being read is lost with it.
            if self.strict:
                raise unreadable
            if failure is not None:
                self._skipped(*failure, raw, last)
                raw = []
                failure = None
            self._skipped(unreadable, self._preamble, raw, last)
            self._preamble = []
            builder = open_unit = tag_unit = None
        try:
            if open_unit is not None:
                raise _unterminated(open_unit, source)
            if tag_unit is not None:
                assert builder is not None
                _apply_unit(builder, Unit(tag_unit, source, joined=True))
            if builder is not None and failure is None:
                game = self._finish(builder, last)
                if game is not None:
                    yield game
        except PBNError as err:
            if self.strict:
                raise err
            failure = (err, self._preamble)
            self._preamble = []
        if failure is not None:
            self._skipped(*failure, raw, last)
        self.blank_lines_at_end = blanks
        self.epilogue.extend(self._preamble)
        self._preamble = []
        if self._raw is not None:
            self.tail = self._raw.rest()
        if self._closing is not None and hasattr(self._closing, "close"):
            self._closing.close()

    def _skipped(self, err: PBNError, preamble: list[str], raw: list[tuple[int, str]],
                 last: int) -> None:
        """A bad game skipped in lenient mode: record its error, with the game's text."""
        if raw and len(raw) < _RAW_LIMIT:
            err.raw = ("".join(block + "\n\n" for block in preamble)
                       + "\n".join(t for _, t in raw) + "\n")
        if self._raw is not None and last >= self._raw.base:
            err.original = b"".join(self._raw.take(last).lines)
        self.errors.append(err)
        if self.on_error is not None:
            self.on_error(err)

    def _finish(self, builder: _Builder, last: int) -> Game | None:
        """Turn a complete block into a game: resolve inheritance, validate, and only then
        let it count as "the previous game" for later ``#`` values."""
        if not builder.tags:  # comments standing alone: they introduce the next game
            self._preamble.append("\n".join(u.text for u in builder.pending))
            return None
        game = builder.build(tuple(self._preamble), self.source)
        self._preamble = []
        sticky = self._inherit(game)
        board, deal = self._board_and_deal(game)
        if deal is None and game.get("Deal") is None and board in self._boards:
            # Another table of a board met before, written without its deal.
            game.same_deal_as, game._shared_deal = self._boards[board]
        if self.validate:
            game.validate()
        for tag in game._tags:
            self._last[tag.name] = tag.value
        self._sticky.update(sticky)
        game.index = self._count
        self._count += 1
        if deal is not None:
            first = self._deals.setdefault(deal, game.index)
            if first != game.index:
                game.same_deal_as = first
            if board is not None:
                self._boards[board] = (first, deal)
        if self._raw is not None:
            game._original = self._raw.take(last)
        return game

    @staticmethod
    def _board_and_deal(game: Game) -> tuple[str | None, str | None]:
        """The Board value (stripped, None if empty or unknown) and the deal text if it
        holds a card."""
        board = game.tag("Board")
        board = board.strip() if board is not None else None
        if board in ("", "?"):
            board = None
        deal = game.tag("Deal")
        if deal is not None:
            deal = deal.strip()
            if not _RANKS.intersection(deal[2:]):
                deal = None
        return board, deal

    def _inherit(self, game: Game) -> dict[str, str]:
        """Resolve ``#`` and ``##`` values in place; return the ``##`` values to remember."""
        tags = game._tags
        sticky: dict[str, str] = {}
        for i, tag in enumerate(tags):
            value = tag.value
            written = value if tag.escaped is None else tag.escaped  # "\\#" is text
            if written == "#":
                tags[i] = replace(tag, value=self._last.get(tag.name, ""))
            elif written.startswith("##"):
                sticky[tag.name] = value[2:]
                tags[i] = replace(tag, value=value[2:])
            elif tag.name in self._sticky:  # a plain value redefines a "##" value
                sticky[tag.name] = value
        if self._sticky:
            present = {t.name for t in tags}
            # A tag of the mandatory set goes in its place (at most 15 of them); any other
            # at the end, where _insert_index would put it: one pass over the game for many
            # "##" tags.  The same (immutable) Tag serves every game that inherits it.
            later: list[Tag] = []
            for name, value in self._sticky.items():
                if name not in present:
                    made = self._inherited.get((name, value))
                    if made is None:
                        made = self._inherited[name, value] = Tag(name, value)
                    if name in _MANDATORY_ORDER:
                        tags.insert(_insert_index(tags, name), made)
                    else:
                        later.append(made)
            tags.extend(later)
        game._changed()
        return sticky


def _insert_index(tags: list[Tag], name: str) -> int:
    """Where an inherited tag goes: after the mandatory tags that precede it in export
    order, else at the end for a tag outside the mandatory set."""
    rank = _MANDATORY_ORDER.get(name)
    if rank is None:
        return len(tags)
    index = 0
    for i, tag in enumerate(tags):
        r = _MANDATORY_ORDER.get(tag.name)
        if r is not None and r < rank:
            index = i + 1
    return index


def load(fp: Iterable[str] | Iterable[bytes], *, strict: bool = True, source: str | None = None,
         validate: bool = True, on_error: Callable[[PBNError], None] | None = None) -> PBNReader:
    """Read games from a text file (or any iterable of lines), one at a time.

    >>> import io
    >>> [g.board for g in load(io.StringIO('[Board "1"]\\n\\n[Board "2"]\\n'))]
    [1, 2]

    :param fp: an open text file, or any iterable of lines; read lazily, line by line.
        A binary file (lines of bytes) is decoded as :func:`load_path` does, and its
        games keep their bytes for :func:`write_back`.
    :param strict: if true (the default) the first bad game raises; if false it is
        skipped, its error (with the game's text as ``raw``) appended to
        ``reader.errors`` and passed to ``on_error``.
    :param source: the name used in error messages (default: ``fp.name`` if any).
    :param validate: check the typed tags (Deal, Play...) of each game while reading
        (see :meth:`Game.validate`); if false only the syntax is checked on reading.
    :param on_error: called with each error skipped in lenient mode.
    :returns: a :class:`PBNReader`, an iterator of :class:`Game`.
    :raises PBNError: while iterating, in strict mode, for a malformed game.
    """
    if source is None:
        name = getattr(fp, "name", None)
        source = name if isinstance(name, str) else None
    return PBNReader(fp, strict=strict, source=source, validate=validate, on_error=on_error)


def loads(text: str | bytes, *, strict: bool = True, source: str | None = None,
          validate: bool = True,
          on_error: Callable[[PBNError], None] | None = None) -> PBNReader:
    """Read games from a string; the parameters are those of :func:`load`.  Given bytes,
    the games keep their bytes for :func:`write_back`, as :func:`load_path` does.

    :returns: a :class:`PBNReader` (``list(loads(text))`` for a list of games).
    :raises PBNError: while iterating, in strict mode, for a malformed game.
    """
    if isinstance(text, (bytes, bytearray)):
        return PBNReader(io.BytesIO(text), strict=strict, source=source, validate=validate,
                         on_error=on_error)
    # newline="" splits on \\n, \\r\\n and \\r alike but on nothing else (str.splitlines
    # would also split on characters that may sit inside a tag value).
    return PBNReader(io.StringIO(text, newline=""), strict=strict, source=source,
                     validate=validate, on_error=on_error)


use_text_reader(loads)


class _File:
    """A file opened on the first read (so that :func:`load_path` raises OSError only when
    the reading starts), read a piece at a time, and closed by :meth:`close`."""

    def __init__(self, path: str | PathLike[str]):
        self.path = path
        self.fp: BinaryIO | None = None
        self.closed = False

    def read(self, size: int) -> bytes:
        if self.closed:
            return b""
        if self.fp is None:
            self.fp = open(self.path, "rb")  # noqa: SIM115 (closed by close())
        return self.fp.read(size)

    def close(self) -> None:
        self.closed = True
        if self.fp is not None:
            self.fp.close()


def load_path(path: str | PathLike[str], *, encoding: str | None = None, strict: bool = True,
              validate: bool = True,
              on_error: Callable[[PBNError], None] | None = None) -> PBNReader:
    """Read games from a file by name; the other parameters are those of :func:`load`.
    The games keep the bytes they took in the file, for :func:`write_back`.

    :param encoding: the file's encoding.  By default each line is read as UTF-8 if it
        is valid UTF-8 and as Latin-1 (the PBN standard's character set) otherwise.
    :returns: a :class:`PBNReader`; the file closes when the games run out or when the
        reader is closed (``with load_path(p) as reader: ...``).
    :raises OSError: if the file cannot be opened (on the first read).
    :raises PBNError: while iterating, in strict mode, for a malformed game.
    """
    file = _File(path)
    return PBNReader(file, strict=strict, source=str(path), validate=validate,
                     on_error=on_error, _closing=file, _encoding=encoding)


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

def _directive_line(directive: str) -> str:
    if "\n" in directive or "\r" in directive:
        raise ValueError(f"a directive is one line: {short(directive)}")
    return directive if directive.startswith("%") else "% " + directive


def dump(games: Iterable[Game], fp: TextIO, *, directives: Iterable[str] = DEFAULT_DIRECTIVES,
         epilogue: Iterable[str] = ()) -> None:
    """Write games to a text file: the directives, then each game followed by a blank line,
    then the epilogue comment blocks, separated by blank lines.

    ``directives`` is read only once the first game has been taken from ``games``, so a
    reader's live list works when streaming one file into another::

        reader = load(src)
        dump(reader, dst, directives=reader.directives, epilogue=reader.epilogue)

    :param directives: ``%`` lines to write first (a ``%`` is added if missing).
    :param epilogue: comment blocks to write after the games.
    :raises ValueError: for a directive holding a line break.
    :raises PBNError: if ``games`` is a reader that meets a bad game in strict mode.
    """
    games = iter(games)
    first = next(games, None)
    for directive in directives:
        fp.write(_directive_line(directive) + "\n")
    if first is not None:
        fp.write(first.to_pbn() + "\n")
        for game in games:
            fp.write(game.to_pbn() + "\n")
    blocks = list(epilogue)
    for block in blocks:
        check_comment(block, "epilogue", block_of_lines=True)
    if blocks:
        fp.write("\n\n".join(blocks) + "\n")


def dumps(games: Iterable[Game], *, directives: Iterable[str] = DEFAULT_DIRECTIVES,
          epilogue: Iterable[str] = ()) -> str:
    """The text :func:`dump` would write.

    :raises ValueError: for a directive holding a line break.
    :raises PBNError: if ``games`` is a reader that meets a bad game in strict mode.
    """
    out = io.StringIO()
    dump(games, out, directives=directives, epilogue=epilogue)
    return out.getvalue()


# ---------------------------------------------------------------------------
# Writing a file back as it was, with tags added
# ---------------------------------------------------------------------------

def _eol(line: bytes) -> bytes:
    if line.endswith(b"\r\n"):
        return b"\r\n"
    if line.endswith((b"\n", b"\r")):
        return line[-1:]
    return b""


def write_back(game: Game, tags: Iterable[Tag] = ()) -> bytes:
    """The bytes ``game`` took in its file (:attr:`Game.original`) with ``tags`` put in:
    every other byte as it was, in place.

    A tag the game already has in the file (its first tag of that name) is replaced in
    place: its tag pair on its line (the rest of the line, such as a comment after the
    ``]``, kept) and its section lines (``%`` lines among them kept); the comments before
    it stay.  A tag the game does not have is inserted after the game's last tag or
    section line, in the order given (so before comments that close the game).  New lines
    end as the line they follow does and are encoded as the file is (Latin-1 for a file
    with Latin-1 bytes, or with a ``charset=ISO-8859-1`` line and nothing but ASCII;
    UTF-8 otherwise).  With no tags this is :attr:`Game.original` itself.

    Changes made to the :class:`Game` after reading are not written: the file's bytes are.

    :param tags: e.g. ``[Tag("OptimumScore", "NS 420"),
        Tag("OptimumResultTable", "Declarer;Denomination\\\\2R;Result\\\\2R", rows)]``.
    :raises ValueError: if the game was not read from bytes, for a tag that could not be
        written back (see :meth:`Game.set_section`), or for text the file's encoding
        cannot hold.
    """
    original = game._original
    if original is None:
        raise ValueError("this game was not read from bytes (use load_path, or load/loads "
                         "given bytes), so there is nothing to write back")
    lines = original.lines
    first = original.first
    tags = list(tags)
    if not tags:
        return b"".join(lines)
    encoding = original.encoding
    eol = next((e for e in map(_eol, lines) if e), b"\n")
    # What stands in place of each line that changes (an empty list: the line goes).
    out: dict[int, list[bytes]] = {}

    def encode(text: str, name: str) -> bytes:
        try:
            return text.encode(encoding)
        except UnicodeEncodeError:
            raise ValueError(f"tag {name} holds text that {encoding} cannot encode") from None

    inserted: list[tuple[str, str]] = []
    for tag in tags:
        check_tag(tag)
        old = next((t for t in game._tags if t.name == tag.name and t.line is not None
                    and t.line >= first), None)
        if old is None:
            inserted.extend((text, tag.name) for text in (tag.tag_line, *tag.section))
            continue
        assert old.line is not None
        i = old.line - first
        line_end = _eol(lines[i]) or eol
        text = decode_line(lines[i])[:len(decode_line(lines[i])) - len(_eol(lines[i]))]
        numbers = list(old.section_line_numbers)
        span = next((m.span() for m in TAG_PAIR.finditer(text) if m.group(1) == old.name),
                    None)
        if span is not None:
            # The old section goes, but for its '%' lines, and the text after the tag
            # starting with '%' is one of them.
            rest = ("" if numbers and numbers[0] == old.line
                    and not old.section[0].startswith("%") else text[span[1]:])
            head = text[:span[0]] + tag.tag_line + rest
            out[i] = [encode(head, tag.name) + line_end]
        else:  # a tag pair broken over lines: they all go
            j = i
            while j + 1 < len(lines) and "]" not in decode_line(lines[j]):
                out[j + 1] = []
                j += 1
            out[i] = [encode(tag.tag_line, tag.name) + line_end]
        for number in numbers:
            k = number - first
            if k != i and not lines[k].startswith(b"%"):
                out[k] = []
        out[i].extend(encode(row, tag.name) + line_end for row in tag.section)
    if inserted:
        end = game._end_of_tags if game._end_of_tags is not None else first + len(lines) - 1
        k = end - first
        place = out.get(k, [lines[k]])
        follow = next((_eol(b) for b in reversed(place) if b), b"") or _eol(lines[k]) or eol
        if place and not _eol(place[-1]):
            place = [*place[:-1], place[-1] + follow]
        out[k] = place + [encode(text, name) + follow for text, name in inserted]
    parts: list[bytes] = []
    for index, line in enumerate(lines):
        parts.extend(out.get(index, (line,)))
    return b"".join(parts)


def rewrite(src: str | PathLike[str], out: BinaryIO,
            tags_for: Callable[[Game], Iterable[Tag]] | None = None, *,
            encoding: str | None = None,
            on_error: Callable[[PBNError], None] | None = None) -> PBNReader:
    """Copy the PBN file ``src`` to the binary stream ``out`` with the tags that
    ``tags_for(game)`` gives added to each game (see :func:`write_back`); with no tags,
    byte for byte.  A game that does not read is copied as it was and passed to
    ``on_error``.  Games are read with ``validate=False``.

    :returns: the reader, read to the end (its ``errors`` are the games that did not read).
    :raises OSError: if ``src`` cannot be read.
    """
    def skipped(err: PBNError) -> None:
        if err.original is not None:
            out.write(err.original)
        if on_error is not None:
            on_error(err)

    with load_path(src, encoding=encoding, strict=False, validate=False,
                   on_error=skipped) as reader:
        for game in reader:
            out.write(write_back(game, tags_for(game) if tags_for is not None else ()))
    if reader.tail:
        out.write(reader.tail)
    return reader
