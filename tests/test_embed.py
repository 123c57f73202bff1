"""How scent's waiting threads wait (scent.embed.settle_threads), set at its package import."""
import os
import subprocess
import sys

import pytest

SHOW = ("import os; print(*(os.environ.get(k) for k in "
        "('OMP_WAIT_POLICY', 'GOMP_SPINCOUNT', 'OPENBLAS_THREAD_TIMEOUT')))")
VARS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "OPENBLAS_THREAD_TIMEOUT")


def _run(first: str = "", **env) -> list[str]:
    base = {k: v for k, v in os.environ.items() if k not in VARS}
    code = f"{first}import scent.embed; {SHOW}"
    return subprocess.run([sys.executable, "-c", code], env={**base, **env}, check=True,
                          capture_output=True, text=True).stdout.split()


def test_a_short_openmp_spin_and_openblas_threads_that_sleep_at_once():
    # Neither never-spinning (twice a quiet machine's query time) nor libgomp's 300,000 turns
    # (seconds a query on a busy machine): docs/benchmarks.md, session 8.
    assert _run() == ["None", "1000", "4"]


def test_the_same_spin_where_numpy_came_first():
    # OpenBLAS already read its settings, but scent's products never wake its threads (row_dots).
    assert _run("import numpy; ") == ["None", "1000", "4"]


def test_row_dots_by_hand():
    import numpy as np

    from scent.embed import row_dots

    m = np.array([[1, 2, 3], [0, -1, 0.5], [0, 0, 0]], np.float32)
    assert row_dots(m, np.array([2, 1, 2], np.float32)).tolist() == [10.0, 0.0, 0.0]
    assert row_dots(m.T, np.array([1, 1, 1], np.float32)).tolist() == [1.0, 1.0, 3.5]


@pytest.mark.parametrize("env, expected", [({"OMP_WAIT_POLICY": "ACTIVE"}, ["ACTIVE", "None", "None"]),
                                           ({"GOMP_SPINCOUNT": "5"}, ["None", "5", "None"])])
def test_a_users_own_openmp_setting_wins(env, expected):
    assert _run(**env) == expected
