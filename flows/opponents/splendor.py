"""Splendor's opponent model: a conditional logit over the legal moves of each decision (the clone bot,
bots/splendor/clone.py, plays it), fitted by maximum likelihood.

Decisions come from the hand log (the spl_turns of judged matches, matches, sweeps and leagues: each
game is replayed from its deal, the moves read back from the logged tokens and every turn checked
against the logged chips, gold and points) and from the arbiter's own records (`files`, replayed by
engine.splendor.record). A population model is fitted to every player's fit decisions (L2 toward 0),
then the player's own model with an L2 pull toward the population, so a player with few decisions
stays near the field; the pull is chosen per player (SHRINKS) on an inner quarter of its fitted
games. Held-out decisions (a hash of the game's deal: its cards' order and nobles, so a game logged
again, or saved as an arbiter record, falls on the same side) measure the player's model, the
population model and uniform over the legal moves, and the calibration by move kind.
"""

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from bots.base import BotSpec, ConfigError
from bots.splendor import BOTS
from bots.splendor.clone import CLONE, FEATURES, KINDS, NUM_FEATURES, CloneConfig, kind_of_code, move_features
from engine.core.errors import BadValue, IllegalMove, NotFound
from engine.splendor import record as rec
from engine.splendor import state as st
from engine.splendor.judge import game_deal
from engine.splendor.php_rng import arbiter_deals
from engine.splendor.rules import BUY, RESERVE, TAKE_DIFFERENT, TAKE_TWO, SplendorConfig
from flows.opponents.base import Calibration, FittedModel

GAME = "splendor"
METHOD = "conditional-logit"
POPULATION_L2 = 1.0  # keeps the population fit finite when a feature separates the moves
# L2 pulls of a player's weights toward the population's to choose from: a strong one keeps a player seen in
# few games near the field; a weak one lets a near-deterministic player (greedy) sharpen to its own choices
SHRINKS = (10.0, 1.0, 0.1, 0.01)
INNER = 0.25  # share of the fitted games (by deal) that choose the pull
PHASES = ((1, 10, "rounds 1-10"), (11, 20, "rounds 11-20"), (21, 10**6, "rounds 21+"))
_RETURNED = re.compile(r"a returnat jetoane de culorile ([0-9, ]+)\.$")


# -------------------------------------------------------------------------------- decisions
@dataclass
class Decisions:
    """Decisions stacked for the logit: the legal moves' feature rows, decision by decision."""

    rows: list[np.ndarray] = field(default_factory=list)  # one (moves x features) block per decision
    chosen: list[int] = field(default_factory=list)  # index of the played move within its block
    kinds: list[np.ndarray] = field(default_factory=list)  # move kind (KINDS index) per row
    players: list[str] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    units: list[str] = field(default_factory=list)  # the game's deal_key
    seen: set[str] = field(default_factory=set)  # every player the sources name

    def add(self, game: st.GameState, code: int, player: str, unit: str) -> None:
        codes = st.legal_codes(game)
        if code not in codes:
            return
        self.rows.append(move_features(game, codes))
        self.chosen.append(codes.index(code))
        self.kinds.append(np.array([kind_of_code(c) for c in codes]))
        self.players.append(player)
        self.rounds.append(game.round)
        self.units.append(unit)

    def __len__(self) -> int:
        return len(self.rows)


def code_of(game: st.GameState, move: st.Move) -> int:
    """The canonical action code of a move in this position."""
    if move.action == TAKE_DIFFERENT:
        return st.TAKE_SETS.index(tuple(sorted(move.colours)))
    if move.action == TAKE_TWO:
        return st.CODE_TAKE_TWO + move.colours[0]
    if move.action == RESERVE and move.card < 0:
        return st.CODE_RESERVE_BLIND - move.card - 1
    if move.action == BUY and move.card in game.current.reserved_ids():
        return st.CODE_BUY_RESERVED + game.current.reserved_ids().index(move.card)
    slot = game.face_up_slot(move.card)
    if slot is None:
        raise IllegalMove(f"card {move.card} is not on the board")
    base = st.CODE_RESERVE_UP if move.action == RESERVE else st.CODE_BUY_UP
    return base + slot[0] * 4 + slot[1]


def deal_key(decks, nobles) -> str:
    """What identifies a game: its deal (each level's card order and the nobles), not the match id, new
    each time a match is logged; a logged game and its arbiter record have the same key."""
    text = json.dumps([[list(map(int, d)) for d in decks], list(map(int, nobles))], separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def in_heldout(unit: str, seed: int, holdout: float) -> bool:
    digest = hashlib.blake2b(f"{seed}:{unit}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") / 2**64 < holdout


def bot_name(bot: str, config: dict | None = None) -> str:
    """A cardlab bot as `cardlab splendor tournament` spells it: NAME, or NAME:k=v,... with the keys that
    differ from the bot's defaults (so two configs of one bot are two players)."""
    spec = BOTS.get(bot)
    if spec is None or not config:
        return bot
    defaults = asdict(spec.default_config())
    changed = [f"{k}={config[k]}" for k in sorted(config) if k in defaults and config[k] != defaults[k]]
    return f"{bot}:{','.join(changed)}" if changed else bot


def canonical(name: str) -> str:
    """A player's name with a bot's settings spelled as bot_name spells them (`greedy:target=6` and
    `greedy:target=6.0` are one player); other names as they are."""
    bot, _, settings = name.partition(":")
    if bot not in BOTS or not settings:
        return name
    try:
        config = BOTS[bot].config_from([p for p in settings.split(",") if p])
    except (ConfigError, ValueError):
        return name
    return bot_name(bot, asdict(config))


def _same_player(name: str, player: str) -> bool:
    """A league entrant is NAME@VERSION: the player may be named with or without its version."""
    return canonical(name) == canonical(player) or name.split("@", 1)[0] == player


# ---------------------------------------------------------------------------- the hand log
def seat_names(bot: str, config: dict, options: dict, players: int, game: int, cand_seat: int) -> list[str] | None:
    """Who sat where in a logged game: league seats, a judged match's agents (rotating each game), or a
    match's candidate bot among copies of its opponent bot (each named by bot_name). None when the log
    cannot say."""
    if "seats" in options:
        names = list(options["seats"])
    elif options.get("agents"):
        agents = list(options["agents"])
        k = game % len(agents)
        names = agents[k:] + agents[:k]
    else:
        opponent = str(options.get("opponent", "greedy"))
        settings = [p for p in str(options.get("opponent_set", "")).split(";") if p.strip()]
        names = [canonical(f"{opponent}:{','.join(settings)}" if settings else opponent)] * players
        names[cand_seat] = bot_name(bot, config)
    return names if len(names) == players else None


def _logged_move(tokens: str, message: str, returned: int) -> tuple[st.Move, bool]:
    """The move a logged turn made and whether its returned colours are known (the log keeps the
    arbiter's message, which names them unless a noble's message replaced it)."""
    found = _RETURNED.search(message)
    returns = [c.strip() for c in found.group(1).split(",")] if found else []
    known = len(returns) == returned
    turn = {"tokens": [int(t) for t in tokens.split()], "returns": returns if known else [], "arbiterMsg": ""}
    return rec.move_of_turn(turn), known


def replay_logged(deal: st.Deal, players: int, turns: list[tuple]) -> list[tuple[st.GameState, int, int]] | None:
    """(position, code, seat) of every move a logged game made, replayed on `deal`; None when a turn
    disagrees with the log (the wrong deal). Stops early, keeping what it has, at a turn whose returned
    colours the log does not name."""
    game = st.GameState.new(deal, SplendorConfig(players=players))
    out = []
    for rnd, seat, action, tokens, returned, message, chips, gold, points in turns:
        if game.over or (rnd, seat) != (game.round, game.seat):
            return None
        if action == 0:
            st.apply_pass(game, "")
            continue
        try:
            move, known = _logged_move(tokens, message, returned)
            code = code_of(game, move)
            before = game.copy()
            if not known:
                out.append((before, code, seat))
                return out
            st.apply(game, st.validate_move(game, move))
        except (IllegalMove, BadValue, ValueError):
            return None
        mover = game.players[seat]
        if (sum(mover.chips), mover.chips[5], mover.score) != (chips, gold, points):
            return None
        out.append((before, code, seat))
    return out


def _deals(seed: int, game: int, players: int):
    yield game_deal(seed, game, players)  # cardlab's deals: matches, sweeps, leagues, `judge --deals cardlab`
    if seed != 0:
        yield arbiter_deals(seed, players, game + 1)[game]  # `judge --deals php`


def read_log(con, player: str, matches=None, *, into: Decisions) -> tuple[list[str], int]:
    """Adds every decision of the chosen matches (None: each match where the player sat) to `into`.
    Returns the matches the player's decisions came from and how many games could not be replayed."""
    query = ("SELECT g.match_id, g.bot, g.config, g.options, m.seed, g.game, g.players, g.cand_seat "
             "FROM stg_spl_games g JOIN matches m USING (match_id)")
    params = []
    if matches is not None:
        matches = list(matches)
        if not matches:
            return [], 0
        query += f" WHERE g.match_id IN ({', '.join('?' * len(matches))})"
        params = matches
    games = con.execute(query + " ORDER BY g.match_id, g.game", params).fetchall()
    plans = []
    for match_id, bot, config, options, seed, g, players, cand_seat in games:
        names = seat_names(bot, json.loads(config or "{}"), json.loads(options or "{}"), players, g, cand_seat)
        if names is None:
            continue
        plans.append((match_id, seed, g, players, names))
        into.seen.update(names)
    if matches is None:  # every match where the player sat
        wanted = {m for m, _, _, _, names in plans if any(_same_player(n, player) for n in names)}
        plans = [p for p in plans if p[0] in wanted]
    sources, skipped = set(), 0
    for match_id, seed, g, players, names in plans:
        turns = con.execute(
            "SELECT round, seat, action, tokens, returned, message, chips, gold, points FROM stg_spl_turns "
            "WHERE match_id = ? AND game = ? ORDER BY round, seat", [match_id, g]).fetchall()
        found = next(((d, m) for d in _deals(seed, g, players) if (m := replay_logged(d, players, turns))), None)
        if found is None:
            skipped += 1
            continue
        deal, moves = found
        unit = deal_key(deal.decks, deal.nobles)
        for game, code, seat in moves:
            into.add(game, code, names[seat], unit)
            if _same_player(names[seat], player):
                sources.add(match_id)
    return sorted(sources), skipped


def _record_files(files) -> list[Path]:
    out = []
    for path in map(Path, files):
        if path.is_dir():
            found = sorted(path.rglob("game-*.json"))
            if not found:
                raise BadValue(f"{path}: no game-*.json records in this folder; accepted: record files or folders "
                               "holding them (arbiter.php --save, cardlab judge splendor --save)")
            out += found
        else:
            out.append(path)
    return out


def read_records(files, player: str, *, into: Decisions) -> list[str]:
    """Adds every decision of arbiter records (game-NNN.json as `arbiter.php --save` writes them; a folder
    stands for the game-*.json files below it)."""
    sources = []
    for path in _record_files(files):
        try:
            record = rec.load(path)
            states = rec.replay(record)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise BadValue(f"{path}: not a Splendor game record the arbiter writes ({exc}); accepted: "
                           "game-NNN.json files from arbiter.php --save or cardlab judge splendor --save") from None
        names = record["players"]
        into.seen.update(names)
        unit = deal_key(record["decks"], record["nobles"])
        turns = [t for rnd in record["rounds"] for t in rnd]
        for k, turn in enumerate(turns):
            move = rec.move_of_turn(turn)
            if move is None:
                continue
            into.add(states[k], code_of(states[k], move), names[k % len(names)], unit)
            if _same_player(names[k % len(names)], player) and str(path) not in sources:
                sources.append(str(path))
    return sources


# ------------------------------------------------------------------------------- the logit
@dataclass(frozen=True)
class Stacked:
    x: np.ndarray  # all moves' features
    starts: np.ndarray  # first row of each decision
    sizes: np.ndarray
    chosen: np.ndarray  # global row of each played move
    kinds: np.ndarray

    @classmethod
    def of(cls, data: Decisions, mask: np.ndarray) -> "Stacked":
        idx = np.flatnonzero(mask)
        blocks = [data.rows[i] for i in idx]
        sizes = np.array([len(b) for b in blocks], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        x = np.concatenate(blocks) if blocks else np.zeros((0, NUM_FEATURES))
        chosen = starts + np.array([data.chosen[i] for i in idx], dtype=np.int64)
        kinds = np.concatenate([data.kinds[i] for i in idx]) if blocks else np.zeros(0, dtype=np.int64)
        return cls(x, starts, sizes, chosen, kinds)

    def __len__(self) -> int:
        return len(self.sizes)

    def probabilities(self, w: np.ndarray) -> np.ndarray:
        s = self.x @ w
        s = s - np.repeat(np.maximum.reduceat(s, self.starts), self.sizes)
        e = np.exp(s)
        return e / np.repeat(np.add.reduceat(e, self.starts), self.sizes)

    def logloss(self, w: np.ndarray) -> float:
        """Mean negative log-likelihood per decision (nan without decisions)."""
        if not len(self):
            return float("nan")
        return float(-np.log(self.probabilities(w)[self.chosen]).mean())

    def top(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per decision: whether the played move is among the best scored ones, and how many those are."""
        s = self.x @ w
        best = np.repeat(np.maximum.reduceat(s, self.starts), self.sizes)
        tied = s >= best - 1e-9
        return tied[self.chosen], np.add.reduceat(tied.astype(np.int64), self.starts)

    def argmax_logloss(self, w: np.ndarray, hit: float) -> float:
        """Mean negative log-likelihood of playing the best scored move, as a model: `hit` shared among the
        best scored moves, the rest spread evenly over the others (nan without decisions)."""
        if not len(self):
            return float("nan")
        chosen_top, k = self.top(w)
        others = np.maximum(self.sizes - k, 1)
        p = np.where(chosen_top, hit / k, (1 - hit) / others)
        return float(-np.log(np.maximum(p, 1e-12)).mean())

    def uniform_logloss(self) -> float:
        return float(np.log(self.sizes).mean()) if len(self) else float("nan")


def fit_logit(data: Stacked, *, l2: float, prior: np.ndarray | None = None, steps: int = 100) -> np.ndarray:
    """Maximum likelihood by Newton's method with step halving: minimises the total negative
    log-likelihood + l2 / 2 * |w - prior|^2 (strictly convex for l2 > 0)."""
    prior = np.zeros(NUM_FEATURES) if prior is None else prior
    if not len(data):
        return prior.copy()
    # The matrices are NUM_FEATURES wide: BLAS threads cost more than they save (2.5x the CPU, bench.splendor.features)
    with threadpool_limits(limits=1, user_api="blas"):
        return _newton(data, l2=l2, prior=prior, steps=steps)


def _newton(data: Stacked, *, l2: float, prior: np.ndarray, steps: int) -> np.ndarray:
    w = prior.copy()

    def objective(v):
        return len(data) * data.logloss(v) + 0.5 * l2 * float(((v - prior) ** 2).sum())

    current = objective(w)
    for _ in range(steps):
        p = data.probabilities(w)
        grad = data.x.T @ p - data.x[data.chosen].sum(axis=0) + l2 * (w - prior)
        means = np.add.reduceat(p[:, None] * data.x, data.starts)
        hess = (data.x * p[:, None]).T @ data.x - means.T @ means + l2 * np.eye(NUM_FEATURES)
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while t > 1e-6:
            trial = w - t * step
            value = objective(trial)
            if value <= current:
                break
            t /= 2
        else:
            break
        w, previous, current = trial, current, value
        if previous - current < 1e-9 * max(1.0, abs(current)):
            break
    return w


def calibration(data: Stacked, w: np.ndarray, rounds: np.ndarray) -> tuple[Calibration, ...]:
    """Predicted against observed shares of each move kind on held-out decisions, overall and by phase."""
    if not len(data):
        return ()
    p = data.probabilities(w)
    n_kinds = len(KINDS)
    decision_of_row = np.repeat(np.arange(len(data)), data.sizes)
    predicted = np.zeros((len(data), n_kinds))
    np.add.at(predicted, (decision_of_row, data.kinds), p)
    observed = np.zeros((len(data), n_kinds))
    observed[np.arange(len(data)), data.kinds[data.chosen]] = 1.0
    out = []
    for lo, hi, label in ((1, 10**6, "all"), *PHASES):
        rows = (rounds >= lo) & (rounds <= hi)
        if rows.any():
            out.append(Calibration(label, int(rows.sum()),
                                   {k: round(float(predicted[rows, i].mean()), 4) for i, k in enumerate(KINDS)},
                                   {k: round(float(observed[rows, i].mean()), 4) for i, k in enumerate(KINDS)}))
    return tuple(out)


def choose_shrink(data: Decisions, fitted: np.ndarray, population: np.ndarray, seed: int) -> tuple[float, bool, dict]:
    """The pull toward the population that best predicts an inner quarter of the fitted games (by deal) from
    the rest, and whether playing the best scored move predicts them better still than drawing (its share
    of hits taken from the rest): (the pull, argmax, the inner log-loss of each). The held-out games are
    not looked at."""
    inner = np.array([in_heldout(f"inner:{u}", seed, INNER) for u in data.units], dtype=bool)
    train, valid = Stacked.of(data, fitted & ~inner), Stacked.of(data, fitted & inner)
    if not len(train) or not len(valid):
        return SHRINKS[0], False, {}
    fits = {s: fit_logit(train, l2=s, prior=population) for s in SHRINKS}
    losses = {str(s): valid.logloss(w) for s, w in fits.items()}
    shrink = min(SHRINKS, key=lambda s: losses[str(s)])
    hit = min(float(train.top(fits[shrink])[0].mean()), 1 - 0.5 / len(train))  # never certain
    losses["argmax"] = valid.argmax_logloss(fits[shrink], hit)
    return shrink, losses["argmax"] < losses[str(shrink)], losses


def fit_decisions(data: Decisions, player: str, *, seed: int = 1, holdout: float = 0.2,
                  sources: tuple[str, ...] = ()) -> FittedModel:
    """The population and the player's model from collected decisions, with held-out metrics."""
    if not 0.0 <= holdout < 1.0:
        raise BadValue(f"holdout {holdout}: accepted: a share in [0, 1)")
    mine = np.array([_same_player(p, player) for p in data.players], dtype=bool)
    if not mine.any():
        seen = sorted(data.seen | set(data.players))
        raise NotFound(f"no Splendor decisions of {player!r} in the chosen sources; players seen: "
                       + (", ".join(seen[:12]) or "none"))
    held = np.array([in_heldout(u, seed, holdout) for u in data.units], dtype=bool)
    population = fit_logit(Stacked.of(data, ~held), l2=POPULATION_L2)
    shrink, argmax, inner = choose_shrink(data, mine & ~held, population, seed)
    weights = fit_logit(Stacked.of(data, mine & ~held), l2=shrink, prior=population)
    test = Stacked.of(data, mine & held)
    rounds = np.array(data.rounds)[mine & held]
    return FittedModel(
        game=GAME, player=player, method=METHOD,
        params={"features": list(FEATURES), "weights": [float(v) for v in weights],
                "population": [float(v) for v in population], "shrink": shrink, "argmax": argmax,
                "inner_logloss": {k: round(v, 4) for k, v in inner.items()}, "population_l2": POPULATION_L2,
                "population_decisions": int((~held).sum())},
        decisions=int((mine & ~held).sum()), heldout_decisions=len(test),
        heldout_logloss=test.logloss(weights), baseline_logloss=test.logloss(population),
        uniform_logloss=test.uniform_logloss(), sources=tuple(sources), calibration=calibration(test, weights, rounds),
    )


# ------------------------------------------------------------------------------ interface
def fit(con, player: str, *, matches=None, files=(), seed: int = 1, holdout: float = 0.2) -> FittedModel:
    """A model of `player` from the hand log (`matches`, None: every match where the player sat) and
    arbiter records (`files`); see flows/opponents/base.py."""
    data = Decisions()
    sources, _ = read_log(con, player, matches, into=data) if con is not None else ([], 0)
    sources += read_records(files, player, into=data)
    return fit_decisions(data, player, seed=seed, holdout=holdout, sources=tuple(sources))


def seat(params: dict) -> tuple[BotSpec, CloneConfig]:
    """The clone bot playing the fitted weights: drawing from its own seeded stream, or the most likely move
    when the fit chose that (`argmax`; models fitted before it draw)."""
    if list(params.get("features", [])) != list(FEATURES):
        raise BadValue("the model's features are not the clone bot's; accepted: a model fitted by this cardlab "
                       "(refit it with `cardlab fit splendor`)")
    return CLONE, CloneConfig(weights=",".join(repr(float(v)) for v in params["weights"]),
                              argmax=bool(params.get("argmax", False)))
