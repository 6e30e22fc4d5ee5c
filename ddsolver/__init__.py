"""ddsolver: a double-dummy bridge solver.

The public API lives in :mod:`ddsolver.solver` and is re-exported here::

    from cardgames import Deal
    from ddsolver import solve, dd_table, card_scores, Solver

    deal = Deal.from_pbn("N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872")
    dd_table(deal).tricks("S", "NT")    # South declares no-trump: South's tricks
    solve(deal, "NT", "S")              # the same single number
    card_scores(deal, "H", "N", played=["SA", "S6"])   # each card of South's, after them
    par(deal, vul="ns", dealer="E")     # par score (North-South's view) and contracts
    analyse_play(deal, "S", "W", ["HT", "HK", "H4", "H2"])   # tricks after each card
    analyse_leads("KQ72.J83.T94.A65", "4S", "S", samples=200, seed=1)  # Monte-Carlo leads
    advise(hand, "4S", "S", seat="S", dummy=dummy_hand, played=[...])  # single dummy

The search itself is the private Cython module :mod:`ddsolver._core`.

The names below load their modules on first use (PEP 562), so that ``import ddsolver`` --
and the ``ddsolver`` command's start -- stays light: numpy and the lead analysis come in
only when asked for.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import TYPE_CHECKING, Any

#: The package's version, its one source: pyproject.toml reads it (setuptools, dynamic).
__version__ = "0.1.0"

#: Each public name and the module that defines it.
_EXPORTS = {
    "AdviceReport": "advise", "advise": "advise",
    "AlphaMuResult": "alphamu", "alphamu": "alphamu",
    "CostlyCard": "analysis", "PlayAnalysis": "analysis", "analyse_play": "analysis",
    "DealError": "errors", "IllegalPlayError": "errors", "ParseError": "errors",
    "PlayOverError": "errors",
    "LeadReport": "leads", "LeadRow": "leads", "analyse_leads": "leads",
    "ParContract": "par", "ParResult": "par", "par": "par",
    "DEFAULT_TT_MB": "solver", "DDTable": "solver", "Solver": "solver",
    "card_scores": "solver", "dd_table": "solver", "solve": "solver",
    "dd_tables": "pool", "iter_dd_tables": "pool",
}

# Written out (not derived from _EXPORTS) so that type checkers see the exports; a test
# checks that the two agree.
__all__ = ["__version__", "solve", "dd_table", "dd_tables", "iter_dd_tables", "card_scores", "Solver",
           "DDTable", "DEFAULT_TT_MB", "par", "ParResult", "ParContract", "analyse_play",
           "PlayAnalysis", "CostlyCard", "analyse_leads", "LeadReport", "LeadRow",
           "DealError", "IllegalPlayError", "ParseError", "PlayOverError", "advise",
           "AdviceReport", "alphamu", "AlphaMuResult"]


class _Package(types.ModuleType):
    """The package's module type: a public name that is also a submodule's name (the
    function ``par`` of ``ddsolver.par``) stays the function when the submodule is first
    imported (the import system would set the module in its place), as it did when the
    names were imported eagerly."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _EXPORTS and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


# The package is the top floor: it may import any module of its own.  The output formats
# register the functions that draw the results' views (ddsolver.views) -- names only, so
# this stays light.
from . import formats  # noqa: E402,F401


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (then kept here); or a
    submodule (``ddsolver.boards``), imported as ``import ddsolver.boards`` would."""
    module = _EXPORTS.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f".{module}", __name__), name)
        globals()[name] = value
        return value
    if not name.startswith("__") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:
    from .advise import AdviceReport, advise
    from .alphamu import AlphaMuResult, alphamu
    from .analysis import CostlyCard, PlayAnalysis, analyse_play
    from .errors import DealError, IllegalPlayError, ParseError, PlayOverError
    from .leads import LeadReport, LeadRow, analyse_leads
    from .par import ParContract, ParResult, par
    from .pool import dd_tables, iter_dd_tables
    from .solver import DEFAULT_TT_MB, DDTable, Solver, card_scores, dd_table, solve
