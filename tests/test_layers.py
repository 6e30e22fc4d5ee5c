"""The floors of the house: every import of ``cardgames`` and ``ddsolver`` points down.

``cardgames`` is the ground: the game model, which knows nothing of the solver.  Above it,
``ddsolver``'s floors, each module placed on one (:data:`FLOORS`)::

    6  the command line   ddsolver (the package's face), ddsolver.cli.*, _launch, __main__
    5  formats            ddsolver.formats.*: how results look
    4  the batch engine   board records and reading them, batches of boards, the store
    3  the analyses       par, play analysis, statistics, leads, single-dummy advice, αμ
    2  the executors      the thread pool (SolverPool, dd_tables) and the Dask cluster's
    1  the DD API         solver.py: Solver, solve, dd_table, card_scores, thread_solver
    0  the core           the compiled search (_core), the errors, the views' table

A module may import from its own floor or the floors below, never from above -- at module
level and inside functions alike; the one exception is an ``if TYPE_CHECKING:`` import,
which only annotations see.  The graph of imports has no cycle (within a floor either),
no module imports a name with a leading underscore from another module (a helper two
modules share is public in one of them), and only ``solver.py`` touches the core.

Run this file to see the floors and what each module imports::

    python tests/test_layers.py
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("cardgames", "ddsolver")

FLOOR_NAMES = ("the core", "the DD API", "the executors", "the analyses",
               "the batch engine", "formats", "the command line")

#: Each ddsolver module's floor; a package's modules (``formats``, ``cli``) all share it.
#: A new module must be placed here, deliberately.
FLOORS = {
    "ddsolver._core": 0, "ddsolver._core_bmi2": 0, "ddsolver.errors": 0, "ddsolver.views": 0,
    "ddsolver.solver": 1,
    "ddsolver.cluster": 2, "ddsolver.pool": 2,
    "ddsolver.stats": 3, "ddsolver.par": 3, "ddsolver.analysis": 3, "ddsolver.lead_chunks": 3,
    "ddsolver.leads": 3, "ddsolver.alphamu": 3, "ddsolver.advise": 3, "ddsolver.duel": 3,
    "ddsolver.store": 4, "ddsolver.boards": 4, "ddsolver.batch": 4,
    "ddsolver.board_leads": 4, "ddsolver.board_advice": 4, "ddsolver.board_duel": 4,
    "ddsolver.review": 4,
    "ddsolver.formats": 5,
    "ddsolver.cli": 6, "ddsolver._launch": 6, "ddsolver.__main__": 6, "ddsolver": 6,
}
#: The only module that imports the compiled core: every other reaches it through it.
CORE_CLIENT = "ddsolver.solver"
CORE = ("ddsolver._core", "ddsolver._core_bmi2")


@dataclass(frozen=True)
class Import:
    """One import statement's target, as an absolute module name, and where it stands."""

    source: str         # the importing module
    target: str         # the imported module
    names: tuple[str, ...]  # the names taken from it (``from target import a, b``)
    line: int
    in_function: bool


def modules() -> dict[str, Path]:
    """Every module of the two packages, by its dotted name."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(name: str, path: Path, known: set[str]) -> list[Import]:
    """The imports of one module, ``if TYPE_CHECKING:`` blocks left out.  ``from p import
    m`` where ``p.m`` is a module counts as importing ``p.m``."""
    is_package = path.name == "__init__.py"
    package = name.split(".") if is_package else name.split(".")[:-1]
    found: list[Import] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child, in_function)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            in_function = True
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(name, alias.name, (), node.lineno, in_function))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            plain = []
            for alias in node.names:
                if f"{module}.{alias.name}" in known:
                    found.append(Import(name, f"{module}.{alias.name}", (), node.lineno,
                                        in_function))
                else:
                    plain.append(alias.name)
            if plain or not node.names:
                found.append(Import(name, module, tuple(plain), node.lineno, in_function))
        for child in ast.iter_child_nodes(node):
            visit(child, in_function)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def floor(module: str) -> int | None:
    """The floor of a ddsolver module (that of its package when it is not listed itself)."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        placed = FLOORS.get(".".join(parts[:n]))
        if placed is not None and (n == len(parts) or ".".join(parts[:n]) != "ddsolver"):
            return placed
    return None


def _ours(module: str) -> bool:
    return module.split(".")[0] in PACKAGES


def graph() -> tuple[dict[str, Path], list[Import]]:
    found = modules()
    known = set(found) | set(CORE)
    edges = [imp for name, path in found.items() for imp in imports(name, path, known)
             if _ours(imp.target)]
    return found, edges


def _where(imp: Import) -> str:
    kind = "inside a function" if imp.in_function else "at module level"
    return f"{imp.source} line {imp.line} ({kind}) imports {imp.target}"


# ---- the tests ----------------------------------------------------------------------------

def test_every_ddsolver_module_has_a_floor():
    found, _ = graph()
    unplaced = [m for m in found if m.startswith("ddsolver") and floor(m) is None]
    assert not unplaced, f"place these modules on a floor in FLOORS: {unplaced}"
    stale = [m for m in FLOORS if m not in found and m not in CORE
             and not any(f.startswith(m + ".") for f in found)]
    assert not stale, f"FLOORS names modules that do not exist: {stale}"


def test_imports_point_down():
    _, edges = graph()
    upward = []
    for imp in edges:
        if imp.source.startswith("cardgames"):
            if imp.target.startswith("ddsolver"):
                upward.append(f"{_where(imp)}: cardgames knows nothing of the solver")
            continue
        if imp.target.startswith("cardgames"):
            continue
        below, above = floor(imp.target), floor(imp.source)
        assert below is not None and above is not None, imp
        if below > above:
            upward.append(f"{_where(imp)}: floor {above} ({FLOOR_NAMES[above]}) reaches up "
                          f"to floor {below} ({FLOOR_NAMES[below]})")
    assert not upward, "\n".join(upward)


def test_no_import_cycles():
    found, edges = graph()
    after: dict[str, set[str]] = {m: set() for m in found}
    for imp in edges:
        target = imp.target
        # ``import cardgames.pbn`` runs cardgames/__init__ too, but that is the package's
        # business; the edge that matters is the one to the module named.
        if imp.source != target and target in after:
            after[imp.source].add(target)
    state: dict[str, int] = {}   # 1: on the path, 2: done
    path: list[str] = []

    def walk(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(after[m]):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state:
                cycle = walk(n)
                if cycle:
                    return cycle
        path.pop()
        state[m] = 2
        return None

    for m in sorted(after):
        if m not in state:
            cycle = walk(m)
            assert cycle is None, "an import cycle: " + " -> ".join(cycle)


def test_no_private_name_crosses_modules():
    _, edges = graph()
    private = [f"{_where(imp)}: {', '.join(n for n in imp.names if n.startswith('_'))}"
               for imp in edges
               if any(n.startswith("_") and not n.startswith("__") for n in imp.names)]
    assert not private, "\n".join(private)


def test_only_the_facade_touches_the_core():
    found, edges = graph()
    reaching = [_where(imp) for imp in edges
                if imp.target in CORE and imp.source != CORE_CLIENT and imp.source not in CORE]
    assert not reaching, "\n".join(reaching)
    # ... nor reaches into a Solver's core from outside solver.py (``solver._core``)
    for name, path in found.items():
        if name == CORE_CLIENT or not name.startswith("ddsolver"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            assert not (isinstance(node, ast.Attribute) and node.attr == "_core"), \
                f"{name} line {node.lineno} reaches into a solver's core"


def test_the_dd_api_depends_on_the_core_alone():
    _, edges = graph()
    below = {imp.target for imp in edges if imp.source == CORE_CLIENT
             and imp.target.startswith("ddsolver")}
    assert below and all(floor(t) == 0 for t in below), below


def test_the_checks_can_fail(tmp_path):
    """The walker sees what the tests above look for: an import inside a function, a
    private name, a TYPE_CHECKING block left out."""
    source = tmp_path / "example.py"
    source.write_text("from typing import TYPE_CHECKING\n"
                      "if TYPE_CHECKING:\n    from ddsolver.cli import main\n"
                      "def f():\n    from ddsolver.formats.leads import _f\n"
                      "    from . import views\n")
    found = imports("ddsolver.stats", source, {"ddsolver.formats.leads", "ddsolver.views"})
    assert [(i.target, i.names, i.in_function) for i in found if _ours(i.target)] == [
        ("ddsolver.formats.leads", ("_f",), True), ("ddsolver.views", (), True)]
    assert floor("ddsolver.formats.leads") == 5 > floor("ddsolver.stats") == 3
    assert floor("ddsolver.cli.table") == 6 and floor("ddsolver") == 6


# ---- the picture --------------------------------------------------------------------------

def describe() -> str:
    """The floors, top down, with what each module imports from the house."""
    found, edges = graph()
    by_source: dict[str, set[str]] = {}
    for imp in edges:
        if imp.target != imp.source:
            by_source.setdefault(imp.source, set()).add(imp.target)
    lines = []
    for level in range(len(FLOOR_NAMES) - 1, -1, -1):
        members = sorted(m for m in set(found) | set(CORE)
                         if m.startswith("ddsolver") and floor(m) == level)
        lines.append(f"floor {level}: {FLOOR_NAMES[level]}")
        for m in members:
            targets = sorted(t for t in by_source.get(m, ()) if t.startswith("ddsolver"))
            shown = ", ".join(t.removeprefix("ddsolver.") for t in targets) or "-"
            lines.append(f"    {m:<28} -> {shown}")
    lines.append("ground: cardgames (imports nothing from ddsolver)")
    for m in sorted(x for x in found if x.startswith("cardgames")):
        targets = sorted(t for t in by_source.get(m, ()) if t.startswith("cardgames"))
        shown = ", ".join(t.removeprefix("cardgames.") for t in targets) or "-"
        lines.append(f"    {m:<28} -> {shown}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(describe())
    sys.exit(0)
