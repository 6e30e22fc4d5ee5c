"""What the benchmark scripts share about where they run: which ddsolver they measure, how
they stop on an error, and the machine they describe in their headers.

Nothing here imports ddsolver, cardgames or endplay: a script calls :func:`prefer_checkout`
before it imports the package it measures, and that has to work whatever state the checkout
is in.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parents[1]   # the checkout this directory belongs to
BENCH = ROOT / "bench"


def prefer_checkout() -> None:
    """Measure the checkout the scripts live in when its extension is built in place
    (``setup.py build_ext --inplace``); otherwise fall back to an installed ddsolver."""
    package = ROOT / "ddsolver"
    if any(package.glob("_core*.so")) or any(package.glob("_core*.pyd")):
        sys.path.insert(0, str(ROOT))


def die(message: str, status: int = 2) -> NoReturn:
    """Stop the script with ``message`` on stderr, named after the script that runs.

    Status 2 (the default) means the benchmark could not run (endplay, the compiled
    ddsolver or a data file missing); 1 is kept for a wrong answer or a failed command.
    """
    print(f"{Path(sys.argv[0]).stem or 'bench'}: {message}", file=sys.stderr)
    sys.exit(status)


def whole(low: int = 0) -> Callable[[str], int]:
    """An argparse ``type``: a whole number of at least ``low`` (a seed: 0; a count: 1),
    else argparse's usage error naming the option and the value."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if n < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {n}")
        return n
    parse.__name__ = f"whole number >= {low}"
    return parse


def positive(text: str) -> float:
    """An argparse ``type``: a number above 0 (``inf`` allowed)."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not x > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return x


def say(text: str) -> None:
    """A line on stderr that does not break a tqdm progress bar drawn there."""
    from tqdm import tqdm
    tqdm.write(text, file=sys.stderr)


def measured_root() -> Path:
    """The directory holding the ddsolver that is measured: this checkout when
    :func:`prefer_checkout` chose it, else wherever the installed package lives (found
    without importing it)."""
    spec = importlib.util.find_spec("ddsolver")
    if spec is None or spec.origin is None:
        return ROOT
    return Path(spec.origin).resolve().parents[1]


def git_revision(where: Path | None = None) -> str:
    """The short revision of the checkout the measured ddsolver comes from (``where``,
    default :func:`measured_root`), with ``+uncommitted changes`` when the measured code
    (ddsolver, cardgames, setup.py) differs from it; ``?`` outside a git checkout (an
    installed wheel, say)."""
    where = measured_root() if where is None else where
    try:
        rev = subprocess.run(["git", "-C", str(where), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(where), "status", "--porcelain", "--",
                                ":/ddsolver", ":/cardgames", ":/setup.py"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"
    return (rev or "?") + ("+uncommitted changes" if dirty else "")


# ---- the machine ----------------------------------------------------------------------------

def cpu_model() -> str:
    """The CPU's model name (Linux /proc/cpuinfo), else what ``platform`` knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "?"


def cpus() -> int:
    """CPUs this process may run on (its affinity where the OS tells it, which can be fewer
    than the machine has): the most threads that can really run at once."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def load_averages() -> tuple[float, float, float]:
    """The 1, 5 and 15 minute load averages; NaN where the OS has none."""
    try:
        return os.getloadavg()
    except (AttributeError, OSError):
        return (float("nan"),) * 3


def load_average() -> float:
    """The 1 minute load average (NaN where the OS has none): above :func:`cpus`, the
    machine runs more tasks than it has CPUs and wall times are noisy."""
    return load_averages()[0]


def python_text() -> str:
    """``3.11.7 (CPython), Linux x86_64``: the interpreter and the platform."""
    return (f"{platform.python_version()} ({platform.python_implementation()}), "
            f"{platform.system()} {platform.machine()}")


def peak_rss_mb() -> float:
    """This process's peak resident size so far, in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024  # bytes vs KiB


def rss_kb() -> float:
    """This process's resident size now in KB (Linux /proc; elsewhere its peak, ru_maxrss)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return float(line.split()[1])
    except OSError:
        pass
    return float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
