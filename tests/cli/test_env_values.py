"""Settings read from the environment are checked like options: a bad value gets one line naming the
variable and what is accepted, before anything is played."""

import pytest

from tests.cli.test_journey import cardlab


@pytest.mark.parametrize("given", ["１", "abc", "0", " 2", "2_0"])
def test_a_bad_worker_count_is_one_line(env, tmp_path, given):
    done = cardlab({**env, "CARDLAB_WORKERS": given}, tmp_path, "sweep", "toy", "--grid", "edge=0.1,0.2",
                   "--hands", "50", ok=False)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (f"error: CARDLAB_WORKERS={given!r}: not a worker count; "
                                                    "accepted: a whole number from 1 to 256")


def test_a_good_worker_count_plays(env, tmp_path):
    done = cardlab({**env, "CARDLAB_WORKERS": "1"}, tmp_path, "sweep", "toy", "--grid", "edge=0.1,0.2",
                   "--hands", "50")
    assert done.returncode == 0
