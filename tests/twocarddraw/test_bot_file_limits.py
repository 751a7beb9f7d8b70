"""--bot-file's limits held by the judge, not by the bot's process: the contest's 64 MB over the
bot's whole process tree, and CPU the judge measures itself (a bot that doctors the figures its
host reports gets a crash for an impossible one, and the judge's own measure otherwise)."""

from engine.twocarddraw import judge as J
from engine.twocarddraw import rules as R
from engine.twocarddraw.program import play_program
from tests.core.test_contestant import survivors
from tests.twocarddraw.test_bot_file import user_file


def test_memory_past_the_contest_limit_is_a_crash(generated_12, tmp_path):
    path = user_file(tmp_path, f"""
        class Hog(Bot):
            def init(self, bet1, bet2):
                self.block = bytearray({R.MEMORY_LIMIT_MB + 40} << 20)
                for i in range(0, len(self.block), 4096):
                    self.block[i] = 1
                return 0
        """)
    played = play_program(path, "Hog", generated_12, seed=4, count=300, wall_seconds=60)
    result, _ = played
    assert result.status == J.CRASH and "memory limit exceeded" in result.record.message
    assert played.limits.startswith("memory ")
    assert survivors(str(tmp_path)) == []


def test_a_plain_bot_fits_in_the_contest_memory(generated_12, tmp_path):
    result, _ = play_program(user_file(tmp_path), "Bot", generated_12, seed=4, count=300)
    assert result.status == J.OK and len(result.profits) == 300


def test_a_negative_cpu_figure_from_the_bot_is_refused(generated_12, tmp_path):
    """The bot rewinds the clock its host reads around each call: the host reports about -5000 s."""
    path = user_file(tmp_path, """
        class Rewinder(Bot):
            def __init__(self):
                super().__init__()
                import time
                real, calls = time.thread_time, [0]
                def doctored():
                    calls[0] += 1
                    return real() - (5000 if calls[0] % 2 == 0 else 0)
                time.thread_time = doctored
        """)
    result, _ = play_program(path, "Rewinder", generated_12, seed=4, count=300, wall_seconds=60)
    assert result.status == J.CRASH and "s of CPU for init: refused" in result.record.message
    assert result.cpu_seconds >= 0


def test_cpu_hidden_from_the_host_is_measured_by_the_judge(generated_12, tmp_path):
    """The bot makes its host report 0 s for every call while each burns 10 ms: the judge's own
    measure of the process stops it at the limit."""
    path = user_file(tmp_path, """
        import time as _time

        class Hider(Bot):
            def __init__(self):
                super().__init__()
                _time.thread_time = lambda: 0.0
            def new_hand(self, card1, card2, winnings):
                end = _time.process_time() + 0.01
                while _time.process_time() < end:
                    pass
                return super().new_hand(card1, card2, winnings)
        """)
    result, _ = play_program(path, "Hider", generated_12, seed=4, count=2_000, cpu_limit=0.5, wall_seconds=60)
    assert result.status == J.TIME_LIMIT and "bot CPU time" in result.record.message
    assert 0.5 < result.cpu_seconds < 3 and len(result.profits) < 2_000


def test_judge_keep_saves_the_bots_stderr(generated_12, tmp_path):
    import json

    from engine.twocarddraw.protocol import write_strategy
    from tests.twocarddraw.test_commands import cli, runner

    write_strategy(generated_12, tmp_path / "s.txt")
    args = ["judge", "--strategy", str(tmp_path / "s.txt"), "--hands", "50", "--json"]
    result = runner.invoke(cli, args + ["--bot-file", f"{user_file(tmp_path)}:Bot", "--keep", str(tmp_path / "kept")])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output.strip().splitlines()[-1])
    assert out["limits"].startswith("memory ") and "processes" in out["limits"]
    assert "debug output must not be taken" in (tmp_path / "kept" / "bot.stderr").read_text()
    for bad, said in ((["--keep-folder"], "--keep-folder needs --keep DIR"),
                      (["--keep", str(tmp_path / "k2")], "--keep: given without --bot-file")):
        refused = runner.invoke(cli, args + bad)
        assert refused.exit_code == 2 and said in refused.output
