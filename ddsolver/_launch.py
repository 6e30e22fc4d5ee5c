"""The ``ddsolver`` command's entry point (the console script and ``python -m ddsolver``).

It imports the command line -- numpy and all -- under a guard, so that a Ctrl-C while
Python is still loading it ends like one during the run: one line, status 130, no
traceback.  Kept tiny: nothing is imported before the guard but ``sys`` and ``signal``.

The guard is a SIGINT handler, set as this module loads, rather than a ``try`` around the
import alone: a signal is taken at any bytecode boundary, and one that came just as
``main`` was entered, before its ``try``, used to escape as a traceback.  The handler only
notes the signal, and ``main`` ends once the import is done: an exception raised inside
an import can be swallowed by a library's own ``try``/``except`` (a run went on to the end
with status 0 after a Ctrl-C 0.1 s in).  Once the command line is loaded, Python's own
handler is back, for the command's clean stop.
"""

from __future__ import annotations

import signal
import sys

INTERRUPTED = 130


_pending = False   # a Ctrl-C came while the command line was loading


def _interrupted(signum: int, frame: object) -> None:
    global _pending
    _pending = True


def _guard() -> object | None:
    """Make Ctrl-C end the program plainly, wherever it lands; the handler it replaces,
    or None where Ctrl-C is not Python's to take (a thread, an ignored signal)."""
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            return signal.signal(signal.SIGINT, _interrupted)
    except ValueError:  # not the main thread
        pass
    return None


_previous = _guard()


def main(argv: list[str] | None = None) -> int:
    global _previous
    try:
        from .cli import main as run
    except KeyboardInterrupt:  # a guard another program had put in place
        print("ddsolver: interrupted", file=sys.stderr)
        return INTERRUPTED
    finally:
        if _previous is not None:
            signal.signal(signal.SIGINT, _previous)  # type: ignore[arg-type]
            _previous = None
    if _pending:
        print("ddsolver: interrupted", file=sys.stderr)
        return INTERRUPTED
    return run(argv)
