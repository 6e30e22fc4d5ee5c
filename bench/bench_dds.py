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
* ``nodes``   the trick-start nodes of each solver's table (DDS's own table loop), and the
              time per node;
* ``largest`` every board of DDS's ``largest.txt`` (hard hands): table and all leads;
* ``jobs``    ``ddsolver.dd_tables`` on 2 threads against 1 (needs the facade).

Every answer of ours is checked against DDS's; any disagreement is printed loudly and the
exit status is 1.  Exit status 2 means the benchmark could not run (missing endplay, data
file or solver).

The ddsolver package never imports endplay; only the benchmarks do, through
``dds_peer.py``.  Beside this script: ``our_solver.py`` (ddsolver as timed here),
``bench_deals.py`` (the deals), ``bench_dds_report.py`` (the summary printed).
Run ``python bench/bench_dds.py --help`` for the options, and see bench/README.md.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from bench_dds_report import Run, Sample, Section, report
from bench_deals import DEFAULT_LARGEST, random_boards, read_dds_txt
from bench_env import BENCH, ROOT, die, load_average, peak_rss_mb, prefer_checkout, say, whole
from dds_peer import SEAT_LETTERS, STRAIN_LETTERS, Dds, masks
from our_solver import Ours

if TYPE_CHECKING:
    from cardgames import Card, Deal

SECTIONS = ("table", "lead", "solve", "nodes", "largest", "jobs")


# ---- measurements ---------------------------------------------------------------------------

@dataclass
class Timing:
    wall: float
    cpu: float
    result: Any       # the answer (ours or DDS's raw result), or the exception ours raised


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


T = TypeVar("T")


def _progress(iterable: Iterable[T], desc: str, total: int) -> Iterator[T]:
    from tqdm import tqdm
    return tqdm(iterable, desc=f"{desc:<13}", total=total, file=sys.stderr, unit="deal",
                mininterval=1.0, dynamic_ncols=True)


def _table_text(rows: Sequence[Sequence[int]]) -> str:
    return " ".join(f"{SEAT_LETTERS[d]}:" + ",".join(str(rows[d][s]) for s in range(5))
                    for d in range(4))


def _diff_scores(ours: dict[Card, int], dds: dict[Card, int]) -> str:
    keys = sorted(set(ours) | set(dds), key=lambda c: c.index)
    return ", ".join(f"{c}: ours {ours.get(c, '-')} DDS {dds.get(c, '-')}"
                     for c in keys if ours.get(c) != dds.get(c))


def check_table(run: Run, where: str, ours: Any, dds_rows: tuple[tuple[int, ...], ...]) -> None:
    if isinstance(ours, Exception):
        run.disagree(f"{where}: ours raised {type(ours).__name__}: {ours}")
    elif tuple(map(tuple, ours)) != dds_rows:
        run.disagree(f"{where}: table differs (rows declarer N E S W, strains S H D C NT)\n"
                     f"    ours {_table_text(ours)}\n    DDS  {_table_text(dds_rows)}")


def check_lead(run: Run, where: str, ours: Any, dds_scores: dict[Card, int]) -> None:
    if isinstance(ours, Exception):
        run.disagree(f"{where}: ours raised {type(ours).__name__}: {ours}")
    elif dict(ours) != dds_scores:
        run.disagree(f"{where}: lead scores differ: {_diff_scores(dict(ours), dds_scores)}")


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
    hands = masks(deal)
    leader = (declarer + 1) & 3
    ours.table(deal)
    ours.lead(deal, strain, leader)
    ours.solve(deal, strain, declarer)
    dds.table(dds.table_input(hands))
    dl = dds.board_input(hands, strain, leader)
    dds.solve_board(dl, 3)
    dds.solve_board(dl, 1)
    if not dds.encodes_like_endplay(deal):
        die("the deal encoding for DDS does not match endplay's own parser; fix the harness")

    def forget() -> None:
        ours.solve(deal, strain, declarer)
        dds.solve_board(dl, 1)
        gc.collect()
    return forget


def bench_random(run: Run, ours: Ours, dds: Dds, boards: list[tuple[Deal, int, int]],
                 sections: set[str], forget: Callable[[], None], repeat: int) -> None:
    """Sections table, lead, solve on the random boards, one section after another, so
    that consecutive questions are always about different deals."""
    if "table" in sections:
        forget()
        sec = Section("table")
        nodes: dict[int, int] = {}  # deal -> nodes of its first table (repeats search again)

        def table(i: int, deal: Deal) -> tuple[tuple[int, ...], ...]:
            n0 = ours.nodes
            rows = ours.table(deal)
            if n0 is not None:
                n1 = ours.nodes
                assert n1 is not None  # the core counted nodes before the table
                nodes.setdefault(i, n1 - n0)
            return rows
        for i, (deal, _, _) in enumerate(_progress(boards, "table", len(boards))):
            tdl = dds.table_input(masks(deal))
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
            dl = dds.board_input(masks(deal), strain, leader)
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
            dl = dds.board_input(masks(deal), strain, (declarer + 1) & 3)
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


def bench_nodes(run: Run, ours: Ours, dds: Dds, boards: list[tuple[Deal, int, int]],
                forget: Callable[[], None]) -> None:
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
        hands = masks(deal)
        before = ours.trick_nodes
        c0 = time.process_time()
        rows = ours.table(deal)
        ours_cpu += time.process_time() - c0
        after = ours.trick_nodes
        for k in range(14):
            by_left[k] += after[k] - before[k]
        ours_nodes.append(sum(after) - sum(before))
        c0 = time.process_time()
        got = dds.table_nodes(hands)
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


def rss_per_thread(tt_mb: int, deals: int = 3) -> tuple[float, float] | None:
    """Memory a single-threaded solver adds to a fresh process, ours and DDS's, in MB: each
    in its own child process, its resident size after solving ``deals`` tables less its size
    before the solver was made.  (Resident size, not ru_maxrss: on Linux a child inherits
    its parent's peak, which would hide the child's own.  Neither solver gives memory back
    between tables, so the size after them is their peak.)"""
    # Everything is imported before the first reading, so the difference is the solver's.
    common = ("import sys; sys.path[:0] = [{root!r}, {bench!r}]; "
              "from bench_deals import random_boards; from bench_env import rss_kb; "
              "from dds_peer import Dds, load_endplay, masks; "
              "import ddsolver; load_endplay(); "
              "boards = random_boards(99, {n}); "
              "r0 = rss_kb(); ")
    ours_code = common + ("s = ddsolver.Solver({tt}); "
                          "[s.dd_table(d) for d, _, _ in boards]; ")
    dds_code = common + ("dds = Dds(threads=1); "
                         "[dds.table(dds.table_input(masks(d))) for d, _, _ in boards]; ")
    tail = "print((rss_kb() - r0) / 1024)"
    out = []
    for code in (ours_code, dds_code):
        text = code.format(root=str(ROOT), bench=str(BENCH), n=deals, tt=tt_mb) + tail
        try:
            done = subprocess.run([sys.executable, "-c", text], capture_output=True,
                                  text=True, timeout=300, check=True)
            out.append(float(done.stdout.strip().splitlines()[-1]))
        except (subprocess.SubprocessError, ValueError, IndexError) as err:
            say(f"note: peak RSS per thread not measured ({type(err).__name__})")
            return None
    return out[0], out[1]


# ---- largest.txt ---------------------------------------------------------------------------

def bench_largest(run: Run, ours: Ours, dds: Dds, path: Path, limit: int | None,
                  forget: Callable[[], None], repeat: int) -> None:
    """Every board's table, then every board's opening leads, each question preceded by
    ``forget()``: largest.txt repeats deals (boards 7-8, 12-15 and 17-18, sometimes with
    another leader), and a solver asked about the same deal twice in a row may answer the
    second time from its transposition table in no time."""
    try:
        boards = read_dds_txt(path)
    except (OSError, ValueError) as err:
        die(str(err))
    if limit is not None:
        boards = boards[:limit]
    tables, leads = Section("largest table"), Section("largest lead")
    first_seen: dict[Deal, int] = {}
    repeats: dict[str, str] = {}
    tables.extra["repeats"] = repeats
    for b in boards:
        if b.deal in first_seen:
            repeats[f"largest #{b.number}"] = f"#{first_seen[b.deal]}"
        else:
            first_seen[b.deal] = b.number
    for i, b in enumerate(_progress(boards, "largest table", len(boards))):
        forget()
        pbn, label = b.deal.to_pbn(), f"largest #{b.number}"
        tdl = dds.table_input(masks(b.deal))
        o, d = race(i, lambda: ours.table(b.deal), lambda: dds.table(tdl), forget, repeat)
        x = sample(label, pbn, "table", o, d)
        tables.samples.append(x)
        dds_rows = dds.table_rows(d.result)
        check_table(run, f"{label} {pbn}", o.result, dds_rows)
        if dds_rows != b.table:  # the harness itself, not our solver
            say(f"warning: {label}: DDS's table differs from the one in {path.name}")
        say(f"{label:<12} table {x.ours * 1e3:8.0f} ms / DDS {x.dds * 1e3:7.0f} ms = "
             f"{x.ratio:5.2f} (cpu {x.cpu_ratio:5.2f})")
    for i, b in enumerate(_progress(boards, "largest lead", len(boards))):
        forget()
        pbn, label = b.deal.to_pbn(), f"largest #{b.number}"
        dl = dds.board_input(masks(b.deal), b.trump, b.first)
        o, d = race(i, lambda: ours.lead(b.deal, b.trump, b.first),
                    lambda: dds.solve_board(dl, 3), forget, repeat)
        what = f"lead {SEAT_LETTERS[b.first]}, trump {STRAIN_LETTERS[b.trump]}"
        x = sample(label, pbn, what, o, d)
        leads.samples.append(x)
        dds_scores = dds.lead_scores(d.result)
        check_lead(run, f"{label} {pbn} ({what})", o.result, dds_scores)
        if dds_scores != b.fut:
            say(f"warning: {label}: DDS's lead scores differ from the FUT line in {path.name}")
        say(f"{label:<12} lead  {x.ours * 1e3:8.0f} ms / DDS {x.dds * 1e3:7.0f} ms = "
             f"{x.ratio:5.2f} (cpu {x.cpu_ratio:5.2f})")
    run.sections += [tables, leads]


# ---- dd_tables on 2 threads -----------------------------------------------------------------

def bench_jobs(run: Run, ours: Ours, dds: Dds, boards: list[tuple[Deal, int, int]],
               reference: dict[int, tuple]) -> None:
    """Wall time of ``dd_tables(deals, jobs=2)`` over ``jobs=1`` on the same deals; the
    answers are checked against DDS (tables from the table section, or solved here).

    Timed in the order 1, 2, 2, 1 and compared as sums: a host whose speed drifts during
    the section (other tenants of the machine) then weighs on both job counts alike,
    instead of on whichever ran second."""
    assert ours.dd_tables is not None  # main skips this section without the facade's
    deals = [deal for deal, _, _ in boards]
    sec = Section("jobs")
    for i, deal in enumerate(deals):
        if i not in reference:
            reference[i] = dds.table_rows(dds.table(dds.table_input(masks(deal))))
    walls, cpus = {1: 0.0, 2: 0.0}, {1: 0.0, 2: 0.0}
    rounds: list[tuple[int, float]] = []
    for jobs in (1, 2, 2, 1):
        say(f"jobs: dd_tables on {len(deals)} deals, jobs={jobs} ...")
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
    p.add_argument("--jobs-deals", type=whole(1), default=None,
                   help="deals for the jobs section, the first of the random deals "
                        "(default 40; 10 with --quick)")
    p.add_argument("--nodes-deals", type=whole(1), default=None,
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
    prefer_checkout()
    for name in ("tqdm", "cardgames"):
        try:
            importlib.import_module(name)
        except ImportError as err:
            die(f"{err}; install the project with `pip install '.[bench]'`")
    if "largest" in args.sections and not args.largest_file.exists():
        if args.only != ",".join(SECTIONS):  # asked for by name: an error
            die(f"{args.largest_file} not found (give --largest-file)")
        say(f"warning: {args.largest_file} not found; the largest section is skipped")
        args.sections.discard("largest")

    try:
        dds = Dds()
    except ImportError as err:
        die(str(err))
    if dds.threads not in (None, 1):
        die(f"DDS still reports {dds.threads} threads after SetMaxThreads(1)")
    try:
        ours = Ours(args.tt_mb)
    except ImportError as err:
        die(str(err))
    if ours.facade_error:
        say(f"note: the facade did not import ({ours.facade_error}); timing the raw core")
    env: dict[str, Any] = {"sections": args.sections, "rss_start": peak_rss_mb(),
                           "load": [load_average()]}
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
            say("note: dd_tables is not available; jobs section skipped")
        else:
            bench_jobs(run, ours, dds, boards[:args.jobs_deals], run.dds_tables)

    env["rss_per_thread"] = rss_per_thread(ours.tt_mb)
    try:
        sys.path.insert(0, str(BENCH))
        from signature import signature
        env["signature"] = signature()[0]
    except Exception as err:  # an unfinished checkout: the summary just leaves it out
        say(f"note: node signature not computed ({type(err).__name__}: {err})")
    shown = [sys.executable, *sys.argv] if from_command_line else ["bench_dds.py", *argv]
    report(run, ours, dds, args, shown, env)
    return 1 if run.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
