"""Sphinx directive ``.. ddsolver-cli::``: the command-line reference, generated from the
parser that ``ddsolver`` itself runs (:func:`ddsolver.cli.build_parser`), so the options are
written once, in the code.  The text is made by :mod:`cli_rst`."""

from __future__ import annotations

import cli_rst
from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles


class CliReference(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        from ddsolver.cli import build_parser

        text = cli_rst.render(build_parser())
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(text.splitlines(), source="<ddsolver-cli>"),
                                 container)
        return container.children


def setup(app: Sphinx) -> dict[str, object]:
    app.add_directive("ddsolver-cli", CliReference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
