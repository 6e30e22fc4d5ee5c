"""Deprecated: the old name of the constraint and sampling modules.

Importing it issues a :class:`DeprecationWarning`; its names still resolve, to the objects
of the modules to import them from instead:

- :mod:`cardgames.constraints`: the constraints on one hand and their combinations;
- :mod:`cardgames.constraint_syntax`: their text form (``parse_constraint``);
- :mod:`cardgames.evaluation`: the hand evaluation counts the constraints range over;
- :mod:`cardgames.sampling`: the sampler that deals under them.
"""

from __future__ import annotations

import warnings

from .constraint_syntax import as_constraint, parse_constraint
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
    balanced,
    unbalanced,
)
from .sampling import Sampler, SampleResult, check_seed, deal_hidden

__all__ = ["Constraint", "HCP", "Length", "Shape", "Holds", "Lacks", "Predicate", "AllOf",
           "AnyOf", "Not", "Any", "balanced", "unbalanced", "as_constraint", "LTC", "Controls",
           "TotalPoints", "TopHonours", "SuitQuality", "SuitHCP",
           "parse_constraint", "Sampler", "SampleResult", "deal_hidden", "check_seed"]

# Issued once: the module's body runs at its first import only.
warnings.warn("cardgames.dealing is deprecated: import from cardgames.constraints (the "
              "constraints), cardgames.constraint_syntax (parse_constraint), "
              "cardgames.evaluation (the hand counts) or cardgames.sampling (Sampler, "
              "deal_hidden)", DeprecationWarning, stacklevel=2)
