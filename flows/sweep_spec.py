"""What a sweep is, checked before it plays: its spec, the checks of a new one and of a resumed one, the
baseline it is measured against. No Prefect or MLflow here, so a bad command is refused in a second or two
(flows.sweep, which runs it, takes seconds to import them)."""

import itertools
import json
from dataclasses import dataclass

from engine.core import settings
from engine.core.errors import BadValue
from flows import games, sweep_record
from flows.match import MatchPlan


@dataclass(frozen=True)
class SweepSpec:
    game: str
    bot: str
    grid: tuple[tuple[str, tuple[str, ...]], ...]  # key -> values, in the order given
    units: int = 20_000  # per config
    seed: int = 1
    chunk_size: int = 5000
    options: tuple[tuple[str, str], ...] = ()
    fixed: tuple[tuple[str, str], ...] = ()  # overrides shared by every config
    sweep_id: str | None = None  # give the id of a crashed sweep to resume it
    program: str = ""  # a user's command line; grid and fixed keys are then its parameters
    pass_as: str = "args"  # how a program gets them: {key} in its command line, or environment variables
    # What the user has now (the bot's defaults, or the submitted bundle's config, as overrides):
    # always one of the sweep's configs, so every sweep says whether anything beats it.
    baseline: tuple[tuple[str, str], ...] | None = None

    def configs(self) -> list[tuple[tuple[str, str], ...]]:
        """The grid's configs (the product of its values, each with the fixed overrides)."""
        keys = [k for k, _ in self.grid]
        combos = itertools.product(*(values for _, values in self.grid)) if self.grid else [()]
        return [tuple(self.fixed) + tuple(zip(keys, combo, strict=True)) for combo in combos]

    def plans(self) -> list[MatchPlan]:
        """One plan per config: the baseline first, unless the grid already holds its config."""
        plans = [self._plan(overrides) for overrides in self.configs()]
        if self.baseline is not None and not self.program:
            base = self._plan(self.baseline)
            if all(plan.config() != base.config() for plan in plans):
                plans.insert(0, base)
        return plans

    def baseline_index(self, plans: list[MatchPlan]) -> int | None:
        if self.baseline is None or self.program:
            return None
        target = self._plan(self.baseline).config()
        return next(i for i, plan in enumerate(plans) if plan.config() == target)

    def _plan(self, overrides: tuple[tuple[str, str], ...]) -> MatchPlan:
        return MatchPlan(game=self.game, bot=self.bot, overrides=overrides, options=self.options, seed=self.seed,
                         units=self.units, chunk_size=self.chunk_size, program=self.program, pass_as=self.pass_as)

    def to_json(self) -> str:
        """Everything that decides which units a sweep plays (the id aside), as stored with it."""
        return json.dumps({"game": self.game, "bot": self.bot, "grid": [[k, list(v)] for k, v in self.grid],
                           "units": self.units, "seed": self.seed, "chunk_size": self.chunk_size,
                           "options": [list(p) for p in self.options], "fixed": [list(p) for p in self.fixed],
                           "program": self.program, "pass_as": self.pass_as,
                           "baseline": None if self.baseline is None else [list(p) for p in self.baseline]},
                          sort_keys=True)

    @classmethod
    def from_stored(cls, doc: dict, sweep_id: str) -> "SweepSpec":
        return cls(game=doc["game"], bot=doc["bot"], grid=tuple((k, tuple(v)) for k, v in doc["grid"]),
                   units=int(doc["units"]), seed=int(doc["seed"]), chunk_size=int(doc["chunk_size"]),
                   options=tuple(tuple(p) for p in doc["options"]), fixed=tuple(tuple(p) for p in doc["fixed"]),
                   sweep_id=sweep_id, program=doc.get("program", ""), pass_as=doc.get("pass_as", "args"),
                   baseline=None if doc.get("baseline") is None else tuple(tuple(p) for p in doc["baseline"]))


# The CLI flag behind each spec field, for refusals a user can act on.
RESUME_FLAGS = {"game": "GAME", "bot": "--bot", "grid": "--grid", "units": "--hands", "seed": "--seed",
                "chunk_size": "--chunk", "options": "--opt", "fixed": "--set", "program": "--program",
                "pass_as": "--pass-as"}


class ResumeRefused(BadValue):
    """--resume was asked for something the stored sweep contradicts."""


def resume_spec(con, sweep_id: str, given: dict, *, retry_failed: bool = False) -> SweepSpec:
    """The stored spec of `sweep_id`; `given` holds the spec fields the user passed explicitly,
    each of which must agree with the stored one (anything else would mix or lose units).
    A complete sweep is resumed only to play its failed configs again (`retry_failed`)."""
    row = sweep_record.find(con, sweep_id)
    if row.spec is None:
        raise ResumeRefused(f"sweep {sweep_id} was recorded before sweeps stored their spec; it cannot be resumed "
                            f"safely: start a new sweep")
    stored = SweepSpec.from_stored(row.spec, sweep_id)
    for field, value in given.items():
        was = getattr(stored, field)
        if was != value:
            raise ResumeRefused(f"sweep {sweep_id} was started with {RESUME_FLAGS[field]} {_shown(was)}, "
                                f"not {_shown(value)}: drop the flag to resume it as it was")
    failed = sweep_record.failures(con, sweep_id)
    _same_program(con, stored)
    if row.finished and _decided(con, sweep_id):  # a decision is final: --retry-failed would be refused too
        also = (f"; its {len(failed)} failed config(s) are not played again once decided: fix them, then start a "
                f"new sweep (the same flags with --until-decided, without --resume)" if failed else "")
        raise ResumeRefused(f"sweep {sweep_id} is decided: nothing to resume (`cardlab report {sweep_id}`){also}")
    if row.finished and not (retry_failed and failed):
        also = (f"; {len(failed)} failed config(s) are played again only with --retry-failed" if failed else "")
        raise ResumeRefused(f"sweep {sweep_id} is complete: nothing to resume (`cardlab report {sweep_id}`){also}")
    return stored


def _decided(con, sweep_id: str) -> bool:
    """Whether the sweep was run until decided (flows.decide stores its rule)."""
    from flows.decide import stored_rule  # flows.decide builds on this module

    return stored_rule(con, sweep_id) is not None


def _same_program(con, spec: SweepSpec) -> None:
    """A program sweep resumes only with the program it played: more chunks of a rebuilt one would mix two
    programs in one config's result."""
    if not spec.program:
        return
    for index, plan in enumerate(spec.plans()):
        match_id = _match_id(spec.sweep_id, index)
        found = con.execute("SELECT config FROM matches WHERE match_id = ?", [match_id]).fetchall()
        was = json.loads(found[0][0]).get("program_hash") if found else None
        now = plan.config().program_hash
        if was and now != was:
            raise ResumeRefused(f"sweep {spec.sweep_id} played the program with hash {was}; it is now "
                                f"{now or 'not found'}: resuming would mix two programs in one result; restore the "
                                f"program, or start a new sweep")


def _shown(value) -> str:
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return " ".join(f"{k}={','.join(v) if isinstance(v, tuple) else v}" for k, v in value)
    return str(value) if value != () else "(none)"


def validate(spec: SweepSpec) -> None:
    """Fail before any work if a game, bot, key or value is wrong (clear one-line errors)."""
    adapter = games.get(spec.game)
    if spec.program and adapter.play_program is None:
        raise BadValue(f"{adapter.name} cannot sweep a program yet; it can sweep its bots: "
                         f"{', '.join(sorted(adapter.bots))}")
    both = sorted({key for key, _ in spec.grid} & {key for key, _ in spec.fixed})
    if both:  # the grid's value would silently replace the --set one
        raise BadValue(f"--grid and --set both give {', '.join(both)}; accepted: each key in one of them (--grid to "
                       f"vary it, --set to hold it)")
    plans = spec.plans()
    configs = [plan.config() for plan in plans]  # a bot's config, or a program's parameters (checked)
    twice = next((i for i, config in enumerate(configs) if config in configs[:i]), None)
    if twice is not None:  # e.g. 0.4 and .4: one config played twice, as two
        shown = ", ".join(f"{k}={v}" for k, v in plans[twice].overrides) or "the defaults"
        raise BadValue(f"--grid: two of the configs are the same ({shown}); accepted: values that differ as the "
                       f"{'program' if spec.program else 'bot'} reads them")
    adapter.options(dict(spec.options))
    if spec.units < 2:
        raise BadValue("a sweep needs at least 2 units per config")


def baseline_for(game: str, bot: str, db: str | None = None) -> tuple[tuple[str, str], ...]:
    """What a sweep of `bot` is measured against: the config of the game's last submitted bundle
    when that bundle is this bot, else the bot's defaults (no overrides)."""
    import duckdb

    from flows import submissions
    from flows.store import read_only

    try:
        con = read_only(db)
    except FileNotFoundError:
        return ()
    try:
        found = submissions.latest(con, game)
    except duckdb.CatalogException:  # a hand log from before submissions were recorded
        found = None
    finally:
        con.close()
    return found.overrides() if found is not None and found.bot == bot else ()


def parse_grid(items: list[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``k=v1,v2`` strings -> ((k, (v1, v2)), ...); values are checked later against the config."""
    return settings.grid(items, "--grid")


def _match_id(sweep_id: str, index: int) -> str:
    return f"{sweep_id}-c{index:02d}"


