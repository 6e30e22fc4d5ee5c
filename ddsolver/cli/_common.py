"""What every subcommand of the command line shares: the one :class:`UsageError`, the exit
statuses, opening inputs, outputs and the results store, the progress bar, the option
types, and SIGTERM turned into a clean stop.

Nothing here knows about a particular subcommand; the subcommands import from here and
from :mod:`ddsolver.cli._batch`, never from each other.
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, BinaryIO, Literal, TextIO, cast, overload

from cardgames.bidding import BiddingSystem, BiddingSystemError, default_system, load_system
from cardgames.sampling import draw_seed

from ..pool import MAX_JOBS, default_jobs
from ..solver import MAX_TT_MB
from ..store import ResultStore, StoreError

__all__ = ["PROG", "UsageError", "OutputError", "GuardedOutput", "Interrupted", "Terminated",
           "OK", "FAILED", "USAGE",
           "INTERRUPTED", "TERMINATED", "check_readable", "open_output", "open_file", "finished",
           "BarAside", "aside_of", "stdout_on_terminal",
           "open_store",
           "progress_bar", "positive_int", "tt_mb", "sigterm_as_interrupt", "capped_jobs",
           "jobs_limit"]

PROG = "ddsolver"

# ---- exit statuses -----------------------------------------------------------------------

#: Everything went well.
OK = 0
#: Some boards could not be read or solved, came out incomplete, or no file held a game.
FAILED = 1
#: A usage error: a bad option, an input that cannot be read, a malformed deal.
USAGE = 2
#: Interrupted by Ctrl-C (128 + SIGINT), after what was solved was saved.
INTERRUPTED = 130
#: Stopped by SIGTERM (128 + SIGTERM), after what was solved was saved.
TERMINATED = 143


class UsageError(Exception):
    """A bad command line: reported in one line, exit status 2."""


class OutputError(UsageError):
    """An output that cannot be written (disk full, an I/O error, ``-o /dev/full``): one
    line, exit status 2; what the results store holds is kept."""


class Interrupted(Exception):
    """Ctrl-C during a batch, after what was solved was saved: exit status 130."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into the same clean stop as Ctrl-C (exit status 143)."""


#: The interrupts the handlers below raised during the command, whether or not their
#: exception got through (see :func:`raise_lost_interrupt`).
_raised: list[type[KeyboardInterrupt]] = []


def _on_sigterm(signum: int, frame: object) -> None:
    _raised.append(Terminated)
    raise Terminated()


def _on_sigint(signum: int, frame: object) -> None:
    _raised.append(KeyboardInterrupt)
    raise KeyboardInterrupt


def raise_lost_interrupt() -> None:
    """Raise again a Ctrl-C or SIGTERM whose exception was lost: one that landed while a
    ``__del__`` ran (a Dask future's, freed on the client's loop), where Python prints the
    exception and drops it, and the run went on to the end.  A batch calls it after each
    board; a caught interrupt that got through ended the run before it could."""
    if _raised:
        raise _raised[-1]()


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While a command runs, SIGTERM (a batch scheduler, ``kill``) stops it like Ctrl-C:
    what was solved is saved before the process exits; and both are remembered, so that
    one whose exception is lost is raised again (:func:`raise_lost_interrupt`).  Only the
    main thread may set a handler; elsewhere (an embedding program) nothing changes, nor
    for a SIGINT that is not Python's default (ignored, or the host program's)."""
    if threading.current_thread() is not threading.main_thread() or \
            not hasattr(signal, "SIGTERM"):
        yield
        return
    _raised.clear()
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    own_sigint = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if own_sigint:
        signal.signal(signal.SIGINT, _on_sigint)
    try:
        yield
    finally:
        if own_sigint:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, previous)
        _raised.clear()


# ---- option types --------------------------------------------------------------------------

def positive_int(text: str) -> int:
    """An option that takes a whole number of at least 1 (``--jobs``, ``--samples``)."""
    digits = text.strip().lstrip("+0")
    if digits.isdigit() and len(digits) > 18:  # int() refuses more than 4,300 digits
        raise argparse.ArgumentTypeError(f"too large: {len(digits):,} digits")
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def jobs_limit() -> int:
    """The most ``--jobs`` a command runs: four threads a core, at most MAX_JOBS.  The
    search is CPU-bound, so more threads than cores gain nothing, while each costs a
    solver with its table and the batch commands read ``128 x jobs`` boards ahead."""
    return min(4 * default_jobs(), MAX_JOBS)


def capped_jobs(jobs: int | None, command: str) -> int | None:
    """``--jobs`` as a command runs it: None stays None (one thread a core), and a number
    above :func:`jobs_limit` comes down to it, with a warning on stderr (the output does
    not depend on the number of threads, so the run goes on)."""
    limit = jobs_limit()
    if jobs is None or jobs <= limit:
        return jobs
    print(f"{PROG} {command}: warning: --jobs {jobs} is more than this machine can use; "
          f"running {limit} threads (4 a core, at most {MAX_JOBS})", file=sys.stderr)
    return limit


def tt_mb(text: str) -> int:
    """``--tt-mb``: a whole number of megabytes, 1 to MAX_TT_MB."""
    value = positive_int(text)
    if value > MAX_TT_MB:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_TT_MB} (MB), got {value}")
    return value


# ---- inputs, outputs, the store ------------------------------------------------------------

def silence_stdout() -> None:
    """Point standard output at /dev/null, so that what is still buffered for it (and
    Python's flush at exit) goes nowhere instead of failing again with a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class GuardedOutput:
    """An output stream (text or bytes) whose write errors become one :class:`OutputError`
    naming the output, ``cannot write out.csv: No space left on device``, instead of an
    OSError traceback.  A closed pipe (BrokenPipeError) is left as it is: the reader went
    away, which :func:`ddsolver.cli.main` treats as a quiet stop."""

    def __init__(self, stream: Any, name: str, *, stdout: bool = False,
                 temp: str | None = None, final: str | None = None,
                 existed: bool = False):
        self._stream = stream
        self.name = name
        self.stdout = stdout  # standard output: silenced once it fails
        self.failed = False
        # A file is written whole or not at all: the stream is ``temp``, beside ``final``,
        # which replaces ``final`` when the output is closed after a run that finished
        # (:meth:`close`), and is removed when it did not (:meth:`discard`).
        self._temp = temp
        self._final = final
        self._existed = existed
        self.wrote = False

    def _fail(self, err: OSError) -> OutputError:
        self.failed = True
        if self.stdout:
            silence_stdout()
        return OutputError(f"cannot write {self.name}: {err.strerror or err}")

    def write(self, data: Any) -> int:
        self.wrote = True
        try:
            return self._stream.write(data)
        except BrokenPipeError:
            raise
        except OSError as err:
            raise self._fail(err) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as err:
            raise self._fail(err) from None

    def close(self) -> None:
        """Close the file (its last buffered bytes written first) and put it in place: a
        failure is raised once, and only if none was before; a file whose writing failed
        is not put in place (the one at its path stays as it was)."""
        try:
            self._stream.close()
        except BrokenPipeError:
            raise
        except OSError as err:
            failed_before = self.failed
            error = self._fail(err)
            self._remove_temp()
            if not failed_before:
                raise error from None
            return
        if self._temp is None:
            return
        if self.failed:
            self._remove_temp()
            return
        try:
            os.replace(self._temp, self._final)  # type: ignore[arg-type]
        except OSError as err:
            self._remove_temp()
            raise self._fail(err) from None
        self._temp = None

    def discard(self) -> None:
        """Close without putting the file in place, for a run that did not finish (an
        interrupt, an error): the one at its path stays as it was, and if anything had
        been written the user is told so on standard error."""
        try:
            self._stream.close()
        except OSError:
            pass
        if self._temp is None:
            return
        self._remove_temp()
        if self.wrote and not self.failed:
            kept = "left as it was" if self._existed else "not written"
            print(f"{PROG}: {self.name} {kept}: the run did not finish", file=sys.stderr)

    def _remove_temp(self) -> None:
        if self._temp is not None:
            try:
                os.remove(self._temp)
            except OSError:
                pass
            self._temp = None

    def finish(self, failing: bool) -> None:
        """:meth:`close` after a run that finished, :meth:`discard` after one that did
        not."""
        if failing:
            self.discard()
        else:
            self.close()

    def __enter__(self) -> GuardedOutput:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        self.finish(kind is not None)

    @property
    def closed(self) -> bool:
        return self._stream.closed

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class BarAside:
    """Standard output on the terminal a progress bar is drawn on: the bar is cleared
    before text is written and drawn again once a line is complete, so that the text
    never starts on the bar's line nor leaves the bar's remains in it."""

    def __init__(self, stream: Any, bar: Any):
        self._stream = stream
        self._bar = bar
        self._mid_line = False

    def write(self, data: str) -> int:
        if not data:
            return 0
        if not self._mid_line:
            self._bar.clear()
        written = self._stream.write(data)
        self._stream.flush()
        self._mid_line = not data.endswith("\n")
        if not self._mid_line:
            self._bar.refresh()
        return written

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def stdout_on_terminal() -> bool:
    """Whether standard output is a terminal (where a progress bar on stderr shares its
    lines)."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def aside_of(out: Any, bar: Any, *, to_file: bool) -> Any:
    """``out`` as :class:`BarAside` when it is standard output on a terminal and ``bar`` is
    shown; else ``out`` itself."""
    if to_file or getattr(bar, "disable", True) or not stdout_on_terminal():
        return out
    return BarAside(out, bar)


def same_file(a: str, b: str) -> bool:
    """Whether two paths name one file: the same path once links are resolved, or two
    names of one file on disk (hard links), which writing one would empty for both."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): not the same file
        return False


def check_readable(paths: Iterable[str]) -> None:
    """A usage error for an input that is missing, unreadable or a directory."""
    for path in paths:
        if os.path.isdir(path):
            raise UsageError(f"{path} is a directory, not a PBN file")
        try:
            mode = os.stat(path).st_mode
            if not stat.S_ISREG(mode):
                # A pipe or a device: opening it to try would take it from the real read
                # (a FIFO's writer sees its reader go away); ask for permission instead.
                if not os.access(path, os.R_OK):
                    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
                continue
            with open(path, "rb"):
                pass
        except OSError as err:
            raise UsageError(f"cannot read {path}: {err.strerror or err}") from None


@overload
def open_output(path: str | None, inputs: Iterable[str] = (), *,
                binary: Literal[False] = False) -> tuple[TextIO, bool]: ...


@overload
def open_output(path: str | None, inputs: Iterable[str] = (), *,
                binary: Literal[True]) -> tuple[BinaryIO, bool]: ...


@overload
def open_output(path: str | None, inputs: Iterable[str] = (), *,
                binary: bool) -> tuple[TextIO | BinaryIO, bool]: ...


def open_output(path: str | None, inputs: Iterable[str] = (), *,
                binary: bool = False) -> tuple[TextIO | BinaryIO, bool]:
    """Standard output (``None`` or ``-``) or the file, and whether to close it.  With
    ``binary``, a binary stream: the file opened ``"wb"``, or standard output's buffer
    (what ``--format pbn`` writes, the input files' own bytes).  Either way the stream is
    a :class:`GuardedOutput`: a write that fails is an :class:`OutputError`.

    :raises UsageError: if the file cannot be written, or is one of ``inputs`` (opening
        it for writing would empty it before it is read).
    """
    stream: Any
    if path is None or path == "-":
        if binary:
            sys.stdout.flush()  # anything written as text goes out first
            stream = sys.stdout.buffer
        else:
            stream = sys.stdout
        guarded: Any = GuardedOutput(stream, "standard output", stdout=True)
        return guarded, False
    if any(same_file(p, path) for p in inputs):
        raise UsageError(f"{path} is an input file: writing it would destroy it")
    return cast(Any, open_file(path, path, binary=binary)), True


@contextmanager
def finished(out: Any, close: bool) -> Iterator[Any]:
    """``out`` of :func:`open_output` for a ``with`` block: a file is put in place when the
    block ends normally and left as it was when it raises; standard output stays open."""
    try:
        yield out
    except BaseException:
        if close:
            out.discard()
        raise
    if close:
        out.close()


def open_file(path: str, name: str, *, binary: bool = False) -> GuardedOutput:
    """A :class:`GuardedOutput` writing ``path`` whole or not at all: a regular file (or
    one not there yet) is written beside it under a hidden name and put in place when the
    output is closed after a run that finished, so an interrupted or failed run leaves the
    file at ``path`` as it was; a device or a pipe (``/dev/null``) is written directly.
    ``name`` is the output as errors name it.

    :raises UsageError: if the file cannot be written (a directory, no permission).
    """
    if os.path.isdir(path):
        raise UsageError(f"cannot write {name}: it is a directory")
    final = os.path.realpath(path)   # through a link: the file it names is replaced
    try:
        st: os.stat_result | None = os.stat(final)
    except OSError:
        st = None
    def direct() -> GuardedOutput:
        try:
            stream: Any = open(path, "wb") if binary else \
                open(path, "w", encoding="utf-8", newline="")
        except OSError as err:
            raise UsageError(f"cannot write {name}: {err.strerror or err}") from None
        return GuardedOutput(stream, name)

    if st is not None and not stat.S_ISREG(st.st_mode):
        return direct()
    if st is not None and not os.access(final, os.W_OK):
        raise UsageError(f"cannot write {name}: {os.strerror(errno.EACCES)}")
    folder = os.path.dirname(final) or "."
    _remove_stale_parts(folder, os.path.basename(final))
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{os.path.basename(final)}.{os.getpid()}.",
                                    suffix=".part", dir=folder)
    except OSError:
        # No second file may be made in that folder (the file itself may still be
        # writable): write it directly, or say why not.
        return direct()
    try:
        os.chmod(temp, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask())
        stream: Any = os.fdopen(fd, "wb") if binary else \
            os.fdopen(fd, "w", encoding="utf-8", newline="")
    except OSError as err:
        os.close(fd)
        os.remove(temp)
        raise UsageError(f"cannot write {name}: {err.strerror or err}") from None
    return GuardedOutput(stream, name, temp=temp, final=final, existed=st is not None)


def _remove_stale_parts(folder: str, base: str) -> None:
    """Remove the parts of ``base`` (``.NAME.PID.XXXX.part``) left by runs that were killed
    outright (SIGKILL, a power cut), whose process is gone; a part of a run still going is
    left alone."""
    prefix = f".{base}."
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(".part")]
    except OSError:
        return
    for name in names:
        pid = name[len(prefix):].split(".", 1)[0]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        try:
            os.remove(os.path.join(folder, name))
        except OSError:
            pass


def _alive(pid: int) -> bool:
    if os.name != "posix":   # Windows' os.kill(pid, 0) would stop the process: keep it
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:   # another user's process: alive
        return True
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def open_store(args: argparse.Namespace) -> ResultStore | None:
    """The results store of ``--db`` (``--resume`` requires it to exist), or None."""
    if getattr(args, "resume", False) and not args.db:
        raise UsageError("--resume needs --db FILE: the store the interrupted run wrote")
    if not args.db:
        return None
    try:
        return ResultStore(args.db, must_exist=args.resume)
    except StoreError as err:
        raise UsageError(str(err)) from None


# ---- options several commands share -------------------------------------------------------

def seed_option(text: str | None) -> tuple[int, bool]:
    """``--seed``'s value, and whether it was drawn (no ``--seed`` given: one is drawn, and
    the command prints it so that the run can be repeated).

    :raises UsageError: for anything but a whole number 0 or more, in ASCII digits.
    """
    if text is None:
        return draw_seed(), True
    value = text.strip()
    if not value.isascii() or not value.isdigit():
        raise UsageError(f"--seed must be a whole number 0 or more, got {text!r}")
    return int(value), False


def bidding_system(args: argparse.Namespace) -> BiddingSystem | None:
    """The bidding system that reads the boards' auctions: ``--system FILE``, the shipped
    one by default, None with ``--no-inference``.

    :raises UsageError: both options given, or a system file that does not read.
    """
    if args.no_inference:
        if args.system is not None:
            raise UsageError("--system and --no-inference contradict each other")
        return None
    if args.system is None:
        return default_system()
    try:
        return load_system(args.system)
    except BiddingSystemError as err:
        raise UsageError(f"--system: {err}") from None
    except UnicodeDecodeError:
        raise UsageError(f"--system {args.system} is not a text file (UTF-8)") from None
    except OSError as err:
        raise UsageError(f"cannot read --system {args.system}: {err.strerror or err}") from None


# ---- the progress bar ----------------------------------------------------------------------

def progress_bar(total: int | None, enabled: bool, *, unit: str = "boards",
                 desc: str | None = None) -> Any:
    """A tqdm bar on stderr counting ``unit`` (boards), with boards/s (off when ``enabled``
    is false: ``--quiet``, or stderr is not a terminal)."""
    from tqdm import tqdm
    try:
        size = os.get_terminal_size(sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):
        size = os.terminal_size((0, 0))
    # A pseudo-terminal that reports a size of 0 x 0 (`script`, some CI runners) would get
    # no bar at all: tqdm hides bars below the last row.  Assume 80 x 24 there.
    sized = size.columns > 0 and size.lines > 0
    # rate_noinv_fmt: always "boards/s", never tqdm's inverted "s/board" for slow rates.
    return tqdm(total=total, unit=f" {unit}", desc=desc, file=sys.stderr, disable=not enabled,
                dynamic_ncols=sized, ncols=None if sized else 80, nrows=None if sized else 24,
                leave=False,
                bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, "
                           "{rate_noinv_fmt}]")
