"""Sweeps that stop when the decision is made (`cardlab sweep GAME --until-decided`).

Two phases, on disjoint deals, each played in chunks over the task runner (a killed sweep resumes:
every look is a function of the stored units, so a resumed sweep takes the same path):

1. selection: the grid's configs race on the sweep's deals (seed S, units 0, 1, ...); after each
   chunk a config stops when another one beats it by an anytime-valid bound (engine.core.stats.
   race_losers), and a challenger stops when the same bounds put it less than d1 above the baseline
   (not worth switching for). The race ends when at most one challenger is left, or at the cap.
2. confirmation: the chosen challenger against the baseline on fresh deals (a seed derived from S
   for this purpose alone), a sequential probability ratio test (engine.core.stats.Sprt) until it
   accepts H1 (switch) or H0 (keep), or the cap (undecided). The reported difference and interval
   are the confirmation's, never the selection's (no winner's curse).

Every look goes to the hand log (decision_looks), the decision with the deals each phase used to
`decisions`, the LLR path to the sweep's MLflow parent run.
"""

import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime

import numpy as np
from prefect import flow, get_run_logger
from prefect.states import Failed

from engine.core.errors import BadValue
from engine.core.seeds import CONFIRM_SEEDS
from flows import games, sweep_record, tracking
from flows.games.base import SQL_DIR, takes_keyword
from flows.match import MatchPlan, record_match
from flows.settings import worker_count
from flows.stats import (
    LuckCheck,
    PairedLook,
    Sprt,
    confidence_sequence,
    luck_check,
    mean_interval,
    paired_look,
    race_losers,
)
from flows.store import HandLog, new_match_id, to_stderr
from flows.sweep import (
    TRIES,
    SweepFailed,
    SweepSpec,
    _config_runs,
    _match_id,
    _play_jobs,
    failed_attempts,
    reopen_failed,
)

DECISIONS_SQL = SQL_DIR / "decisions.sql"
CONFIRM_TAG = 0x636F6E6669726D  # "confirm": the confirmation seed's own stream of the sweep seed


@dataclass(frozen=True)
class GameDefaults:
    """What a user need not know to start: the smallest difference worth switching for (d1, in the
    game's unit), the chunk a look comes after, the first look, and the payoff's range if bounded."""

    d1: float
    batch: int
    first_look: int
    bounds: tuple[float, float] | None = None


def defaults_for(game: str) -> GameDefaults | None:
    """The game's spec's decision defaults and payoff range (flows.games.base.DecisionDefaults)."""
    from flows import games

    spec = games.get(game) if game in games.names() else None
    found = spec.decision if spec is not None else None
    if found is None:
        return None
    return GameDefaults(d1=found.d1, batch=found.batch, first_look=found.first_look, bounds=spec.payoff_bounds)


@dataclass(frozen=True)
class Rule:
    """The decision's parameters, stored with the sweep so --resume decides the same way."""

    d1: float
    d0: float = 0.0
    alpha: float = 0.05
    beta: float = 0.05
    race_alpha: float = 0.05
    first_look: int = 1000
    bounds: tuple[float, float] | None = None  # the payoff's range (the difference's is twice it)
    luck: bool = False  # take the game's luck correction (GameSpec.luck) out of every payoff

    def sprt(self) -> Sprt:
        return Sprt(d1=self.d1, d0=self.d0, alpha=self.alpha, beta=self.beta, first_look=self.first_look)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "Rule":
        doc = json.loads(text)
        # A rule stored before luck corrections existed decided without one: resumed, it still does.
        return cls(**{"luck": False} | doc | {"bounds": None if doc.get("bounds") is None else tuple(doc["bounds"])})

    @property
    def diff_bounds(self) -> tuple[float, float] | None:
        if self.bounds is None:
            return None
        width = self.bounds[1] - self.bounds[0]
        return -width, width


def make_rule(game: str, *, d1: float | None = None, d0: float = 0.0, alpha: float = 0.05, beta: float = 0.05,
              race_alpha: float = 0.05, first_look: int | None = None, luck: bool = True) -> Rule:
    """The rule from the user's flags over the game's defaults; one-line refusals name the flag."""
    found = defaults_for(game)
    if d1 is None:
        if found is None:
            raise BadValue(f"--d1: {game} has no default difference worth switching for; accepted: --d1 X, a "
                           f"difference per unit in the game's own unit, above --d0")
        d1 = found.d1
    for name, value in (("--alpha", alpha), ("--beta", beta), ("--race-alpha", race_alpha)):
        if not 0 < value < 0.5:
            raise BadValue(f"{name} {value}: accepted: a probability between 0 and 0.5 (e.g. 0.05)")
    if not d1 > d0:
        raise BadValue(f"--d1 {d1} must exceed --d0 {d0}: the test tells 'no better than d0' from 'd1 better'")
    look = first_look if first_look is not None else (found.first_look if found else 1000)
    corrects = game in games.names() and games.get(game).luck is not None
    return Rule(d1=d1, d0=d0, alpha=alpha, beta=beta, race_alpha=race_alpha, first_look=look,
                bounds=found.bounds if found else None, luck=luck and corrects)


def confirmation_seed(seed: int) -> int:
    """The confirmation's seed: derived from the sweep's for this purpose alone, spread over 62 bits so it
    is never a seed anyone types (sweep, judge, league and nightly seeds are small numbers)."""
    derived = int(np.random.SeedSequence([seed, CONFIRM_TAG]).generate_state(1, np.uint64)[0]) >> 2
    if derived not in CONFIRM_SEEDS:  # below 2**32: one seed in a billion, moved into the range
        derived += CONFIRM_SEEDS.low
    return derived if derived != seed else derived ^ 1


def _confirm_id(sweep_id: str, challenger: int | None = None) -> str:
    """The confirmation's match of the baseline (`-k1`), or of the challenger at that index (`-k0-cNN`): named
    by its config, so a resume whose race now chooses another challenger starts that one on fresh deals
    instead of adding its chunks to the other's (a confirmation is of one config only)."""
    return f"{sweep_id}-k1" if challenger is None else f"{sweep_id}-k0-c{challenger:02d}"


def _set_aside(store: HandLog, sweep_id: str, chosen: str | None, labels: dict[str, str], unit: str) -> None:
    """Close, as discarded, an earlier run's confirmation of another challenger (a resume that played a failed
    config again can choose it instead, or none) and say so: its units stay in the hand log, in no decision."""
    found = store.query(
        "SELECT m.match_id, coalesce(sum(c.n_units), 0) AS n, coalesce(sum(c.seconds), 0) AS s FROM matches m "
        "LEFT JOIN chunks c USING (match_id) WHERE m.source = 'confirm' AND m.finished_at IS NULL "
        "AND (m.match_id = ? OR starts_with(m.match_id, ?)) AND m.match_id <> ? GROUP BY m.match_id "
        "ORDER BY m.match_id", [f"{sweep_id}-k0", f"{sweep_id}-k0-c", chosen or ""])  # `-k0`: named before configs were
    for match_id, units, seconds in found.iter_rows():
        store.finish_match(match_id, float(seconds), units=int(units), status="discarded")
        now = labels[chosen] if chosen else "no challenger"
        to_stderr(f"note: sweep {sweep_id}: the race now chooses {now}, so the earlier confirmation "
                  f"{match_id} ({labels.get(match_id, 'another config')}, {int(units):,} {unit}s) is set aside "
                  f"(status discarded): a confirmation plays one config on fresh deals")


def _set_aside_units(store: HandLog, sweep_id: str) -> int:
    """Units of the sweep's confirmations set aside (by this run or an earlier resume): played, so counted."""
    found = store.query(
        "SELECT coalesce(sum(c.n_units), 0) AS n FROM matches m JOIN chunks c USING (match_id) "
        "WHERE m.source = 'confirm' AND starts_with(m.match_id, ?) AND m.options->>'status' = 'discarded'",
        [f"{sweep_id}-k"])
    return int(found.item())


@dataclass(frozen=True)
class Decision:
    sweep_id: str
    decision: str  # switch, keep or undecided
    best: dict  # the overrides of the config to play
    challenger: dict | None  # the config tested against the baseline (None: every challenger was dropped)
    baseline: dict
    hands: int  # every unit played, confirmation included (and any confirmation set aside on a resume)
    selection_units: int
    confirm_units: int
    confirmed: dict | None  # challenger minus baseline on the confirmation's deals
    deals: dict
    llr: float | None
    llr_path: tuple[tuple[int, float], ...]
    dropped: dict  # label -> units it had played when the race stopped it
    rule: Rule
    mlflow_run_id: str | None
    seconds: float
    runs: tuple = field(default=(), repr=False)  # the selection's tracking.ConfigRun per config
    failed: dict = field(default_factory=dict)  # label -> why its program failed (it plays no further)
    set_aside_units: int = 0  # played in a confirmation a resume set aside: in `hands`, in no decision

    def to_json(self) -> str:
        """The one-line answer scripts read."""
        return json.dumps({
            "sweep_id": self.sweep_id, "decision": self.decision, "best": self.best, "challenger": self.challenger,
            "baseline": self.baseline, "hands": self.hands, "selection_units": self.selection_units,
            "confirm_units": self.confirm_units, "set_aside_units": self.set_aside_units,
            "confirmed": self.confirmed, "deals": self.deals, "llr": self.llr,
            "dropped": self.dropped, "failed": self.failed, "rule": asdict(self.rule),
            "mlflow_run": self.mlflow_run_id,
        }, sort_keys=True)


def _label(overrides: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in overrides.items()) or "defaults"


def stored_rule(con, sweep_id: str) -> Rule | None:
    """The rule a decided sweep was started with (None: a fixed-size sweep, or a hand log without any)."""
    import duckdb

    try:
        found = con.execute("SELECT rule FROM decision_rules WHERE sweep_id = ?", [sweep_id]).fetchall()
    except duckdb.CatalogException:
        return None
    return Rule.from_json(found[0][0]) if found else None


class Outcomes:
    """Each match's payoff per unit, with the game's luck taken out where its spec has a zero-mean
    correction (GameSpec.luck: computed from what the judge knows and the players did not). A
    correction of expectation zero leaves every mean as it is and narrows the differences; the race,
    the SPRT and the confirmed interval all read these outcomes.

    A unit's correction depends on that unit alone, so each match's outcomes are kept and a look reads
    only the units played since the last one (a hook taking `start` computes just those; one without it is
    recomputed whole, the uncached path, which `incremental=False` forces). Either way every look sees the
    same arrays, so the race and the LLR path are the same."""

    def __init__(self, store: HandLog, luck: Callable | None, *, incremental: bool = True):
        self.store, self.luck = store, luck
        self.incremental = incremental and luck_takes_start(luck)
        self._known: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # match -> (raw, adjusted) of its first units

    def of(self, match_id: str, units: int) -> tuple[np.ndarray, np.ndarray]:
        """(raw, adjusted) payoffs of units 0..units-1 (the chunks a look comes after are complete)."""
        raw, adjusted = self._known.get(match_id, (np.empty(0), np.empty(0)))
        if units <= len(raw):
            return raw[:units], adjusted[:units]
        start = len(raw) if self.incremental or self.luck is None else 0
        new = self.store.query("SELECT payoff FROM units WHERE match_id = ? AND unit >= ? AND unit < ? ORDER BY unit",
                               [match_id, start, units])["payoff"].to_numpy().astype(float)
        if self.luck is None:
            fixed = new
        elif self.incremental:
            fixed = new - self.luck(self.store.query, match_id, start + len(new), start=start)
        else:
            fixed = new - self.luck(self.store.query, match_id, len(new))
        self._known[match_id] = (np.concatenate([raw[:start], new]), np.concatenate([adjusted[:start], fixed]))
        return self._known[match_id]

    def looks(self, match_ids: list[str], units: int) -> dict[tuple[str, str], PairedLook]:
        """a minus b on their common units below `units`, for every ordered pair of the matches."""
        got = {m: self.of(m, units)[1] for m in match_ids}
        out = {}
        for a in match_ids:
            for b in match_ids:
                n = min(len(got[a]), len(got[b]))
                if a != b and n:
                    out[(a, b)] = paired_look(got[a][:n] - got[b][:n])
        return out

    def check(self, a: str, b: str, units: int) -> LuckCheck:
        (ra, aa), (rb, ab) = self.of(a, units), self.of(b, units)
        n = min(len(ra), len(rb))
        return luck_check(ra[:n] - rb[:n], aa[:n] - ab[:n])

    def means(self, match_ids: list[str], units: int) -> dict[str, float]:
        return {m: float(self.of(m, units)[1].mean()) for m in match_ids if len(self.of(m, units)[1])}


def luck_takes_start(luck: Callable | None) -> bool:
    """Whether a luck hook computes a stretch of units (`start`), so a look need not recompute the earlier ones."""
    return takes_keyword(luck, "start")


def _play_round(store, jobs, *, sweep_id, game, progress, window, failed) -> None:
    """A config whose program fails is added to `failed` (match id -> reason) and the others play on."""
    if jobs:
        _play_jobs(store, jobs, sweep_id=sweep_id, game=game, progress=progress, window=window, failed=failed)


def _baseline_failed(sweep_id: str, game: str, label: str, reason: str, *, tries: int = 1) -> SweepFailed:
    # every decision is a paired difference to the baseline: without it there is nothing to decide
    if tries >= TRIES:  # as a plain sweep's failed configs: a resume plays it again once, then only when asked
        return SweepFailed(f"sweep {sweep_id} stopped: the baseline {label} failed {tries} times ({reason}); "
                           f"--resume plays a failed config again only once: fix it, then `cardlab sweep {game} "
                           f"--resume {sweep_id} --retry-failed`")
    return SweepFailed(f"sweep {sweep_id} stopped: the baseline {label} failed ({reason}); every decision is "
                       f"made against it: fix it, then `cardlab sweep {game} --resume {sweep_id}` plays it again "
                       f"once (later: add --retry-failed)")


def _missing(store: HandLog, match_id: str, plan: MatchPlan, chunk: int, first: int, count: int) -> list:
    return [] if chunk in store.written_chunks(match_id) else [(match_id, plan, chunk, first, count)]


@flow(name="cardlab-decided-sweep", validate_parameters=False, log_prints=True)
def decided_sweep_flow(spec: SweepSpec, rule: Rule, db: str | None = None, track: bool = True,
                       progress: Callable[[int], None] | None = None, max_in_flight: int | None = None,
                       retry_failed: bool = False) -> Decision:
    """A config that failed before (recorded, its tries counted) is played again on resume as in a plain sweep
    (flows.sweep.reopen_failed: once, or with `retry_failed`); one left failed stays out of the race."""
    logger = get_run_logger()
    started = time.perf_counter()
    sweep_id = spec.sweep_id or new_match_id("s")
    plans = spec.plans()
    adapter = games.get(spec.game)
    base = spec.baseline_index(plans)
    base = 0 if base is None else base  # a program's sweep: its first config stands for what you have
    ids = [_match_id(sweep_id, i) for i in range(len(plans))]
    window = max_in_flight or 2 * worker_count()
    tuned = max(rule.first_look, spec.units // 4)  # where the anytime bounds are narrowest: fixed in advance
    with HandLog(db) as store:
        outcomes = Outcomes(store, adapter.luck if rule.luck else None)
        store.apply_sql(DECISIONS_SQL)
        store.begin_sweep(sweep_id=sweep_id, game=adapter.name, bot=spec.bot, grid=dict(spec.grid),
                          units=spec.units, seed=spec.seed, spec=spec.to_json())
        known = stored_rule(store.con, sweep_id)
        if known is not None and known != rule:
            raise BadValue(f"sweep {sweep_id} was started with the decision rule {known.to_json()}; "
                           f"it can only be resumed with its own")
        store.put("decision_rules", [{"sweep_id": sweep_id, "rule": rule.to_json()}])
        if retry_failed and sweep_record.find(store.con, sweep_id).finished:
            raise BadValue(f"sweep {sweep_id} is decided: --retry-failed plays failed configs again only before "
                           f"the decision; accepted: a new sweep")
        for index, plan in enumerate(plans):
            record_match(store, plan, ids[index], source="sweep", sweep_id=sweep_id)
        labels = {mid: _label(dict(plan.overrides)) for mid, plan in zip(ids, plans, strict=True)}
        labels |= {_confirm_id(sweep_id, i): labels[ids[i]] for i in range(len(plans)) if i != base}
        base_cid, cids = _confirm_id(sweep_id), []  # cids: the confirmation's challenger and baseline, once chosen
        failed = reopen_failed(store, [*labels, base_cid], retry_failed=retry_failed)  # match id -> why it failed

        def baseline_failed(match_id: str) -> SweepFailed:
            return _baseline_failed(sweep_id, adapter.name, _label(dict(plans[base].overrides)), failed[match_id],
                                    tries=failed_attempts(store, match_id))

        try:
            for match_id in (ids[base], base_cid):
                if match_id in failed:  # left failed by an earlier try: nothing to decide against
                    raise baseline_failed(match_id)
            # 1. Selection: the race on the sweep's deals.
            alive = set(range(len(plans)))
            played = dict.fromkeys(range(len(plans)), 0)
            dropped: dict[int, int] = {}
            n_sel = 0
            for chunk, first, count in plans[0].chunks():
                if len(alive - {base}) <= 1:
                    break
                jobs = [job for i in sorted(alive) for job in _missing(store, ids[i], plans[i], chunk, first, count)]
                _play_round(store, jobs, sweep_id=sweep_id, game=adapter.name, progress=progress, window=window,
                            failed=failed)
                if ids[base] in failed:
                    raise baseline_failed(ids[base])
                alive -= {i for i in alive if ids[i] in failed}  # it would score nothing in the contest either
                n_sel = first + count
                for i in alive:
                    played[i] = n_sel
                losers: set[int] = set()
                if n_sel >= rule.first_look:
                    looks = outcomes.looks([ids[i] for i in sorted(alive)], n_sel)
                    by_index = {(ids.index(a), ids.index(b)): look for (a, b), look in looks.items()}
                    losers = race_losers(by_index, alive, alpha=rule.race_alpha, configs=len(plans), tuned_for=tuned)
                    losers |= _not_worth_it(by_index, alive, base, rule, configs=len(plans), tuned_for=tuned)
                alive -= losers
                dropped |= dict.fromkeys(losers, n_sel)
                store.put("decision_looks", [{
                    "sweep_id": sweep_id, "phase": "select", "look": chunk, "units": n_sel,
                    "alive": json.dumps([ids[i] for i in sorted(alive)]),
                    "dropped": json.dumps([ids[i] for i in sorted(losers)])}])
            challengers = sorted(alive - {base})
            challenger = None
            if challengers:  # the best mean on the deals every survivor played
                means = outcomes.means([ids[i] for i in challengers], max(n_sel, 1))
                challenger = max(challengers, key=lambda i: (means.get(ids[i], -math.inf), -i))
            # 2. Confirmation: the sequential test on fresh deals.
            conf_seed = confirmation_seed(spec.seed)
            path: list[tuple[int, float]] = []
            verdict, last, n_conf = None, None, 0
            _set_aside(store, sweep_id, None if challenger is None else _confirm_id(sweep_id, challenger), labels,
                       adapter.unit)
            if challenger is not None:
                cids = [_confirm_id(sweep_id, challenger), base_cid]
                cplans = [replace(plans[challenger], seed=conf_seed), replace(plans[base], seed=conf_seed)]
                for plan, cid in zip(cplans, cids, strict=True):
                    record_match(store, plan, cid, source="confirm")
                sprt = rule.sprt()
                # The selection's spread of this pair, when it has one, floors the confirmation's: a heavy-tailed
                # payoff's first thousand units often miss the big pots that set its variance (its mean is not used).
                floor = outcomes.looks([ids[challenger], ids[base]], n_sel).get((ids[challenger], ids[base]))
                floor_var = floor.sd ** 2 if floor is not None and floor.n >= rule.first_look else 0.0
                for chunk, first, count in cplans[0].chunks():
                    jobs = [job for p, cid in zip(cplans, cids, strict=True)
                            for job in _missing(store, cid, p, chunk, first, count)]
                    _play_round(store, jobs, sweep_id=sweep_id, game=adapter.name, progress=progress, window=window,
                                failed=failed)
                    if cids[1] in failed:
                        raise baseline_failed(cids[1])
                    if cids[0] in failed:  # the challenger fails on fresh deals: keep what you have
                        verdict = "H0"
                        break
                    n_conf = first + count
                    last = outcomes.looks(cids, n_conf)[(cids[0], cids[1])]
                    llr = sprt.llr(last.n, last.mean, max(last.sd ** 2, floor_var))
                    path.append((n_conf, llr))
                    store.put("decision_looks", [{
                        "sweep_id": sweep_id, "phase": "confirm", "look": chunk, "units": n_conf, "mean": last.mean,
                        "sd": last.sd, "llr": llr, "lower": sprt.lower, "upper": sprt.upper}])
                    verdict = sprt.verdict(llr, last.n)
                    if verdict is not None:
                        break
        except SweepFailed as exc:  # the run is Failed with the one-line reason; --resume goes on from here
            return Failed(message=str(exc), data=exc)
        decision = {"H1": "switch", "H0": "keep"}.get(verdict, "undecided") if challenger is not None else "keep"
        best = challenger if decision == "switch" else base
        confirmed = None if last is None else _confirmed(last, rule, tuned)
        if confirmed is not None and outcomes.luck is not None:
            confirmed |= _luck_fields(outcomes.check(cids[0], cids[1], n_conf))
            confirmed["method"] += ", luck of the cards taken out"
        # Each match now says how many units it played (a race stops configs early), so `pick` sees it whole.
        for match_id in ids + (cids if challenger is not None else []):
            row = store.query("SELECT coalesce(sum(n_units), 0) AS n, coalesce(sum(seconds), 0) AS s FROM chunks "
                              "WHERE match_id = ?", [match_id]).row(0, named=True)
            store.set_match_units(match_id, int(row["n"]))
            store.finish_match(match_id, float(row["s"]), status="failed" if match_id in failed else None)
        sel_units = sum(played.values())
        aside = _set_aside_units(store, sweep_id)
        hands = sel_units + 2 * n_conf + aside
        deals = {"selection": {"seed": spec.seed, "units": [0, n_sel - 1] if n_sel else []},
                 "confirmation": {"seed": conf_seed, "units": [0, n_conf - 1] if n_conf else []}}
        runs = _config_runs(store, sweep_id, plans, failed)
        run_id = None
        if track:
            ranked = sorted(runs, key=lambda r: r.match_id != ids[best])
            run_id = tracking.log_sweep(game=adapter.name, sweep_id=sweep_id, bot=spec.bot,
                                        grid={k: list(v) for k, v in spec.grid}, seed=spec.seed, runs=list(runs),
                                        best=ranked[0], runner_up=None, paired_diff=None, paired_se=None,
                                        spec=json.loads(spec.to_json()) | {"decide": asdict(rule)},
                                        baseline=runs[base], pairs=sweep_record.pair_rows(store.con, sweep_id))
            _log_decision(run_id, decision, path, hands, confirmed)
        values = [sweep_id, decision, ids[best], None if challenger is None else ids[challenger], ids[base],
                  None if challenger is None else cids[0],
                  None if challenger is None else cids[1], spec.seed, sel_units, conf_seed,
                  2 * n_conf, hands, rule.d0, rule.d1, rule.alpha, rule.beta, rule.race_alpha,
                  rule.first_look, path[-1][1] if path else None, *(_confirmed_row(confirmed)), json.dumps(deals),
                  datetime.now(UTC).replace(tzinfo=None)]
        store.put("decisions", [dict(zip(store.table_columns("decisions"), values, strict=True))])
        store.finish_sweep(sweep_id, best_match=ids[best], mlflow_run=run_id, baseline_match=ids[base])
    logger.info("sweep %s decided: %s (%s)", sweep_id, decision, _label(dict(plans[best].overrides)))
    return Decision(
        sweep_id=sweep_id, decision=decision, best=dict(plans[best].overrides),
        challenger=None if challenger is None else dict(plans[challenger].overrides),
        baseline=dict(plans[base].overrides), hands=hands, selection_units=sel_units,
        confirm_units=2 * n_conf, confirmed=confirmed, deals=deals, llr=path[-1][1] if path else None,
        llr_path=tuple(path), dropped={_label(dict(plans[i].overrides)): n for i, n in sorted(dropped.items())},
        rule=rule, mlflow_run_id=run_id, seconds=time.perf_counter() - started, runs=tuple(runs),
        failed={labels[mid]: reason for mid, reason in failed.items() if mid in labels}, set_aside_units=aside)


def _not_worth_it(looks: dict[tuple[int, int], PairedLook], alive: set[int], base: int, rule: Rule, *,
                  configs: int, tuned_for: int) -> set[int]:
    """Challengers whose anytime upper bound over the baseline is below d1: not worth switching for. The
    same sequence as the race's pair with the baseline, so a challenger truly d1 better is stopped only when
    that sequence misses (the race's alpha / (configs - 1) covers both rules)."""
    if base not in alive:
        return set()
    level = rule.race_alpha / max(1, configs - 1)
    return {i for i in alive - {base}
            if (look := looks.get((i, base))) is not None and confidence_sequence(look, level, tuned_for)[1] < rule.d1}


def _confirmed(look: PairedLook, rule: Rule, tuned: int) -> dict:
    """The confirmation's estimate with a 95% interval valid at the data-dependent stop (the anytime
    bounds); with no spread at all, the range's worst case (engine.core.stats.mean_interval)."""
    low, high = confidence_sequence(look, 0.05, tuned)
    method = "anytime-valid normal mixture"
    if not math.isfinite(low):
        got = mean_interval(look.n, look.mean, look.sd, rule.diff_bounds)
        low, high, method = got.low, got.high, got.method
    return {"mean": look.mean, "low": low, "high": high, "units": look.n, "method": method}


def _luck_fields(check: LuckCheck) -> dict:
    """What taking the luck out did on the confirmation's deals: its variance-reduction factor (the units
    the same precision needs without it, per unit used) and the raw difference, which estimates the same."""
    return {"luck_factor": check.factor, "raw_mean": check.raw.mean, "raw_sd": check.raw.sd,
            "adjusted_sd": check.adjusted.sd}


def _confirmed_row(confirmed: dict | None) -> list:
    if confirmed is None:
        return [None, None, None, None]
    return [confirmed["mean"], _finite(confirmed["low"]), _finite(confirmed["high"]), confirmed["method"]]


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _log_decision(run_id: str, decision: str, path: list[tuple[int, float]], hands: int, confirmed: dict | None):
    """The LLR path (step = confirmation units per config), the hands and the decision on the parent run."""
    client = tracking.mlflow_client()
    for units, llr in path:
        client.log_metric(run_id, "decision_llr", llr, step=units)
    client.log_metric(run_id, "decision_hands", hands)
    if confirmed is not None:
        for key in ("mean", "low", "high"):
            if math.isfinite(confirmed[key]):
                client.log_metric(run_id, f"confirmed_{key}", confirmed[key])
    client.set_tag(run_id, "cardlab.decision", decision)


def with_runner(kind: str | None = None, **kwargs):
    """The decided sweep bound to a task runner chosen by setting, `progress` kept in this process
    (flows.sweep.with_runner's twin for this flow)."""
    from flows.runners import LocalOnly, make_task_runner

    bound = decided_sweep_flow.with_options(task_runner=make_task_runner(kind, **kwargs))

    def run(spec: SweepSpec, rule: Rule, *, progress: Callable[[int], None] | None = None, **flow_kwargs) -> Decision:
        return bound(spec, rule, progress=LocalOnly(progress) if progress else None, **flow_kwargs)

    return run


def describe(got: Decision, unit: str) -> list[str]:
    """The decision in a few lines for people (the JSON line is for scripts)."""
    head = {"switch": f"switch to {_label(got.best)}",
            "keep": f"keep the baseline ({_label(got.baseline)})",
            "undecided": f"undecided at the cap: keep the baseline ({_label(got.baseline)}) for now"}[got.decision]
    lines = [f"decision: {head}"]
    if got.confirmed is not None:
        c = got.confirmed
        lines.append(f"confirmed on fresh deals: {_label(got.challenger)} minus the baseline {c['mean']:+.4f} per "
                     f"{unit} (95% {c['low']:+.4f} .. {c['high']:+.4f}, {c['method']}; {c['units']:,} paired "
                     f"{unit}s, seed {got.deals['confirmation']['seed']})")
        if "luck_factor" in c:
            lines.append(f"luck of the cards taken out (a zero-mean correction the judge computes): sd "
                         f"{c['raw_sd']:.2f} -> {c['adjusted_sd']:.2f} per {unit}, {c['luck_factor']:.2f}x fewer "
                         f"{unit}s for the same precision (raw difference {c['raw_mean']:+.4f})")
        sprt = got.rule.sprt()
        lines.append(f"SPRT H0 {got.rule.d0:+g} vs H1 {got.rule.d1:+g} per {unit}, alpha {got.rule.alpha:g}, beta "
                     f"{got.rule.beta:g}: LLR {got.llr:+.2f} (accept H0 at {sprt.lower:+.2f}, H1 at {sprt.upper:+.2f})")
    else:
        lines.append("nothing to confirm: the race stopped every challenger against the baseline")
    for label, reason in got.failed.items():
        lines.append(f"failed {label}: {reason}")
    sel = got.deals["selection"]
    race = "; ".join(f"{label} after {n:,}" for label, n in got.dropped.items()) or "none"
    lines.append(f"race on seed {sel['seed']} ({unit}s {sel['units'][0] if sel['units'] else 0}.."
                 f"{sel['units'][-1] if sel['units'] else -1}): stopped {race}")
    lines.append(f"{got.hands:,} {unit}s in all ({got.selection_units:,} selection + {got.confirm_units:,} "
                 f"confirmation) in {got.seconds:.1f} s; sweep {got.sweep_id}; MLflow parent run {got.mlflow_run_id}")
    return lines
