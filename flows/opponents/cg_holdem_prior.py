"""The ranged bot's read prior (issue 32): Reads' counts of a field of programs, from logged games.

The arena is a field of fixed programs, and a user logs games against them (`cardlab league`,
`cardlab match`) and fits their models (`cardlab fit cg-holdem`). The ranged bot learns the same
thing within a game from the hands shown at each hand's end (bots/cg_holdem/reads.py, `Reads`), and
starts each game from nothing. This module counts those games the bot's own way: every logged game
is replayed through the referee (its seed and the logged actions) and watched by a ranged bot that
sits at no seat, so each action of the named players is counted by the bot's situation and by the
strength percentile of the hand it turned out to be. The sum over games is `read_prior` (plain JSON,
embedded in the single-file export), where each strength bin is worth at most `read_prior_weight`
shown hands, so the bot's own reads in the game take over.

A fitted model (`model:ID`) names the player and the logged matches it was fitted on, and those games
are counted: its probabilities are over the clone's situations (strength as equity against a random
hand, pot-odds bands), which do not map onto Reads' percentile bins without the games themselves.
"""

import json
from pathlib import Path

from bots.cg_holdem.ranged import RangedBot, RangedConfig
from bots.cg_holdem.reads import (
    BINS,
    CALL_BANDS,
    CALLER_STATS,
    CALLERS,
    PHASES,
    PLAYERS,
    PLAYERS_BY_LIVE,
    SEEN_BY_LIVE,
    SITUATIONS,
    check_prior,
)
from engine.cg_holdem.judge import setup_for
from engine.cg_holdem.state import Game
from engine.core.errors import BadValue, MissingFile, NotFound
from flows.opponents.cg_holdem import is_player, logged_games, replayed

MODEL, LOG = "model:", "log:"
ACCEPTED = "model:ID[+ID...] (fitted models' logged games), log:NAME[+NAME...] (every logged game of those " \
           "players) or a JSON file of counts"


def _empty() -> list[list[float]]:
    return [[0.0] * BINS for _ in range(3)]


def _caller() -> dict:
    return {"calls": [[0, 0] for _ in range(len(CALL_BANDS) + 1)], "seen": {k: [0, 0] for k in CALLER_STATS}}


def _add(into: dict[str, list[list[float]]], counts: dict[str, list[list[float]]]) -> None:
    for key, table in counts.items():
        mine = into.setdefault(key, _empty())
        for k in range(3):
            for b in range(BINS):
                mine[k][b] += table[k][b]


def watch(game: Game, seats: set[int], into: dict[str, list[list[float]]], *, starts: dict | None = None,
          names: dict[int, str] | None = None, callers: dict | None = None, players: dict | None = None,
          by_live: dict | None = None) -> None:
    """Add the seats' actions in a finished (replayed) game to ``into``, counted as the ranged bot counts
    them within a game: the bot watches from no seat, every seat's actions and showdowns in order. With
    ``callers`` (and ``starts``, each hand's stacks before the blinds, and ``names``, each seat's player), also
    each seat's answers to lone first-in all-ins by depth band and its CALLER_STATS counts, per player (call_prior);
    with ``players`` (and ``names``), also each seat's actions in a table of its player's own (seat_prior); with
    ``by_live`` (and ``names``, ``starts``), also the CALLER_STATS counts and the player's own tables split by the
    stacks live at each hand's start (seat_prior_phase): by_live[SEEN_BY_LIVE] and by_live[PLAYERS_BY_LIVE], each
    {phase: {player: ...}}, a player entered in a phase only where its seats acted in it."""
    bot = RangedBot(RangedConfig())
    bot.start(setup_for(game, 0)._replace(me=-1))
    bot.count_calls = callers is not None  # the answers to lone pushes, as a bot with call_prior counts them
    bot.depths = dict(starts or {})  # the seated bot reads them at its first turn of a hand: the same stacks
    if by_live is not None:  # the seated bot counts the stacks live at its first turn of a hand: the same
        bot.lives = {h: sum(1 for x in chips if x > 0) for h, chips in (starts or {}).items()}
        bot.count_phases, bot.phase_reads = True, {}
    shown = list(game.showdowns)
    for _, hand, seat, action, board in game.history:
        while shown and shown[0][0] < hand:  # a hand's cards are shown before the next hand's actions
            bot._learn(shown[0][0], shown.pop(0)[2])
            bot.tables = {}
        bot._observe(hand, seat, action, board, False)
    for line in shown:
        bot._learn(line[0], line[2])
    for s in seats:
        _add(into, bot.reads[s].counts)
        if players is not None and names:
            _add(players.setdefault(names[s], {}), bot.reads[s].counts)
        if callers is not None and names:
            player = callers.setdefault(names[s], _caller())
            for band, (faced, called) in enumerate(bot.calls.get(s, [])):
                player["calls"][band][0] += faced
                player["calls"][band][1] += called
            _add_seen(player["seen"], bot.seen[s])
        if by_live is not None and names:
            for phase, label in enumerate(PHASES):
                seen = bot.seen_by[s][phase]
                if any(seen.n[k] for k in CALLER_STATS):
                    _add_seen(by_live.setdefault(SEEN_BY_LIVE, {}).setdefault(label, {}).setdefault(
                        names[s], {k: [0, 0] for k in CALLER_STATS}), seen)
                if (s, phase) in bot.phase_reads:
                    _add(by_live.setdefault(PLAYERS_BY_LIVE, {}).setdefault(label, {}).setdefault(names[s], {}),
                         bot.phase_reads[s, phase].counts)


def _add_seen(into: dict, seen) -> None:
    """Add a Seen's CALLER_STATS counts to {stat: [n, k]}."""
    for k in CALLER_STATS:
        into[k][0] += seen.n[k]
        into[k][1] += seen.k[k]


def _named(bot: str, players: set[str]) -> bool:
    """A seat's name is one of the players' (the fitter's rule: the name, or NAME@VERSION of it)."""
    return any(is_player(bot, p) for p in players)


def from_log(con, players: set[str], match_ids: list[str] | None = None) -> tuple[dict, int]:
    """(Reads' counts of the players' seats, with CALLERS: each player's answers to lone pushes, and PLAYERS: each
    player's own counts; games replayed) over the matches (None: every match where one of them sat). A log the
    referee does not reproduce is kept up to where it agreed."""
    if match_ids is None:
        rows = con.execute("SELECT DISTINCT match_id, bot FROM cgh_seats ORDER BY match_id").fetchall()
        match_ids = sorted({m for m, bot in rows if _named(bot, players)})
    counts: dict[str, list[list[float]]] = {}
    callers: dict[str, dict] = {}
    own: dict[str, dict] = {}
    by_live: dict[str, dict] = {}
    games = 0
    for match_id in match_ids:
        for _, _, game, names, actions in logged_games(con, match_id):
            seats = {s for s, name in names.items() if _named(name or "", players)}
            if not seats:
                continue
            starts = {}
            for _ in replayed(game, actions):  # to the log's end, or where the referee disagrees
                starts.setdefault(game.hand_nb, game.start_stacks)
            player = {s: min(p for p in players if is_player(names[s] or "", p)) for s in seats}
            watch(game, seats, counts, starts=starts, names=player, callers=callers, players=own, by_live=by_live)
            games += 1
    if callers:
        counts[CALLERS] = callers
    if own:
        counts[PLAYERS] = own
    counts.update(by_live)
    return counts, games


def _tables(counts: dict) -> dict:
    """Action tables to 0.1, situations in Reads' order."""
    return {k: [[round(x, 1) for x in row] for row in counts[k]] for k in SITUATIONS if k in counts}


def text(counts: dict) -> str:
    """The counts as `read_prior` (compact JSON, counts to 0.1, situations in Reads' order, then CALLERS and
    PLAYERS by player, then SEEN_BY_LIVE and PLAYERS_BY_LIVE by phase and player)."""
    out: dict = _tables(counts)
    if counts.get(CALLERS):
        out[CALLERS] = {p: counts[CALLERS][p] for p in sorted(counts[CALLERS])}
    if counts.get(PLAYERS):
        out[PLAYERS] = {p: _tables(counts[PLAYERS][p]) for p in sorted(counts[PLAYERS])}
    if counts.get(SEEN_BY_LIVE):
        out[SEEN_BY_LIVE] = {ph: {p: v[p] for p in sorted(v)} for ph, v in sorted(counts[SEEN_BY_LIVE].items())}
    if counts.get(PLAYERS_BY_LIVE):
        out[PLAYERS_BY_LIVE] = {ph: {p: _tables(v[p]) for p in sorted(v)}
                                for ph, v in sorted(counts[PLAYERS_BY_LIVE].items())}
    return json.dumps(out, separators=(",", ":"))


def resolve(value: str, *, db=None) -> str:
    """A `read_prior` setting as the JSON the bot reads: `model:ID[+ID]`, `log:NAME[+NAME]`, a JSON file of
    counts, or the JSON itself (kept as given, the bot checks it). One line names what was wrong."""
    from flows import opponents
    from flows.store import read_only

    value = value.strip()
    if not value or value.startswith("{"):
        return value
    if value.startswith(MODEL):
        ids = [m.strip().removeprefix(MODEL) for m in value.removeprefix(MODEL).split("+") if m.strip()]
        models = [opponents.load(m) for m in ids]
        for mid, model in zip(ids, models, strict=True):
            if model.game != "cg-holdem":
                raise BadValue(f"read_prior: model {mid!r} is a {model.game} model; accepted: a cg-holdem model")
            if not any(not s.startswith("phh:") for s in model.sources):
                raise BadValue(f"read_prior: model {mid!r} was fitted from PHH files only; accepted: a model "
                               f"fitted from logged games, or log:NAME")
        players = {m.player for m in models}
        matches = sorted({s for m in models for s in m.sources if not s.startswith("phh:")})
    elif value.startswith(LOG):
        players, matches = {p for p in value.removeprefix(LOG).split("+") if p}, None
    else:
        path = Path(value)
        if not path.is_file():
            raise MissingFile(f"read_prior: no file {value!r}; accepted: {ACCEPTED}")
        found = path.read_text().strip()
        why = check_prior(found)
        if why:
            raise BadValue(f"read_prior: {value}: {why}")
        return found
    if not players:
        raise BadValue(f"read_prior {value!r}: no name; accepted: {ACCEPTED}")
    con = read_only(db)
    try:
        counts, games = from_log(con, players, matches)
    finally:
        con.close()
    if not games:
        raise NotFound(f"read_prior {value!r}: no logged cg-holdem game of {', '.join(sorted(players))} in the hand "
                       f"log; accepted: {ACCEPTED}")
    return text(counts)


def resolve_settings(items: list[str], *, db=None) -> list[str]:
    """`--set` items with any `read_prior=...` resolved to its JSON (the rest as given)."""
    out = []
    for item in items:
        key, sep, value = item.partition("=")
        out.append(f"read_prior={resolve(value, db=db)}" if sep and key.strip() == "read_prior" else item)
    return out
