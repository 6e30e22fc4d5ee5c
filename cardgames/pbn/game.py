"""A game of a PBN file and its parts: :class:`Tag` (a tag pair with its section and
comments), :class:`Game` (the tags of one board, in order, with the typed accessors that
read the Deal, the Auction, the Play...), and :func:`play_section`, which writes a Play
section.

Everything here works on text already cut into tags and section lines: reading a file
into games is the reader's business (:mod:`cardgames.pbn.reader`), writing one the
writer's (:mod:`cardgames.pbn.writer`).  The checks that keep a game writable
(:func:`check_tag`, :func:`check_comment`) live here, because a game made in code must
pass them as a game read from a file does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from ..auction import Auction
from ..cards import Card, CardLike, Seat, SeatLike, Strain, StrainLike
from ..errors import CardgamesError, ParseError, PBNError
from ..hands import Deal
from ..play import Position, trick_winner
from .text import (
    NAME_FULL,
    Unit,
    check_data,
    escape,
    excerpt,
    only_comments,
    short,
    strip_comments,
    unclosed_brace,
    unescape,
)

_T = TypeVar("_T")

#: The properties :meth:`Game.validate` checks, in order.
_TYPED_ACCESSORS = ("deal", "board", "dealer", "vulnerable", "contract", "declarer",
                    "auction_dealer", "auction", "opening_leader", "play")

#: The most digits a Board number may have.
_BOARD_DIGITS = 9

_VULNERABILITY = {"NONE": "none", "LOVE": "none", "-": "none", "NS": "ns", "EW": "ew",
                  "ALL": "both", "BOTH": "both"}
# Tokens of the Auction and Play sections, and contracts.
_NOTE_OR_NAG = re.compile(r"=\d+=|\$\d+")
_NOTE = re.compile(r"=(\d+)=")
_CONTRACT = re.compile(r"([1-7])(NT|N|[SHDC])(X{0,2})\Z", re.IGNORECASE)
_END_POSITION_CONTRACT = re.compile(r"()(NT|N|[SHDC])\Z", re.IGNORECASE)
_BID = re.compile(r"([1-7])(NT|N|[SHDC])\Z", re.IGNORECASE)


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
    :param escaped: the value as the file wrote it between the quotes, when that holds a
        backslash (``"a\\\\b"``), so that it is written back with the same escapes.  Not
        compared; ignored once it no longer unescapes to ``value``.
    """

    name: str
    value: str
    section: tuple[str, ...] = ()
    comments: tuple[str, ...] = ()
    trailing: str | None = None
    line: int | None = field(default=None, compare=False)
    section_line_numbers: tuple[int, ...] = field(default=(), compare=False, repr=False)
    escaped: str | None = field(default=None, compare=False, repr=False)

    @property
    def tag_line(self) -> str:
        """The tag pair as the writer prints it: ``[Name "value"]``, escaped (as the file
        had it, for a tag read from a file and not changed)."""
        escaped = self.escaped
        if escaped is None or "\n" in escaped or unescape(escaped) != self.value:
            escaped = escape(self.value)
        return f'[{self.name} "{escaped}"]'

    def to_pbn(self) -> str:
        """The tag's lines: its comments, the tag pair (with any trailing comment) and
        its section, joined with ``"\\n"`` (no final newline)."""
        section = self.section
        if self.trailing is not None:
            head = f"{self.tag_line} {self.trailing}"
        elif section and section[0].startswith("%"):
            # Data after the tag on its line that starts with '%': on a line of its own it
            # would read back as a '%' line (a comment of the next tag), so it stays here.
            head, section = f"{self.tag_line} {section[0]}", section[1:]
        else:
            head = self.tag_line
        return "\n".join((*self.comments, head, *section))

    def _section_line(self, index: int) -> int | None:
        numbers = self.section_line_numbers
        if index < len(numbers):
            return numbers[index]
        return None if self.line is None else self.line + 1 + index


def check_tag(tag: Tag) -> None:
    """Refuse a hand-made tag that the writer could not write back faithfully."""
    if not isinstance(tag, Tag):
        raise TypeError(f"expected a Tag, got {type(tag).__name__}")
    if not NAME_FULL.match(tag.name):
        raise ValueError(f"bad tag name {short(tag.name)}: use letters, digits and '_'")
    if "\n" in tag.value or "\r" in tag.value:
        raise ValueError(f"the value of tag {tag.name} spans lines")
    checked: list[str] = []  # the section with its '%' lines blanked, for the data checks
    for i, line in enumerate(tag.section):
        if "\n" in line or "\r" in line:
            raise ValueError(f"section line {short(line)} of tag {tag.name} holds a line break")
        in_brace = i > 0 and unclosed_brace("\n".join(tag.section[:i])) is not None
        if not in_brace and not line.strip():
            raise ValueError(f"section line {i + 1} of tag {tag.name} is empty (outside a "
                             "'{...}' comment an empty line ends the game)")
        checked.append("" if not in_brace and line.startswith("%") else line)
    if tag.section:
        last = tag.section[-1]
        if checked[-1] == "" or only_comments(last):
            raise ValueError(f"the last section line of tag {tag.name} holds only comments; "
                             "it would read back as a comment of the next tag")
        unit = Unit(list(enumerate(checked, 1)), None)
        if unclosed_brace(unit.text) is not None:
            raise ValueError(f"the section of tag {tag.name} leaves a '{{' comment open")
        try:
            check_data(unit, 0)
        except PBNError as err:
            raise ValueError(f"the section of tag {tag.name} would not read back: "
                             f"{err.reason}") from None
    for block in tag.comments:
        check_comment(block, tag.name)
    if tag.trailing is not None:
        check_comment(tag.trailing, tag.name)
        if tag.trailing[0].isspace():
            raise ValueError(f"the trailing comment of tag {tag.name} starts with a space; "
                             "the writer puts one space after the ']'")


def _comment_units(block: str) -> int | None:
    """How many units (lines, or lines joined by an open ``{``) ``block`` reads back as,
    or None if it would not read back as comments only.  A ``%`` line is a unit of its
    own; an empty line may stand only inside a ``{...}`` comment."""
    units = 0
    unit: str | None = None
    for line in block.split("\n"):
        if unit is None:
            if not line.strip():
                return None
            if line.startswith("%"):
                units += 1
                continue
        unit = line if unit is None else unit + "\n" + line
        if unclosed_brace(unit) is None:
            if not only_comments(unit):
                return None
            units += 1
            unit = None
    return None if unit is not None else units


def check_comment(block: str, where: str, *, block_of_lines: bool = False) -> None:
    """Refuse a comment that would not read back as given: a tag's comment is one unit
    (a ``%`` line, or a comment spanning lines only inside ``{}``); a preamble or epilogue
    block may hold several comment lines, and empty lines only inside ``{}``."""
    units = _comment_units(block)
    if units is None or (units != 1 and not block_of_lines):
        expected = ("comment lines" if block_of_lines
                    else "one '{...}' or '; ...' comment, spanning lines only inside braces")
        raise ValueError(f"{short(block)} (near {where}) would not read back: expected {expected}")


class Original:
    """The bytes a game took in its file: its lines with their line ends, from the end of
    the game before (so with the empty lines, ``%`` lines and comment blocks before it)
    through its own last line, and the encoding new text for it is written in."""

    __slots__ = ("lines", "first", "encoding")

    def __init__(self, lines: list[bytes], first: int, encoding: str):
        self.lines = lines        # each with its line end (the file's last may have none)
        self.first = first        # the file line of lines[0]
        self.encoding = encoding  # "utf-8" or "latin-1"


# Game.from_pbn reads its text with the reader's loads.  The reader is built on this module
# (it makes the Tags and Games), so this module cannot import it: the reader hands its
# loads over when it is imported, through use_text_reader().  The package's __init__
# imports the reader, so this is done before any code can call Game.from_pbn.
_text_reader: Callable[..., Iterable[Game]] | None = None


def use_text_reader(loads: Callable[..., Iterable[Game]]) -> None:
    """Make ``loads`` the function :meth:`Game.from_pbn` reads its text with (called
    once, by :mod:`cardgames.pbn.reader`)."""
    global _text_reader
    _text_reader = loads


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

    # _shared_deal, _end_of_tags and _original are filled by the reader (reader.py), for a
    # game it read; the writer (writer.py) reads _end_of_tags and _original.
    __slots__ = ("_tags", "preamble", "trailing_comments", "line", "source", "_cache", "_index",
                 "index", "same_deal_as", "_shared_deal", "_end_of_tags", "_original")

    def __init__(self, tags: Iterable[Tag] = (), *, preamble: Iterable[str] = (),
                 trailing_comments: Iterable[str] = (), line: int | None = None,
                 source: str | None = None):
        self._tags = list(tags)
        for tag in self._tags:
            check_tag(tag)
        self.preamble = tuple(preamble)
        self.trailing_comments = tuple(trailing_comments)
        for block in self.preamble:
            check_comment(block, "preamble", block_of_lines=True)
        for block in self.trailing_comments:
            check_comment(block, "end of game")
        self.line = line
        self.source = source
        self._cache: dict[str, object] = {}  # typed values, by accessor name
        self._index: dict[str, Tag] | None = None  # first tag of each name
        #: The game's place among the games its reader gave (0 for the first); None for a
        #: game made in code.
        self.index: int | None = None
        #: The :attr:`index` of the first game of the same reader that holds the same deal
        #: (another table of the board); None if this game is the first with its deal.
        self.same_deal_as: int | None = None
        self._shared_deal: str | None = None  # the deal of the board's first table
        self._end_of_tags: int | None = None   # the last file line holding a tag or data
        self._original: Original | None = None

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
        game.index = None
        game.same_deal_as = None
        game._shared_deal = None
        game._end_of_tags = None
        game._original = None
        return game

    @classmethod
    def from_pbn(cls, text: str, *, source: str | None = None) -> Game:
        """Parse the text of exactly one game (``#`` values resolve to ``""``).

        :raises PBNError: if the text is malformed or does not hold exactly one game.
        """
        assert _text_reader is not None, "cardgames.pbn.reader has not been imported"
        games = list(_text_reader(text, source=source))
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
            index: dict[str, Tag] = {}
            for tag in self._tags:
                # The first of a name: a test and a store, not setdefault (a call per tag;
                # the reader looks up the Board and Deal of every game).
                if tag.name not in index:
                    index[tag.name] = tag
            self._index = index
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
        :raises TypeError: if ``value`` is not a string.
        """
        if not isinstance(value, str):
            raise TypeError(f"the value of tag {name} must be a string, not "
                            f"{type(value).__name__}")
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
                check_tag(new)
                self._tags[i] = new
                break
        else:
            new = make()
            check_tag(new)
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

    def known(self, name: str) -> str | None:
        """The value of the first tag called ``name``, stripped; None when it is absent,
        empty or unknown (``"?"``, or a ``"#"`` left with nothing to inherit)."""
        value = self._known(name)[1]
        return None if value == "#" else value

    def _known(self, name: str) -> tuple[Tag | None, str | None]:
        """The tag and its value, the value None when absent, ``"?"`` or empty."""
        tag = self.get(name)
        if tag is None:
            return None, None
        value = tag.value.strip()
        return tag, (None if value in ("", "?") else value)

    def _error(self, tag: Tag | None, message: str, index: int | None = None) -> PBNError:
        """A PBNError for ``tag`` (``index`` set: for that section line; no tag: for the
        game)."""
        if tag is None:
            return PBNError(message, line=self.line, source=self.source)
        if index is None:
            # An inherited tag has no line of its own: name the game's.
            line = tag.line if tag.line is not None else self.line
            return PBNError(message, text=excerpt(tag.tag_line), line=line, source=self.source)
        return PBNError(message, text=excerpt(tag.section[index]), line=tag._section_line(index),
                        source=self.source)

    def _seat(self, name: str) -> Seat | None:
        tag, value = self._known(name)
        if value is None:
            return None
        if name == "Declarer" and value.startswith("^"):
            value = value[1:]  # an irregular declarer (PBN 2.1 section 3.9): still the seat
        if len(value) != 1 or value.upper() not in "NESW":
            raise self._error(tag, f"{name} must be N, E, S or W, not {short(value)}")
        return Seat.parse(value)

    @property
    def deal(self) -> Deal | None:
        """The ``Deal`` tag as a :class:`~cardgames.hands.Deal`; None if absent or unknown.

        :raises PBNError: if the deal is malformed or impossible (with the tag's line).
        """
        return self._cached("deal", self._parse_deal)

    @property
    def deal_inherited(self) -> bool:
        """True if the game has no ``Deal`` tag and :attr:`deal` is the deal of an earlier
        game of the same board (another table of it; see :attr:`same_deal_as`)."""
        return self._shared_deal is not None and self.get("Deal") is None

    def _parse_deal(self) -> Deal | None:
        tag, value = self._known("Deal")
        if tag is None and self._shared_deal is not None:
            value = self._shared_deal  # the deal of the board's first table
        if value is None:
            return None
        try:
            return Deal.from_pbn(value)
        except ParseError as err:
            where = "" if err.position is None else f" (column {err.position + 1} of the deal)"
            raise self._error(tag, f"bad deal: {excerpt(err.message)}{where}") from err
        except CardgamesError as err:
            # Teaching files (BridgeComposer) write a hand they do not show as "..." (no
            # cards), which makes unequal hands; read such hands as unknown ("-").
            colon = value.find(":")
            hands = value[colon + 1:].split()
            if "..." in hands and any(h not in ("...", "-") for h in hands):
                shown = " ".join("-" if h == "..." else h for h in hands)
                try:
                    return Deal.from_pbn(f"{value[:colon + 1]}{shown}")
                except CardgamesError:
                    pass
            raise self._error(tag, f"impossible deal: {excerpt(str(err))}") from err

    @property
    def board(self) -> int | None:
        """The ``Board`` number (``"01"`` reads as 1); None if absent or unknown, or for a
        value that is not a number, such as ``"4-1"`` or ``"spacer"`` (labels that real
        writers use; ``Game.tag("Board")`` has the text).

        :raises PBNError: for a number of more than nine digits.
        """
        return self._cached("board", self._parse_board)

    def _parse_board(self) -> int | None:
        tag, value = self._known("Board")
        if value is None:
            return None
        if not (value.isascii() and value.isdigit()):
            # "4-1", "spacer": labels some writers use (a chapter and a deal, an item that
            # is no board); the text is kept, as Game.tag("Board"), but names no number.
            return None
        if len(value.lstrip("0")) > _BOARD_DIGITS:
            # int() refuses more than 4,300 digits, with a ValueError that would end the
            # file; no board numbers so high in any case.
            raise self._error(tag, f"Board number {short(value)} is too large (more than "
                              f"{_BOARD_DIGITS} digits)")
        return int(value.lstrip("0") or "0")

    @property
    def result(self) -> int | None:
        """The ``Result`` tag as declarer's side's tricks, 0 to 13 (a claim, where the play
        stops before the end); None if absent or unknown, or for a value that is no trick
        count (``"²"``, ``"+1"``, a score: ``Game.tag("Result")`` has the text)."""
        return self._cached("result", self._parse_result)

    def _parse_result(self) -> int | None:
        _, value = self._known("Result")
        if value is None or not (value.isascii() and value.isdigit()) or int(value) > 13:
            return None
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
            raise self._error(tag, f"Vulnerable must be None, NS, EW or All, not {short(value)}")
        return vul

    @property
    def contract(self) -> str | None:
        """The ``Contract`` tag as written (``"4SX"``, ``"3NT"``, ``"3N"``, ``"Pass"``, or an
        end position's bare trump suit ``"H"``).  Where the tag is absent, empty or ``"?"``,
        the contract a complete ``Auction`` section ends in (``"5CX"``, ``"Pass"``), else
        None (no auction, or one that is incomplete or illegal).
        :meth:`cardgames.scoring.Contract.parse` turns it into a value.

        :raises PBNError: if it is not a PBN contract.
        """
        return self._cached("contract", self._parse_contract)

    def _parse_contract(self) -> str | None:
        tag, value = self._known("Contract")
        if value is None:
            derived = self._from_auction()
            return None if derived is None else derived[0]
        if value.upper() != "PASS" and not _CONTRACT.match(value):
            if _END_POSITION_CONTRACT.match(value):
                return value  # only the trump suit, as an end position may give (3.10)
            raise self._error(tag, "Contract must look like 4S, 3NTX, 6HXX or Pass, "
                              f"not {short(value)}")
        return value

    def _from_auction(self) -> tuple[str, Seat | None] | None:
        """The contract (as PBN writes it) and declarer that a complete ``Auction`` section
        ends in; None without one, or if it does not read as a legal auction."""
        return self._cached("from_auction", self._derive)

    def _derive(self) -> tuple[str, Seat | None] | None:
        if self.get("Auction") is None:
            return None
        try:
            calls = self.auction
            dealer = self.auction_dealer
            if not calls or "-" in calls or dealer is None:
                return None
            auction = Auction.parse(" ".join(calls), dealer=dealer)
        except CardgamesError:
            return None
        if not auction.is_complete:
            return None
        contract = auction.contract
        if contract is None:
            return "Pass", None
        text = f"{contract.level}{contract.strain.letter}{'X' * contract.doubled}"
        return text, auction.declarer

    def _strain(self) -> Strain | None:
        """The trump strain of the contract; None if unknown or passed out."""
        contract = self.contract
        if contract is None or contract.upper() == "PASS":
            return None
        m = _CONTRACT.match(contract) or _END_POSITION_CONTRACT.match(contract)
        return Strain.parse(m.group(2))  # type: ignore[union-attr]

    @property
    def declarer(self) -> Seat | None:
        """The ``Declarer`` seat (``"^S"``, an irregular declarer, reads as S); None if
        unknown (or a passed-out board's ``""``).  Where the tag is absent, empty or
        ``"?"``, the declarer of a complete ``Auction`` section, as :attr:`contract` does.

        :raises PBNError: if it is not N, E, S or W.
        """
        return self._cached("declarer", self._parse_declarer)

    def _parse_declarer(self) -> Seat | None:
        seat = self._seat("Declarer")
        if seat is None:
            derived = self._from_auction()
            return None if derived is None else derived[1]
        return seat

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
        ``-`` (a missing call) is kept.  Notes (``=1=``), annotations (``!``, ``?``, an
        alert ``*`` after a call, ``$2``), irregularities (``^I``) and comments are
        dropped; ``*`` alone ends the section, and so does ``+`` (to be continued).  Empty
        if there is no auction.

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
            if word in ("*", "+"):  # the end; "+": the auction is to be continued
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
                    raise self._error(tag, f"{short(token)} is not a call", index)
                strain = "NT" if m.group(2) in ("N", "NT") else m.group(2)
                calls.append(m.group(1) + strain)
        return tuple(calls)

    @property
    def auction_notes(self) -> list[tuple[str | None, bool]]:
        """For each call of :attr:`auction`, the text of the note it refers to (``=1=``
        and its ``Note`` tag; None without one) and whether it was alerted: written with
        an alert ``*`` (``3C*``), or with a note that says so (its text starts with
        "alert": GIB's and BBO's "Alert. ...", RealBridge's "Alerted", a LIN alert with no
        explanation).  A call after which no note stands has None.

        >>> game = Game.from_pbn('[Dealer "N"]\\n[Auction "N"]\\n1NT 2C =1= 2H* =2= Pass\\n'
        ...                      '3NT AP\\n[Note "1:Alert. both majors"]\\n[Note "2:transfer"]\\n')
        >>> game.auction_notes[:4]
        [(None, False), ('Alert. both majors', True), ('transfer', True), (None, False)]
        """
        calls = self.auction
        tag = self.get("Auction")
        if tag is None or not calls:
            return [(None, False)] * len(calls)
        texts: dict[str, str] = {}
        for t in self._tags:
            if t.name == "Note" and ":" in t.value:
                number, _, text = t.value.partition(":")
                texts.setdefault(number.strip(), text)
        notes: list[list] = []       # [text, alerted] per call, as _parse_auction reads
        for token, _, alerted in self._annotated_tokens(tag):
            note = _NOTE.fullmatch(token)
            if note is not None:
                if notes and notes[-1][0] is None:
                    notes[-1][0] = texts.get(note.group(1), "")
            elif token.upper() in ("*", "+", "AP"):
                break
            else:
                notes.append([None, alerted])
        out = [(text, alerted or (text or "").strip().lower().startswith("alert"))
               for text, alerted in notes[:len(calls)]]
        return out + [(None, False)] * (len(calls) - len(out))

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
        ``*`` to end, ``+`` for the card to be played next in a game to be continued (the
        cards of its row are kept, nothing after).  Each trick is led by the winner of the
        one before, which needs the trump strain from :attr:`contract` (the ``Contract``
        tag, or the auction's).  Annotations, notes and irregularities (``^R``) are
        dropped.  The play stops at the first card not played.  Empty if there is no Play
        section.

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
        to_continue = False
        for token, index in self._section_tokens(tag):
            if token == "*":
                break
            if token == "+":
                # The game is to be continued here (PBN 2.1): this cell is the next card to
                # play; the cards of its row are kept, nothing after that row.
                cells.append((None, index))
                to_continue = True
                continue
            if to_continue and len(cells) % 4 == 0:
                break
            if token == "-":
                cells.append((None, index))
                continue
            try:
                cells.append((Card.parse(token), index))
            except ParseError:
                raise self._error(tag, f"{short(token)} is not a card", index) from None
        if all(card is None for card, _ in cells):
            return ()
        first = self.opening_leader
        if first is None:
            raise self._error(tag, "the Play section needs the opening leader as the tag value")

        played: list[tuple[Card, int | None]] = []
        in_order: list[tuple[Card, int]] = []   # every card so far, in play order
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
                    # A card played before it that breaks the rules (a revoke, a card not
                    # held) is the record's first fault: said first, where it can be told.
                    self._first_illegal(tag, first, in_order)
                    raise self._error(tag, f"{card} is played twice", index)
                seen.add(card)
                in_order.append((card, index))
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

    def _first_illegal(self, tag: Tag, first: Seat, cards: Sequence[tuple[Card, int]]
                       ) -> None:
        """Raise the error of the first of ``cards`` (in play order, from ``first``'s lead)
        that breaks the rules of play on the game's deal; nothing when they keep them, or
        when the deal or the trumps are not known (or the deal does not read)."""
        try:
            deal, strain = self.deal, self._strain()
        except CardgamesError:
            return
        if deal is None or strain is None or not deal.is_complete:
            return
        position = Position(deal, strain, first)
        for card, index in cards:
            try:
                position.play(card)
            except CardgamesError as err:
                raise self._error(tag, str(err), index) from None

    def _section_tokens(self, tag: Tag) -> Iterator[tuple[str, int]]:
        """The tokens of a section without comments, notes and annotations, each with the
        index of its section line."""
        for token, index, _ in self._annotated_tokens(tag):
            if not _NOTE.fullmatch(token):
                yield token, index

    def _annotated_tokens(self, tag: Tag) -> Iterator[tuple[str, int, bool]]:
        """The tokens of a section without comments, glyphs and suffix annotations, each
        with the index of its section line and whether it was alerted (``1NT*``); a note
        reference (``=1=``) is a token of its own, after the one it annotates."""
        in_brace = False
        for index, line in enumerate(tag.section):
            text, in_brace = strip_comments(line, in_brace)
            for token in _NOTE_OR_NAG.sub(r" \g<0> ", text).split():
                if token[0] == "^" or token[0] == "$" and token[1:].isdigit():
                    continue   # an irregularity (^R a revoke, ^L a lead out of turn), a glyph
                if _NOTE.fullmatch(token):
                    yield token, index, False
                    continue
                # Suffix annotations: "!", "?" and an alert "*" ("1NT*"); "*" alone ends it.
                bare = token.rstrip("!?*") if len(token) > 1 else token.rstrip("!?")
                if bare:
                    yield bare, index, "*" in token[1:]

    def validate(self) -> None:
        """Check every tag that has a typed accessor (Deal, Board, Dealer, Vulnerable,
        Contract, Declarer, Auction, Play).  The reader calls this on every game unless
        told not to.

        :raises PBNError: for the first bad tag, with its line.
        """
        for accessor in _TYPED_ACCESSORS:
            getattr(self, accessor)

    # ---- writing and comparing ---------------------------------------------
    @property
    def original(self) -> bytes | None:
        """The bytes the game took in its file, exactly: from the end of the game before
        (so with the empty lines, ``%`` lines and comment blocks that stand before it)
        through its own last line.  Set for a game read from bytes (:func:`load_path`, or
        :func:`load`/:func:`loads` given bytes); None otherwise.  Changes made to the game
        after reading do not show here; :func:`write_back` adds tags to it."""
        return None if self._original is None else b"".join(self._original.lines)

    def to_pbn(self) -> str:
        """The game's text, ending with a newline (the blank line that separates games is
        the writer's business).  Values are escaped: ``"`` as ``\\"`` and a backslash as
        ``\\\\`` where it would otherwise read as an escape.  A value ``"#"`` or one
        starting with ``"##"`` (a file's ``"###"`` gives ``"#"``) is written with a
        backslash before it, ``"\\#"``, which reads back as that text, not as inheritance
        (other PBN readers show the backslash)."""
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
        shown = ", ".join(f"{t.name}={short(t.value)}" for t in self._tags[:4])
        more = ", ..." if len(self._tags) > 4 else ""
        where = "" if self.line is None else f" line {self.line}"
        return f"<Game{where}: {shown}{more}>"


# ---------------------------------------------------------------------------
# The Auction and Play sections
# ---------------------------------------------------------------------------

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
