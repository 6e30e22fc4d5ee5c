"""Shared test setup: where the oracle data lives, and what to do when it is missing.

The oracle data sits beside the repository in ``../shared/data`` (``ddsfiles.SHARED_DATA``).
If it is missing, tests that need it fail in CI (env ``CI=true``), where a silently skipped
oracle would look like a pass, and are skipped elsewhere.  Test modules that parametrise over
the data call ``ddsfiles.shared_data_file`` at import time; others use the fixture below.
"""

from __future__ import annotations

import signal
from pathlib import Path

import parallel
import pytest
from ddsfiles import FULL, SHARED_DATA, shared_data_file

from ddsolver import Solver


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The ../shared/data directory (fails in CI, skips elsewhere, if it is missing)."""
    return shared_data_file("").resolve()


@pytest.fixture(scope="module")
def solver() -> Solver:
    """One solver per test module, so its table is allocated once and reused."""
    return Solver()


_ORACLES = Path(__file__).resolve().parent / "oracles"


def pytest_configure(config):
    """The Ctrl-C tests send SIGINT to child programs, which inherit an ignored SIGINT from
    a session started in the background of a script (``pytest ... &`` ignores it): they
    would see no Ctrl-C at all.  Such a session takes Python's own handler back, so its
    children start with the default disposition, as from a terminal."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config, items):
    """Everything under tests/oracles is an ``oracle`` test: ``-m "not oracle"`` leaves the
    corpus out for a developer's quick loop (CI runs everything).  The tests of modules
    whose answers are computed in the background (``parallel.ahead``) run last, so that
    the background has the rest of the suite's time to compute them."""
    for item in items:
        if _ORACLES in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.oracle)
    ahead = parallel.modules_ahead()
    items.sort(key=lambda item: Path(str(item.path)).resolve() in ahead)  # stable


def pytest_collection_finish(session):
    """Start the background answers of the modules that have a test to run (after -k/-m;
    none for --collect-only)."""
    if session.config.option.collectonly:
        return
    parallel.start(dict.fromkeys(Path(str(item.path)).resolve() for item in session.items))


def pytest_sessionfinish(session):
    parallel.stop()


def pytest_report_header(config):
    found = "found" if SHARED_DATA.exists() else "MISSING"
    size = ("long (DDSOLVER_FULL=1)" if FULL
            else "normal (DDSOLVER_FULL=1 multiplies the random endings)")
    return (f"oracle data: {SHARED_DATA} ({found}), every deal checked; random endings: "
            f"{size}")
