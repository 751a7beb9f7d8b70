"""bench.cg_holdem.decision_cpu times a bot entry with its settings, and refuses a bad one in one line."""

import pytest

from bench.cg_holdem import decision_cpu


def test_an_entry_with_settings_is_timed():
    times = decision_cpu.decision_times("ranged:samples=8", games=1, seed=4, tables=(("station",),))
    assert len(times) > 5 and all(t >= 0 for t in times)


def test_an_unknown_setting_is_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        decision_cpu.main(["--bot", "ranged:nope=1", "--games", "1"])
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert stop.value.code == 2 and "unknown key 'nope'" in error and "samples" in error
