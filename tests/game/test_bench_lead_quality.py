"""bench/bench_lead_quality.py's ``--reuse``: an earlier run's answer is taken only for the
same question -- the same leader's hand, contract, vulnerability and constraints -- wherever the
board sits in the file, so a file made again with its boards moved (the robot's deals under
a changed system) is measured exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench_scripts import load_bench_script

# Two deals bid the same way: their hidden hands are dealt under the same constraints.
DEALS = ["N:AK32.KQ2.K32.Q32 QJ54.A43.QJ4.J54 T98.J98.A98.K876 76.T765.T765.AT9",
         "N:AQ32.KJ2.KQ2.J32 KJ54.A43.J43.Q54 T98.Q98.A98.K876 76.T765.T765.AT9"]


def game(board: int, deal: str) -> str:
    return (f'[Event "reuse"]\n[Board "{board}"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
            f'[Deal "{deal}"]\n[Declarer "N"]\n[Contract "3NT"]\n'
            '[Auction "N"]\n1NT Pass 3NT Pass\nPass Pass\n')


@pytest.fixture(scope="module")
def bench():
    return load_bench_script("bench_lead_quality")


def run(bench, pbn: Path, results: Path, *more: str) -> dict[str, dict]:
    assert bench.main([str(pbn), "--no-table-lead", "--samples", "6", "--seed", "3",
                       "--jobs", "1", "--modes", "inference", "--no-calibration",
                       "--results", str(results), *more]) == 0
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    return {r["deal"]: r for r in lines[1:]}


def test_reuse_follows_the_question_not_the_line(bench, tmp_path, capsys):
    first, again = tmp_path / "first", tmp_path / "again"
    first.mkdir()
    again.mkdir()
    (first / "boards.pbn").write_text("\n".join(game(i + 1, d) for i, d in enumerate(DEALS)))
    # the same boards, the other way round: each deal now sits at the other's line
    (again / "boards.pbn").write_text("\n".join(game(i + 1, d)
                                                for i, d in enumerate(reversed(DEALS))))
    before = run(bench, first / "boards.pbn", tmp_path / "before.jsonl")
    assert set(before) == set(DEALS)
    a, b = (before[d]["inference"] for d in DEALS)
    assert a["dealt"] == b["dealt"] and a["stats"] != b["stats"]   # one question each
    after = run(bench, again / "boards.pbn", tmp_path / "after.jsonl",
                "--reuse", str(tmp_path / "before.jsonl"))
    for deal in DEALS:
        assert after[deal]["line"] != before[deal]["line"]
        got = after[deal]["inference"]
        assert got.get("reused") is True
        assert {k: got[k] for k in ("lead", "stats", "dealt")} == \
            {k: before[deal]["inference"][k] for k in ("lead", "stats", "dealt")}
    capsys.readouterr()
