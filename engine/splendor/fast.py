"""Python face of the numba engine: state <-> array, and batches of random games."""

import numpy as np

from engine.core.seeds import Purpose, match_key, unit_key
from engine.splendor import _kernels as K
from engine.splendor.state import GameState


def encode(game: GameState) -> np.ndarray:
    """The kernel array for a reference state; consumed deck entries are left 0."""
    s = np.zeros(K.SIZE, dtype=np.int64)
    s[K.N], s[K.ROUND], s[K.SEAT], s[K.OVER] = game.n, game.round, game.seat, int(game.over)
    s[K.BOARD:K.BOARD + 6] = game.board
    for lv in range(3):
        s[K.FACE + 4 * lv:K.FACE + 4 * lv + 4] = game.face_up[lv]
        ptr = K.LEVEL_LEN[lv] - len(game.piles[lv])
        s[K.PTR + lv] = ptr
        off = K.LEVEL_OFF[lv]
        s[off + ptr:off + K.LEVEL_LEN[lv]] = game.piles[lv]
    s[K.NOB:K.NOB + len(game.nobles)] = game.nobles
    for seat, p in enumerate(game.players):
        b = K.PL + seat * K.PSTRIDE
        s[b + K.CH:b + K.CH + 6] = p.chips
        s[b + K.BON:b + K.BON + 5] = p.bonus
        s[b + K.PTS] = p.score
        s[b + K.NCARDS] = len(p.cards)
        for r, (cid, secret) in enumerate(p.reserve):
            s[b + K.RES + r], s[b + K.SEC + r] = cid, int(secret)
        s[b + K.NRES], s[b + K.NNOB] = len(p.reserve), len(p.nobles)
    return s


def comparable(s: np.ndarray) -> np.ndarray:
    """A copy with consumed deck entries zeroed and board nobles packed (0 = taken)."""
    out = s.copy()
    for lv in range(3):
        out[K.LEVEL_OFF[lv]:K.LEVEL_OFF[lv] + out[K.PTR + lv]] = 0
    nobles = [x for x in out[K.NOB:K.NOB + 5] if x]
    out[K.NOB:K.NOB + 5] = nobles + [0] * (5 - len(nobles))
    return out


def game_keys(seed: int, first: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """(deal key, move key) per game index, as the judge derives them."""
    key = match_key(seed)
    deals = np.array([unit_key(key, g, Purpose.DEAL) for g in range(first, first + count)], dtype=np.uint64)
    moves = np.array([unit_key(key, g, Purpose.BOT) for g in range(first, first + count)], dtype=np.uint64)
    return deals, moves


def random_games(seed: int, first: int, count: int, players: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Scores [count, players] and turn counts of random-vs-random games."""
    deals, moves = game_keys(seed, first, count)
    scores = np.zeros((count, players), dtype=np.int64)
    turns = np.zeros(count, dtype=np.int64)
    K.random_games(deals, moves, players, scores, turns)
    return scores, turns
