"""Ctrl-C on the command line: it answers at once, even in the middle of a long search,
with exit status 130, the run's closing message and no traceback.

Each test runs ``ddsolver`` in a child process and sends it SIGINT.  The child announces
on stderr when its modules are imported and :func:`ddsolver.cli.main` has started
(``ready``), so that a slow machine's imports do not eat the time the tests mean to
measure.  Ctrl-C during the imports themselves is the last test's subject.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ddsolver.store import ResultStore

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGINT") or sys.platform == "win32",
                                reason="needs POSIX signals")

# One of DDS's hardest test hands (largest.txt): its table takes several seconds of CPU.
HARD = "N:AT65.96.K63.AT32 K87.KT853..KJ965 J3.AJ742.QT754.8 Q942.Q.AJ982.Q74"
EASY = "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"

# The child: import, then run the command line, saying so as main() starts building its
# parser -- from there on, Ctrl-C is the command's to report.
_CHILD = """
import sys
import ddsolver.cli as cli
build_parser = cli.build_parser
def announce_then_build():
    sys.stderr.write("ready\\n")
    sys.stderr.flush()
    return build_parser()
cli.build_parser = announce_then_build
sys.exit(cli.main(sys.argv[1:]))
"""


def _pbn(path: Path, *deals: str) -> Path:
    path.write_text("".join(f'[Board "{i}"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                            f'[Deal "{deal}"]\n\n' for i, deal in enumerate(deals, 1)))
    return path


def _start(*args: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    line = proc.stderr.readline()
    assert line == "ready\n", f"child did not start: {line!r}"
    return proc


def _interrupt(proc: subprocess.Popen[str], after: float) -> tuple[float, str]:
    """SIGINT ``after`` seconds from now; (seconds from the signal to the exit, stderr)."""
    time.sleep(after)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("no exit within 120 s of SIGINT")
    return time.monotonic() - sent, err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_a_long_search_within_a_second_or_two(tmp_path, jobs):
    """Before, Ctrl-C waited for the strain (with --jobs 1, the whole table) to finish:
    tens of seconds on this deal.  The latency allowed is generous for a loaded 2-core
    machine; it is about 0.1 s when the machine is idle."""
    pbn = _pbn(tmp_path / "hard.pbn", EASY, HARD)
    db = tmp_path / "tables.sqlite"
    proc = _start("table", str(pbn), "--jobs", jobs, "--db", str(db))
    latency, err = _interrupt(proc, 1.5)
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    assert latency < 2.5, f"{latency:.2f} s from SIGINT to exit"
    # The easy board was solved and kept; the hard one was not.
    assert "interrupted after 1 board" in err, err
    assert "--resume" in err, err
    with ResultStore(db) as store:
        assert store.count("tables") == 1


@pytest.mark.parametrize("delay", [0.0, 0.02, 0.05, 0.1, 0.15, 0.2])
def test_ctrl_c_as_the_command_starts_is_reported_plainly(tmp_path, delay):
    """Ctrl-C while the parser is built, the inputs are checked, the store is opened or
    the first search starts: one line, status 130, no traceback."""
    pbn = _pbn(tmp_path / "hard.pbn", HARD)
    proc = _start("table", str(pbn), "--jobs", "1", "--db", str(tmp_path / "t.sqlite"))
    _, err = _interrupt(proc, delay)
    assert "Traceback" not in err, err
    assert proc.returncode == 130, err
    assert "interrupted" in err, err


def _start_until_launched(*args: str) -> subprocess.Popen[str]:
    """``python -m ddsolver ARGS``, returned once its entry point (ddsolver._launch) is
    imported and the command line's own imports begin.  Python's start before that (site,
    the .pth files of an editable install: 20-60 ms) is the interpreter's, where Ctrl-C
    gives Python's own traceback whatever the program; ``-X importtime`` reports each
    import on stderr as it completes, which tells when the guarded window opens."""
    proc = subprocess.Popen([sys.executable, "-X", "importtime", "-m", "ddsolver", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if line.rstrip().endswith("| ddsolver._launch"):
            return proc
    proc.wait()
    pytest.fail("the child never imported ddsolver._launch:\n" + "".join(seen[-20:]))


def test_ctrl_c_while_the_program_is_still_importing(tmp_path):
    """Ctrl-C while Python still loads the command line (numpy and all, the first ~0.3 s
    after the entry point starts): the entry point imports it under a guard
    (ddsolver._launch)."""
    pbn = _pbn(tmp_path / "hard.pbn", HARD)
    errors = []
    for delay in (0.0, 0.02, 0.05, 0.1, 0.2):
        proc = _start_until_launched("table", str(pbn))
        _, err = _interrupt(proc, delay)
        # A shell shows both an exit(130) and a death by SIGINT as status 130.
        if "Traceback" in err or proc.returncode not in (130, -signal.SIGINT):
            errors.append(f"after {delay} s: status {proc.returncode}: {err[-300:]}")
    assert not errors, "\n".join(errors)
