"""DDS 2.9, the peer every benchmark measures ddsolver against, through the ``endplay`` package
that bundles it: the one place the scripts talk to DDS.

* :class:`Dds` sets DDS's thread count (``SetMaxThreads``) and reads it back
  (``GetDDSInfo``), and calls the library two ways: endplay's low-level ctypes binding
  (``endplay._dds``: SolveBoard, CalcDDtable, and SolveSameBoard for node counts), whose
  inputs are built before a clock starts and decoded after it stops, so that a timing is
  the library call alone; and endplay's own Python API (``endplay.dds``: ``solve_board``,
  ``calc_all_tables``; ``endplay.dealer``), what a Python user of DDS calls, its
  conversions included in the time.
* The conversions between cardgames' types and DDS's: :func:`masks` (a deal as 16 rank
  masks, DDS's layout and our core's alike), :func:`card`, :func:`expand_groups`.

endplay is imported when a :class:`Dds` is made, so the conversions work without it; the
ddsolver package itself never imports endplay.
"""

from __future__ import annotations

import ctypes
import importlib
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardgames import Card, Deal

SEAT_LETTERS = "NESW"
STRAIN_LETTERS = ("S", "H", "D", "C", "NT")   # DDS's strain order, and cardgames' too
MAX_TABLES = 32   # deals per CalcAllTables call (DDS's MAXNOOFTABLES)

INSTALL_HINT = "install it with `pip install '.[bench]'` (or `pip install 'endplay>=0.5'`)"


# ---- conversions ----------------------------------------------------------------------------

def masks(deal: Deal) -> tuple[int, ...]:
    """16 rank masks [seat N E S W][suit S H D C], bit r for rank r (2..14): the core's and
    DDS's layout alike.  ``deal`` may be an ending (fewer than 13 cards a hand)."""
    out: list[int] = []
    for h in deal.hands:
        assert h is not None  # DDS and our core take only deals whose hands are all known
        out.extend(h.masks)
    return tuple(out)


def card(suit: int, rank: int) -> Card:
    """cardgames' Card of DDS's ``suit`` (0 = spades) and ``rank`` (2..14)."""
    from cardgames import Card
    return Card.from_index(suit * 13 + rank - 2)


def expand_groups(groups: Iterable[tuple[int, int, int, int]]) -> dict[Card, int]:
    """``{Card: score}`` from DDS-style groups ``(suit, rank, equals, score)``, where
    ``equals`` has bit r set for each lower rank r equivalent to ``rank``."""
    out: dict[Card, int] = {}
    for suit, rank, equals, score in groups:
        holding = (1 << rank) | equals
        for r in range(14, 1, -1):
            if holding >> r & 1:
                out[card(suit, r)] = score
    return out


def load_endplay() -> tuple[ModuleType, ...]:
    """Import the parts of endplay :class:`Dds` uses: ``(endplay, endplay._dds, endplay.dds,
    endplay.dealer, endplay.types)``.  Apart from :class:`Dds` so that a memory measurement
    can import them before its first reading.

    :raises ImportError: endplay is not installed (the message says how to install it).
    """
    # import_module, not ``import endplay.dealer as ...``: the attribute endplay.dealer is
    # another module (endplay.parsers.dealer) than the package of that name.
    names = ("endplay", "endplay._dds", "endplay.dds", "endplay.dealer", "endplay.types")
    try:
        return tuple(importlib.import_module(name) for name in names)
    except ImportError as err:
        raise ImportError(f"endplay is needed for the benchmark ({err}); {INSTALL_HINT}") from err


class DDSInfo(ctypes.Structure):
    """DDS 2.9's ``DDSInfo`` (dll.h).  endplay's own declaration of it is shorter than the
    library's, so a call through it writes past the buffer; this one is complete, with spare
    room at the end in case a build adds fields."""
    _fields_ = [("major", ctypes.c_int), ("minor", ctypes.c_int), ("patch", ctypes.c_int),
                ("versionString", ctypes.c_char * 10),
                ("system", ctypes.c_int), ("numBits", ctypes.c_int),
                ("compiler", ctypes.c_int), ("constructor", ctypes.c_int),
                ("numCores", ctypes.c_int), ("threading", ctypes.c_int),
                ("noOfThreads", ctypes.c_int),
                ("threadSizes", ctypes.c_char * 128),
                ("systemString", ctypes.c_char * 1024),
                ("_spare", ctypes.c_char * 4096)]


class Dds:
    """DDS through endplay, set to ``threads`` threads (one unless a script times DDS's own
    parallelism).

    :raises ImportError: endplay is not installed (the message says how to install it).

    ``version`` is DDS's version string, ``endplay_version`` endplay's, and ``threads`` the
    thread count DDS reports after :meth:`set_threads` (None when this build lacks
    ``GetDDSInfo``).  SolveBoard runs with mode 1 (always search) on thread 0.

    endplay is imported at run time (it is optional), so its objects -- the ctypes
    structures passed to DDS and the results of its Python API -- are typed ``Any`` here.
    """

    # SolveSameBoard and the ThreadData pointer it takes; set by _internals().
    _same: tuple[Callable[..., int], Callable[[], int]] | None

    def __init__(self, threads: int = 1) -> None:
        endplay, self._dds, self._high, self._dealer, self._types = load_endplay()
        self.endplay_version = getattr(endplay, "__version__", "?")
        self.set_threads(threads)
        info = self.info()
        self.version = info.versionString.decode(errors="replace") if info else "?"

    def set_threads(self, n: int) -> int | None:
        """``SetMaxThreads(n)``; returns the thread count DDS reports afterwards (None
        without ``GetDDSInfo``): SetMaxThreads returns void, so this is how to know that
        it worked."""
        self._dds._dll.SetMaxThreads(ctypes.c_int(n))
        info = self.info()
        self.threads = info.noOfThreads if info else None
        return self.threads

    def info(self) -> DDSInfo | None:
        """DDS's ``GetDDSInfo``, or None if this libdds.so lacks it."""
        fn = getattr(self._dds._dll, "GetDDSInfo", None)
        if fn is None:
            return None
        info = DDSInfo()
        fn(ctypes.byref(info))
        return info

    def encodes_like_endplay(self, deal: Deal) -> bool:
        """Whether :func:`masks` hands DDS the deal endplay's own PBN parser makes of
        ``deal``: the check that the harness's ctypes inputs are what DDS expects."""
        parsed = self._types.Deal(deal.to_pbn())._data.remainCards
        ours = masks(deal)
        return all(parsed[i // 4][i % 4] == ours[i] for i in range(16))

    # ---- the low-level binding: inputs, timed calls, outputs --------------------------------

    def table_input(self, deal_masks: Sequence[int]) -> Any:
        """CalcDDtable's input for a deal given as :func:`masks`."""
        tdl = self._dds.ddTableDeal()
        for i, m in enumerate(deal_masks):
            tdl.cards[i // 4][i % 4] = m
        return tdl

    def board_input(self, deal_masks: Sequence[int], strain: int, leader: int,
                    trick: Iterable[Card] = ()) -> Any:
        """SolveBoard's input: the hands as :func:`masks`, the trump ``strain``, the
        current trick's ``leader`` and the cards already played to it (``trick``, cardgames
        Cards; they are not in the hands)."""
        dl = self._dds.deal()
        dl.trump = strain
        dl.first = leader
        for i in range(3):
            dl.currentTrickSuit[i] = 0
            dl.currentTrickRank[i] = 0
        for i, c in enumerate(trick):
            dl.currentTrickSuit[i], dl.currentTrickRank[i] = c.suit, c.rank
        for i, m in enumerate(deal_masks):
            dl.remainCards[i // 4][i % 4] = m
        return dl

    def table(self, tdl: Any) -> Any:
        """CalcDDtable: the full table (decode it with :meth:`table_rows`)."""
        res = self._dds.ddTableResults()
        self._dds.CalcDDtable(tdl, res)
        return res

    def solve_board(self, dl: Any, solutions: int, target: int = -1) -> Any:
        """SolveBoard with ``target`` (-1: the most tricks) and ``solutions`` (1: the best
        card; 3: every card, decoded by :meth:`lead_scores`).  Scores are the tricks of the
        side to move, ``nodes`` the trick-start nodes DDS searched."""
        fut = self._dds.futureTricks()
        self._dds.SolveBoard(dl, target, solutions, 1, fut, 0)
        return fut

    @staticmethod
    def table_rows(res: Any) -> tuple[tuple[int, ...], ...]:
        """CalcDDtable's result as ``rows[declarer][strain]``."""
        return tuple(tuple(res.resTable[s][d] for s in range(5)) for d in range(4))

    @staticmethod
    def lead_scores(fut: Any) -> dict[Card, int]:
        """SolveBoard's every-card result as ``{Card: tricks for the side to move}``."""
        groups = [(fut.suit[i], fut.rank[i], fut.equals[i], fut.score[i])
                  for i in range(fut.cards)]
        return expand_groups(groups)

    def _internals(self) -> tuple[Callable[..., int], Callable[[], int]] | None:
        """DDS's own table loop needs SolveSameBoard, which libdds.so exports only as a C++
        symbol taking the thread's ThreadData (``memory.GetPtr(0)``); None if missing."""
        if not hasattr(self, "_same"):
            lib = self._dds._dll
            try:
                memory = ctypes.c_char.in_dll(lib, "memory")
                get_ptr = lib._ZN6Memory6GetPtrEj
                same = lib._Z14SolveSameBoardP10ThreadDataRK4dealP12futureTricksi
            except (AttributeError, ValueError):
                self._same = None
            else:
                get_ptr.restype, get_ptr.argtypes = ctypes.c_void_p, [ctypes.c_void_p,
                                                                      ctypes.c_uint]
                same.restype = ctypes.c_int
                same.argtypes = [ctypes.c_void_p, ctypes.POINTER(self._dds.deal),
                                 ctypes.POINTER(self._dds.futureTricks), ctypes.c_int]
                self._same = (same, lambda: get_ptr(ctypes.addressof(memory), 0))
        return self._same

    def table_nodes(self, deal_masks: Sequence[int]
                    ) -> tuple[tuple[tuple[int, ...], ...], int] | None:
        """A full table the way DDS's CalcDDtable solves it -- per strain, SolveBoard for
        North on lead, then SolveSameBoard for East, South and West, sharing the table --
        with the trick-start nodes DDS reports for each call summed.  (rows, nodes), or
        None if this libdds.so lacks the internal symbols."""
        internals = self._internals()
        if internals is None:
            return None
        same, thread_data = internals
        rows = [[0] * 5 for _ in range(4)]
        nodes = 0
        for strain in range(5):
            dl = self.board_input(deal_masks, strain, 0)
            fut = self._dds.futureTricks()
            self._dds.SolveBoard(dl, -1, 1, 1, fut, 0)
            first = fut.score[0]              # tricks for North-South, North on lead
            nodes += fut.nodes
            rows[3][strain] = 13 - first      # declarer West
            for leader in (1, 2, 3):
                dl.first = leader
                fut2 = self._dds.futureTricks()
                hint = first if leader == 2 else 13 - first
                code = same(thread_data(), ctypes.byref(dl), ctypes.byref(fut2), hint)
                if code != 1:
                    raise RuntimeError(f"DDS SolveSameBoard returned {code}")
                nodes += fut2.nodes
                rows[(leader + 3) & 3][strain] = 13 - fut2.score[0]
        return tuple(tuple(r) for r in rows), nodes

    # ---- endplay's own Python API: a DDS user's calls, conversions included ---------------

    def endplay_deal(self, pbn: str, strain: int | None = None,
                     leader: int | None = None) -> Any:
        """endplay's Deal of a PBN deal, with its trump and the player on lead if given."""
        edeal = self._types.Deal(pbn)
        if strain is not None:
            self.set_contract(edeal, strain, leader)
        return edeal

    def set_contract(self, edeal: Any, strain: int, leader: int | None) -> None:
        """Set the trump (DDS's strain number) and the leader (0 = North) of endplay's
        Deal ``edeal``."""
        edeal.trump = self._types.Denom(int(strain))
        if leader is not None:
            edeal.first = self._types.Player(int(leader))

    def generate_deals(self, *constraints: str, predeal: Any, produce: int,
                       seed: int) -> list[Any]:
        """endplay's dealer (not DDS's code, but the pipeline a Python user of DDS would
        deal with): ``produce`` deals meeting the dealer-syntax ``constraints``."""
        return list(self._dealer.generate_deals(*constraints, predeal=predeal,
                                                produce=produce, seed=seed))

    def solve_all(self, edeal: Any) -> list[Any]:
        """endplay's ``solve_board``: (card, tricks for the side to move) for every card
        of the player on lead, decoded by :meth:`endplay_scores`."""
        return list(self._high.solve_board(edeal))

    def all_tables(self, edeals: list[Any]) -> list[Any]:
        """endplay's ``calc_all_tables`` (DDS's CalcAllTables, on the threads set by
        :meth:`set_threads`), decoded by :meth:`endplay_table_rows`.  DDS takes at most
        MAX_TABLES deals a call ("Too many DD tables requested" past it): larger runs go
        in batches, as a DDS user's would."""
        results: list[Any] = []
        for i in range(0, len(edeals), MAX_TABLES):
            results.extend(self._high.calc_all_tables(edeals[i:i + MAX_TABLES]))
        return results

    @staticmethod
    def endplay_scores(solved: Iterable[tuple[Any, int]]) -> dict[Card, int]:
        """:meth:`solve_all`'s result as ``{Card: tricks}`` (endplay's rank is a bit)."""
        return {card(int(c.suit), int(c.rank).bit_length() - 1): tricks
                for c, tricks in solved}

    @staticmethod
    def endplay_table_rows(table: Any) -> tuple[tuple[int, ...], ...]:
        """One of :meth:`all_tables`'s results as ``rows[declarer][strain]``."""
        by_strain = table.to_list()  # [strain S H D C NT][seat N E S W]
        return tuple(tuple(by_strain[s][d] for s in range(5)) for d in range(4))
