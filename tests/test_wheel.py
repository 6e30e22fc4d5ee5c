"""The wheel: built from the sdist, repaired into a manylinux wheel, installed where there is
no compiler, and run from outside the source tree.

This is the path of a user without gcc: ``pip install ddsolver`` takes the wheel, and
the wheel must not need Cython, a compiler or the source tree.  One build serves every
test here (a module fixture, about a minute): a copy of the checkout (so that the build
leaves the checkout as it was) is built with ``python -m build`` (an sdist, then a wheel
from that sdist), the wheel is repaired with ``auditwheel``, and installed into a fresh
venv with ``pip install --only-binary :all:`` and ``CC=/bin/false``.  The build tools
are the ``wheel`` extra's pins in pyproject.toml, installed into a venv of their own.

Skipped, saying why, off Linux and when the package index cannot be reached; a failed
build is a skip on a developer's machine (no gcc, say) but a failure with ``CI=true``.
Deselect with ``-m 'not wheel'``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import ddsolver

pytestmark = pytest.mark.wheel

ROOT = Path(__file__).resolve().parents[1]
ON_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
# The Cython sources the sdist must carry: a build from it compiles these, nothing else.
CYTHON_SOURCES = {"_core.pyx", "_core.pxd", "_bits.pxd", "_search.pxi", "_moves.pxi", "_cutoffs.pxi",
                  "_tt.pxi", "_core_bmi2.pyx", "_core_bmi2.pxd"}


@dataclass(frozen=True)
class Built:
    sdist: Path
    wheel: Path              # as built (linux_x86_64)
    repaired: Path           # auditwheel's manylinux wheel
    show: str                # what `auditwheel show` said of the built wheel
    venv: Path               # a fresh venv with the repaired wheel installed
    env: dict[str, str]      # the environment the installed wheel runs in (no compiler)
    work: Path               # a directory outside the checkout, with session.pbn in it


def _run(args: list[str | Path], *, what: str, timeout: float = 600, **kw) -> subprocess.CompletedProcess:
    """Run a step of the build; its output is kept for the failure message."""
    try:
        return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=timeout,
                              check=True, **kw)
    except subprocess.CalledProcessError as err:
        tail = "\n".join((err.stdout + err.stderr).splitlines()[-30:])
        raise _StepFailed(f"{what} failed (status {err.returncode}):\n{tail}") from err
    except subprocess.TimeoutExpired as err:
        raise _StepFailed(f"{what} took more than {timeout:.0f} s") from err


class _StepFailed(Exception):
    pass


def _not_built(reason: str) -> None:
    """A build step failed: fail on CI, skip (saying why) elsewhere."""
    if ON_CI:
        pytest.fail(f"the wheel could not be built: {reason}", pytrace=False)
    pytest.skip(f"the wheel could not be built here: {reason}")


def _wheel_tools() -> list[str]:
    """The pinned build tools: pyproject.toml's ``wheel`` extra."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    line = re.search(r"^wheel = (\[.*\])$", text, re.MULTILINE)
    assert line is not None, "pyproject.toml has no `wheel` extra"
    tools = re.findall(r'"([^"]+)"', line.group(1))
    assert tools and all("==" in tool for tool in tools), tools
    return tools


def _copy_source(dest: Path) -> None:
    """The checkout's files (tracked, and new ones git does not ignore) copied to dest,
    so that building writes nothing into the checkout."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=ROOT,
                                capture_output=True, check=True, timeout=60).stdout
        names = [name for name in listed.decode().split("\0") if name]
    except (OSError, subprocess.SubprocessError):
        names = []
    if not names:   # not a git checkout: everything but what a build or a run leaves
        shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(
            ".git", "build", "dist", "*.egg-info", "*.so", "*.c", "__pycache__", ".*_cache",
            ".hypothesis", ".venv"))
        return
    for name in names:
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PYTHONNOUSERSITE"] = "1"
    env.update(extra)
    return env


def _index_reachable(tools_python: Path) -> bool:
    """Whether pip can see the package index (numpy and tqdm come from it as wheels)."""
    try:
        subprocess.run([str(tools_python), "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
                        "--dest", str(tools_python.parents[1] / "probe"), "tqdm"],
                       capture_output=True, check=True, timeout=180, env=_clean_env())
    except (OSError, subprocess.SubprocessError):
        return False
    return True


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    if not sys.platform.startswith("linux"):
        pytest.skip("the manylinux wheel is built and repaired on Linux only (macOS and Windows "
                    "wheels: cibuildwheel on a hosted CI, .github/workflows/wheels.yml)")
    top = tmp_path_factory.mktemp("wheel")
    src, dist, wheelhouse = top / "src", top / "dist", top / "wheelhouse"
    src.mkdir()
    _copy_source(src)

    tools = top / "tools"
    subprocess.run([sys.executable, "-m", "venv", str(tools)], check=True, timeout=300)
    tools_bin = tools / "bin"
    if not _index_reachable(tools_bin / "python"):
        pytest.skip("the package index cannot be reached: the build tools and numpy come from it")
    tools_env = _clean_env(PATH=f"{tools_bin}{os.pathsep}{os.environ.get('PATH', '')}")
    try:
        _run([tools_bin / "python", "-m", "pip", "install", "-q", *_wheel_tools()], env=tools_env,
             what="installing the build tools")
        _run([tools_bin / "python", "-m", "build", "--outdir", dist, src], env=tools_env,
             what="python -m build (the sdist, then a wheel from it)", timeout=900)
        sdists, wheels = sorted(dist.glob("*.tar.gz")), sorted(dist.glob("*.whl"))
        assert len(sdists) == 1 and len(wheels) == 1, sorted(dist.iterdir())
        show = _run([tools_bin / "auditwheel", "show", wheels[0]], env=tools_env,
                    what="auditwheel show").stdout
        _run([tools_bin / "auditwheel", "repair", "--wheel-dir", wheelhouse, wheels[0]], env=tools_env,
             what="auditwheel repair")
    except _StepFailed as err:
        _not_built(str(err))
    repaired = sorted(wheelhouse.glob("*.whl"))
    assert len(repaired) == 1, repaired

    # A fresh venv where nothing can be compiled: the wheel, and numpy and tqdm as wheels.
    venv = top / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    env = _clean_env(CC="/bin/false", CXX="/bin/false", LDSHARED="/bin/false",
                     PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    try:
        _run([venv / "bin" / "python", "-m", "pip", "install", "-q", "--only-binary", ":all:", repaired[0]],
             env=env, what="pip install --only-binary :all: (the repaired wheel, CC=/bin/false)")
    except _StepFailed as err:
        _not_built(str(err))
    work = top / "work"
    work.mkdir()
    shutil.copy2(ROOT / "data" / "session.pbn", work / "session.pbn")
    return Built(sdists[0], wheels[0], repaired[0], show, venv, env, work)


def _installed(built: Built, *args: str) -> subprocess.CompletedProcess:
    """Run the installed ``ddsolver`` command, in the work directory."""
    return subprocess.run([str(built.venv / "bin" / "ddsolver"), *args], cwd=built.work, env=built.env,
                          capture_output=True, text=True, timeout=600)


# ---- the sdist ----------------------------------------------------------------------------------

def test_sdist_carries_the_cython_sources_and_no_generated_c(built):
    with tarfile.open(built.sdist) as sdist:
        names = sdist.getnames()
    package = {Path(name).name for name in names if Path(name).parent.name == "ddsolver"}
    assert CYTHON_SOURCES <= package, CYTHON_SOURCES - package
    assert not [name for name in names if name.endswith((".c", ".so"))]
    assert any(name.endswith("/setup.py") for name in names)
    assert any(name.endswith("/MANIFEST.in") for name in names)


def test_sdist_and_wheel_carry_the_package_version(built):
    version = ddsolver.__version__
    assert built.sdist.name == f"ddsolver-{version}.tar.gz"
    assert built.wheel.name.startswith(f"ddsolver-{version}-")


# ---- the repaired wheel -------------------------------------------------------------------------

def test_repaired_wheel_is_manylinux_and_bundles_no_library(built):
    tags = built.repaired.name.removesuffix(".whl").split("-")[-1]
    assert re.search(r"manylinux_2_\d+_", tags), built.repaired.name
    # The core needs nothing but libc: auditwheel grafted no library into the wheel
    # (numpy is a dependency installed beside it, never bundled).
    with zipfile.ZipFile(built.repaired) as wheel:
        names = wheel.namelist()
    assert not [name for name in names if ".libs/" in name], names
    assert [name for name in names if re.fullmatch(r"ddsolver/_core\..*\.so", name)]
    # ... and the BMI2 build beside it (an x86-64 wheel; the CPU picks at import).
    assert [name for name in names if re.fullmatch(r"ddsolver/_core_bmi2\..*\.so", name)]
    assert "is consistent with the" in built.show and "manylinux" in built.show


# ---- the installed wheel, with no compiler, outside the checkout ---------------------------------

def test_installed_module_is_the_wheels_not_the_checkouts(built):
    probe = ("import ddsolver, ddsolver._core, cardgames, sys; "
             "print(ddsolver.__file__); print(ddsolver._core.__file__); print(cardgames.__file__); "
             "print(sys.modules[ddsolver._core.Core.__module__].__file__)")
    run = subprocess.run([str(built.venv / "bin" / "python"), "-c", probe], cwd=built.work, env=built.env,
                         capture_output=True, text=True, timeout=120, check=True)
    files = [Path(line).resolve() for line in run.stdout.split()]
    assert len(files) == 4
    for file in files:
        assert file.is_relative_to(built.venv.resolve()), file
        assert not file.is_relative_to(ROOT), file


def test_installed_version_agrees_with_metadata_and_package(built):
    run = _installed(built, "--version")
    assert run.returncode == 0, run.stderr
    probe = ("import importlib.metadata as m, ddsolver; "
             "print(m.version('ddsolver')); print(ddsolver.__version__)")
    versions = subprocess.run([str(built.venv / "bin" / "python"), "-c", probe], cwd=built.work,
                              env=built.env, capture_output=True, text=True, timeout=120,
                              check=True).stdout.split()
    assert versions == [ddsolver.__version__, ddsolver.__version__]
    assert run.stdout.strip() == f"ddsolver {ddsolver.__version__}"


def test_installed_wheel_runs_the_readme_command(built):
    # README's first command, `ddsolver table data/session.pbn`, on a copy of the file.
    run = _installed(built, "table", "session.pbn")
    assert run.returncode == 0, run.stderr
    boards = [int(n) for n in re.findall(r"^session\.pbn board (\d+) ", run.stdout, re.MULTILINE)]
    assert boards == list(range(1, 33))
    grids = re.findall(r"^ +NT +S +H +D +C\n((?:[NESW](?: +\d+){5}\n){4})", run.stdout, re.MULTILINE)
    assert len(grids) == 32
    # The same tables as the build under test gives (the checkout's own extension).
    here = subprocess.run([sys.executable, "-m", "ddsolver", "table", "session.pbn"], cwd=built.work,
                          env=_clean_env(PYTHONPATH=str(ROOT)), capture_output=True, text=True,
                          timeout=600)
    assert here.returncode == 0, here.stderr
    assert run.stdout == here.stdout
