"""The workspace adapter tells the oracle the server (chunking, learners included: tests/test_conformance.py)."""

from flows.games.twocarddraw import SPEC


def test_oracle_is_told_the_generated_server():
    options = SPEC.options({"bet1": "2", "bet2": "5", "steps": "5000"})
    log = SPEC.play_chunk(SPEC.spec("oracle"), SPEC.spec("oracle").default_config(), seed=1, first=0,
                             count=50, options=options)
    assert log.count == 50 and log.stats["faulted"] == 0.0
    assert SPEC.sql_path().exists()
