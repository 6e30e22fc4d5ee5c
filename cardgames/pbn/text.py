"""The text layer of PBN: quoted values and their escapes, comments, tag pairs, and the
lexical patterns that the game, the reader and the writer share.

Nothing here knows what a game is.  These functions take a line, or a few lines read as
one :class:`Unit`, and say where a comment ends, whether a ``{`` comment is still open,
what the name and value of a tag pair are, or make the :class:`~cardgames.errors.PBNError`
for a place in the text, quoting at most :data:`EXCERPT` characters of it.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ..errors import PBNError

# ---------------------------------------------------------------------------
# Lexical patterns
# ---------------------------------------------------------------------------

# A tag name; NAME_FULL: a whole string that is one.
_NAME = re.compile(r"[A-Za-z0-9_]+")
NAME_FULL = re.compile(r"[A-Za-z0-9_]+\Z")
# A quoted string: backslash escapes any character but a newline.  Unescaping only
# turns \" and \\ into " and \ (see unescape), because PBN's own tables write lone
# backslashes (``Result\2R`` in an OptimumResultTable header).  The patterns are
# "unrolled" (runs of plain characters between escapes): the plain alternation
# (?:[^"\\]|\\.)* steps through a 70-character deal one character at a time and is
# five times slower.
_STRING = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
# A tag pair on one line, blanks allowed around its tokens.
TAG_PAIR = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"([^"\\\n]*(?:\\.[^"\\\n]*)*)"[ \t]*\]')
# A tag pair whose tokens stand on several lines (PBN's import format lets any white space,
# line breaks included, separate tokens; the lenient reader joins such lines).
_TAG_PAIR_LINES = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"([^"\\\n]*(?:\\.[^"\\\n]*)*)"\s*\]')
# The export layout of a tag line, matched whole: the fast path of the reader.
TAG_LINE = re.compile(r'\[([A-Za-z0-9_]+) "([^"\\]*(?:\\.[^"\\]*)*)"\]\Z')
# ``\#`` at the start of a value is a ``#`` that is text: how the writer keeps a value
# ``"#"`` or ``"##..."`` (made by ``"###"``, or in code) from reading back as inheritance.
_UNESCAPE = re.compile(r'\\([\\"])|\A\\(#)')
# A backslash needs escaping only where a reader would take it for an escape.
_ESCAPE = re.compile(r'"|\\(?=[\\"]|\Z)|\A\\(?=#)')
WS = re.compile(r"\s*")
_BLANKS = re.compile(r"[ \t]*")
# What a plain line of section data never holds: a line without any of these is data
# (or, standing first, no tag and no comment), which spares it the full scan.
SPECIAL = re.compile(r'[\[{;"]')
COMMENT_START = re.compile(r"[{;]")


# ---------------------------------------------------------------------------
# Values: escapes
# ---------------------------------------------------------------------------


def unescape(value: str) -> str:
    """A tag value as the file wrote it between the quotes, turned into its text."""
    return _UNESCAPE.sub(lambda m: m.group(1) or m.group(2), value) if "\\" in value else value


def escape(value: str) -> str:
    """A value's text as the writer puts it between the quotes: the inverse of
    :func:`unescape`."""
    escaped = _ESCAPE.sub(lambda m: "\\" + m.group(), value)
    if value == "#" or value.startswith("##"):
        return "\\" + escaped  # text, not inheritance (see _UNESCAPE)
    return escaped


# ---------------------------------------------------------------------------
# Comments
# ---------------------------------------------------------------------------

def skip_comment(text: str, i: int) -> int:
    """``text[i]`` opens a comment; return the index just after it.  A ``;`` comment
    stops at the end of its physical line."""
    if text[i] == "{":
        j = text.find("}", i + 1)
        return len(text) if j < 0 else j + 1
    j = text.find("\n", i)
    return len(text) if j < 0 else j


def unclosed_brace(text: str) -> int | None:
    """Index of a ``{`` comment still open at the end of ``text``, else None.
    ``;`` comments and quoted strings are skipped, so braces inside them do not count."""
    i = 0
    n = len(text)
    while True:
        m = SPECIAL.search(text, i)
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


def brace_open_after(line: str, in_brace: bool) -> bool:
    """Whether a ``{`` comment is open at the end of one line, ``in_brace`` saying whether
    one was open at its start."""
    i = 0
    if in_brace:
        j = line.find("}")
        if j < 0:
            return True
        i = j + 1
    return unclosed_brace(line[i:]) is not None


def match_end(pattern: re.Pattern[str], text: str, i: int = 0) -> int:
    """Where a match of ``pattern`` (one that cannot fail, such as ``\\s*``) at ``i`` ends."""
    m = pattern.match(text, i)
    assert m is not None
    return m.end()


def only_comments(text: str, i: int = 0) -> bool:
    """True if ``text[i:]`` holds nothing but whitespace and comments."""
    n = len(text)
    i = match_end(WS, text, i)
    while i < n and text[i] in "{;":
        i = match_end(WS, text, skip_comment(text, i))
    return i >= n


def strip_comments(line: str, in_brace: bool) -> tuple[str, bool]:
    """Remove the comments (and a ``%`` line) from one line of an Auction or Play section
    (which hold no quoted strings); ``in_brace`` says whether a ``{`` comment is open from an earlier
    line.  Returns the text and the new state."""
    if not in_brace and line.startswith("%"):
        return "", False
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
        m = COMMENT_START.search(line, i)
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
# Quoting the text in messages, decoding a line
# ---------------------------------------------------------------------------

#: The most characters of the file's text an error message quotes.
EXCERPT = 100


def excerpt(text: str, pos: int = 0) -> str:
    """``text`` if short, else about :data:`EXCERPT` characters of it around ``pos``, with
    ``...`` where it was cut: what a message quotes of a line that may be a megabyte."""
    if len(text) <= EXCERPT:
        return text
    start = max(0, min(pos - EXCERPT // 4, len(text) - EXCERPT))
    end = start + EXCERPT
    return ("..." if start > 0 else "") + text[start:end] + ("..." if end < len(text) else "")


def short(value: str) -> str:
    """``repr`` of a value for a message, cut to an excerpt if long."""
    return repr(excerpt(value))


def decode_line(line: bytes) -> str:
    """A line of bytes as text: UTF-8 if it is valid UTF-8, else Latin-1 (PBN's own
    character set), which decodes any byte."""
    return decode_line_as(line)[0]


def decode_line_as(line: bytes) -> tuple[str, str]:
    """:func:`decode_line`, with the codec it took (``"utf-8"`` or ``"latin-1"``): what
    turns a place in the text back into a place in the bytes."""
    try:
        return line.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return line.decode("latin-1"), "latin-1"


# ---------------------------------------------------------------------------
# Units of lines: tag pairs and section data in them
# ---------------------------------------------------------------------------

class Unit:
    """Consecutive physical lines read as one piece: a single line, or the lines a
    ``{`` comment spans.  Knows how to turn a position back into a line number."""

    __slots__ = ("numbers", "lines", "text", "source", "joined", "_starts")

    def __init__(self, numbered: list[tuple[int, str]], source: str | None, *,
                 joined: bool = False):
        self.numbers = [n for n, _ in numbered]
        self.lines = [t for _, t in numbered]
        self.text = "\n".join(self.lines)
        self.source = source
        self.joined = joined  # lines joined to complete a tag pair broken over them
        self._starts: list[int] | None = None  # where each line starts in text

    def row(self, pos: int) -> int:
        """The line of ``text[pos]`` (0 for the first): found by bisection, not by counting
        from the start, since a line holding many tags asks once per tag."""
        if len(self.lines) == 1:
            return 0
        if self._starts is None:
            starts = [0]
            for line in self.lines[:-1]:
                starts.append(starts[-1] + len(line) + 1)
            self._starts = starts
        return bisect_right(self._starts, pos) - 1

    def error(self, pos: int, message: str) -> PBNError:
        """The error ``message`` at ``text[pos]``: its line, and an excerpt around it."""
        row = self.row(pos)
        column = pos - (self.text.rfind("\n", 0, pos) + 1)
        return PBNError(message, text=excerpt(self.lines[row], column), line=self.numbers[row],
                        source=self.source)

def parse_tag(unit: Unit, i: int) -> tuple[str, str, int, str | None]:
    """Read the tag pair at ``unit.text[i] == '['``; return name, value, end index and the
    value as written when it holds an escape (else None)."""
    text = unit.text
    m = TAG_PAIR.match(text, i)
    if m is None and unit.joined:
        m = _TAG_PAIR_LINES.match(text, i)
    if m:
        written = m.group(2)
        if "\\" in written:
            return m.group(1), unescape(written), m.end(), written
        return m.group(1), written, m.end(), None
    # Not well formed: find out what is wrong, for a precise message.
    n = len(text)
    j = match_end(_BLANKS, text, i + 1)
    name_match = _NAME.match(text, j)
    if name_match is None:
        if j >= n or text[j] in '"]\n':
            raise unit.error(i, "tag without a name")
        raise unit.error(j, f"bad character {text[j]!r} in a tag name (letters, digits, '_')")
    name = name_match.group()
    j = name_match.end()
    if j < n and text[j] not in ' \t"]\n':
        raise unit.error(j, f"bad character {text[j]!r} in a tag name (letters, digits, '_')")
    j = match_end(_BLANKS, text, j)
    if j >= n or text[j] != '"':
        raise unit.error(i, f"the value of tag {excerpt(name)} must be in double quotes")
    value_match = _STRING.match(text, j)
    if value_match is None:
        raise unit.error(j, f"missing closing quote in the value of tag {excerpt(name)}")
    j = match_end(_BLANKS, text, value_match.end())
    if j >= n or text[j] in "\n{;[":
        raise unit.error(i, f"unclosed tag {excerpt(name)}: ']' missing")
    raise unit.error(j, f"unexpected text after the value of tag {excerpt(name)}, expected ']'")


def check_data(unit: Unit, i: int) -> None:
    """Section data must not hold a ``[`` (a tag starts its own line) or an unterminated
    string."""
    text = unit.text
    while True:
        m = SPECIAL.search(text, i)
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
            i = skip_comment(text, i)
