"""Readers for the shared oracle data.

The data lives outside the repository, in ``../shared/data`` (see its README.md):

* ``dds_reference.jsonl`` -- random deals solved by DDS 2.9: tables, lead scores, a mid-play
  position, par.  :func:`read_reference` returns the JSON objects.
* ``dds-hands/list*.txt`` -- DDS's own test hands, seven lines a board (``PBN``, ``FUT``,
  ``TABLE``, ``PAR``, ``PAR2``, ``PLAY``, ``TRACE``).  :func:`read_txt` returns
  :class:`TxtBoard` records with every line parsed, the par and trace lines included so
  that tests of par and play analysis can use them.
* ``dds-hands/sol10.txt`` -- GIB's one-line format (deal and 20 hex digits).
  :func:`read_gib` returns :class:`GibBoard` records.

Tables come out as ``rows[declarer][strain]`` (declarers N E S W, strains S H D C NT),
the layout of :class:`ddsolver.DDTable`, so ``DDTable(board.table)`` compares directly.
This module knows nothing of the solver.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from cardgames.cards import ALL_CARDS, Card, Seat, Strain
from cardgames.hands import Deal

#: ../shared/data, beside the repository.
SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"

#: True for the long form of the randomised oracle checks (env ``DDSOLVER_FULL=1``): more
#: random endings against the minimax and against DDS.  The files of ../shared/data run
#: whole in every run.
FULL = os.environ.get("DDSOLVER_FULL", "") not in ("", "0")

#: True under CI (env ``CI=true``): missing oracle data is then a failure, not a skip.
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def shared_data_file(name: str) -> Path:
    """The path of ``name`` under ../shared/data; if it is missing, fail in CI (a silently
    skipped oracle would look like a pass) and skip elsewhere.  Safe to call at module level
    while tests are collected.
    """
    path = SHARED_DATA / name
    if not path.exists():
        message = f"oracle data {path} is missing"
        if IN_CI:
            pytest.fail(message, pytrace=False)
        pytest.skip(message, allow_module_level=True)
    return path


#: The real PBN files written by other programs (../shared/realpbn, one folder a source).
REAL_PBN = SHARED_DATA.parent / "realpbn"


def real_pbn_files() -> list[Path]:
    """Every file of the real PBN corpus; if it is missing, fail in CI and skip elsewhere
    (call it inside a test)."""
    if not REAL_PBN.is_dir():
        if IN_CI:
            pytest.fail(f"{REAL_PBN} is missing; the real PBN corpus is required under CI")
        pytest.skip(f"{REAL_PBN} is not here (it is the shared corpus of real PBN files)")
    return sorted(REAL_PBN.glob("*/*.pbn"))


REAL_LIN = SHARED_DATA.parent / "reallin"


def real_lin_files() -> list[Path]:
    """Every file of the real LIN corpus (BBO's format); if it is missing, fail in CI and
    skip elsewhere (call it inside a test)."""
    if not REAL_LIN.is_dir():
        if IN_CI:
            pytest.fail(f"{REAL_LIN} is missing; the real LIN corpus is required under CI")
        pytest.skip(f"{REAL_LIN} is not here (it is the shared corpus of real LIN files)")
    return sorted(REAL_LIN.glob("*/*.lin"))


def read_reference(path: Path) -> list[dict]:
    """The reference deals, one JSON object per line (blank lines skipped)."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# ---- DDS txt lists ----------------------------------------------------------------------

_VUL = {0: "none", 1: "both", 2: "ns", 3: "ew"}
_QUOTED = re.compile(r'"([^"]*)"')


class DDSFileError(ValueError):
    """A line of a DDS data file does not have the expected form."""

    def __init__(self, message: str, source: str, line: int):
        super().__init__(f"{source}:{line}: {message}")
        self.source = source
        self.line = line


@dataclass(frozen=True)
class TxtBoard:
    """One board of a DDS ``list*.txt`` file, every line parsed.

    ``fut`` maps every card the leader (``first``) holds to the tricks the leader's side
    takes after leading it, out of 13 (the ``equals`` groups expanded).  ``table`` is
    ``rows[declarer][strain]`` of declarer's tricks.  ``par`` holds the four strings of the
    ``PAR`` line, ``par2`` the strings of the ``PAR2`` line, ``play`` the cards of the
    ``PLAY`` line and ``trace`` the numbers after the count on the ``TRACE`` line
    (declarer's side's tricks before any card and after each card, tricks won included).
    """

    source: str          # file name without ".txt", e.g. "list100"
    number: int          # 1-based board number in the file
    line: int            # line number of the board's PBN line
    dealer: Seat
    vul: str             # none / ns / ew / both
    trump: Strain
    first: Seat          # leads to trick one; declarer is first's right-hand opponent
    deal: Deal
    fut: dict[Card, int]
    table: tuple[tuple[int, ...], ...]
    par: tuple[str, ...]
    par2: tuple[str, ...]
    play: tuple[Card, ...]
    trace: tuple[int, ...]

    @property
    def id(self) -> str:
        return f"{self.source}:{self.number}"

    @property
    def declarer(self) -> Seat:
        return self.first.rho

    @property
    def key(self) -> tuple[str, Strain, Seat]:
        """What makes two boards the same problem: the cards, the trump and the leader."""
        return (self.deal.to_pbn(), self.trump, self.first)


def _ints(fields: list[str], what: str, source: str, line: int) -> list[int]:
    try:
        return [int(x) for x in fields]
    except ValueError:
        raise DDSFileError(f"{what}: expected integers, got {' '.join(fields)!r}", source,
                           line) from None


def expand_equals(suit: int, rank: int, equals: int) -> list[Card]:
    """The cards of one ``FUT`` group: the card itself and every lower card whose bit is set
    in ``equals`` (bit r for rank r), highest first."""
    ranks = [rank] + [r for r in range(14, 1, -1) if equals >> r & 1]
    return [ALL_CARDS[suit * 13 + r - 2] for r in ranks]


def parse_fut(text: str, source: str = "<string>", line: int = 0) -> dict[Card, int]:
    """``FUT n s1..sn r1..rn e1..en k1..kn`` -> {card: score} with the groups expanded."""
    fields = text.split()
    if not fields or fields[0] != "FUT":
        raise DDSFileError(f"expected a FUT line, got {text[:40]!r}", source, line)
    nums = _ints(fields[1:], "FUT", source, line)
    if not nums or len(nums) != 1 + 4 * nums[0]:
        raise DDSFileError(f"FUT line needs a count n and 4n numbers: {text.strip()!r}",
                           source, line)
    n = nums[0]
    suits, ranks, equals, scores = (nums[1 + i * n:1 + (i + 1) * n] for i in range(4))
    out: dict[Card, int] = {}
    for s, r, e, k in zip(suits, ranks, equals, scores):
        if not (0 <= s <= 3 and 2 <= r <= 14 and 0 <= k <= 13):
            raise DDSFileError(f"FUT group out of range (suit {s}, rank {r}, score {k})",
                               source, line)
        for card in expand_equals(s, r, e):
            if card in out:
                raise DDSFileError(f"FUT lists {card} twice", source, line)
            out[card] = k
    return out


def parse_table(text: str, source: str = "<string>", line: int = 0) -> tuple[tuple[int, ...], ...]:
    """``TABLE`` and 20 ints (strain-major S H D C NT, declarer N E S W within a strain)
    -> ``rows[declarer][strain]``."""
    fields = text.split()
    if not fields or fields[0] != "TABLE" or len(fields) != 21:
        raise DDSFileError(f"expected TABLE and 20 numbers, got {text.strip()!r}", source, line)
    v = _ints(fields[1:], "TABLE", source, line)
    return tuple(tuple(v[4 * strain + declarer] for strain in range(5)) for declarer in range(4))


def parse_cards(text: str) -> tuple[Card, ...]:
    """``"CTC4CA..."`` (two characters a card, suit first) -> cards."""
    if len(text) % 2:
        raise ValueError(f"card string of odd length: {text!r}")
    return tuple(Card.parse(text[i:i + 2]) for i in range(0, len(text), 2))


def _board(lines: list[str], source: str, number: int, first_line: int) -> TxtBoard:
    def tagged(i: int, tag: str) -> str:
        text = lines[i]
        if text.split()[:1] != [tag]:
            raise DDSFileError(f"expected a {tag} line, got {text[:40]!r}", source,
                               first_line + i)
        return text

    pbn = tagged(0, "PBN")
    head = pbn.split('"')[0].split()
    nums = _ints(head[1:], "PBN", source, first_line)
    deals = _QUOTED.findall(pbn)
    if len(nums) != 4 or len(deals) != 1:
        raise DDSFileError(f"expected PBN dealer vul trump first \"deal\": {pbn.strip()!r}",
                           source, first_line)
    dealer, vul, trump, first = nums
    if not (0 <= dealer <= 3 and vul in _VUL and 0 <= trump <= 4 and 0 <= first <= 3):
        raise DDSFileError(f"PBN numbers out of range: {pbn.strip()!r}", source, first_line)
    deal = Deal.from_pbn(deals[0], require_complete=True)

    fut = parse_fut(tagged(1, "FUT"), source, first_line + 1)
    table = parse_table(tagged(2, "TABLE"), source, first_line + 2)
    par = tuple(_QUOTED.findall(tagged(3, "PAR")))
    par2 = tuple(_QUOTED.findall(tagged(4, "PAR2")))

    play_line = tagged(5, "PLAY")
    play_fields = play_line.split('"')[0].split()
    played = _QUOTED.findall(play_line)
    n_play = _ints(play_fields[1:], "PLAY", source, first_line + 5)
    try:
        play = parse_cards(played[0] if played else "")
    except ValueError as err:
        raise DDSFileError(f"PLAY: {err}", source, first_line + 5) from None
    if n_play != [len(play)]:
        raise DDSFileError(f"PLAY says {n_play} cards but lists {len(play)}", source,
                           first_line + 5)

    trace_nums = _ints(tagged(6, "TRACE").split()[1:], "TRACE", source, first_line + 6)
    if not trace_nums or trace_nums[0] != len(trace_nums) - 1:
        raise DDSFileError("TRACE count does not match its numbers", source, first_line + 6)
    return TxtBoard(source=source, number=number, line=first_line, dealer=Seat(dealer),
                    vul=_VUL[vul], trump=Strain(trump), first=Seat(first), deal=deal, fut=fut,
                    table=table, par=par, par2=par2, play=play, trace=tuple(trace_nums[1:]))


def parse_txt(text: str, source: str = "<string>") -> list[TxtBoard]:
    """Every board of a DDS ``txt`` list (``NUMBER n`` then 7 lines a board).

    :raises DDSFileError: naming the file and line of the first malformed line.
    """
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines or lines[0].split()[:1] != ["NUMBER"]:
        raise DDSFileError("the file must start with 'NUMBER n'", source, 1)
    count = _ints(lines[0].split()[1:], "NUMBER", source, 1)
    body = lines[1:]
    if len(count) != 1 or len(body) != 7 * count[0]:
        raise DDSFileError(f"NUMBER {count} but {len(body)} lines follow (7 a board)",
                           source, 1)
    return [_board(body[7 * i:7 * i + 7], source, i + 1, 2 + 7 * i) for i in range(count[0])]


def read_txt(path: Path) -> list[TxtBoard]:
    return parse_txt(path.read_text(encoding="utf-8"), path.stem)


def unique_boards(boards: Iterator[TxtBoard] | Sequence[TxtBoard]) -> list[TxtBoard]:
    """Boards with a new (deal, trump, leader), first occurrence kept, order kept."""
    seen: set[tuple[str, Strain, Seat]] = set()
    out = []
    for b in boards:
        if b.key not in seen:
            seen.add(b.key)
            out.append(b)
    return out


# ---- GIB's sol10.txt -------------------------------------------------------------------

# Positions within one strain's four digits, as declarers.
_GIB_DECLARERS = (Seat.EAST, Seat.NORTH, Seat.WEST, Seat.SOUTH)
_GIB_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)


@dataclass(frozen=True)
class GibBoard:
    """One line of a GIB-format file: the deal and its table, ``rows[declarer][strain]``."""

    source: str
    line: int
    deal: Deal
    table: tuple[tuple[int, ...], ...]

    @property
    def id(self) -> str:
        return f"{self.source}:{self.line}"


def parse_gib_line(text: str, source: str = "<string>", line: int = 0) -> GibBoard:
    """``<W hand> <N hand> <E hand> <S hand>:<20 hex digits>``.  Hands are ``S.H.D.C``;
    digits run NT S H D C, four a strain for declarers E N W S, each North-South's tricks.

    :raises DDSFileError: for a malformed line.
    """
    hands, sep, digits = text.strip().partition(":")
    if not sep or len(digits) != 20 or any(c not in "0123456789abcdefABCDEF" for c in digits):
        raise DDSFileError(f"expected '<deal>:<20 hex digits>', got {text.strip()!r}",
                           source, line)
    deal = Deal.from_pbn("W:" + hands.strip(), require_complete=True)
    n = deal.cards_per_hand
    rows = [[0] * 5 for _ in range(4)]
    for i, strain in enumerate(_GIB_STRAINS):
        for j, declarer in enumerate(_GIB_DECLARERS):
            ns = int(digits[4 * i + j], 16)
            if ns > n:
                raise DDSFileError(f"{ns} tricks out of {n}", source, line)
            rows[declarer][strain] = ns if declarer.is_ns else n - ns
    return GibBoard(source=source, line=line, deal=deal, table=tuple(tuple(r) for r in rows))


def read_gib(path: Path) -> list[GibBoard]:
    out = []
    for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text.strip():
            out.append(parse_gib_line(text, path.stem, i))
    return out
