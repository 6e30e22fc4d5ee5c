"""The lines of a PBN stream, for the reader: the stream (a file, bytes, text, or an
iterable of lines) cut into lines on any line end (LF, CRLF or a lone CR), bytes decoded
line by line and kept until a game takes them, the lines numbered.

Nothing here knows what a game is.  What it guards against is a stream that is no PBN
text: a NUL byte, a line longer than :data:`MAX_LINE`, a run of :data:`MAX_RUN_LINES`
lines without an empty one (or all empty) stop the reading with an error on that line,
rather than holding an endless stream in memory.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from os import PathLike
from typing import Any, BinaryIO

from ..errors import PBNError
from .text import EXCERPT, decode_line, excerpt

# ---------------------------------------------------------------------------
# Limits
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# Cutting the stream into lines
# ---------------------------------------------------------------------------

# A line end: LF, CRLF or a lone CR (an old Mac's), mixed as a file has them.
_LINE_ENDS = re.compile(r"(?<=\n)|(?<=\r)(?!\n)")
# What str.splitlines() takes for a line end besides those: text without any of these is
# split by it, ten times faster than by the pattern above (bytes.splitlines() takes only
# LF, CRLF and CR).
_OTHER_LINE_ENDS = re.compile(r"[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


class _Unreadable(Exception):
    """The stream is not PBN text: a line longer than :data:`MAX_LINE`, a NUL byte, or
    (with an encoding given) a line not in that encoding.  Raised once the lines before
    it have been given; :class:`Lines` turns it into a :class:`PBNError` on the next
    line, and the reading of the stream stops."""

    def __init__(self, reason: str, excerpt: str):
        super().__init__(reason)
        self.reason = reason
        self.excerpt = excerpt


def _split_lines(pieces: Iterable[Any], *, chunks: bool) -> Iterator[list[Any]]:
    """The lines of ``pieces`` (str or bytes), each with its line end (LF, CRLF or a lone
    CR; the last line may have none), a piece's lines at a time: a list, never empty, so
    that the lines go through one generator only (:class:`Lines`), not two.  With
    ``chunks`` the pieces are arbitrary parts of a stream (a line may span them; a CR
    ending one piece waits for the next, which may start with its LF); otherwise each
    piece is one or more whole lines, never joined with the next.  Never holds more than
    one line of :data:`MAX_LINE` and one piece.

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
        elif _OTHER_LINE_ENDS.search(piece) is None:
            lines = piece.splitlines(True)
        else:
            lines = [p for p in _LINE_ENDS.split(piece) if p]
        if (chunks or nul >= 0) and lines and lines[-1][-1:] not in ("\n", b"\n"):
            rest = lines.pop()  # not ended, or a CR whose LF may follow
        if lines and max(map(len, lines)) > MAX_LINE:  # the lines before the long one first
            long = next(k for k, line in enumerate(lines) if len(line) > MAX_LINE)
            if long:
                yield lines[:long]
            raise _too_long(lines[long])
        if lines:
            yield lines
        if nul >= 0:  # ``rest`` is the line holding it, up to it
            text = decode_line(bytes(rest[-EXCERPT:])) if binary else rest[-EXCERPT:]
            raise _Unreadable("a NUL character: this is not a PBN text file (a binary "
                              "file, or text in UTF-16?); reading stops here",
                              excerpt(text[:-1] + "<NUL>", len(text)))
        if rest is not None and len(rest) > MAX_LINE:
            raise _too_long(rest)
    if rest:
        yield [rest]


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


# ---------------------------------------------------------------------------
# Decoding and numbering them
# ---------------------------------------------------------------------------

# A "% ... charset=ISO-8859-1" directive, and the names that mean Latin-1 (or nearly).
_CHARSET = re.compile(rb"charset\s*=\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_LATIN1_NAMES = {b"iso-8859-1", b"iso8859-1", b"latin-1", b"latin1", b"l1", b"iso_8859-1",
                 b"windows-1252", b"cp1252"}


class Lines:
    """The lines of a stream as text, numbered from 1, for the reader: cut by
    :func:`_split_lines`, each with its line end.

    A binary stream is decoded line by line: UTF-8 if the line is valid UTF-8, Latin-1
    (PBN's character set) otherwise, unless an encoding is given.  The bytes of the
    lines that no game has taken yet are kept (:meth:`take`: a game's bytes are its
    :attr:`~cardgames.pbn.Game.original`).  A stream found not to be PBN text (see
    :class:`_Unreadable`, and :data:`MAX_RUN_LINES`) ends early, with the error kept as
    :attr:`unreadable`.  This is the one generator a line goes through before the
    reader: each layer of them costs about a tenth of the time of a line, so the
    decoding and the numbering are not layers of their own.
    """

    __slots__ = ("source", "encoding", "name", "binary", "unreadable", "buffer", "base",
                 "latin1", "utf8", "charset_latin1")

    def __init__(self, source: Any, encoding: str | None, name: str | None):
        self.source = source
        self.encoding = encoding
        self.name = name                # the file name, for the errors
        self.binary = False             # the stream is of bytes (known at its first line)
        self.unreadable: PBNError | None = None  # why the stream stopped being read
        self.buffer: list[bytes] = []
        self.base = 1               # the file line of buffer[0]
        self.latin1 = False         # a line that is not UTF-8 has been read
        self.utf8 = False           # a non-ASCII line that is UTF-8 has been read
        self.charset_latin1 = False  # a "% ... charset=ISO-8859-1" line has been read

    def __iter__(self) -> Iterator[tuple[int, str]]:
        """The lines, numbered, each with its line end: a file object is read a piece at
        a time, any other iterable taken as lines."""
        read = getattr(self.source, "read", None)
        if callable(read):
            pieces = _split_lines(_read_pieces(read), chunks=True)
        else:
            pieces = _split_lines(self.source, chunks=False)
        encoding = self.encoding
        buffer = self.buffer
        binary: bool | None = None  # not known before the first line
        number = 0    # the last line given
        run = 0       # lines in a row that are all empty, or all not empty
        empty = True  # ... which of the two
        try:
            for lines in pieces:
                if binary is None:
                    binary = self.binary = isinstance(lines[0], (bytes, bytearray))
                    if binary:
                        lines[0] = bytes(lines[0])
                for line in lines:
                    if not binary:
                        text = line
                    else:
                        buffer.append(line)
                        if line[0] == 0x25:  # '%' (cheaper than a slice or a call)
                            m = _CHARSET.search(line)
                            if m is not None and m.group(1).lower() in _LATIN1_NAMES:
                                self.charset_latin1 = True
                        if encoding is not None:
                            try:
                                text = line.decode(encoding)
                            except UnicodeDecodeError as err:
                                raise _Unreadable(
                                    f"not {encoding} text ({err.reason} at byte "
                                    f"{err.start + 1} of the line); reading stops here",
                                    excerpt(line.decode("latin-1"), err.start)) from None
                        elif line.isascii():
                            text = line.decode("ascii")
                        else:
                            try:
                                text = line.decode("utf-8")
                                self.utf8 = True
                            except UnicodeDecodeError:
                                text = line.decode("latin-1")
                                self.latin1 = True
                    # isspace(), not strip(), which copies the line: a line is never ""
                    # (it holds a character, or at least its line end), so they agree.
                    if text.isspace() == empty:
                        run += 1
                        if run > MAX_RUN_LINES:
                            self.unreadable = PBNError(
                                f"{MAX_RUN_LINES:,} {'empty' if empty else 'non-empty'} lines "
                                f"in a row: not a PBN file of games (a game ends at an empty "
                                f"line); reading stops here", text=excerpt(text.rstrip("\r\n")),
                                line=number + 1, source=self.name)
                            return
                    else:
                        empty = not empty
                        run = 1
                    number += 1
                    yield number, text
        except _Unreadable as err:
            self.unreadable = PBNError(err.reason, text=err.excerpt, line=number + 1,
                                       source=self.name)

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

    def take(self, last: int) -> tuple[list[bytes], int]:
        """The bytes of the lines not taken yet, through file line ``last``, and the file
        line of the first of them."""
        count = last - self.base + 1
        lines = self.buffer[:count]
        del self.buffer[:count]
        first, self.base = self.base, self.base + count
        return lines, first

    def rest(self) -> bytes:
        """The bytes of the lines no game has taken."""
        data = b"".join(self.buffer)
        self.base += len(self.buffer)
        self.buffer.clear()
        return data


# ---------------------------------------------------------------------------
# A file by its name
# ---------------------------------------------------------------------------

class LazyFile:
    """A file opened on the first read (so that :func:`~cardgames.pbn.load_path` raises
    OSError only when the reading starts), read a piece at a time, and closed by
    :meth:`close`."""

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
