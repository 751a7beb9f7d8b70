"""The read-prior benchmarks build their candidates through the bot registry's parser: settings range-checked, a prior
resolved once, `base` the defaults (bench/cg_holdem/prior_tables.py, prior_paired.py)."""

import numpy as np
import pytest

from bench.cg_holdem import prior_paired, prior_tables
from bots.cg_holdem import ranged
from engine.core.settings import ConfigError

PRIOR = '{"pre_first":[[1,0,0,0,0,0,0,0,0,0],[0,1,0,0,0,0,0,0,0,0],[0,0,1,0,0,0,0,0,0,0]]}'


def _config(make):
    return make().config


def test_tables_candidates_parse_and_check_their_settings(tmp_path):
    prior = tmp_path / "prior.json"
    prior.write_text(PRIOR)
    name, make = prior_tables.candidate(ranged, f"F10=read_prior={prior},call_prior=10")
    assert name == "F10" and _config(make).call_prior == 10.0 and _config(make).read_prior == PRIOR
    assert _config(prior_tables.candidate(ranged, "base")[1]) == ranged.RangedConfig()
    with pytest.raises(ConfigError, match="call_prior"):
        prior_tables.candidate(ranged, "bad=call_prior=-1")


def test_paired_candidates_are_a_prior_and_its_weight():
    name, make = prior_paired.candidate(ranged, f"w20={PRIOR}@20")
    assert name == "w20" and _config(make).read_prior == PRIOR
    assert _config(make).read_prior_weight == 20.0
    assert _config(prior_paired.candidate(ranged, "base")[1]) == ranged.RangedConfig()


def test_pooled_tables_combine_standard_errors_and_never_give_a_point():
    a, b = np.array([0.0, 1.0, 0.0, 1.0]), np.array([-1.0, 0.0, 0.0, 1.0])
    mean, low, high = prior_tables.pooled([a, b])
    se = np.sqrt(a.var(ddof=1) / 4 + b.var(ddof=1) / 4) / 2
    assert mean == pytest.approx(0.25) and high - mean == pytest.approx(1.96 * se, rel=1e-3) and low < mean
    mean, low, high = prior_tables.pooled([np.zeros(3), np.zeros(5)])
    assert mean == 0.0 and low < 0.0 < high
