"""One BLAS thread a cardlab process (flows/settings.py): BLAS's own threads spin against cardlab's workers."""

import os
import subprocess
import sys

import pytest

from flows.settings import ONE_BLAS_THREAD

# what the process ends with, numpy imported before or after the defaults are applied
PROBE = """
import sys
if sys.argv[1] == "numpy-first":
    import numpy
from flows.settings import apply_defaults
apply_defaults()
import numpy
from threadpoolctl import threadpool_info
print(max(pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"))
"""


def _blas_threads(order: str, **env: str) -> int:
    clean = {k: v for k, v in os.environ.items() if k not in ONE_BLAS_THREAD and k != "OMP_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", PROBE, order], env={**clean, **env}, capture_output=True,
                          text=True, timeout=120, check=True)
    return int(done.stdout.split()[-1])


@pytest.mark.parametrize("order", ["numpy-first", "defaults-first"])
def test_a_cardlab_process_runs_one_blas_thread(order):
    assert _blas_threads(order) == 1


def test_a_users_own_thread_count_stands():
    assert _blas_threads("defaults-first", OPENBLAS_NUM_THREADS="2") == 2
