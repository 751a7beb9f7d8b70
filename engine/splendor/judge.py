"""The referee: plays games between agents exactly as the contest's arbiter does.

Per turn: render the seat's stdin, ask the agent, parse its whole stdout with the contest's
integer rules, and either apply the move or pass with the arbiter's message. Games end
after a full round once someone has 15 points, or after round 100. A match rotates seats
after each game; winners share one point per game. Every game's deal comes from
(match seed, game index), so games replay alone and sweeps share deals.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.core.seeds import Purpose, match_key, unit_key
from engine.splendor import state as st
from engine.splendor.agents import Agent, AgentReply
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
        raise ValueError(f"config is for {config.players} players, got {len(agents)} agents")
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


def add_game(standings: dict[str, Standing], result: GameResult) -> None:
    for seat, name in enumerate(result.names):
        row = standings.setdefault(name, Standing(name))
        row.points += result.share(seat)
        row.prestige += result.scores[seat]
        row.games += 1
        row.wins += seat in result.winners


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
) -> MatchResult:
    """N games with seat rotation; every finished game is handed to ``on_game`` at once."""
    names = [a.name for a in agents]
    if len(set(names)) != len(names):
        raise ValueError(f"agent names must be distinct, got {names}")
    standings = {a.name: Standing(a.name) for a in agents}
    results = []
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
    ranked = sorted(standings.values(), key=Standing.sort_key)
    return MatchResult(tuple(results), tuple(ranked))
