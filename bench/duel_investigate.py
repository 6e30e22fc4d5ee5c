"""Why one declarer of a ``ddsolver duel`` run lost deals the other made: the deals whose
outcomes differ, read from the run's store (``--db``), looked at in two ways.

1. **Endings against the exact oracle.**  Every decision of declarer's side with four
   tricks or fewer left, in both plays of each deal: 6 worlds dealt from declarer's view
   (with the decision's own seed); αμ at full depth must equal the exact single-dummy
   oracle of ``tests/oracles/test_single_dummy_oracle.py`` (a bug if not); and how often
   the first declarer's M and PIMC pick one of the oracle's best cards.
2. **Where the plays part.**  The first card in which the two plays differ (declarer's,
   since everything before it is the same): each declarer's card, αμ's counts at M = 2, 3
   and 4 and PIMC's on the decision's 20 worlds, and both cards' double-dummy value on the
   real deal.

Usage (after ``ddsolver duel --deals 1000 --seed 1 --declarers alphamu:2,pimc --db
duel.sqlite``)::

    python bench/duel_investigate.py duel.sqlite --first alphamu:2 --second pimc --seed 1

Only the plays stored under the run's ``--seed``, ``--worlds`` and ``--defence`` are used.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_env import die, whole  # noqa: E402

from cardgames.cards import Card  # noqa: E402
from cardgames.hands import Deal  # noqa: E402
from cardgames.play import Position  # noqa: E402
from cardgames.scoring import Contract  # noqa: E402
from cardgames.worlds import deal_worlds  # noqa: E402
from ddsolver.advise import pimc  # noqa: E402
from ddsolver.alphamu import alphamu  # noqa: E402
from ddsolver.duel import DuelDeal, Method, _groups, _view, _worlds, decision_seed  # noqa: E402
from ddsolver.solver import Solver  # noqa: E402
from tests.oracles.test_single_dummy_oracle import oracle  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db")
    ap.add_argument("--first", default="alphamu:2")
    ap.add_argument("--second", default="pimc")
    ap.add_argument("--seed", type=whole(0), default=1)
    ap.add_argument("--worlds", type=whole(1), default=20)
    ap.add_argument("--defence", default="pimc", choices=("pimc", "dd"))
    args = ap.parse_args()
    if not Path(args.db).is_file():     # (connect would make an empty database there)
        die(f"no such store: {args.db}")
    con = sqlite3.connect(f"file:{Path(args.db).resolve()}?mode=ro", uri=True)
    try:
        con.execute("select 1 from duel_plays limit 1")
    except sqlite3.DatabaseError as err:
        die(f"{args.db} is not a store of ddsolver duel plays ({err})")
    plays: dict[str, dict[str, dict]] = {}
    prefix = f"seed={args.seed};worlds={args.worlds};defence={args.defence};"
    for deal, settings, method, play in con.execute(
            "select deal, settings, method, play from duel_plays"):
        if settings.startswith(prefix) and method in (args.first, args.second):
            plays.setdefault(deal, {})[method] = json.loads(play)
    differ = [(k, p) for k, p in plays.items()
              if len(p) == 2 and p[args.first]["made"] != p[args.second]["made"]]
    print(f"{len(differ)} deals whose outcomes differ ({args.first} against {args.second})")
    solver = Solver()
    endings = agree = first_best = second_best = 0
    dd_cmp: Counter[str] = Counter()
    deeper: Counter[str] = Counter()
    for key, p in differ:
        text, con_text = key.rsplit(" ", 1)
        deal = Deal.from_pbn(text)
        contract = Contract.parse(con_text)
        assert contract is not None  # the duel plays contracts, not passed-out deals
        d = DuelDeal(key, deal, contract)
        decl = d.declarer
        need = contract.tricks_needed
        cards = {m: [Card.parse(x) for x in p[m]["played"]] for m in (args.first, args.second)}
        # 1. endings
        for played in cards.values():
            pos = Position(deal, contract.strain, decl.lho)
            for i, card in enumerate(played):
                seat = pos.to_move
                if (i >= 36 and seat in (decl, decl.partner)
                        and len(_groups(tuple(played[:i]), list(pos.legal_cards()))) > 1):
                    view = _view(d, seat, tuple(played[:i]), False)
                    worlds = deal_worlds(view, samples=6, exhaustive=False,
                                         seed=decision_seed(args.seed, d, seat, played[:i]))
                    exact = oracle(list(worlds.deals), view, decl, need)
                    full = alphamu(worlds, declarer=decl, need=need, depth=12)
                    endings += 1
                    if all(full.card(c).makes == v for c, v in exact.items()):
                        agree += 1
                    else:
                        print(f"  DISAGREES with the oracle: {key} card {i}")
                    top = max(exact.values())
                    depth = int(args.first.split(":")[1]) if ":" in args.first else 1
                    mine = alphamu(worlds, declarer=decl, need=need, depth=depth)
                    plain = alphamu(worlds, declarer=decl, need=need, depth=1)
                    first_best += any(exact[c] == top for c in mine.best.cards)
                    second_best += any(exact[c] == top for c in plain.best.cards)
                pos.play(card)
        # 2. where the plays part
        a, b = cards[args.first], cards[args.second]
        i = next(k for k in range(52) if a[k] != b[k])
        pos = Position(deal, contract.strain, decl.lho, a[:i])
        seat = pos.to_move
        worlds, _ = _worlds(d, seat, tuple(a[:i]), Method("alphamu", 2, args.worlds),
                            args.seed)
        counts = {m: {str(c): r.makes for r in alphamu(worlds, declarer=decl, need=need,
                                                       depth=m).cards for c in r.cards}
                  for m in (2, 3, 4)}
        legal, arr = pimc(worlds, contract, decl)
        reach = {str(c): int((arr[:, j] >= need).sum()) for j, c in enumerate(legal)}
        real = {str(c): t for c, t in solver.card_scores(deal, contract.strain, decl.lho,
                                                           tuple(a[:i])).items()}
        ca, cb = str(a[i]), str(b[i])
        dd_cmp["=" if real[ca] == real[cb] else "<" if real[ca] < real[cb] else ">"] += 1
        depth = int(args.first.split(":")[1]) if ":" in args.first else 1
        margin = counts[min(depth, 4)][ca] - counts[min(depth, 4)][cb]
        m4 = counts[4][ca] - counts[4][cb]
        deeper[f"margin at M=4 smaller than at M={depth}" if m4 < margin
               else f"margin at M=4 as large as at M={depth}"] += 1
        deeper["M=4 ties or prefers the other card"] += m4 <= 0
        won = p[args.first]["made"]
        print(f"{'won ' if won else 'lost'} parts at card {i:2d} ({13 - i // 4:2d} tricks "
              f"left) {seat.letter}: {args.first} {ca}, {args.second} {cb} | M2 "
              f"{counts[2][ca]}/{counts[2][cb]} M3 {counts[3][ca]}/{counts[3][cb]} M4 "
              f"{counts[4][ca]}/{counts[4][cb]} PIMC {reach[ca]}/{reach[cb]} | real deal DD "
              f"{real[ca]}/{real[cb]}", flush=True)
    print(f"\nendings: {endings}; full-depth αμ equals the oracle in {agree}; "
          f"{args.first}'s card oracle-best in {first_best}, PIMC's in {second_best}")
    print(f"at the parting card, {args.first}'s card against {args.second}'s on the real "
          f"deal, double dummy: equal {dd_cmp['=']}, worse {dd_cmp['<']}, better "
          f"{dd_cmp['>']}")
    print("deeper search at the parting card: " + ", ".join(f"{k} {v}"
                                                            for k, v in deeper.items()))
    return 0 if agree == endings else 1


if __name__ == "__main__":
    sys.exit(main())
