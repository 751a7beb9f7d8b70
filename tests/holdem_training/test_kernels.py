"""Dealing and Monte Carlo kernels against their slow twins (same SplitMix64 draws, so the
results must be identical) and the sampled rates against exact enumeration by eval7."""

import itertools

import eval7
import numpy as np
import pytest

from engine.core import seeds
from engine.core.cards import card_name
from engine.holdem_training import _kernels
from tests.holdem_training import reference

DEAL, OPPONENT = int(seeds.Purpose.DEAL), int(seeds.Purpose.OPPONENT)


def slow_value(cards) -> tuple:
    return reference.seven_card_key(cards)


def test_deal_chunk_matches_its_twin_and_the_core_seed_helpers():
    key = seeds.match_key(7)
    deal_keys, cards, outcome, stream_keys = _kernels.deal_chunk(np.uint64(key), 40, 25, np.uint64(DEAL),
                                                                 np.uint64(OPPONENT))
    for i in range(25):
        assert int(deal_keys[i]) == seeds.unit_key(key, 40 + i, seeds.Purpose.DEAL)
        assert int(stream_keys[i]) == seeds.unit_key(key, 40 + i, seeds.Purpose.OPPONENT)
        dealt = reference.deal(key, 40 + i, DEAL)
        assert cards[i].tolist() == dealt
        alice = slow_value(dealt[:2] + dealt[4:])
        bob = slow_value(dealt[2:])
        assert outcome[i] == (alice > bob) - (alice < bob)


@pytest.mark.parametrize("known", [0, 3, 4, 5])
def test_sample_outcomes_matches_its_twin(known):
    key = seeds.match_key(known + 100)
    _, cards, _, stream_keys = _kernels.deal_chunk(np.uint64(key), 0, 6, np.uint64(DEAL), np.uint64(OPPONENT))
    for i in range(6):
        stream = seeds.stream(int(stream_keys[i]))
        twin = reference.Stream(int(stream_keys[i]))
        for holder in ((0, 1), (2, 3)):
            hole = (int(cards[i, holder[0]]), int(cards[i, holder[1]]))
            got = _kernels.sample_outcomes(stream, hole[0], hole[1], cards[i, 4:], known, 40)
            want = reference.sample_outcomes(twin, hole, cards[i, 4:].tolist(), known, 40, slow_value)
            assert got == want
        assert int(stream[0]) == twin.state  # the same number of draws was consumed


def test_rate_and_bob_use_one_stream_in_call_order():
    key = seeds.match_key(3)
    _, cards, _, stream_keys = _kernels.deal_chunk(np.uint64(key), 0, 1, np.uint64(DEAL), np.uint64(OPPONENT))
    row = cards[0]
    stream = seeds.stream(int(stream_keys[0]))
    twin = reference.Stream(int(stream_keys[0]))
    rate = _kernels.rate_counts(stream, row, 3, 30)
    assert rate == reference.sample_outcomes(twin, row[:2].tolist(), row[4:].tolist(), 3, 30, slow_value)
    for pot, x in ((10, 1), (10, 60), (30, 15)):
        bob_wins, ties = reference.sample_outcomes(twin, row[2:4].tolist(), row[4:].tolist(), 3, 100, slow_value)
        assert _kernels.bob_calls(stream, row, 3, pot, x, 100) == reference.bob_calls_rule(bob_wins, ties, 100,
                                                                                           pot, x)


# Hand-computed answers to Bob's rule: (Bob's wins, ties, of 100; pot before the raise; raise; calls?)
BOB_CASES = [
    (50, 0, 10, 10, True),  # -0.5*10 + 0.5*20 = 5 > 0
    (30, 0, 10, 7, True),  # -0.7*7 + 0.3*17 = 0.2 > 0
    (30, 0, 10, 8, False),  # -0.7*8 + 0.3*18 = -0.2
    (40, 0, 10, 20, False),  # -0.6*20 + 0.4*30 = 0: not strictly better, so he folds
    (0, 50, 10, 5, False),  # -0.5*5 + 0.5*5 = 0: fold
    (0, 50, 10, 4, True),  # -0.5*4 + 0.5*5 = 0.5
    (0, 100, 10, 100, True),  # a sure split: +P/2 whatever the raise
    (0, 0, 10, 1, False),  # a sure loss
    (1, 0, 200, 100, False),  # -0.99*100 + 0.01*300 = -96
    (34, 0, 10, 10, True),  # -0.66*10 + 0.34*20 = 0.2
]


@pytest.mark.parametrize("bob_wins, ties, pot, x, calls", BOB_CASES)
def test_call_decision_hand_computed(bob_wins, ties, pot, x, calls):
    assert _kernels.call_decision(bob_wins, ties, 100, pot, x) == calls
    assert reference.bob_calls_rule(bob_wins, ties, 100, pot, x) == calls


def test_bob_on_a_board_everyone_plays_always_calls():
    # Board A A A A K: every holding makes four aces with a king kicker, so every rollout ties.
    board = [12, 25, 38, 51, 11]  # Ac Ad Ah As Kc
    cards = np.array([0, 1, 2, 3, *board], np.int64)
    stream = seeds.stream(99)
    for x in (1, 50, 100):
        assert _kernels.bob_calls(stream, cards, 5, 10, x, 100)


def _exact_river_rates(hole, board):
    deck = [eval7.Card(card_name(x)) for x in range(52)]
    mine = eval7.evaluate([deck[c] for c in (*hole, *board)])
    wins = ties = total = 0
    rest = [c for c in range(52) if c not in (*hole, *board)]
    for a, b in itertools.combinations(rest, 2):
        theirs = eval7.evaluate([deck[c] for c in (a, b, *board)])
        wins += mine > theirs
        ties += mine == theirs
        total += 1
    return wins / total, ties / total


def test_rate_on_the_river_converges_to_exact_enumeration():
    hole, board = (12, 11), [10, 22, 35, 3, 47]  # Ac Kc on Qc Jd Jh 5c Ts (engine ints)
    w_exact, d_exact = _exact_river_rates(hole, board)
    stream = seeds.stream(5)
    n = 200_000
    wins, ties = _kernels.sample_outcomes(stream, hole[0], hole[1], np.array(board), 5, n)
    for got, exact in ((wins / n, w_exact), (ties / n, d_exact)):
        assert abs(got - exact) < 5 * np.sqrt(exact * (1 - exact) / n) + 1e-9


def test_preflop_aces_equity_matches_the_known_value():
    # Pocket aces against a random hand: about 85.2% equity (wins + ties / 2).
    stream = seeds.stream(6)
    n = 400_000
    wins, ties = _kernels.sample_outcomes(stream, 12, 25, np.zeros(5, np.int64), 0, n)
    assert abs((wins + ties / 2) / n - 0.852) < 0.003


def test_bob_calls_many_matches_one_call_per_hand():
    key = seeds.match_key(12)
    _, cards, _, stream_keys = _kernels.deal_chunk(np.uint64(key), 0, 60, np.uint64(DEAL), np.uint64(OPPONENT))
    for known, x in ((0, 3), (3, 25), (5, 80)):
        batch = _kernels.bob_calls_many(stream_keys, cards, known, 10, x, 100)
        single = [_kernels.bob_calls(seeds.stream(int(k)), row, known, 10, x, 100)
                  for k, row in zip(stream_keys, cards, strict=True)]
        assert batch.tolist() == single
        assert 0 < sum(single) < 60 or x == 3  # big raises draw both answers
