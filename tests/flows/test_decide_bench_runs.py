"""`cardlab bench decisions` runs are independent replications: a null pair whose bot draws follow its config
seed and the hand number alone (Hold'em Training's exploit bot) gets fresh bot seeds every run. With fixed
seeds every run replays the same draws at hand h, so all runs test one conditional difference, the mean given
those draws, which is not 0; checked on simulated differences where a hand's difference is the bots' part
(from their seeds and the hand) plus the deal's (from the run's seed)."""

import numpy as np
import pytest

import bench.decisions as bd
from bench.decisions import PAIRS, Pair
from flows.stats import Sprt, paired_look

UNITS = 2000


class FakeDecision:
    def __init__(self, decision: str, hands: int):
        self.decision, self.hands, self.confirmed = decision, hands, None


def _simulated(record: list):
    """A decided sweep's stand-in: the SPRT on `UNITS` simulated paired differences of the spec's pair, sd 1 from
    the bots' seeds (hand by hand) and sd 1 from the deals (the run's seed), true mean 0 over both."""

    def decide(spec, rule, **_):
        challenger = int(dict(spec.grid)["seed"][0])
        baseline = int(dict(spec.baseline)["seed"])
        bots = np.random.default_rng(challenger).standard_normal(UNITS) - \
            np.random.default_rng(baseline).standard_normal(UNITS)
        deals = np.random.default_rng([spec.seed, 7]).standard_normal(UNITS)
        d = (bots + deals * np.sqrt(2)) / 2
        look = paired_look(d)
        record.append(look)
        test = Sprt(d1=0.2, first_look=UNITS)
        verdict = test.verdict(test.llr(look.n, look.mean, look.sd ** 2), look.n)
        return FakeDecision({"H1": "switch", "H0": "keep"}.get(verdict, "undecided"), 2 * UNITS)

    return lambda *a, **k: decide


def _spread_of_run_means(monkeypatch, pair: Pair, runs: int) -> float:
    """The variance across runs of each run's mean in units of its own plug-in standard error: 1 for
    independent runs, less when the runs share part of their differences."""
    looks: list = []
    monkeypatch.setattr(bd, "with_runner", _simulated(looks))
    monkeypatch.setitem(PAIRS, "sim", (pair,))
    monkeypatch.setitem(bd.BOT, "sim", "coin")
    monkeypatch.setattr(bd, "make_rule", lambda game: None)
    results = bd.run("sim", repeats=runs, seed=100, cap=UNITS, batch=UNITS)
    assert len(results[0].decisions) == runs
    z = np.array([x.mean / (x.sd / np.sqrt(x.n)) for x in looks])
    return float(z.var(ddof=1))


def test_a_reseeded_null_pairs_runs_are_independent(monkeypatch):
    pair = Pair("null", (("seed", "1"),), (("seed", "0"),), "keep", "sim", True, reseeded=("seed",))
    assert 0.75 < _spread_of_run_means(monkeypatch, pair, 400) < 1.25  # 1 within 3.5 standard errors


def test_fixed_bot_seeds_would_fail_the_same_check(monkeypatch):
    """The check can fail: with the bots' seeds fixed, half of each hand's variance is shared by every run."""
    pair = Pair("null", (("seed", "1"),), (("seed", "0"),), "keep", "sim", True)
    assert _spread_of_run_means(monkeypatch, pair, 400) < 0.65  # 0.5 expected


@pytest.mark.parametrize("name", ["null", "worse", "better"])
def test_holdem_trainings_pairs_get_fresh_bot_seeds_every_run(name):
    pair = next(p for p in PAIRS["holdem-training"] if p.name == name)
    seen = set()
    for run_seed in range(1000, 1010):
        challenger, baseline = pair.configs(run_seed)
        assert dict(challenger)["seed"] != dict(baseline)["seed"]
        seen |= {dict(challenger)["seed"], dict(baseline)["seed"]}
        # the rest of each config as stated
        assert {k: v for k, v in challenger if k != "seed"} == {k: v for k, v in pair.challenger if k != "seed"}
        assert {k: v for k, v in baseline if k != "seed"} == {k: v for k, v in pair.baseline if k != "seed"}
    assert len(seen) == 20  # no bot seed used twice across the runs
    splendor = PAIRS["splendor"][0]
    assert splendor.configs(1000) == (splendor.challenger, splendor.baseline)  # no bot seed to renew: as stated


def test_every_games_pairs_are_two_different_configs_of_its_bot():
    from bench.decisions import BOT
    from flows import games
    from flows.match import MatchPlan

    assert set(PAIRS) == set(games.installed())  # a pair with a known difference in each installed game
    for game, pairs in PAIRS.items():
        for pair in pairs:
            challenger, baseline = pair.configs(1000)
            resolved = [MatchPlan(game=game, bot=BOT[game], overrides=c, seed=1, units=1).config()
                        for c in (challenger, baseline)]
            assert resolved[0] != resolved[1], (game, pair.name)


def test_a_runs_confirmation_looks_are_read_from_its_hand_log(toy, tmp_path):
    """bench.decisions.confirm_looks: what the runs log records per look, as the decided sweep logged it."""
    from bench.decisions import confirm_looks
    from flows.decide import Rule, decided_sweep_flow
    from flows.sweep import SweepSpec, parse_grid

    db = str(tmp_path / "h.duckdb")
    spec = SweepSpec(game="toy", bot="coin", grid=parse_grid(["edge=0.56"]), units=2000, seed=3, chunk_size=100,
                     baseline=())
    got = decided_sweep_flow(spec, Rule(d1=0.1, first_look=200), db=db, track=False)
    looks = confirm_looks(db, got.sweep_id)
    assert [(x["units"], x["llr"]) for x in looks] == [(u, pytest.approx(llr)) for u, llr in got.llr_path]
    assert looks[-1]["units"] == got.confirmed["units"]
    assert looks[-1]["mean"] == pytest.approx(got.confirmed["mean"]) and looks[-1]["sd"] > 0
