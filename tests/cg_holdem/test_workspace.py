"""Workspace wiring: duplicate-format units, the raw tables and views in DuckDB,
and hands exported as PHH that PokerKit parses and replays to the same final stacks."""

import warnings

import pytest

from bots.cg_holdem import BOTS
from engine.cg_holdem.judge import BotSeat, play_game
from engine.cg_holdem.phh import hand_history
from flows import events
from flows.games.cg_holdem import SPEC, MatchOptions

pokerkit = pytest.importorskip("pokerkit")


def chunk(first, count, players=3):
    spec = SPEC.spec("aggressive")
    options = MatchOptions(players=players, opponents="montecarlo/pushfold")
    return SPEC.play_chunk(spec, spec.config_from(["samples=60"]), seed=5, first=first, count=count,
                              options=options)


def test_units_rotate_the_lineup_over_shared_deals():
    whole = chunk(0, 6)
    games = whole.events["games"]
    assert games["deal"] == [0, 0, 0, 1, 1, 1] and games["rotation"] == [0, 1, 2, 0, 1, 2]
    assert len(set(games["game_seed"][:3])) == 1  # one deal, three seatings
    assert [s for s, u in zip(whole.events["seats"]["bot"], whole.events["seats"]["unit"], strict=True)
            if u == 1] == ["pushfold", "aggressive", "montecarlo"]  # rotated by one seat


def test_tables_load_into_the_hand_log_and_views_answer(tmp_path):
    from flows.store import HandLog

    log = chunk(0, 6)
    with HandLog(tmp_path / "log.duckdb") as store:
        store.ensure_game(SPEC)
        store.begin_match(match_id="m1", game=SPEC.name, bot="aggressive", config={}, seed=5, units=6,
                          source="test")
        store.write_chunk("m1", 0, events.encode(log, SPEC))
        positions = store.query("SELECT bot, games, mean_position FROM mart_cgh_positions ORDER BY bot")
        style = store.query("SELECT bot, hands, vpip FROM mart_cgh_style ORDER BY bot")
        hands = store.query("SELECT count(*) AS n FROM cgh_hands")["n"][0]
    assert positions["games"].to_list() == [6, 6, 6]
    assert sum(positions["mean_position"].to_list()) == pytest.approx(6.0, abs=0.5)  # 1+2+3 unless ties
    assert hands == len(log.events["hands"]["hand"]) and style.height == 3


def test_phh_histories_parse_and_replay_in_pokerkit():
    replayed = 0
    for players, seed in ((2, 3), (3, 4), (4, 5)):
        names = ["aggressive", "montecarlo", "pushfold", "station"][:players]
        result = play_game([BotSeat(BOTS[n].make()) for n in names], seed=seed)
        for hand in result.hands[:40]:
            if hand.cancelled:
                continue
            history = pokerkit.HandHistory.loads(hand_history(hand, names=names))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                *_, final = iter(history)
            seats = [int(s) - 1 for s in history.seats]
            assert list(final.stacks) == [hand.end_stacks[s] for s in seats], hand_history(hand)
            replayed += 1
    assert replayed > 60


def test_tournament_standings_and_openskill_ratings():
    from flows.games.cg_holdem import run_tournament

    result = run_tournament(["aggressive:samples=60", "station", "pushfold"], players=2, deals=2, seed=3)
    assert {s.games for s in result.standings} == {8}  # 2 line-ups each, 2 deals x 2 seatings
    assert len(result.logs) == 3
    station = next(s for s in result.standings if s.bot == "station")
    best = result.standings[0]
    assert best.mean_position <= station.mean_position
    assert best.mu >= station.mu  # the rating agrees with the finishing order
    assert all(s.ci95 >= 0 and 0 <= s.win_rate <= 1 for s in result.standings)
