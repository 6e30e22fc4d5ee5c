"""Boards per second of ``ddsolver table`` (the whole command-line pipeline) next to DDS's
``CalcAllTables`` on the same boards, in the same run.

The boards are seeded random deals (shuffled and dealt as ``data/make_session.py`` does),
written to a temporary PBN file with the standard dealer and vulnerability rotation.
``ddsolver table FILE --format json -o OUT --jobs J -q`` then runs in this process through
``ddsolver.cli.main``: reading the PBN, the tables, par and the JSON writer are all timed,
as a user running the command sees them.  DDS solves the same deals through
``endplay.dds.calc_all_tables`` (CalcAllTables, DDS's own batch entry point), with DDS's
thread count set to J by ``SetMaxThreads``; its time includes endplay's conversions.

Every table we write is compared with DDS's; a disagreement is printed and the exit
status is 1.  Exit status 2: endplay or the compiled ddsolver is missing.

    python bench/bench_cli.py                 # 100 deals, jobs 1 and 2
    python bench/bench_cli.py --deals 24 --jobs 1,2,4 --seed 7
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from bench_deals import shuffled_deals, write_pbn
from bench_env import cpus, die, git_revision, load_average, measured_root, prefer_checkout, whole
from dds_peer import SEAT_LETTERS, STRAIN_LETTERS, Dds

if TYPE_CHECKING:
    from cardgames import Deal

prefer_checkout()  # measure this checkout, not an installed copy
try:
    from ddsolver import cli
except ImportError as err:  # pragma: no cover - an unbuilt checkout
    die(f"cannot import ddsolver ({err}); build it with `python setup.py build_ext --inplace`")


def time_dds(dds: Dds, deals: list[Deal]
             ) -> tuple[tuple[float, float], list[dict[str, dict[str, int]]]]:
    """Wall and CPU seconds of DDS's CalcAllTables on ``deals`` (on the threads last set),
    endplay's conversions included, and the tables as ``{seat: {strain: tricks}}``, the
    layout of our JSON output."""
    edeals = [dds.endplay_deal(d.to_pbn()) for d in deals]  # built before the clock
    start, cpu = time.perf_counter(), time.process_time()
    results = dds.all_tables(edeals)
    elapsed = (time.perf_counter() - start, time.process_time() - cpu)
    out = []
    for table in results:
        rows = dds.endplay_table_rows(table)
        out.append({seat: {strain: rows[d][s] for s, strain in enumerate(STRAIN_LETTERS)}
                    for d, seat in enumerate(SEAT_LETTERS)})
    return elapsed, out


def run_ours(pbn_path: Path, out_path: Path, jobs: int, tt_mb: int | None
             ) -> tuple[float, float]:
    """Wall and CPU seconds (all threads of this process) of one ``ddsolver table`` run."""
    argv = ["table", str(pbn_path), "--format", "json", "-o", str(out_path), "--jobs",
            str(jobs), "-q"]
    if tt_mb is not None:
        argv += ["--tt-mb", str(tt_mb)]
    start, cpu = time.perf_counter(), time.process_time()
    status = cli.main(argv)
    elapsed = (time.perf_counter() - start, time.process_time() - cpu)
    if status != 0:
        die(f"ddsolver table exited with status {status}", 1)
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # 100 deals: boards per second is a throughput, and the per-deal ratio to DDS ranges
    # from 0.5 to 1.5 on random deals, so a few dozen deals give a figure that moves with
    # the sample (seed 1's first 24 deals: 0.87 of DDS's time; its first 100: 0.71).
    parser.add_argument("--deals", type=whole(1), default=100, help="random deals (default 100)")
    parser.add_argument("--seed", type=whole(0), default=1, help="seed of the deals (default 1)")
    parser.add_argument("--jobs", default="1,2",
                        help="comma-separated job counts to time (default 1,2)")
    parser.add_argument("--tt-mb", type=whole(1), default=None,
                        help="our transposition-table size per thread (default: ddsolver's)")
    args = parser.parse_args(argv)
    try:
        jobs_list = [int(j) for j in args.jobs.split(",") if j.strip()]
    except ValueError:
        parser.error(f"--jobs: whole numbers separated by commas, not {args.jobs!r}")
    if args.deals < 1 or not jobs_list or min(jobs_list) < 1:
        die("--deals and every --jobs value must be at least 1")

    command = " ".join(["python", "bench/bench_cli.py",
                        *(argv if argv is not None else sys.argv[1:])])
    try:
        dds = Dds()
    except ImportError as err:
        die(str(err))
    deals = shuffled_deals(args.seed, args.deals)
    disagreements = 0
    rows: list[tuple[int, tuple[float, float], tuple[float, float]]] = []
    with tempfile.TemporaryDirectory(prefix="bench_cli_") as tmp:
        pbn_path = Path(tmp) / "boards.pbn"
        write_pbn(deals, pbn_path)
        # Warm-up outside the timing: import paths, first solver allocation, DDS init.
        warm = Path(tmp) / "warm.pbn"
        write_pbn(shuffled_deals(args.seed + 10_000, 1), warm)
        run_ours(warm, Path(tmp) / "warm.json", 1, args.tt_mb)
        dds.set_threads(1)
        time_dds(dds, shuffled_deals(args.seed + 10_000, 1))

        for i, jobs in enumerate(jobs_list):
            out_path = Path(tmp) / f"ours-{jobs}.json"
            dds.set_threads(jobs)
            # Alternate who goes first, so that neither always runs on a warmer machine.
            if i % 2 == 0:
                t_dds, dds_tables = time_dds(dds, deals)
                t_ours = run_ours(pbn_path, out_path, jobs, args.tt_mb)
            else:
                t_ours = run_ours(pbn_path, out_path, jobs, args.tt_mb)
                t_dds, dds_tables = time_dds(dds, deals)
            records = json.loads(out_path.read_text())
            if len(records) != len(deals):
                print(f"jobs {jobs}: {len(records)} tables written for {len(deals)} deals",
                      file=sys.stderr)
                disagreements += 1
            for board, (record, theirs) in enumerate(zip(records, dds_tables), 1):
                if record["dd"] != theirs:
                    disagreements += 1
                    print(f"DISAGREEMENT jobs {jobs} board {board} {record['deal']}:\n"
                          f"  ours {record['dd']}\n  DDS  {theirs}", file=sys.stderr)
            rows.append((jobs, t_ours, t_dds))

    n = len(deals)
    load = load_average()
    print(f"command: {command}")
    print(f"ddsolver {git_revision()} ({measured_root()}), endplay {dds.endplay_version}, Python "
          f"{platform.python_version()}, {cpus()} CPUs, load average {load:.2f}")
    print(f"{n} random deals (seed {args.seed}); ours = `ddsolver table --format json` "
          "end to end (PBN in, tables + par, JSON out); DDS = CalcAllTables via endplay")
    print()
    print(f"{'jobs':>4}  {'ours boards/s':>13}  {'DDS boards/s':>12}  {'ours/DDS wall':>13}"
          f"  {'ours/DDS cpu':>12}  {'ours s':>7}  {'DDS s':>7}  {'ours cpu/wall':>13}"
          f"  {'DDS cpu/wall':>12}")
    for jobs, (w_ours, c_ours), (w_dds, c_dds) in rows:
        print(f"{jobs:>4}  {n / w_ours:>13.2f}  {n / w_dds:>12.2f}  {w_ours / w_dds:>13.2f}"
              f"  {c_ours / c_dds:>12.2f}  {w_ours:>7.2f}  {w_dds:>7.2f}  "
              f"{c_ours / w_ours:>13.2f}  {c_dds / w_dds:>12.2f}")
    if len(rows) > 1:
        base = rows[0]
        for jobs, t_ours, t_dds in rows[1:]:
            print(f"speed-up jobs {jobs} over jobs {base[0]} (wall): ours "
                  f"{base[1][0] / t_ours[0]:.2f}x, DDS {base[2][0] / t_dds[0]:.2f}x")
    print("cpu/wall near the job count means every thread really ran at once; the cpu "
          "ratio is the steadier figure on a busy machine")
    if load > cpus():
        print("note: the machine is busy (load average above the CPU count); wall times "
              "and speed-ups are noisy")
    print(f"answers: {'all tables agree with DDS' if not disagreements else f'{disagreements} DISAGREEMENTS'}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
