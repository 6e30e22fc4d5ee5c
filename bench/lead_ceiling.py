#!/usr/bin/env python3
"""How much better could the lead advice get if the auction said more?  An upper bound.

For every board of a ``bench_lead_quality.py --results`` file, the hidden hands are dealt
again with some of them told exactly as the real deal has them -- each told hand's
pattern (its four suit lengths) and high-card points, its cards still random -- and the
leads are solved on those deals as the bench solves them.  What the recommended lead then
scores on the real deal (DDOLAR) bounds what any reading of the auction that says no more
than pattern and points could give:

    --know partner   the leader's partner's hand told (declarer and dummy random)
    --know shape     only the partner's pattern told, not its points
    --know all       every hidden hand told (two told fix the third's pattern and points)
    --know none      nothing told: every hidden hand random (no auction at all)

The deals of a board come from the seed alone, so a run repeats to the figure.

    python bench/lead_ceiling.py run.jsonl --know partner --samples 100
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from multiprocessing import Pool

import numpy as np
from bench_env import prefer_checkout, whole

prefer_checkout()

from cardgames.cards import Card, Seat, Suit  # noqa: E402
from cardgames.hands import Deal, Hand  # noqa: E402
from ddsolver import Solver  # noqa: E402


def deals_for(record: dict, know: str, samples: int, seed: int) -> tuple[list[Deal], str, Seat]:
    """The sampled deals of one board, its strain and its leader."""
    real = [h for h in Deal.from_pbn(record["deal"]).hands if h is not None]
    assert len(real) == 4  # the bench's records are of complete deals
    declarer = Seat.parse(record["declarer"])
    leader, partner = declarer.lho, declarer.rho
    hidden = [declarer, declarer.partner, partner]
    told = {"all": hidden, "partner": [partner], "shape": [partner], "none": []}[know]
    points_told = [] if know == "shape" else told
    pool = [c for seat in hidden for c in real[seat].cards]
    rng = random.Random(f"{seed}:{record['deal']}:{record['declarer']}")
    deals: list[Deal] = []
    while len(deals) < samples:
        by_suit = {s: [c for c in pool if c.suit == s] for s in Suit}
        for cards in by_suit.values():
            rng.shuffle(cards)
        new: dict[Seat, list[Card]] = {}
        for seat in told:             # the told hands: their real suit lengths
            new[seat] = []
            for s in by_suit:
                k = real[seat].length(s)
                new[seat] += by_suit[s][:k]
                by_suit[s] = by_suit[s][k:]
        rest = [c for cards in by_suit.values() for c in cards]
        rng.shuffle(rest)
        for seat in hidden:
            if seat not in told:
                new[seat], rest = rest[:13], rest[13:]
        hands = {seat: Hand.from_cards(cards) for seat, cards in new.items()}
        if any(hands[seat].hcp != real[seat].hcp for seat in points_told):
            continue                  # ... and their real points
        hands[leader] = real[leader]
        deals.append(Deal.from_hands(*(hands[s] for s in Seat)))
    strain = "NT" if record["notrump"] else record["contract"][1]
    return deals, strain, leader


def board(job: tuple[dict, str, int, int]) -> dict:
    record, know, samples, seed = job
    deals, strain, leader = deals_for(record, know, samples, seed)
    solver = Solver()
    rows = [solver.card_scores(deal, strain, leader) for deal in deals]
    cards = list(rows[0])
    tricks = np.array([[row[c] for c in cards] for row in rows])
    mean = tricks.mean(axis=0)
    p_best = (tricks == tricks.max(axis=1, keepdims=True)).mean(axis=0)
    by_mean = max(range(len(cards)), key=lambda j: (mean[j], p_best[j], -j))
    by_p_best = max(range(len(cards)), key=lambda j: (p_best[j], mean[j], -j))
    real = record["real"]
    top = max(real.values())
    return {"file": record["file"], "line": record["line"], "deal": record["deal"],
            "mean": str(cards[by_mean]), "p_best": str(cards[by_p_best]),
            "mean_ok": real[str(cards[by_mean])] == top,
            "p_best_ok": real[str(cards[by_p_best])] == top,
            "mean_exp": float(p_best[by_mean]), "p_best_exp": float(p_best[by_p_best])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="a bench_lead_quality.py --results file")
    ap.add_argument("--know", choices=("partner", "shape", "all", "none"), default="partner")
    ap.add_argument("-n", "--samples", type=whole(1), default=100)
    ap.add_argument("--seed", type=whole(0), default=1)
    ap.add_argument("-j", "--jobs", type=whole(1), default=2)
    ap.add_argument("--out", help="JSON lines of each board's figures")
    args = ap.parse_args(argv)
    try:
        with open(args.results, encoding="utf-8") as f:
            records = [json.loads(line) for line in f]
    except OSError as err:
        print(f"lead_ceiling: cannot read {args.results}: {err.strerror or err}",
              file=sys.stderr)
        return 2
    except json.JSONDecodeError as err:
        print(f"lead_ceiling: {args.results}: not JSON lines ({err})", file=sys.stderr)
        return 2
    records = [r for r in records if "deal" in r and "real" in r]
    if not records:
        print(f"{args.results}: no boards", file=sys.stderr)
        return 1
    start = time.time()
    out = open(args.out, "w", encoding="utf-8") if args.out else None
    done = []
    with Pool(args.jobs) as pool:
        for res in pool.imap(board, [(r, args.know, args.samples, args.seed) for r in records]):
            done.append(res)
            if out:
                out.write(json.dumps(res) + "\n")
    if out:
        out.close()
    n = len(done)
    deals = len({r["deal"] for r in done})
    print(f"{args.results}: {n} boards ({deals} deals), hidden hands told: {args.know}, "
          f"{args.samples} samples, seed {args.seed}, {time.time() - start:.0f} s wall")
    by_deal: dict[str, list[dict]] = {}
    for r in done:
        by_deal.setdefault(r["deal"], []).append(r)
    for key in ("mean", "p_best"):
        ok = sum(r[f"{key}_ok"] for r in done) / n
        exp = sum(r[f"{key}_exp"] for r in done) / n
        per_deal = np.mean([np.mean([r[f"{key}_ok"] for r in rs]) for rs in by_deal.values()])
        print(f"  lead by {key:6}: DDOLAR {100 * ok:.1f}% per board, {100 * per_deal:.1f}% per "
              f"deal (the sampled deals expect {100 * exp:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
