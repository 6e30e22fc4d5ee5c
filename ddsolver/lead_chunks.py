"""The deals of a lead analysis in chunks, each dealt from a random stream of its own, so
that the report is the same however the chunks are shared out: to ``jobs`` threads of one
process (:func:`local_chunks`) or to the workers of a Dask cluster (:func:`cluster_chunks`),
in chunks of any size.

**The streams.**  The deals of a sample are numbered 0, 1, 2 ...; they fall in blocks of
:data:`BLOCK` (1000) deals, and block ``k`` is dealt by a :class:`~cardgames.sampling.Sampler`
of its own: block 0 from the seed itself (so the first 1000 deals are those of every earlier
version of ddsolver), block ``k >= 1`` from ``numpy.random.SeedSequence(seed).spawn(k)[k - 1]``
(:func:`block_seed`).  A stream is fixed by the seed and the block's index, never by the
worker or the thread that deals it.  A chunk of deals ``[start, stop)`` lies inside one block;
whoever deals it makes the block's sampler and deals (and drops) the block's deals before
``start`` first, which costs a little dealing and no solving.

**What a chunk gives back** (:class:`Chunk`): the defence's tricks for every card of the
leader's hand on each deal, the deals themselves when they are wanted, and the block
sampler's attempts and acceptances up to ``stop``: the report's attempts are the sum, over
the blocks used, of those at the end of the last chunk used, which does not depend on how
the block was cut.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardgames.cards import Card, Seat, Strain
from cardgames.constraints import Constraint
from cardgames.evaluation import Features
from cardgames.hands import Deal, Hand
from cardgames.sampling import Sampler

from . import cluster
from .pool import SolverPool
from .solver import Solver, thread_solver

__all__ = ["BLOCK", "LeadJob", "Chunk", "block_seed", "chunk_bounds", "deal_range", "deal_chunk",
           "local_chunks", "cluster_chunks"]

#: Deals per random stream (and the most a chunk holds).
BLOCK = 1000


def block_seed(seed: int, block: int) -> int | np.random.SeedSequence:
    """The seed of block ``block``'s sampler: ``seed`` for block 0, else the
    ``block``-th child of ``SeedSequence(seed)`` (``spawn_key=(block - 1,)``, what
    ``SeedSequence(seed).spawn(block)[block - 1]`` gives).

    >>> s = block_seed(7, 3)
    >>> s.spawn_key == np.random.SeedSequence(7).spawn(3)[2].spawn_key
    True
    """
    if block == 0:
        return seed
    return np.random.SeedSequence(seed, spawn_key=(block - 1,))


def chunk_bounds(samples: int, step: int, chunk: int = BLOCK) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of the chunks of ``samples`` deals: cut at every multiple of
    :data:`BLOCK` (a chunk never straddles two streams), of ``step`` (where the stopping
    rule looks), and of ``chunk``.

    >>> list(chunk_bounds(2500, 2500))
    [(0, 1000), (1000, 2000), (2000, 2500)]
    >>> list(chunk_bounds(300, 100, 250))
    [(0, 100), (100, 200), (200, 250), (250, 300)]
    """
    start = 0
    while start < samples:
        stop = min(samples, (start // BLOCK + 1) * BLOCK, (start // step + 1) * step,
                   (start // chunk + 1) * chunk)
        yield start, stop
        start = stop


@dataclass(frozen=True)
class LeadJob:
    """What dealing and solving a chunk needs, the same wherever it runs."""

    known: Mapping[Seat, Hand | str]
    constraints: Mapping[Any, Constraint]   # seat -> constraint
    predicate: Callable[[Deal], bool] | None
    seed: int
    max_attempts: int
    max_seconds: float
    strain: Strain
    leader: Seat
    cards: tuple[Card, ...]           # the leader's cards, in hand order
    tt_mb: int
    token: str = ""                   # names one analysis: a worker thread's sampler of a
    #                                   block is kept for the next chunk of the same one
    batch_predicate: Callable[[tuple[Features, ...]], np.ndarray] | None = None

    def sampler(self, block: int) -> Sampler:
        return Sampler(self.known, self.constraints, predicate=self.predicate,
                       batch_predicate=self.batch_predicate,
                       seed=block_seed(self.seed, block), max_attempts=self.max_attempts,
                       max_seconds=self.max_seconds)


@dataclass(frozen=True)
class Chunk:
    """A chunk of deals, solved."""

    start: int
    stop: int
    tricks: np.ndarray               # (stop - start) x cards, defence's tricks (int8)
    masks: np.ndarray | None         # (stop - start) x 16 rank masks, when deals are wanted
    attempts: int                    # the block sampler's attempts up to ``stop``
    accepted: int                    # ... and deals accepted

    def deals(self) -> list[Deal]:
        assert self.masks is not None
        return [Deal(tuple(Hand(tuple(row[4 * s:4 * s + 4])) for s in range(4)))
                for row in self.masks.tolist()]


def _tricks(scores: Sequence[Mapping[Card, int]], cards: Sequence[Card]) -> np.ndarray:
    return np.array([[sc[x] for x in cards] for sc in scores], dtype=np.int8) \
        .reshape(-1, len(cards))


def _masks(deals: Sequence[Deal]) -> np.ndarray:
    return np.array([[m for h in d.hands for m in h.masks]  # type: ignore[union-attr]
                     for d in deals], dtype=np.uint16).reshape(-1, 16)


def deal_range(job: LeadJob, start: int, stop: int) -> tuple[list[Deal], Sampler]:
    """Deals ``[start, stop)`` (inside one block) dealt afresh, and the block's sampler
    after them."""
    block = start // BLOCK
    if stop > (block + 1) * BLOCK or stop < start:
        raise ValueError(f"deals {start} to {stop} are not inside one block of {BLOCK}")
    sampler = job.sampler(block)
    if start > block * BLOCK:
        sampler.sample(start - block * BLOCK)
    return sampler.sample(stop - start), sampler


_LAST = threading.local()  # a worker thread's last sampler: (token, block, sampler, dealt)


def _continued(job: LeadJob, start: int, stop: int) -> tuple[list[Deal], Sampler]:
    """:func:`deal_range`, going on with this thread's sampler of the block when it has
    not dealt past ``start`` yet (a worker often gets the next chunks of a block): the same
    deals, without dealing the block's start again."""
    block = start // BLOCK
    last = getattr(_LAST, "state", None)
    if job.token and last is not None and last[:2] == (job.token, block) and \
            last[3] <= start and stop <= (block + 1) * BLOCK:
        sampler, dealt = last[2], last[3]
        if start > dealt:
            sampler.sample(start - dealt)
        deals = sampler.sample(stop - start)
    else:
        deals, sampler = deal_range(job, start, stop)
    _LAST.state = (job.token, block, sampler, stop)
    return deals, sampler


def deal_chunk(job: LeadJob, start: int, stop: int, want_deals: bool) -> Chunk:
    """Task: deal and solve deals ``[start, stop)`` (inside one block) on this thread's
    solver (one per thread of a worker process, kept from task to task)."""
    deals, sampler = _continued(job, start, stop)
    solver = thread_solver(job.tt_mb)
    scores = [solver.card_scores(d, job.strain, job.leader) for d in deals]
    return Chunk(start, stop, _tricks(scores, job.cards),
                 _masks(deals) if want_deals else None, sampler.attempts, sampler.accepted)


def local_chunks(job: LeadJob, bounds: Iterator[tuple[int, int]], pool: SolverPool,
                 progress: Callable[[int], None] | None
                 ) -> Generator[tuple[Chunk, list[Deal]], None, None]:
    """The chunks dealt here, one sampler per block kept from chunk to chunk (no deal is
    dealt twice), the deals solved on ``pool``'s threads."""

    def lead_scores(solver: Solver, deal: Deal) -> dict[Card, int]:
        return solver.card_scores(deal, job.strain, job.leader)

    block, sampler = -1, None
    for start, stop in bounds:
        if start // BLOCK != block:
            block = start // BLOCK
            sampler = job.sampler(block)
        assert sampler is not None
        deals = sampler.sample(stop - start)
        scores = list(pool.map(lead_scores, deals, progress=progress))
        yield (Chunk(start, stop, _tricks(scores, job.cards), None, sampler.attempts,
                     sampler.accepted), deals)


def cluster_chunks(job: LeadJob, bounds: Iterator[tuple[int, int]], client: Any,
                   want_deals: bool, progress: Callable[[int], None] | None
                   ) -> Generator[tuple[Chunk, list[Deal]], None, None]:
    """The chunks dealt and solved on ``client``'s cluster, in order, a bounded number in
    flight (:func:`ddsolver.cluster.ordered_map`); closing the iterator cancels the rest."""
    # The job travels with every task (a few hundred bytes), not scattered once: data
    # scattered to a worker dies with it, and a task must be able to run anywhere again.

    def submit(bound: tuple[int, int]) -> Any:
        return client.submit(deal_chunk, job, bound[0], bound[1], want_deals, pure=False)

    for _, chunk in cluster.ordered_map(client, bounds, submit):
        if progress is not None:
            progress(chunk.stop - chunk.start)
        yield chunk, chunk.deals() if want_deals else []
