"""The referee: plays games between agents exactly as the contest's arbiter does.

Per turn: render the seat's stdin, ask the agent, parse its whole stdout with the contest's
integer rules, and either apply the move or pass with the arbiter's message. Games end
after a full round once someone has 15 points, or after round 100. A match rotates seats
after each game; winners share one point per game.

Two ways to deal a match from its seed (``deals``):
- "cardlab" (the default, for sweeps): every game's deal comes from its own (match seed, game
  index) stream, so games replay alone and sweeps share deals;
- "php": the arbiter's own deals, PHP's Mt19937 seeded once per match and drawn on from game to
  game (engine.splendor.php_rng), so ``--seed S`` plays the same match as ``arbiter.php --seed S``.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.core.errors import BadValue
from engine.core.log import ChunkLog
from engine.core.seeds import Purpose, match_key, unit_key
from engine.splendor import state as st
from engine.splendor.agents import Agent, AgentReply
from engine.splendor.events import EVENTS
from engine.splendor.php_rng import arbiter_deals
from engine.splendor.protocol import output_tokens, render_input
from engine.splendor.rules import SplendorConfig


@dataclass(frozen=True)
class TurnLog:
    event: st.TurnEvent
    reply: AgentReply
    chips: tuple[int, ...]  # the mover's chips after the turn
    points: int  # the mover's score after the turn


@dataclass(frozen=True)
class GameResult:
    names: tuple[str, ...]  # in seat order for this game
    deal: st.Deal
    turns: tuple[TurnLog, ...]
    scores: tuple[int, ...]
    cards: tuple[int, ...]  # purchased card counts (the tie-break)
    winners: tuple[int, ...]  # seats; empty when capped with nobody at 15
    rounds: int
    inputs: dict[tuple[int, int], str] = field(default_factory=dict)  # (round, seat 1-based) -> stdin

    def share(self, seat: int) -> float:
        return 1.0 / len(self.winners) if seat in self.winners else 0.0


def game_deal(seed: int, game: int, players: int) -> st.Deal:
    return st.deal_from_key(unit_key(match_key(seed), game, Purpose.DEAL), players)


def bot_key(seed: int, game: int, seat: int) -> int:
    return unit_key(unit_key(match_key(seed), game, Purpose.BOT), seat, Purpose.BOT)


def play_game(
    agents: Sequence[Agent],
    deal: st.Deal,
    *,
    config: SplendorConfig | None = None,
    keep_inputs: bool = False,
    on_turn: Callable[[st.GameState, TurnLog], None] | None = None,
) -> GameResult:
    """One game, agents in seat order. ``on_turn`` sees the state after every turn."""
    config = config or SplendorConfig(players=len(agents))
    if config.players != len(agents):
        raise BadValue(f"config is for {config.players} players, got {len(agents)} agents")
    game = st.GameState.new(deal, config)
    turns, inputs = [], {}
    while not game.over:
        seat, agent = game.seat, agents[game.seat]
        text = render_input(st.observe(game, seat))
        if keep_inputs:
            inputs[(game.round, seat + 1)] = text
        reply = agent.respond(text)
        event = st.play_tokens(game, output_tokens(reply.stdout), name=agent.name)
        mover = game.players[seat]
        log = TurnLog(event, reply, tuple(mover.chips), mover.score)
        turns.append(log)
        if on_turn is not None:
            on_turn(game, log)
    return GameResult(
        names=tuple(a.name for a in agents), deal=deal, turns=tuple(turns), scores=tuple(game.scores()),
        cards=tuple(len(p.cards) for p in game.players), winners=tuple(st.winners(game)),
        rounds=game.round - 1, inputs=inputs,
    )


@dataclass
class Standing:
    """One agent's match totals; ranked by points, then prestige, then fewest games."""

    name: str
    points: float = 0.0  # shared wins
    prestige: int = 0  # sum of final scores
    games: int = 0
    wins: int = 0  # games won outright or shared

    def sort_key(self):
        return (-self.points, -self.prestige, self.games)


@dataclass(frozen=True)
class MatchResult:
    games: tuple[GameResult, ...]
    standings: tuple[Standing, ...]  # ranked
    interrupted: bool = False  # Ctrl-C: `games` holds the games finished before it


def add_game(standings: dict[str, Standing], result: GameResult) -> None:
    for seat, name in enumerate(result.names):
        row = standings.setdefault(name, Standing(name))
        row.points += result.share(seat)
        row.prestige += result.scores[seat]
        row.games += 1
        row.wins += seat in result.winners


DEALS = ("cardlab", "php")


def seat_order(agents: Sequence[Agent], game: int) -> list[Agent]:
    """The arbiter rotates seats after each game: the first seat moves to the end."""
    k = game % len(agents)
    return list(agents[k:]) + list(agents[:k])


def play_match(
    agents: Sequence[Agent],
    *,
    games: int,
    seed: int,
    keep_inputs: bool = False,
    on_game: Callable[[int, GameResult], None] | None = None,
    deal_for: Callable[[int], st.Deal] | None = None,
    deals: str = "cardlab",
) -> MatchResult:
    """N games with seat rotation; every finished game is handed to ``on_game`` at once.
    ``deals``: "cardlab" or "php" (see the module's docstring); ``deal_for`` overrides both."""
    names = [a.name for a in agents]
    if len(set(names)) != len(names):
        raise BadValue(f"agent names must be distinct, got {names}")
    if deals not in DEALS:
        raise BadValue(f"deals {deals!r} is not one of {', '.join(DEALS)}")
    if deal_for is None and deals == "php":
        if seed == 0:
            raise BadValue("seed 0 is not reproducible with PHP deals: the arbiter replaces it by the clock")
        deal_for = arbiter_deals(seed, len(agents), games).__getitem__
    standings = {a.name: Standing(a.name) for a in agents}
    results = []
    interrupted = False
    try:
        for g in range(games):
            seated = seat_order(agents, g)
            for seat, agent in enumerate(seated):
                agent.new_game(bot_key(seed, g, seat))
            deal = deal_for(g) if deal_for else game_deal(seed, g, len(agents))
            result = play_game(seated, deal, keep_inputs=keep_inputs)
            add_game(standings, result)
            results.append(result)
            if on_game is not None:
                on_game(g, result)
    except KeyboardInterrupt:  # the move in progress is killed with its runner; finished games are kept
        interrupted = True
    ranked = sorted(standings.values(), key=Standing.sort_key)
    return MatchResult(tuple(results), tuple(ranked), interrupted)


# -- the workspace's view: a chunk of a match as events (engine/splendor/events.py) ----------

ACTION_PASS = 0


def _turn_rows(rows: dict[str, list], g: int, result: GameResult, cand_seat: int) -> None:
    for log in result.turns:
        event = log.event
        rows["game"].append(g)
        rows["round"].append(event.round)
        rows["seat"].append(event.seat)
        rows["is_candidate"].append(event.seat == cand_seat)
        rows["action"].append(ACTION_PASS if event.move is None else event.move.action)
        rows["card"].append(event.move.card if event.move is not None else 0)
        rows["tokens"].append(" ".join(map(str, event.tokens)))
        rows["returned"].append(len(event.returns))
        rows["noble"].append(event.noble)
        rows["chips"].append(sum(log.chips))
        rows["gold"].append(log.chips[5])
        rows["points"].append(log.points)
        rows["message"].append(event.message)
        rows["cpu_ms"].append(round(log.reply.cpu_seconds * 1000.0, 3))


def _game_row(rows: dict[str, list], g: int, result: GameResult, cand_seat: int) -> None:
    others = [s for i, s in enumerate(result.scores) if i != cand_seat]
    rows["game"].append(g)
    rows["players"].append(len(result.names))
    rows["cand_seat"].append(cand_seat)
    rows["rounds"].append(result.rounds)
    rows["winners"].append(len(result.winners))
    rows["cand_share"].append(result.share(cand_seat))
    rows["cand_points"].append(result.scores[cand_seat])
    rows["cand_cards"].append(result.cards[cand_seat])
    rows["opp_best_points"].append(max(others, default=0))
    rows["passes"].append(sum(1 for t in result.turns if t.event.move is None and t.event.seat == cand_seat))


TURN_COLUMNS = tuple(EVENTS.kinds["turns"])
GAME_COLUMNS = tuple(EVENTS.kinds["games"])


def chunk_log(first: int, games: Sequence[tuple[int, GameResult, int]]) -> ChunkLog:
    """ChunkLog of (game index, result, candidate seat) entries; payoff = the candidate's win share."""
    turns = {c: [] for c in TURN_COLUMNS}
    rows = {c: [] for c in GAME_COLUMNS}
    payoffs = np.zeros(len(games), dtype=np.float64)
    for i, (g, result, cand_seat) in enumerate(games):
        payoffs[i] = result.share(cand_seat)
        _turn_rows(turns, g, result, cand_seat)
        _game_row(rows, g, result, cand_seat)
    stats = {"mean_rounds": float(np.mean(rows["rounds"])) if games else 0.0,
             "mean_points": float(np.mean(rows["cand_points"])) if games else 0.0}
    return ChunkLog(first, payoffs, stats=stats, events=EVENTS.batch(turns=turns, games=rows))


def play_chunk(candidate: Agent, opponents: Sequence[Agent], *, seed: int, first: int, count: int) -> ChunkLog:
    """Games first..first+count-1: the candidate sits at seat g % players, opponents fill the
    other seats in order. Payoff per game = the candidate's win share (1/#winners or 0)."""
    players = 1 + len(opponents)
    games = []
    for g in range(first, first + count):
        cand_seat = g % players
        seated = list(opponents)
        seated.insert(cand_seat, candidate)
        for seat, agent in enumerate(seated):
            agent.new_game(bot_key(seed, g, seat))
        games.append((g, play_game(seated, game_deal(seed, g, players)), cand_seat))
    return chunk_log(first, games)


def match_chunk(match: MatchResult, candidate: str) -> ChunkLog:
    """A whole match as one chunk, seen from the named agent (e.g. to log a judged match)."""
    return chunk_log(0, [(g, r, r.names.index(candidate)) for g, r in enumerate(match.games)])
