"""How a result shows itself: the table of the functions that draw the library's results as
text, CSV or HTML.

The results are made on the floors below the output formats -- a :class:`~ddsolver.DDTable`
by the solver, a :class:`~ddsolver.LeadReport` by the lead analysis, a
:class:`~ddsolver.boards.Board` by the batch reader -- while how they look is the business
of :mod:`ddsolver.formats`, the floor above everything that computes.  A result's
``__str__``, ``to_text``, ``to_csv`` and ``_repr_html_`` (what Jupyter shows) therefore
ask this table for the function that draws them, and :mod:`ddsolver.formats` fills the
table in when the package is imported.  It registers names only: the module that draws a
view is imported the first time the view is asked for, so ``import ddsolver`` stays
light.  Nothing here imports from ddsolver: the table is the one place where the floors
below meet the formats, and it points down to nothing.

>>> register("Example.text", "textwrap:dedent")
>>> show("Example.text", "    indented")
'indented'
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["register", "show", "registered"]

# view name ("DDTable.html") -> "module:function" that draws it
_TABLE: dict[str, str] = {}


def register(view: str, target: str) -> None:
    """Say that ``target`` (``"package.module:function"``) draws ``view``
    (``"LeadReport.text"``: the class's name, a dot, the kind of view).

    :raises ValueError: for a target that is not ``module:function``.
    """
    module, sep, name = target.partition(":")
    if not sep or not module or not name.isidentifier():
        raise ValueError(f"a view's target is 'module:function', got {target!r}")
    _TABLE[view] = target


def registered() -> dict[str, str]:
    """A copy of the table: view -> ``module:function``."""
    return dict(_TABLE)


def show(view: str, *args: Any, **kwargs: Any) -> Any:
    """Draw ``view`` by calling its function with ``args`` and ``kwargs`` (the result first).

    :raises LookupError: if nothing draws ``view`` (the formats were not registered).
    """
    target = _TABLE.get(view)
    if target is None:
        raise LookupError(f"no function draws {view!r}: ddsolver.formats registers the views "
                          "when the ddsolver package is imported")
    module, _, name = target.partition(":")
    draw = getattr(importlib.import_module(module), name)
    return draw(*args, **kwargs)
