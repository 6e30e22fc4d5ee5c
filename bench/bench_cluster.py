"""What a Dask cluster costs on one machine, and what it should give on many: ``ddsolver
table`` on ``--scheduler`` (a ``LocalCluster`` of 1 and 2 worker processes, one thread
each) against ``--jobs 1`` and ``--jobs 2``, in the same run, on the same seeded deals.

Measured, in this process through ``ddsolver.cli.main`` (reading the PBN, par and the JSON
writer timed with the solving, as a user sees them):

* boards/s of ``--jobs 1``, ``--jobs 2``, ``--scheduler local:1`` and ``local:2`` (the
  cluster started before the clock, as a cluster one already runs; its start-up is printed
  apart), in rounds whose order rotates, so a change in the machine's load falls on all;
  every output is compared byte for byte with ``--jobs 1``'s (exit status 1 if one differs);
* the client's own ceiling: boards/s of a run whose tables are all in the ``--db`` store
  (reading, store, par and writing; no solving);
* the scheduler's cost of a task: the round trip of many empty tasks on the 2-worker
  cluster (tasks/s, so seconds per task), and the time per task the workers spent in
  ddsolver's tasks (Dask's task stream);
* the bytes a board ships: the pickled task (deals as rank masks) and its result (20
  numbers a table), per board; and all the bytes on the loopback interface during the
  local:2 run (Dask's messages, heartbeats and all; Linux), per board;
* optionally (``--leads N``) the lead analysis: deals/s of ``analyse_leads`` with
  ``jobs=2`` against ``client=`` on local:2, the two reports compared.

From those figures it prints an estimate of the throughput on 10, 100 and 1,000 workers and
the chunk size that keeps the scheduler out of the way (bench/README.md explains the model).

    python bench/bench_cluster.py                   # 24 deals, one round
    python bench/bench_cluster.py --deals 48 --rounds 2 --leads 60
"""

from __future__ import annotations

import argparse
import logging
import pickle
import platform
import sys
import tempfile
import time
from pathlib import Path

from bench_deals import shuffled_deals, write_pbn
from bench_env import cpus, die, git_revision, load_average, prefer_checkout, whole
from dds_peer import masks

prefer_checkout()  # measure this checkout, not an installed copy
try:
    from ddsolver import analyse_leads, cli
    from ddsolver import cluster as ddcluster
except ImportError as err:  # pragma: no cover - an unbuilt checkout
    die(f"cannot import ddsolver ({err}); build it with `python setup.py build_ext --inplace`")
try:
    import distributed
except ImportError:
    die("Dask is needed: pip install -e '.[dask]'")


def run_table(pbn: Path, out: Path, *extra: str) -> float:
    argv = ["table", str(pbn), "--format", "json", "-o", str(out), "-q", *extra]
    start = time.perf_counter()
    status = cli.main(argv)
    elapsed = time.perf_counter() - start
    if status != 0:
        die(f"ddsolver {' '.join(argv)} exited with status {status}", 1)
    return elapsed


def start_cluster(workers: int) -> tuple[distributed.LocalCluster, distributed.Client, float]:
    start = time.perf_counter()
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                       processes=True, dashboard_address=":0",
                                       silence_logs=40)
    client = distributed.Client(cluster)
    client.wait_for_workers(workers)
    return cluster, client, time.perf_counter() - start


def scheduler_address(client: distributed.Client) -> str:
    """The address ``client`` reaches its scheduler at."""
    scheduler = client.scheduler
    # (None only before the client connects; this one was made on a started cluster)
    assert scheduler is not None and scheduler.address is not None
    return scheduler.address


def _noop(x: int) -> int:
    return x


def scheduler_round_trip(client: distributed.Client, tasks: int) -> float:
    """Seconds per empty task, submitted and gathered in one batch."""
    client.gather(client.map(_noop, range(50), pure=False))  # warm
    start = time.perf_counter()
    client.gather(client.map(_noop, range(tasks), pure=False))
    return (time.perf_counter() - start) / tasks


def loopback_bytes() -> int:
    """Bytes received on the loopback interface so far (Linux), or -1."""
    try:
        for line in Path("/proc/net/dev").read_text().splitlines():
            name, _, fields = line.partition(":")
            if name.strip() == "lo":
                return int(fields.split()[0])
    except OSError:
        pass
    return -1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=whole(1), default=24, help="random deals (default 24)")
    parser.add_argument("--seed", type=whole(0), default=1, help="seed of the deals (default 1)")
    parser.add_argument("--rounds", type=whole(1), default=1,
                        help="rounds of the four runs, the order rotating (default 1)")
    parser.add_argument("--noop-tasks", type=whole(1), default=2000,
                        help="empty tasks timed for the scheduler's cost (default 2000)")
    parser.add_argument("--leads", type=whole(0), default=0, metavar="N",
                        help="also time the lead analysis on N deals (default: not)")
    args = parser.parse_args(argv)
    for name in ("distributed", "tornado"):  # Dask's own log lines: not the figures
        logging.getLogger(name).setLevel(logging.CRITICAL)

    load, n_cpus = load_average(), cpus()
    print(f"bench_cluster: {args.deals} deals, seed {args.seed}, {args.rounds} round(s); "
          f"git {git_revision()}; Python {platform.python_version()}, dask "
          f"{distributed.__version__}; {n_cpus} CPUs, load average {load:.2f}"
          + ("  (busy machine: wall figures are noisy)" if load > n_cpus else ""))
    deals = shuffled_deals(args.seed, args.deals)
    status = 0
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        pbn = tmp / "boards.pbn"
        write_pbn(deals, pbn)
        clusters = {}
        for workers in (1, 2):
            cluster, client, started = start_cluster(workers)
            clusters[workers] = (cluster, client)
            print(f"LocalCluster of {workers} worker process(es) started in {started:.1f} s "
                  "(not in the figures below)")
        runs = {
            "--jobs 1": ("--jobs", "1"),
            "--jobs 2": ("--jobs", "2"),
            "local:1": ("--scheduler", scheduler_address(clusters[1][1])),
            "local:2": ("--scheduler", scheduler_address(clusters[2][1])),
        }
        times: dict[str, list[float]] = {name: [] for name in runs}
        names = list(runs)
        reference: bytes | None = None
        tasks: list[dict] = []
        lo_bytes = -1
        try:
            _, client2 = clusters[2]
            for r in range(args.rounds):
                order = names[r % len(names):] + names[:r % len(names)]
                for name in order:
                    out = tmp / f"{name.replace(' ', '').replace(':', '')}.json"
                    if name == "local:2" and r == 0:
                        lo_before = loopback_bytes()
                        with distributed.get_task_stream(client2) as stream:
                            times[name].append(run_table(pbn, out, *runs[name]))
                        lo_bytes = loopback_bytes() - lo_before
                        tasks = [t for t in stream.data
                                 if str(t.get("key", "")).startswith("_tables_task")]
                    else:
                        times[name].append(run_table(pbn, out, *runs[name]))
                    data = out.read_bytes()
                    if reference is None:  # round 0 starts with --jobs 1
                        reference = data
                    elif data != reference:
                        print(f"MISMATCH: the output of {name} differs from --jobs 1's")
                        status = 1

            rate = {name: args.deals / min(ts) for name, ts in times.items()}
            print()
            for name in names:
                print(f"  {name:<9} {rate[name]:7.2f} boards/s  (best of "
                      f"{len(times[name])}: {min(times[name]):.2f} s)")
            print(f"  local:1 / --jobs 1: {rate['local:1'] / rate['--jobs 1']:.2f};  "
                  f"local:2 / --jobs 2: {rate['local:2'] / rate['--jobs 2']:.2f}  "
                  "(target: 0.9 or more)")
            print("  outputs: " + ("all byte-identical to --jobs 1's" if status == 0
                                   else "DIFFER (see above)"))

            # The client alone: every table in the store.
            db = tmp / "store.sqlite"
            run_table(pbn, tmp / "fill.json", "--jobs", "2", "--db", str(db))
            client_time = run_table(pbn, tmp / "stored.json", "--jobs", "1", "--db", str(db))
            client_rate = args.deals / client_time
            print(f"  the client alone (all tables from --db): {client_rate:.0f} boards/s")

            # The scheduler.
            per_task = scheduler_round_trip(client2, args.noop_tasks)
            print(f"  empty tasks on local:2: {1 / per_task:.0f} tasks/s, "
                  f"{per_task * 1e3:.2f} ms a task (scheduler, client and workers on "
                  f"{n_cpus} CPUs)")
            durations = [sum(s["stop"] - s["start"] for s in t["startstops"]
                             if s["action"] == "compute") for t in tasks]
            chunk = ddcluster.chunk_size(client2)
            if durations:
                mean = sum(durations) / len(durations)
                print(f"  ddsolver's table tasks: {len(durations)} of up to {chunk} boards, "
                      f"{mean:.2f} s computing each on average ({mean / chunk * 1e3:.0f} ms "
                      "a board)")

            # Bytes a board ships.
            payload = [masks(d) for d in deals[:chunk]]
            sent = len(pickle.dumps((payload, 64), protocol=5))
            back = len(pickle.dumps([tuple(range(20))] * len(payload), protocol=5))
            print(f"  bytes a board ships: payload {sent / len(payload):.0f} out (16 rank "
                  f"masks) and {back / len(payload):.0f} back (20 numbers), pickled, at "
                  f"{chunk} a task")
            if lo_bytes >= 0:
                print(f"  all traffic on the loopback during the local:2 run (client, "
                      f"scheduler, workers; heartbeats and any other process's too): "
                      f"{lo_bytes / args.deals:,.0f} B a board")

            # The estimate.
            worker_rate = rate["local:1"]
            print("\n  estimate (each worker one thread as fast as local:1 here; the "
                  "client's ceiling and the scheduler's tasks/s as measured):")
            for workers in (10, 100, 1000):
                solve = workers * worker_rate
                size = -(-workers // ddcluster.THREADS_PER_BOARD)  # chunk_size's choice
                sched = size / per_task
                best = min(solve, client_rate, sched)
                need = workers * worker_rate * per_task / 0.1  # scheduler <= 10% busy
                limit = ("solving" if best == solve else
                         "the client (reading, store, writing)" if best == client_rate
                         else "the scheduler")
                print(f"    {workers:>5} workers: ~{best:,.0f} boards/s (limit: {limit}; "
                      f"chunks of {size}: scheduler {solve / size * per_task:.0%} busy); "
                      f"chunks of >= {max(1, round(need))} keep it under 10%")

            if args.leads:
                kwargs = dict(constraints={"S": "5+ spades, 12+ hcp"}, samples=args.leads,
                              seed=args.seed)
                hand = "KQ72.J83.T94.A65"
                start = time.perf_counter()
                local = analyse_leads(hand, "4S", "S", jobs=2, **kwargs)
                local_time = time.perf_counter() - start
                start = time.perf_counter()
                remote = analyse_leads(hand, "4S", "S", client=client2, **kwargs)
                remote_time = time.perf_counter() - start
                same = local.to_json() == remote.to_json()
                if not same:
                    status = 1
                print(f"\n  leads, {args.leads} deals: jobs=2 {args.leads / local_time:.1f} "
                      f"deals/s, local:2 {args.leads / remote_time:.1f} deals/s (ratio "
                      f"{local_time / remote_time:.2f}); reports "
                      + ("identical" if same else "DIFFER"))
        finally:
            for cluster, client in clusters.values():
                client.close()
                cluster.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
