"""The full-round engine: deal, hidden cards, legal follows (against a brute-force oracle), bots."""

import itertools

import numpy as np
import pytest

from bots.tractor import BOTS
from engine.core.errors import IllegalMove
from engine.tractor.rules import CARD_OF_TOKEN, DECK_SIZE, TRUMP_GROUP, RoundSetup, ordering
from engine.tractor.state import RoundState, build_follow, verify_follow, verify_lead
from engine.tractor.tricks import lead_shape, pair_counts

ORDER = ordering(0, 5)  # main H, CR 7
CODE = ORDER.code


def ids(text):
    return [CARD_OF_TOKEN[text[i:i + 2]] for i in range(0, len(text), 2)]


@pytest.mark.parametrize("hand, lead, play, why", [
    ("S2S3C4C5", "SA", "C4", "led group"),
    ("S2S2S3C4C4", "SASA", "S2S3", "pair"),
    ("S2S2S3S3S5S5", "SKSKSASA", "S2S2S5S5", "tractor"),
    ("S2S3C4", "SASK", "C4S2", "led group"),
])
def test_illegal_follows(hand, lead, play, why):
    with pytest.raises(IllegalMove, match=why):
        verify_follow(sorted(ids(hand)), ids(lead), ids(play), CODE)


@pytest.mark.parametrize("hand, lead, play", [
    ("S2S3C4C4", "SASA", "S2S3"),  # no spade pair: any two spades
    ("S2C4C4", "SASA", "S2C4"),  # short: all spades, then anything
    ("C4C4D2", "SASA", "C4D2"),  # void: anything
    ("S2S2S3S4S4", "SKSKSASA", "S2S2S4S4"),  # pairs without a tractor
    ("S2S2S3S3S9", "SKSKSASA", "S3S3S2S2"),
])
def test_legal_follows(hand, lead, play):
    verify_follow(sorted(ids(hand)), ids(lead), ids(play), CODE)


def test_lead_must_stay_in_one_group():
    verify_lead(ids("S2S2S3S3H2"), ids("S2S2S3S3"), CODE)
    with pytest.raises(IllegalMove, match="mixes"):
        verify_lead(ids("S2H2"), ids("S2H2"), CODE)  # H is the main suit here


def oracle_legal(hand, lead, size):
    """All follows that are as good as any on each duty: led-group cards, pairs, the tractor."""
    shape = lead_shape(lead, CODE)
    lead_pairs = sum(n for n, _ in shape.blocks)
    first = shape.blocks[0][0] if shape.blocks else 0
    scored = {}
    for combo in set(itertools.combinations(sorted(hand), size)):
        inside = [c for c in combo if CODE[c] >> 4 == shape.group]
        counts = pair_counts(inside, CODE)
        run = first > 1 and any(all(counts.get(t - i, 0) for i in range(first)) for t in counts)
        full = len(inside) == size  # structure duties apply once the play is all of the led group
        scored[combo] = (len(inside), min(sum(counts.values()), lead_pairs) if full else 0, run if full else 0)
    best = tuple(max(s[i] for s in scored.values()) for i in range(3))
    return {c for c, s in scored.items() if s == best}


def test_follow_rules_match_a_brute_force_oracle():
    rng = np.random.default_rng(11)
    spades = ids("S2S3S4S5S6S8S9SA") * 2
    others = ids("C2C3H4D5BJ")
    for _ in range(150):
        hand = [int(c) for c in rng.choice(spades + others, size=9, replace=False)]
        lead = [[*ids("SKSK")], ids("SQSQSKSK"), ids("SQSQSJ"), ids("SJ")][rng.integers(4)]
        size = len(lead)
        legal = {combo for combo in set(itertools.combinations(sorted(hand), size))
                 if _is_legal(hand, lead, list(combo))}
        assert legal == oracle_legal(hand, lead, size), (hand, lead)
        key = rng.random(54).tolist()
        assert tuple(sorted(build_follow(sorted(hand), lead, CODE, key.__getitem__))) in legal


def _is_legal(hand, lead, play):
    try:
        verify_follow(sorted(hand), lead, play, CODE)
    except IllegalMove:
        return False
    return True


def test_a_round_deals_hides_and_plays_every_card():
    deck = [c for c in range(54) for _ in range(2)]
    setup = RoundSetup(main=1, dealer=2, cr1=4, cr2=9)
    state = RoundState(setup, deck)
    assert [len(h) for h in state.hands] == [25, 25, 33, 25] and len(deck) == DECK_SIZE
    with pytest.raises(IllegalMove):
        state.play((state.hands[2][0],))  # the dealer hides first
    bot, rng = BOTS["rule"].make(), np.random.default_rng(0)
    state.hide(bot.hide(state.view(2), rng))
    assert all(len(h) == 25 for h in state.hands) and len(state.hidden) == 8
    assert not any(setup.order.code[c] >> 4 == TRUMP_GROUP for c in state.hidden)  # rule bot keeps trumps
    while not state.done:
        state.play(bot.play(state.view(), rng))
    assert sum(len(t.plays[0]) for t in state.tricks) == 25
    o = state.outcome
    played = sum(t.points for t in state.tricks)
    assert played + o.hidden_points == 200 and o.trick_points <= played
