"""``--scheduler``: the option of ``table``, ``play``, ``leads`` and ``duel`` that sends the solving to
a Dask cluster (:mod:`ddsolver.cluster`, the extra ``pip install 'ddsolver[dask]'``).

``--scheduler tcp://HOST:8786`` uses a scheduler that is running already; ``--scheduler
local:N`` starts a cluster of N worker processes (one thread each) on this machine for the
run and ends it afterwards.  Without the option nothing here imports Dask.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ._common import PROG, UsageError

__all__ = ["add_scheduler_option", "scheduler_client", "cluster_failed"]


def add_scheduler_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="solve on a Dask cluster (pip install 'ddsolver[dask]'): the "
                             "address of its scheduler (tcp://10.0.0.5:8786), or local:N to "
                             "start N worker processes here for this run; --jobs is then not "
                             "used, and the output is the same")


def cluster_failed(err: Exception) -> UsageError:
    """The usage error (exit status 2, one line) of a cluster that failed during the run."""
    return UsageError(f"{err} (what had come back is kept in the --db store, if any: "
                      "--resume goes on from there)")


@contextmanager
def scheduler_client(args: argparse.Namespace) -> Iterator[Any]:
    """The ``dask.distributed.Client`` of ``--scheduler`` for the length of the block, or
    None without the option.

    :raises UsageError: without Dask, for a bad address, or a scheduler that cannot be
        reached (exit status 2).
    """
    address = getattr(args, "scheduler", None)
    if address is None:
        yield None
        return
    from ..cluster import ClusterError, connect, worker_threads
    try:
        connection = connect(address)
    except ClusterError as err:
        raise UsageError(str(err)) from None
    if worker_threads(connection.client) == 0 and not getattr(args, "quiet", False):
        # (the run waits for a worker to join; without a word it looked hung)
        print(f"{PROG}: the Dask scheduler at {address} has no workers yet: the work waits "
              "until one joins (Ctrl-C stops it)", file=sys.stderr)
    # Dask's own log lines (a worker that died and was replaced, a task run again) are its
    # business: the run's output and messages stay those of a run on one machine.
    # (Dask gives some of its loggers, distributed.client among them, a level and a
    # handler of their own, not propagated: each is quietened, not only the parents.)
    quiet = [logging.getLogger(name) for name in ("distributed", "tornado")] + [
        logging.getLogger(name) for name in list(logging.root.manager.loggerDict)
        if name.startswith(("distributed.", "tornado."))]
    levels = [log.level for log in quiet]
    for log in quiet:
        log.setLevel(logging.CRITICAL)
    try:
        yield connection.client
    except ClusterError as err:  # the scheduler lost during the run, a task that kills workers
        raise cluster_failed(err) from None
    finally:
        try:
            connection.close()
        finally:
            for log, level in zip(quiet, levels):
                log.setLevel(level)
