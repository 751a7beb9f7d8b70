"""Every game of the registry, every registered bot: what the workspace relies on, checked generically.

- chunking does not change results (units 0..N-1 as one chunk == as several chunks, played out of order);
- a match replays bit for bit (same seed -> same ChunkLog; another seed -> another one);
- every bot answer is legal (the judge neither aborted, nor replaced or passed an answer);
- importing the engine loads no storage/tracking/orchestration library;
- a bot is handed nothing through which the judge's state object can be reached.
"""

import dataclasses
import functools
import itertools
import pkgutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

import engine
from engine.cg_holdem import state as cgh_state
from engine.cg_holdem.protocol import parse_output
from engine.holdem_training import state as ht_state
from engine.splendor import state as spl_state
from engine.tractor import state as tr_state
from engine.twocarddraw import state as tcd_state
from flows import games

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Case:
    units: int  # small: the whole file must stay fast
    judge_state: tuple[type, ...]  # what a bot must never reach
    illegal: Callable  # (ChunkLog, Recorder) -> descriptions of answers the judge did not take as given
    timing: frozenset[str] = frozenset()  # measured-time columns and stats (differ between runs by nature)
    config: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)  # bot -> overrides


class Recorder:
    """Wraps a bot factory; every bot it makes records each public call: (method, args, kwargs, answer)."""

    def __init__(self):
        self.bots: list[list[tuple]] = []  # one call list per bot made, in order of making

    def wrap(self, spec):
        def factory(config):
            calls: list[tuple] = []
            self.bots.append(calls)
            return _Recorded(spec.factory(config), calls)

        return dataclasses.replace(spec, factory=factory)

    def handed(self) -> list:
        return [a for calls in self.bots for _, args, kwargs, _ in calls for a in (*args, *kwargs.values())]


class _Recorded:
    def __init__(self, bot, calls):
        self._bot, self._calls = bot, calls

    def __getattr__(self, name):
        value = getattr(self._bot, name)
        if name.startswith("_") or not callable(value):
            return value

        def call(*args, **kwargs):
            answer = value(*args, **kwargs)
            self._calls.append((name, args, kwargs, answer))
            return answer

        return call


# -- how each judge shows an answer it did not take as given -------------------------------------------

def _holdem_training_illegal(log, recorder):
    # play_chunk raises MatchAborted on an illegal action, a crash or the RATE budget; a log means none
    return [] if log.count else ["no hands played"]


def _twocarddraw_illegal(log, recorder):
    return [] if log.stats["faulted"] == 0 else ["the match ended on a bot fault (invalid return, crash, time)"]


def _tractor_illegal(log, recorder):
    faults = log.tables["tr_rounds"]["faults"]
    return [f"round {u}: {f} answers replaced" for u, f in zip(log.tables["tr_rounds"]["round"], faults, strict=True)
            if f]


def _splendor_illegal(log, recorder):
    games_ = log.tables["spl_games"]  # a candidate's pass is always an invalid move turned into a pass
    return [f"game {g}: {n} invalid moves" for g, n in zip(games_["game"], games_["passes"], strict=True) if n]


CALLS = ("CHECK", "ALL-IN")  # CALL is always a valid answer: it plays CHECK with nothing to call, ALL-IN when short


def _cg_holdem_illegal(log, recorder):
    """The referee replaces an answer it cannot play (fold, call, min-raise...) and logs only what it
    played: compare what the primary bot answered with the action logged for that round."""
    games_ = log.tables["cgh_games"]
    primary = dict(zip(games_["unit"], games_["primary_seat"], strict=True))
    acts = log.tables["cgh_actions"]
    played = {(u, r): a for u, r, s, a in zip(acts["unit"], acts["round"], acts["seat"], acts["action"], strict=True)
              if s == primary[u]}
    problems = []
    for unit, calls in enumerate(recorder.bots, start=log.first):
        answers = {args[0].round: answer for name, args, _, answer in calls if name == "act"}
        assert answers, f"unit {unit}: the primary bot was never asked"
        for round_, answer in answers.items():
            kind, amount, _ = parse_output(answer)
            meant = f"{kind}_{amount}" if kind == "BET" else kind
            if played.get((unit, round_)) != meant and not (kind == "CALL" and played.get((unit, round_)) in CALLS):
                problems.append(f"unit {unit} round {round_}: answered {answer!r}, played {played.get((unit, round_))}")
    return problems


CASES = {
    "holdem-training": Case(units=40, judge_state=(ht_state.HandState,), illegal=_holdem_training_illegal),
    "twocarddraw": Case(units=40, judge_state=(tcd_state.HandState,), illegal=_twocarddraw_illegal,
                        timing=frozenset({"cpu_seconds"})),
    "tractor": Case(units=6, judge_state=(tr_state.RoundState,), illegal=_tractor_illegal),
    "splendor": Case(units=4, judge_state=(spl_state.GameState, spl_state.PlayerState), illegal=_splendor_illegal,
                     timing=frozenset({"cpu_ms"}),
                     # the default MCTS thinks 1 s per move by the clock: by design neither fast nor reproducible
                     config={"mcts": ("iterations=200",)}),
    "cg-holdem": Case(units=8, judge_state=(cgh_state.Game,), illegal=_cg_holdem_illegal),
}

PAIRS = [(game, bot) for game in sorted(games.MODULES) for bot in sorted(games.get(game).bots)]


def test_every_registered_game_has_a_case():
    assert set(CASES) == set(games.MODULES)


@dataclass(frozen=True)
class Played:
    whole: object
    again: object  # same seed, played by recorded bots
    parts: tuple  # the same units as three chunks, in unit order
    other: object  # another seed
    recorder: Recorder


@functools.cache
def played(game: str, bot: str) -> Played:
    adapter, case = games.get(game), CASES[game]
    spec = adapter.spec(bot)
    config = spec.config_from(case.config.get(bot, ()))
    options = adapter.options()
    n = case.units

    def play(spec_, first, count, seed=11):
        return adapter.play_chunk(spec_, config, seed=seed, first=first, count=count, options=options)

    recorder = Recorder()
    cuts = (0, n // 3, n // 2 + 1, n)
    parts = [play(spec, a, b - a) for a, b in reversed(list(itertools.pairwise(cuts)))]  # last chunk first
    return Played(whole=play(spec, 0, n), again=play(recorder.wrap(spec), 0, n), parts=tuple(reversed(parts)),
                  other=play(spec, 0, n, seed=12), recorder=recorder)


def _items(values) -> list:
    return values.tolist() if isinstance(values, np.ndarray) else list(values)


def _same(a, b) -> bool:
    a, b = _items(a), _items(b)
    return len(a) == len(b) and all(x == y or (x != x and y != y) for x, y in zip(a, b, strict=True))  # NaN == NaN


def _columns(log, skip: frozenset[str]) -> dict[tuple[str, str], object]:
    return {(t, c): v for t, cols in log.tables.items() for c, v in cols.items() if c not in skip}


@pytest.mark.parametrize(("game", "bot"), PAIRS)
def test_chunking_does_not_change_results(game, bot):
    run, skip = played(game, bot), CASES[game].timing
    assert [p.first for p in run.parts] == [0, CASES[game].units // 3, CASES[game].units // 2 + 1]
    assert _same(run.whole.payoffs, np.concatenate([p.payoffs for p in run.parts]))
    whole = _columns(run.whole, skip)
    assert whole and all(set(_columns(p, skip)) == set(whole) for p in run.parts)
    for key, values in whole.items():
        assert _same(values, [v for p in run.parts for v in _items(_columns(p, skip)[key])]), key


@pytest.mark.parametrize(("game", "bot"), PAIRS)
def test_a_match_replays_bit_for_bit_and_another_seed_differs(game, bot):
    run, skip = played(game, bot), CASES[game].timing
    assert run.whole.count == run.again.count == CASES[game].units
    assert _same(run.whole.payoffs, run.again.payoffs)
    whole, again = _columns(run.whole, skip), _columns(run.again, skip)
    assert set(whole) == set(again) and all(_same(v, again[k]) for k, v in whole.items())
    assert {k: v for k, v in run.whole.stats.items() if k not in skip} == \
        {k: v for k, v in run.again.stats.items() if k not in skip}
    other = _columns(run.other, skip)
    assert any(set(whole) != set(other) or not _same(v, other[k]) for k, v in whole.items())


@pytest.mark.parametrize(("game", "bot"), PAIRS)
def test_every_bot_answer_is_legal(game, bot):
    run = played(game, bot)
    assert run.again.count == CASES[game].units  # no chunk stopped early
    assert CASES[game].illegal(run.again, run.recorder) == []


_PLAIN = (int, float, complex, str, bytes, bool, type(None), np.ndarray, np.generic)


def _reachable(roots, depth: int = 3) -> list:
    """Objects reachable from `roots` through public attributes and container items (what a bot can
    read without introspection); library objects (numpy generators, ...) are not entered."""
    seen, found, frontier = set(), [], list(roots)
    for _ in range(depth + 1):
        nxt = []
        for item in frontier:
            if id(item) in seen or isinstance(item, _PLAIN):
                continue
            seen.add(id(item))
            found.append(item)
            if isinstance(item, dict):
                nxt += list(item.values())[:64]
            elif isinstance(item, (list, tuple, set, frozenset)):
                nxt += list(item)[:64]
            elif type(item).__module__.split(".")[0] in ("engine", "bots", "flows") or callable(item):
                for name in dir(item):
                    if name.startswith("_"):
                        continue
                    try:
                        value = getattr(item, name)
                    except Exception:  # noqa: BLE001 - a property that refuses is no leak
                        continue
                    if not callable(value) or type(value).__module__.startswith("engine."):
                        nxt.append(value)
        frontier = nxt
    return found


@pytest.mark.parametrize(("game", "bot"), PAIRS)
def test_bots_see_nothing_of_the_judges_state(game, bot):
    handed = played(game, bot).recorder.handed()
    assert handed, "the bot was never called"
    leaks = [type(o).__name__ for o in _reachable(handed) if isinstance(o, CASES[game].judge_state)]
    assert leaks == []


def test_the_leak_check_finds_a_state_object_behind_an_attribute():
    class Meter:  # what Hold'em Training's RATE meter once was: a callable holding the hand
        def __init__(self, state):
            self.state = state

        def __call__(self, rollouts):
            return 0.5, 0.0

    hand = object.__new__(ht_state.HandState)
    assert [o for o in _reachable([(Meter(hand),)]) if isinstance(o, ht_state.HandState)] == [hand]


def test_importing_the_engine_loads_no_storage_tracking_or_orchestration_library():
    modules = sorted(m.name for m in pkgutil.walk_packages(engine.__path__, "engine."))
    assert "engine.core" in modules and len(modules) > 20
    code = ("import importlib, sys\n"
            f"for name in {modules!r}: importlib.import_module(name)\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'prefect', 'duckdb', 'mlflow', 'polars'}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
