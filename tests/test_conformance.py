"""Every game of the registry, every registered bot: what the workspace relies on, checked generically.

- chunking does not change results (units 0..N-1 as one chunk == as several chunks, played out of order);
- a match replays bit for bit (same seed -> same ChunkLog; another seed -> another one);
- every bot answer is legal (the judge neither aborted, nor replaced or passed an answer);
- importing the engine loads no storage/tracking/orchestration library;
- a bot is handed nothing through which the judge's state object can be reached.
"""

import dataclasses
import functools
import importlib
import inspect
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
from engine.cg_holdem.state import Action as CgAction
from engine.core import contract
from engine.core.errors import IllegalMove
from engine.holdem_training import state as ht_state
from engine.holdem_training.rules import CHECK, FOLD, RAISE, Action
from engine.splendor import state as spl_state
from engine.splendor.protocol import output_tokens
from engine.tractor import state as tr_state
from engine.tractor.rules import DECK_SIZE, HIDDEN_SIZE
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
    fewer: dict[str, int] = dataclasses.field(default_factory=dict)  # bot -> units, for bots slow per unit

    def count(self, bot: str) -> int:
        return self.fewer.get(bot, self.units)


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
    faults = log.events["rounds"]["faults"]
    return [f"round {u}: {f} answers replaced" for u, f in zip(log.events["rounds"]["round"], faults, strict=True)
            if f]


def _splendor_illegal(log, recorder):
    games_ = log.events["games"]  # a candidate's pass is always an invalid move turned into a pass
    return [f"game {g}: {n} invalid moves" for g, n in zip(games_["game"], games_["passes"], strict=True) if n]


CALLS = ("CHECK", "ALL-IN")  # CALL is always a valid answer: it plays CHECK with nothing to call, ALL-IN when short


def _cg_holdem_illegal(log, recorder):
    """The referee replaces an answer it cannot play (fold, call, min-raise...) and logs only what it
    played: compare what the primary bot answered with the action logged for that round."""
    games_ = log.events["games"]
    primary = dict(zip(games_["unit"], games_["primary_seat"], strict=True))
    acts = log.events["actions"]
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
    "cg-holdem": Case(units=8, judge_state=(cgh_state.Game,), illegal=_cg_holdem_illegal,
                      fewer={"ranged": 3}),  # pure-Python board percentiles: 3 one-unit chunks still split it
}

PAIRS = [(game, bot) for game in sorted(games.installed()) for bot in sorted(games.get(game).bots)]


def test_every_registered_game_has_a_case():
    assert set(CASES) == set(games.installed())


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
    n = case.count(bot)

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
    """Every logged column: the log's tables and its events (by kind)."""
    kinds = log.events.columns if log.events is not None else {}
    return {(t, c): v for t, cols in [*log.tables.items(), *kinds.items()] for c, v in cols.items() if c not in skip}


@pytest.mark.parametrize(("game", "bot"), PAIRS)
def test_chunking_does_not_change_results(game, bot):
    run, skip = played(game, bot), CASES[game].timing
    n = CASES[game].count(bot)
    assert [p.first for p in run.parts] == [0, n // 3, n // 2 + 1]
    assert _same(run.whole.payoffs, np.concatenate([p.payoffs for p in run.parts]))
    whole = _columns(run.whole, skip)
    assert whole and all(set(_columns(p, skip)) == set(whole) for p in run.parts)
    for key, values in whole.items():
        assert _same(values, [v for p in run.parts for v in _items(_columns(p, skip)[key])]), key


@pytest.mark.parametrize(("game", "bot"), PAIRS)
def test_a_match_replays_bit_for_bit_and_another_seed_differs(game, bot):
    run, skip = played(game, bot), CASES[game].timing
    assert run.whole.count == run.again.count == CASES[game].count(bot)
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
    assert run.again.count == CASES[game].count(bot)  # no chunk stopped early
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


# -- the game contract (engine/core/contract.py): every game driven through it alone ------------------

def _contract(game: str):
    return importlib.import_module(f"engine.{game.replace('-', '_')}.game")


def _holdem_training_probes(state):
    return [Action(CHECK), Action(FOLD), Action("CALL"), Action(RAISE, 0), Action(RAISE, -1), Action(RAISE, 1),
            Action(RAISE, state.stack), Action(RAISE, state.stack + 1), Action(RAISE, 2.5)]


def _splendor_probes(state):
    moves = []
    for code in range(spl_state.NUM_CODES):
        try:
            move = spl_state.move_for_code(state, code)
        except IndexError:  # no reserved card at that index
            continue
        moves += [move, dataclasses.replace(move, returns=(0,)), dataclasses.replace(move, returns=(4, 0, 0)),
                  dataclasses.replace(move, colours=tuple(reversed(move.colours)))]
    return moves


def _tractor_probes(state):
    """Plays no hand allows: a card the seat lacks, the wrong count, a lead mixing two groups."""
    seat = state.setup.dealer if state.hiding else state.to_act
    hand, code = state.hands[seat], state.code
    lacking = next(c for c in range(DECK_SIZE // 2) if c not in hand)
    if state.hiding:
        return [tuple(hand[:HIDDEN_SIZE - 1]), (lacking,) * HIDDEN_SIZE]
    if state.trick:
        size = len(state.trick[0])
        return [tuple(hand[:size + 1]), (lacking,) * size, ()]
    groups = sorted({code[c] >> 4 for c in hand})
    mixed = [tuple(next(c for c in hand if code[c] >> 4 == g) for g in groups[:2])] if len(groups) > 1 else []
    return [(), (lacking,), *mixed]


def _cg_holdem_probes(state):
    s = state.to_act
    stack, call, least = state.stack[s], state.call_amount(s), state.min_raise(s)
    bets = {call, call + 1, least - 1, least, stack - 1, stack, stack + 1, 0, -5}
    return [CgAction(k) for k in ("FOLD", "CHECK", "CALL", "ALL-IN", "TIMEOUT", "RAISE")] + \
        [CgAction("BET", x) for x in sorted(bets)]


def _splendor_shown(obs) -> set[int]:
    seen = {c for row in obs.face_up for c in row if c}
    return seen | {c for seat in obs.seats for c in (*seat.cards, *seat.reserved) if c > 0}


def _tractor_shown(view) -> set[int]:
    played = [*view.trick, *(p for trick in view.tricks for p in trick.plays)]
    return set(view.hand) | {c for play in played for c in play} | set(view.hidden)


def _cg_holdem_shown(turn) -> set[int]:
    """This hand's cards the turn shows (earlier hands' showdowns show cards dealt again since)."""
    now = [cards for hand, _, seats in turn.showdowns if hand == turn.hand for cards in seats if cards]
    return set(turn.cards or ()) | set(turn.board) | {c for cards in now for c in cards}  # None: eliminated


@dataclass(frozen=True)
class ContractCase:
    probes: Callable  # state -> actions to offer besides the listed ones (illegal by construction
    # for a game whose `legal` is a sample)
    shown: Callable  # view -> the card ints it shows


CONTRACT_CASES = {
    "holdem-training": ContractCase(_holdem_training_probes, lambda v: set(v.hole) | set(v.board)),
    "twocarddraw": ContractCase(lambda state: [-1, 0, 1, 2, 3], lambda v: set(v.cards) | set(v.opponent or ())),
    "splendor": ContractCase(_splendor_probes, _splendor_shown),
    "tractor": ContractCase(_tractor_probes, _tractor_shown),
    "cg-holdem": ContractCase(_cg_holdem_probes, lambda v: _cg_holdem_shown(v.turn)),
}
CONTRACT_SEEDS = (5, 6)


def test_every_registered_game_meets_the_contract():
    assert set(CONTRACT_CASES) == set(games.installed())
    for game in games.installed():
        module = _contract(game)
        assert isinstance(module.GAME, contract.Game) and module.GAME.name == game


def _frozen(event) -> bool:
    if isinstance(event, tuple):
        return True
    if not dataclasses.is_dataclass(event) or not dataclasses.fields(event):
        return False
    try:
        setattr(event, dataclasses.fields(event)[0].name, None)
    except dataclasses.FrozenInstanceError:
        return True
    return False


@dataclass(frozen=True)
class Playout:
    events: tuple
    returns: tuple
    hidden_checked: int  # views checked while the seat had something hidden from it


def _play_randomly(game: str, seed: int) -> Playout:
    """Random legal actions from the seeded start to the end, checking the contract at every step."""
    g, case = _contract(game).GAME, CONTRACT_CASES[game]
    rng = np.random.default_rng(seed)  # the actions' choice; the game's chance comes from `seed` alone
    state, events, hidden_checked = g.start(seed), [], 0
    judge_state = CASES[game].judge_state
    for _ in range(10_000):
        seat = g.to_act(state)
        if seat is None:
            break
        for s in range(g.seats):
            view, hidden = g.view(state, s), g.hidden(state, s)
            assert not case.shown(view) & hidden, f"seat {s} sees hidden cards {case.shown(view) & hidden}"
            hidden_checked += bool(hidden)
            assert not [o for o in _reachable([view]) if isinstance(o, (*judge_state, type(state)))]
        legal = list(g.legal(state))
        assert legal, "a seat must act but nothing is legal"
        for i in {0, len(legal) - 1, *rng.integers(len(legal), size=min(8, len(legal))).tolist()}:
            g.check(state, legal[i])  # listed, so accepted
        before = g.view(state, seat)
        for probe in [*case.probes(state), None, object()]:
            listed = any(probe == a for a in legal)
            assert contract.can(g, state, probe) == listed, f"{probe!r}: listed {listed}"
            if not listed:
                with pytest.raises(IllegalMove):
                    g.apply(state, probe)
                assert g.view(state, seat) == before, f"the refused {probe!r} changed the state"
        event = g.apply(state, legal[int(rng.integers(len(legal)))])
        assert _frozen(event), f"{type(event).__name__} is not frozen"
        events.append(event)
    else:
        pytest.fail("no end after 10,000 actions")
    assert list(g.legal(state)) == []
    with pytest.raises(IllegalMove):
        g.apply(state, None)
    return Playout(tuple(events), g.returns(state), hidden_checked)


@functools.cache
def contract_playout(game: str, seed: int) -> Playout:
    return _play_randomly(game, seed)


@pytest.mark.parametrize("game", sorted(games.installed()))
@pytest.mark.parametrize("seed", CONTRACT_SEEDS)
def test_random_legal_play_through_the_contract(game, seed):
    run, g = contract_playout(game, seed), _contract(game).GAME
    assert run.events and run.hidden_checked  # every game here hides something from someone
    assert len(run.returns) == g.seats and all(isinstance(r, float) and r == r for r in run.returns)


@pytest.mark.parametrize("game", sorted(games.installed()))
def test_a_contract_replay_with_the_same_seed_gives_the_same_events(game):
    first = contract_playout(game, CONTRACT_SEEDS[0])
    assert _play_randomly(game, CONTRACT_SEEDS[0]) == first
    assert contract_playout(game, CONTRACT_SEEDS[1]).events != first.events


@pytest.mark.parametrize(("game", "bot"), PAIRS)
def test_every_registered_bot_meets_its_kinds_protocol(game, bot):
    spec = games.get(game).spec(bot)
    made = spec.make(spec.config_from(CASES[game].config.get(bot, ())))
    kind = _contract(game).BOT_PROTOCOL
    assert isinstance(made, kind), f"{type(made).__name__} lacks {kind.__name__}'s methods"
    inspect.signature(made.act).bind(object(), *([object()] * _ACT_CONTEXT.get(game, 0)))


_ACT_CONTEXT = {"holdem-training": 1, "tractor": 1}  # the RATE meter; the seat's generator


# -- registered bots driven through the contract, where the contract's view is what the bot reads ---------

def _twocarddraw_ready(bot):
    """A TwoCardDraw bot after the tester's init, facing the registry's default server."""
    from engine.twocarddraw import judge as tcd_judge

    tcd_judge.play_bot(bot, tcd_judge.load_server(games.get("twocarddraw").options()), seed=1, count=1)
    return bot


def _splendor_move(bot, view, state):
    """The bot's text as the arbiter reads it, spelled the contract's way (colours and returns ascending)."""
    move = spl_state.validate(state, output_tokens(bot.act(view)))
    return dataclasses.replace(move, colours=tuple(sorted(move.colours)), returns=tuple(sorted(move.returns)))


@dataclass(frozen=True)
class Driven:
    ready: Callable  # bot -> the bot after what the judge does before the first decision
    answer: Callable  # (bot, view, state, rng) -> the contract action it chose
    seats: tuple[int, ...] | None = None  # seats the bot takes (None: all; the others play at random)


DRIVEN = {
    "twocarddraw": Driven(_twocarddraw_ready, lambda bot, view, state, rng: bot.act(view), seats=(0,)),
    "tractor": Driven(lambda bot: bot, lambda bot, view, state, rng: tuple(bot.act(view, rng))),
    "splendor": Driven(lambda bot: bot, lambda bot, view, state, rng: _splendor_move(bot, view, state)),
}


@pytest.mark.parametrize(("game", "bot"), [(g, b) for g, b in PAIRS if g in DRIVEN])
def test_registered_bots_answer_legally_through_the_contract(game, bot):
    g, driven = _contract(game).GAME, DRIVEN[game]
    spec = games.get(game).spec(bot)
    made = driven.ready(spec.make(spec.config_from(CASES[game].config.get(bot, ()))))
    rng, asked = np.random.default_rng(7), 0
    state = g.start(7)
    while (seat := g.to_act(state)) is not None:
        if driven.seats is None or seat in driven.seats:
            action, asked = driven.answer(made, g.view(state, seat), state, rng), asked + 1
            assert contract.can(g, state, action), f"{bot} answered {action!r}"
        else:
            legal = g.legal(state)
            action = legal[int(rng.integers(len(legal)))]
        g.apply(state, action)
    assert asked
