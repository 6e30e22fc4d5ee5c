"""The one run loop of the batch commands (``table``, ``report``, ``play``): their shared
options, the results store, the output, the progress bar, the failures counted on the way,
a clean stop on Ctrl-C or SIGTERM, and the summary.

A command builds a :class:`Batch` (which checks the inputs and opens the store and the
output, or raises :class:`~ddsolver.cli._common.UsageError`), reads its boards with
``batch.report`` and ``batch.warn`` as the reader's callbacks, and hands
:meth:`Batch.run` the results (one per board, in file order, each with ``done`` and
``stored``) and how to write one::

    with Batch(args, args.output) as batch:
        inputs = Inputs(args.files, batch.report, warn=batch.warn)
        writer = WRITERS[args.format](batch.out, inputs)
        batch.run(solve_boards(inputs.boards(), jobs=batch.jobs, tt_mb=args.tt_mb,
                               store=batch.store),
                  lambda item: writer.write(...), begin=writer.begin, end=writer.end)
    return batch.status(inputs)

``ddsolver leads`` analyses one board at a time with a progress bar of its own, keeps
nothing in a store and reports its own way; it shares the pieces of
:mod:`~ddsolver.cli._common`, not this loop.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from typing import Any, BinaryIO, Protocol, TextIO, TypeVar, cast

from ..boards import Inputs, count_lines
from ..pool import check_jobs, default_jobs
from ..solver import DEFAULT_TT_MB
from ..store import ResultStore
from ._common import (
    FAILED,
    OK,
    PROG,
    GuardedOutput,
    Interrupted,
    OutputError,
    UsageError,
    capped_jobs,
    check_readable,
    jobs_limit,
    open_output,
    open_store,
    positive_int,
    progress_bar,
    raise_lost_interrupt,
    same_file,
    stdout_on_terminal,
    tt_mb,
)

__all__ = ["Batch", "add_batch_options", "add_store_options", "summary_line",
           "interrupted_message", "stopped", "store_in"]

#: What a batch command keeps in the store, as its messages name it.
_NOUNS = {"tables": ("table", "tables"), "traces": ("play analysis", "play analyses"),
          "plays": ("play", "plays"),   # a deal played by one declarer
          "reviews": ("reviewed board", "reviewed boards")}


class Outcome(Protocol):
    """One board's result as :meth:`Batch.run` counts it."""

    @property
    def done(self) -> bool: ...      # solved or analysed (counted, and the bar moves)

    @property
    def stored(self) -> bool: ...    # taken from the results store

    @property
    def first_of_deal(self) -> bool: ...  # not another table of a deal met before


_O = TypeVar("_O", bound=Outcome)


def add_store_options(parser: argparse.ArgumentParser, kept: str) -> None:
    """``--db FILE`` and ``--resume``; ``kept`` says what the store spares and keeps."""
    parser.add_argument("--db", metavar="FILE", help=f"results store (SQLite): {kept}")
    parser.add_argument("--resume", action="store_true",
                        help="go on with an interrupted run: like --db, but FILE must "
                             "exist already")


def add_batch_options(parser: argparse.ArgumentParser, *, store: str = "tables") -> None:
    """The options every batch command shares: jobs, TT size, quiet, and the store of
    ``store`` (what the command saves there: ``"tables"`` or ``"play analyses"``)."""
    parser.add_argument("-j", "--jobs", type=positive_int, default=None, metavar="N",
                        help="solver threads (default: all cores, here "
                             f"{default_jobs()}; more than {jobs_limit()}, 4 a core, run as "
                             f"{jobs_limit()} with a warning)")
    parser.add_argument("--tt-mb", type=tt_mb, default=DEFAULT_TT_MB, metavar="MB",
                        help="transposition-table size per thread in MB "
                             f"(default: {DEFAULT_TT_MB})")
    if store:
        add_store_options(parser, f"{store} found there are not worked out again, and "
                                  "every new one is saved there at once")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bar and no summary (errors are still reported)")


def summary_line(what: str, done: int, elapsed: float, failed: int,
                 stored: int = 0, store: ResultStore | None = None, *,
                 without_par: int = 0, deals: int | None = None) -> str:
    """The closing line of ``table`` and ``report``: boards ``what`` (solved), how fast,
    how many came from the store, how many failed or lack par.  When some boards are
    other tables of a deal met before (``deals`` distinct deals among ``done`` tables),
    the counts are told apart: ``216 boards (27 deals, 216 tables)``."""
    rate = done / elapsed if elapsed > 0 else 0.0
    text = f"{PROG}: {done} board{'s' * (done != 1)}"
    if deals is not None and deals != done:
        text += f" ({deals} deal{'s' * (deals != 1)}, {done} table{'s' * (done != 1)})"
    text += f" {what} in {elapsed:.1f} s ({rate:.2f} boards/s)"
    if store is not None:
        text += f"; {stored} from {store.path}, {done - stored} solved now"
    if failed:
        text += f"; {failed} could not be {what} (reported above)"
    if without_par:
        text += f"; {without_par} without par (reported above)"
    return text


def interrupted_message(done: int, store: ResultStore | None, kind: str = "tables",
                        unit: str = "board") -> str:
    """What a user needs to know after Ctrl-C: what was kept and how to go on.  ``kind``
    is what the command stores (a key of the store's counts: ``"tables"``, ``"traces"``,
    ``"plays"``, ``"reviews"``); ``done`` counts ``unit`` s."""
    boards = f"{done} {unit}{'s' * (done != 1)}"
    if store is None:
        return (f"{PROG}: interrupted after {boards} written; nothing is kept between runs "
                "without --db FILE")
    noun = _NOUNS[kind]
    # (the store may hold a board or two more than were written: done, not yet shown)
    return (f"{PROG}: interrupted after {boards} written; {store.added} new "
            f"{noun[store.added != 1]} saved in {store.path} ({store.count(kind)} in all). "
            "Run the same command with --resume to go on from there.")


def store_in(stack: ExitStack, args: argparse.Namespace, kind: str) -> ResultStore | None:
    """The results store of ``--db`` (:func:`open_store`), closed with ``stack``; a
    ``--resume`` run is told what the store holds of ``kind`` (unless ``--quiet``)."""
    store = open_store(args)
    if store is not None:
        stack.callback(close_store, store)
        if args.resume and not args.quiet:
            _announce_resume(store, kind)
    return store


def close_store(store: ResultStore) -> None:
    """Close the store (committed), saying first if some of its rows did not read: a
    damaged row is worked out again and replaced, not a reason to stop the run."""
    if store.damaged:
        print(f"{PROG}: {store.path}: {store.damaged} stored result"
              f"{'s' * (store.damaged != 1)} did not read (damaged) and "
              f"{'were' if store.damaged != 1 else 'was'} worked out again", file=sys.stderr)
    store.close()


def _announce_resume(store: ResultStore, kind: str) -> None:
    print(f"{PROG}: resuming with {store.count(kind)} {_NOUNS[kind][1]} in {store.path}",
          file=sys.stderr)


def stopped(progress: Any, store: ResultStore | None, done: int, kind: str,
            unit: str = "board") -> Interrupted:
    """After Ctrl-C or SIGTERM: the bar closed, what the store holds committed, the user
    told what was kept and how to go on; the :class:`Interrupted` to raise."""
    progress.close()
    if store is not None:
        store.commit()
    print(interrupted_message(done, store, kind, unit), file=sys.stderr)
    return Interrupted()


class Batch:
    """One run of a batch command over ``args.files``, writing to ``output`` (None or
    ``-``: standard output).

    Made, it has checked that every input can be read, opened the store of ``--db`` (and
    said how much it holds, on ``--resume``, when ``announce_resume``) and the output, and
    started the progress bar, whose total counts the lines starting with ``count_tag``.
    ``kind`` is what the command keeps in the store (``"tables"`` or ``"traces"``).
    ``keep_problems`` keeps every message reported (:attr:`problems`) for the output
    itself to show.  Used as a context manager, it closes the bar, the output and the
    store however the run ends.

    :raises UsageError: for an input that cannot be read, a bad ``--db`` or ``--resume``,
        an output that cannot be written.
    """

    def __init__(self, args: argparse.Namespace, output: str | None, *, kind: str = "tables",
                 count_tag: bytes = b"[Deal ", announce_resume: bool = True,
                 keep_problems: bool = False, binary: bool = False):
        check_readable(args.files)
        db = getattr(args, "db", None)
        if db and output not in (None, "-") and same_file(db, output):
            raise UsageError(f"{output} is the results store of --db: writing the output "
                             "there would destroy it")
        show_progress = not args.quiet and sys.stderr.isatty()
        self.jobs = check_jobs(capped_jobs(args.jobs, args.command))
        self.kind = kind
        self.binary = binary
        self.store = open_store(args)
        if self.store is not None and args.resume and announce_resume and not args.quiet:
            _announce_resume(self.store, kind)
        try:
            # The output, text or (``binary``) bytes: see :attr:`out` and :attr:`bout`.
            self.stream: TextIO | BinaryIO
            self.stream, self._close_out = open_output(output, args.files, binary=binary)
        except UsageError:
            if self.store is not None:
                self.store.close()
            raise
        self.failed = 0       # boards that could not be read, solved or analysed
        self.done = 0         # boards solved or analysed
        self.stored = 0       # of those, the ones taken from the store
        self.deals = 0        # of those, the first table of each deal
        self.problems: list[str] = []
        self._keep_problems = keep_problems
        self.started = time.perf_counter()
        self.progress = progress_bar(count_lines(args.files, count_tag) if show_progress
                                     else None, show_progress)
        # Standard output on the terminal the bar is drawn on: each write clears the bar
        # first and draws it again after, or the text would start on the bar's line.
        self._bar_aside = show_progress and not self._close_out and stdout_on_terminal()

    @property
    def out(self) -> TextIO:
        """The output, for a command writing text."""
        assert not self.binary, "this batch writes bytes: use bout"
        return self.stream  # type: ignore[return-value]

    @property
    def bout(self) -> BinaryIO:
        """The output, for a command writing bytes (made with ``binary=True``)."""
        assert self.binary, "this batch writes text: use out"
        return self.stream  # type: ignore[return-value]

    def report(self, message: str) -> None:
        """A board that could not be read, solved or analysed (``FILE:LINE: reason``)."""
        self.failed += 1
        self.warn(message)

    def warn(self, message: str) -> None:
        """A problem that leaves some output incomplete without losing a board."""
        if self._keep_problems:
            self.problems.append(message)
        self.progress.write(message, file=sys.stderr)

    def run(self, items: Iterable[_O], write: Callable[[_O], object], *,
            begin: Callable[[], object] | None = None,
            end: Callable[[], object] | None = None) -> None:
        """Write every item as it comes (flushed at once, so a reader of standard output
        sees the boards as they finish), counting the boards done and moving the bar.  On
        Ctrl-C or SIGTERM what the store holds is committed, the user told what was kept
        and how to go on, and :class:`Interrupted` raised."""
        aside = self._bar_aside
        try:
            if begin is not None:
                begin()
            for item in items:
                if aside:
                    self.progress.clear()
                write(item)
                self.stream.flush()
                if item.done:
                    self.done += 1
                    self.stored += item.stored
                    self.deals += item.first_of_deal
                    self.progress.update(1)
                if aside:
                    self.progress.refresh()
                raise_lost_interrupt()
            if end is not None:
                if aside:
                    self.progress.clear()
                end()
            self.stream.flush()
        except KeyboardInterrupt:
            raise stopped(self.progress, self.store, self.done, self.kind) from None
        except OutputError as err:
            # Disk full, an I/O error: what was solved is kept for --resume all the same.
            self.progress.close()
            raise self._kept(err) from None

    def _kept(self, err: OutputError) -> OutputError:
        """``err`` with what the store keeps (committed now) and how to go on."""
        if self.store is None:
            return err
        self.store.commit()
        noun = _NOUNS[self.kind]
        return OutputError(f"{err}; {self.store.added} new {noun[self.store.added != 1]} "
                           f"saved in {self.store.path} ({self.store.count(self.kind)} in "
                           "all): run the same command with --resume once the output can "
                           "be written")

    def elapsed(self) -> float:
        """Seconds since the batch started."""
        return time.perf_counter() - self.started

    def summary(self, what: str, *, without_par: int = 0) -> str:
        """The :func:`summary_line` of the run so far."""
        return summary_line(what, self.done, self.elapsed(), self.failed, self.stored,
                            self.store, without_par=without_par, deals=self.deals)

    def status(self, inputs: Inputs) -> int:
        """The exit status: FAILED if some board failed or came out incomplete."""
        return FAILED if self.failed or inputs.warnings else OK

    def close(self, *, failing: bool = False) -> None:
        """Close the bar, the output and the store (committed).  The output's last bytes
        may fail to go out (disk full): that is an :class:`OutputError`, unless the run is
        ``failing`` already, whose own error is the one to report.  An output file is put
        in place only by a run that finished; a ``failing`` one (an interrupt, an error)
        leaves the file at its path as it was (:meth:`GuardedOutput.discard`)."""
        self.progress.close()
        try:
            if self._close_out:
                cast(GuardedOutput, self.stream).finish(failing)
        except OutputError as err:
            if not failing:
                raise self._kept(err) from None
        finally:
            if self.store is not None:
                close_store(self.store)

    def __enter__(self) -> Batch:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        self.close(failing=kind is not None)
