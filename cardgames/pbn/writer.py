"""The writer: games to text (:func:`dump`, :func:`dumps`), and a file given back byte for
byte with tags added (:func:`write_back`, :func:`rewrite`).

:func:`dump` writes each game as :meth:`Game.to_pbn` lays it out, after the directives
(``%`` lines).  :func:`write_back` works on the bytes a game took in its file
(:attr:`Game.original`, kept by the reader): it replaces or inserts tag lines and
leaves every other byte as it was, line ends and encoding included.
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Callable, Iterable
from os import PathLike
from typing import BinaryIO, TextIO

from ..errors import PBNError
from .game import Game, Tag, check_comment, check_tag
from .reader import PBNReader, load_path
from .text import TAG_PAIR, decode_line_as, short

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


def _decoder(encoding: str) -> Callable[[bytes], tuple[str, str]]:
    """How the reader decoded a line of a file whose new text goes in ``encoding``: the
    text and the codec it was read with (UTF-8 if the line is UTF-8, else Latin-1; a file
    read with another encoding given, that one)."""
    if codecs.lookup(encoding).name not in ("utf-8", "iso8859-1"):
        return lambda line: (line.decode(encoding), encoding)
    return decode_line_as


def write_back(game: Game, tags: Iterable[Tag] = (), *, remove: Iterable[str] = ()) -> bytes:
    """The bytes ``game`` took in its file (:attr:`Game.original`) with ``tags`` put in and
    the tags named in ``remove`` taken out: every other byte as it was, in place.

    A tag the game already has in the file is replaced in place: its first tag pair of
    that name on its line and its section lines (``%`` lines among them kept); any later
    tag pair of that name goes with its section, as the tags of ``remove`` do (a game
    holding a tag twice would otherwise contradict itself).  The rest of a tag's line
    stays, byte for byte (a comment after the ``]``, in whatever encoding it was
    written: a file may mix Latin-1 and UTF-8 lines), and a line left with nothing but
    blanks goes; the comments before a tag stay.  A tag the game does not have is
    inserted after the game's last tag or section line, in the order given (so before
    comments that close the game).  New lines end as the line they follow does; only
    the new text is encoded, as the file is (Latin-1 for a file with Latin-1 bytes, or
    with a ``charset=ISO-8859-1`` line and nothing but ASCII; UTF-8 otherwise).  With no
    tags and nothing to remove this is :attr:`Game.original` itself.

    Changes made to the :class:`Game` after reading are not written: the file's bytes are.

    :param tags: e.g. ``[Tag("OptimumScore", "NS 420"),
        Tag("OptimumResultTable", "Declarer;Denomination\\\\2R;Result\\\\2R", rows)]``.
    :param remove: names of tags to take out (every copy), e.g. ``["ParContract"]``.
    :raises ValueError: if the game was not read from bytes, for a tag that could not be
        written back (see :meth:`Game.set_section`), or for new text the file's encoding
        cannot hold.
    """
    original = game._original
    if original is None:
        raise ValueError("this game was not read from bytes (use load_path, or load/loads "
                         "given bytes), so there is nothing to write back")
    lines = original.lines
    first = original.first
    tags = list(tags)
    for tag in tags:
        check_tag(tag)
    names = [tag.name for tag in tags]
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice is not None:
        raise ValueError(f"tag {twice} is given twice: the game would hold both")
    new = {tag.name: tag for tag in tags}
    gone_names = [name for name in remove if name not in new]
    if not tags and not gone_names:
        return b"".join(lines)
    encoding = original.encoding
    decode = _decoder(encoding)
    eol = next((e for e in map(_eol, lines) if e), b"\n")

    def encode(text: str, name: str) -> bytes:
        try:
            return text.encode(encoding)
        except UnicodeEncodeError:
            raise ValueError(f"tag {name} holds text that {encoding} cannot encode") from None

    # What changes, by index in ``lines``: the spans of a line's bytes that give way to
    # others, the lines that go, and the lines put after a line.
    splices: dict[int, list[tuple[int, int, bytes]]] = {}
    gone: set[int] = set()
    after: dict[int, list[bytes]] = {}
    inserted: list[tuple[str, str]] = []
    for name in [*new, *gone_names]:
        given = new.get(name)
        copies = [t for t in game._tags if t.name == name and t.line is not None
                  and t.line >= first]
        if not copies:
            if given is not None:
                inserted.extend((text, name) for text in (given.tag_line, *given.section))
            continue
        on_line: dict[int, int] = {}  # copies met so far on each line
        for n, old in enumerate(copies):
            assert old.line is not None
            i = old.line - first
            nth = on_line.get(i, 0)
            on_line[i] = nth + 1
            put = given if n == 0 else None  # the first copy is replaced, the others go
            line = lines[i]
            body = line[:len(line) - len(_eol(line))]
            text, codec = decode(body)
            spans = [m.span() for m in TAG_PAIR.finditer(text) if m.group(1) == name]
            numbers = list(old.section_line_numbers)
            new_bytes = b"" if put is None else encode(put.tag_line, name)
            if nth < len(spans):
                start, end = spans[nth]
                a = len(text[:start].encode(codec))
                # The old section goes, but for its '%' lines, and the text after the tag
                # starting with '%' is one of them.
                b = (len(body) if numbers and numbers[0] == old.line
                     and not old.section[0].startswith("%") else len(text[:end].encode(codec)))
                splices.setdefault(i, []).append((a, b, new_bytes))
            else:  # a tag pair broken over lines: they all go
                j = i
                while j + 1 < len(lines) and b"]" not in lines[j]:
                    gone.add(j + 1)
                    j += 1
                splices.setdefault(i, []).append((0, len(body), new_bytes))
            for number in numbers:
                k = number - first
                if k != i and not lines[k].startswith(b"%"):
                    gone.add(k)
            if put is not None:
                line_end = _eol(line) or eol
                after[i] = [encode(row, name) + line_end for row in put.section]
    out: dict[int, list[bytes]] = {}
    for i in gone:
        out[i] = []
    for i, cuts in splices.items():
        line = lines[i]
        body = line[:len(line) - len(_eol(line))]
        for a, b, bytes_in in sorted(cuts, reverse=True):
            body = body[:a] + bytes_in + body[b:]
        if not body.strip() and i not in after:
            out[i] = []  # nothing left on it but blanks: it would end the game
        else:
            out[i] = [body + (_eol(line) or eol), *after.get(i, ())]
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
