"""The single-round simulator of the contest: parsed input -> trick winners -> the output lines."""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engine.tractor.protocol import InputError, RoundInput, read_rounds, render_result
from engine.tractor.rules import POINTS_OF_TOKEN, SEATS, TOTAL_POINTS, team_of
from engine.tractor.tricks import MIXED, RoundOutcome, Shape, settle, trick_winner


@dataclass(frozen=True)
class TrickRecord:
    leader: int  # seat
    plays: tuple[str, ...]  # play strings in play order, the leader's first
    winner: int  # seat
    points: int
    shape: Shape | None  # None on the single-card fast path
    line: int

    def structure(self) -> str:
        return self.shape.describe() if self.shape is not None else "single"


@dataclass(frozen=True)
class RoundReport:
    round: RoundInput
    tricks: tuple[TrickRecord, ...]
    outcome: RoundOutcome

    def output(self) -> str:
        o = self.outcome
        return render_result(self.round.case, ft_points=o.ft_points, cr1=o.cr1, cr2=o.cr2,
                             next_dealer=o.next_dealer, winner_team=o.winner_team)


def _single_winner(plays, code_of) -> int:
    """Fast path for one-card tricks: the first strictly highest card of the led suit or trumps."""
    best = code_of[plays[0][0]]
    lead_group = best >> 4
    winner = 0
    for pos in (1, 2, 3):
        code = code_of[plays[pos][0]]
        if code > best and (code >> 4 == lead_group or code >> 4 == 8):
            best, winner = code, pos
    return winner


def simulate_round(rnd: RoundInput) -> RoundReport:
    setup = rnd.setup
    code_of = setup.order.code_of_token
    points_of = POINTS_OF_TOKEN
    ct_team = team_of(setup.dealer)
    leader = setup.dealer
    records = []
    trick_points = played_points = 0
    for trick in rnd.tricks:
        plays = trick.plays
        if len(plays[0]) == 1:
            pos, shape = _single_winner(plays, code_of), None
            points = points_of[plays[0][0]] + points_of[plays[1][0]] + points_of[plays[2][0]] \
                + points_of[plays[3][0]]
        else:
            pos, shape = trick_winner(plays, code_of)
            if shape.group == MIXED:
                # Refused, not scored: the accepted solutions' handling of such a lead is not recorded in
                # the rules only say a mixed play never wins (docs/rules/tractor.md#differences), so there is nothing
                # to match byte for byte; legal play never produces one.
                raise InputError("the lead mixes trumps and non-trumps or several suits; a lead is all trumps "
                                 "or one non-trump suit", case=rnd.case, line=trick.line, token=trick.texts[0])
            points = sum(points_of[c] for play in plays for c in play)
        winner = (leader + pos) % 4
        played_points += points
        if team_of(winner) != ct_team:
            trick_points += points
        records.append(TrickRecord(leader=leader, plays=trick.texts, winner=winner, points=points,
                                   shape=shape, line=trick.line))
        leader = winner
    last = rnd.tricks[-1].plays[0]
    last_width = len(last) if len(last) == 1 else records[-1].shape.width
    outcome = settle(dealer=setup.dealer, cr1=setup.cr1, cr2=setup.cr2, trick_points=trick_points,
                     hidden_points=TOTAL_POINTS - played_points, last_width=last_width, last_winner=leader)
    return RoundReport(round=rnd, tricks=tuple(records), outcome=outcome)


def simulate_text(source: str | Iterable[str], *, resume: tuple[int, int, int] | None = None
                  ) -> Iterator[RoundReport]:
    """Reports of every case in order, from a text or its lines (read as needed); an InputError
    surfaces after the cases before it. `resume`: see protocol.read_rounds."""
    for rnd in read_rounds(source, resume=resume):
        yield simulate_round(rnd)


def run(source: str | Iterable[str], out, *, trace=None, keep: list | None = None,
        resume: tuple[int, int, int] | None = None) -> InputError | None:
    """Write every case's output to `out` as it is done (trick rows to `trace`); return the input
    error, if any. `source` is a text or an iterable of lines (a file streams in constant memory).

    The output of the cases before a malformed one is written (and flushed) first. `keep`
    collects the reports.
    """
    try:
        for report in simulate_text(source, resume=resume):
            out.write(report.output())
            if keep is not None:
                keep.append(report)
            if trace is not None:
                trace.write(f"# case {report.round.case}\n" + "\n".join(render_trace(report)) + "\n")
    except InputError as exc:
        out.flush()
        return exc
    return None


def render_trace(report: RoundReport) -> list[str]:
    """Trick rows as in shared/data/tractor/core/*.trace.txt (leader, plays, structure, winner...)."""
    rows, total = [], 0
    ct_team = team_of(report.round.setup.dealer)
    for number, t in enumerate(report.tricks, start=1):
        if team_of(t.winner) != ct_team:
            total += t.points
        rows.append(f"{number:2d} | {SEATS[t.leader]:<7} | {' '.join(t.plays)} | {t.structure()} | "
                    f"{SEATS[t.winner]} | {t.points} | {total}")
    return rows
