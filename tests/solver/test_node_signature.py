"""The search's node signature (see bench/signature.py): the exact node count on a fixed
set of deals.

A change that only reorganises the core must leave it unchanged; a change to the search
(ordering, cut-offs, the table's rules) changes it on purpose, and updates ``SIGNATURE``
here with the new count stated in its commit.  A regression in move ordering shows as a
jump in the count, so CI catches it even when every answer stays right.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

SIGNATURE = 17780813

_SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "signature.py"


def _signature_module():
    spec = importlib.util.spec_from_file_location("ddsolver_bench_signature", _SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_node_signature_is_unchanged():
    total, per_deal = _signature_module().signature()
    assert len(per_deal) == 8 and all(n > 0 for n in per_deal)
    assert total == SIGNATURE, (
        f"nodes searched: {total:,} (expected {SIGNATURE:,}); if the search changed on "
        f"purpose, update SIGNATURE and state the new count in the commit")
