"""From what an agent's stdin shows to a full game state a bot can search.

Hidden information is the order of the three piles and the other players' blind
reservations; a determinisation deals the unseen cards of each level at random.
"""

import numpy as np

from engine.core import _rng
from engine.splendor import rules
from engine.splendor.protocol import Observation
from engine.splendor.rules import CARDS, SplendorConfig
from engine.splendor.state import GameState, PlayerState


def unseen_by_level(obs: Observation) -> list[list[int]]:
    """Card ids of each level the observer cannot see (in the piles or reserved blind)."""
    seen = {c for row in obs.face_up for c in row if c > 0}
    for seat in obs.seats:
        seen.update(seat.cards)
        seen.update(c for c in seat.reserved if c > 0)
    return [[c for c in range(lo, hi + 1) if c not in seen] for lo, hi in rules.LEVEL_RANGES]


def determinise(obs: Observation, rng: np.ndarray | None = None) -> GameState:
    """A full state consistent with the observation; unseen cards shuffled with ``rng``.

    Without an rng the unseen cards keep id order (enough for bots that never look at them).
    """
    pools = [np.array(ids, dtype=np.int64) for ids in unseen_by_level(obs)]
    if rng is not None:
        for pool in pools:
            _rng.shuffle_prefix(rng, pool, len(pool), len(pool))
    taken = [0, 0, 0]
    players = []
    for seat in obs.seats:
        p = PlayerState(chips=list(seat.chips), cards=list(seat.cards), nobles=list(seat.nobles))
        for c in seat.cards:
            p.bonus[CARDS[c].bonus] += 1
        for c in seat.reserved:
            if c < 0:
                level = -c - 1
                p.reserve.append((int(pools[level][taken[level]]), True))
                taken[level] += 1
            else:
                p.reserve.append((c, False))
        players.append(p)
    piles = []
    for level in range(3):
        rest = [int(c) for c in pools[level][taken[level]:]]
        if len(rest) != obs.piles[level]:
            raise ValueError(f"level {level + 1}: {len(rest)} unseen cards for a pile of {obs.piles[level]}")
        piles.append(rest)
    return GameState(
        config=SplendorConfig(players=obs.players), board=list(obs.board),
        face_up=[list(r) for r in obs.face_up], piles=piles, nobles=list(obs.nobles),
        players=players, round=obs.round, seat=obs.me,
    )
