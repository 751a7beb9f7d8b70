"""CodinGame Hold'em in the workspace: whole games in duplicate format.

unit = one game; payoff = the primary bot's finish score (players - position) / (players - 1):
1 for first place, 0 for last (mean finishing position = players - payoff * (players - 1)).
Unit u plays deal u // players with the seats rotated u % players, so each bot of the
line-up sits in every seat on the same cards. Options: players (2-4) and the opponents
(bot names with default configs, '/'-separated, cycled to fill the table).
"""

from dataclasses import dataclass

from bots.cg_holdem import BOTS
from engine.cg_holdem import judge
from engine.cg_holdem.rules import MAX_PLAYERS, MIN_PLAYERS
from flows.games.base import GameAdapter


@dataclass(frozen=True)
class MatchOptions:
    players: int = 4
    opponents: str = "montecarlo/pushfold/station"

    def __post_init__(self):
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {self.players}")
        names = self.opponent_names()
        unknown = [n for n in names if n not in BOTS]
        if not names or unknown:
            raise ValueError(f"opponents {self.opponents!r}: unknown {unknown}; accepted: {', '.join(sorted(BOTS))}")

    def opponent_names(self) -> list[str]:
        return [n for n in self.opponents.split("/") if n]


def lineup(spec, config, options: MatchOptions):
    """(bot factories, names): the primary bot first, then the opponents cycled."""
    others = options.opponent_names()
    chosen = [others[i % len(others)] for i in range(options.players - 1)]
    makers = [lambda: spec.make(config)] + [BOTS[name].make for name in chosen]
    return makers, [spec.name] + chosen


def play_chunk(spec, config, *, seed: int, first: int, count: int, options: MatchOptions | None = None):
    makers, names = lineup(spec, config, options or MatchOptions())
    return judge.play_chunk(makers, seed=seed, first=first, count=count, names=names)


ADAPTER = GameAdapter(
    name="cg-holdem",
    title="CodinGame Hold'em (Poker, 2-4 players): whole games, duplicate seating",
    unit="game",
    bots=BOTS,
    default_bot="aggressive",
    play_chunk=play_chunk,
    sql_file="cg_holdem.sql",
    options_type=MatchOptions,
    default_grid={"bet_respect": ("0.25", "0.4"), "push_below_bb": ("8", "12")},
    default_units=48,
    payoff_label="finish score (1 first, 0 last)",
)
