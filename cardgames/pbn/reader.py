"""The streaming reader: a PBN stream (a file, bytes, text or lines) into :class:`Game`
objects, one at a time, with :func:`load`, :func:`loads`, :func:`load_path` and
:class:`PBNReader`.

The reading goes through four pieces, each of which can be read on its own:

1. *the lines of the stream* (:class:`~.lines.Lines`, in :mod:`.lines`): the stream
   cut into lines on any line end, bytes decoded line by line (UTF-8, else Latin-1)
   and kept until a game takes them as its :attr:`Game.original`, the lines numbered;
   a stream that is not PBN text stops there with an error;
2. *what a line is* (:func:`_classify`): a pure function of the line alone (empty,
   ``%`` line, tag pair in the export layout, plain section data, a line opening a
   ``{`` comment or a tag pair it does not close, or anything else);
3. *where the reader stands between two lines* (:class:`_State`): the game being
   built (a :class:`_Builder`), a comment or a tag pair left open, a bad game being
   skipped; a named step for each mode the reader can be in, and named transitions;
4. *a game once its lines are in* (:meth:`PBNReader._finish`): ``#`` and ``##``
   inheritance, validation, the deal shared by the tables of a board, the game's bytes.

:meth:`PBNReader._read` drives them: each line to the state's step, each game out.

The reader's speed matters (a results file holds hundreds of thousands of lines), and
a few choices here are made for it, each said where it is made: a line goes through
one generator only, the export layout of a tag line is matched once, and the common
tests come first.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import replace
from itertools import chain
from os import PathLike
from typing import Any

from ..errors import PBNError
from .game import Game, Original, Tag, use_text_reader
from .lines import LazyFile, Lines
from .text import (
    COMMENT_START,
    SPECIAL,
    TAG_LINE,
    WS,
    Unit,
    brace_open_after,
    check_data,
    match_end,
    parse_tag,
    skip_comment,
    unclosed_brace,
    unescape,
)

# ---------------------------------------------------------------------------
# Limits
# ---------------------------------------------------------------------------

#: The most lines of a bad game a lenient reader keeps for :attr:`PBNError.raw`: a game
#: with no empty line to end it stops being copied there (its error's ``raw`` is None),
#: so that a malformed file cannot fill the memory.
_RAW_LIMIT = 50_000

#: The most lines a ``{`` comment may span: a comment still open after so many lines is
#: unterminated (a lenient reader goes on at its first empty line), so that an unclosed
#: ``{`` does not hold the rest of a big file in memory.
_COMMENT_LINES_LIMIT = _RAW_LIMIT

#: How many lines a lenient reader joins to complete a tag pair broken over lines.
_TAG_LINES_LIMIT = 8


# ---------------------------------------------------------------------------
# A game being read: its pieces, and the units of lines that add to them
# ---------------------------------------------------------------------------

# Tag(...) for the reader: a frozen dataclass's __init__ costs about 2.4 us; setting the
# slots through their descriptors costs a third of that, which is most of the reading time
# saved on a file of two million tags.  The reader's values need none of the checks a
# hand-made tag gets.  (_Builder.build does it in its loop: a function per tag would
# cost a call per tag line.)
_TAG_NEW = Tag.__new__
(_SET_NAME, _SET_VALUE, _SET_SECTION, _SET_COMMENTS, _SET_TRAILING, _SET_LINE,
 _SET_NUMBERS, _SET_ESCAPED) = (getattr(Tag, f).__set__ for f in (
    "name", "value", "section", "comments", "trailing", "line", "section_line_numbers",
    "escaped"))


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
        """A tag pair, with the comment units pending before it and the comment
        ``leading`` it on its line."""
        comments: tuple[str, ...] = ()
        if self.pending or leading:
            comments = tuple(u.text for u in self.pending) + ((leading,) if leading else ())
            self.pending = []
        self.tags.append([name, value, line, comments, trailing, None, None, escaped])
        if line > self.end:
            self.end = line

    def add_data(self, lines: list[str], numbers: list[int]) -> None:
        """Section lines of the last tag."""
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

    def add_data_line(self, line: str, number: int) -> None:
        """:meth:`add_data` for one line: most section lines come one at a time, and
        without comments before them."""
        if self.pending:
            self.add_data([line], [number])
            return
        tag = self.tags[-1]
        if tag[5] is None:
            tag[5] = [line]
            tag[6] = [number]
        else:
            tag[5].append(line)
            tag[6].append(number)
        self.end = number

    def build(self, preamble: tuple[str, ...], source: str | None) -> Game:
        """The game; the comment units still pending close it."""
        tags = []
        for name, value, line, comments, trailing, section, numbers, escaped in self.tags:
            tag = _TAG_NEW(Tag)  # Tag(...) without its checks, see above
            _SET_NAME(tag, name)
            _SET_VALUE(tag, value)
            _SET_SECTION(tag, () if section is None else tuple(section))
            _SET_COMMENTS(tag, comments)
            _SET_TRAILING(tag, trailing)
            _SET_LINE(tag, line)
            _SET_NUMBERS(tag, () if numbers is None else tuple(numbers))
            _SET_ESCAPED(tag, escaped)
            tags.append(tag)
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
            raise unit.error(i, _before_first_tag(text[i:]))
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


#: The start of a BBO LIN record: two-letter keys between bars (``pn|...|md|...``).
_LIN = re.compile(r"\s*[a-zA-Z]{2}\|")


def _before_first_tag(text: str) -> str:
    """The reason for text where a game's first tag should be: a LIN record (BBO's
    format, which this reader does not read) is named as such."""
    if _LIN.match(text):
        return ("a LIN record (BBO's format: pn|, md|, mb|, pc|), not PBN: read it with "
                "cardgames.lin (the ddsolver commands tell the two apart by content)")
    return "section data before the first tag of the game"


def _unterminated(numbered: list[tuple[int, str]], source: str | None) -> PBNError:
    """The error for a ``{`` comment left open in these lines, on the line of its ``{``."""
    unit = Unit(numbered, source)
    pos = unclosed_brace(unit.text)
    return unit.error(pos or 0, "unterminated '{' comment (no '}' before the end of the game)")


# ---------------------------------------------------------------------------
# What a line is
# ---------------------------------------------------------------------------

# The kinds of line _classify tells apart (strings, so that a kind reads plainly when
# debugging; compared with ``is``).
_EMPTY = "empty"                  # nothing but white space: the end of a game
_PERCENT = "% line"               # a directive at the top of the file, else like a comment
_TAG = "tag line"                 # one tag pair in the export layout: [Name "value"]
_DATA = "data"                    # section data: no tag, comment or quoted string
_OPENS_COMMENT = "opens comment"  # leaves a '{' comment open: it goes on below
_BROKEN_TAG = "broken tag"        # opens a tag pair and does not close it
_UNIT = "unit"                    # anything else: tags, comments and data, read as a unit


def _broken_tag(line: str) -> bool:
    """A line that opens a tag pair and does not close it (its tokens go on below)."""
    return line.lstrip().startswith("[") and "]" not in line and not COMMENT_START.search(line)


# What _classify returns for each kind but _TAG (made once: most lines are of these kinds).
_IS_EMPTY, _IS_PERCENT, _IS_DATA, _IS_OPENS_COMMENT, _IS_BROKEN_TAG, _IS_UNIT = (
    (kind, None) for kind in (_EMPTY, _PERCENT, _DATA, _OPENS_COMMENT, _BROKEN_TAG, _UNIT))


def _classify(line: str) -> tuple[str, re.Match[str] | None]:
    """What ``line`` (without its line end) is, read on its own: one of the kinds above,
    and for a tag line (:data:`_TAG`) the match of :data:`~.text.TAG_LINE`, whose groups
    are the tag's name and value as written (matching them is most of the cost of such a
    line: it is not done twice).

    The lines inside a ``{`` comment left open, or after a tag pair left open, are not
    asked about: the reader's state takes them as they come (:meth:`_State.in_comment`,
    :meth:`_State.in_tag`).  The cheap tests come first; the two common kinds (a tag
    pair, plain data) cost one regular expression each."""
    if not line or line.isspace():
        return _IS_EMPTY
    first = line[0]
    if first == "%":
        return _IS_PERCENT
    if first == "[":  # as the pattern starts: data lines are spared matching it
        tag = TAG_LINE.match(line)
        if tag is not None:
            return _TAG, tag
    if SPECIAL.search(line) is None:
        return _IS_DATA
    if "{" in line and unclosed_brace(line) is not None:
        return _IS_OPENS_COMMENT
    if _broken_tag(line):
        return _IS_BROKEN_TAG
    return _IS_UNIT


# ---------------------------------------------------------------------------
# Where the reader stands between two lines
# ---------------------------------------------------------------------------

#: What a step returns to stop the lines for now: a ``{`` comment will not close (see
#: :meth:`PBNReader._read`).
_STOP: Any = object()


class _State:
    """Where the reader stands between two lines, and the steps that move it on.

    Each line goes to :attr:`take`, the step of the mode the reader is in:

    * :meth:`line` (reading): the line is classified (:func:`_classify`) and added to
      the game being built; an empty line ends the game (:meth:`first_line` for the
      first line of the stream);
    * :meth:`in_comment`: a ``{`` comment is open, the line is part of it;
    * :meth:`in_tag` (lenient mode): a tag pair is open, the line may close it;
    * :meth:`skipping` (lenient mode): the game is bad, its lines are kept for the
      error's text until the empty line that ends it.

    A step returns the game that the line completed (None for most lines, :data:`_STOP`
    when an open comment is given up on).  A step raises the :class:`PBNError` of a
    malformed line; in lenient mode the reader then calls :meth:`fail`.  What happens to a
    complete game (inheritance, validation) and to a bad one (its error recorded) is the
    reader's: ``finish`` and ``skip``.
    """

    __slots__ = ("source", "strict", "keep", "head", "directives", "finish", "skip", "take",
                 "builder", "comment", "tag_lines", "failure", "raw", "preamble", "in_head",
                 "blanks", "last", "no_close_until")

    def __init__(self, *, source: str | None, strict: bool, head: list[str],
                 directives: list[str],
                 finish: Callable[[_Builder, tuple[str, ...], int], Game],
                 skip: Callable[[PBNError, list[str], list[tuple[int, str]], int], None]):
        self.source = source
        self.strict = strict
        # In lenient mode the lines of the game being read are kept, so that a bad game's
        # error can carry its text (PBNError.raw): one game's lines, never the file's, and
        # at most this many of them (none in strict mode).
        self.keep = 0 if strict else _RAW_LIMIT
        self.head = head                # the reader's: the lines before the first game
        self.directives = directives    # the reader's: the '%' lines among them
        self.finish = finish            # a complete game, its preamble and last line -> Game
        self.skip = skip                # a bad game's error, preamble, lines and last line
        self.take: Callable[[int, str], Any] = self.first_line  # the step for the next line
        self.builder: _Builder | None = None  # the game (or comment block) being read
        self.comment: list[tuple[int, str]] | None = None    # lines of a '{' comment still open
        self.tag_lines: list[tuple[int, str]] | None = None  # lines of a broken tag pair
        # After an error in lenient mode: the error and the comment blocks that stood
        # before the bad game, until the end of the game (skipping its other lines).
        self.failure: tuple[PBNError, list[str]] | None = None
        self.raw: list[tuple[int, str]] = []  # the game's lines so far (lenient mode)
        self.preamble: list[str] = []  # comment blocks standing alone, for the next game
        self.in_head = True   # no game line yet: directives and empty lines go to head
        self.blanks = 0       # empty lines since the last line that was not empty
        self.last = 0         # the last line that was not empty
        self.no_close_until = 0  # lines read again after an unclosed '{': none holds a '}'

    # ---- the modes: one step for each line ---------------------------------
    def first_line(self, number: int, line: str) -> Game | None:
        """The first line of the stream: read without the byte order mark that some
        editors put at the start of a file."""
        self.take = self.line
        if line.startswith("\ufeff"):
            line = line[1:]
        return self.line(number, line)

    def line(self, number: int, line: str) -> Game | None:
        """Reading: what the line is says where it goes."""
        kind, tag = _classify(line)
        if kind is _EMPTY:
            return self.empty(line)
        self.blanks = 0
        self.last = number
        if kind is _PERCENT:
            self.percent_line(number, line)
            return None
        self.in_head = False
        if len(self.raw) < self.keep:
            self.raw.append((number, line))
        builder = self.builder
        if builder is None:
            builder = self.builder = _Builder(number)
        if tag is not None:  # the common case: [Name "value"], alone on its line
            name, value = tag.groups()
            if "\\" in value:
                builder.add_tag(name, unescape(value), number, None, None, value)
            else:
                builder.add_tag(name, value, number, None, None)
        elif kind is _DATA:
            if not builder.tags:
                raise Unit([(number, line)], self.source).error(0, _before_first_tag(line))
            builder.add_data_line(line, number)
        elif kind is _OPENS_COMMENT:
            self.comment = [(number, line)]
            self.take = self.in_comment
        elif kind is _BROKEN_TAG and not self.strict:  # strict mode reports it, as a unit
            self.tag_lines = [(number, line)]
            self.take = self.in_tag
        else:
            _apply_unit(builder, Unit([(number, line)], self.source))
        return None

    def in_comment(self, number: int, line: str) -> Game | None:
        """A ``{`` comment is open: it runs to its ``}``, across empty lines (PBN 2.1,
        3.8), so an empty line inside it does not end the game."""
        comment = self.comment
        assert comment is not None
        comment.append((number, line))
        if len(self.raw) < self.keep:
            self.raw.append((number, line))
        if not line or line.isspace():
            self.blanks += 1
            if number <= self.no_close_until:
                return _STOP  # no '}' will come: unterminated, see PBNReader._read
            return None
        self.blanks = 0
        self.last = number
        # Only the new line is scanned: a brace is the one state a comment carries from
        # line to line (strings and ';' comments end with it).
        if "}" in line and not brace_open_after(line, True):
            self.comment = None
            self.take = self.line
            assert self.builder is not None  # made by the line that opened it
            _apply_unit(self.builder, Unit(comment, self.source))
        elif len(comment) >= _COMMENT_LINES_LIMIT:
            if self.strict:
                raise _unterminated(comment, self.source)
            return _STOP  # given up on, see PBNReader._read
        return None

    def in_tag(self, number: int, line: str) -> Game | None:
        """A tag pair is open (lenient mode): its tokens go on here, up to the line that
        holds its ``]`` (at most :data:`_TAG_LINES_LIMIT` lines); an empty line ends it
        where it stands, and then ends the game."""
        if not line or line.isspace():
            self.close_tag()
            return self.line(number, line)
        assert self.tag_lines is not None
        self.tag_lines.append((number, line))
        if len(self.raw) < self.keep:
            self.raw.append((number, line))
        self.last = number
        if "]" in line or len(self.tag_lines) >= _TAG_LINES_LIMIT:
            self.close_tag()
        return None

    def skipping(self, number: int, line: str) -> None:
        """A bad game (lenient mode): its lines are kept for the error's text; the empty
        line that ends it reports the error."""
        if not line or line.isspace():
            self.blanks += 1
            if self.in_head:
                self.head.append(line)
            self.report_failure()
            self.take = self.line
            return
        self.blanks = 0
        self.last = number
        if len(self.raw) < self.keep:
            self.raw.append((number, line))

    # ---- the steps the modes share -------------------------------------------
    def empty(self, line: str) -> Game | None:
        """An empty line: it ends the game being read, or a block of comments standing
        alone before the next one."""
        self.blanks += 1
        if self.in_head:
            self.head.append(line)
        builder = self.builder
        if builder is None:
            return None
        self.builder = None
        game = self.end_game(builder)
        self.raw = []
        return game

    def percent_line(self, number: int, line: str) -> None:
        """A ``%`` line: a directive at the top of the file; further down it stays where
        it stands, like a comment line."""
        if self.in_head:
            self.directives.append(line)
            self.head.append(line)
            return
        if len(self.raw) < self.keep:
            self.raw.append((number, line))
        if self.builder is None:
            self.builder = _Builder(number)
        self.builder.pending.append(Unit([(number, line)], self.source))

    def close_tag(self) -> None:
        """The lines of a tag pair broken over them, read as one unit."""
        lines, self.tag_lines = self.tag_lines, None
        self.take = self.line
        assert self.builder is not None and lines is not None
        _apply_unit(self.builder, Unit(lines, self.source, joined=True))

    def end_game(self, builder: _Builder) -> Game | None:
        """The lines of a game are in: the reader finishes it.  Comments standing alone
        are no game: they introduce the next one."""
        if not builder.tags:
            self.preamble.append("\n".join(u.text for u in builder.pending))
            return None
        preamble, self.preamble = self.preamble, []
        return self.finish(builder, tuple(preamble), self.last)

    # ---- errors (lenient mode) -----------------------------------------------
    def fail(self, err: PBNError, line: str) -> None:
        """``line`` made ``err``: the game is dropped, and its error is reported at the
        empty line that ends it (at once if ``line`` is that empty line)."""
        self.builder = None
        self.tag_lines = None
        preamble, self.preamble = self.preamble, []
        if line and not line.isspace():
            self.failure = (err, preamble)
            self.take = self.skipping
        else:
            self.skip(err, preamble, self.raw, self.last)
            self.raw = []
            self.take = self.line

    def report_failure(self) -> None:
        """Report the bad game being skipped, if any."""
        if self.failure is not None:
            err, preamble = self.failure
            self.skip(err, preamble, self.raw, self.last)
            self.failure = None
            self.raw = []

    def reopen_comment(self) -> list[tuple[int, str]] | None:
        """A ``{`` comment still open at the end of the lines, or after more lines than
        :data:`_COMMENT_LINES_LIMIT`, is an error on the line that opened it.  Reading
        starts again at the first empty line in it, so that one missing ``}`` costs one
        game, not the rest of the file: the lines from there, to read again (None if it
        holds no empty line).  None of them holds a ``}`` (the first would have closed the
        comment): a comment opened among them is unterminated at its first empty line
        there (:attr:`no_close_until`), which keeps the reading linear in a file of many
        unclosed comments."""
        comment = self.comment
        assert comment is not None
        cut = next((k for k, (_, t) in enumerate(comment) if not t.strip()), None)
        if cut is None:
            return None
        held_to = comment[-1][0]
        unclosed = _unterminated(comment[:cut], self.source)
        replay = comment[cut:]
        self.comment = None
        self.take = self.line
        self.last = last = replay[0][0] - 1
        self.raw = [(n, t) for n, t in self.raw if n <= last]
        preamble, self.preamble = self.preamble, []
        self.builder = None
        self.skip(unclosed, preamble, self.raw, last)
        self.raw = []
        self.blanks = 0
        self.no_close_until = max(self.no_close_until, held_to)
        return replay

    def drop_comment(self) -> None:
        """A ``{`` comment over the limit with no empty line in it: the game is bad, and
        the reading goes on at the next empty line."""
        assert self.comment is not None
        self.failure = (_unterminated(self.comment, self.source), self.preamble)
        self.preamble = []
        self.comment = None
        self.builder = None
        self.take = self.skipping

    # ---- the end of the lines ------------------------------------------------
    def unreadable(self, err: PBNError) -> None:
        """The rest of the stream is not read (lenient mode): the game being read is lost
        with it."""
        self.report_failure()
        self.skip(err, self.preamble, self.raw, self.last)
        self.preamble = []
        self.builder = self.comment = self.tag_lines = None

    def end(self) -> Game | None:
        """The lines have run out: a comment still open is unterminated, a tag pair still
        open is read as it stands, and the game being read is complete."""
        if self.comment is not None:
            raise _unterminated(self.comment, self.source)
        if self.tag_lines is not None:
            self.close_tag()
        if self.builder is not None and self.failure is None:
            return self.end_game(self.builder)
        return None

    def fail_at_end(self, err: PBNError) -> None:
        """:meth:`end` made ``err`` (lenient mode): the last game is bad."""
        self.failure = (err, self.preamble)
        self.preamble = []


# ---------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------

#: The mandatory tag set, in the order the export format requires.  Used to place a
#: tag inherited through ``##`` where an exporter would have written it.
_MANDATORY_ORDER = {name: i for i, name in enumerate(
    ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
     "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"))}

_RANKS = frozenset("AKQJT98765432akqjt")


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
        self._lines: Lines | None = None  # made when the reading starts
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

    # ---- reading ----------------------------------------------------------------
    def _read(self, stream: Any) -> Generator[Game, None, None]:
        """The games of ``stream``: each line goes to the state's step (see
        :class:`_State`), each game it completes is given.  In lenient mode a ``{``
        comment that does not close has its lines read again from its first empty line;
        then the end of the stream."""
        state = _State(source=self.source, strict=self.strict, head=self.head,
                       directives=self.directives, finish=self._finish, skip=self._skipped)
        lines = self._lines = Lines(stream, self._encoding, self.source)
        given = iter(lines)
        numbered: Iterator[tuple[int, str]] = given
        while True:
            stopped = False  # a step gave up on an open comment before the lines ran out
            for number, text in numbered:
                line = text.rstrip("\r\n")
                try:
                    game = state.take(number, line)
                except PBNError as err:
                    if self.strict:
                        raise
                    state.fail(err, line)
                    continue
                if game is not None:
                    if game is _STOP:
                        stopped = True
                        break
                    yield game
            if lines.unreadable is not None:
                break
            if state.comment is not None and not self.strict:
                replay = state.reopen_comment()
                if replay is not None:
                    numbered = chain(replay, given)
                    continue
                if stopped:  # over the limit with no empty line: skip to the next one
                    state.drop_comment()
                    continue
            if not stopped:  # the lines have run out
                break
        unreadable = lines.unreadable
        if unreadable is not None:
            # The rest of the stream is not read: the game being read is lost with it.
            if self.strict:
                raise unreadable
            state.unreadable(unreadable)
        try:
            game = state.end()
        except PBNError as err:
            if self.strict:
                raise
            state.fail_at_end(err)
        else:
            if game is not None:
                yield game
        state.report_failure()
        self.blank_lines_at_end = state.blanks
        self.epilogue.extend(state.preamble)
        if lines.binary:
            self.tail = lines.rest()
        if self._closing is not None and hasattr(self._closing, "close"):
            self._closing.close()

    def _skipped(self, err: PBNError, preamble: list[str], raw: list[tuple[int, str]],
                 last: int) -> None:
        """A bad game skipped in lenient mode: record its error, with the game's text.  The
        game cut short by a stream that is not PBN text (:attr:`Lines.unreadable`) has
        the text read before it, if any: what is lost is the rest of the stream, as its
        error says, not a game too long to copy."""
        lines = self._lines
        if raw and len(raw) < _RAW_LIMIT:
            err.raw = ("".join(block + "\n\n" for block in preamble)
                       + "\n".join(t for _, t in raw) + "\n")
        elif not raw and lines is not None and err is lines.unreadable:
            err.raw = "".join(block + "\n\n" for block in preamble)
        if lines is not None and lines.binary and last >= lines.base:
            err.original = b"".join(lines.take(last)[0])
        self.errors.append(err)
        if self.on_error is not None:
            self.on_error(err)

    def _finish(self, builder: _Builder, preamble: tuple[str, ...], last: int) -> Game:
        """Turn the lines of a game (through file line ``last``) into a game: resolve
        inheritance, validate, and only then let it count as "the previous game" for later
        ``#`` values."""
        game = builder.build(preamble, self.source)
        sticky = self._inherit(game)
        board, deal = self._board_and_deal(game)
        if deal is None and game.get("Deal") is None and board in self._boards:
            # Another table of a board met before, written without its deal.
            game.same_deal_as, game._shared_deal = self._boards[board]
        if self.validate:
            game.validate()
        values = self._last
        for tag in game._tags:
            values[tag.name] = tag.value
        self._sticky.update(sticky)
        game.index = self._count
        self._count += 1
        if deal is not None:
            first = self._deals.setdefault(deal, game.index)
            if first != game.index:
                game.same_deal_as = first
            if board is not None:
                self._boards[board] = (first, deal)
        lines = self._lines
        if lines is not None and lines.binary:
            taken, first = lines.take(last)
            game._original = Original(taken, first, lines.new_text_encoding)
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
            if not written or written[0] != "#":  # most values: one cheap test lets them by
                if tag.name in self._sticky:  # a plain value redefines a "##" value
                    sticky[tag.name] = value
            elif written == "#":
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
    file = LazyFile(path)
    return PBNReader(file, strict=strict, source=str(path), validate=validate,
                     on_error=on_error, _closing=file, _encoding=encoding)



# Game.from_pbn reads with loads (game.py cannot import this module, which is built on it).
use_text_reader(loads)
