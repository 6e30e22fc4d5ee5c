"""LIN files, Bridge Base Online's format, read as PBN games.

A LIN record is a run of ``key|value|`` pairs: ``pn|`` the players (South, West, North,
East), ``md|`` the deal (the dealer's digit, 1 South to 4 East, then the hands from South
clockwise; the fourth may be left out), ``sv|`` the vulnerability, ``mb|`` a call (``!``
marks an alert) with ``an|`` its explanation, ``pc|`` a card played, ``mc|`` a claim
(declarer's tricks in all), ``pg|`` a page break, ``nt|`` a comment.  BBO's hand records
put a board on a line; its vugraph archives open with ``vg|`` (the event, the teams) and
``pn|`` (both rooms' players), and start each board with ``qx|o12|`` or ``qx|c12|`` (open or
closed room, board 12).  Hand-viewer links (``...handviewer.html?lin=pn|...``) hold a
record too, URL-encoded (or with its bars as they stand).

The files real programs write differ (see ``../shared/reallin/README.md`` in the project's
checkout): three or four hands, with or without a trailing comma; cards in any order and
case; ``sv|`` as ``o``, ``0``, ``-``, ``n``, ``e``, ``b`` in either case; line breaks inside
values; lines ended by ``\\n``, ``\\r\\n`` or ``\\r``; ``%`` comment lines; claims mid-trick;
play that stops; empty names; ``pn|``, ``sv|`` and ``ah|`` before a record's deal or after
it.  The reader takes them all.

Each board becomes a :class:`cardgames.pbn.Game` with the PBN tags that say the same
(``Event``, ``Board``, ``Room``, the players, ``Dealer``, ``Vulnerable``, ``Deal``,
``Declarer``, ``Contract``, ``Result``, the ``Auction`` with a ``Note`` per alert or
explanation -- an alert explained marked ``*``, one not explained noted "alerted" -- the
``Play``), so everything that reads PBN games reads LIN: a claim gives the ``Result`` and
ends the play (a claim without a contract, which says nothing, is reported and left out);
the comments (``nt|``) are kept as the game's comments.  ``game.line`` is the
file line where the board's record starts, and errors name the file, line and column of
the value at fault.  Keys a board does not need (``st``, ``rh``, ``ah``, ``sa``, ``rs``, ...)
are passed over.

>>> [g.board for g in loads("qx|o3|md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|sv|o|")]
[3]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from os import PathLike
from urllib.parse import unquote, unquote_plus

from .auction import Auction
from .cards import Card, Rank, Seat, Suit
from .errors import CardgamesError, PBNError
from .hands import Deal, Hand
from .pbn.game import Game, Tag, play_section
from .pbn.lines import LazyFile
from .pbn.reader import PBNReader
from .pbn.text import skip_comment
from .play import Position
from .scoring import Contract

__all__ = ["LINError", "LINPartError", "LINWriteError", "LINReader", "load", "loads",
           "load_path", "looks_like_lin", "open_games", "to_lin", "dumps", "vugraph_header",
           "header_change"]

#: The longest value the reader takes (a comment, a deal): longer is not a LIN file.
MAX_VALUE = 1 << 16
#: The longest line: past it the stream is not text, and the reading stops.
MAX_LINE = 1 << 20
#: The most pairs a board may hold (a vugraph board with its commentary has a few hundred):
#: a board that goes on past it is not one, and is dropped with an error.
MAX_BOARD_PAIRS = 100_000
#: The most lines in a row that hold no pair: past it the stream is not LIN, and the
#: reading stops with an error (``yes | ddsolver table /dev/stdin`` must not run forever).
MAX_BAD_LINES = 1_000

_KEY = re.compile(r"[A-Za-z]{2}")
#: Where a record starts in a hand-viewer link.
_URL_LIN = re.compile(r"(?:^\s*|[?&])lin=", re.IGNORECASE)
#: LIN's seats in its own order: the ``md|`` dealer digit 1-4 and the order of ``pn|``.
_LIN_SEATS = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
_VULNERABLE = {"o": "None", "0": "None", "-": "None", "n": "NS", "e": "EW", "b": "All"}
_CALL = re.compile(r"([1-7])([CDHSN])T?|P(?:ASS)?|D(?:BL)?|X|R(?:DBL)?|XX", re.IGNORECASE)
#: A board's number in a heading (``ah|Board 3|``, ``qx|o3,BOARD 3|``): after "board" or "bd"
#: wherever it stands ("Board 1 of 24", "Bd 3 Round 2", "Board 12 (Open)"), else a heading
#: that is a number, or one word and a number ("12", "Deal 12").
_BOARD_WORD = re.compile(r"\b(?:board|bd)(?![a-z])[\s.:#_\-]*(?:no\.?\s*)?(\d+)",
                         re.IGNORECASE)
_BOARD_ALONE = re.compile(r"\s*(?:[^\W\d_]+\.?\s*)?#?\s*(\d+)\.?\s*")
#: ``qx|``'s first field: the room (open or closed) and the board number.
_ROOM = re.compile(r"\s*([oc])\s*(\d*)\s*", re.IGNORECASE)
#: The highest board number read: more is no board number (six digits, as events number
#: their boards).
MAX_BOARD = 999_999
#: The scoring a vugraph header's third field names: IMPs, matchpoints (pairs), board-a-match.
_SCORING = {"I": "IMP", "P": "MP", "B": "BAM"}
_DIGITS = re.compile(r"[0-9]{1,3}")
#: A line with its end: ``\n``, ``\r\n`` or a lone ``\r`` (``str.splitlines`` would also part
#: lines at a form feed or a ``\x85`` inside a comment, which a file read by lines does not).
_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
_LINE_END = re.compile(rb"\r\n?|\n")
#: The next parameter of a hand-viewer link whose record is not URL-encoded.
_NEXT_PARAMETER = re.compile(r"&[A-Za-z_]\w*=")


class LINError(PBNError):
    """A LIN file is malformed: ``FILE:LINE: reason`` (the reason names the column and
    the value at fault).  A :class:`~cardgames.errors.PBNError`, so that whatever reports
    a bad board of a PBN file reports one of a LIN file the same way."""


class LINPartError(LINError):
    """A part of a board that does not read -- its auction, its play, its result, a value
    too long -- and is left out: the board itself is read without it, and this says what
    was left out.  A lenient reader passes it on before the board; a strict one raises it
    as it raises any :class:`LINError`."""


class LINWriteError(CardgamesError):
    """A board that a LIN record cannot hold: a deal whose hands are neither whole (13
    cards) nor unknown, as in an end position.  :func:`to_lin` raises it; the board is
    left out."""


def _as_part(err: LINError) -> LINPartError:
    return err if isinstance(err, LINPartError) else \
        LINPartError(err.reason, line=err.line, source=err.source)


def looks_like_lin(head: str) -> bool:
    """Whether text (the start of a file) is LIN rather than PBN: after empty and ``%``
    lines, a two-letter key and a bar (``pn|``, ``qx|``, ``vg|``, ``md|``), or a hand-viewer
    link with ``lin=``."""
    for line in head.lstrip("\ufeff").splitlines():
        text = line.strip()
        if not text or text.startswith("%"):
            continue
        return bool(re.match(r"[A-Za-z]{2}\|", text)) or bool(
            _URL_LIN.search(text) and "|" in unquote_plus(text))
    return False


# ---- pairs -------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Pair:
    key: str      # lower case
    value: str
    line: int
    column: int


def _pairs(lines: Iterable[str], source: str | None) -> Iterator[_Pair | LINError]:
    """The ``key|value|`` pairs of the text, each with the line and column of its key;
    a :class:`LINPartError` in the stream for text that is not a pair (a stray bar in a
    value, a line of something else): it is skipped up to the next key of its line, which
    is read (stopping at the line's end would cut the board short).  A value may run over
    lines; ``%`` lines (between pairs) are comments; a hand-viewer link is read from its
    ``lin=``."""
    key: str | None = None
    value: list[str] = []
    size = 0
    at = (0, 0)
    bad = 0          # lines in a row that held no pair
    for number, raw in enumerate(_physical(lines), 1):
        if bad > MAX_BAD_LINES:
            yield LINError(f"no LIN pair in the last {MAX_BAD_LINES:,} lines: not a LIN "
                           "file; the reading stops here", line=number - 1, source=source)
            return
        if len(raw) > MAX_LINE:
            yield LINError(f"a line longer than {MAX_LINE:,} characters: not a LIN file; "
                           "the reading stops here", line=number, source=source)
            return
        line = raw.rstrip("\r\n")
        if number == 1:
            line = line.lstrip("\ufeff")
        i = 0
        if key is None:
            stripped = line.strip()
            if not stripped or stripped.startswith("%"):
                continue
            m = _URL_LIN.search(line)
            if m is not None and "|" not in line[:m.start()]:
                line = _link_record(line[m.end():])
        n = len(line)
        while i < n:
            if key is None:
                while i < n and line[i] in " \t":
                    i += 1
                if i >= n:
                    break
                bar = line.find("|", i)
                word = line[i:bar] if bar >= 0 else line[i:]
                if bar < 0 or not _KEY.fullmatch(word):
                    skip = _next_key(line, bar)
                    text = line[i:skip].rstrip(" \t").removesuffix("|")
                    shown = text if len(text) <= 40 else text[:40] + "..."
                    bad += 1
                    if bad <= MAX_BAD_LINES:
                        then = (f", the reading goes on at column {skip + 1}" if skip < n
                                else "")
                        yield LINPartError(f"column {i + 1}: {shown!r} is not a LIN key (two "
                                           f"letters and a bar, as pn| or md|): left out{then}",
                                           line=number, source=source)
                    i = skip
                    continue
                bad = 0
                key, at, value, size = word.lower(), (number, i + 1), [], 0
                i = bar + 1
            bar = line.find("|", i)
            if bar < 0:
                value.append(line[i:])
                size += n - i
                break
            value.append(line[i:bar])
            if size + bar - i > MAX_VALUE:
                yield LINPartError(f"column {at[1]}: the value of {key}| is longer than "
                                   f"{MAX_VALUE:,} characters: left out", line=at[0],
                                   source=source)
            else:
                yield _Pair(key, "".join(value), *at)
            key = None
            i = bar + 1
        if key is not None:
            value.append("\n")
            size += 1
            if size > MAX_VALUE:
                yield LINError(f"column {at[1]}: the value of {key}| runs past "
                               f"{MAX_VALUE:,} characters with no closing bar: not a LIN "
                               "file", line=at[0], source=source)
                key = None
    if key is not None:
        # The last value of a file may lack its bar.
        yield _Pair(key, "".join(value).rstrip("\n"), *at)


def _next_key(line: str, bar: int) -> int:
    """Where the next key of the line starts after text that is not one, whose first bar
    is at ``bar`` (-1: none): the line's length if no key follows."""
    n = len(line)
    while bar >= 0:
        j = bar + 1
        while j < n and line[j] in " \t":
            j += 1
        bar = line.find("|", j)
        if bar >= 0 and _KEY.fullmatch(line, j, bar):
            return j
    return n


def _physical(lines: Iterable[str]) -> Iterator[str]:
    """The lines of the text, each ended by ``\\n``, ``\\r\\n`` or a lone ``\\r`` (old Mac
    writers): an item that holds more than one line (a file of ``\\r`` lines read by what
    parts lines at ``\\n``) is parted, so that every way of reading a file numbers its
    lines alike."""
    for item in lines:
        cr = item.find("\r")
        if cr < 0 or item[cr:] in ("\r", "\r\n"):
            yield item
        else:
            yield from _LINES.findall(item)


def _link_record(text: str) -> str:
    """The record of a hand-viewer link, from just after its ``lin=``: URL-encoded (its
    bars as ``%7C``), it is decoded up to the link's next parameter or its ``#``; with
    its bars as they are (BBO's own links: ``pn|Susan%20Siegel,...|``), up to a next
    parameter (``&v=``), its ``%`` escapes are decoded but not ``+`` (a space only in a
    form's encoding: ``5+ spades`` stays), and a ``%`` that escapes nothing stays."""
    if "|" in text:
        m = _NEXT_PARAMETER.search(text)
        return unquote(text if m is None else text[:m.start()])
    return unquote_plus(text.split("&", 1)[0].split("#", 1)[0])


# ---- boards ------------------------------------------------------------------------------

@dataclass
class _Board:
    line: int = 0
    players: list[str] | None = None
    room: str | None = None
    number: int | None = None
    deal: _Pair | None = None
    vulnerable: _Pair | None = None
    calls: list[tuple[_Pair, str | None]] = field(default_factory=list)
    cards: list[_Pair] = field(default_factory=list)
    claim: _Pair | None = None
    comments: list[str] = field(default_factory=list)
    heading: _Pair | None = None   # ah|Board 3|
    started: bool = False          # a key that belongs to a board was seen
    # What did not read while the board was read (text that is no pair, a call after the
    # play...), in the stream's order: said before the board, or as errors if it is none.
    said: list[LINError] = field(default_factory=list)
    # What the archive's header said when the board began (a later vg| or pn| is for the
    # boards after it).
    event: str | None = None
    scoring: str | None = None
    header_players: list[str] | None = None


class _Header:
    """What a vugraph archive says once for all its boards: the event and both rooms'
    players."""

    def __init__(self) -> None:
        self.event: str | None = None
        self.players: list[str] | None = None
        self.scoring: str | None = None     # from vg|'s third field: I, P or B


def _hand(text: str, where: _Pair, source: str | None) -> Hand | None:
    """One hand of ``md|``: suit letters each followed by ranks (any order, any case, 10
    or T); None for an empty hand (left out)."""
    body = text.strip()
    if not body:
        return None
    cards: list[Card] = []
    suit: Suit | None = None
    i = 0
    while i < len(body):
        ch = body[i].upper()
        if ch in "SHDC":
            suit = Suit.parse(ch)
        elif ch == " ":
            pass
        elif suit is None:
            raise _error(where, f"hand {text!r}: {body[i]!r} before any suit letter", source)
        else:
            if body.startswith("10", i):
                ch, i = "T", i + 1
            try:
                cards.append(Card(suit, Rank.parse(ch)))
            except CardgamesError:
                raise _error(where, f"hand {text!r}: {body[i]!r} is not a rank", source
                             ) from None
        i += 1
    if len(set(cards)) != len(cards):
        raise _error(where, f"hand {text!r} holds a card twice", source)
    return Hand.from_cards(cards)


def _error(pair: _Pair, reason: str, source: str | None) -> LINError:
    return LINError(f"column {pair.column}: {pair.key}|{_short(pair.value)}|: {reason}",
                    line=pair.line, source=source)


def _flat(value: str) -> str:
    """A value on one line: a line break inside it (some writers break lines anywhere)
    stands for nothing more than a space."""
    return " ".join(value.split()) if ("\n" in value or "\r" in value) else value.strip()


def _short(value: str) -> str:
    value = value.replace("\n", " ")
    return value if len(value) <= 40 else value[:40] + "..."


def _deal(pair: _Pair, source: str | None) -> tuple[Seat | None, Deal]:
    text = pair.value.strip()
    dealer = None
    if text[:1].isdigit():
        if text[0] not in "1234":
            raise _error(pair, f"the dealer is 1 (South) to 4 (East), not {text[0]}", source)
        dealer = _LIN_SEATS[int(text[0]) - 1]
        text = text[1:]
    parts = text.split(",")
    if len(parts) > 4:
        if any(p.strip() for p in parts[4:]):
            raise _error(pair, f"{len(parts)} hands: a deal has four", source)
        parts = parts[:4]
    hands: list[Hand | None] = [None] * 4
    for k, part in enumerate(parts):
        hands[_LIN_SEATS[k]] = _hand(part, pair, source)
    known = [h for h in hands if h is not None]
    if any(len(h) != 13 for h in known):
        # (a LIN hand is whole or not given, as the writer has it)
        raise _error(pair, "a hand of the deal does not hold 13 cards", source)
    if len(known) == 3 and all(len(h) == 13 for h in known):
        # The fourth hand is the rest of the pack.
        taken = {c for h in known for c in h}
        missing = next(s for s in Seat if hands[s] is None)
        hands[missing] = Hand.from_cards(c for c in map(Card.from_index, range(52))
                                         if c not in taken)
    try:
        return dealer, Deal(tuple(hands))
    except CardgamesError as err:
        raise _error(pair, str(err), source) from None


def _call(pair: _Pair, source: str | None) -> tuple[str, bool]:
    """A ``mb|`` value as PBN writes the call, and whether it is alerted."""
    text = pair.value.strip()
    alerted = text.endswith("!")
    word = text.rstrip("!").strip()
    m = _CALL.fullmatch(word)
    if m is None:
        raise _error(pair, "not a call (p, d, r, 1C to 7N, ! for an alert)", source)
    if m.group(1):
        strain = "NT" if m.group(2).upper() == "N" else m.group(2).upper()
        return m.group(1) + strain, alerted
    first = word[0].upper()
    return {"P": "Pass", "D": "X", "X": "X" if len(word) == 1 else "XX", "R": "XX"}[first], \
        alerted


def _card(pair: _Pair, source: str | None) -> Card:
    text = pair.value.strip().replace("10", "T")
    try:
        return Card.parse(text.upper())
    except CardgamesError:
        raise _error(pair, "not a card (a suit letter and a rank, as SA or hT)",
                     source) from None


def _digits(text: str) -> int | None:
    """A whole number written in ASCII digits, or None (``"²"`` is no number)."""
    text = text.strip()
    return int(text) if _DIGITS.fullmatch(text) else None


def _number_in(heading: str) -> str | None:
    """The digits of the board number a heading gives (:data:`_BOARD_WORD`,
    :data:`_BOARD_ALONE`), None if it gives none."""
    m = _BOARD_WORD.search(heading) or _BOARD_ALONE.fullmatch(heading)
    return None if m is None else m.group(1)


def _board_number(digits: str, pair: _Pair, source: str | None) -> int:
    """A board number read from ``pair``.

    :raises LINError: for one that is no board's (0, or past :data:`MAX_BOARD`), which
        is not cut to what fits.
    """
    value = int(digits) if len(digits) <= 9 else MAX_BOARD + 1
    if not 1 <= value <= MAX_BOARD:
        shown = digits if len(digits) <= 12 else digits[:12] + "..."
        raise _error(pair, f"board number {shown}: a board is numbered 1 to {MAX_BOARD:,}; "
                     "the number is left out", source)
    return value


def _game(board: _Board, source: str | None) -> tuple[Game, list[LINError]]:
    """The board as a PBN game, and what had to be left out of it (each a
    :class:`LINError` at its place): an auction that does not read (the auction, the
    contract and the play are left out), a card that does not read or breaks the rules
    (the play is), a claim the play cannot have (the result is), a bad vulnerability.

    :raises LINError: for a deal that does not read: nothing is left of the board; for a
        board with neither a deal nor a number (its calls or cards alone are no board).
    """
    left_out: list[LINError] = []
    tags: list[Tag] = []
    if board.event:
        tags.append(Tag("Event", _flat(board.event)))
    number = board.number
    if number is None and board.heading is not None:
        digits = _number_in(board.heading.value)
        if digits is not None:
            try:
                number = _board_number(digits, board.heading, source)
            except LINError as err:
                left_out.append(err)
        elif re.search(r"[0-9]", board.heading.value):
            left_out.append(_error(board.heading, "no board number read in the heading (as "
                                   "Board 12, Bd 12 or 12): left out", source))
    if board.deal is None and number is None:
        # Nothing to tell the board by (no deal, no number) and nothing to read it by (no
        # dealer): what it holds is no board.
        raise LINError("an auction, play or claim with no deal (md|) and no board number "
                       "(qx|, ah|) before it: no board to read it in", line=board.line,
                       source=source)
    if number is not None:
        tags.append(Tag("Board", str(number)))
    if board.room is not None:
        tags.append(Tag("Room", "Open" if board.room == "o" else "Closed"))
    players = board.players
    both = board.header_players
    if players is None and both is not None:
        offset = 4 if board.room == "c" and len(both) >= 8 else 0
        players = both[offset:offset + 4]
    if players:
        named = dict(zip(_LIN_SEATS, players))
        for seat in (Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH):
            name = _flat(named.get(seat, ""))
            if name and name != "-":
                tags.append(Tag(seat.name.title(), name))
    dealer: Seat | None = None
    deal: Deal | None = None
    if board.deal is not None:
        dealer, deal = _deal(board.deal, source)
    if dealer is None and number is not None:
        dealer = Seat.NORTH.next(number - 1)
    if dealer is not None:
        tags.append(Tag("Dealer", dealer.letter))
    if board.vulnerable is not None:
        v = board.vulnerable.value.strip().lower()
        if v in _VULNERABLE:
            tags.append(Tag("Vulnerable", _VULNERABLE[v]))
        else:
            left_out.append(_error(board.vulnerable, "vulnerability is o, n, e or b (0 or "
                                   "- for none): left out", source))
    if deal is not None:
        tags.append(Tag("Deal", deal.to_pbn(dealer or Seat.NORTH)))
    if board.scoring is not None:
        tags.append(Tag("Scoring", board.scoring))
    calls, notes, auction = _auction(board, dealer, source, left_out)
    contract = None if auction is None or not auction.is_complete else auction.contract
    declarer = None if contract is None else auction.declarer  # type: ignore[union-attr]
    if auction is not None and auction.is_complete:
        text = "Pass" if contract is None else (
            f"{contract.level}{contract.strain.letter}{'X' * contract.doubled}")
        if declarer is not None:
            tags.append(Tag("Declarer", declarer.letter))
        tags.append(Tag("Contract", text))
    cards = _play(board, deal, contract, declarer, source, left_out)
    if board.claim is not None and cards is None:
        # (a claim is tricks of a contract, on a deal: without them it says nothing)
        why = ("the play is left out" if contract is not None and declarer is not None
               and deal is not None else "no contract to claim in (no auction ending in "
               "one: missing, unfinished, passed out or left out) or no deal")
        left_out.append(_error(board.claim, f"a claim, but {why}: the result is left out",
                               source))
    elif board.claim is not None and cards is not None:
        claimed = _digits(board.claim.value)
        assert contract is not None and declarer is not None and deal is not None
        pos = Position(deal, contract.strain, declarer.lho, cards)
        won = pos.tricks_won(declarer)
        left = deal.cards_per_hand - len(cards) // 4
        if claimed is None or not won <= claimed <= won + left:
            left_out.append(_error(board.claim, f"a claim is declarer's tricks in all, "
                                   f"{won} to {won + left} after this play: the result is "
                                   "left out", source))
        else:
            tags.append(Tag("Result", str(claimed)))
    if calls:
        rows = [" ".join(calls[i:i + 4]) for i in range(0, len(calls), 4)]
        assert dealer is not None
        tags.append(Tag("Auction", dealer.letter, section=tuple(rows)))
        for k, note in enumerate(notes, 1):
            tags.append(Tag("Note", f"{k}:{note}"))
    if cards and declarer is not None:
        tags.append(Tag("Play", declarer.lho.letter,
                        section=(*play_section(cards, declarer.lho, contract.strain),  # type: ignore[union-attr]
                                 "*")))
    comments = tuple("{" + _flat(c).replace("{", "(").replace("}", ")") + "}"
                     for c in board.comments if c.strip())
    game = Game(tags, trailing_comments=comments, line=board.line, source=source)
    game.validate()
    return game, left_out


def _auction(board: _Board, dealer: Seat | None, source: str | None,
             left_out: list[LINError]) -> tuple[list[str], list[str], Auction | None]:
    """The board's calls as PBN writes them (alerts as note references), the notes' texts,
    and the auction (None when there is none, or it does not read: then it is left out,
    said in ``left_out`` at the call at fault)."""
    if not board.calls:
        return [], [], None
    calls: list[str] = []
    notes: list[str] = []
    for pair, explanation in board.calls:
        try:
            call, alerted = _call(pair, source)
        except LINError as err:
            left_out.append(LINError(f"{err.reason}: the auction and play are left out",
                                     line=err.line, source=source))
            return [], [], None
        if alerted or explanation is not None:
            notes.append(_flat(explanation or "") or "alerted")
            # An alert with an explanation is kept apart from an explanation alone (a
            # player's note on a natural call) by PBN's alert, "*": the auction's reading
            # takes an alerted call as no natural one.
            call += f"{'*' if alerted and explanation else ''} ={len(notes)}="
        calls.append(call)
    if dealer is None:
        left_out.append(_error(board.calls[0][0], "an auction without a dealer (md| gives "
                               "none and the board has no number): the auction and play are "
                               "left out", source))
        return [], [], None
    bare = [c.split(" =")[0] for c in calls]
    try:
        return calls, notes, Auction.parse(" ".join(bare), dealer=dealer)
    except CardgamesError as err:
        # The call at fault: the first whose auction so far does not read.
        at = next((k for k in range(1, len(bare) + 1) if not _reads(bare[:k], dealer)),
                  len(bare))
        left_out.append(_error(board.calls[at - 1][0], f"the auction does not read "
                               f"({err}): the auction and play are left out", source))
        return [], [], None


def _reads(calls: list[str], dealer: Seat) -> bool:
    try:
        Auction.parse(" ".join(calls), dealer=dealer)
        return True
    except CardgamesError:
        return False


def _play(board: _Board, deal: Deal | None, contract: Contract | None,
          declarer: Seat | None, source: str | None,
          left_out: list[LINError]) -> list[Card] | None:
    """The cards played, checked by the rules; None (said in ``left_out``) when the
    play must be left out: no contract to play, or a card that does not read or breaks
    the rules."""
    if not board.cards:
        return [] if contract is not None and deal is not None else None
    if contract is None or declarer is None or deal is None:
        left_out.append(_error(board.cards[0], "cards played without a contract (the "
                               "auction is missing, unfinished or left out): the play is "
                               "left out", source))
        return None
    pos = Position(deal, contract.strain, declarer.lho)
    cards: list[Card] = []
    for pair in board.cards:
        try:
            card = _card(pair, source)
            pos.play(card)
        except LINError as err:
            left_out.append(LINError(f"{err.reason}: the play is left out", line=err.line,
                                     source=source))
            return None
        except CardgamesError as err:
            left_out.append(_error(pair, f"{err}: the play is left out", source))
            return None
        cards.append(card)
    return cards


_BOARD_KEYS = frozenset({"md", "sv", "mb", "an", "pc", "mc", "ah", "rh", "st", "pg", "nt",
                         "qx", "pn", "sa", "at"})
#: Keys that open a record and are never said after its deal (a vugraph header's, BBO's
#: ``st||``, the room): after a board has begun, one opens the next board.
_OPENING_KEYS = frozenset({"vg", "rs", "pw", "mp", "bn", "mn", "st", "qx"})
#: Keys some writers put before a record's deal and others after it (BBO writes
#: ``md|...|rh||ah|Board 1|sv|o|``): said at the start of a line after a board's deal, or
#: after its auction, they are the next board's if a deal follows them, else this one's.
_EITHER_KEYS = frozenset({"sv", "ah", "rh", "pn"})


def _unread(errors: Iterable[LINError]) -> Iterator[LINError]:
    """What was said of a board that is not read after all: each a :class:`LINError` (a
    part left out of no board is no part)."""
    for err in errors:
        yield LINError(err.reason, line=err.line, source=err.source) \
            if isinstance(err, LINPartError) else err


def _boards(pairs: Iterator[_Pair | LINError], source: str | None
            ) -> Iterator[Game | LINError]:
    """The games of a stream of pairs, in order; an error in place of a board that does
    not read (or of text that is no board), and before a board kept without part of it,
    what was left out (so that each :class:`LINPartError` comes before its board).

    Where a board ends: at a record's opening key (:data:`_OPENING_KEYS`, a second deal,
    players at the start of a line or after the auction), and at keys that may stand on
    either side of a deal (:data:`_EITHER_KEYS`) when a deal follows them: a record
    ``st||sv|b|ah|Board 6|md|...`` after a board of a deal alone keeps its vulnerability
    and heading (not given to the board before), as a line ``vg|...|pn|...|md|...``
    keeps its players."""
    header = _Header()
    board = _Board()
    held: list[_Pair] = []      # sv|, ah|... that are the next board's if a deal follows
    last_line = 0               # the line of the last key

    def start(b: _Board, line: int) -> None:
        """A board begins: what the archive's header says now is its own."""
        if not b.started:
            b.started, b.line = True, line
            b.event, b.scoring, b.header_players = (header.event, header.scoring,
                                                    header.players)

    def begun(b: _Board) -> bool:
        return b.deal is not None or played(b)

    def played(b: _Board) -> bool:
        return bool(b.calls) or bool(b.cards) or b.claim is not None

    def finish(b: _Board) -> Iterator[Game | LINError]:
        if not begun(b):
            # nothing but a heading or players: not a board
            yield from _unread(b.said)
            return
        try:
            game, left_out = _game(b, source)
        except LINError as err:
            yield from _unread(b.said)
            yield err
            return
        except (CardgamesError, ValueError) as err:
            yield from _unread(b.said)
            yield LINError(str(err), line=b.line, source=source)
            return
        yield from b.said
        yield from map(_as_part, left_out)
        yield game

    def take(pair: _Pair) -> None:
        """Read a pair into the board being read."""
        key = pair.key
        if key == "vg":
            fields = [f.strip() for f in pair.value.split(",")]
            title = ", ".join(f for f in fields[:2] if f)
            header.event = title or None
            form = fields[2].upper() if len(fields) > 2 else ""
            header.scoring = _SCORING.get(form)
            return
        if key == "pn":
            names = [n.strip() for n in pair.value.split(",")]
            if len(names) >= 8:              # both rooms' players, for the boards after
                header.players = names
                return
            start(board, pair.line)
            board.players = names
            return
        if key not in _BOARD_KEYS:
            return
        start(board, pair.line)
        if key == "qx":
            room, _, label = pair.value.partition(",")
            m = _ROOM.fullmatch(room)
            if m is None:
                board.said.append(_as_part(_error(
                    pair, "not a room and a board number (o for the open room, c for the "
                    "closed, and the number, as o12): the room is left out", source)))
            else:
                board.room = m.group(1).lower()
            digits = m.group(2) if m is not None and m.group(2) else _number_in(label) \
                if label.strip() else None
            if digits:
                try:
                    board.number = _board_number(digits, pair, source)
                except LINError as err:
                    board.said.append(_as_part(err))
        elif key == "md":
            board.deal = pair
        elif key == "sv":
            board.vulnerable = pair
        elif key == "ah":
            board.heading = pair
        elif key == "mb":
            if board.cards or board.claim:
                board.said.append(_as_part(_error(pair, "a call after the play began: left "
                                                  "out", source)))
                return
            board.calls.append((pair, None))
        elif key == "an":
            if board.calls and board.calls[-1][1] is None:
                last, _ = board.calls[-1]
                board.calls[-1] = (last, pair.value)
        elif key == "pc":
            if board.claim is None:
                board.cards.append(pair)
        elif key == "mc":
            board.claim = pair
        elif key == "nt":
            board.comments.append(pair.value)

    count = 0        # pairs of the board being read
    for pair in pairs:
        if isinstance(pair, LINError):
            board.said.append(pair)
            continue
        count += 1
        if count > MAX_BOARD_PAIRS:
            if count == MAX_BOARD_PAIRS + 1:
                yield from _unread(board.said)
                board.said, held = [], []
                yield LINError(f"a board of more than {MAX_BOARD_PAIRS:,} pairs: not a "
                               "board; dropped", line=board.line or pair.line, source=source)
            if pair.key not in ("qx", "md", "pn"):
                continue
            yield from _unread(board.said)
            board, count = _Board(), 1
        key = pair.key
        first = pair.line != last_line       # the first key of its line
        last_line = pair.line
        header_players = key == "pn" and pair.value.count(",") >= 7
        opens = key in _OPENING_KEYS or (key == "md" and board.deal is not None)
        if held:
            if opens or key == "md":
                # A deal (or a record's opening) follows the pairs held: they are the
                # next board's.
                yield from finish(board)
                board, count = _Board(), len(held) + 1
                for p in held:
                    take(p)
                held = []
            elif key in _EITHER_KEYS and not header_players:
                held.append(pair)
                continue
            else:
                for p in held:
                    take(p)
                held = []
        elif begun(board) and not header_players:
            if opens or (key == "pn" and (first or played(board))):
                # (players at the start of a line after a deal, or after an auction or a
                # play, are a record's that begins: a board a line)
                yield from finish(board)
                board, count = _Board(), 1
            elif key in _EITHER_KEYS and (first or played(board) or key == "pn"):
                held = [pair]
                continue
        elif key == "qx" and (board.room is not None or board.number is not None):
            # A record's qx| after another's with no deal between: the record before had
            # nothing to read (it is said, if anything was); its heading and vulnerability
            # are not this board's, its players are (given before this qx|, as before).
            players = board.players
            yield from finish(board)
            board, count = _Board(), 1
            start(board, pair.line)
            board.players = players
        take(pair)
    for p in held:
        take(p)
    yield from finish(board)


# ---- the reader --------------------------------------------------------------------------

class LINReader:
    """The games of a LIN stream, one at a time (an iterator of :class:`Game`).  In strict
    mode the first bad board raises; otherwise it is skipped and its error appended to
    :attr:`errors` and passed to ``on_error``, as is each :class:`LINPartError` (a part of
    a board left out, the board read without it) before its board.  :attr:`tail` is None
    (a LIN file is not written back); a context manager that closes a file
    :func:`load_path` opened."""

    def __init__(self, lines: Iterable[str], *, strict: bool = True,
                 source: str | None = None,
                 on_error: Callable[[PBNError], None] | None = None,
                 _closing: object | None = None):
        self.strict = strict
        self.source = source
        self.on_error = on_error
        self.errors: list[PBNError] = []
        self.tail: bytes | None = None
        self._closing = _closing
        self._games = _boards(_pairs(lines, source), source)
        self._count = 0
        self._deals: dict[str, int] = {}   # each distinct deal: the index it was first met

    def __iter__(self) -> LINReader:
        return self

    def __next__(self) -> Game:
        for item in self._games:
            if isinstance(item, LINError):
                if self.strict:
                    self.close()
                    raise item
                self.errors.append(item)
                if self.on_error is not None:
                    self.on_error(item)
                continue
            item.index = self._count
            self._count += 1
            # Another table of a deal met before (a vugraph file's other room): said as
            # the PBN reader says it, so that a tool solves and shows the deal once.
            deal = item.tag("Deal")
            if deal is not None and any(ch.isalnum() for ch in deal[2:]):
                first = self._deals.setdefault(_deal_key(item), item.index)
                if first != item.index:
                    item.same_deal_as = first
            return item
        self.close()
        raise StopIteration

    def close(self) -> None:
        closing = self._closing
        if closing is not None and hasattr(closing, "close"):
            closing.close()

    def __enter__(self) -> LINReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _deal_key(game: Game) -> str:
    """The game's deal from North, however its Deal tag begins."""
    deal = game.deal
    return deal.to_pbn() if deal is not None else (game.tag("Deal") or "")


def _decoded(lines: Iterable[bytes | str]) -> Iterator[str]:
    for line in lines:
        if isinstance(line, bytes):
            try:
                yield line.decode("utf-8")
            except UnicodeDecodeError:
                yield line.decode("latin-1")
        else:
            yield line


def load(fp: Iterable[str] | Iterable[bytes], *, strict: bool = True,
         source: str | None = None,
         on_error: Callable[[PBNError], None] | None = None) -> LINReader:
    """Read the boards of a LIN file (an open file or any iterable of lines), lazily.

    :raises LINError: while iterating, in strict mode, for a board that does not read.
    """
    if source is None:
        name = getattr(fp, "name", None)
        source = name if isinstance(name, str) else None
    return LINReader(_decoded(fp), strict=strict, source=source, on_error=on_error)


def loads(text: str, *, strict: bool = True, source: str | None = None,
          on_error: Callable[[PBNError], None] | None = None) -> LINReader:
    """Read the boards of LIN text; the parameters are those of :func:`load`.

    :raises TypeError: if ``text`` is not a string.
    """
    if not isinstance(text, str):
        raise TypeError(f"LIN text must be a string, not {type(text).__name__} (use "
                        "load() for a file object, load_path() for a file name)")
    # Lines end at \n, \r\n or \r, as a file's do (_lines_of): not at every break that
    # str.splitlines knows.
    return LINReader((m.group() for m in _LINES.finditer(text)), strict=strict,
                     source=source, on_error=on_error)


def load_path(path: str | PathLike[str], *, strict: bool = True,
              on_error: Callable[[PBNError], None] | None = None) -> LINReader:
    """Read the boards of a LIN file by name (UTF-8, else Latin-1, line by line).

    :raises OSError: if the file cannot be opened.
    """
    file = open(path, "rb")
    return LINReader(_decoded(file), strict=strict, source=str(path), on_error=on_error,
                     _closing=file)


class _Peeked:
    """A file opened on the first read whose first bytes can be looked at before the
    reading starts (a named pipe cannot be read twice)."""

    def __init__(self, path: str | PathLike[str]):
        self.file = LazyFile(path)
        self.head: bytes | None = None

    def peek(self, size: int) -> bytes:
        if self.head is None:
            self.head = self.file.read(size)
        return self.head

    def read(self, size: int) -> bytes:
        if self.head:
            out, self.head = self.head, b""
            return out
        return self.file.read(size)

    def close(self) -> None:
        self.file.close()


def _lines_of(source: _Peeked) -> Iterator[bytes]:
    """The stream's lines, each with its line end (``\\n``, ``\\r\\n`` or a lone ``\\r``: a file
    of ``\\r`` lines is as many lines, not one); a line longer than :data:`MAX_LINE` is cut
    there (its tail is skipped), and the reader stops at it (not a LIN file)."""
    parts: list[bytes] = []
    size = 0
    skipping = False
    cr = False           # the last piece ended in \r: a \n starting the next is its pair
    while True:
        piece = source.read(1 << 16)
        if not piece:
            break
        start = 1 if cr and piece.startswith(b"\n") else 0
        cr = False
        while start < len(piece):
            m = _LINE_END.search(piece, start)
            end = len(piece) if m is None else m.end()
            chunk = piece[start:end]
            if not skipping:
                parts.append(chunk)
                size += len(chunk)
                if size > MAX_LINE:
                    yield b"".join(parts)[:MAX_LINE + 1]
                    parts, size, skipping = [], 0, True
            if m is None:
                break
            cr = end == len(piece) and m.group() == b"\r"
            if skipping:
                skipping = False
            elif parts:
                yield b"".join(parts)
                parts, size = [], 0
            start = end
    if parts:
        yield b"".join(parts)


def open_games(path: str | PathLike[str], *, strict: bool = True, validate: bool = True,
               on_error: Callable[[PBNError], None] | None = None
               ) -> PBNReader | LINReader:
    """The games of a file, PBN or LIN as its content says (:func:`looks_like_lin` on
    its first lines, whatever its name): a :class:`~cardgames.pbn.PBNReader` (with
    ``validate``, see :func:`cardgames.pbn.load`) or a :class:`LINReader` (whose games
    are always checked).

    :raises OSError: if the file cannot be opened or read.
    """
    file = _Peeked(path)
    head = file.peek(1 << 14)
    if looks_like_lin(head.removeprefix(b"\xef\xbb\xbf").decode("latin-1")):
        return LINReader(_decoded(_lines_of(file)), strict=strict, source=str(path),
                         on_error=on_error, _closing=file)
    return PBNReader(file, strict=strict, source=str(path), validate=validate,
                     on_error=on_error, _closing=file)


# ---- writing -----------------------------------------------------------------------------

_LIN_VULNERABLE = {"none": "o", "ns": "n", "ew": "e", "both": "b"}


def _lin_value(text: str) -> str:
    """A value LIN can hold: no bar (it ends the value), on one line."""
    return _flat(text).replace("|", "/")


def _lin_hand(hand: Hand | None) -> str:
    if hand is None or not len(hand):
        return ""   # not known: an empty hand, as the reader takes it
    return "".join(suit.letter + "".join(c.rank.letter for c in sorted(
        c for c in hand if c.suit == suit))
        for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS))


def _written_auction(game: Game) -> Auction:
    """The game's auction as LIN can write it, by the laws of the auction: up to its end
    (passes after it, which some PBN writers add, are dropped: the reader would refuse
    them).  The dealer, if the game does not say, is taken as North (the laws do not
    depend on it).

    :raises CardgamesError: for a call that is not one (``-``, unknown) or breaks the laws:
        the reader would leave the auction out.
    """
    auction = Auction(game.auction_dealer or Seat.NORTH)
    for i, call in enumerate(game.auction):
        if auction.is_complete:
            break
        try:
            auction = auction.then(call)
        except CardgamesError as err:
            raise CardgamesError(f"call {i + 1} of the auction, {call!r}, is not a call LIN "
                                 f"can write ({err})") from None
    return auction


def vugraph_header(game: Game) -> str | None:
    """The game's ``Event`` and ``Scoring`` as a vugraph header (``vg|``), None if it names
    neither: the event's first comma parts it into the header's event and segment (as
    the reader joins them), later ones are left out (a comma ends a field)."""
    event = game.known("Event") or ""
    scoring = (game.known("Scoring") or "").upper()
    code = next((c for c, names in _SCORING_NAMES.items()
                 if any(scoring.startswith(n) for n in names)), "")
    if not event and not code:
        return None
    name, _, segment = (_lin_value(event).partition(", ") if ", " in event
                        else (_lin_value(event), "", ""))
    return f"vg|{name.replace(',', ' ')},{segment.replace(',', ' ')},{code},,,,,,|"


def header_change(said: str | None, game: Game) -> tuple[str, str | None]:
    """What to write before ``game``'s record in a file whose last vugraph header was
    ``said`` (None: none yet, or an empty one), and the header now in force: the game's
    header where it differs, an empty ``vg|`` where the game names no event or scoring
    but one was said before (the reader would give it to this board too), else nothing."""
    now = vugraph_header(game)
    if now == said:
        return "", said
    return (now if now is not None else "vg|,,,,,,,,|"), now


#: PBN Scoring values (upper case, as they begin) a vugraph header's third field can say:
#: the names the reader gives (:data:`_SCORING`) and their spelt-out forms.
_SCORING_NAMES = {"I": ("IMP",), "P": ("MP", "MATCHPOINT"), "B": ("BAM", "BOARD-A-MATCH")}


def to_lin(game: Game, *, play: bool = True, auction: bool = True,
           header: bool = True) -> str:
    """One board as a LIN record (a line, without its line end): the players, the deal,
    the board, the vulnerability, the auction (``!`` for an alerted call,
    :attr:`Game.auction_notes`, and ``an|`` for its note), the play (unless ``play`` is
    false; a game with no play but a ``Lead`` tag, as results files give the opening
    lead, has that card played) and the ``Result`` as a claim, the comments as ``nt|``.
    What :func:`loads` reads back to the same board.

    The auction is written up to its end (:func:`_written_auction`).  A board without a
    deal is written with four unknown hands (``md|3,,,|``), as a record needs its ``md|``
    to begin a board.  With ``header``, a board whose ``Event`` or ``Scoring`` tag says
    something begins with a vugraph header (``vg|``) saying it; :func:`dumps` writes one
    where they change.

    A contract that no written auction gives (``Contract``, ``Declarer`` and ``Result``
    tags without an auction) is said in a comment (``nt|Contract 4H by S, result 9|``):
    LIN has no key for it, and a claim (``mc|``) is read only in a contract.  The
    comments of the game (``{...}``, ``; ...``: before and after its tags, in its auction
    and play, at its end) are written as ``nt|`` comments, in order; ``%`` lines, PBN's
    escape lines for programs, and the comments before the game (the file's) are not.

    :raises TypeError: if ``game`` is not a :class:`~cardgames.pbn.Game`.
    :raises LINWriteError: for a deal whose hands LIN cannot hold (not 13 cards, nor none).
    :raises CardgamesError: for a call LIN cannot write (an unknown call, ``-``, or one
        the laws forbid): write the board with ``play=False, auction=False``; for a game
        with a contract, a play or a result but no auction that ends in its contract (LIN
        gives the contract only by the auction), a play that breaks the rules on its deal
        or a result it cannot have (the reader would leave them out), a result that is no
        number of tricks: write it with ``play=False``; :class:`PBNError` for a tag that
        does not read.
    """
    if not isinstance(game, Game):
        raise TypeError(f"to_lin() writes a pbn.Game, not {type(game).__name__}")
    deal = game.deal
    if deal is not None and 0 < deal.cards_per_hand < 13:
        raise LINWriteError(f"a deal of {deal.cards_per_hand}-card hands: a LIN record holds "
                            "whole hands (or unknown ones)")
    bidding = _written_auction(game) if auction else None
    tagged, first = game.dealer, game.auction_dealer
    if bidding is not None and tagged is not None and first is not None and tagged != first:
        raise CardgamesError(f"the Dealer tag says {tagged.letter}, the Auction section "
                             f"starts with {first.letter}, and LIN's auction starts with "
                             "its dealer")
    # LIN gives the contract only by the auction, and a claim (the result) only in it.
    complete = bidding is not None and bidding.is_complete and \
        game.auction_dealer is not None
    result = game.result
    contract_text, result_text = _contract_text(game), _said(game, "Result")
    cards = _cards_played(game) if play else ()
    if play and not complete:
        told = [what for what, given in (
            (f"a contract ({contract_text})", contract_text is not None),
            ("a play" if game.play else "a lead", bool(cards)),
            (f"a result ({result_text})", result_text is not None))
            if given]
        if told:
            raise CardgamesError(f"the board has {_and(told)} but no auction ending in its "
                                 "contract, and LIN gives the contract only by the auction "
                                 "(a comment, nt|, says them)")
    if play and result is None and result_text is not None:
        raise CardgamesError(f"the result {result_text!r} is not a number of tricks, and LIN "
                             "gives a result as declarer's tricks")
    if play and complete and (cards or result is not None):
        contract = bidding.contract       # type: ignore[union-attr]
        if contract is None or contract.declarer is None:
            raise CardgamesError("the board has a play or a result but its auction is "
                                 "passed out")
        if deal is None:
            raise CardgamesError("the board has a play or a result but no deal")
        position = Position(deal, contract.strain, contract.declarer.lho)
        for k, card in enumerate(cards):
            try:
                position.play(card)
            except CardgamesError as err:
                raise CardgamesError(f"card {k + 1} of the play, {card}: {err}" if game.play
                                     else f"the Lead tag's card, {card}: {err}") from None
        if result is not None:
            # The reader takes a claim the play leaves possible, no other.
            won = position.tricks_won(contract.declarer)
            most = won + deal.cards_per_hand - len(cards) // 4
            if not won <= result <= most:
                raise CardgamesError(f"the result, {result} tricks, is not one the play "
                                     f"leaves possible ({won} to {most})")
    out: list[str] = []
    vugraph = vugraph_header(game) if header else None
    if vugraph is not None:
        out.append(vugraph)
    room = (game.tag("Room") or "").strip().lower()
    board = game.board
    if room in ("open", "closed"):
        out.append(f"qx|{room[0]}{'' if board is None else board}|")
    names = [_lin_value(game.tag(s.name.title()) or "") for s in _LIN_SEATS]
    # PBN's unknown "?" is no name; a comma would part a name in two.
    names = ["" if n == "?" else n.replace(",", " ") for n in names]
    if any(names):
        out.append(f"pn|{','.join(names)}|")
    out.append("st||")
    # LIN has one dealer, and its auction starts with him: a board whose Auction section
    # names its first caller but no Dealer tag takes him (else the reader would take the
    # board number's dealer and move every call a seat).
    dealer = game.dealer if bidding is None or game.auction_dealer is None \
        else game.auction_dealer
    digit = "" if dealer is None else str(_LIN_SEATS.index(dealer) + 1)
    hands = [_lin_hand(None if deal is None else deal[s]) for s in _LIN_SEATS]
    out.append(f"md|{digit}{','.join(hands)}|")
    out.append("rh||")
    if board is not None:
        out.append(f"ah|Board {board}|")
    vulnerable = game.vulnerable
    if vulnerable is not None:
        out.append(f"sv|{_LIN_VULNERABLE[vulnerable]}|")
    notes = list(zip(game.auction, game.auction_notes))[:len(bidding.calls)] \
        if bidding is not None else []
    for call, (note, alerted) in notes:
        word = {"Pass": "p", "X": "d", "XX": "r"}.get(call, call.replace("NT", "N"))
        text = _lin_value(note or "")
        out.append(f"mb|{word}{'!' * alerted}|" +
                   (f"an|{text}|" if text and text != "alerted" else ""))
    if out[-1].startswith(("mb|", "an|")):
        out.append("pg||")
    for k, card in enumerate(cards):
        out.append(f"pc|{card}|")
        if k % 4 == 3:
            out.append("pg||")
    if play and result is not None:
        out.append(f"mc|{result}|")
    if not complete and contract_text is not None:
        # No auction gives it (the caller leaves the play and result out): a comment says
        # it, for whoever looks at the board.
        said = f"Contract {contract_text}"
        if result_text is not None:
            said += f", result {result_text}"
        out.append(f"nt|{_lin_value(said)}|pg||")
    for comment in _commentary(game):
        text = _lin_value(comment)
        if text:
            out.append(f"nt|{text}|pg||")
    return "".join(out)


def _cards_played(game: Game) -> tuple[Card, ...]:
    """The game's play, else the card of its ``Lead`` tag (results files give the opening
    lead so, with no play).

    :raises CardgamesError: for a ``Lead`` tag that is no card."""
    if game.play:
        return tuple(game.play)
    lead = _said(game, "Lead")
    if lead is None or lead == "-":
        return ()
    try:
        return (Card.parse(lead),)
    except CardgamesError:
        raise CardgamesError(f"the Lead tag {lead!r} is not a card") from None


def _said(game: Game, name: str) -> str | None:
    """A tag's value as the game gives it, None where it says nothing (absent, empty,
    ``?``)."""
    value = (game.tag(name) or "").strip()
    return None if value in ("", "?") else value


def _contract_text(game: Game) -> str | None:
    """The contract the game's tags give, with its declarer, as words (``4H by S``,
    ``Pass``), whether they read or not; None if they give none."""
    contract, declarer = _said(game, "Contract"), _said(game, "Declarer")
    if contract is None or declarer is None or contract.lower() == "pass":
        return contract
    return f"{contract} by {declarer}"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _commentary(game: Game) -> Iterator[str]:
    """The texts of the game's comments, in order: those before and after its tags, in
    its Auction and Play sections (``1S {too timid}``), and after its last tag.  ``%``
    lines are PBN's escape lines (for programs, not readers: ``% PBN 2.1``, a checksum),
    and a comment block before a game (its preamble) is the file's: neither is said."""
    for tag in game.tags:
        for block in tag.comments:
            yield from _comment_texts(block)
        if tag.trailing:
            yield from _comment_texts(tag.trailing)
        if tag.name in ("Auction", "Play") and tag.section:
            yield from _comment_texts("\n".join(tag.section))
    for block in game.trailing_comments:
        yield from _comment_texts(block)


def _comment_texts(text: str) -> Iterator[str]:
    """The texts of the ``{...}`` and ``; ...`` comments in PBN text (a comment block, a
    section), without their marks; ``%`` lines are skipped."""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "%" and (i == 0 or text[i - 1] == "\n"):
            end = text.find("\n", i)
            i = n if end < 0 else end + 1
        elif ch in "{;":
            end = skip_comment(text, i)
            yield text[i + 1:end - 1] if ch == "{" and text[end - 1] == "}" else \
                text[i + 1:end]
            i = end
        else:
            i += 1


def dumps(games: Iterable[Game]) -> str:
    """Boards as a LIN file: a record a line (BBO's hand-record layout), with a vugraph
    header (``vg|``: the event and the scoring) where they change."""
    out = []
    said = None
    for g in games:
        before, said = header_change(said, g)
        out.append(before + to_lin(g, header=False) + "\n")
    return "".join(out)
