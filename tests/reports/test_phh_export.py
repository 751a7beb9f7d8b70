"""Hands of the hand log exported as PHH files that PokerKit loads as they are and replays to
the stacks the judge recorded (both hold'em contests)."""

import warnings

import pytest

from flows.match import MatchPlan, run_match
from flows.phh_export import NotExportable, export_match
from flows.store import HandLog, read_only

pokerkit = pytest.importorskip("pokerkit")


def _replay(path):
    """Every hand of the file: (final stacks PokerKit reached, stacks the file says, players)."""
    with open(path, "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Alice's fold facing no bet is legal only with a warning
        histories = list(pokerkit.HandHistory.load_all(f))
        out = []
        for history in histories:
            *_, final = iter(history)
            out.append((list(final.stacks), list(history.finishing_stacks), history))
    return out


def _export(match_id, tmp_path):
    con = read_only()
    try:
        return export_match(con, match_id, tmp_path / "phh")
    finally:
        con.close()


@pytest.mark.slow  # a match through pokerkit
def test_holdem_training_match_round_trips_through_pokerkit(tmp_path):
    plan = MatchPlan(game="holdem-training", bot="exploit", seed=11, units=300, chunk_size=150)
    with HandLog() as store:
        match = run_match(plan, store)
    exported = _export(match.match_id, tmp_path)
    assert exported.hands == 300 and len(exported.files) == 1
    replayed = _replay(exported.files[0])
    assert len(replayed) == 300
    con = read_only()
    profits = [r[0] for r in con.execute("SELECT profit FROM ht_hand_rows WHERE match_id = ? ORDER BY hand",
                                         [match.match_id]).fetchall()]
    con.close()
    for (final, finishing, history), profit in zip(replayed, profits, strict=True):
        assert final == finishing, history.actions
        assert final[0] == 100 + profit  # Alice's stack is the contest's 100 + W
    kinds = {a.split()[1] for _, _, h in replayed for a in h.actions if a.startswith("p1")}
    assert {"cbr", "cc"} <= kinds  # raises and checks both exercised


def test_codingame_games_round_trip_through_pokerkit(tmp_path):
    plan = MatchPlan(game="cg-holdem", bot="aggressive", overrides=(("samples", "40"),),
                     options=(("players", "3"), ("opponents", "montecarlo/pushfold")), seed=4, units=3, chunk_size=3)
    with HandLog() as store:
        match = run_match(plan, store)
    exported = _export(match.match_id, tmp_path)
    assert len(exported.files) == 3
    from engine.cg_holdem.phh import pokerkit_can_replay
    from flows.games.cg_holdem_log import cg_games

    con = read_only()
    records = [r for _, (_, hands) in sorted(cg_games(con, match.match_id).items()) for r in hands if not r.cancelled]
    con.close()
    replayed = [hand for path in exported.files for hand in _replay(path)]
    assert len(replayed) == exported.hands == len(records) > 20
    checked = 0
    for (final, finishing, history), record in zip(replayed, records, strict=True):
        if pokerkit_can_replay(record):
            assert final == finishing, history.actions
            checked += 1
    assert checked >= 0.9 * len(records)


def test_an_unknown_or_other_game_match_is_refused_in_one_line(tmp_path):
    with pytest.raises(NotExportable, match="no match 'nope'"):
        _export("nope", tmp_path)


def test_cg_holdem_phh_command_writes_one_file_pokerkit_loads_whole(tmp_path):
    from typer.testing import CliRunner

    from cardlab.cli import app

    path = tmp_path / "game.phhs"
    done = CliRunner().invoke(app, ["cg-holdem", "phh", "--out", str(path), "--bot", "aggressive", "--bot",
                                    "montecarlo", "--bot", "pushfold", "--seed", "5"])
    assert done.exit_code == 0, done.output
    written = int(done.output.split()[1])
    with open(path, "rb") as f:
        histories = list(pokerkit.HandHistory.load_all(f))  # concatenated hands raised TOMLDecodeError here
    assert 0 < len(histories) <= written and histories[0].hand == 1
