#!/usr/bin/env python3
"""How good is the recommended opening lead?  Judged on real boards against the lead made
at the table.

For every board of the PBN or LIN files (read as their content says) with a complete deal,
an auction and the lead made at the table, ``ddsolver leads`` is run as a user would (the
leader's hand known, the other three dealt under what the bidding system reads in the
auction, ``--samples`` deals, ``--seed``), and the lead it recommends (the first card of
its best group) is valued on the real deal, double dummy, beside the lead made at the
table:

* DDOLAR: the share of boards on which the lead gives up nothing double dummy (it takes
  as many tricks for the defence as the best lead on the real deal); beside it
  (``exp.``) the DDOLAR the sampled deals expect of their own choice, the mean of its
  ``p_best`` (the share of them on which it is a best lead): equal when the deals are
  dealt as real deals fall (the misses are then the uncertainty the auction leaves, not
  a wrong model), higher when the model is overconfident;
* ADDOLAR: the same, leaving out the boards on which every lead takes the same tricks;
* the paired difference recommended - table in DDOLAR points, with its standard error
  (the SD of the per-board differences over the square root of the boards);
* the double-dummy tricks each gives up in all;
* DDOLAR per deal: each deal's boards averaged, then the deals (a club deal is played at
  20-50 tables; a set of random deals counts each deal once).

The same is done with the auction ignored (``--no-inference``, the baseline), no-trump and
suit contracts apart, per file and overall, and for each player on lead the files name at
``--min-player-boards`` boards or more (a robot's leads -- BEN's, WBridge5's, GIB's in the
robot-match files -- against ours on the same boards).  And for the inference itself, on every board
with an auction (a lead made or not): the share of the real hidden hands inside the
constraint the system inferred for them (calibration) beside the share of random hands
inside it (how much it says; :func:`cardgames.sampling.acceptance_rates`), and the calls
the system did not know (passes that end the auction not counted).

Boards that play the same deal with the same auction ask the same question; with the same
seed the analysis answers it the same way, so it is run once (a cache, exact).  Each board's
figures go to ``--results`` (JSON lines) as they come, and a run with the same settings picks
up where an interrupted one stopped.

Usage::

    python bench/bench_lead_quality.py                     # every qualifying board of
                                                           # ../shared/realpbn (~1,100)
    python bench/bench_lead_quality.py FILE.pbn ... --samples 50 --seed 1 --jobs 2
    python bench/bench_lead_quality.py --quick             # the first 5 boards of each file
    python bench/bench_lead_quality.py robot.pbn --no-table-lead   # random deals bid by
                                                           # bench/robot_deals.py (BEN's test)
    python bench/bench_lead_quality.py --samples 1000 --stop-z 1.96 --min-samples 200
                                                           # adaptive: a board stops at the
                                                           # first check where its best is clear

Exit status 2 when it cannot run (no built ddsolver, no files).  See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bench_env import ROOT, cpu_model, die, git_revision, load_average, positive, prefer_checkout, say, whole

prefer_checkout()

from robot_deals import Robot, bids_as  # noqa: E402

from cardgames.bidding import BiddingSystem, default_system, infer, load_system  # noqa: E402
from cardgames.cards import Card, Seat, SeatLike, Strain  # noqa: E402
from cardgames.constraints import Any, Constraint, breaks, usual  # noqa: E402
from cardgames.errors import CardgamesError, SamplingError  # noqa: E402
from cardgames.facts import BoardFacts  # noqa: E402
from cardgames.hands import Deal, Hand  # noqa: E402
from cardgames.lin import LINPartError, open_games  # noqa: E402
from cardgames.sampling import acceptance_rates, check_seed  # noqa: E402
from ddsolver import Solver  # noqa: E402
from ddsolver.board_leads import LeadBoard, analyse_board, lead_board  # noqa: E402
from ddsolver.cli.leads import SCORING_CRITERIA  # noqa: E402
from ddsolver.leads import LeadReport, analyse_leads  # noqa: E402
from ddsolver.stats import compare  # noqa: E402

REALPBN = ROOT.parent / "shared" / "realpbn"
MODES = ("inference", "none")          # the auction read by the system; the auction ignored
MEAN, P_BEST, P_SET = range(3)         # the figures of each lead in a record's "stats"


# ---- the boards -----------------------------------------------------------------------------

@dataclass
class Skipped:
    """Boards left out, by reason, per file."""

    reasons: Counter = field(default_factory=Counter)


def auction_boards(path: Path, left: Counter) -> Iterator[LeadBoard]:
    """Every board of a file with a complete deal, a contract and an auction; what is
    left out is counted in ``left`` by reason."""
    try:
        reader = open_games(path, strict=False)
        games = list(reader)
    except (OSError, CardgamesError) as err:
        left[f"file does not read: {err}"] += 1
        return
    # (a part of a LIN board left out, LINPartError, loses no board)
    lost = sum(not isinstance(e, LINPartError) for e in reader.errors)
    if lost:
        left["does not read"] += lost
    for game in games:
        try:
            deal = game.deal
            if deal is None or not all(h is not None and len(h) == 13 for h in deal.hands):
                left["no complete deal"] += 1
                continue
            board = lead_board(game, str(path))
        except CardgamesError as err:
            left[f"cannot be analysed ({type(err).__name__})"] += 1
            continue
        if board is None:
            left["no contract (or passed out)"] += 1
        elif board.auction is None:
            left["no auction"] += 1
        else:
            yield board


def qualifying(paths: Iterable[Path], skipped: dict[str, Skipped], per_file: int | None,
               contracts: str = "all", need_lead: bool = True
               ) -> Iterator[tuple[str, LeadBoard, Card | None]]:
    """(file, board, the lead made) for every board with a complete deal, an auction and
    the lead made at the table (with ``need_lead`` False, a board without one too: the
    lead None); what is left out is counted in ``skipped`` by reason."""
    for path in paths:
        name = path.name
        left = skipped.setdefault(name, Skipped()).reasons
        kept = 0
        for board in auction_boards(path, left):
            if per_file is not None and kept >= per_file:
                break
            notrump = board.contract.strain == Strain.NOTRUMP
            if contracts != "all" and notrump != (contracts == "notrump"):
                left[f"not {contracts} (--contracts)"] += 1
                continue
            lead, _ = BoardFacts(board.game, str(path)).lead(board.leader, board.hand)
            if lead is None and need_lead:
                left["no lead at the table"] += 1
                continue
            kept += 1
            yield name, board, lead


# ---- one board ------------------------------------------------------------------------------

class _Reused(Exception):
    """Raised inside the analysis when an earlier run answered the same question."""

    def __init__(self, result: dict):
        super().__init__("reused")
        self.result = result


def question(hand: str, contract: str, vul: str, dealt: Mapping[str, str],
             auction: str | None) -> tuple:
    """What a board asks the analysis, which sees no more of it: the leader's hand, the
    contract (with its declarer), the vulnerability, the constraints the hidden hands are
    dealt under and, where the robot checks the deals (``--robot-reading``), the auction.
    With the same seed and samples the answer is the same (the analysis is
    deterministic), so it keys both the run's cache and ``--reuse`` -- not the board's
    line, which moves when a file is made again (the robot's deals under a changed
    system)."""
    return (hand, contract, vul, tuple(sorted(dealt.items())), auction)


def analyse(name: str, board: LeadBoard, mode: str, system: BiddingSystem,
            args: argparse.Namespace, cache: dict) -> dict:
    """The recommended lead of one board in one mode: its group's first card, the group,
    the samples, and the constraints the hidden hands were dealt under."""
    used: dict = {}
    predicate = None
    # the auction the robot checks the deals by (part of the question, whether or not
    # it falls back below)
    checked = board.auction if args.robot is not None and mode == "inference" else None
    if checked is not None:
        # BEN's sampler keeps the deals its own bidding would bid as the auction went;
        # here the robot's.  The real deal must be one of them (else the file is not the
        # robot's of this seed), a check that tells the analysis nothing of the deal.
        predicate = bids_as(args.robot, checked, board.leader)
        deal = board.game.deal
        assert deal is not None  # auction_boards keeps the boards with a complete deal
        if not predicate(deal):
            return {"error": f"the robot (--robot-reading {args.robot.seed}) does not bid "
                             "this auction with the real hands", "dealt": {}}

    def run(b: LeadBoard, dealt: Mapping[Seat, Constraint | str],
            known: Mapping[Seat, Hand]) -> LeadReport:
        used["dealt"] = {s.letter: str(c) for s, c in dealt.items()}
        key = question(b.hand.to_pbn(), str(b.contract), b.vulnerability.name, used["dealt"],
                       None if checked is None else str(checked))
        earlier = args.reuse.get(key)
        if earlier is not None:
            raise _Reused(earlier)
        # (the run's cache tells a deal the robot checked from one where it fell back)
        key += (predicate is None,)
        if key in cache:
            used["cached"] = True
            return cache[key]
        # (seats as the analysis takes them: any seat-like key)
        given: dict[SeatLike, Constraint | str] = {s: c for s, c in dealt.items()}
        report = analyse_leads(b.hand, b.contract, b.declarer, b.vulnerability,
                               constraints=given, predicate=predicate,
                               samples=args.samples, seed=args.seed,
                               jobs=args.jobs, keep_deals=False,
                               stop_z=args.stop_z, **args.budget,
                               min_samples=args.min_samples, batch=args.batch)
        cache[key] = report
        return report

    def report_of() -> LeadReport:
        return analyse_board(board, run, system=system if mode == "inference" else None,
                             solver=Solver())

    robot = None if predicate is None else "bids as"
    try:
        try:
            report = report_of()
        except SamplingError:
            if predicate is None:
                raise
            # Too few deals the robot bids so within the dealing budget (a rare auction):
            # the system's reading alone, counted apart, rather than a board left out.
            predicate, robot = None, "fell back"
            report = report_of()
    except _Reused as reused:
        return {**reused.result, "reused": True}
    except CardgamesError as err:
        return {"error": str(err), "dealt": used.get("dealt", {})}
    best = report.rows[0]
    out = {"lead": str(best.cards[0]), "group": best.label, "samples": report.samples,
           "close": [r.label for r in report.rows[1:] if r.close],
           "dealt": used.get("dealt", {}), "cached": used.get("cached", False)}
    if robot is not None:
        out["robot"] = robot
    out.update(criteria(report, BoardFacts(board.game, board.source).scoring))
    return out


def criteria(report: LeadReport, scoring: str | None = None) -> dict:
    """The lead each criterion recommends, from the same sampled deals (the first card of
    each group, ties broken by the mean tricks, then the report's order): ``mean`` (the
    report's own ranking), ``p_best`` (the share of deals on which the lead takes as many
    tricks as the best lead of that deal: the lead most often double-dummy right),
    ``p_set`` (the chance to beat the contract), ``mp`` and ``imps`` (matchpoints, IMPs
    against the other leads, as :func:`ddsolver.stats.compare` ranks them) and
    ``scoring``: the one the board's Scoring tag names (``ddsolver leads --sort
    scoring``), else ``mean``."""
    arr = report.card_tricks
    if arr is None or not len(arr):
        return {}
    cards = list(report.hand_cards)
    firsts = [r.cards[0] for r in report.rows]            # in the report's order
    cols = arr[:, [cards.index(c) for c in firsts]]
    best = cols.max(axis=1, keepdims=True)
    need = 8 - report.contract.level                      # defence tricks that set it
    stats = {str(c): (float(cols[:, j].mean()), float((cols[:, j] == best[:, 0]).mean()),
                      float((cols[:, j] >= need).mean())) for j, c in enumerate(firsts)}

    def pick(key: Callable[[tuple[float, float, float]], float]) -> str:
        return max(((key(stats[str(c)]), stats[str(c)][MEAN], -i, str(c))
                    for i, c in enumerate(firsts)))[3]

    by = {"mean": str(firsts[0]), "p_best": pick(lambda t: t[P_BEST]),
          "p_set": pick(lambda t: t[P_SET])}
    declarer_vul = report.vulnerability.is_vulnerable(report.declarer)
    for name in ("mp", "imps", "score"):
        best = compare(cols, report.contract, declarer_vul, name)[0]
        by[name] = str(firsts[best.index])
    by["scoring"] = by[SCORING_CRITERIA[scoring]] if scoring in SCORING_CRITERIA else by["mean"]
    return {"by": by,
            "stats": {k: [round(x, 4) for x in v] for k, v in stats.items()}}


def leader_player(board: LeadBoard) -> str:
    """The player on lead as the file names it ('' if it does not): for the leads of
    named players, robots above all, board by board."""
    return BoardFacts(board.game).player(board.leader) or ""


def board_record(name: str, board: LeadBoard, lead: Card | None, system: BiddingSystem,
                 args: argparse.Namespace, cache: dict) -> dict:
    game = board.game
    deal = game.deal
    assert deal is not None  # auction_boards keeps the boards with a complete deal
    real = Solver().card_scores(deal, board.contract.strain, board.leader)
    rec = {"file": name, "line": game.line, "board": game.board, "deal": deal.to_pbn(),
           "contract": str(board.contract), "declarer": board.declarer.letter,
           "notrump": board.contract.strain == Strain.NOTRUMP, "vul": board.vulnerability.name,
           "auction": str(board.auction),
           "table": None if lead is None else str(lead), "leader_player": leader_player(board),
           "real": {str(c): int(t) for c, t in real.items()}}
    for mode in args.modes:
        rec[mode] = analyse(name, board, mode, system, args, cache)
    return rec


# ---- the inference's calibration (every board with an auction; no solving) -----------------

def calibration(paths: Iterable[Path], system: BiddingSystem, seed: int) -> dict:
    """Real hidden hands inside their inferred constraints, the random hands' rate, and
    the unknown calls, over every board with an auction and a known leader."""
    hands = inside = inside_usual = 0
    expected_strays = 0.0
    rates: list[float] = []
    calls = bids = unknown = unknown_passes = 0
    unknown_names: Counter = Counter()
    broken_rules: Counter = Counter()
    sources: Counter = Counter()      # table / natural / fallback, and "any" (says nothing)
    for path in paths:
        for board in auction_boards(path, Counter()):
            deal = board.game.deal
            assert deal is not None and board.auction is not None
            # the four hands: auction_boards keeps the boards with a complete deal
            held = {s: h for s in Seat if (h := deal[s]) is not None}
            inference = infer(board.auction, system)
            auction = board.auction
            last = max((i for i, c in enumerate(auction.calls) if not c.is_pass), default=-1)
            calls += sum(1 for i, c in enumerate(auction.calls) if i <= last)
            bids += sum(1 for c in auction.calls if not c.is_pass)
            for m in inference.meanings:
                if m.constraint is not None and m.index <= last:
                    sources[m.source] += 1
                    sources["any"] += isinstance(m.constraint, Any)
            for m in inference.unknown_calls:
                if m.call.is_pass:
                    if m.index < last:
                        unknown_passes += 1
                        unknown_names[f"Pass after {m.context}"] += 1
                else:
                    unknown += 1
                    unknown_names[f"{m.call.name} after {m.context or 'the opening'}"] += 1
            dealt = {s: c for s, c in inference.constraints.items() if s != board.leader}
            if not dealt:
                continue
            calls_ok = {s: True for s in dealt}
            for m in inference.meanings:
                if m.seat in dealt and m.constraint is not None and \
                        breaks(m.constraint, held[m.seat]) is not None:
                    calls_ok[m.seat] = False
                    broken_rules[f"{m.call.name} after [{m.context}]"] += 1
            for seat in dealt:
                if calls_ok[seat] and breaks(dealt[seat], held[seat]) is not None:
                    broken_rules["the limits (a side that stops low)"] += 1
            random_rates = acceptance_rates({board.leader: board.hand}, dealt, seed)
            strict = {s: u for s, c in dealt.items() if (u := usual(c)) != c}
            usual_rates = acceptance_rates({board.leader: board.hand}, strict, seed)
            for seat, c in dealt.items():
                hands += 1
                ok = breaks(c, held[seat]) is None
                inside += ok
                inside_usual += breaks(strict.get(seat, c), held[seat]) is None
                rates.append(random_rates[seat])
                if ok and seat in strict and random_rates[seat] > 0:
                    # the share of the hands dealt under c that stray outside its usual
                    # ranges, as the weights have it: 1 - P(usual) / P(c, strays weighed)
                    expected_strays += max(0.0, 1 - usual_rates[seat] / random_rates[seat])
    return {"hands": hands, "inside": inside, "inside_usual": inside_usual,
            "expected_strays": expected_strays,
            "random": sum(rates) / len(rates) if rates else math.nan,
            "calls": calls, "bids": bids, "unknown": unknown,
            "unknown_passes": unknown_passes, "top": unknown_names.most_common(12),
            "sources": dict(sources),
            "broken": broken_rules.most_common(15)}


# ---- the figures ----------------------------------------------------------------------------

def figures(records: list[dict], mode: str, criterion: str = "mean") -> dict | None:
    """DDOLAR/ADDOLAR of the recommended lead (by ``criterion``) and the table's lead over
    ``records``, the paired difference and the tricks given up."""
    def lead(r: dict) -> str:
        return r[mode]["by"][criterion] if criterion != "mean" else r[mode]["lead"]

    rows = [r for r in records if "lead" in r.get(mode, {}) and
            (criterion == "mean" or criterion in r[mode].get("by", {}))]
    if not rows:
        return None
    ok_rec, ok_tab, active, lost_rec, lost_tab = [], [], [], 0, 0
    expected: list[float] = []
    monkey = 0.0   # BEN's "monkey test": the DDOLAR of a card led at random
    for r in rows:
        real = r["real"]
        best = max(real.values())
        card = lead(r)
        rec = best - real[card]
        # What the sampled deals expect of their own choice: the share of them on which
        # it takes as many tricks as the best lead of the deal (its p_best).
        own = r[mode].get("stats", {}).get(card)
        if own is not None:
            expected.append(own[P_BEST])
        tab = best - real[r["table"]] if r["table"] is not None else 0
        monkey += sum(1 for t in real.values() if t == best) / len(real)
        ok_rec.append(rec == 0)
        ok_tab.append(tab == 0)
        active.append(min(real.values()) != best)
        lost_rec += rec
        lost_tab += tab
    n = len(rows)
    diffs = [a - b for a, b in zip(ok_rec, ok_tab)]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else math.nan
    # The boards of a club file are a few deals played at many tables: their differences
    # are not independent, so the SE is also given clustered by deal (the deal's boards'
    # deviations summed before squaring), which is the honest one.
    clusters: dict[str, float] = {}
    per_deal: dict[str, list[int]] = {}   # deal -> [boards, rec ok, table ok]
    for r, d, a, b in zip(rows, diffs, ok_rec, ok_tab):
        # the deal itself: one deal in two files (a match exported twice) is one cluster
        key = r["deal"]
        clusters[key] = clusters.get(key, 0.0) + d - mean
        tally = per_deal.setdefault(key, [0, 0, 0])
        tally[0] += 1
        tally[1] += a
        tally[2] += b
    g = len(clusters)
    se_deal = math.sqrt(g / (g - 1) * sum(v * v for v in clusters.values())) / n \
        if g > 1 else math.nan
    act = [i for i in range(n) if active[i]]
    out = {"n": n, "deals": g, "rec": sum(ok_rec) / n, "table": sum(ok_tab) / n,
            "expected": sum(expected) / len(expected) if len(expected) == n else math.nan,
            "random": monkey / n,
            "diff": mean, "diff_se": sd / math.sqrt(n), "diff_se_deal": se_deal,
            "n_active": len(act),
            "a_rec": sum(ok_rec[i] for i in act) / len(act) if act else math.nan,
            "a_table": sum(ok_tab[i] for i in act) / len(act) if act else math.nan,
            "lost_rec": lost_rec, "lost_table": lost_tab,
            # each deal's boards averaged, then the deals: as a set of random deals counts
            "rec_by_deal": sum(t[1] / t[0] for t in per_deal.values()) / g,
            "table_by_deal": sum(t[2] / t[0] for t in per_deal.values()) / g,
            "errors": sum(1 for r in records if "error" in r.get(mode, {}))}
    if any(r["table"] is None for r in rows):   # boards without a lead (robot deals)
        out.update(dict.fromkeys(("table", "diff", "diff_se", "diff_se_deal", "a_table",
                                  "table_by_deal"), math.nan), lost_table=0)
    return out


def pct(x: float) -> str:
    return "   -  " if math.isnan(x) else f"{100 * x:5.1f}%"


def print_block(title: str, records: list[dict], modes: Iterable[str],
                criteria: Iterable[str] = ("mean",)) -> None:
    print(f"\n{title}")
    print(f"  {'':11} {'':9} {'boards':>6} {'deals':>5}  {'DDOLAR rec':>10} {'exp.':>6} "
          f"{'table':>6} {'random':>6}  "
          f"{'rec-table (SE; by deal)':>24}  {'ADDOLAR rec':>11} {'table':>6} "
          f"{'(boards)':>8}  {'tricks lost rec':>15} {'table':>5}  "
          f"{'per deal rec':>12} {'table':>6}")
    for mode, criterion in ((m, c) for m in modes for c in criteria):
        label = "inference" if mode == "inference" else "no-infer."
        if criterion != "mean":
            label = f"{label[:4]}, {criterion}"
        for part, keep in (("all", None), ("no-trump", True), ("suits", False)):
            subset = [r for r in records if keep is None or r["notrump"] == keep]
            f = figures(subset, mode, criterion)
            if f is None:
                continue
            err = f" ({f['errors']} not analysed)" if f["errors"] else ""
            paired = f"{'-':>24}" if math.isnan(f["diff"]) else \
                f"{100 * f['diff']:+6.1f} ({100 * f['diff_se']:4.1f}; " \
                f"{100 * f['diff_se_deal']:4.1f}) pts"
            print(f"  {label:11} {part:9} {f['n']:6d} {f['deals']:5d}  {pct(f['rec']):>10} "
                  f"{pct(f['expected']):>6} {pct(f['table']):>6} {pct(f['random']):>6}  "
                  f"{paired}"
                  f"  {pct(f['a_rec']):>11} {pct(f['a_table']):>6} {f['n_active']:8d}  "
                  f"{f['lost_rec']:15d} {f['lost_table']:5d}  {pct(f['rec_by_deal']):>12} "
                  f"{pct(f['table_by_deal']):>6}{err}")
            label = ""


# ---- main -----------------------------------------------------------------------------------

def default_files() -> list[Path]:
    if not REALPBN.is_dir():
        die(f"no files given and {REALPBN} is not there")
    return sorted(REALPBN.rglob("*.pbn"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path,
                        help="PBN or LIN files, read as their content says (default: every "
                             ".pbn of ../shared/realpbn)")
    parser.add_argument("-n", "--samples", type=whole(1), default=50, help="deals per board (50)")
    parser.add_argument("--seed", type=whole(0), default=1, help="seed of every board's deals (1)")
    parser.add_argument("--stop-z", type=positive, default=None, metavar="Z",
                        help="adaptive stopping, as `ddsolver leads --stop-z`: a board stops "
                             "once every other lead is Z paired SEs worse than the best by "
                             "mean tricks (or tied with it); --samples is then the most")
    parser.add_argument("--min-samples", type=whole(2), default=100, metavar="N",
                        help="with --stop-z: never stop before N deals (100)")
    parser.add_argument("--batch", type=whole(1), default=100, metavar="N",
                        help="with --stop-z: deals between checks (100)")
    parser.add_argument("-j", "--jobs", type=whole(1), default=2, help="solver threads (2)")
    parser.add_argument("--system", type=Path, default=None,
                        help="bidding system (default: the shipped standard system)")
    parser.add_argument("--modes", default=",".join(MODES),
                        help="inference,none (default both): with the auction read, and "
                             "without (the baseline)")
    parser.add_argument("--per-file", type=whole(1), default=None,
                        help="only the first N qualifying boards of each file")
    parser.add_argument("--quick", action="store_true", help="--per-file 5")
    parser.add_argument("--contracts", choices=("all", "notrump", "suits"), default="all",
                        help="only the boards played in no-trump, or in a suit")
    parser.add_argument("--max-seconds", type=positive, default=20.0,
                        help="dealing time budget per board before giving up (20); 'inf' "
                             "for none, so that with --max-attempts which boards cannot be "
                             "dealt (or fall back, under --robot-reading) does not depend "
                             "on the host's load")
    parser.add_argument("--max-attempts", type=whole(1), default=None, metavar="N",
                        help="random deals a board's dealing may try before giving up "
                             "(default: ddsolver leads' own)")
    parser.add_argument("--results", type=Path, default=None,
                        help="JSON lines of each board's figures; a run with the same "
                             "settings resumes from it")
    parser.add_argument("--min-player-boards", type=whole(1), default=15, metavar="N",
                        help="a block of figures for each player on lead (as the file names "
                             "the seat) at N or more boards: against a robot's own leads "
                             "(15)")
    parser.add_argument("--no-table-lead", action="store_true",
                        help="keep the boards without a lead made too (the robot deals of "
                             "bench/robot_deals.py): the table's columns are left blank")
    parser.add_argument("--robot-reading", type=whole(0), default=None, metavar="SEED",
                        help="the auctions are bench/robot_deals.py's of --seed SEED: deal "
                             "only hidden hands the robot bids as the auction went (BEN's "
                             "sampler checks its deals with its own bidding so); the "
                             "inference mode only")
    parser.add_argument("--no-calibration", action="store_true",
                        help="skip the inference's calibration")
    parser.add_argument("--reuse", type=Path, action="append", default=[],
                        help="the --results of an earlier run with the same samples and "
                             "seed: a board asking the same question (leader's hand, "
                             "contract, vulnerability, constraints; with --robot-reading the "
                             "auction), wherever it sits, takes its answer from "
                             "there instead of solving again (exact: the analysis is "
                             "deterministic); for measuring a change to the system")
    args = parser.parse_args(argv)
    args.modes = tuple(m for m in args.modes.split(",") if m)
    if not set(args.modes) <= set(MODES) or not args.modes:
        parser.error(f"--modes: a comma-separated list of {', '.join(MODES)}")
    if args.quick and args.per_file is None:
        args.per_file = 5
    files = args.files or default_files()
    missing = [str(f) for f in files if not Path(f).is_file()]
    if missing:
        die(f"no such file: {', '.join(missing)}")
    stop = None
    if args.stop_z is not None:
        if not (math.isfinite(args.stop_z) and args.stop_z > 0) or args.min_samples < 2 or \
                args.batch < 1:
            die("--stop-z must be a positive number, --min-samples at least 2 and --batch at "
                "least 1")
        stop = {"z": args.stop_z, "min_samples": args.min_samples, "batch": args.batch}
    reuse_files, args.reuse = args.reuse, {}
    for path in reuse_files:
        try:
            with open(path, encoding="utf-8") as f:
                lines = [json.loads(line) for line in f if line.strip()]
        except (OSError, json.JSONDecodeError) as err:
            die(f"--reuse {path}: {getattr(err, 'strerror', None) or err}")
        if not lines or lines[0].get("settings", {}).get("samples") != args.samples or \
                lines[0]["settings"].get("seed") != args.seed or \
                lines[0]["settings"].get("stop") != stop or \
                lines[0]["settings"].get("robot_reading") != args.robot_reading:
            die(f"--reuse {path}: not a run with {args.samples} samples, seed {args.seed}, "
                f"the same stopping rule and the same --robot-reading")
        for r in lines[1:]:
            for mode in MODES:
                got = r.get(mode, {})
                if "lead" in got:
                    leader = Seat.parse(r["declarer"]).lho
                    hand = Deal.from_pbn(r["deal"])[leader]
                    assert hand is not None    # the records are of complete deals
                    key = question(hand.to_pbn(), r["contract"], r["vul"], got["dealt"],
                                   r.get("auction") if "robot" in got else None)
                    args.reuse[key] = {k: v for k, v in got.items()
                                       if k not in ("cached", "reused")}
        say(f"--reuse {path}: {len(args.reuse)} answers")
    system = load_system(args.system) if args.system else default_system()
    args.robot = None
    if args.robot_reading is not None:
        try:
            check_seed(args.robot_reading)
        except ValueError as err:
            die(f"--robot-reading: {err}")
        args.robot = Robot(system, args.robot_reading)

    if not args.max_seconds > 0 or (args.max_attempts is not None and args.max_attempts < 1):
        die("--max-seconds must be a positive number (or inf) and --max-attempts at least 1")
    if math.isinf(args.max_seconds) and args.max_attempts is None:
        die("--max-seconds inf needs --max-attempts (else a rare board deals for ever)")
    # analyse_leads' dealing budget: its own attempts unless --max-attempts says
    args.budget = {"max_seconds": args.max_seconds}
    if args.max_attempts is not None:
        args.budget["max_attempts"] = args.max_attempts

    settings = {"samples": args.samples, "seed": args.seed, "system": system.name,
                "modes": list(args.modes)}
    if stop is not None:
        settings["stop"] = stop
    if args.robot_reading is not None:
        settings["robot_reading"] = args.robot_reading
    if args.contracts != "all":
        settings["contracts"] = args.contracts
    if args.max_attempts is not None:
        settings["max_attempts"] = args.max_attempts
    if math.isinf(args.max_seconds):   # the budget in attempts alone: the same on any host
        settings["max_seconds"] = "inf"
    done: dict[tuple[str, int], dict] = {}
    if args.results and args.results.exists():
        with open(args.results, encoding="utf-8") as f:
            lines = [json.loads(line) for line in f if line.strip()]
        if lines and lines[0].get("settings") == settings:
            done = {(r["file"], r["line"]): r for r in lines[1:]}
            say(f"resuming: {len(done)} boards already in {args.results}")
        else:
            say(f"{args.results}: other settings; starting again")
            lines = []
    out = None
    if args.results:
        out = open(args.results, "w" if not done else "a", encoding="utf-8")
        if not done:
            out.write(json.dumps({"settings": settings}) + "\n")

    from tqdm import tqdm

    started = time.time()
    cpu0 = time.process_time()
    skipped: dict[str, Skipped] = {}
    records: list[dict] = []
    cache: dict = {}
    boards = list(qualifying(files, skipped, args.per_file, args.contracts,
                             need_lead=not args.no_table_lead))
    for name, board, lead in tqdm(boards, desc="boards", unit="board", file=sys.stderr,
                                  disable=not sys.stderr.isatty()):
        key = (name, board.game.line)
        if key in done:
            done[key].setdefault("leader_player", leader_player(board))
            records.append(done[key])
            continue
        rec = board_record(name, board, lead, system, args, cache)
        records.append(rec)
        if out is not None:
            out.write(json.dumps(rec) + "\n")
            out.flush()
    if out is not None:
        out.close()

    print(f"# bench_lead_quality: {len(records)} boards, {args.samples} samples a board, "
          f"seed {args.seed}, system {system.name!r}, jobs {args.jobs}")
    if args.robot is not None:
        fell = sum(r.get("inference", {}).get("robot") == "fell back" for r in records)
        print(f"# the hidden hands dealt under the inference and bid by the robot "
              f"(robot_deals.py, --seed {args.robot_reading}) as the auction went; on {fell} "
              f"boards too few such deals within --max-seconds: the inference alone")
    if stop is not None:
        used = [r[m]["samples"] for r in records for m in args.modes if "samples" in r.get(m, {})]
        print(f"# adaptive stopping: z {args.stop_z}, at least {args.min_samples} deals, "
              f"checked every {args.batch}; deals solved a board: mean "
              f"{sum(used) / max(len(used), 1):.0f}, "
              f"{sum(u == args.samples for u in used)} of {len(used)} boards to the most")
    print(f"# ddsolver {git_revision()}; {cpu_model()}; "
          f"{time.time() - started:.0f} s wall, {time.process_time() - cpu0:.0f} s CPU "
          f"this run; load {load_average():.1f}")
    print("# the recommended lead: the first card of the best group; 'table': the lead made "
          "at the table; both valued on the real deal, double dummy; 'exp.': the DDOLAR the "
          "sampled deals expect of the recommended lead (its mean p_best); 'random': a card led "
          "at random (BEN's monkey test: 64.5% against no-trump, 67.3% against suits on its "
          "1,000 random deals)")
    for name in dict.fromkeys(r["file"] for r in records):
        print_block(f"{name}", [r for r in records if r["file"] == name], args.modes)
    print_block("== all files ==", records, args.modes)
    print_block("== all files, the lead chosen by other criteria from the same deals "
                "(p_best: most often double-dummy best; p_set: the chance to set; mp, imps: "
                "matchpoints, IMPs against the other leads; scoring: mp or imps as the "
                "board's Scoring tag says, else mean) ==",
                records, args.modes, ("p_best", "p_set", "mp", "imps", "scoring"))

    # The leads of one player against ours on the same boards: where the player is a
    # robot (BEN, WBridge5, GIB in the robot-match files), a head-to-head with it.
    # Names are compared without case (GIB is "GIB" in one file, "GiB" in another).
    players = Counter(r["leader_player"].casefold() for r in records if r.get("leader_player"))
    for player, n in players.most_common():
        if n < args.min_player_boards:
            break
        mine = [r for r in records if r.get("leader_player", "").casefold() == player]
        spelt = " / ".join(sorted({r["leader_player"] for r in mine}))
        print_block(f"== the boards {spelt!r} led (every file) ==", mine, args.modes,
                    ("mean", "p_best"))

    errors = [(r["file"], r["line"], m, r[m]["error"]) for r in records for m in args.modes
              if "error" in r.get(m, {})]
    if errors:
        print(f"\nnot analysed ({len(errors)}; counted neither way above):")
        for name, line, mode, why in errors:
            print(f"  {name}:{line} ({mode}): {why}")
    print("\nboards left out:")
    for name, s in skipped.items():
        if s.reasons:
            print(f"  {name}: " + ", ".join(f"{k} {v}" for k, v in sorted(s.reasons.items())))

    if not args.no_calibration and "inference" in args.modes:
        cal = calibration(files, system, args.seed)
        print(f"\nthe inference ({system.name}), every board with a deal, a contract and an "
              "auction:")
        if cal["hands"]:
            print(f"  real hidden hands inside their inferred constraint: {cal['inside']} of "
                  f"{cal['hands']} ({pct(cal['inside'] / cal['hands']).strip()}), inside "
                  f"its usual ranges (the system's [stray] not allowed): "
                  f"{cal['inside_usual']} ({pct(cal['inside_usual'] / cal['hands']).strip()}); "
                  f"random hands inside the same constraints (strays weighed): "
                  f"{pct(cal['random']).strip()}")
        if cal["inside"] > cal["inside_usual"] or cal["expected_strays"]:
            print(f"  real hands that stray from the usual ranges: "
                  f"{cal['inside'] - cal['inside_usual']}; as many as the stray weight "
                  f"expects: {cal['expected_strays']:.0f}")
        if cal["broken"]:
            print("  the rules real hands break most often: " +
                  "; ".join(f"{k} ({v})" for k, v in cal["broken"]))
        if cal["calls"]:
            print(f"  calls the system does not know: {cal['unknown']} bids, doubles and "
                  f"redoubles of {cal['bids']} ({pct(cal['unknown'] / cal['bids']).strip()}), "
                  f"and {cal['unknown_passes']} passes before the last bid; "
                  f"{cal['unknown'] + cal['unknown_passes']} of the {cal['calls']} calls up "
                  f"to the last bid ({pct((cal['unknown'] + cal['unknown_passes']) / cal['calls']).strip()})")
            print("  the most frequent: " + "; ".join(f"{k} ({v})" for k, v in cal["top"]))
            src = cal["sources"]
            print(f"  the calls read: {src.get('table', 0)} by a table for the sequence, "
                  f"{src.get('natural', 0)} as natural, {src.get('fallback', 0)} by who makes "
                  f"them (the [fallback] tables); {src.get('any', 0)} of them say nothing "
                  "of the hand")
    return 0


if __name__ == "__main__":
    sys.exit(main())
