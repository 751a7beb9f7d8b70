"""Which ending signals a command takes over: SIGINT and SIGTERM always (a non-interactive shell
starts background jobs with SIGINT ignored, and `kill -INT` must still stop them cleanly); SIGHUP
not when it came in ignored (nohup)."""

import signal

from engine.core import ending


def test_sigint_is_taken_even_when_inherited_ignored_but_nohups_sighup_stays_ignored():
    saved = {s: signal.getsignal(s) for s in ending.ENDING}
    try:
        for s in ending.ENDING:
            signal.signal(s, signal.SIG_IGN)
        ending.install()
        taken = signal.getsignal(signal.SIGINT)
        assert callable(taken) and taken is signal.getsignal(signal.SIGTERM)  # the one handler of both
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)
