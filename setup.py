"""Build the Cython core of ddsolver.  Metadata lives in pyproject.toml."""

import os
import platform

from setuptools import Extension, setup

try:
    from Cython.Build import cythonize
except ImportError as err:  # pragma: no cover - Cython is a build requirement
    raise SystemExit("Cython is needed to build ddsolver (pip install cython)") from err

HOT_DIRECTIVES = {
    "language_level": "3",
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
    # The signatures of Core's methods in their docstrings, for help() and the API
    # reference (docs/api.rst); no effect on the generated code's speed.
    "embedsignature": True,
}

extra_compile_args = ["-O3"]
if platform.machine().lower() in ("x86_64", "amd64"):
    # popcount is the core's most common operation; without this gcc calls a library routine.
    extra_compile_args.append("-mpopcnt")
if os.environ.get("DDSOLVER_NATIVE"):
    extra_compile_args.append("-march=native")

extensions = [
    Extension("ddsolver._core", ["ddsolver/_core.pyx"], extra_compile_args=extra_compile_args),
]

setup(ext_modules=cythonize(extensions, compiler_directives=HOT_DIRECTIVES))
