"""The nightly regression check of one game.

It replays the game's submitted candidate (the latest bundle submitted, see
flows/submissions.py; the default bot's default config when nothing was submitted) on a
fixed seed and compares every unit's payoff with the previous nightly of the same candidate.
Play is deterministic in (seed, unit), so any difference means the code changed what the
candidate does. Each check is a row of `nightly_checks`; a difference fails the flow run.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from prefect import flow

from bots.base import config_as_dict
from bots.program import PROGRAM_BOT
from flows import games, submissions
from flows.match import MatchPlan, run_match
from flows.store import HandLog, code_version, new_match_id

NIGHTLY_SEED = 1


class RegressionFound(RuntimeError):
    """The candidate played differently from its previous nightly."""


@dataclass(frozen=True)
class Candidate:
    game: str
    key: str  # the submission id, or default:<bot>
    bot: str
    overrides: tuple[tuple[str, str], ...]
    submitted: bool
    note: str = ""  # why the default bot stands in, when it does
    program: str = ""  # a submitted program's command template (its parameters are the overrides)
    pass_as: str = "args"
    program_hash: str = ""  # the program's files when it was submitted (bots.program.program_version)


@dataclass(frozen=True)
class CheckResult:
    check_id: str
    game: str
    candidate: str
    bot: str
    seed: int
    units: int
    match_id: str
    previous_match: str | None
    verdict: str  # baseline (nothing to compare with yet), same or changed
    differing_units: int
    first_diff_unit: int | None
    detail: str

    @property
    def changed(self) -> bool:
        return self.verdict == "changed"

    def describe(self) -> str:
        head = f"nightly {self.game}, candidate {self.candidate} ({self.bot}), seed {self.seed}, {self.units} units"
        return f"{head}: {self.verdict.upper()} - {self.detail}"


def candidate_for(store: HandLog, game: str) -> Candidate:
    adapter = games.get(game)
    submitted = submissions.latest(store.con, adapter.name)
    if submitted is not None and submitted.bot in adapter.bots:
        return Candidate(game=adapter.name, key=submitted.submission_id, bot=submitted.bot,
                         overrides=submitted.overrides(), submitted=True)
    if submitted is not None and submitted.bot == PROGRAM_BOT and adapter.play_program is not None:
        config = submitted.config  # a user's program: replayed as its sweep played it
        return Candidate(game=adapter.name, key=submitted.submission_id, bot=PROGRAM_BOT,
                         overrides=tuple(map(tuple, config["params"])), submitted=True,
                         program=config["template"], pass_as=config["pass_as"],
                         program_hash=config.get("program_hash", ""))
    if submitted is None:
        note = "no submitted candidate (cardlab export / pick --out / demo record one)"
    else:
        note = f"submitted candidate {submitted.submission_id} is {submitted.bot!r}, which the nightly cannot replay"
    bot = adapter.default_bot
    return Candidate(game=adapter.name, key=f"default:{bot}", bot=bot, overrides=(), submitted=False, note=note)


def _previous(store: HandLog, candidate: Candidate, seed: int, units: int) -> tuple[str, str] | None:
    """(match id, config JSON) of the candidate's latest nightly on the same seed and units."""
    rows = store.query(
        "SELECT match_id, config FROM nightly_checks WHERE game = ? AND candidate = ? AND seed = ? AND units = ?"
        " ORDER BY checked_at DESC, check_id DESC LIMIT 1", [candidate.game, candidate.key, seed, units])
    return None if rows.height == 0 else (rows["match_id"][0], rows["config"][0])


def _differences(store: HandLog, match_id: str, previous: str) -> tuple[int, int | None, str]:
    """Units whose payoff differs (or that only one of the two matches has), and the first of them."""
    rows = store.query(
        "SELECT unit, a.payoff AS now, b.payoff AS before"
        " FROM (SELECT unit, payoff FROM units WHERE match_id = ?) a"
        " FULL OUTER JOIN (SELECT unit, payoff FROM units WHERE match_id = ?) b USING (unit)"
        " WHERE a.payoff IS DISTINCT FROM b.payoff ORDER BY unit", [match_id, previous])
    if rows.height == 0:
        return 0, None, ""
    first = rows.row(0, named=True)
    return rows.height, int(first["unit"]), f"unit {first['unit']}: payoff {first['now']} now, {first['before']} before"


PROGRAM_KEYS = {"program_hash": "its files", "folder_hash": "its folder"}  # what a program is (bots.program)


def _config_change(now: str, before: str) -> str:
    new, old = json.loads(now), json.loads(before)
    keys = sorted(k for k in set(new) | set(old) if new.get(k) != old.get(k) and k not in PROGRAM_KEYS)
    return ", ".join(f"{k} {old.get(k)!r} -> {new.get(k)!r}" for k in keys)


def _program_change(now: dict, before: dict) -> str:
    """'the program changed (its files: hash a -> b)' when a program's files or folder hash differ, else ''."""
    changed = [f"{what}: hash {before.get(k) or '?'} -> {now.get(k) or '?'}" for k, what in PROGRAM_KEYS.items()
               if before.get(k) != now.get(k) and (before.get(k) or now.get(k))]
    return f"the program changed ({'; '.join(changed)})" if changed else ""


def run_check(game: str, *, seed: int = NIGHTLY_SEED, units: int | None = None, db: str | None = None,
              say: Callable[[str], None] = print) -> CheckResult:
    """Play the candidate, compare with its previous nightly, record the verdict (plain function)."""
    adapter = games.get(game)
    units = units or adapter.default_units
    with HandLog(db) as store:
        candidate = candidate_for(store, adapter.name)
        if not candidate.submitted:
            say(f"{adapter.name}: {candidate.note}; checking the default bot {candidate.bot} with its default config")
        plan = MatchPlan(game=adapter.name, bot=candidate.bot, overrides=candidate.overrides, seed=seed, units=units,
                         program=candidate.program, pass_as=candidate.pass_as)
        config = json.dumps(config_as_dict(plan.config()), sort_keys=True)
        previous = _previous(store, candidate, seed, units)
        played = run_match(plan, store, source="nightly")
        differing, first, detail = 0, None, "first nightly of this candidate: recorded as the baseline"
        since = _program_change({"program_hash": json.loads(config).get("program_hash")},
                                {"program_hash": candidate.program_hash}) if candidate.program_hash else ""
        if since and previous is None:
            detail += f"; {since} since it was submitted"
        if previous is not None:
            differing, first, unit_detail = _differences(store, played.match_id, previous[0])
            config_detail = _config_change(config, previous[1])
            program = _program_change(json.loads(config), json.loads(previous[1]))
            details = [f"{program}: the likely cause" if program else "",
                       f"config changed: {config_detail}" if config_detail else "",
                       f"{differing} of {units} units differ, first {unit_detail}" if differing else ""]
            detail = "; ".join(d for d in details if d) or f"all {units} units identical to {previous[0]}"
        verdict = "baseline" if previous is None else ("changed" if differing or config != previous[1] else "same")
        result = CheckResult(check_id=new_match_id("n"), game=adapter.name, candidate=candidate.key,
                             bot=candidate.bot, seed=seed, units=units, match_id=played.match_id,
                             previous_match=previous[0] if previous else None, verdict=verdict,
                             differing_units=differing, first_diff_unit=first, detail=detail)
        _record(store, result, config)
    return result


def _record(store: HandLog, result: CheckResult, config: str) -> None:
    store.put("nightly_checks", [{
        "check_id": result.check_id, "game": result.game, "candidate": result.candidate, "bot": result.bot,
        "config": config, "seed": result.seed, "units": result.units, "match_id": result.match_id,
        "previous_match": result.previous_match, "verdict": result.verdict, "differing_units": result.differing_units,
        "first_diff_unit": result.first_diff_unit, "detail": result.detail, "code_version": code_version(),
        "checked_at": datetime.now(UTC).replace(tzinfo=None)}])


@flow(name="cardlab-nightly", validate_parameters=False, log_prints=True)
def nightly_flow(game: str, seed: int = NIGHTLY_SEED, units: int | None = None, db: str | None = None) -> CheckResult:
    """The check as a Prefect flow: a difference raises, so the flow run is marked failed."""
    result = run_check(game, seed=seed, units=units, db=db)
    print(result.describe())
    if result.changed:
        raise RegressionFound(result.describe())
    return result
