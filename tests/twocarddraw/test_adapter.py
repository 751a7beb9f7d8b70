"""The workspace adapter: chunks are independent of chunking, also for a bot that learns."""

import numpy as np

from flows.games.twocarddraw import ADAPTER


def test_chunks_of_a_learning_bot_match_one_uninterrupted_test():
    options = ADAPTER.options({"bet1": "1", "bet2": "2", "steps": "20000"})
    spec = ADAPTER.spec("learner")
    config = spec.config_from({"prior_count": "2"})
    whole = ADAPTER.play_chunk(spec, config, seed=3, first=0, count=120, options=options)
    tail = ADAPTER.play_chunk(spec, config, seed=3, first=80, count=40, options=options)
    assert tail.first == 80 and np.array_equal(whole.payoffs[80:], tail.payoffs)
    assert list(tail.tables["tcd_hands"]["hand"]) == list(range(80, 120))


def test_oracle_is_told_the_generated_server():
    options = ADAPTER.options({"bet1": "2", "bet2": "5", "steps": "5000"})
    log = ADAPTER.play_chunk(ADAPTER.spec("oracle"), ADAPTER.spec("oracle").default_config(), seed=1, first=0,
                             count=50, options=options)
    assert log.count == 50 and log.stats["faulted"] == 0.0
    assert ADAPTER.sql_path().exists()
