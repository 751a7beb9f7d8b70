"""The in-process tester: TopCoder's call order, hidden server moves, limits (replay: tests/test_conformance.py)."""

import numpy as np
import pytest

from bots.twocarddraw import BOTS
from engine.twocarddraw import best_response as B
from engine.twocarddraw import judge as J
from engine.twocarddraw import rules as R
from engine.twocarddraw.protocol import write_strategy
from flows.opponents.twocarddraw_fit import server_moves
from tests.twocarddraw.conftest import RandomBot


def test_oracle_profit_matches_the_best_response_value(generated_12, tmp_path):
    value = B.best_response(generated_12).value
    write_strategy(generated_12, tmp_path / "s.txt")
    oracle = BOTS["oracle"].make(BOTS["oracle"].config_from({"strategy": str(tmp_path / "s.txt")}))
    result = J.play_match(oracle, generated_12, seed=3, hands=20_000)
    se = result.profits.std() / np.sqrt(len(result.profits))
    assert result.status == J.OK and abs(result.profits.mean() - value) < 4 * se, (result.profits.mean(), value, se)


def test_bot_infers_hidden_server_moves_and_folds(generated_12):
    bot = RandomBot(seed=4)
    result = J.play_match(bot, generated_12, seed=5, hands=3_000)
    cols = result.record.columns
    assert set(cols["ended"]) == {"player_fold", "server_fold", "showdown"}
    # winnings passed to new_hand are the running profit: the only sign of a server fold
    assert bot.winnings == list(np.concatenate([[0], np.cumsum(cols["profit"])[:-1]]))
    for n, obs in enumerate(bot.observations):  # one per finished hand (the last is never closed)
        assert obs.moves1 == server_moves(cols["round1"][n])
        assert obs.moves2 == server_moves(cols["round2"][n])
        assert obs.server_drew == cols["s_drew"][n] and obs.player_drew == cols["p_drew"][n]
        shown = R.hand_index(cols["s_final1"][n], cols["s_final2"][n]) if cols["ended"][n] == "showdown" else -1
        assert obs.shown == shown
        if obs.history >= 0:
            assert R.HISTORIES[obs.history] == (cols["bets1"][n], cols["first"][n])


def test_bad_return_scores_zero_and_keeps_played_hands(generated_12):
    result = J.play_match(RandomBot(fail_at=51), generated_12, seed=1, hands=100)
    assert result.status == J.INVALID and "new_hand returned 7" in result.record.message
    assert len(result.profits) == 50 and result.score == 0.0


def test_cpu_limit_ends_the_test(generated_12):
    class Slow(RandomBot):
        def draw(self, card1, card2, bets):
            sum(range(200_000))
            return super().draw(card1, card2, bets)

    result = J.play_match(Slow(), generated_12, seed=1, hands=2_000, cpu_limit=0.05)
    assert result.status == J.TIME_LIMIT and result.score == 0.0 and result.cpu_seconds > 0.05


def test_score_is_profit_plus_hands_floored_at_zero(generated_12):
    result = J.play_match(BOTS["sample"].make(), generated_12, seed=2, hands=1_000)
    assert result.score == max(0, result.profit + 1_000)
    assert result.chunk_log().count == 1_000


@pytest.mark.parametrize("hand", [(4, 4), (0, 1)])
def test_sample_bot_bets_only_with_two_fours(hand):
    bot = BOTS["sample"].make()
    bot.init(1, 2)
    assert bot.new_hand(*hand, 0) == (1 if hand == (4, 4) else 0)


def test_prior_bank_is_built_before_the_clock_starts(generated_12, tmp_path, monkeypatch):
    from bots.twocarddraw.learner import LearnerBot

    monkeypatch.setenv("CARDLAB_HOME", str(tmp_path))  # no cached bank: it must be built
    cache = tmp_path / ".cache" / "twocarddraw"

    class Probe(LearnerBot):
        def on_init(self):
            self.bank_at_init = sorted(p.name for p in cache.glob("bank_*.npz"))
            super().on_init()

    bot = Probe(BOTS["learner"].config_from({"prior_count": "2"}))
    result = J.play_bot(bot, generated_12, seed=1, count=200)
    assert result.status == J.OK and bot.bank_at_init == ["bank_1_2_n2_s1000000.npz"]


def test_an_ending_signal_keeps_the_hands_played_with_every_column_whole(generated_12):
    """A judged test stopped by Ctrl-C, SIGTERM or SIGHUP (raised as KeyboardInterrupt) keeps the hands
    finished before it; a chunk of a match (the default) lets the interrupt through."""
    class Stopped(RandomBot):
        def new_hand(self, card1, card2, winnings):
            if len(self.winnings) == 30:
                raise KeyboardInterrupt
            return super().new_hand(card1, card2, winnings)

    result = J.play_match(Stopped(), generated_12, seed=1, hands=100, keep_on_interrupt=True)
    assert result.status == J.INTERRUPTED and len(result.profits) == 30
    assert {len(values) for values in result.record.columns.values()} == {30}
    with pytest.raises(KeyboardInterrupt):
        J.play_match(Stopped(), generated_12, seed=1, hands=100)


def test_a_half_added_row_is_dropped_when_the_record_keeps_its_played_hands():
    record = J.MatchRecord()
    row = {name: 1 for name in J.COLUMNS}
    record.add(**row)
    record.columns[J.COLUMNS[0]].append(2)  # a signal landed after the first column of the next row
    record.keep(1)
    assert {len(values) for values in record.columns.values()} == {1}
