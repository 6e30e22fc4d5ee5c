"""The random streams of the lead analysis (:mod:`ddsolver.lead_chunks`): the deals of a
seed are the same however the sample is cut into chunks (what a Dask cluster's tasks deal
on their own), block 0 is the seed's own stream (the deals of earlier versions) and each
later block of 1000 deals a child of ``SeedSequence(seed)``.  No solving: the deals
themselves are compared."""

from __future__ import annotations

import numpy as np
import pytest

from cardgames.cards import Card, Seat, Strain
from cardgames.constraint_syntax import as_constraint
from cardgames.hands import Hand
from cardgames.sampling import Sampler
from ddsolver.lead_chunks import BLOCK, LeadJob, chunk_bounds, deal_range, local_chunks

WEST = Hand.from_pbn("KQ72.J83.T94.A65")


def job(seed: int = 21) -> LeadJob:
    return LeadJob({Seat.WEST: WEST}, {Seat.SOUTH: as_constraint("5+ spades")}, None, seed,
                   20_000_000, 60.0, Strain.SPADES, Seat.WEST, tuple(WEST.cards), 16)


class NoSolve:
    """A stand-in for the solver pool: every lead of every deal scores 0."""

    def map(self, fn, deals, progress=None):
        return ({c: 0 for c in WEST.cards} for _ in deals)


no_solve = NoSolve()


@pytest.mark.parametrize("samples, step, chunk", [(2300, 2300, 1000), (450, 100, 77),
                                                  (1200, 250, 1000), (7, 7, 1)])
def test_chunk_bounds_cover_the_sample_cut_at_blocks_steps_and_chunks(samples, step, chunk):
    bounds = list(chunk_bounds(samples, step, chunk))
    assert bounds[0][0] == 0 and bounds[-1][1] == samples
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:]))
    for start, stop in bounds:
        assert start < stop <= start + chunk
        assert start // BLOCK == (stop - 1) // BLOCK      # inside one stream
        assert start // step == (stop - 1) // step        # the stopping rule looks at ends


def test_the_deals_do_not_depend_on_the_chunks():
    j = job()
    local = [d for _, deals in local_chunks(j, chunk_bounds(2100, 2100), no_solve, None)
             for d in deals]
    assert len(local) == 2100
    for chunk in (300, 1000):
        cut = [d for start, stop in chunk_bounds(2100, 2100, chunk)
               for d in deal_range(j, start, stop)[0]]
        assert cut == local, chunk
    # A chunk dealt alone from the middle of a block is the same as dealt in the run.
    assert deal_range(j, 1450, 1460)[0] == local[1450:1460]


def test_block_zero_is_the_seeds_own_stream_and_later_blocks_its_children():
    j = job(5)
    first = deal_range(j, 0, BLOCK)[0]
    plain = Sampler({Seat.WEST: WEST}, {Seat.SOUTH: "5+ spades"}, seed=5)
    assert first == plain.sample(BLOCK)  # the deals of earlier versions
    child = np.random.SeedSequence(5).spawn(2)[1]
    block2 = Sampler({Seat.WEST: WEST}, {Seat.SOUTH: "5+ spades"}, seed=child).sample(3)
    assert deal_range(j, 2 * BLOCK, 2 * BLOCK + 3)[0] == block2
    assert deal_range(j, BLOCK, BLOCK + 3)[0] != plain.sample(3)  # not the root, continued
    with pytest.raises(ValueError, match="not inside one block"):
        deal_range(j, 990, 1010)


def test_attempts_at_a_chunks_end_do_not_depend_on_how_the_block_was_cut():
    j = job()
    whole = [c for c, _ in local_chunks(j, chunk_bounds(600, 600), no_solve, None)]
    cut = [c for c, _ in local_chunks(j, chunk_bounds(600, 600, 150), no_solve, None)]
    assert (whole[-1].attempts, whole[-1].accepted) == (cut[-1].attempts, cut[-1].accepted)
    assert deal_range(j, 450, 600)[1].attempts == whole[-1].attempts
    assert np.array_equal(np.concatenate([c.tricks for c in cut]), whole[0].tricks)
    assert whole[0].tricks.shape == (600, 13) and Card.parse("SK") in j.cards


def test_a_worker_thread_going_on_with_its_sampler_deals_the_same():
    from ddsolver.lead_chunks import _continued
    j = job(9)
    j = type(j)(**{**j.__dict__, "token": "t1"})
    for start, stop in [(0, 10), (20, 30), (30, 45), (5, 8), (1000, 1004), (1010, 1012)]:
        deals, sampler = _continued(j, start, stop)
        fresh, again = deal_range(j, start, stop)
        assert deals == fresh, (start, stop)
        assert (sampler.attempts, sampler.accepted) == (again.attempts, again.accepted)
