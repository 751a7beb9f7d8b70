"""Settings read from the environment are checked like options: a bad value gets one line naming the
variable and what is accepted, before anything is played."""

import pytest

from engine.core.errors import BadValue
from flows import settings
from tests.cli.test_journey import cardlab

BAD_WORKERS = ["１", "abc", "0", " 2", "2_0", "257"]


@pytest.mark.parametrize("given", BAD_WORKERS)
def test_a_bad_worker_count_is_refused_naming_the_variable(monkeypatch, given):
    monkeypatch.setenv("CARDLAB_WORKERS", given)
    with pytest.raises(BadValue) as raised:
        settings.worker_count()
    assert str(raised.value) == f"CARDLAB_WORKERS={given!r}: not a worker count; accepted: a whole number from 1 to 256"


@pytest.mark.parametrize("given", ["1", "2", "256"])
def test_a_good_worker_count_is_read(monkeypatch, given):
    monkeypatch.setenv("CARDLAB_WORKERS", given)
    assert settings.worker_count() == int(given)


def test_the_cli_says_it_in_one_line(env, tmp_path):
    done = cardlab({**env, "CARDLAB_WORKERS": "１"}, tmp_path, "sweep", "toy", "--grid", "edge=0.1,0.2",
                   "--hands", "50", ok=False)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == ("error: CARDLAB_WORKERS='１': not a worker count; "
                                                    "accepted: a whole number from 1 to 256")
