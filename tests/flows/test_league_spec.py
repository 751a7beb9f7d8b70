"""League descriptions: versions from program files, refusals in one line, and plans that
extend without replaying (no Prefect, no database)."""

import sys
from collections import Counter

import pytest

from engine.core.errors import UnknownName
from engine.core.settings import ConfigError
from flows.league_play import plan_games, round_seed
from flows.league_spec import LeagueError, build, load_toml, version_of


def _script(tmp_path, name: str, body: str = "print('CALL')\n") -> str:
    path = tmp_path / name
    path.write_text(body)
    return str(path)


def test_version_follows_the_program_file_and_its_options_not_its_path(tmp_path):
    bot = _script(tmp_path, "bot.py")
    first = version_of(f"{sys.executable} {bot}")
    assert version_of(f"python3 {bot}") == first  # the interpreter is not the program
    assert version_of(f"{sys.executable} {bot} --fast") != first
    (tmp_path / "bot.py").write_text("print('FOLD')\n")
    assert version_of(f"{sys.executable} {bot}") != first
    assert version_of("cat") == version_of("cat")  # a command on PATH: that file


def test_bundle_config_beside_the_launcher_is_part_of_the_version(tmp_path):
    run = _script(tmp_path, "run")
    (tmp_path / "config.json").write_text('{"a": 1}')
    before = version_of(run)
    (tmp_path / "config.json").write_text('{"a": 2}')
    assert version_of(run) != before


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"game": "poker"}, "unknown game 'poker'; accepted:"),
    ({"programs": [("a", "cat"), ("a", "cat")]}, "distinct"),
    ({"programs": [("a", "cat")]}, "needs at least 2 programs"),
    ({"players": 5}, "players must be 2-4"),
    ({"games": 0}, "at least 1"),
    ({"programs": [("a", "cat"), ("b", "no-such-program-xyz")]}, "not found"),
    ({"programs": [("a b", "cat"), ("c", "cat")]}, "entrant name"),
    ({"options": {"speed": "1"}}, "unknown league option"),
    ({"game": "tractor", "programs": [("a", "bot:sample"), ("b", "cat")]},
     r"a: tractor does not seat this kind of entrant \(bot\); accepted: NAME=COMMAND"),
    ({"game": "holdem-training", "players": 9}, "--players does not apply"),
    ({"options": {"hands": "10"}}, "unknown league option.*for cg-holdem; accepted: clock, first_turn_ms, turn_ms"),
    ({"options": {"turn_ms": "fast"}}, r"turn_ms='fast': accepted: a positive int"),
    ({"options": {"turn_ms": "0"}}, r"turn_ms='0': accepted: a positive int"),
])
def test_bad_leagues_are_refused_naming_what_is_accepted(kwargs, says):
    args = {"name": "x", "game": "cg-holdem", "programs": [("a", "cat"), ("b", "cat")], "games": 2} | kwargs
    with pytest.raises(LeagueError, match=says):
        build(**args)


def test_twocarddraw_takes_classes_a_users_or_a_project_bot(tmp_path):
    with pytest.raises(LeagueError, match="PATH.py:ClassName"):
        build(name="x", game="twocarddraw", programs=[("a", "cat")], games=1)
    mine = _script(tmp_path, "mine.py", "class Bot:\n    pass\n")
    spec = build(name="x", game="twocarddraw", programs=[("a", "bot:sample"), ("b", f"{mine}:Bot")], games=1)
    assert spec.entrants[0].in_process and spec.entrants[1].bot_class == (mine, "Bot")
    with pytest.raises(UnknownName, match="^entrant a 'nobody': unknown bot for twocarddraw; accepted: .*sample"):
        build(name="x", game="twocarddraw", programs=[("a", "bot:nobody")], games=1)  # before anything is played
    with pytest.raises(ConfigError, match="^bot 'learner': unknown key 'x'; accepted keys: "):
        build(name="x", game="twocarddraw", programs=[("a", "bot:learner:x=1")], games=1)
    (tmp_path / "mine.py").write_text("class Bot:\n    x = 1\n")
    assert version_of(f"{mine}:Bot") != spec.entrants[1].version
    with pytest.raises(LeagueError, match=r"holdem-training does not seat this kind of entrant \(class\)"):
        build(name="x", game="holdem-training", programs=[("b", f"{mine}:Bot")], games=1)


def test_multi_seat_plan_rotates_every_table_over_one_deal_per_round():
    spec = build(name="x", game="cg-holdem", programs=[(n, "cat") for n in "abcd"], games=7, seed=3)
    plans = plan_games(spec)
    assert len({p.key for p in plans}) == len(plans)
    played = Counter(e.name for p in plans for e in p.seats)
    assert min(played.values()) >= 7 and len(set(played.values())) == 1
    for p in plans:
        assert p.seed == round_seed(3, p.round)
    seats = Counter((p.round, e.name, i) for p in plans for i, e in enumerate(p.seats))
    assert set(seats.values()) == {3}  # per round each entrant sits in each seat once per opponent


def test_an_added_entrant_or_more_games_only_adds_games():
    two = build(name="x", game="splendor", programs=[("a", "cat"), ("b", "cat")], games=2)
    three = build(name="x", game="splendor", programs=[("a", "cat"), ("b", "cat"), ("c", "cat")], games=2)
    more = build(name="x", game="splendor", programs=[("a", "cat"), ("b", "cat"), ("c", "cat")], games=9)
    keys = [{p.key for p in plan_games(s)} for s in (two, three, more)]
    assert keys[0] < keys[1] < keys[2]


def test_fixed_opponent_entrants_play_the_same_seeds():
    spec = build(name="x", game="holdem-training", programs=[("a", "cat"), ("b", "cat")], games=3)
    seeds = {}
    for p in plan_games(spec):
        seeds.setdefault(p.seats[0].name, []).append(p.seed)
    assert seeds["a"] == seeds["b"] and len(set(seeds["a"])) == 3


def test_league_file_resolves_programs_beside_it_and_takes_extensions(tmp_path):
    _script(tmp_path, "alice.py")
    path = tmp_path / "weekly.toml"
    path.write_text('game = "cg-holdem"\ngames = 4\n[programs]\nalice = "python3 alice.py"\nbob = "cat"\n')
    spec = load_toml(path, extra=[("carol", "cat")])
    assert spec.name == "weekly" and spec.games == 4
    assert [e.name for e in spec.entrants] == ["alice", "bob", "carol"]
    assert str(tmp_path / "alice.py") in spec.entrants[0].command
    (tmp_path / "mine.py").write_text("class Bot:\n    pass\n")
    path.write_text('game = "twocarddraw"\n[programs]\nmine = "mine.py:Bot"\n')
    assert load_toml(path).entrants[0].bot_class == (str(tmp_path / "mine.py"), "Bot")
    path.write_text('game = "cg-holdem"\nspeed = 1\n[programs]\na = "cat"\n')
    with pytest.raises(LeagueError, match="unknown key"):
        load_toml(path)
    path.write_text("game = ")
    with pytest.raises(LeagueError, match="not valid TOML"):
        load_toml(path)


def test_a_league_file_that_is_a_folder_or_not_text_is_refused_in_one_line(tmp_path):
    with pytest.raises(LeagueError, match=r"is a folder; accepted: a league's TOML file"):
        load_toml(tmp_path)
    binary = tmp_path / "league.toml"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(LeagueError, match=r"cannot be read as a league's TOML file \(UnicodeDecodeError\)"):
        load_toml(binary)
