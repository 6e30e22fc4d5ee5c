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
in place, and its other copies removed) or taken out.  This is what a tool adding
results to files uses, e.g. ``ddsolver table --format pbn``::

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
files are copied one after the other the same way (each keeps its own head and tail); a
file that does not end with an empty line needs one put after it, or the next file's
first game would read as part of its last game.

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

Inside the package
------------------
Five modules, each importing only modules above it in this list:

* ``text``: tag values and their escapes, comments, the lexical patterns, and the
  errors placed in a line;
* ``game``: :class:`Tag`, :class:`Game` with its typed accessors, :func:`play_section`;
* ``lines``: a stream cut into numbered lines, bytes decoded and kept for the games;
* ``reader``: :class:`PBNReader`, :func:`load`, :func:`loads`, :func:`load_path`:
  what a line is, where the reader stands between two lines, a game once its lines
  are in;
* ``writer``: :func:`dump`, :func:`dumps`, :func:`write_back`, :func:`rewrite`.

The names in ``__all__`` are the API; the other public names of the modules are what
they use of each other.
"""

from __future__ import annotations

from .game import Game, Tag, play_section
from .lines import MAX_LINE, MAX_RUN_LINES
from .reader import PBNReader, load, load_path, loads
from .writer import DEFAULT_DIRECTIVES, dump, dumps, rewrite, write_back

__all__ = ["Tag", "Game", "PBNReader", "load", "loads", "load_path", "dump", "dumps",
           "play_section", "write_back", "rewrite", "DEFAULT_DIRECTIVES", "MAX_LINE",
           "MAX_RUN_LINES"]
