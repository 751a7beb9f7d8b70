"""Style program: the hand tracker (issue 32's held-out strong bot, as its description reads; written
from that description, no code of it). Per opponent seat it counts what the history shows: voluntary
entries, preflop raises, postflop bets against calls and checks, folds when facing a bet. Its equity is
Monte Carlo against each live opponent's range narrowed by that seat's actions this hand: a preflop
raiser holds its top PFR share of hands by preflop strength, a caller its top VPIP share, a re-raiser a
third of its PFR share; a postflop bettor or caller holds a hand that connects with the board (a pair
or better of its own, or a flush draw) unless it is one of its bluffs, as often as its counts say it
bets. Short stacks play push/fold: heads-up from the equilibrium chart, with 3-4 live stacks by ICM
(Malmuth-Harville over the finish score). Bets are sized by street and texture (bigger with value on
wet boards, small c-bets on dry ones); it bluffs more into seats that fold to bets and calls lighter
against seats that bet often."""

from common import chart, pure_eval, run

SEED = 13  # the program's own randomness: the same every game

# The few thresholds (tuned on deal seed 11232 only, docs/benchmarks.md).
SAMPLES = 260  # Monte Carlo deals a decision (CPU per turn measured: docs/benchmarks.md)
PUSH_BB_HU = 15  # heads-up effective stack (big blinds) at or under which it plays the push/fold chart
PUSH_BB_MULTI = 12  # 3-4 live stacks: at or under this, push or fold by ICM
OPEN = {1: 0.85, 2: 0.38, 3: 0.28}  # first-in raise: the top share of hands, by opponents left in the hand
REALIZE = {1: 1.0, 2: 0.92, 3: 0.92}  # share of its equity a preflop call keeps (later streets), by opponents
THREE_BET = 0.55  # re-raises when its equity against the raisers' ranges beats this x twice a fair share
VALUE = {1: 0.58, 2: 0.47, 3: 0.38}  # postflop equity that bets for value, by live opponents
RAISE = {1: 0.80, 2: 0.65, 3: 0.55}  # postflop equity that raises a bet
CALL_MARGIN = 0.03  # equity over the pot odds a call needs, before the bettor's aggression
LIGHT = 0.25  # calls lighter by this x (the bettor's aggression - 0.3)
CBET_DRY = 0.75  # how often it c-bets a dry flop heads-up as the preflop raiser
BLUFF = 0.9  # bluff rate per (seat's fold-to-bet - 0.35), turn and river, one opponent, no equity

# Defaults before a seat's counts mean anything, and the pseudo-count they weigh as.
PRIOR_VPIP, PRIOR_PFR, PRIOR_AGG, PRIOR_FOLD, PRIOR_N = 0.45, 0.25, 0.35, 0.45, 8


def _class(a: int, b: int) -> int:
    hi, lo = max(a % 13, b % 13), min(a % 13, b % 13)
    return hi * 13 + lo if (a // 13 == b // 13 or hi == lo) else lo * 13 + hi


def _top_share() -> list[float]:
    """Per ordered card pair (a * 52 + b): the share of all 1326 hands at least as strong preflop
    before it (its class's place in the order by equity against a random hand)."""
    combos = [6 if c // 13 == c % 13 else 4 if c // 13 > c % 13 else 12 for c in range(169)]
    order = sorted(range(169), key=lambda c: -chart.EQUITY_VS_RANDOM[c])
    before, acc = [0.0] * 169, 0
    for c in order:
        before[c] = acc / 1326
        acc += combos[c]
    return [before[_class(a, b)] if a != b else 2.0 for a in range(52) for b in range(52)]


TOP = _top_share()


def _rate(hits: int, n: int, prior: float) -> float:
    return (hits + prior * PRIOR_N) / (n + PRIOR_N)


# -- the tracker -----------------------------------------------------------------------------------
def _seat(memory, seat):
    return memory["stats"].setdefault(seat, {"pre": 0, "vpip": 0, "pfr": 0, "agg": 0, "pas": 0,
                                             "faced": 0, "fold": 0})


def track(memory, turn, me: int) -> None:
    """Reads the history since my last decision into the per-seat counts and this hand's actions."""
    memory.setdefault("stats", {})
    for _, hand, seat, action, board in turn.actions:
        if memory.get("cur") != hand:
            memory.update(cur=hand, line={}, raises=0, bettor={})
        line = memory["line"].setdefault(seat, {"pre": 0, "bets": 0, "calls": 0, "seen": False})
        street = len(board)
        aggressive = action.startswith("BET") or action == "ALL-IN"
        facing = memory["bettor"].get(street, seat) != seat
        if seat != me:
            s = _seat(memory, seat)
            if not street and not line["seen"]:
                s["pre"] += 1
                line["seen"] = True
            if not street and (aggressive or action == "CALL") and line["pre"] == 0:
                s["vpip"] += 1
                s["pfr"] += aggressive
            if street:
                s["agg" if aggressive else "pas"] += action != "FOLD"
                if facing:
                    s["faced"] += 1
                    s["fold"] += action == "FOLD"
        if aggressive:
            memory["bettor"][street] = seat
        if not street:
            if aggressive:
                line["pre"] = 3 if memory["raises"] else 2
                memory["raises"] += 1
            elif action == "CALL" and not line["pre"]:
                line["pre"] = 1
        elif aggressive:
            line["bets"] += 1
        elif action == "CALL":
            line["calls"] += 1
    if memory.get("cur") != turn.hand:
        memory.update(cur=turn.hand, line={}, raises=0, bettor={})


def profile(memory, seat) -> tuple[float, float, float, float]:
    """(VPIP, PFR, postflop aggression, fold to a bet) of a seat, its counts weighed with the defaults."""
    s = _seat(memory, seat)
    return (_rate(s["vpip"], s["pre"], PRIOR_VPIP), _rate(s["pfr"], s["pre"], PRIOR_PFR),
            _rate(s["agg"], s["agg"] + s["pas"], PRIOR_AGG), _rate(s["fold"], s["faced"], PRIOR_FOLD))


def narrowed(memory, seat) -> tuple[float, float]:
    """(top share of hands by preflop strength, chance a hand that misses the board stays in) for a
    seat this hand."""
    vpip, pfr, agg, _ = profile(memory, seat)
    line = memory["line"].get(seat, {"pre": 0, "bets": 0, "calls": 0})
    share = {0: 1.0, 1: max(vpip, pfr), 2: pfr, 3: pfr / 3}[line["pre"]]
    air = 1.0
    for _ in range(line["bets"]):
        air *= min(0.7, max(0.1, agg - 0.05))  # a seat that bets often bets more of its misses
    for _ in range(line["calls"]):
        air *= 0.5
    return max(0.03, share), air


# -- equity against the narrowed ranges ------------------------------------------------------------
def _connects(a: int, b: int, board) -> bool:
    """A pair or better with one of its own cards, or four to a flush."""
    ranks = {c % 13 for c in board}
    if a % 13 in ranks or b % 13 in ranks or a % 13 == b % 13:
        return True
    suits = [c // 13 for c in board]
    return max(suits.count(a // 13) + 1 + (b // 13 == a // 13), suits.count(b // 13) + 1) >= 4


def equity(hole, board, ranges, rng, samples: int = SAMPLES) -> float:
    """Share of the pot against opponents holding hands from ``ranges`` [(top share, air)] (ties
    split): rejection sampling, a hand given up after 30 tries is taken as drawn."""
    known = set(hole) | set(board)
    rest = [c for c in range(52) if c not in known]
    n, need, rand, rnd = len(rest), 5 - len(board), rng.randrange, rng.random
    share = 0.0
    for _ in range(samples):
        used, hands = set(), []
        for top, air in ranges:
            for _ in range(30):
                a, b = rest[rand(n)], rest[rand(n)]
                if a == b or a in used or b in used:
                    continue
                if TOP[a * 52 + b] <= top and (air >= 1.0 or not board or _connects(a, b, board) or rnd() < air):
                    break
            while a == b or a in used or b in used:  # the tries ran out on a clash: any free pair
                a, b = rest[rand(n)], rest[rand(n)]
            used.update((a, b))
            hands.append((a, b))
        full = list(board)
        while len(full) < 5:
            c = rest[rand(n)]
            if c not in used:
                used.add(c)
                full.append(c)
        mine = pure_eval.value7(list(hole) + full)
        theirs = [pure_eval.value7([a, b] + full) for a, b in hands]
        if mine >= max(theirs):  # a win, or a split with every hand that ties it
            share += 1.0 / (1 + theirs.count(mine))
    return share / samples if need >= 0 else 0.0


# -- ICM ---------------------------------------------------------------------------------------------
def icm(stacks, players: int) -> list[float]:
    """Expected finish score ((players - position) / (players - 1)) of each live stack by
    Malmuth-Harville; a stack at 0 takes the places below every live one."""
    k = len(stacks)
    pay = [(players - 1 - j) / (players - 1) for j in range(k)]
    out = [0.0] * k
    live = [i for i in range(k) if stacks[i] > 0]
    dead = [i for i in range(k) if stacks[i] <= 0]
    for i in dead:  # the bottom places shared
        out[i] = sum(pay[len(live):]) / len(dead)

    def place(alive, p, j):
        total = sum(stacks[i] for i in alive)
        for i in alive:
            q = p * stacks[i] / total
            out[i] += q * pay[j]
            if len(alive) > 1:
                place([x for x in alive if x != i], q, j + 1)

    if live:
        place(live, 1.0, 0)
    return out


# -- decisions ---------------------------------------------------------------------------------------
def _call(t) -> str:
    return "CALL" if "CALL" in t.turn.possible else "ALL-IN" if "ALL-IN" in t.turn.possible else "CHECK"


def _jam(t) -> str:
    return "ALL-IN" if "ALL-IN" in t.turn.possible else _call(t)


def _wet(board) -> bool:
    suits = [c // 13 for c in board]
    ranks = sorted({c % 13 for c in board})
    flushy = max(suits.count(s) for s in range(4)) >= (2 if len(board) == 3 else 3)
    close = any(ranks[i + 2] - ranks[i] <= 4 for i in range(len(ranks) - 2))
    return flushy or close


def _all_in_values(t, villain, eq):
    """(ICM value of calling / pushing all in against ``villain`` with this equity, of folding now)."""
    turn, me = t.turn, t.setup.me
    live = [s for s in range(t.setup.players) if turn.stacks[s] + turn.chips[s] > 0]
    totals = {s: turn.stacks[s] + turn.chips[s] for s in live}
    fold = dict(totals)
    fold[me] = turn.stacks[me]
    taker = max((s for s in live if s != me), key=lambda s: turn.chips[s])
    fold[taker] += turn.chips[me]
    at_risk = min(totals[me], totals[villain])
    win, lose = dict(totals), dict(totals)
    win[me] += at_risk
    win[villain] -= at_risk
    lose[me] -= at_risk
    lose[villain] += at_risk
    # the other seats' chips in the pot go to the winner
    for s in live:
        if s not in (me, villain):
            win[me] += turn.chips[s]
            win[s] -= turn.chips[s]
            lose[villain] += turn.chips[s]
            lose[s] -= turn.chips[s]
    return eq * _value(t, win) + (1 - eq) * _value(t, lose), _value(t, fold)


def _value(t, totals) -> float:
    """My ICM value with these chips per live seat."""
    seats = sorted(totals)
    return icm([totals[s] for s in seats], t.setup.players)[seats.index(t.setup.me)]


def preflop(t, memory, rng, ranges, eff_bb):
    me, live = t.setup.me, len(t.opponents)
    cls = t.hand_class
    if live == 1 and eff_bb <= PUSH_BB_HU:
        villain = t.opponents[0]
        if not t.raised:
            return _jam(t) if chart.PUSH_DEPTH[cls] >= eff_bb else t.passive()
        _, pfr, _, _ = profile(memory, villain)
        loose = eff_bb * (1 - 0.5 * max(0.0, pfr - 0.4))  # a wide pusher is called wider
        return (_jam(t) if t.min_bet else _call(t)) if chart.CALL_DEPTH[cls] >= loose else t.passive()
    if live >= 2 and eff_bb <= PUSH_BB_MULTI:
        raisers = [s for s in t.opponents if memory["line"].get(s, {}).get("pre", 0) >= 2]
        if not raisers:  # first in (or limped to): push if ICM prefers it to folding
            behind = sorted(t.opponents, key=lambda s: -t.turn.chips[s])
            fold_all, ev = 1.0, 0.0
            for s in behind:
                vpip, _, _, _ = profile(memory, s)
                calls = min(0.5, 0.08 + 0.35 * vpip)
                eq = equity(t.turn.cards, (), [(calls, 1.0)], rng, SAMPLES // 2)
                value, fold = _all_in_values(t, s, eq)
                ev += fold_all * calls * value
                fold_all *= 1 - calls
            _, fold = _all_in_values(t, behind[0], 0.5)
            steal = {s: t.turn.stacks[s] for s in range(t.setup.players)
                     if t.turn.stacks[s] + t.turn.chips[s] > 0}
            steal[me] += t.pot  # everyone folds: the blinds are mine
            ev += fold_all * _value(t, steal)
            if ev > fold:
                return _jam(t)
            return t.passive()
        villain = max(raisers, key=lambda s: t.turn.chips[s])
        eq = equity(t.turn.cards, (), [narrowed(memory, villain)], rng)
        value, fold = _all_in_values(t, villain, eq)
        if value > fold:
            return _jam(t) if t.min_bet and t.call < t.stack else _call(t)
        return t.passive()
    # deep: open, re-raise or call by equity against the raisers' ranges
    if not t.raised:
        limpers = sum(1 for s in t.opponents if memory["line"].get(s, {}).get("pre", 0) == 1)
        folds = sum(profile(memory, s)[3] for s in t.opponents) / live
        share = OPEN[min(live, 3)] * (1 + 0.6 * max(0.0, folds - 0.45)) / (1 + 0.5 * limpers)
        if TOP[t.turn.cards[0] * 52 + t.turn.cards[1]] < share:
            memory["aggressor"] = True
            return t.bet((2.5 if live == 1 else 3 + limpers) * t.bb - t.mine)
        return t.passive()
    eq = equity(t.turn.cards, (), ranges, rng)
    fair = 1 / (live + 1)
    if eq > THREE_BET * (2 * fair) and t.min_bet:
        memory["aggressor"] = True
        top = max(t.turn.chips)
        chips = 3 * top - t.mine
        return _jam(t) if chips > 0.4 * t.stack else t.bet(chips)
    odds = t.pot_odds()
    if eq * REALIZE[min(live, 3)] > odds + CALL_MARGIN * (1 if t.call < 0.3 * t.stack else 2):
        return _call(t)
    return t.passive()


def postflop(t, memory, rng, ranges):
    live = len(t.opponents)
    board = t.turn.board
    eq = equity(t.turn.cards, board, ranges, rng)
    wet = _wet(board)
    spr = t.stack / max(1, t.pot)
    k = min(live, 3)
    if t.call == 0:
        if eq > VALUE[k]:
            if spr < 1.2:
                return _jam(t)
            return t.pot_bet(0.75 if wet else 0.55 if len(board) < 5 else 0.65)
        if live == 1:
            fold = profile(memory, t.opponents[0])[3]
            if memory.get("aggressor") and len(board) == 3:
                if not wet and rng.random() < min(1.0, CBET_DRY + 0.5 * (fold - 0.45)):
                    return t.pot_bet(0.33)
                if wet and eq > 0.35:
                    return t.pot_bet(0.5)
            if len(board) > 3 and eq < 0.3 and rng.random() < BLUFF * max(0.0, fold - 0.35):
                return t.pot_bet(0.6)
        return "CHECK"
    bettor = memory["bettor"].get(len(board))
    agg = profile(memory, bettor)[2] if bettor is not None and bettor != t.setup.me else PRIOR_AGG
    odds = t.pot_odds()
    if eq > RAISE[k] and t.min_bet:
        return _jam(t) if spr < 2 else t.pot_bet(0.9)
    if eq > odds + CALL_MARGIN - LIGHT * (agg - 0.3):
        return _call(t)
    return "FOLD"


def decide(t, memory, rng):
    me = t.setup.me
    track(memory, t.turn, me)
    if memory.get("aggr_hand") != t.turn.hand:
        memory.update(aggr_hand=t.turn.hand, aggressor=False)
    if not t.opponents:
        return _call(t) if t.call else "CHECK"
    ranges = [narrowed(memory, s) for s in t.opponents]
    deepest = max(t.turn.stacks[s] + t.turn.chips[s] for s in t.opponents)
    eff_bb = min(t.stack + t.mine, deepest) / t.bb
    if not t.turn.board:
        return preflop(t, memory, rng, ranges, eff_bb)
    return postflop(t, memory, rng, ranges)


if __name__ == "__main__":
    run(decide, seed=SEED)
