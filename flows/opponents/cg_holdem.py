"""CodinGame Hold'em opponent models: a per-situation action model of one player from logged games.

Every logged game is replayed through the referee (its seed and the logged actions), so each
decision is seen exactly as the player saw it, and described by bots.cg_holdem.clone.situation.
The model is a population estimate shared by every seat in the data, plus the player's deviation
from it: at each level (street|facing, + the line of the hand so far, + strength, + made hand, + opponents,
stack depth and who raised last; bots.cg_holdem.clone.levels) the player's counts are smoothed toward
the population's chances at that level scaled by the player's deviation one level up, so a player seen
rarely in a situation plays like the field there, tilted the way it differs from the field around it.
Whether the line and the made hand are used, and where, is chosen per player and street|facing by
cross-validation (`_orders`). Raise sizes are the player's own, kept by opening or raising, the line,
made hand and strength where it raised often enough (bots.cg_holdem.clone.size_keys).
"""

import hashlib
import json
import math
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from bots.cg_holdem.clone import (
    CLASSES,
    CLONE,
    LINE,
    MADE_ORDERS,
    ORDERS,
    RAISE,
    UNSHOWN,
    CloneConfig,
    Line,
    action_class,
    all_situations,
    legal_classes,
    levels,
    raise_fraction,
    restricted,
    shown,
    situation,
    size_keys,
    spot,
    street_of,
)
from bots.cg_holdem.strategies import View
from engine.cg_holdem.judge import setup_for, turn_for
from engine.cg_holdem.phh_read import read_file, replay
from engine.cg_holdem.rules import GameConfig
from engine.cg_holdem.state import Game
from engine.core.errors import NotFound
from engine.core.histories import digest_of
from flows.histories import expand
from flows.opponents.base import Calibration, FittedModel

METHOD = "population+deviation"
PLAYER_WEIGHT = 4.0  # pseudo-decisions of the prior behind a player's estimate in one situation
POPULATION_WEIGHT = 2.0  # the same for the population, toward its coarser level
MADE_MARGIN = 2.0  # nats over a street|facing's fitted decisions a part (made hand, line) must save to be used there
MARGIN_PER_ROOT = 0.1  # and this many more per square root of them: the folds' noise grows with their number
FOLDS = 4  # the fitted games' folds on which the made hand's place among the levels is chosen
SIZES_KEPT = 101  # a player's raise sizes as this many quantiles (the draw keeps their spread)
MIN_OWN_SIZES = 5  # fewer own raises than this: the population's sizes
LEVELS = 5  # the most backoff levels a situation has (bots.cg_holdem.clone.levels)


@dataclass(frozen=True)
class Decision:
    player: bool  # the modelled player's decision (else another seat's: population only)
    heldout: bool
    key: str
    cls: int  # index in CLASSES
    legal: tuple[bool, ...]
    preflop: bool
    size: float | None  # raise fraction for a raise
    deal: str = field(default="", compare=False)  # the game or hand it came from (for the model's data digest)


def _matches(con, player: str, matches) -> list[str]:
    if matches:
        return list(matches)
    rows = con.execute("SELECT DISTINCT match_id FROM cgh_seats WHERE bot = ? OR split_part(bot, '@', 1) = ? "
                       "ORDER BY match_id", [player, player]).fetchall()
    return [r[0] for r in rows]


def _heldout(key: str, seed: int, share: float) -> bool:
    """Whether a game's (or a history's hand's) decisions are held out. A logged game is keyed by its
    deal seed and unit, not its match id (new each time a match is logged), so the same games logged
    again split, and fit, the same way; a hand of a PHH file by the file's content and the hand's
    place in it, so a copy of the file splits the same way."""
    digest = hashlib.sha256(f"{seed}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < share


def _folds(rows: list[Decision]) -> list[int]:
    """Each decision's fold among FOLDS, from what it is and how many equal ones came before it, not
    where it was read: the same decisions from the hand log or from PHH files, in any order, fall in
    the same folds (equal decisions are interchangeable), so both choose the same levels."""
    seen: dict[Decision, int] = defaultdict(int)
    out = []
    for d in rows:
        text = f"{d.player}:{d.key}:{d.cls}:{d.legal}:{d.size}:{seen[d]}"
        seen[d] += 1
        out.append(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") * FOLDS >> 64)
    return out


def is_player(name: str | None, player: str) -> bool:
    """A seat's name is the player's: the name, or NAME@VERSION of it."""
    return name is not None and (name == player or name.split("@")[0] == player)


def logged_games(con, match_id: str):
    """Each logged game of a match: (unit, game seed, a fresh Game from it, {seat: name}, its logged
    actions in order as (seat, action, chips)), for replaying through the referee."""
    names: dict[tuple[int, int], str] = {
        (u, s): b for u, s, b in con.execute("SELECT unit, seat, bot FROM cgh_seats WHERE match_id = ?",
                                             [match_id]).fetchall()}
    acts: dict[int, list] = defaultdict(list)
    for unit, seat, action, chips in con.execute(
            "SELECT unit, seat, action, chips FROM cgh_actions WHERE match_id = ? ORDER BY unit, hand, round",
            [match_id]).fetchall():
        acts[unit].append((seat, action, chips))
    for unit, game_seed, players in con.execute(
            "SELECT unit, game_seed, players FROM cgh_games WHERE match_id = ? ORDER BY unit", [match_id]).fetchall():
        yield (unit, game_seed, Game(GameConfig(players=players), game_seed),
               {s: names.get((unit, s)) for s in range(players)}, acts[unit])


def replayed(game: Game, actions):
    """Play logged (seat, action, chips) on `game`, yielding each just before it is played; a log the
    referee does not reproduce stops where it disagrees (what agreed is kept)."""
    for seat, action, chips in actions:
        if game.over or game.to_act != seat:
            return
        yield seat, action, chips
        kind, _, amount = action.partition("_")
        game.play(kind, int(amount) if amount else 0)


def decisions(con, player: str, match_ids: list[str], *, seed: int = 1, holdout: float = 0.2):
    """Every decision of every seat in the matches, replayed; and the number of games replayed."""
    out: list[Decision] = []
    count = 0
    for match_id in match_ids:
        for unit, game_seed, game, names, actions in logged_games(con, match_id):
            mine = {s for s, name in names.items() if is_player(name, player)}
            deal = f"{game_seed}:{unit}"
            out += _replay(game, actions, mine, deal, _heldout(deal, seed, holdout))
            count += 1
    return out, count


def _replay(game: Game, actions, mine: set[int], deal: str, held: bool) -> list[Decision]:
    found = []
    for seat, action, chips in replayed(game, actions):
        view = View(setup_for(game, seat), turn_for(game, seat, game.round, len(game.showdowns)),
                    {s for s in range(game.n) if game.folded[s]})
        line = Line()
        for _, s, text, _, street in game.actions:  # this hand's
            line.add(game.hand_nb, s, street, text)
        decision = _decision(view, action, chips, line, seat in mine, deal, held)
        if decision is not None:
            found.append(decision)
    return found


def _decision(view: View, action: str, chips: int, line: Line, mine: bool, deal: str,
              held: bool) -> Decision | None:
    """One played action (the referee's word and the chips it added) as a decision; None for a timeout."""
    cls = action_class(action, chips, view.call)
    if cls is None:
        return None
    legal = list(legal_classes(view))
    index = CLASSES.index(cls)
    legal[index] = True  # what was played was possible, whatever the list said
    size = raise_fraction(view, chips) if cls == RAISE else None
    return Decision(mine, held, situation(view, line), index, tuple(legal), view.preflop, size, deal)


def file_decisions(player: str, paths, *, seed: int = 1, holdout: float = 0.2) -> tuple[list[Decision], set[str]]:
    """Every decision of every seat in PHH files (engine.cg_holdem.phh_read), held out by hand; and
    the player names the files hold. A seat is the player when its name in the hand's `players` is."""
    out: list[Decision] = []
    names: set[str] = set()
    for path in paths:
        for hand in read_file(path):
            names.update(hand.names or ())
            mine = {i for i, name in enumerate(hand.names or ()) if is_player(name, player)}
            held = _heldout(hand.identity, seed, holdout)
            line = Line()
            for step in replay(hand):
                if step.asked:  # a check nobody could bet against is no decision (the referee does not ask)
                    decision = _decision(View(step.setup, step.turn, step.folded, step.bb), step.text, step.chips,
                                         line, step.seat in mine, hand.identity, held)
                    if decision is not None:
                        out.append(decision)
                line.add(step.turn.hand, step.seat, street_of(step.turn.board), step.text)
    return out, names


def _order(made_order: str | dict, key: str) -> str:
    """A street|facing's order of the levels (a dict of them; one order for all)."""
    return made_order if isinstance(made_order, str) else made_order.get(spot(key), ORDERS[0])


def _counts(rows: list[Decision], made_order: str | dict) -> list[dict]:
    found = [defaultdict(lambda: np.zeros(len(CLASSES))) for _ in range(LEVELS)]
    for d in rows:
        keys = levels(d.key, _order(made_order, d.key))
        for level, key in zip(found, keys if shown(d.key) else [k for k in keys if UNSHOWN not in k], strict=False):
            level[key][d.cls] += 1  # cards never shown: counted where strength is not part of the situation
    return found


def _smoothed(counts: np.ndarray | None, prior: np.ndarray, weight: float) -> np.ndarray:
    n = np.zeros(len(CLASSES)) if counts is None else counts
    return (n + weight * prior) / (n.sum() + weight)


def tables(population: list[Decision], own: list[Decision], made_order: str | dict = LINE + "first",
           keys=None) -> tuple[dict, dict]:
    """(player chances, population chances) for every situation (or only `keys`)."""
    uniform = np.full(len(CLASSES), 1.0 / len(CLASSES))
    pop_levels, own_levels = _counts(population, made_order), _counts(own, made_order)
    player, pop = {}, {}
    cache: dict[tuple[int, str], tuple[np.ndarray, np.ndarray]] = {}

    def level(i: int, key: str, parents: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        if (i, key) in cache:
            return cache[(i, key)]
        if i == 0:
            p = _smoothed(pop_levels[0].get(key), uniform, POPULATION_WEIGHT)
            q = _smoothed(own_levels[0].get(key), p, PLAYER_WEIGHT)
        else:
            up_p, up_q = level(i - 1, parents[i - 1], parents)
            p = _smoothed(pop_levels[i].get(key), up_p, POPULATION_WEIGHT)
            tilted = p * up_q / up_p  # the population here, tilted by the player's deviation one level up
            q = _smoothed(own_levels[i].get(key), tilted / tilted.sum(), PLAYER_WEIGHT)
        cache[(i, key)] = (p, q)
        return p, q

    for key in all_situations() if keys is None else keys:
        chain = levels(key, _order(made_order, key))
        p, q = level(len(chain) - 1, chain[-1], chain)
        pop[key], player[key] = p, q
    return player, pop


def _sizes(rows: list[Decision]) -> dict[str, list[float]]:
    """Raise sizes under every key of `size_keys` (the cards' parts only where the cards were shown)."""
    by: dict[str, list[float]] = defaultdict(list)
    for d in rows:
        if d.size is not None:
            for k in size_keys(d.key) if shown(d.key) else [k for k in size_keys(d.key) if UNSHOWN not in k]:
                by[k].append(d.size)
    return {k: _quantiles(v) for k, v in by.items()}


def _quantiles(sizes: list[float]) -> list[float]:
    found = sorted(sizes)
    if len(found) <= SIZES_KEPT:
        return [round(x, 4) for x in found]
    return [round(found[round(i * (len(found) - 1) / (SIZES_KEPT - 1))], 4) for i in range(SIZES_KEPT)]


def _logloss(rows: list[Decision], probs: dict) -> float:
    if not rows:
        return math.nan
    return -sum(math.log(max(restricted(probs[d.key], d.legal)[d.cls], 1e-12)) for d in rows) / len(rows)


def _calibration(rows: list[Decision], probs: dict) -> tuple[Calibration, ...]:
    by: dict[str, list[Decision]] = defaultdict(list)
    for d in rows:
        by[spot(d.key)].append(d)
    out = []
    for key, group in sorted(by.items()):
        predicted = np.mean([restricted(probs[d.key], d.legal) for d in group], axis=0)
        observed = np.bincount([d.cls for d in group], minlength=len(CLASSES)) / len(group)
        street, facing = key.split("|")
        faced = "no bet to call" if facing == "0" else f"facing a bet (pot-odds band {facing} of 3)"
        out.append(Calibration(f"street {street}, {faced}",
                               len(group), {c: round(float(x), 4) for c, x in zip(CLASSES, predicted, strict=True)},
                               {c: round(float(x), 4) for c, x in zip(CLASSES, observed, strict=True)}))
    return tuple(out)


def _orders(population: list[Decision]) -> dict[str, str]:
    """The levels' order (bots.cg_holdem.clone.levels) per street|facing of this player: whether the
    line is used and where the made hand enters, the order that predicts its decisions there best
    across FOLDS folds of the fitted games (each fold predicted by a fit on the others; the player's
    decisions are among the population's). Where a player's actions follow its made hand or its line
    it gains from them; where they follow equity, the split costs data, so they are left out. Each
    part is used only where it saves MADE_MARGIN nats plus MARGIN_PER_ROOT per square root of the
    decisions scored there, so a small gain by chance keeps the model without it; ties keep the
    earlier order. Preflop has no made hand: only the line is chosen."""
    losses: dict[str, dict[str, float]] = defaultdict(lambda: dict.fromkeys(ORDERS, 0.0))
    scored_in: dict[str, int] = defaultdict(int)
    folds = _folds(population)
    for fold in range(FOLDS):
        tested = [d for d, f in zip(population, folds, strict=True) if f == fold and d.player and shown(d.key)]
        if not tested:
            continue
        rest_pop = [d for d, f in zip(population, folds, strict=True) if f != fold]
        rest_own = [d for d in rest_pop if d.player]
        for d in tested:
            scored_in[spot(d.key)] += 1
        for order in ORDERS:
            scored = [d for d in tested if not d.preflop or order.endswith(MADE_ORDERS[0])]
            probs = tables(rest_pop, rest_own, order, keys={d.key for d in scored})[0]
            for d in scored:
                losses[spot(d.key)][order] -= math.log(max(restricted(probs[d.key], d.legal)[d.cls], 1e-12))
    parts = {order: order.startswith(LINE) + (not order.endswith(MADE_ORDERS[0])) for order in ORDERS}
    return {group: min((o for o in ORDERS if group[0] != "0" or o.endswith(MADE_ORDERS[0])),
                       key=lambda o: by[o] + parts[o] * (MADE_MARGIN + MARGIN_PER_ROOT * math.sqrt(scored_in[group])))
            for group, by in sorted(losses.items())}


def data_digest(rows: list[Decision]) -> str:
    """What the fit read, whatever the match ids: every decision with its deal, in a fixed order (the fit
    depends on them as a set), so the same games logged again under new match ids keep it."""
    lines = sorted(f"{d.deal}:{d.player:d}:{d.heldout:d}:{d.key}:{d.cls}:{d.legal}:{d.size}" for d in rows)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def fit(con, player: str, *, matches=None, files=(), seed: int = 1, holdout: float = 0.2) -> FittedModel:
    """From the hand log (`matches`; None: every match where the player sat) and PHH `files` (files,
    folders, or `imported`: flows.histories); with files and no matches, from the files alone."""
    # one copy of each content, in the order of their hashes: the same histories are the same sources wherever kept
    paths = [p for _, p in sorted({digest_of(p.read_bytes()): p for p in expand(files)}.items())]
    match_ids = [] if con is None or (files and not matches) else _matches(con, player, matches)
    rows, _ = decisions(con, player, match_ids, seed=seed, holdout=holdout) if match_ids else ([], 0)
    from_files, names = file_decisions(player, paths, seed=seed, holdout=holdout)
    rows += from_files
    own = [d for d in rows if d.player]
    if not own:
        if files:
            raise NotFound(f"no cg-holdem decisions of {player!r} in the {len(paths)} PHH file(s); accepted: a "
                           f"name in their players lists, e.g. {', '.join(sorted(names)[:12]) or '(none named)'}")
        named = [r[0] for r in con.execute("SELECT DISTINCT bot FROM cgh_seats ORDER BY bot LIMIT 12").fetchall()]
        raise NotFound(f"no cg-holdem decisions of {player!r} in the hand log; accepted: a seat's name, e.g. "
                       f"{', '.join(named) or '(no cg-holdem games logged yet)'}")
    fit_pop = [d for d in rows if not d.heldout]
    fit_own = [d for d in own if not d.heldout]
    test = [d for d in own if d.heldout and shown(d.key)]  # scored where the model's situation is known
    made_order = _orders(fit_pop)
    probs, pop = tables(fit_pop, fit_own, made_order)
    pop_sizes, own_sizes = _sizes(fit_pop), _sizes(fit_own)
    # the street groups always (the population's where the player raised too rarely), finer keys where it shows enough
    sizes = {g: s if len(s := own_sizes.get(g, [])) >= MIN_OWN_SIZES else pop_sizes.get(g, []) for g in ("0", "1")}
    sizes |= {k: s for k, s in own_sizes.items() if len(s) >= MIN_OWN_SIZES}
    uniform = {key: [1.0] * len(CLASSES) for key in probs}
    params = {"classes": list(CLASSES), "made_order": made_order,
              "probs": {k: [round(float(x), 6) for x in v] for k, v in probs.items()},
              "sizes": sizes}
    return FittedModel(game="cg-holdem", player=player, method=METHOD, params=params, decisions=len(fit_own),
                       heldout_decisions=len(test), heldout_logloss=_logloss(test, probs),
                       baseline_logloss=_logloss(test, pop), uniform_logloss=_logloss(test, uniform),
                       sources=tuple(match_ids) + tuple(f"phh:{digest_of(p.read_bytes())[:16]}" for p in paths),
                       calibration=_calibration(test, probs), data=data_digest(rows))


def seat(params: dict):
    """The clone bot playing these params (its randomness comes from the seat's per-game key)."""
    return CLONE, CloneConfig(model=json.dumps(params, sort_keys=True))
