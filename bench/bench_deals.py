"""The deals the benchmarks measure on: seeded random deals, DDS's hand files, PBN files.

Two seeded generators, each the deal set of the scripts that use it (changing either changes
their figures):

* :func:`random_boards` -- ``bench_dds.py`` and ``walk_dds.py``: deals from
  ``cardgames.minimax.random_ending``, each with a random contract;
* :func:`shuffled_deals` -- ``bench_cli.py`` and ``bench_cluster.py``: the pack shuffled and
  dealt 13 to each hand, as ``data/make_session.py`` does, written out by :func:`write_pbn`.

:func:`read_dds_txt` reads DDS's ``list*.txt`` / ``largest.txt`` (:data:`DEFAULT_LARGEST`
is the hard boards ``bench_dds.py`` times).  cardgames is imported inside the functions, so
a script can import this module before it puts its checkout on ``sys.path``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench_env import ROOT
from dds_peer import expand_groups

if TYPE_CHECKING:
    from cardgames import Card, Deal

DEFAULT_LARGEST = ROOT.parent / "shared" / "data" / "dds-hands" / "largest.txt"


def random_boards(seed: int, n: int) -> list[tuple[Deal, int, int]]:
    """``n`` seeded random deals, each with a random contract: ``(deal, strain, declarer)``.
    Drawn one deal at a time, so the first k boards are the same for any n >= k."""
    from cardgames.minimax import random_ending
    rng = random.Random(seed)
    boards: list[tuple[Deal, int, int]] = []
    for _ in range(n):
        deal = random_ending(rng, 13)
        boards.append((deal, rng.randrange(5), rng.randrange(4)))
    return boards


def shuffled_deals(seed: int, n: int) -> list[Deal]:
    """``n`` seeded random deals: the pack shuffled and dealt 13 cards to each hand."""
    from cardgames.cards import ALL_CARDS
    from cardgames.hands import Deal, Hand
    rng = random.Random(seed)
    deals: list[Deal] = []
    for _ in range(n):
        cards = list(ALL_CARDS)
        rng.shuffle(cards)
        deals.append(Deal(tuple(Hand.from_cards(cards[i * 13:(i + 1) * 13]) for i in range(4))))
    return deals


def write_pbn(deals: list[Deal], path: Path) -> None:
    """A PBN file of ``deals`` as boards 1, 2, ..., with the standard dealer and
    vulnerability rotation."""
    from cardgames.scoring import board_dealer, board_vulnerability
    with path.open("w") as fp:
        fp.write("% PBN 2.1\n")
        for board, deal in enumerate(deals, 1):
            dealer = board_dealer(board)
            fp.write(f'[Board "{board}"]\n[Dealer "{dealer.letter}"]\n'
                     f'[Vulnerable "{board_vulnerability(board)}"]\n'
                     f'[Deal "{deal.to_pbn(dealer)}"]\n\n')


@dataclass
class FileBoard:
    number: int
    deal: Deal
    trump: int
    first: int
    table: tuple[tuple[int, ...], ...]   # rows[declarer][strain], from the file
    fut: dict[Card, int]                # {Card: score}, from the file


def read_dds_txt(path: Path) -> list[FileBoard]:
    """Boards of a DDS ``list*.txt`` / ``largest.txt`` file (format: README.md beside it).
    Only the PBN, FUT and TABLE lines are used here.

    :raises ValueError: a line that cannot be read, with the file and line number.
    :raises OSError: the file cannot be read.
    """
    from cardgames import Deal
    boards: list[FileBoard] = []
    pending: dict[str, Any] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        tag, _, rest = line.strip().partition(" ")
        try:
            if tag == "PBN":
                head, _, quoted = rest.partition('"')
                _dealer, _vul, trump, first = (int(x) for x in head.split())
                pending = {"deal": Deal.from_pbn(quoted.rstrip().rstrip('"')),
                           "trump": trump, "first": first}
            elif tag == "FUT":
                nums = [int(x) for x in rest.split()]
                n = nums[0]
                cols = [nums[1 + k * n:1 + (k + 1) * n] for k in range(4)]
                pending["fut"] = expand_groups(zip(*cols))
            elif tag == "TABLE":
                nums = [int(x) for x in rest.split()]
                if len(nums) != 20:
                    raise ValueError(f"expected 20 numbers, got {len(nums)}")
                table = tuple(tuple(nums[s * 4 + d] for s in range(5)) for d in range(4))
                boards.append(FileBoard(len(boards) + 1, pending["deal"], pending["trump"],
                                        pending["first"], table, pending["fut"]))
        except (ValueError, KeyError, IndexError) as err:
            raise ValueError(f"{path}:{lineno}: cannot read {tag} line: {err}") from err
    return boards
