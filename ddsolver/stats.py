"""The statistics of choices compared over sampled deals: what the opening-lead report
(:mod:`ddsolver.leads`) and the single-dummy advice (:mod:`ddsolver.advise`) say about
each lead or card.

The input is a table of tricks, one row per deal (or world) and one column per choice (a
lead, a card, touching cards counted once); :func:`compare` summarises each column and
sets it against the best one *on the same deals*, which removes the deal-to-deal
variation both share:

* ``mean``, ``var`` (sample variance, ``N - 1`` divisor), ``sd``, ``se = sd / sqrt(N)`` and
  the normal interval ``mean +- z se``;
* ``chance``, the share of deals on which the side succeeds (the defence beats the
  contract, or declarer's side makes it), with its Wilson interval (:func:`wilson_interval`,
  which stays inside [0, 1] and behaves at 0% and 100%);
* ``score``, the side's mean score (:func:`cardgames.scoring.score`) and its SE;
* ``p_best``, the share of deals on which the choice takes as many tricks as the best
  choice of that deal (ties count for each): how often it is the right one double dummy,
  a mixed-strategy view of the sample;
* against the best choice by the criterion (``"mean"`` tricks, ``"p_set"``: the chance,
  ``"score"``, ``"p_best"``, ``"mp"``: matchpoints in the field of all the choices (as
  ``mp_field``), ``"imps"``: IMPs against each other choice, averaged): the mean
  difference in tricks, in IMPs (:func:`cardgames.scoring.imps` of the score difference
  deal by deal) and in matchpoints, each with its paired SE (the SD of
  the per-deal differences over ``sqrt(N)``); ``mp_vs_best`` scores each deal 100, 50 or 0
  against the best alone (so the best has 50), ``mp_field`` against every other choice;
* ``close``: the paired difference by the criterion's own measure is within ``z`` paired
  SEs of zero (the data cannot tell the choice from the best; the best is always close);
  ``tied``: equal to the best on every deal (close too, and no number of deals will
  separate it unless one comes where it differs).

>>> import numpy as np
>>> from cardgames.scoring import Contract
>>> tricks = np.array([[5, 4], [3, 4], [5, 3]])   # three deals, two leads (defence)
>>> best, other = compare(tricks, Contract.parse("4S"), False, "mean")
>>> best.index, round(best.mean, 3), round(best.chance, 3), round(other.diff_tricks, 3)
(0, 4.333, 0.667, -0.667)
>>> [round(x, 4) for x in wilson_interval(0, 10)]
[0.0, 0.2775]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cardgames.scoring import Contract, imps, score

__all__ = ["Z95", "CRITERIA", "GroupStats", "compare", "best_is_clear", "wilson_interval",
           "normal_tail", "mean_se", "finite_or_none"]

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054
#: What "best" can mean: mean tricks, the chance of success, the mean score, how often the
#: choice is double-dummy best, matchpoints or IMPs against the other choices.
CRITERIA = ("mean", "p_set", "score", "p_best", "mp", "imps")


@dataclass(frozen=True, slots=True)
class GroupStats:
    """One choice (a column of the tricks) over the deals; see the module docstring for
    each measure.  Tricks, chances and scores are the side's whose choice it is."""

    index: int                     # its column in the tricks
    n: int                         # deals
    mean: float                    # mean tricks
    var: float                     # sample variance (N - 1 divisor); NaN for one deal
    sd: float                      # its square root
    se: float                      # sd / sqrt(N)
    ci: tuple[float, float]        # mean -+ z se
    chance: float                  # share of deals on which the side succeeds
    chance_ci: tuple[float, float]  # Wilson interval
    score: float                   # the side's mean score
    score_se: float
    diff_tricks: float             # mean (this - best) tricks, same deals
    diff_tricks_se: float          # paired SE
    diff_imps: float               # mean IMPs of (this score - best score)
    diff_imps_se: float
    mp_vs_best: float              # % against the best alone (best = 50)
    mp_vs_best_se: float
    mp_field: float                # % in the field of all the choices
    mp_field_se: float
    best: bool                     # the first by the criterion
    close: bool                    # cannot be told apart from the best (within z SE)
    tied: bool                     # not the best, but equal to it on every deal
    p_best: float = math.nan       # share of deals on which it takes the most tricks


def normal_tail(z: float) -> float:
    """P(Z > z) for a standard normal Z.

    >>> round(normal_tail(Z95), 4)
    0.025
    """
    return 0.5 * math.erfc(z / math.sqrt(2))


def finite_or_none(v: object) -> object:
    """``v`` ready for JSON: a float that is not finite (the SE of one deal) as None
    (JSON's null), inside lists too."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, list):
        return [finite_or_none(x) for x in v]
    return v


def mean_se(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Column means and standard errors (N - 1 divisor; NaN SE for one row)."""
    n = x.shape[0]
    mean = x.mean(axis=0)
    if n < 2:
        return mean, np.full(x.shape[1:], np.nan)
    return mean, x.std(axis=0, ddof=1) / math.sqrt(n)


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (``(0.0, 1.0)`` with no trials)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # At 0 and n the bound is exactly 0 or 1; say so rather than leave rounding dust.
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def compare(tricks: np.ndarray, contract: Contract, declarer_vul: bool, criterion: str,
            z: float = Z95, *, declarer_side: bool = False) -> list[GroupStats]:
    """The statistics of every column of ``tricks`` (N deals x G choices), best first by
    ``criterion`` (then by mean tricks, then the lower column).

    The tricks are the defence's, and success is beating the contract; with
    ``declarer_side`` they are declarer's side's, success is making it, and the scores are
    declarer's.

    :raises ValueError: for a criterion not in :data:`CRITERIA`.
    """
    n, g = tricks.shape
    x = tricks.astype(float)
    if declarer_side:
        table = np.array([score(contract, t, declarer_vul) for t in range(14)], dtype=float)
        wins = (tricks >= contract.tricks_needed).astype(float)
    else:
        # the defence's score for 0..13 defence tricks
        table = np.array([-score(contract, 13 - t, declarer_vul) for t in range(14)],
                         dtype=float)
        wins = (tricks >= 14 - contract.tricks_needed).astype(float)
    scores = table[tricks]
    mean, se = mean_se(x)
    var = x.var(axis=0, ddof=1) if n >= 2 else np.full(g, np.nan)
    chance = wins.mean(axis=0)
    score_mean, score_se = mean_se(scores)

    tops = (tricks == tricks.max(axis=1, keepdims=True)).astype(float)
    top_share = tops.mean(axis=0)
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {', '.join(CRITERIA)}, not {criterion!r}")
    if g > 1:
        cmp = np.sign(scores[:, :, None] - scores[:, None, :]) + 1  # 2 win, 1 tie, 0 loss
        field_pts = (cmp.sum(axis=2) - 1) / 2  # the self-comparison is a tie: take it out
        field_pct = 100.0 * field_pts / (g - 1)
    else:
        field_pts = np.zeros((n, 1))
        field_pct = np.full((n, 1), 50.0)
    mp_field_mean, mp_field_se = mean_se(field_pct)
    # Each criterion: its mean, its per-deal values, and its total over the deals in exact
    # numbers (whole tricks, scores, IMPs; matchpoints in halves), which ranks the leads:
    # two leads equal by a criterion are equal there, not apart by a float's last bit,
    # and the tie-break (mean tricks, then the lower column) then decides.
    measure = {"mean": (mean, x, x.sum(axis=0)), "p_set": (chance, wins, wins.sum(axis=0)),
               "score": (score_mean, scores, scores.sum(axis=0)),
               "p_best": (top_share, tops, tops.sum(axis=0)),
               "mp": (mp_field_mean, field_pct, field_pts.sum(axis=0))}
    if criterion == "imps":
        imp_totals = _imps(scores[:, :, None] - scores[:, None, :]).sum(axis=2)
        field_imps = imp_totals / max(1, g - 1)
        measure["imps"] = (field_imps.mean(axis=0), field_imps, imp_totals.sum(axis=0))
    _, per_deal, exact = measure[criterion]
    total_tricks = x.sum(axis=0)
    order = sorted(range(g), key=lambda j: (-exact[j], -total_tricks[j], j))
    best = order[0]

    d_tricks_mean, d_tricks_se = mean_se(x - x[:, [best]])
    d_imps_mean, d_imps_se = mean_se(_imps(scores - scores[:, [best]]))
    vs_best = 50.0 * (np.sign(scores - scores[:, [best]]) + 1)
    mp_best_mean, mp_best_se = mean_se(vs_best)
    d_crit = per_deal - per_deal[:, [best]]
    d_crit_mean, d_crit_se = mean_se(d_crit)
    tied = (d_crit == 0).all(axis=0)

    out = []
    for j in order:
        dm, ds = d_crit_mean[j], d_crit_se[j]
        if j == best:
            close = True
        elif not math.isfinite(ds):
            close = dm == 0
        else:
            close = abs(dm) <= z * ds
        out.append(GroupStats(
            index=j, n=n, mean=float(mean[j]), var=float(var[j]),
            sd=float(math.sqrt(var[j])), se=float(se[j]),
            ci=(float(mean[j] - z * se[j]), float(mean[j] + z * se[j])),
            chance=float(chance[j]), chance_ci=wilson_interval(int(wins[:, j].sum()), n, z),
            score=float(score_mean[j]), score_se=float(score_se[j]),
            diff_tricks=float(d_tricks_mean[j]), diff_tricks_se=float(d_tricks_se[j]),
            diff_imps=float(d_imps_mean[j]), diff_imps_se=float(d_imps_se[j]),
            mp_vs_best=float(mp_best_mean[j]), mp_vs_best_se=float(mp_best_se[j]),
            mp_field=float(mp_field_mean[j]), mp_field_se=float(mp_field_se[j]),
            best=j == best, close=bool(close), tied=bool(j != best and tied[j]),
            p_best=float(top_share[j])))
    return out


def _imps(diffs: np.ndarray) -> np.ndarray:
    """:func:`cardgames.scoring.imps` of every score difference of an array (each distinct
    difference converted once)."""
    values, inverse = np.unique(diffs, return_inverse=True)
    return np.array([imps(float(v)) for v in values], dtype=float)[inverse].reshape(diffs.shape)


def best_is_clear(rows: Sequence[GroupStats]) -> bool:
    """The stopping rule of a sample: every choice but the best is either not ``close``
    or ``tied`` (no number of deals would make a tie clear, so ties must not hold sampling
    up).  Works on any rows with ``best``, ``tied`` and ``close``."""
    return all(r.best or r.tied or not r.close for r in rows)
