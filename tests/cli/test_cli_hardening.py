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


def first_games(path: Path, n: int) -> bytes:
    """The file's first ``n`` games (with the header before them): the tests of file
    names and CSV cells need a board or a few, not a whole session's tables."""
    return b"\n\n".join(path.read_bytes().split(b"\n\n")[:n]) + b"\n\n"


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
        # -o is opened inside the run, after the SIGTERM handler is in place (written
        # beside its path under a hidden name until the run ends).
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob(".report.txt.*.part")) and \
                time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
        time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err
    assert "terminated" in err and "Traceback" not in err
    assert not out.exists() and list(tmp_path.iterdir()) == []


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

    def map(self, fn, deals, progress=None):
        deals = list(deals)
        _FakePool.sizes.append(len(deals))
        hand = deals[0].west if deals else None
        return [{card: 7 for card in hand} for _ in deals]

    def close(self):
        pass


def test_leads_deals_and_solves_a_chunk_at_a_time(monkeypatch):
    """A large sample is dealt in chunks of DEAL_CHUNK deals, each solved before the next is
    dealt (so memory does not grow with --samples), and the deals are those of dealing each
    block of DEAL_CHUNK deals in one go from its own stream (ddsolver.lead_chunks: the seed's
    own for the first, its SeedSequence children after)."""
    import numpy as np

    from cardgames.sampling import Sampler
    from ddsolver import analyse_leads
    monkeypatch.setattr(leads_module, "SolverPool", _FakePool)
    _FakePool.sizes = []
    n = 2 * leads_module.DEAL_CHUNK + 7
    report = analyse_leads("KQ72.J83.T94.A65", "4S", "S", samples=n, seed=5,
                           constraints={"N": "10+ hcp"})
    assert report.samples == n and max(_FakePool.sizes) == leads_module.DEAL_CHUNK
    children = np.random.SeedSequence(5).spawn(2)
    whole = [d for seed, size in ((5, 1000), (children[0], 1000), (children[1], 7))
             for d in Sampler({"W": "KQ72.J83.T94.A65"}, {"N": "10+ hcp"}, seed=seed)
             .sample(size)]
    assert list(report.deals) == whole


def test_leads_hands_out_the_deals_a_chunk_at_a_time_for_save_deals(monkeypatch):
    """on_games (what --save-deals writes with) gets every deal as soon as its chunk is
    solved: together, exactly the games the report would give at the end."""
    from ddsolver import analyse_leads
    monkeypatch.setattr(leads_module, "SolverPool", _FakePool)
    chunks: list[list] = []
    n = leads_module.DEAL_CHUNK + 3
    report = analyse_leads("KQ72.J83.T94.A65", "4S", "S", samples=n, seed=5,
                           on_games=chunks.append)
    assert [len(c) for c in chunks] == [leads_module.DEAL_CHUNK, 3]
    assert [g.to_pbn() for c in chunks for g in c] == [g.to_pbn() for g in report.games()]


def test_leads_save_deals_file_is_the_report_deals(run_cli, tmp_path):
    from cardgames import pbn
    saved = tmp_path / "deals.pbn"
    status, _, err = run_cli("leads", *HAND, "--samples", "3", "--seed", "4", "-q",
                             "--save-deals", saved, "--format", "json")
    assert status == 0, err
    report = leads_module.analyse_leads("KQ72.J83.T94.A65", "4S", "S", samples=3, seed=4)
    assert saved.read_text() == pbn.dumps(report.games())


def test_leads_many_samples_without_constraints_do_not_blame_constraints(monkeypatch):
    """--samples far beyond one dealing budget: dealt a chunk at a time, each within the
    budget, rather than failing with 'the constraints accept too few deals'."""
    from ddsolver import analyse_leads
    monkeypatch.setattr(leads_module, "SolverPool", _FakePool)
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
    monkeypatch.setattr(leads_module, "SolverPool", _FakePool)
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
    import ddsolver.batch as boards
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
    path.write_bytes(first_games(PLAYED, 2))
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
    Path(name).write_bytes(first_games(PLAYED, 1))
    status, out, err = run_cli("leads", *FAST, "--format", "csv", "--", name)
    assert status == 0, err
    assert {r[0] for r in list(csv.reader(io.StringIO(out)))[1:]} == {"'" + name}
    status, out, err = run_cli("table", "--format", "csv", "-q", "--", name)
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows and {r["file"] for r in rows} == {"'" + name}


def test_table_csv_writes_negative_par_scores_as_numbers(run_cli, tmp_path):
    path = tmp_path / "eight.pbn"
    path.write_bytes(first_games(DATA / "session.pbn", 8))
    status, out, _ = run_cli("table", path, "--format", "csv", "-q")
    scores = [r["par_score"] for r in csv.DictReader(io.StringIO(out)) if r["par_score"]]
    assert any(s.startswith("-") for s in scores)
    assert all(int(s) == int(s.lstrip("'")) and not s.startswith("'") for s in scores)


# ---- outputs that cannot be written ------------------------------------------------------

needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")


@needs_dev_full
@pytest.mark.parametrize("argv", [
    ["table", PROBLEMS, "-o", "/dev/full"],
    ["table", PROBLEMS, "--format", "pbn", "-o", "/dev/full"],
    ["table", PROBLEMS, "--format", "csv", "-o", "/dev/full"],
    ["report", PROBLEMS, "--html", "/dev/full"],
    ["play", PLAYED, "-o", "/dev/full"],
    ["leads", *HAND, *FAST, "-o", "/dev/full"],
    ["leads", PLAYED, *FAST, "-o", "/dev/full"],
    ["leads", *HAND, *FAST, "--save-deals", "/dev/full"],
], ids=["table", "table-pbn", "table-csv", "report", "play", "leads", "leads-files",
        "leads-save-deals"])
def test_a_full_disk_is_one_line_and_exit_2(run_cli, argv):
    status, _, err = run_cli(*argv)
    line = plain_error(status, err)
    # (leads on files used to blame the input: "cannot read played.pbn: No space left")
    assert "cannot write" in line and "/dev/full: No space left on device" in line


@needs_dev_full
@pytest.mark.parametrize("argv", [
    ["table", PROBLEMS], ["table", PROBLEMS, "--format", "pbn"], ["play", PLAYED],
    ["solve", "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872",
     "--strain", "NT", "--declarer", "S"],
    ["leads", *HAND, *FAST],
], ids=["table", "table-pbn", "play", "solve", "leads"])
def test_standard_output_on_a_full_disk_is_one_line_and_exit_2(argv):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "ddsolver", *map(str, argv)],
                              stdout=full, stderr=subprocess.PIPE, text=True, env=env(),
                              timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"ddsolver {argv[0]}: error: cannot write standard output: No space left on device"]


@needs_dev_full
def test_a_full_disk_keeps_what_was_solved_in_the_store(run_cli, tmp_path):
    db = tmp_path / "tables.sqlite"
    status, _, err = run_cli("table", PROBLEMS, "-o", "/dev/full", "--db", db, "-j", "1")
    line = plain_error(status, err)
    assert f"saved in {db}" in line and "--resume" in line
    import sqlite3
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM dd_tables").fetchone()[0] >= 1
    out, reference = tmp_path / "out.txt", tmp_path / "ref.txt"
    status, _, err = run_cli("table", PROBLEMS, "-o", out, "--db", db, "--resume", "-q")
    assert status == 0, err
    assert run_cli("table", PROBLEMS, "-o", reference, "-q")[0] == 0
    assert out.read_bytes() == reference.read_bytes()


@pytest.mark.parametrize("command", ["table", "play", "leads"])
def test_output_to_a_directory_is_a_usage_error(run_cli, tmp_path, command):
    source = PLAYED if command != "table" else PROBLEMS
    extra = FAST if command == "leads" else ("-q",)
    line = plain_error(*run_cli(command, source, *extra, "-o", tmp_path)[::2])
    assert str(tmp_path) in line and "directory" in line


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True,
                    reason="root writes anywhere")
def test_output_to_a_read_only_place_is_a_usage_error(run_cli, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        line = plain_error(*run_cli("table", PROBLEMS, "-o", locked / "out.txt")[::2])
        assert "Permission denied" in line
    finally:
        locked.chmod(0o700)


def test_an_io_error_while_writing_is_one_line(run_cli, tmp_path, monkeypatch):
    """EIO (a failing disk, a network file system gone) the way disk full is handled."""
    import errno

    from ddsolver.formats import table as table_formats

    def broken(self, board, table, par):
        raise OSError(errno.EIO, os.strerror(errno.EIO))
    monkeypatch.setattr(table_formats.TextWriter, "write", broken)
    status, _, err = run_cli("table", PROBLEMS, "-o", tmp_path / "out.txt")
    line = plain_error(status, err)
    assert "Input/output error" in line


# ---- two runs on one store ---------------------------------------------------------------

def test_a_second_run_on_a_store_in_use_is_refused_before_any_output(run_cli, tmp_path):
    from ddsolver.store import ResultStore
    db = tmp_path / "tables.sqlite"
    out = tmp_path / "out.csv"
    with ResultStore(db):  # another run has it open
        started = time.monotonic()
        status, _, err = run_cli("table", PROBLEMS, "--format", "csv", "-o", out, "--db", db)
        line = plain_error(status, err)
        assert time.monotonic() - started < 5  # at once, not after SQLite's busy wait
        assert f"{db} is in use by another ddsolver run" in line
        assert not out.exists()  # no output begun, not even its header
    # Once the other run is over, the store is free again.
    status, _, err = run_cli("table", PROBLEMS, "--format", "csv", "-o", out, "--db", db, "-q")
    assert status == 0, err and out.read_text().count("\n") > 1


def test_two_processes_on_one_store_the_second_is_refused(tmp_path):
    """The real case: two processes.  The first holds the store for its whole run; the
    second stops at once with one line, and the first finishes its output untouched."""
    path = tmp_path / "many.pbn"
    path.write_text(endings_file(1200, seed=2, cards=8))  # about 2 s of solving
    db = tmp_path / "tables.sqlite"
    argv = [sys.executable, "-m", "ddsolver", "table", str(path), "--db", str(db), "-j", "1",
            "-q", "--format", "csv"]
    first = subprocess.Popen(argv + ["-o", str(tmp_path / "first.csv")],
                             stderr=subprocess.PIPE, text=True, env=env())
    try:
        deadline = time.monotonic() + 60
        while not db.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        if first.poll() is not None:
            pytest.skip("the first run was over before the second began")
        second = subprocess.run(argv + ["-o", str(tmp_path / "second.csv")],
                                capture_output=True, text=True, env=env(), timeout=60)
        first_err = first.communicate(timeout=120)[1]
    finally:
        if first.poll() is None:
            first.kill()
    assert second.returncode == 2 and "in use by another ddsolver run" in second.stderr
    assert not (tmp_path / "second.csv").exists()
    assert first.returncode == 0, first_err
    assert (tmp_path / "first.csv").read_text().count("\n") == 1201


# ---- killed, then resumed ----------------------------------------------------------------

def endings_file(boards: int, *, seed: int, cards: int = 4) -> str:
    """``boards`` random ``cards``-card endings as PBN (fast to solve), from ``seed``."""
    import random
    rng = random.Random(seed)
    deck = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    games = []
    for board in range(1, boards + 1):
        rng.shuffle(deck)
        hands = []
        for seat in range(4):
            held = deck[seat * cards:(seat + 1) * cards]
            hands.append(".".join("".join(c[1] for c in sorted(
                (c for c in held if c[0] == suit), key=lambda c: "AKQJT98765432".index(c[1])))
                for suit in "SHDC"))
        games.append(f'[Board "{board}"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                     f'[Deal "N:{" ".join(hands)}"]\n')
    return "% PBN 2.1\n" + "\n".join(games)


def test_killed_run_resumes_to_the_same_output_and_an_intact_store(tmp_path):
    """SIGKILL (no chance to clean up) at a random, seeded point of a run with --db; the
    run again with --resume writes exactly the output of an uninterrupted run, and the
    store is intact, each deal in it once."""
    import random
    import sqlite3
    boards = 4000  # about a second of solving: the kill lands well inside the run
    path = tmp_path / "endings.pbn"
    path.write_text(endings_file(boards, seed=7))
    db, out, reference = tmp_path / "t.sqlite", tmp_path / "out.csv", tmp_path / "ref.csv"
    argv = [sys.executable, "-m", "ddsolver", "table", str(path), "--format", "csv", "-q",
            "-j", "1"]
    done = subprocess.run(argv + ["-o", str(reference)], capture_output=True, text=True,
                          env=env(), timeout=120)
    assert done.returncode == 0, done.stderr
    full = reference.stat().st_size
    # Killed once the output holds a random share of its bytes (seeded: the same point
    # every run, as far as the writes' timing allows).  The output is written beside
    # out.csv under a hidden name, put in place when the run ends.
    kill_at = int(full * random.Random(14).uniform(0.2, 0.8))
    out.write_text("the earlier output\n")
    proc = subprocess.Popen(argv + ["-o", str(out), "--db", str(db)],
                            stderr=subprocess.PIPE, env=env())

    def parts() -> list[Path]:
        return list(tmp_path.glob(".out.csv.*.part"))
    try:
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            if any(p.stat().st_size >= kill_at for p in parts() if p.exists()):
                break
            time.sleep(0.002)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL, "the run ended before it was killed"
    assert out.read_text() == "the earlier output\n"   # not half a table
    assert len(parts()) == 1   # what the killed run wrote, removed by the next run

    resumed = subprocess.run(argv + ["-o", str(out), "--db", str(db), "--resume"],
                             capture_output=True, text=True, env=env(), timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert out.read_bytes() == reference.read_bytes() and parts() == []
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        keys = [k for (k,) in con.execute("SELECT deal FROM dd_tables")]
    deals = {line.split(",")[4] for line in reference.read_text().splitlines()[1:]}
    assert len(keys) == len(set(keys)) == len(deals)
    assert set(keys) == deals


# ---- outputs that would destroy an input -------------------------------------------------

@pytest.mark.parametrize("option", ["-o", "--save-deals"])
def test_leads_refuses_to_write_over_its_input(run_cli, tmp_path, option):
    path = tmp_path / "played.pbn"
    path.write_bytes(PLAYED.read_bytes())
    line = plain_error(*run_cli("leads", path, *FAST, option, path)[::2])
    assert "is an input file" in line
    assert path.read_bytes() == PLAYED.read_bytes()


@pytest.mark.parametrize("argv", [
    ["convert"],
    ["table", "--format", "pbn", "-q"],
    ["leads", *FAST],
], ids=["convert", "table", "leads"])
def test_a_hard_link_to_the_input_is_the_input(run_cli, tmp_path, argv):
    """A second name of the input file (a hard link) is refused as the input itself is:
    opening it for writing would empty the input before it is read."""
    path, link = tmp_path / "played.pbn", tmp_path / "link.pbn"
    path.write_bytes(PLAYED.read_bytes())
    os.link(path, link)
    line = plain_error(*run_cli(argv[0], path, *argv[1:], "-o", link)[::2])
    assert "is an input file" in line
    assert path.read_bytes() == PLAYED.read_bytes()


def test_leads_refuses_one_file_for_both_outputs(run_cli, tmp_path):
    out, link = tmp_path / "out.pbn", tmp_path / "link.pbn"
    out.write_text("")
    os.link(out, link)
    line = plain_error(*run_cli("leads", PLAYED, *FAST, "-o", out, "--save-deals", link)[::2])
    assert "name the same file" in line


def test_table_refuses_to_write_over_its_store(run_cli, tmp_path):
    db = tmp_path / "tables.sqlite"
    assert run_cli("table", PROBLEMS, "--db", db, "-q")[0] == 0
    before = db.read_bytes()
    line = plain_error(*run_cli("table", PROBLEMS, "--db", db, "-o", db, "-q")[::2])
    assert "results store of --db" in line
    assert db.read_bytes() == before


@pytest.mark.parametrize("argv", [
    ["table", DATA / "session.pbn", "-j", "1"],
    ["table", DATA / "session.pbn", "-j", "1", "--format", "pbn"],
    ["play", PLAYED, "-j", "1"],
], ids=["table", "table-pbn", "play"])
def test_a_reader_that_goes_away_stops_the_run_quietly(argv):
    """`ddsolver table ... | head -1`: no traceback, no 'Exception ignored' at exit."""
    proc = subprocess.Popen([sys.executable, "-m", "ddsolver", *map(str, argv), "-q"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env())
    try:
        assert proc.stdout is not None and proc.stdout.readline()
        proc.stdout.close()  # the reader goes away
        err = proc.communicate(timeout=120)[1].decode()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 1, err
    assert "Traceback" not in err and "Exception ignored" not in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_table_reads_a_named_pipe(run_process, tmp_path):
    """A FIFO input is read once, by the real read: checking it beforehand must not open it
    (its writer would see the reader go away, and the read would then wait forever)."""
    import threading
    fifo = tmp_path / "boards.pbn"
    os.mkfifo(fifo)
    data = PROBLEMS.read_bytes()

    def write() -> None:
        with open(fifo, "wb") as pipe:
            pipe.write(data)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    piped = run_process("table", fifo, "--quiet", timeout=60)
    writer.join(timeout=5)
    plain = run_process("table", PROBLEMS, "--quiet", timeout=60)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == plain.stdout.replace(str(PROBLEMS), str(fifo))


def test_a_line_break_in_an_input_name_keeps_messages_on_one_line(run_cli, tmp_path):
    bad = tmp_path / "two\nlines.pbn"
    bad.write_text('[Board "1"]\n[Deal "N:AKQ.AKQ.AKQ.AKQJ"]\n\n')
    status, _, err = run_cli("table", bad, "--quiet")
    assert status == 1
    lines = [line for line in err.splitlines() if "two" in line]
    assert lines and all("two\\nlines.pbn:" in line for line in lines), err


# ---- an output file is written whole or not at all ---------------------------------------

OUTPUT_RUNS = {
    "table": ("table", PROBLEMS, "-q", "-o"),
    "table-pbn": ("table", PROBLEMS, "--format", "pbn", "-q", "-o"),
    "play": ("play", PLAYED, "--format", "json", "-q", "-o"),
    "report": ("report", PROBLEMS, "-q", "--html"),
    "leads": ("leads", *HAND, *FAST, "--format", "html", "-o"),
    "leads-files": ("leads", PLAYED, *FAST, "--format", "json", "-o"),
    "review": ("review", "SAM", "--player", "sam", *FAST, "--format", "html", "-o"),
    "convert": ("convert", PLAYED, "--to", "pbn", "-q", "-o"),
    "advise": ("advise", "--hand", "T7.A762.QJ853.K4", "--dummy", "AKQ2.KJ3.T94.A65",
               "--contract", "3NT", "--declarer", "S", "--seat", "S", "--played",
               "HT HK H4 HA", "--samples", "5", "--seed", "1", "-q", "-o"),
    "duel": ("duel", "--deals", "1", "--seed", "3", "--worlds", "4", "--defence", "dd",
             "-q", "-o"),
}


@pytest.mark.parametrize("command", OUTPUT_RUNS)
def test_an_interrupted_run_leaves_the_output_file_as_it_was(run_cli, tmp_path, monkeypatch,
                                                             command):
    # Ctrl-C as the output is written (a half page of HTML, a JSON list without its end
    # used to be left in place of the earlier file, or an empty one).
    from ddsolver.cli._common import GuardedOutput
    write = GuardedOutput.write
    calls = 0

    def interrupted(self, data):
        nonlocal calls
        calls += 1
        written = write(self, data)
        if calls == 1:   # after the first write (some formats write once, at the end)
            raise KeyboardInterrupt
        return written
    argv = OUTPUT_RUNS[command]
    if "SAM" in argv:   # a session with a player to review: South of the first boards
        games = tmp_path.parent / f"{tmp_path.name}-sam.pbn"
        games.write_bytes(first_games(PLAYED, 3).replace(b'[South "?"]', b'[South "sam"]'))
        argv = tuple(games if a == "SAM" else a for a in argv)
    out = tmp_path / "out"
    out.write_text("the earlier output\n")
    new = tmp_path / "new"
    with monkeypatch.context() as patch:
        patch.setattr(GuardedOutput, "write", interrupted)
        status, _, err = run_cli(*argv, out)
        assert status == 130, err
        assert "Traceback" not in err and f"{out} left as it was" in err
        calls = 0
        status, _, err = run_cli(*argv, new)
        assert status == 130 and f"{new} not written" in err, err
    assert out.read_text() == "the earlier output\n" and not new.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]   # no part left behind
    # Uninterrupted, the run puts its output in place.
    status, _, err = run_cli(*argv, out)
    assert status == 0, err
    assert out.read_text() != "the earlier output\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_an_output_replaced_keeps_its_mode_and_is_written_through_a_link(run_cli, tmp_path):
    target = tmp_path / "tables.txt"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    status, _, err = run_cli("table", PROBLEMS, "-q", "-o", link)
    assert status == 0, err
    assert link.is_symlink() and target.read_text().startswith(f"{PROBLEMS} board 1")
    assert target.stat().st_mode & 0o777 == 0o640
    fresh = tmp_path / "fresh.txt"
    assert run_cli("table", PROBLEMS, "-q", "-o", fresh)[0] == 0
    mask = os.umask(0)
    os.umask(mask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~mask
    # A device is written directly, not replaced.
    assert run_cli("table", PROBLEMS, "-q", "-o", os.devnull)[0] == 0
    assert Path(os.devnull).is_char_device()


def test_parts_left_by_a_killed_run_are_removed_but_not_a_running_ones(tmp_path):
    from ddsolver.cli._common import open_file
    target = tmp_path / "out.txt"
    dead = tmp_path / ".out.txt.999999999.k2j4.part"     # no such process
    live = tmp_path / f".out.txt.{os.getpid()}.a8x1.part"  # this one, still running
    other = tmp_path / ".other.txt.999999999.k2j4.part"  # another output's
    for p in (dead, live, other):
        p.write_text("part")
    out = open_file(str(target), str(target))
    out.write("done\n")
    out.close()
    assert target.read_text() == "done\n"
    assert not dead.exists() and live.exists() and other.exists()


# ---- the progress bar and standard output on one terminal --------------------------------

def _screen(raw: str) -> list[str]:
    """What a terminal shows of ``raw``: a carriage return goes back to the line's start
    and what follows is written over it."""
    lines: list[list[str]] = [[]]
    col = 0
    for ch in raw:
        if ch == "\r":
            col = 0
        elif ch == "\n":
            lines.append([])
            col = 0
        else:
            line = lines[-1]
            line.extend(" " * (col - len(line)))
            if col < len(line):
                line[col] = ch
            else:
                line.append(ch)
            col += 1
    return ["".join(x).rstrip() for x in lines]


def _on_a_terminal(argv: list[str]) -> str:
    """Run ``ddsolver ARGV`` with standard output and error on one pseudo-terminal, as in
    a shell; everything the terminal received."""
    import pty
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "ddsolver", *argv], stdout=slave,
                            stderr=slave, stdin=subprocess.DEVNULL, env=env())
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:   # EIO: the other end is closed
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert proc.wait(timeout=120) == 0
    return b"".join(chunks).decode()


@pytest.mark.parametrize("argv", [
    ["table", str(PROBLEMS)],
    ["play", str(PLAYED)],
    ["duel", "--deals", "2", "--seed", "3", "-w", "4", "--defence", "dd"],
], ids=["table", "play", "duel"])
def test_the_bar_never_shares_a_line_with_standard_output(argv):
    # On a terminal the bar (stderr) used to be left at the start of the first output
    # line and in place of the blank lines between boards.
    shown = [x for x in _screen(_on_a_terminal(argv)) if x]
    plain = subprocess.run([sys.executable, "-m", "ddsolver", *argv, "-q"],
                           capture_output=True, text=True, env=env(), timeout=120).stdout
    expected = [x for x in plain.splitlines() if x]
    timing = "time per decision"   # duel's timings differ from run to run
    assert [x for x in shown if not x.startswith("ddsolver:") and timing not in x] == \
        [x for x in expected if timing not in x]
    assert shown[-1].startswith("ddsolver: ")   # the closing line, on a line of its own


def test_leads_refuses_an_unreadable_input_before_any_work(run_cli, tmp_path):
    # It used to analyse the files before the unreadable one, then stop with exit 2.
    status, out, err = run_cli("leads", PLAYED, tmp_path / "missing.pbn", *FAST)
    assert (status, out) == (2, "")
    assert plain_error(status, err).endswith(f"cannot read {tmp_path / 'missing.pbn'}: "
                                             "No such file or directory")


@pytest.mark.parametrize("argv", [
    ("advise", "--hand", "T7.A762.QJ853.K4", "--dummy", "AKQ2.KJ3.T94.A65", "--contract",
     "3NT", "--declarer", "S", "--seat", "S", "--played", "HT HK H4 HA", *FAST),
    ("advise", PLAYED, "--seat", "S", *FAST),
], ids=["one", "files"])
def test_advise_refuses_an_output_it_cannot_write_before_any_work(run_cli, tmp_path,
                                                                  monkeypatch, argv):
    # The output used to be opened after the worlds were solved.
    import importlib
    for module, name in (("ddsolver.advise", "advise"),
                         ("ddsolver.board_advice", "review_boards")):
        monkeypatch.setattr(importlib.import_module(module), name,
                            lambda *a, **k: pytest.fail("work was done"))
    line = plain_error(*run_cli(*argv, "-o", tmp_path)[::2])
    assert str(tmp_path) in line and "directory" in line


def test_leads_with_files_refuses_a_seat_constraint_that_can_never_hold(run_cli):
    # With PBN files every board used to be skipped under it (exit 1); --hand said 2.
    status, out, err = run_cli("leads", PLAYED, "--north", "15-17 hcp, 20+ hcp", *FAST)
    assert out == "" and "--north '15-17 hcp, 20+ hcp' can never hold" in \
        plain_error(status, err)
