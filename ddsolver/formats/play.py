"""The output of ``ddsolver play``: the double-dummy analysis of each board's recorded play,
trick by trick, as text or JSON.

:func:`record` is a board's JSON object; :func:`board_text` its text block.  The writers
take the boards one at a time between ``begin()`` and ``end()``, so a large file streams.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from cardgames.play import Position

from ..analysis import PlayAnalysis
from ..boards import PlayedBoard

__all__ = ["record", "board_text", "TextWriter", "JsonWriter", "WRITERS"]


def record(board: PlayedBoard, analysis: PlayAnalysis) -> dict[str, Any]:
    """The JSON object of one board."""
    costly = {e.index: e for e in analysis.errors}
    cards = []
    position = Position(analysis.deal, analysis.strain, analysis.leader)
    for i, card in enumerate(analysis.played):
        seat = position.to_move
        position.play(card)
        entry: dict[str, Any] = {"card": str(card), "seat": seat.letter, "trick": i // 4 + 1,
                                 "dd": analysis.tricks[i + 1]}
        if i in costly:
            entry["cost"] = costly[i].cost
        cards.append(entry)
    complete = len(analysis.played) == 4 * analysis.deal.cards_per_hand
    result = board.game.result
    claim = None
    if not complete and result is not None:
        # The play stops and the Result says how it ended: a claim (or a concession).
        there = analysis.tricks[-1]
        claim = {"after_cards": len(analysis.played), "claimed": result, "dd": there,
                 "difference": result - there}
    return {
        "file": board.source,
        "line": board.line,
        "board": board.number,
        "deal": analysis.deal.to_pbn(),
        "contract": board.contract.call,
        "declarer": board.contract.declarer.letter,  # type: ignore[union-attr]
        "leader": analysis.leader.letter,
        "cards_per_hand": analysis.deal.cards_per_hand,
        "declarer_won": analysis.declarer_won,
        "dd_start": analysis.tricks[0],
        "tricks_taken": analysis.tricks[-1] if complete else None,
        "result_tag": result,
        "claim": claim,
        "cards": cards,
        "errors": [{"card": str(e.card), "seat": e.seat.letter, "trick": e.trick,
                    "index": e.index, "side": "declarer" if e.declaring else "defence",
                    "cost": e.cost, "before": e.before, "after": e.after}
                   for e in analysis.errors],
        "declarer_cost": analysis.cost("declarer"),
        "defence_cost": analysis.cost("defence"),
    }


def board_text(board: PlayedBoard, analysis: PlayAnalysis) -> str:
    """A board's text block: where it came from, contract and lead, the deal, declarer's
    side's tricks at the start (and taken), a line per trick with the costly cards marked
    ``?``, and who played them."""
    rec = record(board, analysis)
    number = board.name or "?"
    contract = board.contract
    declarer = contract.declarer
    assert declarer is not None
    lines = [f"{board.source} board {number}  {contract.call} by {declarer.letter}  "
             f"lead {analysis.leader.letter}",
             analysis.deal.to_pbn()]
    n = analysis.deal.cards_per_hand
    if n < 13:
        won = analysis.declarer_won
        said = ("" if board.game.tag("DeclarerWon") not in (None, "", "?") else
                " (no DeclarerWon tag: none counted)")
        lines.append(f"An ending of {n} card{'s' * (n != 1)} a hand: declarer's side won "
                     f"{won} of the {13 - n} trick{'s' * (13 - n != 1)} before it{said}")
    start = analysis.tricks[0]
    head = f"Double dummy, declarer's side takes {start} at the start"
    if rec["tricks_taken"] is not None:
        head += f"; took {rec['tricks_taken']}"
        need = contract.tricks_needed
        over = rec["tricks_taken"] - need
        head += f" ({contract.call}{'=' if over == 0 else f'{over:+d}'})"
    claim = rec["claim"]
    if claim is not None:
        d = claim["difference"]
        verdict = ("what there was" if d == 0 else
                   f"{d} trick{'s' * (d != 1)} more than there was" if d > 0 else
                   f"{-d} trick{'s' * (d != -1)} fewer than there was")
        after = claim["after_cards"]
        head += (f"; claimed {claim['claimed']} after {after} card{'s' * (after != 1)}, "
                 f"double dummy {claim['dd']} there: {verdict}")
    elif rec["result_tag"] is not None and rec["result_tag"] != rec["tricks_taken"]:
        head += f"; the Result tag says {rec['result_tag']}"
    elif rec["result_tag"] is None and board.game.known("Result"):
        # (PBN's Result is declarer's tricks; a score or "NS 10" is no trick count)
        head += (f"; the Result tag {board.game.known('Result')!r} is not a trick count "
                 f"(0-13), so it is not judged")
    lines.append(head)
    lines.append("trick  lead  cards in play order    DD after")
    for start_index in range(0, len(rec["cards"]), 4):
        trick = rec["cards"][start_index:start_index + 4]
        cells = []
        for c in trick:
            mark = "?" if "cost" in c else " "
            cells.append(f"{c['card']}{mark}".ljust(5))
        lines.append(f"{trick[0]['trick']:>5}  {trick[0]['seat']:<4}  {' '.join(cells):<22} "
                     f"{trick[-1]['dd']:>3}")
    if analysis.errors:
        lines.append("Costly cards (?):")
        for e in analysis.errors:
            who = "declarer's side" if e.declaring else "the defence"
            lines.append(f"  trick {e.trick}: {e.seat.letter} played {e.card}, {who} lost "
                         f"{e.cost} trick{'s' * (e.cost != 1)} ({e.before} -> {e.after})")
        lines.append(f"Tricks given away: declarer's side {rec['declarer_cost']}, "
                     f"the defence {rec['defence_cost']}.")
    else:
        lines.append("No costly card: both sides played perfectly, double dummy.")
    return "\n".join(lines) + "\n"


class TextWriter:
    """A block per board (see :func:`board_text`), an empty line between blocks."""

    def __init__(self, out: TextIO):
        self.out = out
        self.first = True

    def begin(self) -> None:
        pass

    def write(self, board: PlayedBoard, analysis: PlayAnalysis) -> None:
        self.out.write(("" if self.first else "\n") + board_text(board, analysis))
        self.first = False

    def end(self) -> None:
        pass


class JsonWriter:
    """One JSON array, an object per board (see :func:`record`)."""

    def __init__(self, out: TextIO):
        self.out = out
        self.count = 0

    def begin(self) -> None:
        self.out.write("[")

    def write(self, board: PlayedBoard, analysis: PlayAnalysis) -> None:
        self.out.write(("\n  " if self.count == 0 else ",\n  ")
                       + json.dumps(record(board, analysis)))
        self.count += 1

    def end(self) -> None:
        self.out.write("\n]\n")


#: The writer of each ``--format``.
WRITERS: dict[str, type[TextWriter] | type[JsonWriter]] = {"text": TextWriter, "json": JsonWriter}
