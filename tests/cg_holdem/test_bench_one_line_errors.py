"""The CodinGame bench tools stop on a user's mistake (an unknown bot, style, setting or revision) with one line
naming it, before any game, as the cardlab CLI does."""

import pytest

from bench.cg_holdem import call_audit, prior_paired, prior_tables, ranged_endgame, ranged_leaks, ranged_paired

CASES = [
    (ranged_paired.main, ["--games", "2", "--against", "aggressive", "ranged", "ranged:no_such_knob=1"],
     "unknown key 'no_such_knob'"),
    (ranged_paired.main, ["--games", "2", "--against", "style:nosuch", "ranged"], "style 'nosuch'"),
    (ranged_paired.main, ["--games", "2", "--against", "aggressive", "ranged@no-such-rev"], "revision 'no-such-rev'"),
    (prior_tables.main, ["--rev", "no-such-rev", "--against", "aggressive", "base"], "revision 'no-such-rev'"),
    (prior_tables.main, ["--rev", "HEAD", "--against", "aggressive/nobot", "base"], "'nobot'"),
    (prior_paired.main, ["--rev", "HEAD", "--against", "aggressive", "base", "X=/no/such/prior.json"],
     "/no/such/prior.json"),
    (ranged_leaks.main, ["nobot", "--against", "aggressive"], "'nobot'"),
    (ranged_endgame.main, ["ranged", "--against", "style:zz"], "style 'zz'"),
    (call_audit.main, ["ranged@no-such-rev", "--against", "aggressive"], "revision 'no-such-rev'"),
    (call_audit.main, ["ranged@HEAD", "--against", "style:zz"], "style 'zz'"),
]


@pytest.mark.parametrize(("main", "argv", "named"), CASES)
def test_a_bad_name_stops_the_run_with_one_line_naming_it(main, argv, named, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    out, err = capsys.readouterr()
    assert stop.value.code == 2
    assert out == ""  # no game was played, no table header printed
    assert len(err.strip().splitlines()) == 1 and named in err and "error:" in err
