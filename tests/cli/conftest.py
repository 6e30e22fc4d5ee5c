"""What the command-line tests share: running ``ddsolver`` in this process, or as a real
process where a test needs one (signals, the console script, ``python -m ddsolver``)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ddsolver.cli import main

ROOT = Path(__file__).resolve().parents[2]

RunCli = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run_cli(capsys) -> RunCli:
    """``run_cli(*argv)``: ``ddsolver ARGV...`` through :func:`ddsolver.cli.main` in this
    process; returns (exit status, stdout, stderr).  Arguments may be paths."""
    def run(*argv: object) -> tuple[int, str, str]:
        status = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return status, out, err
    return run


@pytest.fixture
def run_process() -> Callable[..., subprocess.CompletedProcess]:
    """``run_process(*argv, timeout=120)``: ``python -m ddsolver ARGV...`` as a real process;
    returns the finished process (``returncode``, ``stdout``, ``stderr`` as text)."""
    def run(*argv: object, timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "ddsolver", *map(str, argv)],
                              capture_output=True, text=True, timeout=timeout)
    return run
