"""A game's workspace play from its contract game alone, through the one referee loop.

A game that states its rules as a contract game (engine/core/contract.py) and its program protocol
as a line protocol (engine/core/seats.py) gets, from these builders, everything a GameSpec needs to
be matched, swept, judged and leagued: no loop of its own.

    SPEC = GameSpec(..., play_chunk=bot_chunks(GAME), play_program=program_chunks(GAME, LINES, rule=RULE),
                    league=house_league(default_units=200))

Every unit's events are recorded (the hand log's referee_events table), so replays and analyses
read back what happened instead of each game packing its own rows.
"""

from dataclasses import dataclass

from bots.program import ProgramConfig
from engine.core.errors import UserError
from engine.core.referee import play_match, play_units
from engine.core.seats import BadOutputRule, BotSeat, ProgramLimits, ProgramSeat
from flows.games.base import PROGRAM, LeagueRules


class MatchEnded(UserError):
    """A program ended the match (crash, limit): the contest stops there; the message says why."""


@dataclass(frozen=True)
class _BotChunks:
    game: object

    def __call__(self, spec, config, *, seed: int, first: int, count: int, options=None):
        seats = [BotSeat(spec.make(config))] + [BotSeat(spec.make(config)) for _ in range(self.game.seats - 1)]
        return play_units(self.game, seats, seed=seed, first=first, count=count, record_events=True,
                          record_faults=True)


def bot_chunks(game):
    """play_chunk for a GameSpec: the configured bot in every seat of `game` (a one-seat game against
    the house: the bot alone), every event recorded. Picklable, so Dask workers can run it."""
    return _BotChunks(game)


@dataclass(frozen=True)
class _ProgramChunks:
    game: object
    protocol: object
    rule: BadOutputRule
    limits: ProgramLimits

    def match(self, config: ProgramConfig, *, seed: int, first: int, count: int, on_unit=None,
              keep_on_interrupt: bool = False):
        """The program's units as the referee played them, faults and seat reports included (MatchPlay);
        `on_unit` and `keep_on_interrupt` as engine.core.referee.play_match takes them (a judged match)."""
        if self.game.seats != 1:
            raise UserError(f"{self.game.name}: program play here seats one program; the game has {self.game.seats}")
        seat = ProgramSeat(config.argv(), self.protocol, rule=self.rule, limits=self.limits, env=config.env())
        return play_match(self.game, [seat], seed=seed, first=first, count=count, record_events=True,
                          record_faults=True, on_unit=on_unit, keep_on_interrupt=keep_on_interrupt)

    def __call__(self, config: ProgramConfig, *, seed: int, first: int, count: int, options=None):
        played = self.match(config, seed=seed, first=first, count=count)
        if played.ended:  # a chunk is all or nothing, as the contest judges stop a match at a crash
            raise MatchEnded(f"the program ended the match after {played.log.count} of {count} units: "
                             f"{ended_reason(played)}")
        return played.log


def ended_reason(played) -> str:
    last = played.faults[-1] if played.faults else None
    return f"{last.kind}: {last.reason}" if last else "no reason recorded"


def program_chunks(game, protocol, *, rule: BadOutputRule = BadOutputRule(), limits: ProgramLimits = ProgramLimits()):
    """play_program for a GameSpec: a user's program in the one seat of `game`, through the runner,
    speaking `protocol`, with the game's bad-output rule and limits."""
    return _ProgramChunks(game, protocol, rule, limits)


def _house_league_game(league, plan):
    from flows import games

    spec = games.get(league.game)
    rules = spec.league
    units = league.option(rules.units_option, rules.default_units)
    played = spec.play_program.match(ProgramConfig(plan.seats[0].command), seed=plan.seed, first=0, count=units)
    cpu = played.reports[0].process.cpu_seconds if played.reports[0].process else None
    fault = f"ended the match: {ended_reason(played)}" if played.ended else ""
    # units the program did not play count 0, as a contest scores a match it stopped
    return [float(played.log.payoffs.sum()) / units], [1], [fault], [cpu], played.log


def house_league(*, default_units: int) -> LeagueRules:
    """League rules for a one-seat game against the house played by program_chunks: each entrant's
    program plays `units` units of the round's deal (option `units`); ranked by mean payoff per unit,
    paired on seeds. Units a program did not play (it ended its match) count 0; the reason is its fault."""
    return LeagueRules(play=_house_league_game, units_option="units", default_units=default_units,
                       options={"units": int}, entrants=(PROGRAM,))
