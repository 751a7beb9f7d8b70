"""Workspace wiring: the candidate's seat rotates (chunking: tests/test_conformance.py), the SQL loads and
its views answer, tournaments pair and deal as the contest did, ratings come from openskill."""

from itertools import combinations

import typer
from typer.testing import CliRunner

from bots.splendor import BOTS
from cardlab.commands import splendor as cli
from engine.splendor import state as st
from engine.splendor.agents import ExternalAgent, InProcessAgent
from engine.splendor.judge import GameResult
from engine.splendor.protocol import output_tokens
from engine.splendor.tournament import circle_rounds, tournament2
from flows import events
from flows.games.splendor import SPEC, SplendorOptions, game_ranks, ratings

from .test_protocol import EXAMPLE, example_state


def chunk(first, count):
    return SPEC.play_chunk(BOTS["random"], BOTS["random"].default_config(), seed=5, first=first, count=count,
                              options=SplendorOptions(opponent="random"))


def test_the_candidate_changes_seat_every_game():
    games = chunk(0, 3).events["games"]
    assert games["game"] == [0, 1, 2] and games["cand_seat"] == [0, 1, 0]


def test_sql_views_decode_a_logged_chunk(tmp_path):
    from engine.core.stats import wilson
    from flows.store import log_judged_match, read_only

    log = chunk(0, 2)
    db = tmp_path / "log.duckdb"
    match_id = log_judged_match(SPEC, bot="random", config={}, seed=5, log=events.encode(log, SPEC), db=db)
    con = read_only(db)
    games, share, low, high = con.execute("SELECT games, win_share, win_share_lo, win_share_hi FROM mart_spl_results "
                                          "WHERE match_id = ?", [match_id]).fetchone()
    assert games == 2 and abs(share - log.payoffs.mean()) < 1e-12
    expected = wilson(float(log.payoffs.sum()), 2)
    assert abs(low - expected.low) < 1e-12 and abs(high - expected.high) < 1e-12
    turns = con.execute("SELECT count(*) FROM stg_spl_turns").fetchone()[0]
    assert turns == len(log.events["turns"]["game"])
    assert con.execute("SELECT sum(share) FROM mart_spl_action_mix").fetchone()[0] == 1.0


def test_circle_method_meets_every_pair_once_with_a_bye_for_odd_counts():
    for n in (2, 4, 5, 6):
        rounds = circle_rounds(n)
        assert len(rounds) == n + n % 2 - 1
        pairs = sorted(tuple(sorted(p)) for r in rounds for p in r)
        assert pairs == list(combinations(range(n), 2))


class Passer:
    def act(self, obs):
        return "1 0"


def test_round_robin_gives_every_pairing_of_a_round_the_same_deals():
    agents = [InProcessAgent(f"p{i}", Passer()) for i in range(4)]
    result = tournament2(agents, games=1, seed=2)
    by_round = [result.matches[i:i + 2] for i in range(0, 6, 2)]
    for (_, a), (_, b) in by_round:
        assert a.games[0].deal == b.games[0].deal
    assert by_round[0][0][1].games[0].deal != by_round[1][0][1].games[0].deal
    assert all(s.points == 0 for s in result.standings)  # passers never finish: capped, no winner


def _result(scores, cards, winners):
    names = tuple(f"n{i}" for i in range(len(scores)))
    return GameResult(names, st.Deal(((), (), ()), ()), (), tuple(scores), tuple(cards), tuple(winners), 30)


def test_ranks_and_openskill_ratings():
    assert game_ranks(_result([16, 15, 9], [10, 9, 5], [0])) == [1, 2, 3]
    assert game_ranks(_result([10, 12], [4, 5], [])) == [1, 1]
    rated = ratings([_result([16, 3], [9, 2], [0])] * 3)
    assert [r[0] for r in rated] == ["n0", "n1"] and rated[0][1] > 25 > rated[1][1]


def test_export_writes_a_contest_agent_that_answers_legally(tmp_path):
    app = typer.Typer()
    app.command("export")(cli.export)
    app.command("judge")(cli.judge)
    runner = CliRunner()
    out = runner.invoke(app, ["export", "--out", str(tmp_path / "agent"), "--bot", "greedy", "--set", "chip=2"])
    assert out.exit_code == 0, out.output
    reply = ExternalAgent("greedy", str(tmp_path / "agent" / "run")).respond(EXAMPLE)
    assert reply.returncode == 0
    st.validate(example_state(), output_tokens(reply.stdout))  # raises if the arbiter would pass it
    bad = runner.invoke(app, ["export", "--out", str(tmp_path / "x"), "--bot", "nope"])
    assert bad.exit_code == 2 and "accepted" in bad.output
    too_many = runner.invoke(app, ["judge", "--games", "1", "--", *["a"] * 5])
    assert too_many.exit_code == 2 and "1 to 4" in too_many.output


def test_the_workspace_match_runs_splendor_through_the_registry():
    from flows.match import MatchPlan, run_match

    plan = MatchPlan(game="splendor", bot="random", options=(("opponent", "random"), ("players", "3")),
                     units=3, chunk_size=2)
    result = run_match(plan, None)
    assert result.summary.n == 3


def test_report_prints_win_rates_and_writes_the_points_plot(tmp_path):
    from flows.store import log_judged_match

    db = tmp_path / "log.duckdb"
    log_judged_match(SPEC, bot="random", config={}, seed=5, log=events.encode(chunk(0, 1), SPEC), db=db)
    runner = CliRunner()
    empty = runner.invoke(cli.app, ["report", "--db", str(tmp_path / "none.duckdb")])
    assert empty.exit_code == 2 and "no hand log" in empty.output
    out = runner.invoke(cli.app, ["report", "--db", str(db), "--out", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert (tmp_path / "splendor_points_by_round.png").stat().st_size > 1000 and "win share" in out.output


def test_tables_of_three_cover_every_combination_reproducibly():
    from engine.splendor.tournament import tournament34

    def run():
        agents = [InProcessAgent(f"r{i}", BOTS["random"].make()) for i in range(4)]
        return tournament34(agents, table_size=3, games=1, seed=8)

    first, second = run(), run()
    assert [names for names, _ in first.matches] == [names for names, _ in second.matches]
    assert sorted(tuple(sorted(names)) for names, _ in first.matches) == [
        tuple(f"r{i}" for i in c) for c in combinations(range(4), 3)]
    decided = sum(1 for g in first.games() if g.winners)
    assert abs(sum(s.points for s in first.standings) - decided) < 1e-9
    assert [s.points for s in first.standings] == [s.points for s in second.standings]
