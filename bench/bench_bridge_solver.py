#!/usr/bin/env python3
"""ddsolver against bridge-solver and DDS, full double-dummy tables, in one run.

bridge-solver (macroxue/bridge-solver, the fastest public solver we know of) is a
command-line program: it is built from ``../shared/peers/bridge-solver/`` in a temporary
folder the way its makefile builds it (profile-guided, ``-O3``, with SSE4.2/BMI/BMI2 when
the CPU has them; see ``../shared/peers/README.md``) and, when that build uses BMI2, also
without it -- its PEXT/PDEP are microcoded on AMD before Zen 3 -- the faster of the two on
12 deals of another seed kept; or taken from ``--solver PATH``.
Without a C++ compiler or the peer's source the script says so and exits 0 without timing.

Every deal of both sets -- the seeded random deals of ``bench_dds.py`` and DDS's hard boards
in ``largest.txt`` -- is asked for its whole table (20 declarer/strain pairs) by all three
solvers, one deal at a time, the order of the three rotating from deal to deal and from
repeat to repeat; each solver's fastest of ``--repeat`` timings counts.  The process (and
so bridge-solver, its child) is pinned to one CPU (``--cpu``), DDS runs one thread.

Times are CPU seconds: ours and DDS's the process's CPU time around the call; bridge-solver's
its child process's user + system time (``wait4``) less its start-up, measured as the median
of ``--startup-runs`` runs of ``solver -o`` (read the deal, print it, stop: about 2-3 ms) --
so bridge-solver is not charged for being a separate program.  Its cache starts empty each
deal, as ours does (our table is cleared for each new deal).

Every table is checked against DDS's: ours and bridge-solver's.  Exit status 1 on any
disagreement, 2 when the benchmark cannot run (endplay or the compiled ddsolver missing).

    python bench/bench_bridge_solver.py                 # 240 random deals + largest.txt
    python bench/bench_bridge_solver.py --quick         # 20 deals, 3 boards of largest.txt
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bench_dds import _progress, _timed, warm_up
from bench_deals import DEFAULT_LARGEST, random_boards, read_dds_txt
from bench_env import ROOT, cpu_model, cpus, die, git_revision, load_average, prefer_checkout, python_text, say
from dds_peer import Dds, masks
from our_solver import Ours

if TYPE_CHECKING:
    from cardgames import Deal, Hand

PEER = ROOT.parent / "shared" / "peers" / "bridge-solver"
TRAINING_DEAL = Path("hard_deals") / "deal.8"   # the deal its profile-guided build trains on
# bridge-solver's table line: a strain letter, then declarer's tricks for the leads of
# West, East, North and South, i.e. for declarers South, North, West, East.
BS_STRAINS = {"S": 0, "H": 1, "D": 2, "C": 3, "N": 4}
BS_DECLARERS = (2, 0, 3, 1)   # column -> declarer (N E S W = 0 1 2 3)


# ---- bridge-solver ---------------------------------------------------------------------------

def cpu_flags() -> list[str]:
    """The instruction-set flags bridge-solver's makefile would choose, matched as whole
    words (its own ``grep -o bmi2`` also matches ``avx512_vbmi2`` and then fails)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            words = next((line.split(":", 1)[1].split() for line in f
                          if line.startswith("flags")), [])
    except OSError:
        words = []
    return [flag for word, flag in (("sse4_2", "-msse4.2"), ("bmi1", "-mbmi"),
                                    ("bmi2", "-mbmi2")) if word in words]


def build_peer(folder: Path, flags: list[str]) -> tuple[Path | None, str]:
    """bridge-solver built in ``folder`` as its makefile's ``make all`` does, with the
    instruction-set ``flags``; ``(None, why)`` when it cannot be (no source, no compiler,
    a failed build)."""
    if not (PEER / "solver.cc").exists():
        return None, f"no bridge-solver source at {PEER}"
    compiler = shutil.which("g++")
    if compiler is None or shutil.which("make") is None:
        return None, "no g++ or make on this machine"
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("solver.cc", "makefile"):
        shutil.copy(PEER / name, folder / name)
    (folder / "hard_deals").mkdir()
    shutil.copy(PEER / TRAINING_DEAL, folder / TRAINING_DEAL)
    opts = " ".join(["-std=c++17", "-Wall", "-Wno-missing-profile", *flags])
    say(f"building bridge-solver in {folder} (make all OPTS=\"{opts}\") ...")
    done = subprocess.run(["make", "-C", str(folder), "all", f"OPTS={opts}"],
                          capture_output=True, text=True)
    solver = folder / "solver"
    if done.returncode != 0 or not solver.exists():
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        return None, "the build failed: " + " | ".join(tail)
    return solver, f"built with g++ ({opts}), profile-guided on {TRAINING_DEAL}"


def build_fastest_peer(folder: Path, deals: list[tuple[Deal, int, int]]
                       ) -> tuple[Path | None, str]:
    """bridge-solver as its makefile builds it and, where that build uses BMI2, also
    without BMI2; the one that solves ``deals`` (tables, the fastest of two runs each) in
    less CPU time is kept.  Its PEXT/PDEP are microcoded on AMD CPUs before Zen 3 (tens
    to hundreds of cycles each), where its portable bit loops are faster: the peer is
    timed at its best on the host, whichever that is."""
    flags = cpu_flags()
    binary, how = build_peer(folder / "makefile-flags", flags)
    if binary is None or "-mbmi2" not in flags:
        return binary, how
    plain, plain_how = build_peer(folder / "no-bmi2", [f for f in flags if f != "-mbmi2"])
    if plain is None:
        return binary, how
    times = []
    for candidate in (binary, plain):
        bs = BridgeSolver(candidate, candidate.parent)
        total = 0.0
        for deal, _, _ in deals:
            bs.prepare(deal)
            total += min(bs.table()[0] for _ in range(2))
        times.append(total)
    say(f"bridge-solver on {len(deals)} deals of another seed: {times[0]:.2f} s with BMI2, "
        f"{times[1]:.2f} s without")
    note = (f"(the faster on {len(deals)} deals of another seed: {times[0]:.2f} s with BMI2, "
            f"{times[1]:.2f} s without)")
    if times[1] < times[0]:
        return plain, f"{plain_how} {note}"
    return binary, f"{how} {note}"


def deal_text(deal: Deal) -> str:
    """The deal in bridge-solver's file format: North, West, East, South a line each,
    suits spades to clubs, ``-`` for a void."""
    def hand(h: Hand | None) -> str:
        assert h is not None  # the deals timed are full deals
        return " ".join(suit or "-" for suit in h.to_pbn().split("."))
    n, e, s, w = deal.hands
    return "\n".join(hand(h) for h in (n, w, e, s)) + "\n"


def parse_table(text: str) -> tuple[tuple[int, ...], ...]:
    """``rows[declarer][strain]`` from bridge-solver's output.

    :raises ValueError: the output does not hold the five strain lines."""
    rows = [[-1] * 5 for _ in range(4)]
    seen = set()
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[0] in BS_STRAINS and all(p.isdigit() for p in parts[1:5]):
            strain = BS_STRAINS[parts[0]]
            seen.add(strain)
            for col, tricks in enumerate(parts[1:5]):
                rows[BS_DECLARERS[col]][strain] = int(tricks)
    if len(seen) != 5:
        raise ValueError(f"bridge-solver printed {len(seen)} strain lines:\n{text}")
    return tuple(map(tuple, rows))


class BridgeSolver:
    """One bridge-solver binary, a process per table."""

    def __init__(self, binary: Path, folder: Path) -> None:
        self.binary = binary
        self.file = folder / "deal.txt"
        self.startup = 0.0

    def _run(self, extra: list[str]) -> tuple[float, str]:
        """CPU seconds (user + system) of one run and its output: the children's usage
        before and after it, the only child this process runs meanwhile."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([str(self.binary), *extra, "-f", str(self.file)],
                              capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise RuntimeError(f"bridge-solver exited with {done.returncode}: "
                               f"{done.stderr[-300:]}")
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout

    def prepare(self, deal: Deal) -> None:
        self.file.write_text(deal_text(deal))

    def measure_startup(self, deal: Deal, runs: int) -> float:
        """The median CPU time of ``solver -o`` (read and print the deal, no solving)."""
        self.prepare(deal)
        self.startup = statistics.median(self._run(["-o"])[0] for _ in range(runs))
        return self.startup

    def table(self) -> tuple[float, tuple[tuple[int, ...], ...]]:
        """CPU seconds less start-up, and the table of the prepared deal."""
        cpu, out = self._run([])
        return max(cpu - self.startup, 0.0), parse_table(out)


# ---- the race --------------------------------------------------------------------------------

@dataclass
class Row:
    label: str
    pbn: str
    ours: float
    dds: float
    bs: float

    @property
    def vs_bs(self) -> float:
        return _over(self.ours, self.bs)

    @property
    def vs_dds(self) -> float:
        return _over(self.ours, self.dds)

    @property
    def bs_vs_dds(self) -> float:
        return _over(self.bs, self.dds)


def _over(a: float, b: float) -> float:
    return a / b if b > 0 else float("inf")


def race(index: int, deal: Deal, ours: Ours, dds: Dds, bs: BridgeSolver,
         forget: Callable[[], None], repeat: int, problems: list[str], label: str) -> Row:
    """The three tables of ``deal``, each solver timed ``repeat`` times, the order of the
    three rotated by deal and by repeat; the fastest time of each counts, the first
    answers are checked."""
    tdl = dds.table_input(masks(deal))
    bs.prepare(deal)
    times: dict[str, list[float]] = {"ours": [], "dds": [], "bs": []}
    answers: dict[str, object] = {}

    def run_ours() -> None:   # an exception of ours is its answer: reported as a disagreement
        t = _timed(lambda: ours.table(deal))
        times["ours"].append(t.cpu)
        answers.setdefault("ours", t.result)

    def run_dds() -> None:
        t = _timed(lambda: dds.table(tdl))
        if isinstance(t.result, Exception):
            raise t.result  # DDS failing means a broken harness, not a finding
        times["dds"].append(t.cpu)
        answers.setdefault("dds", dds.table_rows(t.result))

    def run_bs() -> None:
        t, rows = bs.table()
        times["bs"].append(t)
        answers.setdefault("bs", rows)

    order = [run_ours, run_dds, run_bs]
    for r in range(repeat):
        if r:
            forget()
        k = (index + r) % 3
        for fn in order[k:] + order[:k]:
            fn()
    pbn = deal.to_pbn()
    for who in ("ours", "bs"):
        if answers[who] != answers["dds"]:
            problems.append(f"{label} {pbn}: {who}'s table differs from DDS's\n"
                            f"    {who:<4} {answers[who]}\n    DDS  {answers['dds']}")
            say(f"*** DISAGREEMENT *** {problems[-1]}")
    return Row(label, pbn, min(times["ours"]), min(times["dds"]), min(times["bs"]))


# ---- the summary -----------------------------------------------------------------------------

def summary(name: str, rows: list[Row]) -> list[str]:
    ours, dds, bs = (sum(getattr(r, k) for r in rows) for k in ("ours", "dds", "bs"))
    worst_bs = max(rows, key=lambda r: r.vs_bs)
    worst_dds = max(rows, key=lambda r: r.vs_dds)
    faster = sum(r.ours < r.bs for r in rows)
    over = [r for r in rows if r.vs_dds > 1.2]
    return [
        f"{name}: {len(rows)} deals, CPU s: ours {ours:.2f}, bridge-solver {bs:.2f}, "
        f"DDS {dds:.2f}",
        f"  ours / bridge-solver  total {ours / bs:.3f}   median of per-deal ratios "
        f"{statistics.median(r.vs_bs for r in rows):.3f}   ours faster on {faster} of "
        f"{len(rows)}   [target total <= 0.80: {'ok' if ours / bs <= 0.80 else 'MISSED'}]",
        f"  ours / DDS            total {ours / dds:.3f}   median "
        f"{statistics.median(r.vs_dds for r in rows):.3f}   deals above 1.2: {len(over)}"
        f"   [target none: {'ok' if not over else 'MISSED'}]",
        f"  bridge-solver / DDS   total {bs / dds:.3f}   median "
        f"{statistics.median(r.bs_vs_dds for r in rows):.3f}",
        f"  worst vs bridge-solver: {worst_bs.label} {worst_bs.vs_bs:.2f} "
        f"(ours {worst_bs.ours * 1e3:.0f} ms, bridge-solver {worst_bs.bs * 1e3:.0f} ms) "
        f"{worst_bs.pbn}",
        f"  worst vs DDS:           {worst_dds.label} {worst_dds.vs_dds:.2f} "
        f"(ours {worst_dds.ours * 1e3:.0f} ms, DDS {worst_dds.dds * 1e3:.0f} ms) "
        f"{worst_dds.pbn}",
    ]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=None,
                   help="random deals (bench_dds.py's, seeded; default 240, 20 with --quick)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random deals (1)")
    p.add_argument("--largest", type=int, default=None, metavar="N",
                   help="only the first N boards of largest.txt (default all; 3 with --quick)")
    p.add_argument("--largest-file", type=Path, default=DEFAULT_LARGEST)
    p.add_argument("--only", default="random,largest", help="random,largest (default both)")
    p.add_argument("--repeat", type=int, default=2, help="timings per solver and deal, the "
                   "fastest counting (2)")
    p.add_argument("--cpu", type=int, default=None,
                   help="the CPU to pin to (default: the last this process may use)")
    p.add_argument("--solver", type=Path, default=None,
                   help="a bridge-solver binary already built (default: build one)")
    p.add_argument("--startup-runs", type=int, default=21,
                   help="runs of `solver -o` whose median is bridge-solver's start-up (21)")
    p.add_argument("--tt-mb", type=int, default=None, help="our table's size in MB")
    p.add_argument("--quick", action="store_true", help="20 deals, 3 boards of largest.txt")
    p.add_argument("--list", action="store_true", help="print every deal's times")
    args = p.parse_args(argv)
    args.sets = {s.strip() for s in args.only.split(",") if s.strip()}
    if not args.sets or args.sets - {"random", "largest"}:
        p.error("--only takes random, largest or both")
    if args.deals is None:
        args.deals = 20 if args.quick else 240
    if args.largest is None and args.quick:
        args.largest = 3
    if args.repeat < 1 or args.deals < 1 or args.startup_runs < 1:
        p.error("--repeat, --deals and --startup-runs must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    prefer_checkout()
    try:
        dds = Dds()
        ours = Ours(args.tt_mb)
    except ImportError as err:
        die(str(err))
    allowed = sorted(os.sched_getaffinity(0))
    n_cpus = cpus()
    cpu = allowed[-1] if args.cpu is None else args.cpu
    if cpu not in allowed:
        die(f"--cpu {cpu}: this process may run on CPUs {allowed}")
    os.sched_setaffinity(0, {cpu})

    with tempfile.TemporaryDirectory(prefix="bridge-solver-") as tmp:
        folder = Path(tmp)
        if args.solver is not None:
            binary, how = args.solver.resolve(), f"given: {args.solver}"
            if not binary.exists():
                die(f"--solver {binary}: no such file")
        else:
            binary, how = build_fastest_peer(folder, random_boards(args.seed + 1000, 12))
            if binary is None:
                print(f"bridge-solver not timed: {how}")
                return 0
        bs = BridgeSolver(binary, folder)
        forget = warm_up(ours, dds, args.seed)
        boards = random_boards(args.seed, args.deals)
        startup = bs.measure_startup(boards[0][0], args.startup_runs)
        bs.table()  # its first run pays the page cache; not timed

        problems: list[str] = []
        sets: dict[str, list[Row]] = {}
        load = [load_average()]
        gc.collect()
        if "random" in args.sets:
            rows = sets["random deals"] = []
            for i, (deal, _, _) in enumerate(_progress(boards, "random", len(boards))):
                rows.append(race(i, deal, ours, dds, bs, forget, args.repeat, problems,
                                 f"#{i}"))
        if "largest" in args.sets:
            if not args.largest_file.exists():
                die(f"{args.largest_file} not found (give --largest-file)")
            hard = read_dds_txt(args.largest_file)[:args.largest]
            rows = sets["largest.txt"] = []
            for i, b in enumerate(_progress(hard, "largest", len(hard))):
                forget()
                rows.append(race(i, b.deal, ours, dds, bs, forget, args.repeat, problems,
                                 f"largest #{b.number}"))
        load.append(load_average())

    out = [f"bench_bridge_solver.py {' '.join(argv if argv is not None else sys.argv[1:])}",
           f"git {git_revision()}; {time.strftime('%Y-%m-%d %H:%M')}; {cpu_model()}, "
           f"{n_cpus} CPU(s) before pinning, pinned to CPU {cpu}; load {load[0]:.2f} -> "
           f"{load[-1]:.2f}; Python {python_text()}",
           f"ours: {ours.api}, core {ours.core_file.name} ({ours.build}), {ours.tt_text()}",
           "DDS: endplay's libdds, 1 thread, CalcDDtable",
           f"bridge-solver: {how}; a process per table, its start-up "
           f"{startup * 1e3:.1f} ms (median of {args.startup_runs} `solver -o`) subtracted",
           f"times: CPU, the fastest of {args.repeat} per solver and deal, the order of the "
           f"three rotated deal by deal"]
    for name, rows in sets.items():
        if rows:
            out += summary(name, rows)
    if args.list:
        for rows in sets.values():
            for r in rows:
                out.append(f"  {r.label:<12} ours {r.ours * 1e3:8.1f}  bs {r.bs * 1e3:8.1f}  "
                           f"DDS {r.dds * 1e3:8.1f} ms  ours/bs {r.vs_bs:5.2f}  "
                           f"ours/DDS {r.vs_dds:5.2f}  bs/DDS {r.bs_vs_dds:5.2f}")
    out.append(f"answers: {'ALL TABLES EQUAL DDS' if not problems else f'{len(problems)} DISAGREE'}")
    print("\n".join(out))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
