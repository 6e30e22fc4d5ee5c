"""The writer: games to text (:func:`dump`, :func:`dumps`), and a file given back byte for
byte with tags added (:func:`write_back`, :func:`rewrite`).

:func:`dump` writes each game as :meth:`Game.to_pbn` lays it out, after the directives
(``%`` lines).  :func:`write_back` works on the bytes a game took in its file
(:attr:`Game.original`, kept by the reader): it replaces or inserts tag lines and
leaves every other byte as it was, line ends and encoding included.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from os import PathLike
from typing import BinaryIO, TextIO

from ..errors import PBNError
from .game import Game, Tag, check_comment, check_tag
from .reader import PBNReader, load_path
from .text import TAG_PAIR, decode_line, short

#: What :func:`dump` writes at the top of a file unless told otherwise.
DEFAULT_DIRECTIVES: tuple[str, ...] = ("% PBN 2.1",)


# ---------------------------------------------------------------------------
# Writing games as text
# ---------------------------------------------------------------------------

def _directive_line(directive: str) -> str:
    """A directive as :func:`dump` writes it: one line, starting with ``%``."""
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
    """The line end of a line of bytes: CRLF, LF, CR, or nothing (a file's last line)."""
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
