"""The bench scripts refuse bad arguments with one plain line (argparse's usage error or
the script's own), exit status 2, never a traceback and never a run on nonsense."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.mark.parametrize("argv, said", [
    (["robot_deals.py", "--deals", "0"], "--deals: must be at least 1"),
    (["robot_deals.py", "--seed", "-1"], "--seed: must be at least 0"),
    (["bench_alphamu.py", "--depths", "foo"], "--depths"),
    (["bench_pavlicek.py", "--jobs", "0"], "--jobs: must be at least 1"),
    (["bench_lead_quality.py", "--samples", "0"], "--samples: must be at least 1"),
    (["bench_lead_quality.py", "/no/such/file.pbn"], "no such file"),
    (["bench_leads.py", "--samples", "0"], "--samples: must be at least 1"),
    (["bench_cli.py", "--jobs", "x"], "--jobs"),
    (["bench_cluster.py", "--rounds", "0"], "--rounds: must be at least 1"),
    (["walk_dds.py", "largest:9", "20"], "0 to 13"),
    (["duel_investigate.py", "/no/such/store.sqlite"], "no such store"),
    (["lead_ceiling.py", "/no/such/results.jsonl"], "cannot read"),
    (["signature.py", "--bogus"], "unrecognized arguments"),
    (["bench_dds.py", "--jobs-deals", "0", "--only", "jobs"], "--jobs-deals: must be at least 1"),
])
def test_a_bench_script_refuses_a_bad_argument_plainly(argv, said, tmp_path):
    run = subprocess.run([sys.executable, str(BENCH / argv[0]), *argv[1:]], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert said in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert list(tmp_path.iterdir()) == []       # nothing made on the way
