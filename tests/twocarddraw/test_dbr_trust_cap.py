"""A cap on the data-biased response's trust (`dbr_wmax` < 1; issue 31, heldout9 7).

Past the statement's step range the mixture's posterior mean is wrong on the very rows the data count most
(the EM's counts are guessed under it), so full trust there best-responds to a wrong server. The twin here: a
model that is another server of the same sharpness. Exact, one small bet pair."""

import numpy as np
import pytest

from bots.twocarddraw import BOTS
from bots.twocarddraw.dbr import evidence_weight
from engine.twocarddraw import best_response as B
from engine.twocarddraw import equilibrium as E
from engine.twocarddraw import rules as R

BETS = R.BetSizes(1, 2)


def test_a_capped_trust_loses_less_when_the_model_is_wrong_and_pays_for_it_when_right():
    truth = B.generate(BETS, steps=10_000, seed=11).strategy.probs
    model = B.generate(BETS, steps=10_000, seed=9).strategy.probs  # a wrong model, as sharp as the truth
    full, capped = (E.BiasedSolver(BETS).run_biased(model, np.full(R.N_ROWS, w), 100).response() for w in (1.0, 0.95))
    # measured: 0.5006 -> 0.5235 per hand against the truth, 0.6808 -> 0.6788 against the model itself
    assert E.value(BETS, capped, truth) > E.value(BETS, full, truth) + 0.01
    assert E.value(BETS, capped, model) < E.value(BETS, full, model)
    # and a free server takes much less from it (measured -1.430 -> -0.957)
    assert E.server_best_response(BETS, capped) > E.server_best_response(BETS, full) + 0.2


def test_the_cap_bounds_every_row_weight_and_is_off_by_default():
    w = evidence_weight(np.array([0.0, 1.0, 1e3, 1e12]), 0.95, 2.0, 0.5)
    assert w.max() <= 0.95 and w[0] == pytest.approx(0.5) and w[-1] == pytest.approx(0.95)
    assert BOTS["dbr"].config_from({}).dbr_wmax == 1.0
    assert BOTS["dbr"].config_from({"dbr_wmax": "0.95"}).dbr_wmax == 0.95
