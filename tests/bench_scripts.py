"""The scripts of bench/ as modules, for the tests of what they compute."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench"


def load_bench_script(name: str) -> ModuleType:
    """``bench/NAME.py`` as the module ``ddsolver_bench_NAME``: bench/ is on the path while
    it loads (the scripts import bench_env and one another), and the module is registered
    first (its dataclasses look their module up)."""
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(f"ddsolver_bench_{name}",
                                                      BENCH / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module
