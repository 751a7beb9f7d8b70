"""Matches identical to the contest's PHP arbiter from the same seed, file for file.

The golden files are the arbiter's own (tests/splendor/data/arbiter): three matches of doofus
recorded with known seeds. Scripted agents replay doofus's recorded moves and kibitzes; cardlab
deals from the seed (--deals php) and must write the same records and inputs, byte for byte.
"""

import json
import os
import sys
import textwrap
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from engine.splendor.agents import InProcessAgent
from engine.splendor.judge import play_match
from engine.splendor.php_rng import PhpMt19937, arbiter_deals
from engine.splendor.record import ReplayMismatch, check_file, move_of_turn, save_game

GOLDEN = Path(__file__).parent / "data" / "arbiter"
MATCHES = [("doofus_2p_seed101", 2, 101), ("doofus_3p_seed102", 3, 102), ("doofus_4p_seed103", 4, 103)]


def records(folder: str) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((GOLDEN / folder).glob("game-*.json"))]


def test_the_generator_is_mt19937_as_php_seeds_it():
    # MT19937's published first output for the reference seed 5489, and PHP's documented
    # mt_srand(1); mt_rand() == 895547922 (the 32-bit output shifted right by one).
    assert [PhpMt19937(5489).next_u32() for _ in range(1)] == [3499211612]
    assert PhpMt19937(1).next_u32() >> 1 == 895547922


def test_range_reduction_rejects_the_biased_tail_and_masks_powers_of_two():
    a, b = PhpMt19937(7), PhpMt19937(7)
    raw = [b.next_u32() for _ in range(50)]
    assert [a.range(0, 7) for _ in range(10)] == [r & 7 for r in raw[:10]]  # power of two: masked
    c, d = PhpMt19937(9), PhpMt19937(9)
    size, limit = 10, 0xFFFFFFFF - (0xFFFFFFFF % 10) - 1
    expected = [r % size for r in (d.next_u32() for _ in range(200)) if r <= limit][:20]
    assert [c.range(0, 9) for _ in range(20)] == expected


@pytest.mark.parametrize(("folder", "players", "seed"), MATCHES)
def test_a_seed_deals_the_arbiters_match_game_after_game(folder, players, seed):
    deals = arbiter_deals(seed, players, 3)
    for deal, record in zip(deals, records(folder), strict=True):
        assert [list(d) for d in deal.decks] == record["decks"]
        assert list(deal.nobles) == record["nobles"]


def move_text(turn: dict) -> str:
    move = move_of_turn(turn)
    assert move is not None, "doofus never passes in these matches"
    return move.text()


class ReplayBot:
    """Plays one named seat's recorded moves of a whole match, kibitzes included."""

    def __init__(self, name: str, games: list[dict]):
        self.name, self.games, self.game, self.kibitz = name, games, -1, ()

    def new_game(self, key: int) -> None:
        self.game += 1

    def act(self, obs) -> str:
        record = self.games[self.game]
        assert record["players"][obs.me] == self.name
        turn = record["rounds"][obs.round - 1][obs.me]
        self.kibitz = tuple(turn["kibitzes"])
        return move_text(turn)


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(("folder", "players", "seed"), MATCHES)
def test_scripted_match_from_a_seed_is_byte_identical_to_the_arbiters(tmp_path, folder, players, seed):
    games = records(folder)
    names = games[0]["players"]
    agents = [InProcessAgent(n, ReplayBot(n, games)) for n in names]
    keep_inputs = (GOLDEN / folder / "inputs-001").is_dir()
    play_match(agents, games=3, seed=seed, deals="php", keep_inputs=keep_inputs,
               on_game=lambda g, r: save_game(r, tmp_path, g + 1, inputs=keep_inputs))
    written, golden = files(tmp_path), files(GOLDEN / folder)
    assert sorted(written) == sorted(golden) and len(golden) >= 3
    for name, data in golden.items():
        assert written[name] == data, name


def test_replay_checks_every_field_and_the_inputs(tmp_path):
    source = GOLDEN / "doofus_2p_seed101"
    states = check_file(source / "game-001.json", source / "inputs-001")
    assert states[-1].scores() == [9, 15]
    record = records("doofus_2p_seed101")[0]
    for rnd, key, value in ((2, "nobleId", 4), (2, "arbiterMsg", "x"), (3, "tokens", [4, 17, 1, 0, 3, 0, 0, 0])):
        bad = json.loads(json.dumps(record))
        bad["rounds"][rnd][1][key] = value  # round 4, seat 2 bought card 17 paying 2 red, 2 blue
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(bad, separators=(",", ":")) + "\n")
        with pytest.raises(ReplayMismatch, match=key):
            check_file(path)
    # Returned colours are strings in the arbiter's records; integers are a different record.
    with_returns = records("doofus_4p_seed103")[2]
    turn = next(t for rnd in with_returns["rounds"] for t in rnd if t["returns"])
    turn["returns"] = [int(c) for c in turn["returns"]]
    path.write_text(json.dumps(with_returns, separators=(",", ":")) + "\n")
    with pytest.raises(ReplayMismatch, match="returns"):
        check_file(path)
    path.write_text(json.dumps(record) + "\n")  # the same record, spaced: not the arbiter's bytes
    with pytest.raises(ReplayMismatch, match="byte for byte"):
        check_file(path)
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    for p in (source / "inputs-001").iterdir():
        (inputs / p.name).write_bytes(p.read_bytes())
    (inputs / "round-005-player-2.txt").write_bytes(b"2 2\n5\n")
    with pytest.raises(ReplayMismatch, match="round-005-player-2"):
        check_file(source / "game-001.json", inputs)


SCRIPT = """
    import json, sys
    from pathlib import Path
    lines = sys.stdin.read().split("\\n")
    me, rnd = int(lines[0].split()[1]), int(lines[1])
    name = Path(sys.argv[0]).stem  # the name the judge gives this agent
    record = json.loads(Path({record!r}).read_text())
    seat = record["players"].index(name)
    assert seat + 1 == me, (seat, me)
    Path("ran-" + name).touch()  # in the folder the judge chose
    turn = record["rounds"][rnd - 1][seat]
    for text in turn["kibitzes"]:
        print("kibitz " + text, file=sys.stderr)
    print({moves!r}[rnd - 1][seat])
"""


@pytest.mark.slow  # a whole arbiter match through the CLI
def test_the_cli_plays_the_arbiters_match_from_its_seed(tmp_path):
    """External scripted agents, one of them reached through a symlink, through `judge splendor`."""
    from cardlab.commands import splendor as cli

    app = typer.Typer()
    app.command("judge")(cli.judge)
    app.command("replay")(cli.replay)
    source = GOLDEN / "doofus_2p_seed101"
    record = records("doofus_2p_seed101")[0]
    moves = [[move_text(t) for t in rnd] for rnd in record["rounds"]]
    body = textwrap.dedent(SCRIPT.format(record=str(source / "game-001.json"), moves=moves))
    real = tmp_path / "real"
    real.mkdir()
    (real / "doofus1.py").write_text(body)
    links = tmp_path / "links"
    links.mkdir()
    os.symlink(real / "doofus1.py", links / "doofus2.py")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, [
        "judge", "--games", "1", "--seed", "101", "--deals", "php", "--save", str(out), "--save-inputs",
        "--", f"{sys.executable} {real / 'doofus1.py'}", f"{sys.executable} {links / 'doofus2.py'}"])
    assert result.exit_code == 0, result.output
    written = files(out)
    golden = {k: v for k, v in files(source).items() if k.startswith(("game-001", "inputs-001"))}
    assert sorted(written) == sorted(golden)
    assert all(written[k] == golden[k] for k in golden)
    # The arbiter runs an agent in its binary's real folder: the symlinked one runs in real/ too.
    assert sorted(p.name for p in real.glob("ran-*")) == ["ran-doofus1", "ran-doofus2"]
    assert not list(links.glob("ran-*"))
    replayed = CliRunner().invoke(app, ["replay", str(out / "game-001.json")])
    assert replayed.exit_code == 0 and "inputs" in replayed.output and "match" in replayed.output
    spaced = tmp_path / "spaced.json"
    spaced.write_text(json.dumps(record) + "\n")
    refused = CliRunner().invoke(app, ["replay", str(spaced)])
    assert refused.exit_code == 1 and "byte for byte" in refused.output
