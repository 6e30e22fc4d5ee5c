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
data lines, are part of the section.  Comments after the last tag are the game's
``trailing_comments``; a block of comments standing alone between games is the
next game's ``preamble`` (or the reader's ``epilogue`` at the end of the file).
``%`` lines (``% PBN 2.1``, ``% EXPORT``...) are file-level: the reader collects
them in :attr:`PBNReader.directives` wherever they appear, and :func:`dump` writes
directives at the top.

With these rules ``loads(dumps(games))`` gives back equal games, and a file in the
standard export layout (one tag per line, a blank line after each game, no ``#``
values) comes back character for character::

    reader = loads(text)
    assert dumps(reader, directives=reader.directives) == text

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
offending line's text, its 1-based line number and the source name.  Syntax (an
unclosed ``[``, a value without quotes, a missing closing quote, an unterminated
``{`` comment, section data before any tag) is found while reading.  The meaning
of the typed tags (a bad deal, a bad card in the Play section, an unknown seat...)
is checked by :meth:`Game.validate`, which the reader calls on every game unless
``validate=False``; with ``validate=False`` the same error comes up when the
accessor is used, still with its line.  In lenient mode (``strict=False``) a bad
game is skipped, the error goes to :attr:`PBNReader.errors` (and to ``on_error``, once
the reader has reached the end of the bad game), and reading goes on with the next
game.  The error's ``raw`` holds the bad game's text as it stood in the file, so that a
tool copying a file can write it back unchanged.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from os import PathLike
from typing import TextIO, TypeVar

from .cards import Card, CardLike, Seat, SeatLike, Strain, StrainLike
from .errors import CardgamesError, ParseError, PBNError
from .hands import Deal
from .play import trick_winner

__all__ = ["Tag", "Game", "PBNReader", "load", "loads", "load_path", "dump", "dumps",
           "play_section", "DEFAULT_DIRECTIVES"]

#: What :func:`dump` writes at the top of a file unless told otherwise.
DEFAULT_DIRECTIVES: tuple[str, ...] = ("% PBN 2.1",)

#: The mandatory tag set, in the order the export format requires.  Used to place a
#: tag inherited through ``##`` where an exporter would have written it.
_MANDATORY_ORDER = {name: i for i, name in enumerate(
    ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
     "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"))}

_T = TypeVar("_T")

#: The most lines of a bad game a lenient reader keeps for :attr:`PBNError.raw`: a game
#: with no empty line to end it stops being copied there (its error's ``raw`` is None),
#: so that a malformed file cannot fill the memory.
_RAW_LIMIT = 50_000

#: The properties :meth:`Game.validate` checks, in order.
_TYPED_ACCESSORS = ("deal", "board", "dealer", "vulnerable", "contract", "declarer",
                    "auction_dealer", "auction", "opening_leader", "play")

_VULNERABILITY = {"NONE": "none", "LOVE": "none", "-": "none", "NS": "ns", "EW": "ew",
                  "ALL": "both", "BOTH": "both"}

# ---------------------------------------------------------------------------
# Lexical pieces
# ---------------------------------------------------------------------------

_NAME = re.compile(r"[A-Za-z0-9_]+")
_NAME_FULL = re.compile(r"[A-Za-z0-9_]+\Z")
# A quoted string: backslash escapes any character but a newline.  Unescaping only
# turns \" and \\ into " and \ (see _unescape), because PBN's own tables write lone
# backslashes (``Result\2R`` in an OptimumResultTable header).  The patterns are
# "unrolled" (runs of plain characters between escapes): the plain alternation
# (?:[^"\\]|\\.)* steps through a 70-character deal one character at a time and is
# five times slower.
_STRING = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
_TAG_PAIR = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"([^"\\\n]*(?:\\.[^"\\\n]*)*)"[ \t]*\]')
# The export layout of a tag line, matched whole: the fast path of the reader.
_TAG_LINE = re.compile(r'\[([A-Za-z0-9_]+) "([^"\\]*(?:\\.[^"\\]*)*)"\]\Z')
_UNESCAPE = re.compile(r'\\([\\"])')
# A backslash needs escaping only where a reader would take it for an escape.
_ESCAPE = re.compile(r'"|\\(?=[\\"]|\Z)')
_WS = re.compile(r"\s*")
_BLANKS = re.compile(r"[ \t]*")
_SPECIAL = re.compile(r'[\[{;"]')
_COMMENT_START = re.compile(r"[{;]")
_NOTE_OR_NAG = re.compile(r"=\d+=|\$\d+")
_CONTRACT = re.compile(r"([1-7])(NT|[SHDC])(X{0,2})\Z", re.IGNORECASE)
_BID = re.compile(r"([1-7])(NT|N|[SHDC])\Z", re.IGNORECASE)


def _unescape(value: str) -> str:
    return _UNESCAPE.sub(r"\1", value) if "\\" in value else value


def _escape(value: str) -> str:
    return _ESCAPE.sub(lambda m: "\\" + m.group(), value)


def _skip_comment(text: str, i: int) -> int:
    """``text[i]`` opens a comment; return the index just after it.  A ``;`` comment
    stops at the end of its physical line."""
    if text[i] == "{":
        j = text.find("}", i + 1)
        return len(text) if j < 0 else j + 1
    j = text.find("\n", i)
    return len(text) if j < 0 else j


def _unclosed_brace(text: str) -> int | None:
    """Index of a ``{`` comment still open at the end of ``text``, else None.
    ``;`` comments and quoted strings are skipped, so braces inside them do not count."""
    i = 0
    n = len(text)
    while True:
        m = _SPECIAL.search(text, i)
        if m is None:
            return None
        i = m.start()
        ch = text[i]
        if ch == "{":
            j = text.find("}", i + 1)
            if j < 0:
                return i
            i = j + 1
        elif ch == ";":
            j = text.find("\n", i)
            if j < 0:
                return None
            i = j + 1
        elif ch == '"':
            s = _STRING.match(text, i)
            i = s.end() if s else i + 1  # an unterminated string is reported later
        else:
            i += 1
        if i >= n:
            return None


def _end(pattern: re.Pattern[str], text: str, i: int = 0) -> int:
    """Where a match of ``pattern`` (one that cannot fail, such as ``\\s*``) at ``i`` ends."""
    m = pattern.match(text, i)
    assert m is not None
    return m.end()


def _only_comments(text: str, i: int = 0) -> bool:
    """True if ``text[i:]`` holds nothing but whitespace and comments."""
    n = len(text)
    i = _end(_WS, text, i)
    while i < n and text[i] in "{;":
        i = _end(_WS, text, _skip_comment(text, i))
    return i >= n


def _strip_comments(line: str, in_brace: bool) -> tuple[str, bool]:
    """Remove the comments from one line of an Auction or Play section (which hold no
    quoted strings); ``in_brace`` says whether a ``{`` comment is open from an earlier
    line.  Returns the text and the new state."""
    out: list[str] = []
    i = 0
    n = len(line)
    while i < n:
        if in_brace:
            j = line.find("}", i)
            if j < 0:
                return " ".join(out), True
            in_brace = False
            i = j + 1
            continue
        m = _COMMENT_START.search(line, i)
        if m is None:
            out.append(line[i:])
            break
        out.append(line[i:m.start()])
        if m.group() == ";":
            break
        in_brace = True
        i = m.end()
    return " ".join(out), in_brace


# ---------------------------------------------------------------------------
# The data model
# ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Tag:
    """One tag pair of a game, with the section and the comments that go with it.

    :param name: the tag name (letters, digits and ``_``), e.g. ``"Deal"``.
    :param value: the tag value, unescaped and with ``#`` inheritance resolved.
    :param section: the data lines that follow the tag, verbatim (without line ends).
    :param comments: comment blocks before the tag, verbatim (``"{...}"``, ``"; ..."``;
        a ``{}`` block may span lines, joined with ``"\\n"``).
    :param trailing: a comment after the ``]`` on the tag's line, or None.
    :param line: 1-based line of the tag in its file; None for a tag made in code or
        inherited.  Not compared.
    :param section_line_numbers: the file line of each section line.  Not compared.
    """

    name: str
    value: str
    section: tuple[str, ...] = ()
    comments: tuple[str, ...] = ()
    trailing: str | None = None
    line: int | None = field(default=None, compare=False)
    section_line_numbers: tuple[int, ...] = field(default=(), compare=False, repr=False)

    @property
    def tag_line(self) -> str:
        """The tag pair as the writer prints it: ``[Name "value"]``, escaped."""
        return f'[{self.name} "{_escape(self.value)}"]'

    def to_pbn(self) -> str:
        """The tag's lines: its comments, the tag pair (with any trailing comment) and
        its section, joined with ``"\\n"`` (no final newline)."""
        head = self.tag_line if self.trailing is None else f"{self.tag_line} {self.trailing}"
        return "\n".join((*self.comments, head, *self.section))

    def _section_line(self, index: int) -> int | None:
        numbers = self.section_line_numbers
        if index < len(numbers):
            return numbers[index]
        return None if self.line is None else self.line + 1 + index


def _check_tag(tag: Tag) -> None:
    """Refuse a hand-made tag that the writer could not write back faithfully."""
    if not isinstance(tag, Tag):
        raise TypeError(f"expected a Tag, got {type(tag).__name__}")
    if not _NAME_FULL.match(tag.name):
        raise ValueError(f"bad tag name {tag.name!r}: use letters, digits and '_'")
    if "\n" in tag.value or "\r" in tag.value:
        raise ValueError(f"the value of tag {tag.name} spans lines")
    for i, line in enumerate(tag.section):
        if "\n" in line or "\r" in line or not line.strip():
            raise ValueError(f"section line {line!r} of tag {tag.name} is empty or holds a "
                             "line break")
        if line.startswith("%") and _unclosed_brace("\n".join(tag.section[:i])) is None:
            raise ValueError(f"section line {line!r} of tag {tag.name} would read back as a "
                             "directive")
    if tag.section:
        if _only_comments(tag.section[-1]):
            raise ValueError(f"the last section line of tag {tag.name} holds only comments; "
                             "it would read back as a comment of the next tag")
        unit = _Unit(list(enumerate(tag.section, 1)), None)
        if _unclosed_brace(unit.text) is not None:
            raise ValueError(f"the section of tag {tag.name} leaves a '{{' comment open")
        try:
            _check_data(unit, 0)
        except PBNError as err:
            raise ValueError(f"the section of tag {tag.name} would not read back: {err}") from None
    for block in tag.comments:
        _check_comment(block, tag.name)
    if tag.trailing is not None:
        _check_comment(tag.trailing, tag.name)
        if tag.trailing[0].isspace():
            raise ValueError(f"the trailing comment of tag {tag.name} starts with a space; "
                             "the writer puts one space after the ']'")


def _comment_units(block: str) -> int | None:
    """How many units (lines, or lines joined by an open ``{``) ``block`` reads back as,
    or None if it would not read back as comments only."""
    if not _only_comments(block):
        return None
    units = 0
    unit: str | None = None
    for line in block.split("\n"):
        if not line.strip() or (unit is None and line.startswith("%")):
            return None
        unit = line if unit is None else unit + "\n" + line
        if _unclosed_brace(unit) is None:
            units += 1
            unit = None
    return None if unit is not None else units


def _check_comment(block: str, where: str, *, block_of_lines: bool = False) -> None:
    """Refuse a comment that would not read back as given: a tag's comment is one unit
    (it spans lines only inside ``{}``); a preamble or epilogue block may hold several
    comment lines, but no empty one."""
    units = _comment_units(block)
    if units is None or (units != 1 and not block_of_lines):
        expected = ("comment lines" if block_of_lines
                    else "one '{...}' or '; ...' comment, spanning lines only inside braces")
        raise ValueError(f"{block!r} (near {where}) would not read back: expected {expected}")


class Game:
    """One game (board) of a PBN file: ordered tags with their sections and comments.

    Games are mutable so that tools can add results (:meth:`set_tag`,
    :meth:`set_section`); the typed accessors are computed on first use and cached
    until the next change.

    :param tags: the tag pairs, in order (a name may repeat, as ``Note`` does).
    :param preamble: blocks of comment lines standing alone before the game, each
        followed by an empty line in the file.
    :param trailing_comments: comment blocks after the last tag.
    :param line: the file line where the game starts (None for a game made in code).
    :param source: the file name, used in error messages.
    :raises ValueError: if a tag or comment could not be written back as given.
    """

    __slots__ = ("_tags", "preamble", "trailing_comments", "line", "source", "_cache", "_index")

    def __init__(self, tags: Iterable[Tag] = (), *, preamble: Iterable[str] = (),
                 trailing_comments: Iterable[str] = (), line: int | None = None,
                 source: str | None = None):
        self._tags = list(tags)
        for tag in self._tags:
            _check_tag(tag)
        self.preamble = tuple(preamble)
        self.trailing_comments = tuple(trailing_comments)
        for block in self.preamble:
            _check_comment(block, "preamble", block_of_lines=True)
        for block in self.trailing_comments:
            _check_comment(block, "end of game")
        self.line = line
        self.source = source
        self._cache: dict[str, object] = {}  # typed values, by accessor name
        self._index: dict[str, Tag] | None = None  # first tag of each name

    @classmethod
    def _make(cls, tags: list[Tag], preamble: tuple[str, ...], trailing: tuple[str, ...],
              line: int | None, source: str | None) -> Game:
        """The reader's constructor: the parts are known good, skip the checks."""
        game = cls.__new__(cls)
        game._tags = tags
        game.preamble = preamble
        game.trailing_comments = trailing
        game.line = line
        game.source = source
        game._cache = {}
        game._index = None
        return game

    @classmethod
    def from_pbn(cls, text: str, *, source: str | None = None) -> Game:
        """Parse the text of exactly one game (``#`` values resolve to ``""``).

        :raises PBNError: if the text is malformed or does not hold exactly one game.
        """
        reader = loads(text, source=source)
        games = list(reader)
        if len(games) != 1:
            raise PBNError(f"expected one game, found {len(games)}", source=source)
        return games[0]

    # ---- tags -------------------------------------------------------------
    @property
    def tags(self) -> tuple[Tag, ...]:
        """Every tag pair, in order."""
        return tuple(self._tags)

    def names(self) -> list[str]:
        """The tag names, in order (a repeated name appears each time)."""
        return [t.name for t in self._tags]

    def get(self, name: str) -> Tag | None:
        """The first tag called ``name``, or None."""
        if self._index is None:  # the accessors look up ten names: index them once
            self._index = {}
            for tag in self._tags:
                self._index.setdefault(tag.name, tag)
        return self._index.get(name)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag called ``name`` (``"?"`` stays ``"?"``), or ``default``."""
        tag = self.get(name)
        return default if tag is None else tag.value

    def set_tag(self, name: str, value: str) -> None:
        """Set the value of the first tag called ``name``, keeping its place, section and
        comments; append a new tag if there is none.

        :raises ValueError: for a bad name or a value holding a line break.
        """
        self._put(name, lambda old: replace(old, value=value), lambda: Tag(name, value))

    def set_section(self, name: str, value: str, lines: Iterable[str]) -> None:
        """Set a tag's value and the data lines that follow it (an ``OptimumResultTable``,
        an ``Auction``...), keeping its place and comments; append it if absent.

        :raises ValueError: for a bad name, a line break in the value, or a section line
            that would not read back as data (empty, starting with ``[`` or ``%``, or a
            last line holding only comments).
        """
        section = tuple(lines)
        self._put(name, lambda old: replace(old, value=value, section=section,
                                            section_line_numbers=()),
                  lambda: Tag(name, value, section))

    def remove_tag(self, name: str) -> int:
        """Remove every tag called ``name`` (with its section and comments); return how many."""
        before = len(self._tags)
        self._tags = [t for t in self._tags if t.name != name]
        self._changed()
        return before - len(self._tags)

    def _put(self, name: str, change: Callable[[Tag], Tag], make: Callable[[], Tag]) -> None:
        for i, tag in enumerate(self._tags):
            if tag.name == name:
                new = change(tag)
                _check_tag(new)
                self._tags[i] = new
                break
        else:
            new = make()
            _check_tag(new)
            self._tags.append(new)
        self._changed()

    # ---- typed accessors ----------------------------------------------------
    def _changed(self) -> None:
        self._cache.clear()
        self._index = None

    def _cached(self, key: str, compute: Callable[[], _T]) -> _T:
        """The value of ``compute()``, kept until the tags change."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]  # type: ignore[return-value]

    def _known(self, name: str) -> tuple[Tag | None, str | None]:
        """The tag and its value, the value None when absent, ``"?"`` or empty."""
        tag = self.get(name)
        if tag is None:
            return None, None
        value = tag.value.strip()
        return tag, (None if value in ("", "?") else value)

    def _error(self, tag: Tag | None, message: str, index: int | None = None) -> PBNError:
        """A PBNError for ``tag`` (``index`` set: for that section line)."""
        assert tag is not None
        if index is None:
            return PBNError(message, text=tag.tag_line, line=tag.line, source=self.source)
        return PBNError(message, text=tag.section[index], line=tag._section_line(index),
                        source=self.source)

    def _seat(self, name: str) -> Seat | None:
        tag, value = self._known(name)
        if value is None:
            return None
        if len(value) != 1 or value.upper() not in "NESW":
            raise self._error(tag, f"{name} must be N, E, S or W, not {value!r}")
        return Seat.parse(value)

    @property
    def deal(self) -> Deal | None:
        """The ``Deal`` tag as a :class:`~cardgames.hands.Deal`; None if absent or unknown.

        :raises PBNError: if the deal is malformed or impossible (with the tag's line).
        """
        return self._cached("deal", self._parse_deal)

    def _parse_deal(self) -> Deal | None:
        tag, value = self._known("Deal")
        if value is None:
            return None
        try:
            return Deal.from_pbn(value)
        except ParseError as err:
            where = "" if err.position is None else f" (column {err.position + 1} of the deal)"
            raise self._error(tag, f"bad deal: {err.message}{where}") from err
        except CardgamesError as err:
            raise self._error(tag, f"impossible deal: {err}") from err

    @property
    def board(self) -> int | None:
        """The ``Board`` number; None if absent or unknown.

        :raises PBNError: if it is not a whole number.
        """
        return self._cached("board", self._parse_board)

    def _parse_board(self) -> int | None:
        tag, value = self._known("Board")
        if value is None:
            return None
        if not (value.isascii() and value.isdigit()):
            raise self._error(tag, f"Board must be a number, not {value!r}")
        return int(value)

    @property
    def dealer(self) -> Seat | None:
        """The ``Dealer`` seat; None if absent or unknown.

        :raises PBNError: if it is not N, E, S or W.
        """
        return self._cached("dealer", lambda: self._seat("Dealer"))

    @property
    def vulnerable(self) -> str | None:
        """The ``Vulnerable`` tag as ``"none"``, ``"ns"``, ``"ew"`` or ``"both"`` (PBN writes
        None/Love/-, NS, EW, All/Both); None if absent or unknown.

        :raises PBNError: for any other value.
        """
        return self._cached("vulnerable", self._parse_vulnerable)

    def _parse_vulnerable(self) -> str | None:
        tag, value = self._known("Vulnerable")
        if value is None:
            return None
        vul = _VULNERABILITY.get(value.upper())
        if vul is None:
            raise self._error(tag, f"Vulnerable must be None, NS, EW or All, not {value!r}")
        return vul

    @property
    def contract(self) -> str | None:
        """The ``Contract`` tag as written (``"4SX"``, ``"3NT"``, ``"Pass"``); None if absent
        or unknown.  :meth:`cardgames.scoring.Contract.parse` turns it into a value.

        :raises PBNError: if it is not a PBN contract.
        """
        return self._cached("contract", self._parse_contract)

    def _parse_contract(self) -> str | None:
        tag, value = self._known("Contract")
        if value is None:
            return None
        if value.upper() != "PASS" and not _CONTRACT.match(value):
            raise self._error(tag, "Contract must look like 4S, 3NTX, 6HXX or Pass, "
                              f"not {value!r}")
        return value

    def _strain(self) -> Strain | None:
        """The trump strain of the contract; None if unknown or passed out."""
        contract = self.contract
        if contract is None or contract.upper() == "PASS":
            return None
        return Strain.parse(_CONTRACT.match(contract).group(2))  # type: ignore[union-attr]

    @property
    def declarer(self) -> Seat | None:
        """The ``Declarer`` seat; None if absent or unknown (or a passed-out board's ``""``).

        :raises PBNError: if it is not N, E, S or W.
        """
        return self._cached("declarer", lambda: self._seat("Declarer"))

    @property
    def auction_dealer(self) -> Seat | None:
        """Who made the first call of the ``Auction`` section (the tag's value, normally the
        dealer); None if there is no auction or it is unknown.

        :raises PBNError: if the value is not a seat.
        """
        return self._cached("auction_dealer", lambda: self._seat("Auction"))

    @property
    def auction(self) -> list[str]:
        """The calls of the ``Auction`` section in order: ``"1NT"``, ``"Pass"``, ``"X"``,
        ``"XX"``; ``AP`` (all pass) is spelled out as the passes that end the auction, and
        ``-`` (a missing call) is kept.  Notes (``=1=``), annotations (``!``, ``$2``) and
        comments are dropped; ``*`` ends the section.  Empty if there is no auction.

        :raises PBNError: for a token that is not a call (with its line).
        """
        return list(self._cached("auction", self._parse_auction))

    def _parse_auction(self) -> tuple[str, ...]:
        tag = self.get("Auction")
        if tag is None:
            return ()
        calls: list[str] = []
        for token, index in self._section_tokens(tag):
            word = token.upper()
            if word == "*":
                break
            if word == "AP":
                calls.extend(["Pass"] * _passes_to_end(calls))
                break
            if word in ("PASS", "P"):
                calls.append("Pass")
            elif word in ("X", "XX", "-"):
                calls.append(word)
            else:
                m = _BID.match(word)
                if m is None:
                    raise self._error(tag, f"{token!r} is not a call", index)
                strain = "NT" if m.group(2) in ("N", "NT") else m.group(2)
                calls.append(m.group(1) + strain)
        return tuple(calls)

    @property
    def opening_leader(self) -> Seat | None:
        """The seat that led to the first trick: the ``Play`` tag's value; None if unknown.

        :raises PBNError: if the value is not a seat.
        """
        return self._cached("opening_leader", lambda: self._seat("Play"))

    @property
    def play(self) -> list[Card]:
        """The cards of the ``Play`` section in the order they were played.

        PBN writes the play as a table: one row per trick, the columns in seat order
        starting from the opening leader (the tag's value), ``-`` for a card not played,
        ``*`` to end.  Each trick is led by the winner of the one before, which needs the
        trump strain from ``Contract``.  The play stops at the first card not played.
        Empty if there is no Play section.

        :raises PBNError: (with the line) for a token that is not a card, a card played
            twice, a card after a trick that was not finished, a gap inside a trick, or
            a play of more than one trick without a known contract.
        """
        return [card for card, _ in self._cached("play", self._parse_play)]

    def play_with_lines(self) -> list[tuple[Card, int | None]]:
        """The cards of :attr:`play`, each with the file line it stands on (None for a
        game made in code), so that a problem with a card can be reported on its line.

        :raises PBNError: as :attr:`play` does.
        """
        return list(self._cached("play", self._parse_play))

    def _parse_play(self) -> tuple[tuple[Card, int | None], ...]:
        tag = self.get("Play")
        if tag is None:
            return ()
        cells: list[tuple[Card | None, int]] = []  # one per table cell, with its section line
        for token, index in self._section_tokens(tag):
            if token == "*":
                break
            if token == "-":
                cells.append((None, index))
                continue
            try:
                cells.append((Card.parse(token), index))
            except ParseError:
                raise self._error(tag, f"{token!r} is not a card", index) from None
        if all(card is None for card, _ in cells):
            return ()
        first = self.opening_leader
        if first is None:
            raise self._error(tag, "the Play section needs the opening leader as the tag value")

        played: list[tuple[Card, int | None]] = []
        seen: set[Card] = set()
        leader = first
        ended_at: int | None = None  # section line of the first missing card
        for start in range(0, len(cells), 4):
            row = cells[start:start + 4]
            row += [(None, row[-1][1])] * (4 - len(row))
            # The row is in seat order from ``first``; the trick is in order from ``leader``.
            trick = [row[(leader - first + i) & 3] for i in range(4)]
            cards: list[Card] = []
            lines: list[int | None] = []
            for card, index in trick:
                if card is None:
                    if ended_at is None:
                        ended_at = index
                    continue
                if ended_at is not None:
                    raise self._error(tag, f"{card} is played after a card that was not "
                                      f"played (trick {start // 4 + 1})", index)
                if card in seen:
                    raise self._error(tag, f"{card} is played twice", index)
                seen.add(card)
                cards.append(card)
                lines.append(tag._section_line(index))
            played.extend(zip(cards, lines))
            if len(cards) == 4 and any(card for card, _ in cells[start + 4:]):
                strain = self._strain()
                if strain is None:
                    raise self._error(tag, f"cannot tell who leads to trick {start // 4 + 2} "
                                      "without the contract's trump suit (Contract tag)")
                leader = trick_winner(leader, cards, strain)
        return tuple(played)

    def _section_tokens(self, tag: Tag) -> Iterator[tuple[str, int]]:
        """The tokens of a section without comments, notes and annotations, each with the
        index of its section line."""
        in_brace = False
        for index, line in enumerate(tag.section):
            text, in_brace = _strip_comments(line, in_brace)
            for token in _NOTE_OR_NAG.sub(" ", text).split():
                token = token.rstrip("!?")
                if token:
                    yield token, index

    def validate(self) -> None:
        """Check every tag that has a typed accessor (Deal, Board, Dealer, Vulnerable,
        Contract, Declarer, Auction, Play).  The reader calls this on every game unless
        told not to.

        :raises PBNError: for the first bad tag, with its line.
        """
        for accessor in _TYPED_ACCESSORS:
            getattr(self, accessor)

    # ---- writing and comparing ---------------------------------------------
    def to_pbn(self) -> str:
        """The game's text, ending with a newline (the blank line that separates games is
        the writer's business).  Values are escaped: ``"`` as ``\\"`` and a backslash as
        ``\\\\`` where it would otherwise read as an escape.  A value ``"#"`` or one
        starting with ``"##"`` is written as it is, so it reads back as inheritance."""
        parts = [block + "\n" for block in self.preamble]  # each followed by a blank line
        lines = [tag.to_pbn() for tag in self._tags]
        lines.extend(self.trailing_comments)
        parts.append("\n".join(lines))
        return "\n".join(parts) + "\n"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self._tags == other._tags and self.preamble == other.preamble
                and self.trailing_comments == other.trailing_comments)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        shown = ", ".join(f"{t.name}={t.value!r}" for t in self._tags[:4])
        more = ", ..." if len(self._tags) > 4 else ""
        where = "" if self.line is None else f" line {self.line}"
        return f"<Game{where}: {shown}{more}>"


def _passes_to_end(calls: Sequence[str]) -> int:
    """How many passes ``AP`` stands for after ``calls``: enough to end the auction."""
    trailing = 0
    for call in reversed(calls):
        if call != "Pass":
            break
        trailing += 1
    needed = 3 if trailing < len(calls) else 4
    return max(0, needed - trailing)


def play_section(cards: Iterable[CardLike], leader: SeatLike, strain: StrainLike) -> list[str]:
    """The lines of a PBN ``Play`` section for cards given in playing order: the inverse
    of :attr:`Game.play`.  Columns are in seat order from ``leader`` (which becomes the
    tag value); an unfinished last trick is padded with ``-``.

    >>> play_section(["HK", "H2", "H5", "HA", "S2"], "W", "S")
    ['HK H2 H5 HA', '- - - S2']

    :raises ParseError: for a bad card, seat or strain.
    """
    first = Seat.parse(leader)
    trump = Strain.parse(strain)
    played = [Card.parse(c) for c in cards]
    lines = []
    trick_leader = first
    for start in range(0, len(played), 4):
        trick = played[start:start + 4]
        row = ["-"] * 4
        for i, card in enumerate(trick):
            row[(trick_leader + i - first) & 3] = str(card)
        lines.append(" ".join(row))
        if len(trick) == 4:
            trick_leader = trick_winner(trick_leader, trick, trump)
    return lines


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------

class _Unit:
    """Consecutive physical lines read as one piece: a single line, or the lines a
    ``{`` comment spans.  Knows how to turn a position back into a line number."""

    __slots__ = ("numbers", "lines", "text", "source")

    def __init__(self, numbered: list[tuple[int, str]], source: str | None):
        self.numbers = [n for n, _ in numbered]
        self.lines = [t for _, t in numbered]
        self.text = "\n".join(self.lines)
        self.source = source

    def row(self, pos: int) -> int:
        return self.text.count("\n", 0, pos)

    def error(self, pos: int, message: str) -> PBNError:
        row = self.row(pos)
        return PBNError(message, text=self.lines[row], line=self.numbers[row], source=self.source)


_TAG_NEW = Tag.__new__
(_SET_NAME, _SET_VALUE, _SET_SECTION, _SET_COMMENTS, _SET_TRAILING, _SET_LINE,
 _SET_NUMBERS) = (getattr(Tag, f).__set__ for f in (
    "name", "value", "section", "comments", "trailing", "line", "section_line_numbers"))


def _new_tag(name: str, value: str, section: tuple[str, ...], comments: tuple[str, ...],
             trailing: str | None, line: int, numbers: tuple[int, ...]) -> Tag:
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
    return tag


class _Builder:
    """Collects the pieces of one game while it is read."""

    __slots__ = ("line", "tags", "pending")

    def __init__(self, line: int):
        self.line = line
        # Each tag: [name, value, line, comments, trailing, section lines, their numbers],
        # the last two None until the tag has a section.
        self.tags: list[list] = []
        self.pending: list[_Unit] = []  # comment-only units not yet placed

    def add_tag(self, name: str, value: str, line: int, leading: str | None,
                trailing: str | None) -> None:
        comments: tuple[str, ...] = ()
        if self.pending or leading:
            comments = tuple(u.text for u in self.pending) + ((leading,) if leading else ())
            self.pending = []
        self.tags.append([name, value, line, comments, trailing, None, None])

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

    def build(self, preamble: tuple[str, ...], source: str | None) -> Game:
        tags = [_new_tag(name, value, () if section is None else tuple(section), comments,
                         trailing, line, () if numbers is None else tuple(numbers))
                for name, value, line, comments, trailing, section, numbers in self.tags]
        trailing_comments = tuple(u.text for u in self.pending)
        return Game._make(tags, preamble, trailing_comments, self.line, source)


def _parse_tag(unit: _Unit, i: int) -> tuple[str, str, int]:
    """Read the tag pair at ``unit.text[i] == '['``; return name, value, end index."""
    text = unit.text
    m = _TAG_PAIR.match(text, i)
    if m:
        return m.group(1), _unescape(m.group(2)), m.end()
    # Not well formed: find out what is wrong, for a precise message.
    n = len(text)
    j = _end(_BLANKS, text, i + 1)
    name_match = _NAME.match(text, j)
    if name_match is None:
        if j >= n or text[j] in '"]\n':
            raise unit.error(i, "tag without a name")
        raise unit.error(j, f"bad character {text[j]!r} in a tag name (letters, digits, '_')")
    name = name_match.group()
    j = name_match.end()
    if j < n and text[j] not in ' \t"]\n':
        raise unit.error(j, f"bad character {text[j]!r} in a tag name (letters, digits, '_')")
    j = _end(_BLANKS, text, j)
    if j >= n or text[j] != '"':
        raise unit.error(i, f"the value of tag {name} must be in double quotes")
    value_match = _STRING.match(text, j)
    if value_match is None:
        raise unit.error(j, f"missing closing quote in the value of tag {name}")
    j = _end(_BLANKS, text, value_match.end())
    if j >= n or text[j] in "\n{;[":
        raise unit.error(i, f"unclosed tag {name}: ']' missing")
    raise unit.error(j, f"unexpected text after the value of tag {name}, expected ']'")


def _check_data(unit: _Unit, i: int) -> None:
    """Section data must not hold a ``[`` (a tag starts its own line) or an unterminated
    string."""
    text = unit.text
    while True:
        m = _SPECIAL.search(text, i)
        if m is None:
            return
        i = m.start()
        ch = text[i]
        if ch == "[":
            raise unit.error(i, "a tag must start its line; '[' found among section data")
        if ch == '"':
            s = _STRING.match(text, i)
            if s is None:
                raise unit.error(i, "missing closing quote in section data")
            i = s.end()
        else:
            i = _skip_comment(text, i)


def _apply_unit(builder: _Builder, unit: _Unit) -> None:
    """Classify a unit (comments only, tags, or section data) and add it to the game."""
    text = unit.text
    n = len(text)
    i = _end(_WS, text)
    while i < n and text[i] in "{;":
        i = _end(_WS, text, _skip_comment(text, i))
    if i >= n:
        builder.pending.append(unit)
        return
    if text[i] != "[":
        if not builder.tags:
            raise unit.error(i, "section data before the first tag of the game")
        _check_data(unit, i)
        builder.add_data(unit.lines, unit.numbers)
        return
    leading = text[:i].strip() or None
    while True:
        name, value, end = _parse_tag(unit, i)
        line = unit.numbers[unit.row(i)]
        data_at = _end(_WS, text, end)
        j = data_at
        while j < n and text[j] in "{;":
            j = _end(_WS, text, _skip_comment(text, j))
        if j < n and text[j] == "[":  # another tag on the same line
            builder.add_tag(name, value, line, leading, text[end:j].strip() or None)
            leading = None
            i = j
            continue
        if j >= n:
            builder.add_tag(name, value, line, leading, text[end:].lstrip() or None)
            return
        # Data after the tag on its line: it starts the tag's section.
        builder.add_tag(name, value, line, leading, None)
        _check_data(unit, data_at)
        row = unit.row(data_at)
        rest = text[data_at:].split("\n")
        builder.add_data(rest, unit.numbers[row:row + len(rest)])
        return


def _unterminated(numbered: list[tuple[int, str]], source: str | None) -> PBNError:
    unit = _Unit(numbered, source)
    pos = _unclosed_brace(unit.text)
    return unit.error(pos or 0, "unterminated '{' comment (no '}' before the end of the game)")


class PBNReader:
    """The games of a PBN stream, read one at a time (an iterator of :class:`Game`).

    Made by :func:`load`, :func:`loads` and :func:`load_path`; see :func:`load` for the
    parameters.  Besides the games it gathers:

    * :attr:`directives`: the ``%`` lines seen so far, verbatim (``"% PBN 2.1"``);
    * :attr:`errors`: in lenient mode, one :class:`PBNError` per skipped game, its
      ``raw`` the game's text as it stood in the file;
    * :attr:`epilogue`: comment blocks after the last game;
    * :attr:`head`: the lines before the first game (or comment block), verbatim:
      directives and empty lines, so a tool can copy the top of a file as it was;
    * :attr:`blank_lines_at_end`: how many empty lines end the stream (set once it is
      read to the end).

    It is its own iterator and can be used as a context manager, which closes a file
    that :func:`load_path` opened.
    """

    def __init__(self, lines: Iterable[str], *, strict: bool = True, source: str | None = None,
                 validate: bool = True, on_error: Callable[[PBNError], None] | None = None,
                 _closing: Iterator[str] | None = None):
        self.strict = strict
        self.source = source
        self.validate = validate
        self.on_error = on_error
        self.directives: list[str] = []
        self.errors: list[PBNError] = []
        self.epilogue: list[str] = []
        self.head: list[str] = []
        self.blank_lines_at_end = 0
        self._closing = _closing
        self._preamble: list[str] = []
        self._last: dict[str, str] = {}    # tag name -> value in the latest game that had it
        self._sticky: dict[str, str] = {}  # tag name -> value set with "##"
        self._games = self._read(iter(lines))

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
    def _read(self, lines: Iterator[str]) -> Generator[Game, None, None]:
        source = self.source
        # In lenient mode the lines of the game being read are kept, so that a bad game's
        # error can carry its text (PBNError.raw): one game's lines, never the file's.
        keep = not self.strict
        raw: list[str] = []
        builder: _Builder | None = None
        open_unit: list[tuple[int, str]] | None = None  # lines of a '{' comment still open
        # After an error in lenient mode: the error and the comment blocks that stood
        # before the bad game, until the end of the game (skipping its other lines).
        failure: tuple[PBNError, list[str]] | None = None
        in_head = True  # no game line yet: directives and empty lines go to self.head
        blanks = 0      # empty lines since the last line that was not empty
        line = ""
        for number, text in enumerate(lines, 1):
            line = text.rstrip("\r\n")
            if number == 1 and line.startswith("\ufeff"):
                line = line[1:]
            try:
                if open_unit is not None:
                    if line and not line.isspace():
                        blanks = 0
                        if keep:
                            raw.append(line)
                        open_unit.append((number, line))
                        unit = _Unit(open_unit, source)
                        if _unclosed_brace(unit.text) is None:
                            open_unit = None
                            assert builder is not None  # made by the line that opened it
                            _apply_unit(builder, unit)
                        continue
                    # An empty line ends the game even inside a comment: a brace left
                    # open cannot swallow the rest of the file.
                    blanks += 1
                    numbered, open_unit = open_unit, None
                    raise _unterminated(numbered, source)
                if not line or line.isspace():
                    blanks += 1
                    if in_head:
                        self.head.append(line)
                    if failure is not None:
                        self._skipped(*failure, raw)
                        failure = None
                        raw = []
                    elif builder is not None:
                        done, builder = builder, None
                        game = self._finish(done)
                        raw = []
                        if game is not None:
                            yield game
                    continue
                blanks = 0
                if failure is not None:
                    if len(raw) < _RAW_LIMIT:
                        raw.append(line)
                    continue
                if line[0] == "%":
                    self.directives.append(line)
                    if in_head:
                        self.head.append(line)
                    continue
                in_head = False
                if keep:
                    raw.append(line)
                if builder is None:
                    builder = _Builder(number)
                m = _TAG_LINE.match(line)
                if m is not None:  # the common case, an export-style tag line
                    name, value = m.groups()
                    if "\\" in value:
                        value = _unescape(value)
                    builder.add_tag(name, value, number, None, None)
                elif _SPECIAL.search(line) is None:
                    if not builder.tags:
                        raise _Unit([(number, line)], source).error(
                            0, "section data before the first tag of the game")
                    builder.add_data([line], [number])
                elif "{" in line and _unclosed_brace(line) is not None:
                    open_unit = [(number, line)]
                else:
                    _apply_unit(builder, _Unit([(number, line)], source))
            except PBNError as err:
                if self.strict:
                    raise err
                builder = None
                preamble, self._preamble = self._preamble, []
                if line and not line.isspace():
                    failure = (err, preamble)  # reported at the end of the bad game
                else:  # the empty line that ends the game found the error
                    self._skipped(err, preamble, raw)
                    raw = []
        try:
            if open_unit is not None:
                raise _unterminated(open_unit, source)
            if builder is not None and failure is None:
                game = self._finish(builder)
                if game is not None:
                    yield game
        except PBNError as err:
            if self.strict:
                raise err
            failure = (err, self._preamble)
            self._preamble = []
        if failure is not None:
            self._skipped(*failure, raw)
        self.blank_lines_at_end = blanks
        self.epilogue.extend(self._preamble)
        self._preamble = []
        if self._closing is not None and hasattr(self._closing, "close"):
            self._closing.close()

    def _skipped(self, err: PBNError, preamble: list[str], raw: list[str]) -> None:
        """A bad game skipped in lenient mode: record its error, with the game's text."""
        if raw and len(raw) < _RAW_LIMIT:
            err.raw = "".join(block + "\n\n" for block in preamble) + "\n".join(raw) + "\n"
        self.errors.append(err)
        if self.on_error is not None:
            self.on_error(err)

    def _finish(self, builder: _Builder) -> Game | None:
        """Turn a complete block into a game: resolve inheritance, validate, and only then
        let it count as "the previous game" for later ``#`` values."""
        if not builder.tags:  # comments standing alone: they introduce the next game
            self._preamble.append("\n".join(u.text for u in builder.pending))
            return None
        game = builder.build(tuple(self._preamble), self.source)
        self._preamble = []
        sticky = self._inherit(game)
        if self.validate:
            game.validate()
        for tag in game._tags:
            self._last[tag.name] = tag.value
        self._sticky.update(sticky)
        return game

    def _inherit(self, game: Game) -> dict[str, str]:
        """Resolve ``#`` and ``##`` values in place; return the ``##`` values to remember."""
        tags = game._tags
        sticky: dict[str, str] = {}
        for i, tag in enumerate(tags):
            value = tag.value
            if value == "#":
                tags[i] = replace(tag, value=self._last.get(tag.name, ""))
            elif value.startswith("##"):
                sticky[tag.name] = value[2:]
                tags[i] = replace(tag, value=value[2:])
            elif tag.name in self._sticky:  # a plain value redefines a "##" value
                sticky[tag.name] = value
        if self._sticky:
            present = {t.name for t in tags}
            for name, value in self._sticky.items():
                if name not in present:
                    tags.insert(_insert_index(tags, name), Tag(name, value))
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


def load(fp: Iterable[str], *, strict: bool = True, source: str | None = None,
         validate: bool = True, on_error: Callable[[PBNError], None] | None = None) -> PBNReader:
    """Read games from a text file (or any iterable of lines), one at a time.

    >>> import io
    >>> [g.board for g in load(io.StringIO('[Board "1"]\\n\\n[Board "2"]\\n'))]
    [1, 2]

    :param fp: an open text file, or any iterable of lines; read lazily, line by line.
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


def loads(text: str, *, strict: bool = True, source: str | None = None, validate: bool = True,
          on_error: Callable[[PBNError], None] | None = None) -> PBNReader:
    """Read games from a string; the parameters are those of :func:`load`.

    :returns: a :class:`PBNReader` (``list(loads(text))`` for a list of games).
    :raises PBNError: while iterating, in strict mode, for a malformed game.
    """
    # newline="" splits on \\n, \\r\\n and \\r alike but on nothing else (str.splitlines
    # would also split on characters that may sit inside a tag value).
    return PBNReader(io.StringIO(text, newline=""), strict=strict, source=source,
                     validate=validate, on_error=on_error)


def _decoded_lines(path: str | PathLike[str], encoding: str | None) -> Iterator[str]:
    if encoding is not None:
        with open(path, encoding=encoding, newline="") as fp:
            yield from fp
        return
    with open(path, "rb") as fp:
        for raw in fp:
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError:
                yield raw.decode("latin-1")


def load_path(path: str | PathLike[str], *, encoding: str | None = None, strict: bool = True,
              validate: bool = True,
              on_error: Callable[[PBNError], None] | None = None) -> PBNReader:
    """Read games from a file by name; the other parameters are those of :func:`load`.

    :param encoding: the file's encoding.  By default each line is read as UTF-8 if it
        is valid UTF-8 and as Latin-1 (the PBN standard's character set) otherwise.
    :returns: a :class:`PBNReader`; the file closes when the games run out or when the
        reader is closed (``with load_path(p) as reader: ...``).
    :raises OSError: if the file cannot be opened (on the first read).
    :raises PBNError: while iterating, in strict mode, for a malformed game.
    """
    lines = _decoded_lines(path, encoding)
    return PBNReader(lines, strict=strict, source=str(path), validate=validate,
                     on_error=on_error, _closing=lines)


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

def _directive_line(directive: str) -> str:
    if "\n" in directive or "\r" in directive:
        raise ValueError(f"a directive is one line: {directive!r}")
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
        _check_comment(block, "epilogue", block_of_lines=True)
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
