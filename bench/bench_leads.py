#!/usr/bin/env python3
"""Benchmark the Monte-Carlo opening-lead analysis against the same work done with DDS.

The work: deal the three hidden hands at random around a known opening leader's hand,
under constraints, and score every opening lead of each deal double-dummy.

* ours: ``ddsolver.analyse_leads(..., samples=N, jobs=1)`` and ``jobs=2``, end to end
  (dealing with :mod:`cardgames.sampling`, one all-card solve per deal, the statistics);
* DDS: endplay's ``generate_deals`` (its dealer, same constraints in dealer syntax, the
  leader's hand predealt) plus endplay's ``solve_board`` (DDS SolveBoard, all cards), with
  DDS limited to one thread.

The deals go in chunks (``--chunk``, default 20); within each chunk the three pipelines run
one after the other, ours first on even chunks and DDS first on odd ones, so a change in the
machine's load falls on all of them alike.

Printed: samples per second of each (wall clock, and per CPU second, which is the steadier
figure for the one-thread pipelines on a busy machine) and the ratio ours / DDS (higher is
better for us; the target is at least 1.0), and, to show where the time goes, the two halves
separately:
dealing alone, and solving alone on the *same* deals (ours from the analysis, DDS given
our deals), whose answers are checked card by card (exit 1 on any disagreement).

Usage: ``python bench/bench_leads.py [--samples N] [--seed S] [--scenario NAME] [--quick]``.
Exit status 2 when it cannot run (no endplay, no built ddsolver).  See bench/README.md.
"""

from __future__ import annotations

import argparse
import platform
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from bench_env import cpus, die, git_revision, load_average, load_averages, prefer_checkout, whole
from dds_peer import Dds

if TYPE_CHECKING:
    from cardgames.cards import SeatLike
    from ddsolver.leads import LeadReport

# name: (leader's hand, contract, declarer, our constraints, the same in dealer syntax)
SCENARIOS: dict[str, tuple[str, str, str, dict[SeatLike, str], str | None]] = {
    "constrained": ("KQ72.J83.T94.A65", "4S", "S",
                    {"S": "5+ spades, 12+ hcp", "N": "3+ spades, 6+ hcp"},
                    "hcp(south) >= 12 && spades(south) >= 5 && "
                    "hcp(north) >= 6 && spades(north) >= 3"),
    "notrump": ("KQ72.J83.T94.A65", "3NT", "S",
                {"S": "15-17 hcp, balanced", "N": "9-15 hcp"},
                "hcp(south) >= 15 && hcp(south) <= 17 && shape(south, any 4333 + any 4432 + "
                "any 5332) && hcp(north) >= 9 && hcp(north) <= 15"),
    "free": ("KQ72.J83.T94.A65", "4S", "S", {}, None),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=whole(1), default=None, help="deals per run (default 100)")
    parser.add_argument("--seed", type=whole(0), default=1, help="seed of both dealers (default 1)")
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="constrained")
    parser.add_argument("--quick", action="store_true", help="20 deals")
    parser.add_argument("--chunk", type=whole(1), default=20,
                        help="deals per chunk; the pipelines alternate chunk by chunk "
                             "(default 20)")
    args = parser.parse_args(argv)
    n = args.samples or (20 if args.quick else 100)

    prefer_checkout()
    try:
        import ddsolver
        from cardgames import Seat, Strain
        from cardgames.sampling import Sampler
        from ddsolver.leads import analyse_leads
    except ImportError as err:
        die(f"ddsolver does not import ({err}); build it with "
            f"`python setup.py build_ext --inplace`")
    try:
        dds = Dds()  # one thread, the count read back
    except ImportError as err:
        die(str(err))

    hand, contract, declarer, constraints, dealer_expr = SCENARIOS[args.scenario]
    if dds.threads not in (None, 1):
        die(f"DDS reports {dds.threads} threads after SetMaxThreads(1)")
    decl = Seat.parse(declarer)
    leader = decl.lho
    strain = Strain.parse(contract[1:])

    print(f"command   : {' '.join(shlex.quote(a) for a in [sys.argv[0], *(argv or sys.argv[1:])])}")
    print(f"ddsolver  : {Path(ddsolver.__file__).parent} (git {git_revision()}); endplay "
          f"{dds.endplay_version}, DDS {dds.version}, threads {dds.threads}")
    print(f"machine   : {platform.processor() or platform.machine()}, {cpus()} CPUs, "
          f"load average {' '.join(f'{x:.2f}' for x in load_averages())}")
    cons_text = "; ".join(f"{k}: {v}" for k, v in constraints.items()) or "none"
    print(f"problem   : {leader.letter} leads from {hand} against {contract} by {declarer}; "
          f"constraints {cons_text}; {n} deals, seed {args.seed}")
    print()

    dealer_args = [dealer_expr] if dealer_expr else []
    predeal = dds.endplay_deal(f"{leader.letter}:{hand} - - -")

    def ours(jobs: int, k: int, seed: int) -> LeadReport:
        return analyse_leads(hand, contract, declarer, "none", constraints=constraints,
                             samples=k, seed=seed, jobs=jobs)

    def dds_pipeline(k: int, seed: int) -> float:
        """endplay's dealer then SolveBoard for every card; returns the dealing time."""
        start = time.perf_counter()
        edeals = dds.generate_deals(*dealer_args, predeal=predeal, produce=k, seed=seed)
        t_gen = time.perf_counter() - start
        for d in edeals:
            dds.set_contract(d, strain, leader)
            dds.solve_all(d)
        return t_gen

    # warm-up: first-call costs (imports, table allocation) out of the timed runs
    ours(1, 2, args.seed + 10_000)
    dds_pipeline(2, args.seed + 10_000)

    # Chunks of deals, the pipelines alternating within each (ours first on even chunks,
    # DDS first on odd), so that a change in the machine's load hits all of them alike.
    wall = {"ours1": 0.0, "ours2": 0.0, "dds": 0.0}
    cpu = dict(wall)
    t_gen = t_our_gen = t_same = 0.0
    same = True
    bad = 0
    done = 0
    chunk_no = 0
    acceptance = []
    while done < n:
        k = min(args.chunk, n - done)
        seed = args.seed * 1000 + chunk_no
        reports = {}

        def run_ours(jobs: int) -> None:
            w, c = time.perf_counter(), time.process_time()
            reports[jobs] = ours(jobs, k, seed)
            wall[f"ours{jobs}"] += time.perf_counter() - w
            cpu[f"ours{jobs}"] += time.process_time() - c

        def run_dds() -> None:
            nonlocal t_gen
            w, c = time.perf_counter(), time.process_time()
            t_gen += dds_pipeline(k, seed)
            wall["dds"] += time.perf_counter() - w
            cpu["dds"] += time.process_time() - c

        steps = [lambda: run_ours(1), lambda: run_ours(2), run_dds]
        for step in (steps if chunk_no % 2 == 0 else steps[::-1]):
            step()
        rep1, rep2 = reports[1], reports[2]
        # analyse_leads always returns each deal's tricks (only the deals are optional)
        assert rep1.card_tricks is not None and rep2.card_tricks is not None
        same &= rep1.rows == rep2.rows and bool((rep1.card_tricks == rep2.card_tricks).all())
        acceptance.append(rep1.acceptance_rate)

        # the halves: our dealer alone, and DDS solving our deals (checked against ours)
        start = time.perf_counter()
        Sampler({leader: hand}, constraints, seed=seed).sample(k)
        t_our_gen += time.perf_counter() - start
        for i, deal in enumerate(rep1.deals):
            ed = dds.endplay_deal(deal.to_pbn(), strain, leader)
            start = time.perf_counter()
            solved = dds.solve_all(ed)
            t_same += time.perf_counter() - start
            theirs = dds.endplay_scores(solved)
            mine = dict(zip(rep1.hand_cards, (int(x) for x in rep1.card_tricks[i])))
            if theirs != mine:
                bad += 1
                print(f"DISAGREEMENT on {deal.to_pbn()}: ours {mine}, DDS {theirs}",
                      file=sys.stderr)
        done += k
        chunk_no += 1
        print(f"  {done}/{n} deals", file=sys.stderr)

    rate = {key: n / t for key, t in wall.items()}
    cpu_rate = {key: n / t for key, t in cpu.items()}
    print(f"{'pipeline':<44}{'deals/s':>9}{'wall s':>9}{'cpu s':>9}{'deals/cpu-s':>12}")
    for key, name in (("ours1", "ours, analyse_leads jobs=1"),
                      ("ours2", "ours, analyse_leads jobs=2"),
                      ("dds", "DDS: endplay generate_deals + solve_board")):
        print(f"{name:<44}{rate[key]:>9.2f}{wall[key]:>9.2f}{cpu[key]:>9.2f}"
              f"{cpu_rate[key]:>12.2f}")
    print(f"  (DDS pipeline: dealing {t_gen:.2f} s, solving {wall['dds'] - t_gen:.2f} s)")
    print()
    print(f"ratio ours/DDS in deals per second (target >= 1.0): "
          f"jobs=1 {rate['ours1'] / rate['dds']:.2f}, jobs=2 {rate['ours2'] / rate['dds']:.2f}")
    print(f"ratio ours/DDS in deals per CPU second, jobs=1 (steadier on a busy machine): "
          f"{cpu_rate['ours1'] / cpu_rate['dds']:.2f}")
    print(f"jobs=2 over jobs=1: wall time {wall['ours2'] / wall['ours1']:.2f}, cpu/wall with "
          f"2 jobs {cpu['ours2'] / wall['ours2']:.2f}")
    print(f"dealing alone, {n} deals: ours {t_our_gen:.3f} s, endplay {t_gen:.2f} s "
          f"(ours {t_gen / t_our_gen:.0f}x faster)")
    our_solve = wall["ours1"] - t_our_gen
    print(f"solving alone, the same {n} deals (jobs=1 analysis minus our dealing): ours "
          f"{our_solve / n * 1000:.0f} ms/deal, DDS {t_same / n * 1000:.0f} ms/deal, "
          f"ratio ours/DDS time {our_solve / t_same:.2f}")
    print(f"jobs=1 and jobs=2 reports identical: {same}; acceptance rate "
          f"{100 * sum(acceptance) / len(acceptance):.3g}%")
    load = load_average()
    if load > cpus():
        print(f"the machine is busy (load average {load:.2f} on {cpus()} CPUs): wall "
              f"times are noisy and jobs=2 cannot show a speed-up")
    print(f"answers checked against DDS on {n} deals: {n - bad} agree, {bad} disagree")
    return 1 if bad or not same else 0


if __name__ == "__main__":
    sys.exit(main())
