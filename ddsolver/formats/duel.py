"""The output of ``ddsolver duel``: each deal played with both declarers, and the summary,
as text, JSON or CSV; and every played deal as a PBN game with its play, which ``ddsolver
play`` replays.

The writers take the deals one at a time between ``begin(settings)`` and
``end(summary)``; text and CSV stream, JSON is one object written at the end.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TextIO

from cardgames import pbn
from cardgames.pbn.game import play_section
from cardgames.scoring import format_result

from ..duel import DuelResult, DuelSummary
from .csv_cells import text_cell

__all__ = ["TextWriter", "JsonWriter", "CsvWriter", "WRITERS", "played_games",
           "summary_text"]


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _num(x: float, fmt: str) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)


def summary_text(s: DuelSummary) -> str:
    """The closing figures, in words."""
    a, b = s.methods
    lines = [f"{s.deals} deal{'s' * (s.deals != 1)} played with each declarer"]
    if s.deals:
        lines.append(f"  made: {a} {s.made[0]} ({_pct(s.made[0], s.deals)}), {b} "
                     f"{s.made[1]} ({_pct(s.made[1], s.deals)}); mean tricks "
                     f"{_num(s.mean_tricks[0], '.2f')} and {_num(s.mean_tricks[1], '.2f')}")
        if s.differ:
            lo, hi = s.win_ci
            lines.append(f"  the outcomes differ on {s.differ} deal{'s' * (s.differ != 1)}: "
                         f"{a} makes where {b} fails on {s.first_wins} "
                         f"({_num(100 * s.win_rate, '.1f')}%, 95% interval "
                         f"{_num(100 * lo, '.1f')}-{_num(100 * hi, '.1f')}%), {b} where "
                         f"{a} fails on {s.differ - s.first_wins}")
        else:
            lines.append("  the outcomes never differ")
        lines.append(f"  IMPs a deal to {a}: {_num(s.imps, '+.3f')} (SE "
                     f"{_num(s.imps_se, '.3f')}); matchpoints {_num(100 * s.matchpoints, '.1f')}%")
        lines.append(f"  time per decision: {a} {_num(s.seconds_per_decision[0], '.3f')} s "
                     f"({s.decisions[0]:,} decisions), {b} "
                     f"{_num(s.seconds_per_decision[1], '.3f')} s ({s.decisions[1]:,}); "
                     f"defenders {_num(s.defence_seconds_per_decision, '.3f')} s "
                     f"({s.defence_decisions:,}, those met twice counted twice)")
        if s.relaxed:
            lines.append(f"  {s.relaxed} decision{'s' * (s.relaxed != 1)} dealt worlds without "
                         "the auction's constraints (the play had shown a hand outside them)")
    return "\n".join(lines)


def _outcome(tricks: int, made: bool, need: int) -> str:
    return f"{tricks:>2} {'made' if made else f'-{need - tricks}':<4}"


class TextWriter:
    """A line per deal, then the summary."""

    def __init__(self, out: TextIO):
        self.out = out
        self.differ = 0

    def begin(self, settings: Mapping[str, Any]) -> None:
        a, b = settings["declarers"]
        self.names = (a, b)
        self.out.write(f"ddsolver duel: declarer {settings['describe'][0]} against "
                       f"{settings['describe'][1]}; defenders {settings['defence']}; seed "
                       f"{settings['seed']}\n")
        self.out.write(f"{'deal':<40} {'contract':<8} {'DD':>2}  {a:>10}  {b:>10}  "
                       f"{'IMPs':>4}\n")

    def write(self, r: DuelResult) -> None:
        need = r.deal.contract.tricks_needed
        label = r.deal.label if len(r.deal.label) <= 40 else "..." + r.deal.label[-37:]
        p, q = r.plays
        mark = "  *" if r.differ else ""
        self.differ += r.differ
        self.out.write(f"{label:<40} {str(r.deal.contract):<8} {r.dd_tricks:>2}  "
                       f"{_outcome(p.tricks, p.made, need):>10}  "
                       f"{_outcome(q.tricks, q.made, need):>10}  {r.imps:>+4}{mark}\n")

    def end(self, summary: DuelSummary) -> None:
        key = "(* the outcomes differ)\n" if self.differ else ""
        self.out.write(key + "\n" + summary_text(summary) + "\n")


class JsonWriter:
    """One JSON object: the settings, every deal, the summary."""

    def __init__(self, out: TextIO):
        self.out = out
        self.deals: list[dict] = []

    def begin(self, settings: Mapping[str, Any]) -> None:
        self.settings = dict(settings)

    def write(self, r: DuelResult) -> None:
        self.deals.append(r.to_dict())

    def end(self, summary: DuelSummary) -> None:
        json.dump({"settings": self.settings, "deals": self.deals,
                   "summary": summary.to_dict()}, self.out, indent=1, ensure_ascii=False)
        self.out.write("\n")


class CsvWriter:
    """One row per deal (the summary is the reader's to compute)."""

    FIELDS = ("deal", "board", "contract", "declarer", "vulnerable", "dd_tricks",
              "method_1", "tricks_1", "made_1", "score_1", "method_2", "tricks_2", "made_2",
              "score_2", "imps", "differ")

    def __init__(self, out: TextIO):
        self.out = out

    def begin(self, settings: Mapping[str, Any]) -> None:
        self.writer = csv.writer(self.out, lineterminator="\n")
        self.writer.writerow(self.FIELDS)

    def write(self, r: DuelResult) -> None:
        p, q = r.plays
        self.writer.writerow([text_cell(r.deal.label), r.deal.board, str(r.deal.contract),
                              r.deal.declarer.letter, str(r.deal.vulnerability), r.dd_tricks,
                              p.method, p.tricks, int(p.made), p.score, q.method, q.tricks,
                              int(q.made), q.score, r.imps, int(r.differ)])

    def end(self, summary: DuelSummary) -> None:
        pass


class Writer(Protocol):
    """What the CLI asks of a report writer: the settings, each deal, the summary."""

    def begin(self, settings: Mapping[str, Any]) -> None: ...
    def write(self, r: DuelResult) -> None: ...
    def end(self, summary: DuelSummary) -> None: ...


WRITERS: dict[str, Callable[[TextIO], Writer]] = {
    "text": TextWriter, "json": JsonWriter, "csv": CsvWriter}


def played_games(r: DuelResult, settings: Mapping[str, Any], number: int) -> list[pbn.Game]:
    """The deal's two plays as PBN games (``Board`` ``number``), each with its Play
    section and Result, the declarer's method in ``Declarer``'s seat's player tag."""
    d = r.deal
    out = []
    names = dict(zip(settings["declarers"], settings["describe"]))
    for play in r.plays:
        game = pbn.Game()
        game.set_tag("Event", "ddsolver duel")
        game.set_tag("Site", d.label)
        game.set_tag("Board", str(d.board if d.board is not None else number))
        for seat in ("West", "North", "East", "South"):
            declaring = seat[0] in (d.declarer.letter, d.declarer.partner.letter)
            who = names.get(play.method, play.method) if declaring else settings["defence"]
            game.set_tag(seat, who)
        game.set_tag("Dealer", d.declarer.letter)
        game.set_tag("Vulnerable", str(d.vulnerability))
        game.set_tag("Deal", d.deal.to_pbn())
        game.set_tag("Scoring", "IMP")
        game.set_tag("Declarer", d.declarer.letter)
        game.set_tag("Contract", str(d.contract.call))
        game.set_tag("Result", str(play.tricks))
        game.set_tag("Annotator", f"ddsolver duel, seed {settings['seed']}, "
                                  f"{settings['worlds']} worlds: "
                                  f"{format_result(d.contract, play.tricks)}")
        game.set_section("Play", d.declarer.lho.letter,
                         play_section(play.played, d.declarer.lho, d.contract.strain))
        out.append(game)
    return out

