"""Precomputed tables the exploit bot plays from, built once and kept in one .npz file.

- the evaluator's lookup tables (copied from engine.core.hand_eval, so that a
  contestant process loads them from disk instead of rebuilding them at import),
- the distribution of Bob's rollout score for a grid of (win, tie) equities (his call rule),
- preflop: Alice's win/tie against every Bob pair per starting-hand class, and Bob's own
  preflop view (equity of each pair against a random hand).

The file lives in the project cache (or in an exported bundle) and is rebuilt when missing.
"""

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bots.holdem_training import _kernels as K
from engine.core import cache_file, seeds
from engine.core.errors import MissingFile, UserError

VERSION = 3  # 3: evaluator tables of engine/core/hand_eval.py (card keys carry the hash)
CDF_GRID = 100  # equity grid step 1/100 for Bob's score distribution
PREFLOP_BOARDS = 3000  # random boards per starting-hand class
TABLE_SEED = 20261122
_EV_NAMES = ("card_key", "card_bit", "noflush", "flush", "displacement", "multiplier")


@dataclass(frozen=True)
class BotTables:
    ev: tuple  # evaluator tables, in the order _kernels.value_of expects
    cdf: np.ndarray  # (grid+1, grid+1, 2*rollouts+1) P(score <= s)
    pre_win: np.ndarray  # (169, 1326) Alice class representative vs Bob pair
    pre_tie: np.ndarray
    bob_pre_w: np.ndarray  # (1326,) Bob's preflop view: P(random Alice beats pair), P(tie)
    bob_pre_d: np.ndarray
    cards: np.ndarray  # (1326, 2) pair index -> cards


def default_path() -> Path:
    home = Path(os.environ.get("CARDLAB_HOME") or Path(__file__).resolve().parents[2])
    return home / ".cache" / "holdem_training" / f"bot_tables_v{VERSION}_{PREFLOP_BOARDS}.npz"


def engine_evaluator_tables() -> tuple:
    from engine.core import hand_eval  # slow import on a fresh clone: builds the tables

    return hand_eval.evaluator_tables()


def build(*, boards: int = PREFLOP_BOARDS, rollouts: int = 100, grid: int = CDF_GRID) -> dict[str, np.ndarray]:
    ev = engine_evaluator_tables()
    cards = K.pair_cards()
    state = seeds.stream(seeds.unit_key(seeds.match_key(TABLE_SEED), 0, seeds.Purpose.BOT))
    win, tie = K.preflop_tables(ev, boards, state, cards, K.rank_workspace())
    bob_w, bob_d = K.bob_preflop(win, tie, cards)
    arrays = dict(zip(_EV_NAMES, ev, strict=True))
    arrays.update(cdf=K.score_cdf(grid, rollouts), pre_win=win, pre_tie=tie, bob_pre_w=bob_w,
                  bob_pre_d=bob_d, cards=cards)
    return arrays


def save(arrays: dict[str, np.ndarray], path: Path) -> Path:
    return cache_file.publish_npz(path, arrays)


# Tables of this layout carry 2**16 as their (unread) multiplier; an older bundle's tables
# (v2) carry the hash multiplier their keys need, which today's kernels no longer apply.
_LAYOUT_MULTIPLIER = 1 << 16


class StaleTables(UserError):
    """Bot tables of an older layout: not an unreadable cache to rebuild quietly (a bundle's
    tables are read-only in the contest sandbox), but a bundle to export again."""


def from_arrays(arrays) -> BotTables:
    if int(arrays["multiplier"][0]) != _LAYOUT_MULTIPLIER:
        raise StaleTables(f"bot tables of an older evaluator layout (before v{VERSION}): export the bundle "
                          "again (`cardlab export holdem-training`); accepted: tables written by this version")
    return BotTables(ev=tuple(arrays[name] for name in _EV_NAMES), cdf=arrays["cdf"],
                     pre_win=arrays["pre_win"], pre_tie=arrays["pre_tie"],
                     bob_pre_w=arrays["bob_pre_w"], bob_pre_d=arrays["bob_pre_d"], cards=arrays["cards"])


_LOADED: dict[str, BotTables] = {}


def load(path: Path | None = None) -> BotTables:
    """Tables from `path` (a bundle), else from the project cache, building them if missing."""
    target = Path(path) if path else default_path()
    key = str(target)
    if key not in _LOADED:
        if path and not target.exists():
            raise MissingFile(f"bot tables not found: {target}")
        _LOADED[key] = cache_file.load_or_build(target, load=_read, build=build, convert=from_arrays)
    return _LOADED[key]


def _read(path: Path) -> BotTables:
    with np.load(path) as data:
        return from_arrays({name: data[name] for name in data.files})
