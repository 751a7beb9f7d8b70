import numpy as np

from flows.stats import RunningSummary, summarize


def test_streaming_summary_matches_the_batch_one():
    rng = np.random.Generator(np.random.PCG64(1))
    x = rng.normal(3.0, 2.0, 10_001)
    running = RunningSummary()
    for part in np.array_split(x, 7):
        running.add(part)
    a, b = running.result(), summarize(x)
    assert a.n == b.n == 10_001
    assert np.isclose(a.mean, b.mean) and np.isclose(a.sd, b.sd)
    assert b.ci_low < 3.0 < b.ci_high
