"""The project's housekeeping: what an installed copy and a reader of the tree rely on."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import ddsolver

ROOT = Path(__file__).resolve().parents[1]


def test_version_has_one_source():
    # pyproject.toml writes no version of its own: setuptools takes ddsolver.__version__.
    # (tomllib is Python 3.11+; the project supports 3.10, so read the lines.)
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = text[text.index("[project]"):text.index("\n[", text.index("[project]") + 1)]
    assert re.search(r'^version\s*=', project, re.MULTILINE) is None
    assert re.search(r'^dynamic = \[[^]]*"version"', project, re.MULTILINE)
    assert re.search(r'^version = \{ attr = "ddsolver.__version__" \}', text, re.MULTILINE)
    assert re.fullmatch(r"\d+\.\d+\.\d+", ddsolver.__version__)


def test_version_agrees_with_installed_metadata(capsys):
    # The installed metadata (what pip and importlib.metadata see), the package attribute
    # and `ddsolver --version` say the same.  (The wheel's test, tests/test_wheel.py,
    # checks the same three from an installed wheel.)
    from importlib.metadata import version

    from ddsolver.cli import main

    assert version("ddsolver") == ddsolver.__version__
    try:
        main(["--version"])
    except SystemExit as stop:
        assert stop.code == 0
    assert capsys.readouterr().out.strip() == f"ddsolver {ddsolver.__version__}"


def test_packages_are_marked_typed():
    # PEP 561: type checkers read the packages' annotations only with this marker.
    for package in ("ddsolver", "cardgames"):
        assert (ROOT / package / "py.typed").is_file(), package


def test_licence_and_guides_are_present():
    for name in ("LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "README.md"):
        assert (ROOT / name).is_file(), name
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")


# ---- the direction of imports ----------------------------------------------------------------

def _imports(path: Path) -> set[str]:
    """The modules a source file imports, as absolute names (``from . import x`` in
    ``ddsolver/cli/__init__.py`` gives ``ddsolver.cli.x``)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    package = parts[:-1]  # a module's package; for __init__.py, the package itself
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            # `from package import module` imports the module too.
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _ddsolver_modules() -> dict[str, Path]:
    modules = {}
    for path in sorted((ROOT / "ddsolver").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _is_within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_no_library_module_imports_the_command_line():
    # The library returns data; the command line is built on it, never the other way round.
    for name, path in _ddsolver_modules().items():
        if _is_within(name, "ddsolver.cli") or name in ("ddsolver.__main__", "ddsolver._launch"):
            continue
        assert not any(_is_within(m, "ddsolver.cli") for m in _imports(path)), name


SUBCOMMANDS = {"table", "solve", "report", "play", "leads"}


def test_subcommands_do_not_import_each_other():
    modules = _ddsolver_modules()
    assert {f"ddsolver.cli.{c}" for c in SUBCOMMANDS} <= set(modules)
    for name, path in modules.items():
        if not _is_within(name, "ddsolver.cli") or name == "ddsolver.cli":
            continue  # the package itself builds the parser from every subcommand
        own = name.rsplit(".", 1)[-1]
        for module in _imports(path):
            for command in SUBCOMMANDS - {own}:
                assert not _is_within(module, f"ddsolver.cli.{command}"), (name, module)


def test_every_public_name_loads_from_its_module():
    import ddsolver
    assert set(ddsolver.__all__) == {"__version__", *ddsolver._EXPORTS}
    for name in ddsolver.__all__:
        assert getattr(ddsolver, name) is not None, name
