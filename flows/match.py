"""Playing a match in chunks: the plain functions under `cardlab match` and the sweep flow."""

import time
from collections.abc import Callable
from dataclasses import dataclass

from bots.base import config_as_dict
from bots.program import ProgramConfig
from engine.core import ending
from engine.core.errors import Unavailable
from engine.core.log import ChunkLog
from flows import events, games
from flows.stats import RunningSummary, Summary
from flows.store import HandLog, new_match_id, to_stderr

DEFAULT_CHUNK = 5000


@dataclass(frozen=True)
class MatchPlan:
    game: str
    bot: str
    overrides: tuple[tuple[str, str], ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    seed: int = 1
    units: int = 10_000
    chunk_size: int = DEFAULT_CHUNK
    program: str = ""  # a user's command line: then `overrides` are its parameters, not a bot's config
    pass_as: str = "args"

    def adapter(self):
        return games.get(self.game)

    def config(self):
        if self.program:
            return ProgramConfig(self.program, tuple(self.overrides), self.pass_as)
        return self.adapter().spec(self.bot).config_from(dict(self.overrides))

    def chunks(self) -> list[tuple[int, int, int]]:
        """(chunk index, first unit, count) covering units 0..units-1."""
        size = max(1, self.chunk_size)
        return [(i, first, min(size, self.units - first)) for i, first in enumerate(range(0, self.units, size))]


@dataclass(frozen=True)
class MatchResult:
    match_id: str
    summary: Summary
    seconds: float

    @property
    def units_per_s(self) -> float:
        return self.summary.n / self.seconds if self.seconds > 0 else float("nan")


class ChunkFailed(Unavailable):
    """A chunk could not be played whole; the message names the config, the chunk and the cause."""


def play_chunk(plan: MatchPlan, first: int, count: int) -> tuple[ChunkLog, float]:
    """Play units first..first+count-1 in this process; deterministic in (seed, unit).

    A chunk is all or nothing: an exception, or fewer units than asked for (a bot that ended
    its match early), raises ChunkFailed, so a part of a chunk is never stored as the whole."""
    adapter = plan.adapter()
    config = plan.config()
    options = adapter.options(dict(plan.options))
    where = (f"{plan.bot} {', '.join(f'{k}={v}' for k, v in plan.overrides) or 'defaults'}, "
             f"chunk {first // max(1, plan.chunk_size)} ({adapter.unit}s {first}-{first + count - 1})")
    started = time.perf_counter()
    try:
        if plan.program:
            log = adapter.play_program(config, seed=plan.seed, first=first, count=count, options=options)
        else:
            log = adapter.play_chunk(adapter.spec(plan.bot), config, seed=plan.seed, first=first, count=count,
                                     options=options)
        log = events.encode(log, adapter)  # here, in the worker that played it: the store takes tables
    except Exception as exc:
        raise ChunkFailed(f"{where}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}") from exc
    if log.first != first or log.count != count:
        raise ChunkFailed(f"{where}: played {log.count} of {count} {adapter.unit}s")
    return log, time.perf_counter() - started


def record_match(store: HandLog, plan: MatchPlan, match_id: str, *, source: str, sweep_id: str | None = None):
    adapter = plan.adapter()
    store.ensure_game(adapter)
    store.begin_match(
        match_id=match_id, game=adapter.name, bot=plan.bot, config=config_as_dict(plan.config()),
        seed=plan.seed, units=plan.units, source=source, options=dict(plan.options), sweep_id=sweep_id,
    )


def run_match(
    plan: MatchPlan,
    store: HandLog | None,
    *,
    match_id: str | None = None,
    source: str = "match",
    progress: Callable[[int], None] | None = None,
) -> MatchResult:
    """Play a whole match chunk by chunk in this process, writing each chunk as it finishes."""
    match_id = match_id or new_match_id()
    if store is not None:
        record_match(store, plan, match_id, source=source)
    running = RunningSummary()
    played = 0.0
    try:
        for chunk, first, count in plan.chunks():
            log, seconds = play_chunk(plan, first, count)
            played += seconds
            running.add(log.payoffs)
            if store is not None:
                # Written here, not on a writer thread: on this 2-core machine the play thread
                # waited about as long as a writer thread worked (GIL hand-offs, a shared core)
                # and the last chunk's write still came at the end (bench store: logging's share
                # for rate_equity ~9-16% on a thread, ~0-6% inline). Sweeps keep BackgroundWriter.
                store.write_chunk(match_id, chunk, log, seconds=seconds)
            if progress is not None:
                progress(count)
    except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM or SIGHUP (engine.core.ending)
        _interrupted(plan, store, match_id, played, exc)
        raise
    if store is not None:
        store.finish_match(match_id, played)
    return MatchResult(match_id, running.result(), played)


def _interrupted(plan: MatchPlan, store: HandLog | None, match_id: str, played: float, exc: BaseException) -> None:
    """Close the match on the whole chunks it stored (the chunk in play is dropped: a chunk is all or
    nothing), so its row claims exactly the units it has, and say so in one line."""
    unit = plan.adapter().unit
    stopped = f"interrupted by {ending.describe(exc)}"
    if store is None:
        to_stderr(f"{stopped}: match {match_id} was not logged (--no-log)")
        return
    kept = store.units_stored(match_id)
    store.finish_match(match_id, played, units=kept, status="interrupted")
    to_stderr(f"{stopped}: match {match_id} keeps the {kept:,} of {plan.units:,} {unit}s played in whole chunks; "
         f"a match has no resume: run the same command again (its --seed replays the same {unit}s)")
