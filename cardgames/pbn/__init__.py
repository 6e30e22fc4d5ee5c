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
from collections.abc import Callable, Iterable
from os import PathLike
from typing import BinaryIO, TextIO

from ..errors import PBNError
from .game import Game, Tag, check_comment, check_tag, play_section
from .lines import MAX_LINE, MAX_RUN_LINES
from .reader import PBNReader, load, load_path, loads
from .text import TAG_PAIR, decode_line, short

__all__ = ["Tag", "Game", "PBNReader", "load", "loads", "load_path", "dump", "dumps",
           "play_section", "write_back", "rewrite", "DEFAULT_DIRECTIVES", "MAX_LINE",
           "MAX_RUN_LINES"]

#: What :func:`dump` writes at the top of a file unless told otherwise.
DEFAULT_DIRECTIVES: tuple[str, ...] = ("% PBN 2.1",)


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
