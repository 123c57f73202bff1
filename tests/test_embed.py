"""How scent starts the embedding model's OpenMP threads (scent.embed.E5Embedder.library)."""
import os
import subprocess
import sys

import pytest

SHOW = ("from scent.embed import E5Embedder; E5Embedder.library(); import os; "
        "print(os.environ.get('OMP_WAIT_POLICY'), os.environ.get('GOMP_SPINCOUNT'))")


def _run(**env) -> str:
    base = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    return subprocess.run([sys.executable, "-c", SHOW], env={**base, **env}, check=True,
                          capture_output=True, text=True).stdout.split()


def test_the_model_loads_with_a_short_openmp_spin():
    # Neither never-spinning (twice a quiet machine's query time) nor libgomp's 300,000 turns
    # (seconds a query on a busy machine): docs/benchmarks.md, session 8.
    assert _run() == ["None", "1000"]


@pytest.mark.parametrize("env, expected", [({"OMP_WAIT_POLICY": "ACTIVE"}, ["ACTIVE", "None"]),
                                           ({"GOMP_SPINCOUNT": "5"}, ["None", "5"])])
def test_a_users_own_openmp_setting_wins(env, expected):
    assert _run(**env) == expected
