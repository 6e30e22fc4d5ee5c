"""The two builds of the core (ddsolver/_core.pyx, end): the portable one and, on x86-64
with gcc or clang, the BMI2 one that ddsolver._core hands out on a CPU that has BMI1, BMI2
and LZCNT.  Everything else in the suite runs on the build in use here; these tests check
that it is the one this CPU should get, and that the other searches exactly as it does:
the same node signature (the same tree, node for node) and the same tables.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_node_signature import SIGNATURE

from ddsolver import _core

ROOT = Path(__file__).resolve().parents[2]
HAVE_BMI2_BUILD = importlib.util.find_spec("ddsolver._core_bmi2") is not None


def _cpu_flags() -> set[str]:
    """The CPU's feature flags from /proc/cpuinfo (empty where there is none)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def _cpu_runs_bmi2_build() -> bool:
    return {"bmi1", "bmi2", "abm", "avx2"} <= _cpu_flags()


def test_build_is_named():
    assert _core.BUILD in ("portable", "x86-64 BMI2")
    assert _core.Core.__module__ == ("ddsolver._core_bmi2" if _core.BUILD == "x86-64 BMI2"
                                     else "ddsolver._core")


@pytest.mark.skipif(not (HAVE_BMI2_BUILD and _cpu_runs_bmi2_build()),
                    reason="no BMI2 build here, or this CPU lacks BMI1/BMI2/LZCNT/AVX2")
def test_cpu_with_bmi2_gets_the_bmi2_build():
    if os.environ.get("DDSOLVER_PORTABLE", "0") not in ("", "0"):
        assert _core.BUILD == "portable"
    else:
        assert _core.BUILD == "x86-64 BMI2"


def test_bmi2_build_is_built_on_x86_64_linux():
    """setup.py builds it for x86-64 with gcc: here it must exist (or the speed is lost
    without a word)."""
    if not (sys.platform.startswith("linux") and os.uname().machine == "x86_64"):
        pytest.skip("the BMI2 build is x86-64 only")
    assert HAVE_BMI2_BUILD


# The other build, in a fresh interpreter: its node signature and a few DD tables.
_OTHER_BUILD = r"""
import importlib.util, json, sys
sys.path.insert(0, {root!r})
from ddsolver import _core
spec = importlib.util.spec_from_file_location("signature", {script!r})
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
total, _ = module.signature()
core = _core.Core(16)
tables = [core.dd_table(tuple(masks)) for masks in json.loads(sys.argv[1])]
print(json.dumps({{"build": _core.BUILD, "signature": total, "tables": tables}}))
"""


@pytest.mark.skipif(not HAVE_BMI2_BUILD, reason="only one build here")
def test_other_build_searches_the_same_tree():
    import random

    from cardgames.minimax import random_ending

    rng = random.Random(7)
    deals = [random_ending(rng, 13) for _ in range(6)]
    masks = [[m for hand in deal.hands for m in hand.masks] for deal in deals]
    portable_wanted = _core.BUILD != "portable"
    env = dict(os.environ, DDSOLVER_PORTABLE="1" if portable_wanted else "0")
    script = _OTHER_BUILD.format(root=str(ROOT), script=str(ROOT / "bench" / "signature.py"))
    out = subprocess.run([sys.executable, "-c", script, json.dumps(masks)], env=env,
                         capture_output=True, text=True, timeout=300, check=True)
    other = json.loads(out.stdout)
    if portable_wanted:
        assert other["build"] == "portable"
    elif not _cpu_runs_bmi2_build():
        pytest.skip("this CPU cannot run the BMI2 build")
    else:
        assert other["build"] == "x86-64 BMI2"
    assert other["signature"] == SIGNATURE
    core = _core.Core(16)
    assert other["tables"] == [core.dd_table(tuple(m)) for m in masks]
