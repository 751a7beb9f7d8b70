"""Tournaments as the contest ran them (docs/rules/splendor.md#matches-and-tournaments).

Two players: a round robin by the circle method (a bye when the count is odd); one seed
per round gives every pairing of that round the same deals; seats flip on even rounds.
Three or four players: every combination of agents plays a match, with seat orders and the
match order shuffled and a seed per match. Scoring is the match scoring summed.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.core.errors import BadValue
from engine.core.seeds import Purpose, generator, match_key, unit_key
from engine.splendor import state as st
from engine.splendor.agents import Agent
from engine.splendor.judge import GameResult, MatchResult, Standing, add_game, play_match


@dataclass(frozen=True)
class TournamentResult:
    matches: tuple[tuple[tuple[str, ...], MatchResult], ...]  # (agent names in first-game seat order, result)
    standings: tuple[Standing, ...]

    def games(self) -> list[GameResult]:
        return [g for _, m in self.matches for g in m.games]


def circle_rounds(count: int) -> list[list[tuple[int, int]]]:
    """Round-robin pairings of 0..count-1 by the circle method; index ``count`` is a bye."""
    slots = list(range(count + count % 2))
    rounds = []
    for _ in range(len(slots) - 1):
        half = len(slots) // 2
        pairs = [(slots[i], slots[-1 - i]) for i in range(half)]
        rounds.append([(a, b) for a, b in pairs if a < count and b < count])
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


def _deals(key: int, players: int) -> Callable[[int], st.Deal]:
    return lambda g: st.deal_from_key(unit_key(key, g, Purpose.DEAL), players)


def _ranked(standings: dict[str, Standing]) -> tuple[Standing, ...]:
    return tuple(sorted(standings.values(), key=Standing.sort_key))


def _play(seated, deals, *, games, seed, standings, matches, on_match) -> None:
    result = play_match(seated, games=games, seed=seed, deal_for=deals)
    for game in result.games:
        add_game(standings, game)
    names = tuple(x.name for x in seated)
    matches.append((names, result))
    if on_match is not None:
        on_match(names, result)


def tournament2(agents: Sequence[Agent], *, games: int, seed: int,
                on_match: Callable[[tuple[str, ...], MatchResult], None] | None = None) -> TournamentResult:
    key = match_key(seed)
    standings = {a.name: Standing(a.name) for a in agents}
    matches = []
    for r, pairs in enumerate(circle_rounds(len(agents)), start=1):
        round_key = unit_key(key, r, Purpose.DEAL)
        for a, b in pairs:
            seated = [agents[b], agents[a]] if r % 2 == 0 else [agents[a], agents[b]]
            _play(seated, _deals(round_key, 2), games=games, seed=seed, standings=standings, matches=matches,
                  on_match=on_match)
    return TournamentResult(tuple(matches), _ranked(standings))


def tournament34(agents: Sequence[Agent], *, table_size: int, games: int, seed: int,
                 on_match: Callable[[tuple[str, ...], MatchResult], None] | None = None) -> TournamentResult:
    if table_size not in (3, 4) or len(agents) < table_size:
        raise BadValue(f"table size must be 3 or 4 and at most the {len(agents)} agents")
    key = match_key(seed)
    shuffler = generator(unit_key(key, 0, Purpose.SEATS))
    tables = [list(c) for c in combinations(range(len(agents)), table_size)]
    for table in tables:
        shuffler.shuffle(table)
    shuffler.shuffle(tables)
    standings = {a.name: Standing(a.name) for a in agents}
    matches = []
    for m, table in enumerate(tables):
        _play([agents[i] for i in table], _deals(unit_key(key, m, Purpose.DEAL), table_size), games=games,
              seed=seed, standings=standings, matches=matches, on_match=on_match)
    return TournamentResult(tuple(matches), _ranked(standings))
