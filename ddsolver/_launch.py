"""The ``ddsolver`` command's entry point (the console script and ``python -m ddsolver``).

It imports the command line -- numpy and all -- under a guard, so that a Ctrl-C while
Python is still loading it ends like one during the run: one line, status 130, no
traceback.  Kept tiny: nothing is imported before the guard but ``sys``.
"""

from __future__ import annotations

import sys

INTERRUPTED = 130


def main(argv: list[str] | None = None) -> int:
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        print("ddsolver: interrupted", file=sys.stderr)
        return INTERRUPTED
    return run(argv)
