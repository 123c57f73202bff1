"""scripts/scale_benchmark.py runs end to end on a few hundred synthetic units, for each engine
that can run here, and prints the figures the storage issue asks for."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT

KEYS = {"units", "backend", "build_s", "p50_ms", "p95_ms", "hybrid_filter_p95_ms", "recall_at_10", "rss_mb",
        "disk_bytes_per_unit"}


@pytest.mark.parametrize("backend, settings", [("sqlite", "{}"), ("sqlite", '{"vector_index_threshold": 0}'),
                                               ("qdrant", "{}")])
def test_figures_come_out(backend, settings, tmp_path):
    if backend == "qdrant":
        pytest.importorskip("qdrant_client")
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "scale_benchmark.py"), "--units", "400", "--queries",
                          "8", "--backend", backend, "--settings", settings, "--json"],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert KEYS <= set(got) and (got["units"], got["backend"]) == (400, backend)
    # 400 units: exact search (or an HNSW that sees them all) finds what exact search finds,
    # up to int8's rounding of near ties.
    assert got["recall_at_10"] >= 0.9
    assert got["disk_bytes_per_unit"] > got["text_bytes_per_unit"] > 0
