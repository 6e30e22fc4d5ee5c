"""Check every answer stated in ``data/problems.pbn`` against ddsolver and, when the
``endplay`` package is installed (``pip install '.[bench]'``), against DDS.

What a problem states, and where (see ``data/README.md``):

* the position: the ``Deal`` tag (an ending or a full deal); the trump strain from the
  ``Trumps`` tag, else from the ``Contract``; who is on lead from the ``Play`` tag's value,
  else declarer's left-hand opponent;
* in the comment after the tags, ``Leads: CA 3, D2 1`` (every legal card of the player on
  lead and the tricks that player's side then takes with best play) and
  ``After HA H4: S4 4, ...`` (the same after those cards have been played);
* for full deals, the ``OptimumResultTable``: declarer's tricks for every declarer and strain.

Run from the repository root::

    python data/verify_problems.py            # ddsolver, and DDS if endplay is installed
    python data/verify_problems.py --no-dds   # ddsolver only
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

try:
    import cardgames  # noqa: F401  (installed, or the checkout is on the path)
except ImportError:  # run as a script from a source checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgames import pbn  # noqa: E402
from cardgames.cards import Card, Seat, Strain  # noqa: E402
from cardgames.hands import Deal  # noqa: E402
from cardgames.scoring import Contract  # noqa: E402

PROBLEMS = Path(__file__).resolve().parent / "problems.pbn"

_CLAIM = re.compile(r"^\s*(?:Leads|After ([^:]*)):\s*(.*?)\s*\}?\s*$")
_SCORE = re.compile(r"([SHDC](?:10|[2-9TJQKA]))\s+(\d+)")


@dataclass(frozen=True)
class Claim:
    """``scores[card]``: tricks for the side to play after ``played``, if it plays ``card``."""

    played: tuple[Card, ...]
    scores: dict[Card, int]


@dataclass(frozen=True)
class Problem:
    board: int
    deal: Deal
    strain: Strain
    leader: Seat
    claims: tuple[Claim, ...]
    table: dict[tuple[Seat, Strain], int] | None  # from OptimumResultTable
    answer: str  # the comment, verbatim


def _claims(comment: str) -> list[Claim]:
    out = []
    for line in comment.splitlines():
        m = _CLAIM.match(line.lstrip("{"))
        if m is None:
            continue
        played = tuple(Card.parse(c) for c in (m.group(1) or "").split())
        scores = {Card.parse(c): int(n) for c, n in _SCORE.findall(m.group(2))}
        if not scores:
            raise ValueError(f"no card scores in {line!r}")
        out.append(Claim(played, scores))
    return out


def _table(game: pbn.Game) -> dict[tuple[Seat, Strain], int] | None:
    tag = game.get("OptimumResultTable")
    if tag is None:
        return None
    table = {}
    for line in tag.section:
        seat, strain, tricks = line.split()
        table[Seat.parse(seat), Strain.parse(strain)] = int(tricks)
    if len(table) != 20:
        raise ValueError(f"board {game.board}: OptimumResultTable has {len(table)} entries")
    return table


def problems(path: Path = PROBLEMS) -> list[Problem]:
    """The problems of the file, with their stated answers."""
    out = []
    with pbn.load_path(path) as reader:
        for game in reader:
            trumps = game.tag("Trumps")
            if trumps is not None:
                strain = Strain.parse(trumps)
            else:
                strain = Contract.parse(game.contract).strain
            leader = game.opening_leader
            if leader is None:
                leader = game.declarer.lho
            answer = "\n".join(game.trailing_comments)
            out.append(Problem(game.board, game.deal, strain, leader,
                               tuple(_claims(answer)), _table(game), answer))
    return out


# ---- the two solvers, same question, same answer format ------------------------------

def ddsolver_scores(problem: Problem, played: tuple[Card, ...]) -> dict[Card, int]:
    from ddsolver import card_scores
    return card_scores(problem.deal, problem.strain, problem.leader, played)


def ddsolver_table(problem: Problem) -> dict[tuple[Seat, Strain], int]:
    from ddsolver import dd_table
    return {(d, s): n for d, s, n in dd_table(problem.deal)}


def dds_scores(problem: Problem, played: tuple[Card, ...]) -> dict[Card, int]:
    from endplay.dds import solve_board
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    deal = EDeal(problem.deal.to_pbn())
    deal.first = Player(int(problem.leader))  # both number N E S W from 0
    deal.trump = Denom(int(problem.strain))   # both number S H D C NT from 0
    for card in played:
        deal.play(str(card))
    return {Card.parse("SHDC"[c.suit] + c.rank.name[1:]): n for c, n in solve_board(deal)}


def dds_table(problem: Problem) -> dict[tuple[Seat, Strain], int]:
    from endplay.dds import calc_dd_table
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    table = calc_dd_table(EDeal(problem.deal.to_pbn()))
    return {(d, s): table[Denom(int(s)), Player(int(d))] for d in Seat for s in Strain}


def check(problem: Problem, solvers: dict[str, tuple]) -> list[str]:
    """Every stated number against every solver; the disagreements, as lines."""
    wrong = []
    for name, (scores, table) in solvers.items():
        for claim in problem.claims:
            got = scores(problem, claim.played)
            if got != claim.scores:
                after = " after " + " ".join(map(str, claim.played)) if claim.played else ""
                wrong.append(f"board {problem.board}{after}: stated "
                             f"{_fmt(claim.scores)}, {name} says {_fmt(got)}")
        if problem.table is not None:
            got_table = table(problem)
            for key, tricks in problem.table.items():
                if got_table[key] != tricks:
                    wrong.append(f"board {problem.board}: {key[0].letter} {key[1].letter} "
                                 f"stated {tricks}, {name} says {got_table[key]}")
    return wrong


def _fmt(scores: dict[Card, int]) -> str:
    return ", ".join(f"{c} {n}" for c, n in sorted(scores.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-dds", action="store_true", help="check with ddsolver only")
    parser.add_argument("path", nargs="?", type=Path, default=PROBLEMS)
    args = parser.parse_args(argv)
    solvers = {"ddsolver": (ddsolver_scores, ddsolver_table)}
    if not args.no_dds:
        try:
            import endplay  # noqa: F401
        except ImportError:
            print("endplay is not installed: checking with ddsolver only "
                  "(pip install '.[bench]' adds DDS)")
        else:
            solvers["DDS"] = (dds_scores, dds_table)
    failures = 0
    for problem in problems(args.path):
        wrong = check(problem, solvers)
        n = len(problem.claims) + (problem.table is not None)
        status = "ok" if not wrong else "WRONG"
        print(f"board {problem.board}: {n} stated answers, {status} "
              f"({', '.join(solvers)})")
        for line in wrong:
            print("  " + line)
        failures += bool(wrong)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
