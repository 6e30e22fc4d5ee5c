"""ddsolver as ``bench_dds.py`` times it: one interface over the public facade, or over the
raw compiled core when the facade does not import (a checkout mid-edit can still be timed).

Answers use the layout :mod:`dds_peer` decodes DDS's into, so the two compare directly: a
table is ``rows[declarer][strain]``, lead scores a ``{Card: tricks for the leader's side}``
dict, a solve declarer's tricks.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bench_env import ROOT
from dds_peer import card, masks

if TYPE_CHECKING:
    from cardgames import Card, Deal
    from ddsolver._core import Core


class Ours:
    """ddsolver behind one interface: the public facade (``Solver``) when it imports, else
    the raw core (``ddsolver._core.Core``).

    :raises ImportError: neither imports (no built ddsolver).
    """

    def __init__(self, tt_mb: int | None) -> None:
        self.facade_error = ""
        self.dd_tables: Callable | None = None
        try:
            import ddsolver
            from ddsolver import Solver
        except ImportError as err:
            self.facade_error = f"{type(err).__name__}: {err}"
            core_cls = import_core_only()
            self.tt_mb = tt_mb or 64
            self._core = core_cls(self.tt_mb)
            self._solver = None
            self.api = "ddsolver._core.Core (facade did not import)"
        else:
            self.tt_mb = tt_mb or ddsolver.DEFAULT_TT_MB
            self._solver = Solver(self.tt_mb)
            # The facade's core, for the counters it keeps (nodes, table use).
            self._core = self._solver._core
            self.api = "ddsolver.Solver (facade)"
            self.dd_tables = getattr(ddsolver, "dd_tables", None)
        self.core_file, self.build = core_build()

    # Each call below is what gets timed, so conversions stay minimal.
    def table(self, deal: Deal) -> tuple[tuple[int, ...], ...]:
        if self._solver is not None:
            return self._solver.dd_table(deal).rows
        by_strain = self._core.dd_table(masks(deal))
        return tuple(tuple(by_strain[s][d] for s in range(5)) for d in range(4))

    def lead(self, deal: Deal, strain: int, leader: int) -> dict[Card, int]:
        if self._solver is not None:
            return self._solver.card_scores(deal, strain, leader)
        _, scores = self._core.card_scores(masks(deal), strain, leader)
        return {card(code >> 4, code & 15): score for code, score in scores}

    def solve(self, deal: Deal, strain: int, declarer: int) -> int:
        if self._solver is not None:
            return self._solver.solve(deal, strain, declarer)
        ns, _, _ = self._core.solve(masks(deal), strain, (declarer + 1) & 3)
        return ns if declarer % 2 == 0 else 13 - ns

    @property
    def nodes(self) -> int | None:
        return getattr(self._core, "nodes", None)

    @property
    def trick_nodes(self) -> list[int] | None:
        """Nodes entered at a trick's start so far, by tricks left (DDS's count)."""
        return getattr(self._core, "trick_nodes", None)

    def tt_text(self) -> str:
        core = self._core
        try:
            return (f"{core.tt_bytes / 2**20:.1f} MB allocated for tt_mb={self.tt_mb} "
                    f"({core.tt_capacity:,} entries; {core.tt_used:,} in use now)")
        except AttributeError:
            return f"tt_mb={self.tt_mb}"


def core_build() -> tuple[Path, str]:
    """The compiled file whose code is timed, and the build's name: ddsolver._core hands
    out the BMI2 build's Core (ddsolver._core_bmi2) on a CPU that has BMI2."""
    core = sys.modules["ddsolver._core"]
    build = getattr(core, "BUILD", "portable")
    if build != "portable" and "ddsolver._core_bmi2" in sys.modules:
        core = sys.modules["ddsolver._core_bmi2"]
    assert core.__file__ is not None  # an extension module is loaded from a file
    return Path(core.__file__), build


def import_core_only() -> type[Core]:
    """Import ``ddsolver._core`` without running the package ``__init__`` (which may be
    mid-edit), so the raw core can still be timed; returns its ``Core`` class.

    :raises ImportError: no built ddsolver on the path or in the checkout.
    """
    for name in [n for n in sys.modules if n == "ddsolver" or n.startswith("ddsolver.")]:
        del sys.modules[name]
    for base in [p for p in sys.path if p] + [str(ROOT)]:
        pkg_dir = Path(base) / "ddsolver"
        if any(pkg_dir.glob("_core*.so")) or any(pkg_dir.glob("_core*.pyd")):
            pkg = types.ModuleType("ddsolver")
            pkg.__path__ = [str(pkg_dir)]
            sys.modules["ddsolver"] = pkg
            try:
                from ddsolver._core import Core
            except ImportError as err:
                raise ImportError(f"cannot import ddsolver._core from {pkg_dir}: {err}") from err
            return Core
    raise ImportError("no built ddsolver found: run `python setup.py build_ext --inplace` in "
                      "the checkout, or `pip install '.[bench]'`")
