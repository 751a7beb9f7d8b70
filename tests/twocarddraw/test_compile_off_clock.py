"""A TwoCardDraw submission is compiled before its test starts, so the bots' prepare_offline compiles the kernels play
calls: play then compiles nothing new and a cold numba cache costs the bot's 20 s nothing."""

from bots.twocarddraw import BOTS
from bots.twocarddraw.mixture import bucket_log_likelihood
from engine.twocarddraw import _cfr_kernels as CFR
from engine.twocarddraw import _kernels as K
from tests.twocarddraw.test_dbr_open import BETS, SHARP, SMALL

KERNELS = {"evaluate": K.evaluate, "dbr_plus": CFR.dbr_plus, "bucket_log_likelihood": bucket_log_likelihood}


def _signatures() -> dict[str, int]:
    return {name: len(kernel.signatures) for name, kernel in KERNELS.items()}


def test_play_compiles_no_kernel_signature_prepare_offline_did_not():
    """Two bots between them call all three kernels: the mixture's own play (best response to its mean, a re-weigh
    every hand) and an always-open data-biased response (CFR+ from the first hand on)."""
    bots = [BOTS["dbr"].make(BOTS["dbr"].config_from({**SMALL, **extra})) for extra in ({}, {"dbr_top": "0"})]
    for bot in bots:
        bot.prepare_offline(BETS.bet1, BETS.bet2)
    prepared = _signatures()
    assert all(prepared.values()), prepared
    for bot in bots:
        bot.init(BETS.bet1, BETS.bet2)
        for _ in range(2):
            bot.on_hand_over(SHARP)
    assert bots[1].solver.iterations > 0 and bots[0].hands_seen == 2  # the response solved; the mixture re-weighed
    assert _signatures() == prepared


def test_the_bank_bots_best_response_is_compiled_before_play():
    """`learner` and `prior_br` play a best response (the kernel `evaluate`) from their first hand on."""
    bots = [BOTS[name].make(BOTS[name].config_from({"prior_count": "2"})) for name in ("learner", "prior_br")]
    for bot in bots:
        bot.prepare_offline(BETS.bet1, BETS.bet2)
    prepared = len(K.evaluate.signatures)
    assert prepared
    for bot in bots:
        bot.init(BETS.bet1, BETS.bet2)
    bots[0].on_hand_over(SHARP)
    assert bots[0].hands_seen == 1 and len(K.evaluate.signatures) == prepared
