"""Bob's fitted call rule (flows/opponents/holdem_training.py) recovers the rule the judge plays: a threshold
at the pot odds x / (P + 2x) on an equity estimated over 100 completions.

The match: rate_equity with threshold 0 raises a fifth of its stack every round, so Bob answers raises on
all four streets at pot odds from about 0.02 to 0.3: both numbers of the model are identified. Tolerance:
four of the fit's own standard errors (observed information); the fit must also be precise enough that a
threshold 0.02 off, or a noise 1.5x off, would fail (delta_se < 0.005, log_rollouts_se < 0.15), and a
rule moved on purpose is told apart (the last test)."""

import math

import numpy as np
import pytest

from bots.holdem_training import BOTS
from bots.holdem_training.bob_model import BOB_MODEL, call_probability, measured_equity
from engine.core.errors import BadValue, UnknownName
from engine.holdem_training.rules import BOARD_SIZE_BY_ROUND, BOB_ROLLOUTS
from flows.games.holdem_training import SPEC
from flows.match import MatchPlan, run_match
from flows.opponents import holdem_training as model
from flows.store import HandLog, read_only

HANDS = 3000
CONFIG = ("threshold=0", "raise_fraction=0.2")


@pytest.fixture(scope="module")
def log():
    spec = BOTS["rate_equity"]
    return SPEC.play_chunk(spec, spec.config_from(list(CONFIG)), seed=3, first=0, count=HANDS)


def raises_of(log, match_id: str = "m") -> dict[str, np.ndarray]:
    """The judge's own events joined as read_raises joins the hand log's views."""
    hands, actions = log.events["hands"], log.events["actions"]
    row = {int(h): i for i, h in enumerate(hands["hand"])}
    keep = [i for i, (a, r) in enumerate(zip(actions["action"], actions["response"], strict=True))
            if a == "RAISE" and r in ("CALL", "FOLD")]
    at = [row[int(actions["hand"][i])] for i in keep]
    out = {k: np.asarray(actions[k])[keep] for k in ("hand", "round", "amount", "pot_before")}
    out["called"] = np.array([actions["response"][i] == "CALL" for i in keep])
    out |= {k: np.asarray(hands[k])[at] for k in ("bob_c0", "bob_c1", *(f"board_c{i}" for i in range(5)))}
    out["match_id"] = np.array([match_id] * len(keep), dtype=object)
    return out


def test_the_fitted_rule_is_bobs(log):
    fitted = model.fit_raises(raises_of(log), holdout=0.25)
    p = fitted.params
    assert fitted.decisions > 3000 and fitted.heldout_decisions > 1000
    assert p["delta_se"] < 0.005 and p["log_rollouts_se"] < 0.15
    assert abs(p["delta"]) < 4 * p["delta_se"]
    assert abs(math.log(p["rollouts"] / BOB_ROLLOUTS)) < 4 * p["log_rollouts_se"]
    assert fitted.heldout_logloss < fitted.baseline_logloss < fitted.uniform_logloss
    assert abs(fitted.heldout_logloss - p["rule_logloss"]) < 0.01  # predicts as well as the true rule
    overall = fitted.calibration[0]
    assert overall.situation == "all" and overall.decisions == fitted.heldout_decisions
    n, seen = overall.decisions, overall.observed["CALL"]
    assert abs(overall.predicted["CALL"] - seen) < 4 * math.sqrt(seen * (1 - seen) / n)


def test_a_rule_that_is_not_bobs_is_told_apart(log):
    """The same answers read as if every pot had been twice as big: the pot odds move, and so must delta."""
    raises = raises_of(log)
    raises["pot_before"] = raises["pot_before"] * 2
    p = model.fit_raises(raises, holdout=0.25).params
    assert abs(p["delta"]) > 4 * p["delta_se"]


def test_the_fit_reads_the_hand_log(log, tmp_path):
    """The same match logged as `cardlab match` logs it (hand i is dealt from (seed, i) whatever the chunking)."""
    db = tmp_path / "log.duckdb"
    plan = MatchPlan(game=SPEC.name, bot="rate_equity", overrides=tuple(tuple(c.split("=")) for c in CONFIG), seed=3,
                     units=HANDS, chunk_size=HANDS // 2)
    with HandLog(db) as store:
        match_id = run_match(plan, store).match_id
    con = read_only(db)
    fitted = model.fit(con, "Bob", holdout=0.25)
    direct = model.fit_raises(raises_of(log, match_id), holdout=0.25)
    assert fitted.sources == (match_id,)
    assert fitted.decisions + fitted.heldout_decisions == len(raises_of(log)["hand"])
    assert fitted.params == direct.params
    with pytest.raises(UnknownName, match="accepted: bob"):
        model.fit(con, "alice")
    with pytest.raises(BadValue, match="holdout"):
        model.fit(con, "bob", holdout=1.0)


def test_the_seat_calls_with_the_fitted_chance_and_is_deterministic(log):
    params = model.fit_raises(raises_of(log), holdout=0.25).params
    spec, config = model.seat(params)
    assert spec is BOB_MODEL and config.delta == params["delta"] and config.rollouts == params["rollouts"]
    bob = spec.make(config)
    raises = raises_of(log)
    agree = 0
    for i in range(len(raises["hand"])):
        board = [int(raises[f"board_c{k}"][i]) for k in range(BOARD_SIZE_BY_ROUND[int(raises["round"][i]) - 1])]
        hole = (int(raises["bob_c0"][i]), int(raises["bob_c1"][i]))
        pot, amount = int(raises["pot_before"][i]), int(raises["amount"][i])
        calls = bob.calls(i, hole, board, pot, amount)
        assert calls == bob.calls(i, hole, board, pot, amount)
        agree += calls == raises["called"][i]
    q, v = measured_equity(1, hole, board, len(board))
    assert bob.call_chance(1 ^ config.seed, hole, board, pot, amount) == pytest.approx(
        float(call_probability(q, v, pot, amount, config.delta, config.rollouts)))
    base = max(raises["called"].mean(), 1 - raises["called"].mean())
    assert agree / len(raises["hand"]) > base  # better than always giving the commoner answer
