"""cardgames.dealing, the deprecated old name of the constraint and sampling modules: importing
it warns, once, naming the modules to use, and its names are still those modules' objects."""

from __future__ import annotations

import importlib
import sys
import warnings

import pytest

from cardgames import constraint_syntax, constraints, sampling


def test_the_old_module_warns_once_and_its_names_still_resolve(monkeypatch):
    # A fresh import: the module may already have been imported (pytest's doctest collection).
    monkeypatch.delitem(sys.modules, "cardgames.dealing", raising=False)
    with pytest.warns(DeprecationWarning) as record:
        dealing = importlib.import_module("cardgames.dealing")
    [warning] = [w for w in record if issubclass(w.category, DeprecationWarning)]
    for module in ("constraints", "constraint_syntax", "evaluation", "sampling"):
        assert f"cardgames.{module}" in str(warning.message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        importlib.import_module("cardgames.dealing")  # imported already: no second warning
    for name in dealing.__all__:
        home = next(m for m in (constraints, constraint_syntax, sampling) if hasattr(m, name))
        assert getattr(dealing, name) is getattr(home, name), name
