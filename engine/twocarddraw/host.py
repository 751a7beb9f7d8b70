"""Hosts a user's TwoCardDraw bot class in its own process, for the judge (stdlib only).

Usage: python -I host.py FILE.py ClassName CPU_LIMIT. The class is instantiated once; then
each line 'method arg ...' (integers) calls that method and is answered on one line:

    ok SECONDS int N | ok SECONDS bool B | ok SECONDS other REPR   the return value
    raise SECONDS TypeName: message                                   the call raised
    timeup SECONDS                                                    the CPU limit passed in it

SECONDS is the thread CPU time spent inside the call: what the in-process judge charges to the
bot's clock. A call still running when the calls' CPU time reaches the limit is stopped by a
CPU timer (then SECONDS is the process's CPU time in the call). Start-up answers 'ready' or
'raise 0 ...'. The bot's own prints go to stderr, so they cannot be taken for answers.
"""

import importlib.util
import os
import signal
import sys
import time

METHODS = ("init", "new_hand", "round1", "draw", "round2", "showdown")


def one_line(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")


def load(path: str, name: str):
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)  # the bot may import its own helper modules
    spec = importlib.util.spec_from_file_location("user_bot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)()


def encode(value) -> str:
    if isinstance(value, bool):
        return f"bool {value}"
    if isinstance(value, int):
        return f"int {value}"
    try:  # numpy integers and the like: what the judge accepts as an int
        import numbers

        if isinstance(value, numbers.Integral):
            return f"int {int(value)}"
    except Exception:
        pass
    return "other " + one_line(repr(value))


class TimeUp(BaseException):  # not an Exception: a bot's `except Exception` does not swallow it
    pass


class Budget:
    """The running call's CPU budget: the timer is only a wake-up (it can fire a tick early),
    the call is stopped once its measured CPU time has really reached the budget."""

    seconds = 0.0
    start = 0.0

    @classmethod
    def arm(cls, seconds: float) -> None:
        cls.seconds, cls.start = seconds, time.process_time()
        signal.setitimer(signal.ITIMER_PROF, max(0.001, seconds))

    @classmethod
    def check(cls, signum, frame) -> None:
        left = cls.seconds - (time.process_time() - cls.start)
        if left > 0:
            signal.setitimer(signal.ITIMER_PROF, max(0.001, left))
            return
        raise TimeUp


def main() -> None:
    limit = float(sys.argv[3])
    used = 0.0
    signal.signal(signal.SIGPROF, Budget.check)
    answers = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # the bot's prints go to stderr
    sys.stdout = sys.stderr
    try:
        bot = load(sys.argv[1], sys.argv[2])
    except BaseException as exc:  # noqa: BLE001 - the judge reports whatever went wrong
        answers.write(f"raise 0 {type(exc).__name__}: {one_line(str(exc))}\n")
        return
    answers.write("ready\n")
    for line in sys.stdin:
        method, *args = line.split()
        if method not in METHODS:
            answers.write(f"raise 0 ProtocolError: unknown method {one_line(method)}\n")
            continue
        call = getattr(bot, method)
        values = [int(a) for a in args]
        Budget.arm(limit - used + 0.01)
        start = time.thread_time()  # after arming: the timer's cost is not the bot's
        failure = None
        try:  # the timer is disarmed inside the try: a TimeUp can only come from the budget
            try:
                result = call(*values)
            except Exception as exc:  # the contest scores a crashing submission 0
                failure = f"{type(exc).__name__}: {one_line(str(exc))}"
            seconds = time.thread_time() - start
            signal.setitimer(signal.ITIMER_PROF, 0)
        except TimeUp:
            answers.write(f"timeup {time.process_time() - Budget.start!r}\n")
            continue
        used += seconds
        answers.write(f"raise {seconds!r} {failure}\n" if failure else f"ok {seconds!r} {encode(result)}\n")

if __name__ == "__main__":
    main()
