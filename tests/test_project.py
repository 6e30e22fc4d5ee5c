"""The project's housekeeping: what an installed copy and a reader of the tree rely on."""

from __future__ import annotations

import re
from pathlib import Path

import ddsolver

ROOT = Path(__file__).resolve().parents[1]


def test_version_agrees_with_pyproject():
    # (tomllib is Python 3.11+; the project supports 3.10, so read the one line.)
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = text[text.index("[project]"):]
    version = re.search(r'^version = "([^"]+)"', project, re.MULTILINE)
    assert version is not None
    assert ddsolver.__version__ == version.group(1)


def test_packages_are_marked_typed():
    # PEP 561: type checkers read the packages' annotations only with this marker.
    for package in ("ddsolver", "cardgames"):
        assert (ROOT / package / "py.typed").is_file(), package


def test_licence_and_guides_are_present():
    for name in ("LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "README.md"):
        assert (ROOT / name).is_file(), name
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
