"""A decided sweep of a real game with a small cap: Hold'em Training's exploit bot with one flop and one turn
completion against its default 10/8 (about 2.7 chips/hand worse, paired sd about 21: bench/decisions.py)."""

import pytest

from flows.decide import make_rule, with_runner
from flows.sweep import SweepSpec


@pytest.mark.slow  # a decided sweep of the exploit bot over thousands of hands
def test_a_clearly_worse_holdem_config_is_kept_out_within_the_cap(tmp_path):
    spec = SweepSpec(game="holdem-training", bot="exploit", grid=(("runouts_flop", ("1",)), ("runouts_turn", ("1",))),
                     units=3000, seed=21, chunk_size=1000, baseline=())
    got = with_runner("threads", workers=2)(spec, make_rule("holdem-training"), db=str(tmp_path / "h.duckdb"),
                                             track=False)
    assert got.decision == "keep" and got.best == {}
    assert got.challenger == {"runouts_flop": "1", "runouts_turn": "1"}
    assert got.confirmed["high"] < 0  # the fresh deals say worse, not merely not better
    assert got.hands <= 2 * 3000 and got.hands == got.confirm_units  # one challenger: no race to run
    assert got.deals["confirmation"]["seed"] != 21
