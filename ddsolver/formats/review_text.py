"""The text and JSON of ``ddsolver review``: each board from the player's seat and the
session's summary (JSON: one object, written at the end)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from ..review import NO_CONTRACT, BoardReview, SessionSummary

__all__ = ["TextWriter", "JsonWriter", "board_text", "facts_text", "summary_text"]


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def facts_text(r: BoardReview) -> str:
    """The board's result in a line: contract, tricks, double dummy, par, points."""
    if r.contract is None:
        if r.role == NO_CONTRACT:   # nothing recorded: no points to set against par
            return (f"{NO_CONTRACT} (no auction that ends, no Contract tag); "
                    f"par {r.par or '?'}")
        return f"passed out; par {r.par or '?'}"
    took = "?" if r.tricks is None else str(r.tricks)
    head = f"{r.contract}: took {took}, double dummy {r.dd}"
    if r.par is not None:
        head += f"; par {r.par}"
    if r.score is not None and r.par_score is not None:
        head += f"; your side {r.score:+d} against par {r.par_score:+d}"
    return head


def board_text(r: BoardReview) -> str:
    lines = [f"{r.label}  {r.seat.letter} ({r.role})", f"  {facts_text(r)}"]
    if r.contract is None:
        return "\n".join(lines) + "\n"
    if r.lead is not None:
        t = r.lead
        real = ("" if t.real_cost is None else
                f"; on the real deal {t.real_cost} trick{'s' * (t.real_cost != 1)} "
                "double dummy")
        tied = ", tied with the best on every deal" if t.tied else ""
        lines.append(f"  lead {t.card}: ranked {t.place} of {t.leads}{tied}, costs "
                     f"{t.cost_tricks:.2f} ± {t.cost_tricks_se:.2f} tricks, "
                     f"{t.cost_imps:.2f} IMPs, {t.cost_mp:.1f} MP% against the best lead"
                     f"{real}")
    elif r.lead_seen:
        lines.append(f"  lead: {r.lead_seen}")
    for c in r.costly:
        sd = c.single_dummy
        if sd is None:
            verdict = "not asked single dummy"
        elif sd.worse:
            verdict = (f"a mistake from your seat too: {sd.best} was better single dummy "
                       f"({sd.best} {sd.best_value:.2f}, {c.card} {sd.value:.2f}; "
                       f"{sd.worlds} worlds)")
        else:
            verdict = (f"only double dummy: single dummy it was as good as any "
                       f"({sd.worlds} worlds)")
        lines.append(f"  trick {c.trick}: {c.seat.letter} {c.card} cost {c.cost} "
                     f"trick{'s' * (c.cost != 1)} double dummy; {verdict}")
    if r.line is not None:
        _, card, chance, best, best_chance = r.line
        lines.append(f"  line: {card} at your first choice makes in {100 * chance:.0f}% of "
                     "the worlds from your seat" + (
                         ", as much as any card" if chance >= best_chance else
                         f"; the best, {best}, in {100 * best_chance:.0f}%"))
    if r.claim is not None:
        after, claimed, there = r.claim
        lines.append(f"  claim after {after} card{'s' * (after != 1)}: {claimed} tricks, double dummy {there}"
                     + (f": {r.claim_tricks} trick{'s' * (r.claim_tricks != 1)} given up"
                        if r.claim_tricks else ""))
    if not r.costly and r.role != "dummy":
        lines.append("  no card of yours cost a trick double dummy")
    for note in r.notes:
        lines.append(f"  note: {note}")
    return "\n".join(lines) + "\n"


def summary_text(s: SessionSummary, player: str) -> str:
    lines = [f"{player}: {s.boards} board{'s' * (s.boards != 1)} ({s.declared} declared, "
             f"{s.defended} defended, {s.dummy} as dummy)"]
    lines.append(f"  tricks lost double dummy: by the opening lead {s.lead_tricks} "
                 f"({s.leads_judged} leads judged), by declarer play {s.declarer_tricks} "
                 f"({s.declarer_visible} visible single dummy), by defence "
                 f"{s.defence_tricks} ({s.defence_visible} visible single dummy), by "
                 f"claims {s.claim_tricks}")
    lines.append(f"  points lost double dummy: by the lead {s.lead_points}, by declarer "
                 f"play {s.declarer_points}, by defence {s.defence_points}, by claims "
                 f"{s.claim_points}")
    if s.lines_judged:
        lines.append(f"  declarer's lines: {s.lines_judged} judged at the first choice, "
                     f"{100 * s.line_given_up:.0f} points of chance to make given up in all")
    if s.scored == 0:
        lines.append("  points: no board has a result and a par to set against each other")
    else:
        on = "" if s.scored == s.boards else \
            f" (on the {s.scored} board{'s' * (s.scored != 1)} with a result and a par)"
        lines.append(f"  points: {s.score:+d} against par {s.par_score:+d} "
                     f"({s.score - s.par_score:+d}){on}")
    if s.worst:
        lines.append("  where the most was lost: " + ", ".join(
            f"{b} ({t} trick{'s' * (t != 1)})" for b, t in s.worst))
    return "\n".join(lines) + "\n"


class TextWriter:
    def __init__(self, out: TextIO):
        self.out = out

    def begin(self, settings: Mapping[str, Any]) -> None:
        self.player = settings["player"]
        self.out.write(f"ddsolver review of {self.player}: single dummy by "
                       f"{settings['method']}, {settings['samples']} worlds, seed "
                       f"{settings['seed']}\n\n")

    def write(self, r: BoardReview) -> None:
        self.out.write(board_text(r) + "\n")

    def end(self, summary: SessionSummary, problems: Sequence[str] = ()) -> None:
        self.out.write(summary_text(summary, self.player))


class JsonWriter:
    def __init__(self, out: TextIO):
        self.out = out
        self.boards: list[dict[str, Any]] = []

    def begin(self, settings: Mapping[str, Any]) -> None:
        self.settings = dict(settings)

    def write(self, r: BoardReview) -> None:
        self.boards.append(r.to_dict())

    def end(self, summary: SessionSummary, problems: Sequence[str] = ()) -> None:
        json.dump({"settings": self.settings, "boards": self.boards,
                   "summary": summary.to_dict()}, self.out, indent=1, allow_nan=False)
        self.out.write("\n")
