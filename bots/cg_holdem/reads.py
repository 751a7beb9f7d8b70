"""The ranged bot's opponent reads: the frequency counts (Seen), the learned action tables by strength (Reads),
and the format of a `read_prior` (its keys, what each setting keeps of it, its validation).

Standard library only: the export inlines it before ranged.py."""

import json


class Seen:
    """What one opponent has shown over the game: counts behind the frequencies that place the
    likelihood cuts. Priors stand in for unseen play (about a fair regular's frequencies)."""

    PRIORS = {
        "vpip": 0.45, "pfr": 0.3,  # preflop, first action: plays voluntarily / raises
        "fold_pre": 0.45, "fold_3bet": 0.45,  # preflop facing a raise / a re-raise of its own raise: folds
        "lead": 0.35,  # postflop, no bet yet on the street: bets
        "barrel3": 0.6, "barrel4": 0.45, "barrel5": 0.4,  # the same as the preflop raiser, by board size
        "fold_bet": 0.45, "raise_bet": 0.12,  # postflop facing a bet: folds / raises
    }

    def __init__(self):
        self.n = {k: 0 for k in self.PRIORS}
        self.k = {k: 0 for k in self.PRIORS}

    def count(self, what: str, hit: bool) -> None:
        self.n[what] += 1
        self.k[what] += hit

    def freq(self, what: str, weight: float) -> float:
        return (self.k[what] + self.PRIORS[what] * weight) / (self.n[what] + weight)


BINS = 10  # strength percentile bins of the learned action tables
FOLD, PASSIVE, AGGRESSIVE = 0, 1, 2  # what an action did, as the tables count it
SITUATIONS = ("pre_first", "pre_facing", "lead", "barrel", "facing")  # Reads' keys (RangedBot._situation)
# call_prior: a seat's answers to a lone first-in all-in are counted by the effective depth (bb) between it and the
# pusher, in these bands
CALL_BANDS = (5.0, 8.0, 12.0, 20.0)
# call_prior: the Seen frequencies that tell the logged field's players apart at the table (read_prior's "callers")
CALLER_STATS = ("vpip", "pfr", "fold_pre")
# read_prior's key for them: {player: {"calls": [[faced, called] per CALL_BANDS band], "seen": {stat: [n, k]}}}
CALLERS = "callers"
# read_prior's key for each logged player's own action tables: {player: {situation: [fold, passive, aggressive] x BINS}}
PLAYERS = "players"
# seat_prior_phase: read_prior's keys holding the same counts split by the stacks live at a hand's start, each
# {phase: ...} over PHASES (two; three or four): SEEN_BY_LIVE {phase: {player: {stat: [n, k]}}} (as CALLERS' "seen"),
# PLAYERS_BY_LIVE {phase: {player: {situation: table}}} (as PLAYERS); a player absent from a phase, or a stat or
# situation it never showed there, is read from its pooled counts
PHASES = ("2", "3-4")
SEEN_BY_LIVE, PLAYERS_BY_LIVE = "seen_by_live", "players_by_live"
NOT_TABLES = (CALLERS, PLAYERS, SEEN_BY_LIVE, PLAYERS_BY_LIVE)  # read_prior's keys that are not pooled tables


def _scaled(prior: dict, weight: float) -> dict[str, list[list[float]]]:
    """A prior's action tables (other keys skipped), each strength bin scaled to at most ``weight`` counts."""
    out = {}
    for key, table in prior.items():
        if key in NOT_TABLES:  # call_prior's and seat_prior's, not action tables
            continue
        totals = [sum(table[k][b] for k in range(3)) for b in range(BINS)]
        scale = [min(1.0, weight / t) if t > 0 else 0.0 for t in totals]
        out[key] = [[table[k][b] * scale[b] for b in range(BINS)] for k in range(3)]
    return out

class Reads:
    """What one opponent did with the hands it showed: after every hand all seats' cards are shown,
    folded or not, so each action it took is counted by situation and by the strength its hand had
    there (bins of the percentile the ranges use). Read back as the chance of an action given the
    strength, mixed with the frequency model's guess as ``weight`` observations of it. ``prior``: counts
    from logged games (`read_prior`), each bin worth at most ``prior_weight`` observations to start with.
    ``players``/``weigh`` (seat_prior): the logged players' own counts, each bin worth at most ``prior_weight``,
    added on read in the shares ``weigh()`` gives each player now (the players' order); with ``phase``
    (seat_prior_phase), ``players`` holds one such list a phase and ``phase()`` names the current one."""

    def __init__(self, prior: dict | None = None, prior_weight: float = 0.0, players=(), weigh=None, phase=None):
        self.counts = _scaled(prior or {}, prior_weight)
        by_phase = players if phase else [players] if players else []
        self.players = [[_scaled(p, prior_weight) for p in ps] for ps in by_phase]
        self.weigh = weigh
        self.phase = phase or (lambda: 0)

    def table(self, key: str) -> list[list[float]] | None:
        """The counts in ``key``: what was seen, plus the players' priors in their current shares."""
        own = self.counts.get(key)
        parts = [(x, p[key]) for x, p in zip(self.weigh(), self.players[self.phase()], strict=True) if key in p] \
            if self.players else []
        total = sum(x for x, _ in parts)
        if not total:
            return own
        out = [list(row) for row in own] if own else [[0.0] * BINS for _ in range(3)]
        for x, t in parts:  # the shares renormalized over the players seen in this situation
            for k in range(3):
                for b in range(BINS):
                    out[k][b] += x / total * t[k][b]
        return out

    def add(self, key: str, kind: int, q: float) -> None:
        table = self.counts.setdefault(key, [[0.0] * BINS for _ in range(3)])
        b = min(BINS - 1, int(q * BINS))
        table[kind][b] += 1.0
        for n in (b - 1, b + 1):  # neighbours share half: strength next door plays alike
            if 0 <= n < BINS:
                table[kind][n] += 0.5

    def chance(self, key: str, kind: int, weight: float):
        """A function (q, the model's chance) -> the chance mixed with what was seen; None unseen."""
        table = self.table(key)
        if table is None:
            return None
        seen = [table[kind][b] for b in range(BINS)]
        total = [table[0][b] + table[1][b] + table[2][b] for b in range(BINS)]

        def mixed(q: float, guess: float) -> float:
            b = min(BINS - 1, int(q * BINS))
            return (seen[b] + weight * guess) / (total[b] + weight)

        return mixed


def read_prior(text: str) -> dict | None:
    """A `read_prior` as Reads' tables: {situation: [fold, passive, aggressive] x BINS counts}, and optionally the
    logged players' answers to lone pushes (CALLERS, for call_prior); None if empty."""
    return json.loads(text) if text else None


def _counts(x, n: int, width: int) -> bool:
    return isinstance(x, list) and len(x) == n and all(
        isinstance(row, list) and len(row) == width and all(isinstance(v, int | float) and v >= 0 for v in row)
        for row in x)


def _check_callers(callers) -> bool:
    return isinstance(callers, dict) and all(
        isinstance(p, dict) and _counts(p.get("calls"), len(CALL_BANDS) + 1, 2)
        and _check_seen(p.get("seen")) for p in callers.values())


def _check_tables(tables) -> bool:
    return isinstance(tables, dict) and all(key in SITUATIONS and _counts(t, 3, BINS) for key, t in tables.items())


def _check_players(players) -> bool:
    return isinstance(players, dict) and all(_check_tables(p) for p in players.values())


def _check_seen(seen) -> bool:
    return isinstance(seen, dict) and set(seen) == set(CALLER_STATS) and _counts(
        list(seen.values()), len(CALLER_STATS), 2)


def _check_by_live(by_live, check) -> bool:
    """{phase: {player: ...}} over PHASES, each player's entry passing ``check``."""
    return isinstance(by_live, dict) and set(by_live) <= set(PHASES) and all(
        isinstance(players, dict) and all(check(p) for p in players.values()) for players in by_live.values())


def by_phase(by_live: dict, names: list[str], pooled: list[dict]) -> list[list[dict]]:
    """seat_prior_phase's rates: per phase, each player's {stat: [n, k]} there (SEEN_BY_LIVE), its pooled counts
    (``pooled``, in ``names``' order) for a stat it never showed in that phase."""
    out = []
    for phase in PHASES:
        rows = []
        for name, seen in zip(names, pooled, strict=True):
            mine = by_live.get(phase, {}).get(name, {})
            rows.append({k: mine[k] if k in mine and mine[k][0] else seen[k] for k in CALLER_STATS})
        out.append(rows)
    return out


def check_prior(text: str) -> str | None:
    try:
        prior = read_prior(text)
    except ValueError:
        return "not JSON"
    if prior is None:
        return None
    ok = isinstance(prior, dict) and all(
        _check_callers(t) if key == CALLERS else _check_players(t) if key == PLAYERS
        else _check_by_live(t, _check_seen) if key == SEEN_BY_LIVE
        else _check_by_live(t, _check_tables) if key == PLAYERS_BY_LIVE
        else key in SITUATIONS and _counts(t, 3, BINS) for key, t in prior.items())
    return None if ok else (f"not a read prior: {{situation: 3 lists of {BINS} counts}}, situations {SITUATIONS}, "
                            f"optionally {CALLERS!r}: {{player: {{calls: [faced, called] x {len(CALL_BANDS) + 1}, "
                            f"seen: {{{', '.join(CALLER_STATS)}: [n, k]}}}}}} and {PLAYERS!r}: {{player: "
                            f"{{situation: 3 lists of {BINS} counts}}}}, {SEEN_BY_LIVE!r} and {PLAYERS_BY_LIVE!r}: "
                            f"the same seen and players by phase, {{phase: ...}}, phases {PHASES}")
