"""Duplicate bridge scoring: contracts, results, board rotation, IMPs and matchpoints.

The scores follow Law 77 of the Laws of Duplicate Bridge 2017; the board
rotation follows Law 2.  Everything here is pure arithmetic on small value
types and knows nothing of the solver.

>>> c = Contract.parse("4SXN")
>>> c, str(c), score(c, 10, vulnerable=True)
(Contract.parse('4SXN'), '4SXN', 790)
>>> parse_result("3NTS+1")
(Contract.parse('3NTS'), 10)
>>> imps(620 - 170), board_vulnerability(13), board_dealer(13)
(10, Vulnerability.BOTH, Seat.NORTH)

A passed-out board has no contract: :meth:`Contract.parse` returns ``None`` for
``"Pass"``, and every scoring function accepts ``None`` and scores it 0.  We use
``None`` rather than a sentinel ``Contract`` so that every ``Contract`` really has
a level 1..7 and a strain, and a type checker makes the caller think about the
passed-out case.
"""

from __future__ import annotations

import numbers
import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from .cards import Seat, SeatLike, Strain, StrainLike
from .errors import CardgamesError, ParseError

__all__ = ["Vulnerability", "VulnerabilityLike", "Contract", "contract_and_declarer",
           "parse_result", "format_result", "score", "score_for", "game_level", "imps",
           "IMP_TABLE", "matchpoints", "matchpoint_percentages", "board_dealer",
           "board_vulnerability"]


# ---------------------------------------------------------------------------
# Vulnerability
# ---------------------------------------------------------------------------

class Vulnerability(IntEnum):
    """Which sides are vulnerable on a board.

    The value is a 2-bit set: bit 0 for North-South, bit 1 for East-West, so
    ``BOTH == NS | EW``.
    """

    NONE = 0
    NS = 1
    EW = 2
    BOTH = 3

    @classmethod
    def parse(cls, value: VulnerabilityLike) -> Vulnerability:
        """Accept a :class:`Vulnerability`, an int 0..3, or the words PBN files and players
        use: ``"None"``/``"Love"``/``"-"``, ``"NS"``, ``"EW"``, ``"Both"``/``"All"``
        (any case).

        >>> Vulnerability.parse("All"), Vulnerability.parse("love")
        (Vulnerability.BOTH, Vulnerability.NONE)

        :raises ParseError: for anything else.
        """
        if isinstance(value, Vulnerability):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            if 0 <= value <= 3:
                return cls(value)
            raise ParseError("vulnerability number must be 0..3", str(value))
        if isinstance(value, str):
            found = _VULNERABILITY_NAMES.get(value.strip().upper())
            if found is not None:
                return found
            raise ParseError("unknown vulnerability (expected None, NS, EW or All)", value)
        raise ParseError(f"cannot make a vulnerability from {type(value).__name__}", repr(value))

    def is_vulnerable(self, seat: SeatLike) -> bool:
        """True when ``seat``'s side is vulnerable.

        >>> Vulnerability.EW.is_vulnerable("W"), Vulnerability.EW.is_vulnerable("N")
        (True, False)

        :raises ParseError: if ``seat`` is not a seat.
        """
        side_bit = 1 if Seat.parse(seat).is_ns else 2
        return bool(self & side_bit)

    def __str__(self) -> str:
        """The PBN ``Vulnerable`` tag value: ``None``, ``NS``, ``EW`` or ``All``."""
        return ("None", "NS", "EW", "All")[self]

    def __repr__(self) -> str:
        return f"Vulnerability.{self.name}"


_VULNERABILITY_NAMES = {
    "NONE": Vulnerability.NONE, "LOVE": Vulnerability.NONE, "-": Vulnerability.NONE,
    "NS": Vulnerability.NS, "N-S": Vulnerability.NS,
    "EW": Vulnerability.EW, "E-W": Vulnerability.EW,
    "BOTH": Vulnerability.BOTH, "ALL": Vulnerability.BOTH,
}

VulnerabilityLike = Vulnerability | int | str


# ---------------------------------------------------------------------------
# Contracts and their text forms
# ---------------------------------------------------------------------------

_DOUBLING_MARKS = ("", "X", "XX")
# Sets, not strings: ``ch in "NESW"`` tests for a substring, and str.upper() can turn one
# character into two ("ß" -> "SS").
_SEAT_LETTERS = frozenset("NESW")
_STRAIN_CHARS = frozenset("SHDCN♠♥♦♣")
_DOUBLE_CHARS = frozenset("X*")
_PASS_WORDS = frozenset({"PASS", "P", "PASSED", "PASSED OUT", "ALL PASS", "AP"})


@dataclass(frozen=True, slots=True)
class Contract:
    """A final contract: level 1..7, strain, doubling and (optionally) declarer.

    ``doubled`` is 0 (undoubled), 1 (doubled) or 2 (redoubled).  ``declarer`` may be
    ``None`` when only the contract matters (:func:`score` does not need it;
    :func:`score_for` does).

    >>> Contract(4, Strain.SPADES, doubled=1)
    Contract.parse('4SX')
    >>> str(Contract.parse("3n by s"))
    '3NTS'

    :raises CardgamesError: if the level or doubling is out of range.
    :raises ParseError: if ``strain`` or ``declarer`` is not a strain or seat.
    """

    level: int
    strain: Strain
    doubled: int = 0
    declarer: Seat | None = None

    def __post_init__(self) -> None:
        if isinstance(self.level, bool) or not isinstance(self.level, numbers.Integral) \
                or not 1 <= self.level <= 7:
            raise CardgamesError(f"contract level must be a whole number 1..7, not "
                                 f"{self.level!r}")
        if isinstance(self.doubled, bool) or not isinstance(self.doubled, numbers.Integral) \
                or not 0 <= self.doubled <= 2:
            raise CardgamesError(f"doubled must be 0, 1 or 2, not {self.doubled!r}")
        object.__setattr__(self, "level", int(self.level))      # numpy's integers too
        object.__setattr__(self, "doubled", int(self.doubled))
        # Normalise to the enum types so equal contracts are equal and hash alike.
        if type(self.strain) is not Strain:
            object.__setattr__(self, "strain", Strain.parse(self.strain))
        if self.declarer is not None and type(self.declarer) is not Seat:
            object.__setattr__(self, "declarer", Seat.parse(self.declarer))

    @classmethod
    def parse(cls, value: Contract | str) -> Contract | None:
        """Read a contract as players and programs write it; ``None`` for a passed-out board.

        The text is a level, a strain (``S H D C NT N`` or a suit symbol), then in
        either order an optional doubling (``X``/``XX``, or ``*``/``**``) and an
        optional declarer (``N``, ``by N``); the declarer may instead come first
        (``"N 4S"``).  Case and spaces do not matter.  ``"Pass"``, ``"P"``,
        ``"Passed out"``, ``"All pass"`` and ``"AP"`` mean the board was passed out.

        >>> [str(Contract.parse(t)) for t in ("4s", "3N", "6HXX", "4SNx", "4SxN", "W 2D*")]
        ['4S', '3NT', '6HXX', '4SXN', '4SXN', '2DXW']
        >>> Contract.parse("Pass") is None
        True

        :raises ParseError: if the text is not a contract; the error carries the text
            and the column of the problem.
        """
        if isinstance(value, Contract):
            return value
        if not isinstance(value, str):
            raise ParseError(f"cannot make a contract from {type(value).__name__}", repr(value))
        if " ".join(value.upper().split()) in _PASS_WORDS:
            return None
        return _parse_contract(value, 0, len(value))

    @property
    def tricks_needed(self) -> int:
        """The tricks declarer must take to make the contract: level + 6."""
        return self.level + 6

    @property
    def call(self) -> str:
        """The contract without its declarer, as in ``"4SX"``."""
        return f"{self.level}{self.strain.letter}{_DOUBLING_MARKS[self.doubled]}"

    def __str__(self) -> str:
        """``"4SX"``, or ``"4SXN"`` when the declarer is known."""
        return self.call + (self.declarer.letter if self.declarer is not None else "")

    def __repr__(self) -> str:
        return f"Contract.parse({str(self)!r})"


def contract_and_declarer(contract: Contract | str, declarer: SeatLike | None = None
                          ) -> tuple[Contract, Seat]:
    """A contract that is played, with its declarer: from the contract itself (``"4SN"``)
    or from ``declarer``, which must agree with the contract's own when both say.

    >>> contract_and_declarer("4S", "N")
    (Contract.parse('4SN'), Seat.NORTH)

    :raises CardgamesError: for a passed-out board (nothing is played), a contract naming
        no declarer when ``declarer`` is None, or two declarers that disagree.
    :raises ParseError: for a contract or seat that does not read.
    """
    c = Contract.parse(contract) if not isinstance(contract, Contract) else contract
    if c is None:
        raise CardgamesError("a passed-out board has no opening lead")
    if declarer is None:
        if c.declarer is None:
            raise CardgamesError(f"contract {c} names no declarer: pass declarer=")
        return c, c.declarer
    d = Seat.parse(declarer)
    if c.declarer is not None and c.declarer != d:
        raise CardgamesError(f"contract {c} names declarer {c.declarer.letter}, "
                             f"but declarer={d.letter} was given")
    return Contract(c.level, c.strain, c.doubled, d), d


def _skip_spaces(text: str, i: int, end: int) -> int:
    while i < end and text[i].isspace():
        i += 1
    return i


def _parse_contract(text: str, start: int, end: int) -> Contract:
    """Scan ``text[start:end]`` as a contract.  Hand-written rather than a regex so a
    malformed contract is reported at the column where it goes wrong."""
    i = _skip_spaces(text, start, end)
    declarer: Seat | None = None

    # A leading declarer ("N 4S") is a seat letter followed by the level.
    if i < end and text[i].upper() in _SEAT_LETTERS:
        j = _skip_spaces(text, i + 1, end)
        if j < end and text[j].isdigit():
            declarer = Seat.parse(text[i])
            i = j

    if i >= end or not text[i].isdigit():
        raise ParseError("expected a contract level 1..7", text, i)
    j = i
    while j < end and text[j].isdigit():
        j += 1
    if j - i != 1 or text[i] not in "1234567":
        raise ParseError("contract level must be 1..7", text, i)
    level = int(text[i])
    i = _skip_spaces(text, j, end)

    if text[i:i + 2].upper() == "NT" and i + 2 <= end:
        strain = Strain.NOTRUMP
        i += 2
    elif i < end and text[i].upper() in _STRAIN_CHARS:
        strain = Strain.parse(text[i])
        i += 1
    else:
        raise ParseError("expected a strain (S, H, D, C or NT)", text, i)

    # Then doubling and declarer, in either order, each at most once.
    doubled: int | None = None
    seat_after: Seat | None = None
    while True:
        i = _skip_spaces(text, i, end)
        if i >= end:
            break
        ch = text[i].upper()
        if ch in _DOUBLE_CHARS:
            j = i
            while j < end and text[j].upper() == ch:
                j += 1
            if doubled is not None:
                raise ParseError("doubling given twice", text, i)
            if j - i > 2:
                raise ParseError("too many doubles (X or XX)", text, i)
            doubled = j - i
            i = j
        elif text[i:i + 2].upper() == "BY" and i + 2 <= end:
            j = _skip_spaces(text, i + 2, end)
            if j >= end or text[j].upper() not in _SEAT_LETTERS:
                raise ParseError("expected a seat after 'by'", text, j)
            if declarer is not None or seat_after is not None:
                raise ParseError("declarer given twice", text, i)
            seat_after = Seat.parse(text[j])
            i = j + 1
        elif ch in _SEAT_LETTERS:
            if declarer is not None or seat_after is not None:
                raise ParseError("declarer given twice", text, i)
            seat_after = Seat.parse(text[i])
            i += 1
        else:
            raise ParseError("unexpected text after the contract", text, i)

    return Contract(level, strain, doubled or 0, declarer if declarer is not None else seat_after)


_RESULT_SUFFIX = re.compile(r"(?:=|([+-])\s*(\d+))\s*$")


def parse_result(text: str) -> tuple[Contract | None, int]:
    """Read a contract with its result, ``(contract, tricks taken by declarer)``.

    The result follows the contract: ``=`` made exactly, ``+N`` N overtricks,
    ``-N`` N down, as DDS par and most score sheets write it.  A passed-out board
    (``"Pass"``, no result) gives ``(None, 0)``.

    >>> parse_result("4SNx-2"), parse_result("3NTS=")
    ((Contract.parse('4SXN'), 8), (Contract.parse('3NTS'), 9))

    :raises ParseError: if the contract or the result is malformed, the result is
        missing, or it is impossible (more than 13 tricks, or fewer than none).
    """
    if not isinstance(text, str):
        raise ParseError(f"cannot make a result from {type(text).__name__}", repr(text))
    if " ".join(text.upper().split()) in _PASS_WORDS:
        return None, 0
    match = _RESULT_SUFFIX.search(text)
    if match is None:
        raise ParseError("missing result (=, +N or -N) after the contract", text,
                         len(text.rstrip()))
    contract = _parse_contract(text, 0, match.start())
    sign, count = match.group(1), match.group(2)
    if sign is None:
        return contract, contract.tricks_needed
    n = int(count)
    if n == 0:
        raise ParseError("write a made contract as '=', not +0 or -0", text, match.start())
    tricks = contract.tricks_needed + (n if sign == "+" else -n)
    if not 0 <= tricks <= 13:
        raise ParseError(f"{contract.call} cannot end with {tricks} tricks", text, match.start())
    return contract, tricks


def format_result(contract: Contract | None, tricks: int) -> str:
    """The inverse of :func:`parse_result`: ``"4SXN-2"``, ``"3NTS="``, ``"Pass"``.

    >>> format_result(Contract.parse("4H"), 11)
    '4H+1'

    :raises CardgamesError: if ``tricks`` is not 0..13.
    """
    if contract is None:
        return "Pass"
    tricks = _check_tricks(tricks)
    over = tricks - contract.tricks_needed
    return f"{contract}{'=' if over == 0 else f'{over:+d}'}"


# ---------------------------------------------------------------------------
# Scores (Law 77)
# ---------------------------------------------------------------------------

# Law 77 schedule, for reference (NV / V where they differ):
#   trick score per odd trick bid and made: C D 20, H S 30, NT 40 first then 30;
#       doubled x2, redoubled x4
#   overtricks: undoubled = trick value; doubled 100 / 200; redoubled 200 / 400
#   for making a doubled contract: 50; redoubled: 100
#   trick score >= 100: game 300 / 500; otherwise part score 50
#   small slam 500 / 750; grand slam 1000 / 1500
#   undertricks undoubled: 50 / 100 each
#   undertricks doubled NV: 100 first, 200 second and third, 300 each after
#   undertricks doubled V: 200 first, 300 each after; redoubled: twice doubled
_GAME_BONUS = (300, 500)
_SMALL_SLAM_BONUS = (500, 750)
_GRAND_SLAM_BONUS = (1000, 1500)
_PART_SCORE_BONUS = 50


def _check_tricks(tricks: int) -> int:
    """``tricks`` as an int (numpy's integers too), if it is a number of tricks 0..13."""
    if isinstance(tricks, bool) or not isinstance(tricks, numbers.Integral) or \
            not 0 <= tricks <= 13:
        raise CardgamesError(f"tricks taken must be a whole number 0..13, not {tricks!r}")
    return int(tricks)


def _trick_value(strain: Strain) -> int:
    return 20 if strain in (Strain.DIAMONDS, Strain.CLUBS) else 30


def _trick_score(level: int, strain: Strain) -> int:
    """The trick score of ``level`` undoubled in ``strain`` (the first no-trump trick 40)."""
    return _trick_value(strain) * level + (10 if strain == Strain.NOTRUMP else 0)


def game_level(strain: StrainLike) -> int:
    """The lowest level at which an undoubled contract in ``strain`` scores a game (a trick
    score of 100): 3 in no-trump, 4 in a major, 5 in a minor.

    >>> [game_level(s) for s in "NT S H D C".split()]
    [3, 4, 4, 5, 5]

    :raises ParseError: if ``strain`` is not a strain.
    """
    return _GAME_LEVELS[Strain.parse(strain)]


_GAME_LEVELS = {s: next(level for level in range(1, 8) if _trick_score(level, s) >= 100)
                for s in Strain}


def _made_score(contract: Contract, overtricks: int, vul: bool) -> int:
    value = _trick_value(contract.strain)
    trick_score = _trick_score(contract.level, contract.strain) << contract.doubled  # x1, x2, x4

    total = trick_score
    total += _GAME_BONUS[vul] if trick_score >= 100 else _PART_SCORE_BONUS
    if contract.level == 6:
        total += _SMALL_SLAM_BONUS[vul]
    elif contract.level == 7:
        total += _GRAND_SLAM_BONUS[vul]
    if contract.doubled:
        total += 50 * contract.doubled  # the "insult"
        total += overtricks * 100 * contract.doubled * (2 if vul else 1)
    else:
        total += overtricks * value
    return total


def _undertrick_penalty(doubled: int, down: int, vul: bool) -> int:
    if doubled == 0:
        return down * (100 if vul else 50)
    if vul:
        penalty = 200 + 300 * (down - 1)
    else:
        penalty = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return penalty * doubled  # redoubled is exactly twice doubled


def score(contract: Contract | None, tricks: int, vulnerable: bool) -> int:
    """The declaring side's score for ``contract`` when declarer takes ``tricks``.

    Positive when the contract makes, negative when it goes down, 0 for a
    passed-out board (``contract is None``).

    >>> score(Contract.parse("4S"), 10, True), score(Contract.parse("1NTX"), 5, True)
    (620, -500)

    :param vulnerable: whether the declaring side is vulnerable.  To score from a
        board's :class:`Vulnerability`, use :func:`score_for`.
    :raises CardgamesError: if ``tricks`` is not 0..13.
    :raises TypeError: if ``contract`` is not a Contract or None, or ``vulnerable`` is
        a :class:`Vulnerability` or its text (which would silently read as a bool: "none"
        is true), or None.
    """
    if isinstance(vulnerable, (Vulnerability, str, numbers.Integral)) and \
            not isinstance(vulnerable, bool) or vulnerable is None:
        raise TypeError(f"score() takes vulnerable=True/False for the declaring side, not "
                        f"{vulnerable!r}; use score_for() with a board's vulnerability")
    if contract is None:
        tricks = _check_tricks(tricks)
        return 0
    if not isinstance(contract, Contract):
        raise TypeError(f"expected a Contract or None, not {type(contract).__name__}")
    tricks = _check_tricks(tricks)
    vul = bool(vulnerable)
    if tricks >= contract.tricks_needed:
        return _made_score(contract, tricks - contract.tricks_needed, vul)
    return -_undertrick_penalty(contract.doubled, contract.tricks_needed - tricks, vul)


def score_for(contract: Contract | None, tricks: int, vul: VulnerabilityLike) -> int:
    """North-South's score for the board: :func:`score` for the declaring side, with
    its vulnerability taken from ``vul``, negated when East-West declare.

    >>> score_for(Contract.parse("4SE"), 10, Vulnerability.EW)
    -620

    :raises CardgamesError: if the contract has no declarer, or ``tricks`` is not 0..13.
    :raises ParseError: if ``vul`` is not a vulnerability.
    """
    vulnerability = Vulnerability.parse(vul)
    if contract is None:
        tricks = _check_tricks(tricks)
        return 0
    if not isinstance(contract, Contract):
        raise TypeError(f"expected a Contract or None, not {type(contract).__name__}")
    if contract.declarer is None:
        raise CardgamesError(f"contract {contract} has no declarer, so no side to score for")
    result = score(contract, tricks, vulnerability.is_vulnerable(contract.declarer))
    return result if contract.declarer.is_ns else -result


# ---------------------------------------------------------------------------
# IMPs and matchpoints
# ---------------------------------------------------------------------------

#: The IMP scale as printed in the Laws: rows of (lowest difference, highest
#: difference or None for "and above", IMPs).
IMP_TABLE: tuple[tuple[int, int | None, int], ...] = (
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10),
    (500, 590, 11), (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15),
    (1300, 1490, 16), (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19),
    (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22), (3500, 3990, 23),
    (4000, None, 24),
)
_IMP_LOWER_BOUNDS = tuple(low for low, _high, _imps in IMP_TABLE[1:])


def imps(diff: float) -> int:
    """Convert a score difference to IMPs, keeping its sign.

    Table scores differ by multiples of 10; a difference that falls between two
    rows of :data:`IMP_TABLE` (an averaged score, say 45) counts in the lower row.

    >>> imps(10), imps(20), imps(-450), imps(5000)
    (0, 1, -10, 24)

    :raises TypeError: if ``diff`` is not a number.
    :raises ValueError: if it is NaN (no difference at all, not 24 IMPs).
    """
    if isinstance(diff, bool) or not isinstance(diff, numbers.Real):
        raise TypeError(f"expected a score difference, not {type(diff).__name__}")
    if diff != diff:
        raise ValueError("a score difference of NaN has no IMPs")
    result = bisect_right(_IMP_LOWER_BOUNDS, abs(diff))
    return -result if diff < 0 else result


def matchpoints(scores: Sequence[float], *, win: float = 2.0, tie: float = 1.0) -> list[float]:
    """Each score's matchpoints against the other scores on the same board.

    Scores are all from the same side's view (say North-South), higher being
    better.  A score earns ``win`` for every score it beats and ``tie`` for every
    other score equal to it: 2 and 1 by default, the European convention; pass
    ``win=1, tie=0.5`` for the ACBL one.

    >>> matchpoints([420, 420, 170, -50])
    [5.0, 5.0, 2.0, 0.0]

    :raises TypeError: if a score is not a number.
    :raises ValueError: if a score is NaN (it would tie with everything).
    """
    values = list(scores)
    for s in values:
        if isinstance(s, bool) or not isinstance(s, numbers.Real):
            raise TypeError(f"expected numeric scores, not {type(s).__name__}")
        if s != s:
            raise ValueError("a score of NaN cannot be matchpointed")
    ordered = sorted(values)
    result = []
    for s in values:
        below = bisect_left(ordered, s)
        equal_others = bisect_right(ordered, s) - below - 1
        result.append(float(win * below + tie * equal_others))
    return result


def matchpoint_percentages(scores: Sequence[float]) -> list[float]:
    """Each score's matchpoints as a percentage of the top (beating every other score).

    A board played only once has nothing to compare with and gets 50%.

    >>> [round(p, 1) for p in matchpoint_percentages([420, 420, 170, -50])]
    [83.3, 83.3, 33.3, 0.0]

    :raises TypeError: if a score is not a number.
    """
    points = matchpoints(scores, win=1.0, tie=0.5)
    others = len(points) - 1
    if others <= 0:
        return [50.0] * len(points)
    return [100.0 * p / others for p in points]


# ---------------------------------------------------------------------------
# Board rotation (Law 2)
# ---------------------------------------------------------------------------

# Boards 1..16; the pattern repeats every 16 boards.
_BOARD_VULNERABILITY = tuple(Vulnerability.parse(v) for v in (
    "None", "NS", "EW", "Both", "NS", "EW", "Both", "None",
    "EW", "Both", "None", "NS", "Both", "None", "NS", "EW"))


def _check_board(board: int) -> int:
    if isinstance(board, bool) or not isinstance(board, int):
        raise TypeError(f"board number must be an int, not {type(board).__name__}")
    if board < 1:
        raise CardgamesError(f"board numbers start at 1, not {board}")
    return (board - 1) % 16


def board_dealer(board: int) -> Seat:
    """The dealer of board ``board``: N, E, S, W in turn from board 1.

    >>> board_dealer(1), board_dealer(6)
    (Seat.NORTH, Seat.EAST)

    :raises CardgamesError: if ``board`` is less than 1.
    :raises TypeError: if ``board`` is not an int.
    """
    return Seat(_check_board(board) % 4)


def board_vulnerability(board: int) -> Vulnerability:
    """The vulnerability of board ``board``, by the standard 16-board cycle.

    >>> board_vulnerability(1), board_vulnerability(17), board_vulnerability(4)
    (Vulnerability.NONE, Vulnerability.NONE, Vulnerability.BOTH)

    :raises CardgamesError: if ``board`` is less than 1.
    :raises TypeError: if ``board`` is not an int.
    """
    return _BOARD_VULNERABILITY[_check_board(board)]
