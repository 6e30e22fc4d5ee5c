#!/usr/bin/env python3
"""Benchmark ddsolver against DDS 2.9 (bundled by the ``endplay`` package), in one run.

Both solvers answer the same questions about the same seeded random deals, one deal at a
time, alternating which goes first (ours on even deals, DDS on odd), with DDS limited to
one thread.  What is printed is the ratio ours / DDS per deal (mean, median, the worst deal
with its PBN), because absolute times drift from machine to machine while ratios hold.

Sections (``--only`` picks some):

* ``table``   the full double-dummy table (20 declarer/strain pairs) of each deal;
* ``lead``    every opening lead scored (DDS SolveBoard, target -1, solutions 3) for a
              random contract of each deal;
* ``solve``   the same contract's declarer tricks (SolveBoard, solutions 1);
* ``largest`` every board of DDS's ``largest.txt`` (hard hands): table and all leads;
* ``jobs``    ``ddsolver.dd_tables`` on 2 threads against 1 (needs the facade).

Every answer of ours is checked against DDS's; any disagreement is printed loudly and the
exit status is 1.  Exit status 2 means the benchmark could not run (missing endplay, data
file or solver).

The ddsolver package never imports endplay; only this script does.
Run ``python bench/bench_dds.py --help`` for the options, and see bench/README.md.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import importlib
import os
import platform
import random
import resource
import shlex
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_LARGEST = ROOT.parent / "shared" / "data" / "dds-hands" / "largest.txt"
SECTIONS = ("table", "lead", "solve", "nodes", "largest", "jobs")
SEAT_LETTERS = "NESW"
STRAIN_LETTERS = ("S", "H", "D", "C", "NT")

# Targets from issue 11 ("Faster than DDS").  kind "mean": the mean per-deal ratio of CPU
# times; "max": every deal; "ratio": one figure.
TARGETS = {"table": ("mean", 0.80), "lead": ("mean", 0.80), "solve": ("mean", 0.90),
           "largest table": ("max", 1.2), "largest lead": ("max", 1.2),
           "largest table mean": ("mean", 0.9), "largest lead mean": ("mean", 0.9),
           "jobs": ("ratio", 0.52)}


def _prefer_checkout() -> None:
    """Measure the checkout this script lives in when its extension is built in place
    (``setup.py build_ext --inplace``); otherwise fall back to an installed ddsolver."""
    if any((ROOT / "ddsolver").glob("_core*.so")) or any((ROOT / "ddsolver").glob("_core*.pyd")):
        sys.path.insert(0, str(ROOT))


def die(message: str) -> NoReturn:
    print(f"bench_dds: {message}", file=sys.stderr)
    sys.exit(2)


# ---- our solver ----------------------------------------------------------------------------

class Ours:
    """ddsolver behind one interface: the public facade (``Solver``) when it imports, else
    the raw core (``ddsolver._core.Core``), for checkouts where the facade is not there yet.

    Answers use one layout for both solvers: a table is ``rows[declarer][strain]``, lead
    scores a ``{Card: tricks for the leader's side}`` dict, solve declarer's tricks.
    """

    def __init__(self, tt_mb: int | None):
        self.facade_error = ""
        self.dd_tables: Callable | None = None
        try:
            import ddsolver
            from ddsolver import Solver
        except ImportError as err:
            self.facade_error = f"{type(err).__name__}: {err}"
            core_cls = _import_core_only()
            self.tt_mb = tt_mb or 64
            self._core = core_cls(self.tt_mb)
            self._solver = None
            self.api = "ddsolver._core.Core (facade did not import)"
            self.core_file, self.build = _core_build()
        else:
            self.tt_mb = tt_mb or ddsolver.DEFAULT_TT_MB
            self._solver = Solver(self.tt_mb)
            self._core = self._solver._core
            self.api = "ddsolver.Solver (facade)"
            self.core_file, self.build = _core_build()
            self.dd_tables = getattr(ddsolver, "dd_tables", None)

    # Each call below is what gets timed, so conversions stay minimal.
    def table(self, deal) -> tuple[tuple[int, ...], ...]:
        if self._solver is not None:
            return self._solver.dd_table(deal).rows
        by_strain = self._core.dd_table(_masks(deal))
        return tuple(tuple(by_strain[s][d] for s in range(5)) for d in range(4))

    def lead(self, deal, strain: int, leader: int) -> dict:
        if self._solver is not None:
            return self._solver.card_scores(deal, strain, leader)
        _, scores = self._core.card_scores(_masks(deal), strain, leader)
        return {_card(code >> 4, code & 15): score for code, score in scores}

    def solve(self, deal, strain: int, declarer: int) -> int:
        if self._solver is not None:
            return self._solver.solve(deal, strain, declarer)
        ns, _, _ = self._core.solve(_masks(deal), strain, (declarer + 1) & 3)
        return ns if declarer % 2 == 0 else 13 - ns

    @property
    def nodes(self) -> int | None:
        return getattr(self._core, "nodes", None)

    @property
    def trick_nodes(self) -> list[int] | None:
        """Nodes entered at a trick's start so far, by tricks left (DDS's count)."""
        return getattr(self._core, "trick_nodes", None)

    def tt_text(self) -> str:
        core = self._core
        try:
            return (f"{core.tt_bytes / 2**20:.1f} MB allocated for tt_mb={self.tt_mb} "
                    f"({core.tt_capacity:,} entries; {core.tt_used:,} in use now)")
        except AttributeError:
            return f"tt_mb={self.tt_mb}"


def _core_build() -> tuple[Path, str]:
    """The compiled file whose code is timed, and the build's name: ddsolver._core hands
    out the BMI2 build's Core (ddsolver._core_bmi2) on a CPU that has BMI2."""
    core = sys.modules["ddsolver._core"]
    build = getattr(core, "BUILD", "portable")
    if build != "portable" and "ddsolver._core_bmi2" in sys.modules:
        core = sys.modules["ddsolver._core_bmi2"]
    return Path(core.__file__), build


def _import_core_only():
    """Import ``ddsolver._core`` without running the package ``__init__`` (which may be
    mid-edit), so the raw core can still be timed."""
    for name in [n for n in sys.modules if n == "ddsolver" or n.startswith("ddsolver.")]:
        del sys.modules[name]
    for base in [p for p in sys.path if p] + [str(ROOT)]:
        pkg_dir = Path(base) / "ddsolver"
        if any(pkg_dir.glob("_core*.so")) or any(pkg_dir.glob("_core*.pyd")):
            pkg = types.ModuleType("ddsolver")
            pkg.__path__ = [str(pkg_dir)]
            sys.modules["ddsolver"] = pkg
            try:
                from ddsolver._core import Core
            except ImportError as err:
                die(f"cannot import ddsolver._core from {pkg_dir}: {err}")
            return Core
    die("no built ddsolver found: run `python setup.py build_ext --inplace` in the "
        "checkout, or `pip install '.[bench]'`")


def _masks(deal) -> tuple[int, ...]:
    """16 rank masks [seat N E S W][suit S H D C], bit r for rank r (2..14): the core's and
    DDS's layout alike."""
    return tuple(m for h in deal.hands for m in h.masks)


def _card(suit: int, rank: int):
    from cardgames import Card
    return Card.from_index(suit * 13 + rank - 2)


# ---- DDS through endplay --------------------------------------------------------------------

class _DDSInfo(ctypes.Structure):
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
    """DDS via endplay's low-level ctypes binding (``endplay._dds``), set to one thread.

    Inputs are built before the clock starts and decoded after it stops, so the timed part
    is the library call itself.  SolveBoard runs with mode 1 (always search) on thread 0.
    """

    def __init__(self) -> None:
        try:
            import endplay
            import endplay._dds as dds
        except ImportError as err:
            die(f"endplay is needed for the benchmark ({err}); install it with "
                f"`pip install '.[bench]'` (or `pip install 'endplay>=0.5'`)")
        self._dds = dds
        self.endplay_version = getattr(endplay, "__version__", "?")
        # SetMaxThreads returns void in DDS; whether it worked is read back below.
        dds._dll.SetMaxThreads(ctypes.c_int(1))
        info = self.info()
        self.version = info.versionString.decode(errors="replace") if info else "?"
        self.threads = info.noOfThreads if info else None

    def info(self) -> _DDSInfo | None:
        fn = getattr(self._dds._dll, "GetDDSInfo", None)
        if fn is None:
            return None
        info = _DDSInfo()
        fn(ctypes.byref(info))
        return info

    # inputs
    def table_input(self, masks):
        tdl = self._dds.ddTableDeal()
        for i, m in enumerate(masks):
            tdl.cards[i // 4][i % 4] = m
        return tdl

    def board_input(self, masks, strain: int, leader: int):
        dl = self._dds.deal()
        dl.trump = strain
        dl.first = leader
        for i in range(3):
            dl.currentTrickSuit[i] = 0
            dl.currentTrickRank[i] = 0
        for i, m in enumerate(masks):
            dl.remainCards[i // 4][i % 4] = m
        return dl

    # timed calls
    def table(self, tdl):
        res = self._dds.ddTableResults()
        self._dds.CalcDDtable(tdl, res)
        return res

    def solve_board(self, dl, solutions: int):
        fut = self._dds.futureTricks()
        self._dds.SolveBoard(dl, -1, solutions, 1, fut, 0)
        return fut

    def _internals(self):
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

    def table_nodes(self, masks) -> tuple[tuple[tuple[int, ...], ...], int] | None:
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
            dl = self.board_input(masks, strain, 0)
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

    # outputs
    @staticmethod
    def table_rows(res) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(res.resTable[s][d] for s in range(5)) for d in range(4))

    @staticmethod
    def lead_scores(fut) -> dict:
        groups = [(fut.suit[i], fut.rank[i], fut.equals[i], fut.score[i])
                  for i in range(fut.cards)]
        return expand_groups(groups)


def expand_groups(groups) -> dict:
    """``{Card: score}`` from DDS-style groups ``(suit, rank, equals, score)``, where
    ``equals`` has bit r set for each lower rank r equivalent to ``rank``."""
    out = {}
    for suit, rank, equals, score in groups:
        holding = (1 << rank) | equals
        for r in range(14, 1, -1):
            if holding >> r & 1:
                out[_card(suit, r)] = score
    return out


# ---- measurements ---------------------------------------------------------------------------

@dataclass
class Sample:
    label: str        # "#17", "largest #3"
    pbn: str
    what: str         # the question, e.g. "4S by N" or "lead W, trump H"
    ours: float       # wall seconds (perf_counter)
    dds: float
    ours_cpu: float   # process CPU seconds (process_time): robust to a busy machine
    dds_cpu: float

    @property
    def ratio(self) -> float:
        return self.ours / self.dds if self.dds > 0 else float("inf")

    @property
    def cpu_ratio(self) -> float:
        return self.ours_cpu / self.dds_cpu if self.dds_cpu > 0 else float("inf")


@dataclass
class Section:
    name: str
    samples: list[Sample] = field(default_factory=list)
    extra: dict = field(default_factory=dict)


@dataclass
class Run:
    disagreements: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    dds_tables: dict[int, tuple] = field(default_factory=dict)  # random deal -> DDS's table

    def disagree(self, text: str) -> None:
        self.disagreements.append(text)
        _say(f"*** DISAGREEMENT *** {text}")


def _say(text: str) -> None:
    """A line on stderr that does not break tqdm's progress bar."""
    from tqdm import tqdm
    tqdm.write(text, file=sys.stderr)


@dataclass
class Timing:
    wall: float
    cpu: float
    result: object    # the answer, or the exception our solver raised


def _timed(fn: Callable[[], object]) -> Timing:
    c0, t0 = time.process_time(), time.perf_counter()
    try:
        result = fn()
    except Exception as err:  # reported as a disagreement by the caller
        result = err
    return Timing(time.perf_counter() - t0, time.process_time() - c0, result)


REPEAT = 2  # default timings of each question per solver (--repeat); the fastest counts


def race(index: int, ours: Callable[[], object], dds: Callable[[], object],
         forget: Callable[[], None], repeat: int) -> tuple[Timing, Timing]:
    """Time both calls, ours first on even ``index`` and DDS first on odd, so neither
    side is always the one that runs on a cache warmed (or cooled) by the other.

    With ``repeat`` > 1 the pair is timed ``repeat`` times, the order
    flipped each time (ABBA) and ``forget()`` before each repeat, so that neither answers
    from its table; each solver's fastest wall (and CPU) time counts.  One timing of a
    few milliseconds can catch the host busy elsewhere (a 26 ms question once took 120
    ms), and a mean of per-deal ratios feels such a hiccup; the fastest of two does not.
    The answers checked are those of the first timing."""
    mine: list[Timing] = []
    theirs: list[Timing] = []
    for r in range(repeat):
        if r:
            forget()
        if (index + r) % 2 == 0:
            mine.append(_timed(ours))
            theirs.append(_timed(dds))
        else:
            theirs.append(_timed(dds))
            mine.append(_timed(ours))
        if isinstance(theirs[-1].result, Exception):
            raise theirs[-1].result  # DDS failing means a broken harness, not a finding
    return _fastest(mine), _fastest(theirs)


def _fastest(timings: list[Timing]) -> Timing:
    """The fastest wall and CPU times of ``timings``, with the first one's answer."""
    return Timing(min(t.wall for t in timings), min(t.cpu for t in timings), timings[0].result)


def sample(label: str, pbn: str, what: str, o: Timing, d: Timing) -> Sample:
    return Sample(label, pbn, what, o.wall, d.wall, o.cpu, d.cpu)


def _progress(iterable, desc: str, total: int):
    from tqdm import tqdm
    return tqdm(iterable, desc=f"{desc:<13}", total=total, file=sys.stderr, unit="deal",
                mininterval=1.0, dynamic_ncols=True)


def _table_text(rows) -> str:
    return " ".join(f"{SEAT_LETTERS[d]}:" + ",".join(str(rows[d][s]) for s in range(5))
                    for d in range(4))


def _diff_scores(ours: dict, dds: dict) -> str:
    keys = sorted(set(ours) | set(dds), key=lambda c: c.index)
    return ", ".join(f"{c}: ours {ours.get(c, '-')} DDS {dds.get(c, '-')}"
                     for c in keys if ours.get(c) != dds.get(c))


def check_table(run: Run, where: str, ours, dds_rows) -> None:
    if isinstance(ours, Exception):
        run.disagree(f"{where}: ours raised {type(ours).__name__}: {ours}")
    elif tuple(map(tuple, ours)) != dds_rows:
        run.disagree(f"{where}: table differs (rows declarer N E S W, strains S H D C NT)\n"
                     f"    ours {_table_text(ours)}\n    DDS  {_table_text(dds_rows)}")


def check_lead(run: Run, where: str, ours, dds_scores: dict) -> None:
    if isinstance(ours, Exception):
        run.disagree(f"{where}: ours raised {type(ours).__name__}: {ours}")
    elif dict(ours) != dds_scores:
        run.disagree(f"{where}: lead scores differ: {_diff_scores(dict(ours), dds_scores)}")


def random_boards(seed: int, n: int):
    """``n`` seeded random deals, each with a random contract (strain, declarer).  Drawn
    one deal at a time, so the first k boards are the same for any n >= k."""
    from cardgames.minimax import random_ending
    rng = random.Random(seed)
    boards = []
    for _ in range(n):
        deal = random_ending(rng, 13)
        boards.append((deal, rng.randrange(5), rng.randrange(4)))
    return boards


def warm_up(ours: Ours, dds: Dds, seed: int) -> Callable[[], None]:
    """One table, lead and solve from each solver on a deal outside the benchmark set, so
    neither pays first-call costs (allocation, lazy tables) in the measurements.  Also
    checks the deal encoding handed to DDS against endplay's own parser.

    Returns ``forget()``: one untimed solve of that deal by each solver.  Both solvers keep
    their transposition table when asked about the same deal twice in a row; calling
    ``forget()`` before each section makes sure no section starts on the deal the previous
    one ended with (which happens with a single deal, or a table then a lead of one board).
    """
    deal, strain, declarer = random_boards(seed ^ 0x5EED, 1)[0]
    masks = _masks(deal)
    leader = (declarer + 1) & 3
    ours.table(deal)
    ours.lead(deal, strain, leader)
    ours.solve(deal, strain, declarer)
    dds.table(dds.table_input(masks))
    dl = dds.board_input(masks, strain, leader)
    dds.solve_board(dl, 3)
    dds.solve_board(dl, 1)
    # Cross-check our ctypes encoding against endplay's own PBN parser once.
    from endplay.types import Deal as EDeal
    edeal = EDeal(deal.to_pbn())
    encoded_ok = all(edeal._data.remainCards[i // 4][i % 4] == masks[i] for i in range(16))
    if not encoded_ok:
        die("the deal encoding for DDS does not match endplay's own parser; fix the harness")

    def forget() -> None:
        ours.solve(deal, strain, declarer)
        dds.solve_board(dl, 1)
        gc.collect()
    return forget


def bench_random(run: Run, ours: Ours, dds: Dds, boards, sections: set[str],
                 forget: Callable[[], None], repeat: int) -> None:
    """Sections table, lead, solve on the random boards, one section after another, so
    that consecutive questions are always about different deals."""
    if "table" in sections:
        forget()
        sec = Section("table")
        nodes: dict[int, int] = {}  # deal -> nodes of its first table (repeats search again)

        def table(i, deal):
            n0 = ours.nodes
            rows = ours.table(deal)
            if n0 is not None:
                nodes.setdefault(i, ours.nodes - n0)
            return rows
        for i, (deal, _, _) in enumerate(_progress(boards, "table", len(boards))):
            tdl = dds.table_input(_masks(deal))
            o, d = race(i, lambda: table(i, deal), lambda: dds.table(tdl), forget, repeat)
            sec.samples.append(sample(f"#{i}", deal.to_pbn(), "table", o, d))
            run.dds_tables[i] = dds.table_rows(d.result)
            check_table(run, f"random deal #{i} {deal.to_pbn()}", o.result, run.dds_tables[i])
        if nodes:
            sec.extra["nodes"] = sum(nodes.values()) / len(nodes)
        run.sections.append(sec)

    if "lead" in sections:
        forget()
        sec = Section("lead")
        for i, (deal, strain, declarer) in enumerate(_progress(boards, "lead", len(boards))):
            leader = (declarer + 1) & 3
            dl = dds.board_input(_masks(deal), strain, leader)
            o, d = race(i, lambda: ours.lead(deal, strain, leader),
                        lambda: dds.solve_board(dl, 3), forget, repeat)
            what = f"lead {SEAT_LETTERS[leader]}, trump {STRAIN_LETTERS[strain]}"
            sec.samples.append(sample(f"#{i}", deal.to_pbn(), what, o, d))
            check_lead(run, f"random deal #{i} {deal.to_pbn()} ({what})", o.result,
                       dds.lead_scores(d.result))
        run.sections.append(sec)

    if "solve" in sections:
        forget()
        sec = Section("solve")
        for i, (deal, strain, declarer) in enumerate(_progress(boards, "solve", len(boards))):
            dl = dds.board_input(_masks(deal), strain, (declarer + 1) & 3)
            o, d = race(i, lambda: ours.solve(deal, strain, declarer),
                        lambda: dds.solve_board(dl, 1), forget, repeat)
            what = f"{STRAIN_LETTERS[strain]} by {SEAT_LETTERS[declarer]}"
            sec.samples.append(sample(f"#{i}", deal.to_pbn(), what, o, d))
            r_o = o.result
            expected = 13 - d.result.score[0]  # DDS scores the side on lead: the defence
            where = f"random deal #{i} {deal.to_pbn()} ({what})"
            if isinstance(r_o, Exception):
                run.disagree(f"{where}: ours raised {type(r_o).__name__}: {r_o}")
            elif r_o != expected:
                run.disagree(f"{where}: declarer's tricks ours {r_o}, DDS {expected}")
        run.sections.append(sec)


def bench_nodes(run: Run, ours: Ours, dds: Dds, boards, forget: Callable[[], None]) -> None:
    """Untimed by race(): the full table of each deal by both solvers with the trick-start
    nodes each searched (DDS through its own table loop, see Dds.table_nodes), and the CPU
    time of those calls, so a change is judged on nodes and on time per node apart."""
    sec = Section("nodes")
    if ours.trick_nodes is None:
        sec.extra["skipped"] = "our core does not count trick-start nodes"
        run.sections.append(sec)
        return
    forget()
    by_left = [0] * 14
    ours_nodes, dds_nodes, ours_cpu, dds_cpu = [], [], 0.0, 0.0
    for i, (deal, _, _) in enumerate(_progress(boards, "nodes", len(boards))):
        masks = _masks(deal)
        before = ours.trick_nodes
        c0 = time.process_time()
        rows = ours.table(deal)
        ours_cpu += time.process_time() - c0
        after = ours.trick_nodes
        for k in range(14):
            by_left[k] += after[k] - before[k]
        ours_nodes.append(sum(after) - sum(before))
        c0 = time.process_time()
        got = dds.table_nodes(masks)
        dds_cpu += time.process_time() - c0
        if got is None:
            sec.extra["skipped"] = "this libdds.so does not export SolveSameBoard"
            break
        dds_rows, n = got
        dds_nodes.append(n)
        check_table(run, f"nodes: random deal #{i} {deal.to_pbn()}", rows, dds_rows)
    sec.extra.update(ours=ours_nodes, dds=dds_nodes, by_left=by_left, ours_cpu=ours_cpu,
                     dds_cpu=dds_cpu)
    run.sections.append(sec)


def _rss_kb() -> float:
    """This process's resident size in KB (Linux /proc; elsewhere its peak, ru_maxrss)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return float(line.split()[1])
    except OSError:
        pass
    return float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def rss_per_thread(tt_mb: int, deals: int = 3) -> tuple[float, float] | None:
    """Memory a single-threaded solver adds to a fresh process, ours and DDS's, in MB: each
    in its own child process, its resident size after solving ``deals`` tables less its size
    before the solver was made.  (Resident size, not ru_maxrss: on Linux a child inherits
    its parent's peak, which would hide the child's own.  Neither solver gives memory back
    between tables, so the size after them is their peak.)"""
    # Everything is imported before the first reading, so the difference is the solver's.
    common = ("import random, sys; sys.path[:0] = [{root!r}, {bench!r}]; "
              "from bench_dds import random_boards, _masks, _rss_kb; "
              "import ddsolver, endplay._dds as dds; "
              "boards = random_boards(99, {n}); "
              "r0 = _rss_kb(); ")
    ours_code = common + ("s = ddsolver.Solver({tt}); "
                          "[s.dd_table(d) for d, _, _ in boards]; ")
    dds_code = common + ("dds._dll.SetMaxThreads(1); "
                         "tdl = dds.ddTableDeal(); res = dds.ddTableResults()\n"
                         "for d, _, _ in boards:\n"
                         "    for i, m in enumerate(_masks(d)): tdl.cards[i // 4][i % 4] = m\n"
                         "    dds.CalcDDtable(tdl, res)\n")
    tail = "print((_rss_kb() - r0) / 1024)"
    out = []
    for code in (ours_code, dds_code):
        text = code.format(root=str(ROOT), bench=str(ROOT / "bench"), n=deals, tt=tt_mb)
        text += ("\n" if text.endswith("\n") else "") + tail
        try:
            done = subprocess.run([sys.executable, "-c", text], capture_output=True,
                                  text=True, timeout=300, check=True)
            out.append(float(done.stdout.strip().splitlines()[-1]))
        except (subprocess.SubprocessError, ValueError, IndexError) as err:
            _say(f"note: peak RSS per thread not measured ({type(err).__name__})")
            return None
    return out[0], out[1]


# ---- largest.txt ---------------------------------------------------------------------------

@dataclass
class FileBoard:
    number: int
    deal: object
    trump: int
    first: int
    table: tuple[tuple[int, ...], ...]   # rows[declarer][strain], from the file
    fut: dict                           # {Card: score}, from the file


def read_dds_txt(path: Path) -> list[FileBoard]:
    """Boards of a DDS ``list*.txt`` / ``largest.txt`` file (format: README.md beside it).
    Only the PBN, FUT and TABLE lines are used here."""
    from cardgames import Deal
    lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    boards: list[FileBoard] = []
    pending: dict = {}
    for lineno, line in enumerate(lines, 1):
        tag, _, rest = line.partition(" ")
        try:
            if tag == "PBN":
                head, _, quoted = rest.partition('"')
                _dealer, _vul, trump, first = (int(x) for x in head.split())
                pending = {"deal": Deal.from_pbn(quoted.rstrip().rstrip('"')),
                           "trump": trump, "first": first}
            elif tag == "FUT":
                nums = [int(x) for x in rest.split()]
                n = nums[0]
                cols = [nums[1 + k * n:1 + (k + 1) * n] for k in range(4)]
                pending["fut"] = expand_groups(zip(*cols))
            elif tag == "TABLE":
                nums = [int(x) for x in rest.split()]
                if len(nums) != 20:
                    raise ValueError(f"expected 20 numbers, got {len(nums)}")
                table = tuple(tuple(nums[s * 4 + d] for s in range(5)) for d in range(4))
                boards.append(FileBoard(len(boards) + 1, pending["deal"], pending["trump"],
                                        pending["first"], table, pending["fut"]))
        except (ValueError, KeyError, IndexError) as err:
            die(f"{path}:{lineno}: cannot read {tag} line: {err}")
    return boards


def bench_largest(run: Run, ours: Ours, dds: Dds, path: Path, limit: int | None,
                  forget: Callable[[], None], repeat: int) -> None:
    """Every board's table, then every board's opening leads, each question preceded by
    ``forget()``: largest.txt repeats deals (boards 7-8, 12-15 and 17-18, sometimes with
    another leader), and a solver asked about the same deal twice in a row may answer the
    second time from its transposition table in no time."""
    boards = read_dds_txt(path)
    if limit is not None:
        boards = boards[:limit]
    tables, leads = Section("largest table"), Section("largest lead")
    first_seen: dict = {}
    repeats = tables.extra["repeats"] = {}
    for b in boards:
        if b.deal in first_seen:
            repeats[f"largest #{b.number}"] = f"#{first_seen[b.deal]}"
        else:
            first_seen[b.deal] = b.number
    for i, b in enumerate(_progress(boards, "largest table", len(boards))):
        forget()
        pbn, label = b.deal.to_pbn(), f"largest #{b.number}"
        tdl = dds.table_input(_masks(b.deal))
        o, d = race(i, lambda: ours.table(b.deal), lambda: dds.table(tdl), forget, repeat)
        x = sample(label, pbn, "table", o, d)
        tables.samples.append(x)
        dds_rows = dds.table_rows(d.result)
        check_table(run, f"{label} {pbn}", o.result, dds_rows)
        if dds_rows != b.table:  # the harness itself, not our solver
            _say(f"warning: {label}: DDS's table differs from the one in {path.name}")
        _say(f"{label:<12} table {x.ours * 1e3:8.0f} ms / DDS {x.dds * 1e3:7.0f} ms = "
             f"{x.ratio:5.2f} (cpu {x.cpu_ratio:5.2f})")
    for i, b in enumerate(_progress(boards, "largest lead", len(boards))):
        forget()
        pbn, label = b.deal.to_pbn(), f"largest #{b.number}"
        dl = dds.board_input(_masks(b.deal), b.trump, b.first)
        o, d = race(i, lambda: ours.lead(b.deal, b.trump, b.first),
                    lambda: dds.solve_board(dl, 3), forget, repeat)
        what = f"lead {SEAT_LETTERS[b.first]}, trump {STRAIN_LETTERS[b.trump]}"
        x = sample(label, pbn, what, o, d)
        leads.samples.append(x)
        dds_scores = dds.lead_scores(d.result)
        check_lead(run, f"{label} {pbn} ({what})", o.result, dds_scores)
        if dds_scores != b.fut:
            _say(f"warning: {label}: DDS's lead scores differ from the FUT line in {path.name}")
        _say(f"{label:<12} lead  {x.ours * 1e3:8.0f} ms / DDS {x.dds * 1e3:7.0f} ms = "
             f"{x.ratio:5.2f} (cpu {x.cpu_ratio:5.2f})")
    run.sections += [tables, leads]


# ---- dd_tables on 2 threads -----------------------------------------------------------------

def bench_jobs(run: Run, ours: Ours, dds: Dds, boards, reference: dict[int, tuple]) -> None:
    """Wall time of ``dd_tables(deals, jobs=2)`` over ``jobs=1`` on the same deals; the
    answers are checked against DDS (tables from the table section, or solved here).

    Timed in the order 1, 2, 2, 1 and compared as sums: a host whose speed drifts during
    the section (other tenants of the machine) then weighs on both job counts alike,
    instead of on whichever ran second."""
    deals = [deal for deal, _, _ in boards]
    sec = Section("jobs")
    for i, deal in enumerate(deals):
        if i not in reference:
            reference[i] = dds.table_rows(dds.table(dds.table_input(_masks(deal))))
    walls, cpus = {1: 0.0, 2: 0.0}, {1: 0.0, 2: 0.0}
    rounds: list[tuple[int, float]] = []
    for jobs in (1, 2, 2, 1):
        _say(f"jobs: dd_tables on {len(deals)} deals, jobs={jobs} ...")
        gc.collect()
        c0, t0 = time.process_time(), time.perf_counter()
        try:
            tables = ours.dd_tables(deals, jobs=jobs, tt_mb=ours.tt_mb)
        except Exception as err:
            run.disagree(f"dd_tables(jobs={jobs}) raised {type(err).__name__}: {err}")
            return
        wall = time.perf_counter() - t0
        walls[jobs] += wall
        cpus[jobs] += time.process_time() - c0
        rounds.append((jobs, wall))
        if len(tables) != len(deals):
            run.disagree(f"dd_tables(jobs={jobs}) returned {len(tables)} tables for "
                         f"{len(deals)} deals")
            continue
        for i, table in enumerate(tables):
            check_table(run, f"dd_tables(jobs={jobs}) deal #{i} {deals[i].to_pbn()}",
                        table.rows, reference[i])
    sec.extra.update(deals=len(deals), wall1=walls[1], wall2=walls[2], cpu1=cpus[1],
                     cpu2=cpus[2], rounds=rounds)
    run.sections.append(sec)


# ---- report ---------------------------------------------------------------------------------

def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "?"


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _git_revision() -> str:
    try:
        rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--",
                                "ddsolver", "cardgames", "setup.py"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"
    return (rev or "?") + ("+uncommitted changes" if dirty else "")


def _ratio(x: float, width: int = 6) -> str:
    """A ratio in a fixed width: two decimals while they fit."""
    text = f"{x:.2f}" if x < 10 ** (width - 3) else f"{x:.0f}"
    return f"{text:>{width}}"


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return float("nan")


def _peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024  # bytes vs KiB


def _verdict(name: str, value: float) -> str:
    if name not in TARGETS:
        return ""
    kind, limit = TARGETS[name]
    ok = value <= limit
    label = {"mean": "mean", "max": "max", "ratio": "ratio"}[kind]
    return f"{label} <= {limit:g}: {'ok' if ok else 'MISSED'}"


def _nodes_lines(sec: Section) -> list[str]:
    """The nodes section: trick-start nodes per table, ours and DDS's, time per node, and
    our nodes by tricks left."""
    if sec.extra.get("skipped"):
        return [f"nodes         {sec.extra['skipped']}"]
    o, d = sec.extra.get("ours", []), sec.extra.get("dds", [])
    if not o or not d:
        return ["nodes         (no deals)"]
    mo, md = statistics.fmean(o), statistics.fmean(d[:len(o)])
    per_deal = statistics.fmean(a / b for a, b in zip(o, d) if b)
    tpn_o = sec.extra["ours_cpu"] / sum(o) * 1e6
    tpn_d = sec.extra["dds_cpu"] / sum(d) * 1e6
    lines = [f"nodes         trick-start nodes per table, {len(o)} deals: ours {mo:,.0f}, DDS "
             f"{md:,.0f}, ratio {mo / md:.2f} (mean of per-deal ratios {per_deal:.2f})",
             f"time/node     ours {tpn_o:.2f} us, DDS {tpn_d:.2f} us, ratio {tpn_o / tpn_d:.2f} "
             f"(CPU of those tables / their trick-start nodes; DDS through SolveBoard + "
             f"SolveSameBoard)"]
    by_left = sec.extra["by_left"]
    total = sum(by_left) or 1
    lines.append("ours by tricks left (share of trick-start nodes): " + "  ".join(
        f"{k}:{100 * by_left[k] / total:.1f}%" for k in range(13, 0, -1)))
    lines.append("              (DDS reports one total per call, so its split by tricks left "
                 "is not available from the library)")
    return lines


def report(run: Run, ours: Ours, dds: Dds, args, argv: list[str], env: dict) -> None:
    out = []
    out.append("")
    out.append("=" * 100)
    out.append("ddsolver vs DDS: ratio = our time / DDS time on the same deal (lower is better; "
               "< 1 means we are faster)")
    out.append("=" * 100)
    out.append(f"command   : {' '.join(shlex.quote(a) for a in argv)}")
    out.append(f"python    : {platform.python_version()} ({platform.python_implementation()}), "
               f"{platform.system()} {platform.machine()}")
    out.append(f"CPU       : {_cpu_model()}, {_cpus()} CPUs available")
    timed = [x for sec in run.sections for x in sec.samples]
    dds_wall = sum(x.dds for x in timed)
    ours_wall = sum(x.ours for x in timed)
    dds_use = sum(x.dds_cpu for x in timed) / dds_wall if dds_wall > 0 else float("nan")
    ours_use = sum(x.ours_cpu for x in timed) / ours_wall if ours_wall > 0 else float("nan")
    out.append(f"endplay   : {dds.endplay_version}; DDS {dds.version}, threads "
               f"{dds.threads if dds.threads is not None else '? (GetDDSInfo missing)'} "
               f"(read back after SetMaxThreads(1))")
    out.append(f"CPU/wall  : DDS {dds_use:.2f}, ours {ours_use:.2f} over the timed calls "
               f"(one thread each: at most 1.0, lower when the machine is shared)")
    built = time.strftime("%Y-%m-%d %H:%M", time.localtime(ours.core_file.stat().st_mtime))
    out.append(f"ddsolver  : {ours.core_file.parent} (git {_git_revision()}; {ours.core_file.name} "
               f"built {built}, {ours.build} build), timed through {ours.api}")
    if ours.facade_error:
        out.append(f"            facade import failed: {ours.facade_error}")
    if env["sections"] & {"table", "lead", "solve", "jobs"}:
        out.append(f"deals     : {args.deals} random, seed {args.seed} (contracts for lead/solve "
                   f"drawn with them)" + (f"; jobs on the first {args.jobs_deals}"
                                          if "jobs" in env["sections"] else ""))
    out.append(f"timing    : each question {args.repeat} time(s) per solver, ours and DDS "
               f"alternating (ABBA), the fastest counting")
    load = env["load"] + [_load()]
    busy = max(load) > _cpus()
    out.append(f"load avg  : {load[0]:.1f} at start, {load[-1]:.1f} at end"
               + ("  -- BUSY MACHINE: more runnable tasks than CPUs, wall times are noisy; "
                  "the cpu column is steadier" if busy else ""))
    out.append("")
    head = (f"{'section':<14}{'deals':>6}{'ours ms':>10}{'DDS ms':>9}{'mean':>7}{'median':>7}"
            f"{'total':>7}{'cpu':>7}{'worst':>7}  {'worst deal':<12}{'target'}")
    out.append(head)
    out.append("-" * len(head))
    worst_lines = []
    for sec in run.sections:
        if sec.name in ("jobs", "nodes"):
            continue
        if not sec.samples:
            out.append(f"{sec.name:<14}{0:>6}  (no deals)")
            continue
        ratios = [s.ratio for s in sec.samples]
        cpu = statistics.fmean(s.cpu_ratio for s in sec.samples)
        t_o = statistics.fmean(s.ours for s in sec.samples)
        t_d = statistics.fmean(s.dds for s in sec.samples)
        mean, median = statistics.fmean(ratios), statistics.median(ratios)
        total = sum(s.ours for s in sec.samples) / sum(s.dds for s in sec.samples)
        worst = max(sec.samples, key=lambda s: s.ratio)
        kind = TARGETS.get(sec.name, ("", 0))[0]
        # Targets are on CPU time (steady on a shared machine); "max": every deal's.
        worst_cpu = max(s.cpu_ratio for s in sec.samples)
        verdict = _verdict(sec.name, worst_cpu if kind == "max" else cpu)
        if f"{sec.name} mean" in TARGETS:
            verdict += f"; mean {_verdict(f'{sec.name} mean', cpu)}"
        out.append(f"{sec.name:<14}{len(sec.samples):>6}{t_o * 1e3:>10.1f}{t_d * 1e3:>9.1f} "
                   f"{_ratio(mean)} {_ratio(median)} {_ratio(total)} {_ratio(cpu)} "
                   f"{_ratio(worst.ratio)}  {worst.label:<12}{verdict}")
        worst_lines.append(f"  {sec.name:<14}{worst.label} ({worst.what}): ours "
                           f"{worst.ours * 1e3:.1f} ms, DDS {worst.dds * 1e3:.1f} ms "
                           f"(cpu ratio {worst.cpu_ratio:.2f})\n"
                           f"  {'':<14}{worst.pbn}")
    out.append("  ms: mean wall time per deal.  mean, median: of the per-deal wall-time ratios;"
               " total: sum of ours / sum of DDS's;\n  cpu: mean per-deal ratio of process CPU "
               "times; worst: the highest per-deal ratio (its deal below).")
    largest = {s.name: s.samples for s in run.sections if s.name.startswith("largest")}
    if largest:
        out.append("")
        out.append("largest.txt, per board: wall ms ours / DDS = ratio (cpu ratio)")
        repeats = next((s.extra.get("repeats", {}) for s in run.sections
                        if s.name == "largest table"), {})
        tables = {x.label: x for x in largest.get("largest table", [])}
        leads = {x.label: x for x in largest.get("largest lead", [])}
        for label in dict.fromkeys([*tables, *leads]):
            parts = [f"  {label:<12}"]
            for name, x in (("table", tables.get(label)), ("lead", leads.get(label))):
                if x is not None:
                    parts.append(f"{name} {x.ours * 1e3:8.0f} / {x.dds * 1e3:6.0f} = "
                                 f"{_ratio(x.ratio, 5)} ({_ratio(x.cpu_ratio, 5)})")
            if label in repeats:
                parts.append(f"(same deal as {repeats[label]})")
            out.append("   ".join(parts))
    jobs = next((s for s in run.sections if s.name == "jobs"), None)
    if jobs is not None and jobs.extra.get("wall1") and jobs.extra.get("wall2"):
        w1, w2 = jobs.extra["wall1"], jobs.extra["wall2"]
        out.append("")
        out.append(f"dd_tables     {jobs.extra['deals']} deals, run twice each (jobs 1, 2, 2, 1): "
                   f"jobs=1 {w1:.2f} s, jobs=2 {w2:.2f} s, ratio {w2 / w1:.2f}  "
                   f"{_verdict('jobs', w2 / w1)}"
                   + ("  (fewer than 2 CPUs available!)" if _cpus() < 2 else ""))
        rounds = jobs.extra.get("rounds") or []
        if len(rounds) == 4:
            first, second = rounds[1][1] / rounds[0][1], rounds[2][1] / rounds[3][1]
            out.append(f"              each pair: {first:.2f} (1 then 2), {second:.2f} (2 then 1); "
                       f"far apart = the host's speed moved during the section")
        out.append(f"              CPU/wall: jobs=1 {jobs.extra['cpu1'] / w1:.2f}, jobs=2 "
                   f"{jobs.extra['cpu2'] / w2:.2f} (2.0 = both threads busy all the time; "
                   f"near the jobs=1 figure = no parallelism)")
    elif "jobs" in env["sections"]:
        out.append("")
        out.append(f"dd_tables     {env.get('jobs_skipped', 'not measured')}")
    for sec in run.sections:
        if sec.name == "table" and "nodes" in sec.extra:
            out.append(f"our nodes     {sec.extra['nodes']:,.0f} per table (mean, all nodes)")
    nodes = next((s for s in run.sections if s.name == "nodes"), None)
    if nodes is not None:
        out += _nodes_lines(nodes)
    out.append(f"memory        peak RSS {_peak_rss_mb():.0f} MB for the whole process (both "
               f"solvers; {env['rss_start']:.0f} MB before either searched); our TT: "
               f"{ours.tt_text()}")
    if env.get("rss_per_thread"):
        o_mb, d_mb = env["rss_per_thread"]
        out.append(f"              memory one single-threaded solver adds to a fresh process "
                   f"(resident, after 3 tables): ours {o_mb:.0f} MB, DDS {d_mb:.0f} MB")
    if env.get("signature"):
        out.append(f"signature     Nodes searched: {env['signature']} (bench/signature.py)")
    if worst_lines:
        out.append("")
        out.append("worst deals (highest ratio):")
        out += worst_lines
    out.append("")
    if run.disagreements:
        out.append(f"*** {len(run.disagreements)} DISAGREEMENT(S) WITH DDS ***")
        out += ["  " + d for d in run.disagreements]
    else:
        checked = sum(len(s.samples) for s in run.sections)
        out.append(f"answers: all agree with DDS ({checked} timed questions"
                   + (", plus every dd_tables result" if jobs is not None else "") + ")")
    print("\n".join(out), flush=True)


# ---- main -----------------------------------------------------------------------------------

def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Time ddsolver against DDS (endplay), alternating per deal, and print "
                    "ratios ours/DDS.  Exit status 1 if any answer disagrees with DDS.")
    p.add_argument("--deals", type=int, default=None,
                   help="random deals for table/lead/solve (default 200; 20 with --quick)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random deals (default 1)")
    p.add_argument("--quick", action="store_true",
                   help="smoke run: 20 deals, 10 for jobs, the first 3 boards of largest.txt")
    p.add_argument("--only", default=",".join(SECTIONS),
                   help=f"comma-separated sections to run, from {','.join(SECTIONS)} "
                        f"(default: all)")
    p.add_argument("--tt-mb", type=int, default=None,
                   help="our transposition table size in MB (default: ddsolver's default)")
    p.add_argument("--jobs-deals", type=int, default=None,
                   help="deals for the jobs section, the first of the random deals "
                        "(default 40; 10 with --quick)")
    p.add_argument("--nodes-deals", type=int, default=None,
                   help="deals for the nodes section, the first of the random deals "
                        "(default 50; 10 with --quick)")
    p.add_argument("--largest", type=int, default=None, metavar="N",
                   help="run only the first N boards of largest.txt (default: all; 3 with "
                        "--quick)")
    p.add_argument("--repeat", type=int, default=REPEAT, metavar="N",
                   help=f"timings of each question per solver, the fastest counting "
                        f"(default {REPEAT}; 1: a single timing each)")
    p.add_argument("--largest-file", type=Path, default=DEFAULT_LARGEST,
                   help=f"the largest.txt file (default {DEFAULT_LARGEST})")
    args = p.parse_args(argv)
    sections = {s.strip() for s in args.only.split(",") if s.strip()}
    unknown = sections - set(SECTIONS)
    if unknown or not sections:
        p.error(f"--only: unknown section(s) {', '.join(sorted(unknown)) or '(none given)'}; "
                f"choose from {', '.join(SECTIONS)}")
    args.sections = sections
    if args.deals is None:
        args.deals = 20 if args.quick else 200
    if args.jobs_deals is None:
        args.jobs_deals = 10 if args.quick else 40
    if args.nodes_deals is None:
        args.nodes_deals = min(args.deals, 10 if args.quick else 50)
    if args.largest is None and args.quick:
        args.largest = 3
    for name in ("deals", "jobs_deals", "nodes_deals", "largest", "tt_mb", "repeat"):
        value = getattr(args, name)
        if value is not None and value < (1 if name in ("tt_mb", "repeat") else 0):
            p.error(f"--{name.replace('_', '-')} must not be {value}")
    return args


def main(argv: list[str] | None = None) -> int:
    from_command_line = argv is None
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    _prefer_checkout()
    for name in ("tqdm", "cardgames"):
        try:
            importlib.import_module(name)
        except ImportError as err:
            die(f"{err}; install the project with `pip install '.[bench]'`")
    if "largest" in args.sections and not args.largest_file.exists():
        if args.only != ",".join(SECTIONS):  # asked for by name: an error
            die(f"{args.largest_file} not found (give --largest-file)")
        _say(f"warning: {args.largest_file} not found; the largest section is skipped")
        args.sections.discard("largest")

    dds = Dds()
    if dds.threads not in (None, 1):
        die(f"DDS still reports {dds.threads} threads after SetMaxThreads(1)")
    ours = Ours(args.tt_mb)
    if ours.facade_error:
        _say(f"note: the facade did not import ({ours.facade_error}); timing the raw core")
    env = {"sections": args.sections, "rss_start": _peak_rss_mb(), "load": [_load()]}
    forget = warm_up(ours, dds, args.seed)

    run = Run()
    need = max(args.deals, args.jobs_deals if "jobs" in args.sections else 0)
    boards = random_boards(args.seed, need)
    gc.collect()
    bench_random(run, ours, dds, boards[:args.deals], args.sections, forget, args.repeat)
    if "nodes" in args.sections:
        bench_nodes(run, ours, dds, boards[:args.nodes_deals], forget)

    if "largest" in args.sections:
        bench_largest(run, ours, dds, args.largest_file, args.largest, forget, args.repeat)

    if "jobs" in args.sections:
        if ours.dd_tables is None:
            env["jobs_skipped"] = "skipped: the facade's dd_tables is not available"
            _say("note: dd_tables is not available; jobs section skipped")
        else:
            bench_jobs(run, ours, dds, boards[:args.jobs_deals], run.dds_tables)

    env["rss_per_thread"] = rss_per_thread(ours.tt_mb)
    try:
        sys.path.insert(0, str(ROOT / "bench"))
        from signature import signature
        env["signature"] = signature()[0]
    except Exception as err:  # an unfinished checkout: the summary just leaves it out
        _say(f"note: node signature not computed ({type(err).__name__}: {err})")
    shown = [sys.executable, *sys.argv] if from_command_line else ["bench_dds.py", *argv]
    report(run, ours, dds, args, shown, env)
    return 1 if run.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
