"""Dealing the hidden hands at random, under constraints: the sampling half of Monte-Carlo
analysis.

Some cards are known (whole hands, or a few cards of a hand); the rest are dealt at random
to fill every hand to 13 cards, keeping only the deals whose hands meet the constraints.

This module gathers the three modules that do it under their old name, so
``from cardgames.dealing import ...`` keeps working:

- :mod:`cardgames.constraints`: the constraints on one hand and their combinations;
- :mod:`cardgames.constraint_syntax`: their text form (``"15-17 hcp, balanced"``);
- :mod:`cardgames.sampling`: the sampler that deals under them.

    >>> c = HCP(15, 17) & balanced()
    >>> parse_constraint("15-17 hcp, balanced") == c
    True
"""

from __future__ import annotations

from .constraint_syntax import parse_constraint
from .constraints import (
    HCP,
    LTC,
    AllOf,
    Any,
    AnyOf,
    Constraint,
    Controls,
    Holds,
    Lacks,
    Length,
    Not,
    Predicate,
    Shape,
    SuitHCP,
    SuitQuality,
    TopHonours,
    TotalPoints,
    as_constraint,
    balanced,
    unbalanced,
)
from .sampling import Sampler, SampleResult, check_seed, deal_hidden

__all__ = ["Constraint", "HCP", "Length", "Shape", "Holds", "Lacks", "Predicate", "AllOf",
           "AnyOf", "Not", "Any", "balanced", "unbalanced", "as_constraint", "LTC", "Controls",
           "TotalPoints", "TopHonours", "SuitQuality", "SuitHCP",
           "parse_constraint", "Sampler", "SampleResult", "deal_hidden", "check_seed"]
