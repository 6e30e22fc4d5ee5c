"""Sphinx configuration of the ddsolver documentation.

Build (from the repository root, with ``pip install -e '.[docs]'``)::

    sphinx-build -W --keep-going -b html docs /tmp/ddsolver-docs     # the site
    sphinx-build -W -b doctest docs /tmp/ddsolver-doctest            # its examples, run
"""

from __future__ import annotations

import sys
from importlib.metadata import version as _version
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))

project = "ddsolver"
author = "the ddsolver authors"
copyright = "the ddsolver authors, MIT licence"
# The installed package's metadata: the same number as ddsolver.__version__ and
# `ddsolver --version` (a test checks those agree).
release = _version("ddsolver")
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "cli_reference",
]

root_doc = "index"
exclude_patterns = ["_build"]
templates_path: list[str] = []

html_theme = "furo"
html_title = f"ddsolver {release}"
html_static_path: list[str] = []

# The docstrings are written for a reader: members in source order, signatures with types
# as written (the Cython core's come from its embedded signatures, `embedsignature`).
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True}
# The docstrings use Sphinx's own fields (:param:, :raises:), so no napoleon.

# Docstrings refer to numpy and the standard library; no network at build time, so no
# intersphinx inventories are fetched: references to them stay plain text.
intersphinx_mapping: dict[str, tuple[str, str | None]] = {}

# Every page's examples run with the data files at hand.
doctest_global_setup = f"""
from pathlib import Path
DATA = Path({str(ROOT / "data")!r})
"""

# References autodoc cannot resolve (names in docstrings of private helpers, type aliases)
# would be warnings, and warnings fail the build: keep nitpicky off, and name the few
# targets the API pages leave out on purpose.
nitpicky = False

# Only the pages' ``.. doctest::`` blocks run here; the ``>>>`` examples of the docstrings
# are run by pytest (``--doctest-modules``, in their own module's namespace).
doctest_test_doctest_blocks = ""
