"""A TwoCardDraw submission is compiled before its test starts, so the bots' prepare_offline compiles the kernels play
calls: play then compiles nothing new and a cold numba cache costs the bot's 20 s nothing.

Each check runs in a fresh interpreter: in the test worker, earlier tests may have compiled the kernels already,
and the check would then pass whatever prepare_offline did. A fresh process starts with no signature loaded (numba
adds one to a kernel, from its disk cache or by compiling, at the first call of each type), and each check first
asserts that."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _signatures() -> dict[str, int]:
    from bots.twocarddraw.mixture import bucket_log_likelihood
    from engine.twocarddraw import _cfr_kernels as CFR
    from engine.twocarddraw import _kernels as K

    kernels = {"evaluate": K.evaluate, "dbr_plus": CFR.dbr_plus, "bucket_log_likelihood": bucket_log_likelihood,
               "traverse": CFR.traverse}
    return {name: len(kernel.signatures) for name, kernel in kernels.items()}


def check_mixture_family() -> None:
    """Three bots between them call all four kernels: the mixture's own play (best response to its mean, a re-weigh
    every hand), an always-open data-biased response (CFR+ from the first hand on) and dbr_lean's share, measured at
    every hand (the exact values of the response and the safe strategy against the mean)."""
    from bots.twocarddraw import BOTS
    from tests.twocarddraw.test_dbr_open import BETS, SHARP, SMALL

    bots = [BOTS["dbr"].make(BOTS["dbr"].config_from({**SMALL, **extra}))
            for extra in ({}, {"dbr_top": "0"}, {"dbr_every": "1"})]
    assert not any(_signatures().values()), _signatures()
    for bot in bots:
        bot.prepare_offline(BETS.bet1, BETS.bet2)
    prepared = _signatures()
    assert all(prepared.values()), prepared
    for bot in bots:
        bot.init(BETS.bet1, BETS.bet2)
        for _ in range(2):
            bot.on_hand_over(SHARP)
    assert bots[1].solver.iterations > 0 and bots[0].hands_seen == 2  # the response solved; the mixture re-weighed
    assert bots[2].lean > 0  # the share measured
    assert _signatures() == prepared, (prepared, _signatures())


def check_bank_bots() -> None:
    """`learner` and `prior_br` play a best response (the kernel `evaluate`) from their first hand on."""
    from bots.twocarddraw import BOTS
    from tests.twocarddraw.test_dbr_open import BETS, SHARP

    bots = [BOTS[name].make(BOTS[name].config_from({"prior_count": "2"})) for name in ("learner", "prior_br")]
    assert _signatures()["evaluate"] == 0
    for bot in bots:
        bot.prepare_offline(BETS.bet1, BETS.bet2)
    prepared = _signatures()["evaluate"]
    assert prepared
    for bot in bots:
        bot.init(BETS.bet1, BETS.bet2)
    bots[0].on_hand_over(SHARP)
    assert bots[0].hands_seen == 1 and _signatures()["evaluate"] == prepared


def _in_fresh_process(check: str) -> None:
    code = f"from tests.twocarddraw.test_compile_off_clock import {check}; {check}()"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


def test_play_compiles_no_kernel_signature_prepare_offline_did_not():
    _in_fresh_process("check_mixture_family")


def test_the_bank_bots_best_response_is_compiled_before_play():
    _in_fresh_process("check_bank_bots")
