"""ddsolver: a double-dummy bridge solver.

The public API lives in :mod:`ddsolver.solver` and is re-exported here::

    from cardgames import Deal
    from ddsolver import solve, dd_table, card_scores, Solver

    deal = Deal.from_pbn("N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872")
    dd_table(deal).tricks("S", "NT")    # South declares no-trump: South's tricks
    solve(deal, "NT", "S")              # the same single number
    card_scores(deal, "H", "W", played=["SA", "S2"])
    par(deal, vul="ns", dealer="E")     # par score (North-South's view) and contracts
    analyse_play(deal, "S", "W", ["HT", "HK", "H4", "H2"])   # tricks after each card
    analyse_leads("KQ72.J83.T94.A65", "4S", "S", samples=200, seed=1)  # Monte-Carlo leads

The search itself is the private Cython module :mod:`ddsolver._core`.
"""

#: The package's version; pyproject.toml's ``version`` says the same (a test checks).
__version__ = "0.1.0"

from .analysis import CostlyCard, PlayAnalysis, analyse_play
from .errors import DealError, IllegalPlayError, ParseError, PlayOverError
from .leads import LeadReport, LeadRow, analyse_leads
from .par import ParContract, ParResult, par
from .solver import (
                     DEFAULT_TT_MB,
                     DDTable,
                     Solver,
                     card_scores,
                     dd_table,
                     dd_tables,
                     iter_dd_tables,
                     solve,
)

__all__ = ["__version__", "solve", "dd_table", "dd_tables", "iter_dd_tables", "card_scores", "Solver",
           "DDTable", "DEFAULT_TT_MB", "par", "ParResult", "ParContract", "analyse_play",
           "PlayAnalysis", "CostlyCard", "analyse_leads", "LeadReport", "LeadRow",
           "DealError", "IllegalPlayError", "ParseError", "PlayOverError"]
