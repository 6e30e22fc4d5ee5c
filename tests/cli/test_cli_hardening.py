"""The command line under hostile or careless input: absurd option values, hostile file
names, signals, outputs that cannot be written, two runs on one store.  Each test names
the fault it guards against; every one must end in one plain line and a proper exit
status, never a traceback or a half-written output.
"""

from __future__ import annotations

import csv
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ddsolver.leads as leads_module
from cardgames.constraint_syntax import parse_constraint
from cardgames.errors import ParseError

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
PROBLEMS = DATA / "problems.pbn"
PLAYED = DATA / "played.pbn"
HAND = ("--hand", "KQ72.J83.T94.A65", "--contract", "4S", "--declarer", "S")
FAST = ("--samples", "2", "--seed", "1", "--quiet")


def env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT))


def plain_error(status: int, err: str) -> str:
    """The one line of a usage error (exit status 2), checked to be just that."""
    assert status == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# ---- leads: constraints that used to crash the parser -----------------------------------

@pytest.mark.parametrize("text, why", [
    ("1" * 5000 + " hcp", "number too large"),
    ("hcp>=" + "9" * 5000, "number too large"),
    ("top" + "1" * 5000 + " spades>=1", "number too large"),
    ("(" * 5000 + "any" + ")" * 5000, "nest more than"),
    ("not " * 5000 + "any", "nest more than"),
    ("(not " * 3000 + "any" + ")" * 3000, "nest more than"),
], ids=["digits", "digits-after-op", "top-digits", "parentheses", "not", "mixed"])
def test_leads_absurd_constraint_is_a_usage_error(run_cli, text, why):
    line = plain_error(*run_cli("leads", *HAND, *FAST, "--north", text)[::2])
    assert line.startswith("ddsolver leads: error: --north: ") and why in line


def test_constraint_nesting_up_to_the_limit_still_parses():
    from cardgames.constraint_syntax import MAX_DEPTH
    assert parse_constraint("(" * MAX_DEPTH + "12+ hcp" + ")" * MAX_DEPTH)
    assert parse_constraint("not " * (MAX_DEPTH - 1) + "not balanced")
    with pytest.raises(ParseError, match="nest"):
        parse_constraint("not " * (MAX_DEPTH + 1) + "balanced")
    # Leading zeros are not digits of the value.
    assert str(parse_constraint("0" * 50 + "12+ hcp")) == "12+ hcp"


def test_huge_whole_number_option_is_too_large_not_a_bad_number(capsys):
    from ddsolver.cli import main
    with pytest.raises(SystemExit) as stop:  # argparse's own error: usage, then the line
        main(["leads", *HAND, "--samples", "9" * 5000])
    assert stop.value.code == 2
    assert "argument -n/--samples: too large: 5,000 digits" in capsys.readouterr().err


# ---- leads: signals, names, budgets ------------------------------------------------------

def test_leads_stopped_by_sigterm_exits_143(tmp_path):
    out = tmp_path / "report.txt"
    proc = subprocess.Popen([sys.executable, "-m", "ddsolver", "leads", *HAND, "--samples",
                             "100000", "--seed", "1", "-q", "-o", str(out)],
                            stderr=subprocess.PIPE, text=True, env=env())
    try:
        # -o is opened inside the run, after the SIGTERM handler is in place.
        deadline = time.monotonic() + 60
        while not out.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
        time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err
    assert "terminated" in err and "Traceback" not in err


def test_leads_save_deals_refuses_an_input_name_with_a_line_break_before_any_work(
        run_cli, tmp_path):
    path = tmp_path / "a\nb.pbn"
    path.write_bytes(PLAYED.read_bytes())
    saved = tmp_path / "deals.pbn"
    status, out, err = run_cli("leads", path, *FAST, "--save-deals", saved)
    line = plain_error(status, err)
    assert "line break" in line and "--save-deals" in line
    assert out == "" and not saved.exists()
    # Without --save-deals the name is no problem.
    assert run_cli("leads", path, *FAST)[0] == 0


class _FakePool:
    """Stands in for the solver pool of analyse_leads: every lead scores 7 tricks, and the
    size of each request is recorded."""

    sizes: list[int] = []

    def __init__(self, jobs, tt_mb):
        pass

    def map(self, deals, strain, leader, progress):
        _FakePool.sizes.append(len(deals))
        hand = deals[0][leader] if deals else None
        return [{card: 7 for card in hand} for _ in deals]

    def close(self):
        pass


def test_leads_deals_and_solves_a_chunk_at_a_time(monkeypatch):
    """A large sample is dealt in chunks of DEAL_CHUNK deals, each solved before the next is
    dealt (so memory does not grow with --samples), and the deals are those of dealing the
    whole sample in one go."""
    from cardgames.sampling import Sampler
    from ddsolver import analyse_leads
    monkeypatch.setattr(leads_module, "_Pool", _FakePool)
    _FakePool.sizes = []
    n = 2 * leads_module.DEAL_CHUNK + 7
    report = analyse_leads("KQ72.J83.T94.A65", "4S", "S", samples=n, seed=5,
                           constraints={"N": "10+ hcp"})
    assert report.samples == n and max(_FakePool.sizes) == leads_module.DEAL_CHUNK
    whole = Sampler({"W": "KQ72.J83.T94.A65"}, {"N": "10+ hcp"}, seed=5).sample(n)
    assert list(report.deals) == whole


def test_leads_many_samples_without_constraints_do_not_blame_constraints(monkeypatch):
    """--samples far beyond one dealing budget: dealt a chunk at a time, each within the
    budget, rather than failing with 'the constraints accept too few deals'."""
    from ddsolver import analyse_leads
    monkeypatch.setattr(leads_module, "_Pool", _FakePool)
    report = analyse_leads("KQ72.J83.T94.A65", "4S", "S", samples=5000, seed=1,
                           max_attempts=4096, keep_deals=False)
    assert report.samples == 5000


def test_sampler_budget_message_without_constraints_names_the_request():
    from cardgames.errors import SamplingError
    from cardgames.sampling import Sampler
    sampler = Sampler({"W": "KQ72.J83.T94.A65"}, {}, seed=1, max_attempts=4096)
    with pytest.raises(SamplingError) as caught:
        sampler.sample(10_000)
    assert "constraints" not in str(caught.value) and "fewer" in str(caught.value)


def test_leads_stop_z_checks_at_batch_ends_across_chunks(monkeypatch):
    """With --batch larger than a chunk, the stopping rule is still looked at after each
    whole batch (all leads score alike here: tied, so it stops at the first look)."""
    from ddsolver import analyse_leads
    monkeypatch.setattr(leads_module, "_Pool", _FakePool)
    batch = leads_module.DEAL_CHUNK + leads_module.DEAL_CHUNK // 2
    report = analyse_leads("KQ72.J83.T94.A65", "4S", "S", samples=10 * batch, seed=1,
                           stop_z=3.0, batch=batch, min_samples=2, keep_deals=False)
    assert report.stopped_early and report.samples == batch


# ---- --jobs ------------------------------------------------------------------------------

def test_absurd_jobs_is_capped_with_a_warning(run_cli, tmp_path):
    from ddsolver.cli._common import jobs_limit
    out = tmp_path / "t.json"
    status, _, err = run_cli("table", PROBLEMS, "--jobs", "100000", "-q", "--format", "json",
                             "-o", out)
    assert status == 0, err
    assert f"--jobs 100000 is more than this machine can use; running {jobs_limit()}" in err
    reference = tmp_path / "ref.json"
    assert run_cli("table", PROBLEMS, "-j", "1", "-q", "--format", "json", "-o",
                   reference)[0] == 0
    assert out.read_bytes() == reference.read_bytes()


def test_absurd_jobs_is_capped_in_leads_too(run_cli):
    status, _, err = run_cli("leads", *HAND, *FAST, "--jobs", "100000")
    assert status == 0 and "running" in err and "Traceback" not in err


def test_table_with_absurd_jobs_does_not_read_far_ahead(tmp_path, run_cli, monkeypatch):
    """The boards read ahead of the solvers are bounded by the capped --jobs."""
    import ddsolver.boards as boards
    from ddsolver.cli._common import jobs_limit
    seen: list[int] = []
    real = boards.chunks

    def chunks(items, size):
        seen.append(size)
        return real(items, size)
    monkeypatch.setattr(boards, "chunks", chunks)
    assert run_cli("table", PROBLEMS, "--jobs", "100000", "-q")[0] == 0
    assert seen and max(seen) <= boards.CHUNK_PER_JOB * jobs_limit()


# ---- CSV ---------------------------------------------------------------------------------

def test_leads_csv_keeps_a_file_name_with_a_comma_in_one_cell(run_cli, tmp_path):
    path = tmp_path / 'x,y "z".pbn'
    path.write_bytes(PLAYED.read_bytes())
    status, out, err = run_cli("leads", path, *FAST, "--format", "csv")
    assert status == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][:4] == ["source", "line", "board", "label"]
    assert len(rows) > 2 and all(len(r) == len(rows[0]) for r in rows)
    assert {r[0] for r in rows[1:]} == {str(path)}


@pytest.mark.parametrize("start", ["=", "+", "-", "@"])
def test_csv_guards_file_names_that_would_be_spreadsheet_formulas(run_cli, tmp_path, start,
                                                                  monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = f"{start}HYPERLINK(1).pbn"
    Path(name).write_bytes(PLAYED.read_bytes())
    status, out, err = run_cli("leads", *FAST, "--format", "csv", "--", name)
    assert status == 0, err
    assert {r[0] for r in list(csv.reader(io.StringIO(out)))[1:]} == {"'" + name}
    status, out, err = run_cli("table", "--format", "csv", "-q", "--", name)
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows and {r["file"] for r in rows} == {"'" + name}


def test_table_csv_writes_negative_par_scores_as_numbers(run_cli):
    status, out, _ = run_cli("table", DATA / "session.pbn", "--format", "csv", "-q")
    scores = [r["par_score"] for r in csv.DictReader(io.StringIO(out)) if r["par_score"]]
    assert any(s.startswith("-") for s in scores)
    assert all(int(s) == int(s.lstrip("'")) and not s.startswith("'") for s in scores)
