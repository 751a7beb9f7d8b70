"""A TwoCardDraw submission is compiled before its test starts, so the mixture family's prepare_offline compiles the
kernels play calls: play then compiles nothing new and a cold numba cache costs the bot's 20 s nothing."""

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
