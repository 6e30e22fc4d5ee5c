#!/usr/bin/env python3
"""Reproduce Richard Pavlicek's opening-lead simulations (rpbridge.net 8z06 and 8z09).

Both are 4H by South after 1S (South) - 1NT (North, forcing, 6-12) - 2H - 4H, the West
hand fixed, 10,000 deals with the other hands "constrained to fit the auction", every lead
scored double dummy; they differ in West's hearts (3-2 in 8z06, J-2 in 8z09).  His
constraints, as he lists them:

* South: 5+ spades; 4+ hearts; 13-14 total points; freakness at most 7;
* North: 4+ hearts; not 4+ spades; 11+ support points; and the range of the 1NT response
  (the auction's footnote: "forcing (6-12)"), read in his unit, total points.  Without it,
  or with the 6-12 read as high-card points, North-South are far stronger than his deals
  (0.9 and 0.4 tricks fewer to the defence at 400-1,000 deals); read as total points, his
  figures come back;
* East: "inappropriate hand for an overcall or takeout double".  8z07, the same auction
  with other North-South ranges, spells that out, and it is used here: longest suit under 7;
  longest under 6 or under 12 playing half-tricks; longest under 5 or under 14 playing
  half-tricks; longest under 5 or under 8 playing half-tricks in it; under 13 points or
  under 3 hearts or 3+ spades.

Total points, support points, freakness and playing tricks are his own counts
(:mod:`cardgames.evaluation`); the East rule is a batch predicate on numpy arrays.

Printed per lead: the defence's trick average, set percent (down at least one) and hold
percent (made exactly), each with its standard error, beside his published figures and the
difference in units of the standard error of a difference between two independent runs of
this size (his run has the same sampling error as ours); then each pair of leads: net W-L
(deals the first lead beats the second, less those it loses) per 10,000 deals, beside his.

The stored copy of his pages lost the suit symbols: the rows are his table's in the order
"leads compared: H2, D2, C2" of the series (8z07 names them), which his text confirms
(the trump lead worst, "leading from the longer jack" best).

Usage: ``python bench/bench_pavlicek.py [--deals 10000] [--seed 1] [--jobs 2]
[--study 8z09]``.  See bench/README.md for a recorded run.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass

import numpy as np
from bench_env import prefer_checkout, whole

prefer_checkout()

from cardgames.cards import SeatLike  # noqa: E402
from cardgames.constraints import Constraint, Predicate  # noqa: E402
from cardgames.evaluation import Features  # noqa: E402
from ddsolver import analyse_leads  # noqa: E402


def east_quiet(f: Features) -> np.ndarray:
    """8z07's East: no overcall or takeout double of 1S (a batch test)."""
    longest = f.lengths.max(axis=1)
    halves = f.playing_halves()
    pt = halves.sum(axis=1)
    in_longest = np.where(f.lengths == longest[:, None], halves, 0).max(axis=1)
    return ((longest < 7) & ((longest < 6) | (pt < 12)) & ((longest < 5) | (pt < 14))
            & ((longest < 5) | (in_longest < 8))
            & ((f.pavlicek_points() < 13) | (f.lengths[:, 1] < 3) | (f.lengths[:, 0] >= 3)))


CONSTRAINTS: dict[SeatLike, Constraint | str] = {
    "S": "5+ spades, 4+ hearts, 13-14 pp, freakness<=7",
    "N": "4+ hearts, spades<=3, 6-12 pp, 11+ support hearts",
    "E": Predicate(batch=east_quiet, name="no overcall or takeout double"),
}


@dataclass(frozen=True)
class Study:
    west: str
    url: str
    # lead -> (trick average, set %, hold %) as he publishes them
    his: dict[str, tuple[float, float, float]]
    # (better lead, worse lead) -> his net W-L over 10,000 deals
    his_pairs: dict[tuple[str, str], int]


STUDIES = {
    "8z09": Study("AJ92.J2.J32.J432", "http://www.rpbridge.net/8z09.htm",
                  {"H2": (3.2156, 38.44, 40.55), "D2": (3.2557, 40.81, 40.07),
                   "C2": (3.2782, 41.28, 40.75)},
                  {("C2", "H2"): 567, ("C2", "D2"): 201, ("D2", "H2"): 378}),
    "8z06": Study("AJ32.32.J32.J432", "http://rpbridge.net/8z06.htm",
                  {"H2": (3.0953, 31.68, 46.08), "D2": (3.1054, 31.92, 46.59),
                   "C2": (3.1288, 32.77, 46.95)},
                  {("C2", "H2"): 301, ("C2", "D2"): 217}),
}


def run(name: str, study: Study, deals: int, seed: int, jobs: int) -> bool:
    t0 = time.perf_counter()
    report = analyse_leads(study.west, "4H", "S", "none", constraints=CONSTRAINTS,
                           samples=deals, seed=seed, jobs=jobs, keep_deals=False)
    wall = time.perf_counter() - t0
    tricks = report.card_tricks
    assert tricks is not None
    column = {str(c): j for j, c in enumerate(report.hand_cards)}
    n = tricks.shape[0]
    print(f"\n{name}: West {study.west}, 4H by South, {n:,} deals, seed {seed}, "
          f"{report.acceptance_rate:.4%} of random deals accepted, {wall:.0f} s on {jobs} "
          f"thread(s)  ({study.url})")
    print(f"{'lead':<5} {'tricks':>16} {'his':>7} {'z':>5}   {'set %':>13} {'his':>6} {'z':>5}"
          f"   {'hold %':>13} {'his':>6} {'z':>5}")
    worst = 0.0
    for lead, (h_avg, h_set, h_hold) in study.his.items():
        t = tricks[:, column[lead]].astype(float)
        avg, se = t.mean(), t.std(ddof=1) / math.sqrt(n)
        row = [f"{lead:<5} {avg:9.4f} ±{se:.4f} {h_avg:7.4f} {(avg - h_avg) / (se * 2 ** .5):+5.1f}"]
        for flag, his in ((t >= 4, h_set), (t == 3, h_hold)):
            p = flag.mean()
            pse = math.sqrt(p * (1 - p) / n)
            z = (100 * p - his) / (100 * pse * 2 ** .5)
            worst = max(worst, abs(z))
            row.append(f"{100 * p:7.2f} ±{100 * pse:4.2f} {his:6.2f} {z:+5.1f}")
        worst = max(worst, abs((avg - h_avg) / (se * 2 ** .5)))
        print("   ".join(row))
    print(f"{'pair':<9} {'net W-L':>14} {'his':>6} {'z':>5}")
    for (a, b), his in study.his_pairs.items():
        d = np.sign(tricks[:, column[a]].astype(int) - tricks[:, column[b]].astype(int))
        net = d.sum() * 10_000 / n
        se = d.std(ddof=1) * math.sqrt(n) * 10_000 / n
        z = (net - his) / (se * 2 ** .5)
        print(f"{a} vs {b} {net:+9.0f} ±{se:3.0f} {his:+6d} {z:+5.1f}")
    print(f"largest |z| of the trick, set and hold figures: {worst:.1f}", flush=True)
    return worst < 3


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=whole(1), default=10_000)
    ap.add_argument("--seed", type=whole(0), default=1)
    ap.add_argument("--jobs", type=whole(1), default=2)
    ap.add_argument("--study", choices=sorted(STUDIES), action="append",
                    help="which study (default: all)")
    args = ap.parse_args()
    ok = True
    for name in args.study or sorted(STUDIES, reverse=True):
        ok &= run(name, STUDIES[name], args.deals, args.seed, args.jobs)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
