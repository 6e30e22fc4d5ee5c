"""Build the Cython core of ddsolver.  Metadata lives in pyproject.toml.

The compiler flags depend on the compiler, which is only known once the build starts, so
they are chosen in build_ext (not when this file is read): gcc and clang get -O3, and
-mpopcnt when the target is x86-64; MSVC gets /O2 (its popcount is an intrinsic, see
ddsolver/_bits.pxd).  Wheels for macOS and Windows are built by cibuildwheel on a hosted
CI (pyproject.toml's [tool.cibuildwheel], .github/workflows/wheels.yml).
"""

import os
import platform
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

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


def _target_machines() -> set[str]:
    """The CPU architectures the extension is compiled for, lower case.

    On macOS one machine can build for the other: cibuildwheel (like pip) says which in
    ARCHFLAGS ("-arch arm64", or both arches for universal2).
    """
    if sys.platform == "darwin" and "-arch" in os.environ.get("ARCHFLAGS", ""):
        words = os.environ["ARCHFLAGS"].split()
        return {words[i + 1].lower() for i, word in enumerate(words[:-1]) if word == "-arch"}
    return {platform.machine().lower()}


def compile_args(compiler_type: str) -> list[str]:
    """The optimisation flags for a compiler of distutils' type ("unix", "msvc", ...)."""
    if compiler_type == "msvc":
        # setuptools already passes /O2; say it here so that the choice is visible.
        return ["/O2"]
    args = ["-O3"]
    if _target_machines() <= {"x86_64", "amd64"}:
        # popcount is the core's most common operation; without this gcc calls a library
        # routine.  (arm64 has a popcount instruction in its base set; gcc and clang
        # reject -mpopcnt there.)
        args.append("-mpopcnt")
    if os.environ.get("DDSOLVER_NATIVE"):
        args.append("-march=native")
    return args


class BuildExt(build_ext):
    """build_ext with the flags of the compiler it found, compiling the extensions side by
    side (one per CPU, unless ``--parallel``/``-j`` says otherwise): the two builds of the
    core take about 18 s each."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def build_extensions(self) -> None:
        compiler_type = self.compiler.compiler_type
        if compiler_type == "msvc":
            self.extensions = [ext for ext in self.extensions if ext.name != "ddsolver._core_bmi2"]
        for ext in self.extensions:
            ext.extra_compile_args = compile_args(compiler_type) + list(ext.extra_compile_args or [])
            if ext.name == "ddsolver._core_bmi2":
                ext.extra_compile_args += BMI2_ARGS
            if compiler_type == "msvc":
                # The stop flag's thread-local pointer (_core.pyx) is C11's _Thread_local,
                # which MSVC spells __declspec(thread).
                ext.define_macros = [*ext.define_macros, ("_Thread_local", "__declspec(thread)")]
        super().build_extensions()


# The BMI2 build of the core (see the end of ddsolver/_core.pyx): x86-64 targets only, and
# not with MSVC (build_extensions drops it there: MSVC has no -mbmi2 nor cpuid builtins).
# AVX2 (every CPU with BMI2 but a few low-end Intel parts, which then take the portable
# build) matches a table block's eight entries at once.
BMI2_ARGS = ["-mbmi", "-mbmi2", "-mlzcnt", "-mavx2"]

extensions = [Extension("ddsolver._core", ["ddsolver/_core.pyx"])]
if _target_machines() <= {"x86_64", "amd64"}:
    extensions.append(Extension("ddsolver._core_bmi2", ["ddsolver/_core_bmi2.pyx"],
                                define_macros=[("DD_BMI2_BUILD", "1")]))

# cythonize runs serially: its nthreads is a process pool, which on macOS and Windows
# (spawn) would import this file again in every worker.  The compiling is the parallel part.
setup(ext_modules=cythonize(extensions, compiler_directives=HOT_DIRECTIVES),
      cmdclass={"build_ext": BuildExt})
