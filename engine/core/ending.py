"""The ending signals (SIGINT, SIGTERM, SIGHUP) end a command the one way Ctrl-C always did.

Each raises `Ended`, a KeyboardInterrupt, in the main thread, so every `except KeyboardInterrupt`
that keeps what was played (a judge's hands, a match's or sweep's written chunks) serves all three;
unhandled, SIGTERM would kill the process outright and SIGHUP too, losing them. Only the first
signal raises: later ones are noted and ignored, so the saving it started is not cut short
(SIGKILL still ends the process at once). The command then exits 128 + the signal's number."""

import contextlib
import os
import signal
import threading

ENDING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_received: list[int] = []
_held: list[int] = []  # depth of `held()` blocks in the main thread
_deferred: list[int] = []  # the first signal, when it arrived inside one


class Ended(KeyboardInterrupt):
    """An ending signal arrived; `signum` says which."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _on_signal(signum, frame) -> None:
    _received.append(signum)
    if len(_received) == 1:
        if _held:
            _deferred.append(signum)
            return
        raise Ended(signum)
    # os.write: print() could be the very call this handler interrupted
    os.write(2, f"\nnote: {signal.Signals(signum).name} again: still saving what was played "
                f"(SIGKILL stops at once and may lose it)\n".encode())


def install() -> None:
    """Route the ending signals through `Ended` (main thread only, as Python's signals are).
    SIGHUP ignored by whoever started us (nohup) stays ignored. SIGINT is taken even when it came
    in ignored: a non-interactive shell starts background jobs so (CI, scripts, `cmd &`), and an
    explicit `kill -INT` must still stop the command cleanly rather than be lost."""
    for signum in ENDING:
        if signum == signal.SIGHUP and signal.getsignal(signum) is signal.SIG_IGN:
            continue
        signal.signal(signum, _on_signal)


@contextlib.contextmanager
def held():
    """An ending signal arriving inside the block ends the command when the block ends, not inside it:
    for a write that must land whole. Raised inside a database call, Ended would come back as the
    database's own error (DuckDB reading an Arrow stream reports "Ended: SIGHUP" as invalid input) and
    the write would be cut short. Only the main thread takes signals, so other threads pass through."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _held.append(1)
    try:
        yield
    finally:
        _held.pop()
        if not _held and _deferred:
            raise Ended(_deferred.pop())


def received() -> int | None:
    """The first ending signal this process got, or None."""
    return _received[0] if _received else None


def exit_code() -> int | None:
    """128 + the first ending signal (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP), or None."""
    return 128 + _received[0] if _received else None


def describe(exc: BaseException | None = None) -> str:
    """'SIGTERM', 'Ctrl-C (SIGINT)'...: what stopped the command."""
    # Prefect's TerminationSignal, raised for SIGTERM during a flow run, names it `signal`
    signum = getattr(exc, "signum", None) or getattr(exc, "signal", None) or received()
    if signum is None or signum == signal.SIGINT:
        return "Ctrl-C (SIGINT)"
    return signal.Signals(signum).name
