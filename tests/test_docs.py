"""The documentation's command-line reference covers the real parser.

The reference (docs/cli.rst) is generated from :func:`ddsolver.cli.build_parser` by a local
Sphinx extension (docs/_ext); these tests check that the generated text names every
subcommand and every option, so that an option the generator would drop fails here, and
(when Sphinx is installed) that a Sphinx build of it renders them all.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from ddsolver.cli import build_parser

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _cli_rst():
    path = DOCS / "_ext" / "cli_rst.py"
    if not path.exists():
        pytest.skip("no docs/ beside the tests (an installed copy)")
    spec = importlib.util.spec_from_file_location("cli_rst", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _parsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {"ddsolver": parser} | {f"ddsolver {name}": sub for name, sub in subs.choices.items()}


def test_parser_has_the_subcommands_the_docs_describe():
    # A guard on the test itself: an empty parser would make the checks below pass vacuously.
    assert {"table", "report", "play", "leads", "advise", "solve"} <= {
        name.split()[-1] for name in _parsers()}


def test_cli_reference_names_every_subcommand_and_option():
    cli_rst = _cli_rst()
    text = cli_rst.render(build_parser())
    sections = text.split(".. program:: ")[1:]
    programs = {section.splitlines()[0]: section for section in sections}
    parsers = _parsers()
    assert set(programs) == set(parsers)
    for program, parser in parsers.items():
        section = programs[program]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            signature = cli_rst.option_signature(action)
            assert f".. option:: {signature}\n" in section, (program, signature)
            for flag in action.option_strings:
                assert flag in signature
            if action.help:
                first_words = " ".join(action.help.split()[:3])
                if "%" not in first_words:
                    assert cli_rst.escape(first_words) in section, (program, first_words)


def test_cli_reference_escapes_markup_in_help_texts():
    cli_rst = _cli_rst()
    assert cli_rst.escape("a *b* `c` |d| e_") == r"a \*b\* \`c\` \|d\| e\_"


def test_sphinx_build_of_the_cli_reference_shows_every_subcommand(tmp_path):
    pytest.importorskip("sphinx")
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(DOCS / '_ext')!r})\n"
        "extensions = ['cli_reference']\n")
    (source / "index.rst").write_text("CLI\n===\n\n.. ddsolver-cli::\n")
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "-b", "html", str(source),
                             str(out)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    html = (out / "index.html").read_text(encoding="utf-8")
    for program, parser in _parsers().items():
        anchor = "cmdoption-" + program.replace(" ", "-")
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name in action.choices:
                    assert f'id="{anchor}-{name}-h"' in html, (program, name)
            elif not action.option_strings:
                assert f'id="{anchor}-arg-{action.metavar or action.dest}"' in html, (program, action.dest)
            for flag in action.option_strings:
                assert f'id="{anchor}-{flag.lstrip("-")}"' in html, (program, flag)


def test_api_reference_documents_every_public_name():
    import re

    import cardgames
    import ddsolver

    api = DOCS / "api"
    if not api.exists():
        pytest.skip("no docs/ beside the tests (an installed copy)")
    text = "\n".join(page.read_text(encoding="utf-8") for page in api.glob("*.rst"))
    documented = set(re.findall(r"^\.\. auto(?:function|class|exception|data):: (?:\w+\.)*(\w+)$",
                                text, re.M))
    # Re-exports of cardgames' errors are named in the prose of the ddsolver page.
    named = set(re.findall(r"``ddsolver\.(\w+)``", text))
    for name in cardgames.__all__:
        assert name in documented, name
    for name in ddsolver.__all__:
        if name != "__version__":
            assert name in documented or name in named, name
