"""Referee for full Tractor rounds between in-process bots, the check against the simulator,
and the contest's own test of a submission (an external simulator program).

The contest has no bot protocol (a submission is a simulator reading finished rounds), so
`play_round` runs four in-process bots; every finished round can be rendered in the
contest's input format and replayed through the simulator, which must give the same trick
winners and result. `run_program` feeds such an input to a contestant's simulator under the
contest's limits and compares its output with ours, case by case.

A bot is any object with `hide(view, rng)` and `play(view, rng)` returning card ids. A bot
whose answer breaks the rules gets the first legal play in card order instead, and the
round records the fault (a judge never loses a round already under way).
"""

import time
from dataclasses import dataclass

import numpy as np

from engine.core.errors import BadValue, IllegalMove, UnknownName
from engine.core.events import EventBatch
from engine.core.log import ChunkLog
from engine.core.process import Keep, LimitExceeded, LineProcess, ProgramEnded, exit_text
from engine.core.seeds import Purpose, generator, match_key, unit_key
from engine.tractor.events import EVENTS
from engine.tractor.protocol import render_input, render_result
from engine.tractor.rules import DECK_SIZE, HIDDEN_SIZE, MAIN_LETTERS, SEATS, RoundSetup, team_of
from engine.tractor.simulate import simulate_text
from engine.tractor.state import RoundState, build_follow, render_cards


@dataclass(frozen=True)
class MatchOptions:
    """How a match is set up: the opponents' bot and which team the primary bot plays."""

    opponent: str = "rule"
    swap_seats: bool = True  # odd rounds put the primary bot on team 2 (both sides of every deal type)
    check: bool = True  # replay every round through the simulator


@dataclass(frozen=True)
class PlayedRound:
    index: int
    state: RoundState
    primary_team: int
    faults: int  # illegal answers replaced by the judge

    @property
    def outcome(self):
        return self.state.outcome

    @property
    def payoff(self) -> int:
        """Levels the primary bot's team gained minus levels the other team gained."""
        return level_difference(self.state.setup, self.state.outcome, self.primary_team)

    def expected_output(self, case: int = 1) -> str:
        o = self.state.outcome
        return render_result(case, ft_points=o.ft_points, cr1=o.cr1, cr2=o.cr2,
                             next_dealer=o.next_dealer, winner_team=o.winner_team)


def round_setup(rng: np.random.Generator) -> RoundSetup:
    return RoundSetup(main=int(rng.integers(5)), dealer=int(rng.integers(4)),
                      cr1=int(rng.integers(13)), cr2=int(rng.integers(13)))


def round_deal(key: int, index: int) -> tuple[RoundSetup, list[int]]:
    """The setup and shuffled two-deck order of round `index` of the match with this key."""
    rng = generator(unit_key(key, index, Purpose.DEAL))
    setup = round_setup(rng)
    deck = [int(c) for c in rng.permutation(np.repeat(np.arange(DECK_SIZE // 2), 2))]
    return setup, deck


def _fallback_play(state: RoundState) -> tuple[int, ...]:
    hand = state.hands[state.to_act]
    if not state.trick:
        return (hand[0],)
    return build_follow(hand, state.trick[0], state.code, lambda c: c)


def play_round(setup: RoundSetup, deck, bots, rngs) -> tuple[RoundState, int]:
    """Play one round with bots[seat] using rngs[seat]; returns the finished state and the faults."""
    state = RoundState(setup, deck)
    faults = 0
    dealer = setup.dealer
    hidden = tuple(bots[dealer].act(state.view(dealer), rngs[dealer]))  # the view asks for 8 cards
    try:
        state.hide(hidden)
    except IllegalMove:
        faults += 1
        state.hide(tuple(state.hands[dealer][:HIDDEN_SIZE]))
    while not state.done:
        seat = state.to_act
        cards = tuple(bots[seat].act(state.view(seat), rngs[seat]))
        if not state.can_play(cards):
            faults += 1
            cards = _fallback_play(state)
        state.play(cards)
    return state, faults


def play_rounds(primary, opponent, *, seed: int, first: int, count: int, swap_seats: bool = True):
    """Rounds first..first+count-1 of a match; the deal of round i depends only on (seed, i)."""
    key = match_key(seed)
    played = []
    for index in range(first, first + count):
        setup, deck = round_deal(key, index)
        primary_team = 2 if swap_seats and index % 2 else 1
        bots = [primary if team_of(seat) == primary_team else opponent for seat in range(4)]
        bot_key = unit_key(key, index, Purpose.BOT)
        rngs = [generator(unit_key(bot_key, seat, Purpose.BOT)) for seat in range(4)]
        state, faults = play_round(setup, deck, bots, rngs)
        played.append(PlayedRound(index=index, state=state, primary_team=primary_team, faults=faults))
    return played


def contest_input(rounds: list[PlayedRound]) -> str:
    return render_input([(r.state.setup, r.state.contest_lines()) for r in rounds])


def disagreements(rounds: list[PlayedRound]) -> list[str]:
    """Rounds where the simulator, fed the contest text of the round, disagrees with the engine."""
    reports = list(simulate_text(contest_input(rounds)))
    problems = []
    for case, (played, report) in enumerate(zip(rounds, reports, strict=True), start=1):
        if report.output() != played.expected_output(case):
            problems.append(f"round {played.index}: simulator {report.output()!r} vs engine "
                            f"{played.expected_output(case)!r}")
        elif [t.winner for t in report.tricks] != [t.winner for t in played.state.tricks]:
            problems.append(f"round {played.index}: trick winners differ")
    return problems


ROUND_COLUMNS = tuple(EVENTS.kinds["rounds"])
TRICK_COLUMNS = tuple(EVENTS.kinds["tricks"])


def level_difference(setup: RoundSetup, outcome, team: int) -> int:
    """Levels `team` gained minus levels the other team gained this round."""
    gain1, gain2 = outcome.cr1 - setup.cr1, outcome.cr2 - setup.cr2
    return gain1 - gain2 if team == 1 else gain2 - gain1


class _Events:
    """The rounds and tricks events (engine/tractor/events.py): one per round, one per trick."""

    def __init__(self):
        self.rounds: dict[str, list] = {k: [] for k in ROUND_COLUMNS}
        self.tricks: dict[str, list] = {k: [] for k in TRICK_COLUMNS}

    def add(self, index: int, setup: RoundSetup, outcome, tricks, *, primary_team: int, faults: int) -> None:
        """tricks: (leader, four play strings, structure, winner, points) in order."""
        s, o = setup, outcome
        values = (index, MAIN_LETTERS[s.main], SEATS[s.dealer], s.cr1, s.cr2, primary_team, o.ft_points,
                  o.trick_points, o.hidden_points, o.multiplier, o.cr1, o.cr2, SEATS[o.next_dealer],
                  o.winner_team, len(tricks), faults, level_difference(s, o, primary_team))
        for name, value in zip(ROUND_COLUMNS, values, strict=True):
            self.rounds[name].append(value)
        for number, (leader, plays, structure, winner, points) in enumerate(tricks, start=1):
            values = (index, number, SEATS[leader], *plays, structure, SEATS[winner], points)
            for name, value in zip(TRICK_COLUMNS, values, strict=True):
                self.tricks[name].append(value)

    def batch(self) -> EventBatch:
        return EVENTS.batch(rounds=self.rounds, tricks=self.tricks)


def round_events(rounds: list[PlayedRound]) -> EventBatch:
    events = _Events()
    for r in rounds:
        tricks = [(t.leader, [render_cards(p) for p in t.plays], t.structure, t.winner, t.points)
                  for t in r.state.tricks]
        events.add(r.index, r.state.setup, r.outcome, tricks, primary_team=r.primary_team, faults=r.faults)
    return events.batch()


def simulated_log(reports) -> ChunkLog:
    """Simulator reports (contest input cases) as a ChunkLog; payoff = team 1's level difference."""
    events = _Events()
    payoffs = []
    for index, report in enumerate(reports):
        setup, outcome = report.round.setup, report.outcome
        tricks = [(t.leader, t.plays, t.structure(), t.winner, t.points) for t in report.tricks]
        events.add(index, setup, outcome, tricks, primary_team=1, faults=0)
        payoffs.append(level_difference(setup, outcome, 1))
    return ChunkLog(first=0, payoffs=np.array(payoffs, dtype=np.float64), events=events.batch())


def play_chunk(spec, config, *, seed: int, first: int, count: int, options: MatchOptions | None = None,
               bots=None) -> ChunkLog:
    """Rounds first..first+count-1 for the workspace: payoff = the primary team's level difference.

    bots: the registry to find options.opponent in (bots.tractor.BOTS; passed in so the engine
    does not import the bots layer).
    """
    options = options or MatchOptions()
    if bots is None or options.opponent not in bots:
        accepted = ", ".join(sorted(bots or {}))
        raise UnknownName(f"unknown opponent {options.opponent!r}; accepted: {accepted}")
    primary = spec.make(config)
    opponent = bots[options.opponent].make()
    rounds = play_rounds(primary, opponent, seed=seed, first=first, count=count, swap_seats=options.swap_seats)
    stats = {"faults": float(sum(r.faults for r in rounds))}
    if options.check:
        stats["simulator_disagreements"] = float(len(disagreements(rounds)))
    payoffs = np.array([r.payoff for r in rounds], dtype=np.float64)
    return ChunkLog(first=first, payoffs=payoffs, stats=stats, events=round_events(rounds))


CONTEST_CPU_SECONDS = 1.0
CONTEST_MEMORY_MB = 1536
MAX_PROGRAM_OUTPUT_CASES = 1000  # keeps the program's output under one pipe buffer while we write


@dataclass(frozen=True)
class ProgramVerdict:
    """What the contest would say about a simulator program on one input."""

    verdict: str  # accepted, wrong answer, time limit, memory limit, runtime error
    cases: int
    matched: int  # leading cases whose three lines match
    first_mismatch: int | None  # 1-based case
    expected: str  # that case's expected lines
    got: str
    cpu_seconds: float
    detail: str = ""  # the end of its stderr
    isolation: str = ""  # what isolated the program (engine.core.sandbox)
    ended: str = ""  # a runtime error's cause: 'exit status N' or 'killed by signal SIG...'
    limits: str = ""  # how memory and processes were limited (cgroup or polled tree)


def _case_blocks(lines: list[str]) -> list[str]:
    """Group output lines by their 'Case #k:' line (trailing spaces ignored, as judges do)."""
    blocks: list[list[str]] = []
    for line in lines:
        line = line.rstrip()
        if line.startswith("Case #") or not blocks:
            blocks.append([])
        blocks[-1].append(line)
    return ["\n".join(b) for b in blocks]


def run_program(argv: list[str], text: str, expected: str, *, cpu_seconds: float = CONTEST_CPU_SECONDS,
                memory_mb: float = CONTEST_MEMORY_MB, wall_seconds: float = 20.0,
                env: dict[str, str] | None = None, keep: Keep | None = None) -> ProgramVerdict:
    """Run a contestant's simulator once on `text` and compare with `expected` (our output).

    It runs in a private temporary folder; `env`: variables added to its scrubbed environment;
    `keep`: save its stderr (and folder) there.
    Input is written while its output is read, so a program that never reads cannot stall it."""
    want = _case_blocks(expected.splitlines())
    if len(want) > MAX_PROGRAM_OUTPUT_CASES:
        raise BadValue(f"at most {MAX_PROGRAM_OUTPUT_CASES} cases per program run, got {len(want)}")
    # Output far past the expected size is an output limit (judges call it that), found at once.
    program = LineProcess(argv, cpu_seconds=cpu_seconds, memory_mb=memory_mb, env=env,
                          max_output_bytes=max(1 << 20, 4 * len(expected)), keep=keep)
    lines, problem = [], ""
    deadline = time.monotonic() + wall_seconds
    try:
        for line in text.splitlines():
            program.send(line)
        program.close_input()
        while True:
            lines.append(program.read_line(timeout=max(0.01, deadline - time.monotonic())))
    except ProgramEnded:  # a batch judge waits for the exit: closing the output and lingering times out
        if program.wait(max(0.0, deadline - time.monotonic())) is None:
            problem = "time limit"
    except LimitExceeded as exc:
        problem = {"cpu": "time limit", "wall": "time limit", "memory": "memory limit",
                   "output": "output limit", "processes": "runtime error"}[exc.kind]
    report = program.close()
    got = _case_blocks(lines)
    matched = 0
    while matched < min(len(got), len(want)) and got[matched] == want[matched]:
        matched += 1
    if not problem and report.returncode not in (0, None):
        problem = "runtime error"
    if not problem and (matched < len(want) or len(got) != len(want)):
        problem = "wrong answer"
    first = None if matched == len(want) and not problem else matched + 1
    return ProgramVerdict(
        verdict=problem or "accepted", cases=len(want), matched=matched, first_mismatch=first,
        expected=want[matched] if matched < len(want) else "", got=got[matched] if matched < len(got) else "",
        cpu_seconds=report.cpu_seconds, detail=report.stderr_tail.strip()[-300:], isolation=report.isolation,
        ended=exit_text(report.returncode) if problem == "runtime error" else "", limits=report.limits,
    )
