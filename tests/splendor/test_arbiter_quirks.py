"""The arbiter's record details, limits and small rules, each against text written by hand
from what the arbiter does (its json_encode, trim(), ulimit -t and realpath)."""

import json
import sys
import textwrap

import pytest

from engine.splendor.agents import ExternalAgent
from engine.splendor.judge import play_game, play_match
from engine.splendor.php_rng import arbiter_deals
from engine.splendor.protocol import kibitzes, output_tokens
from engine.splendor.record import check_file, record_of, save_game
from engine.splendor.rules import SplendorConfig

from .test_external import agent
from .test_protocol import EXAMPLE

SCRIPT = """
    import sys
    rnd = int(sys.stdin.read().split("\\n")[1])
    for line in {kibitz!r}.get(rnd, []):
        sys.stderr.write(line + "\\n")
    print({moves!r}[rnd])
"""


def scripted(tmp_path, name, moves, kibitz=None):
    folder = tmp_path / f"agent{len(list(tmp_path.iterdir()))}"
    folder.mkdir()
    (folder / "agent.py").write_text(textwrap.dedent(SCRIPT.format(moves=moves, kibitz=kibitz or {})))
    return ExternalAgent(name, f"{sys.executable} {folder / 'agent.py'}")


def turn(tokens, returns=(), msg="", kib=()):
    return {"tokens": list(tokens), "returns": list(returns), "nobleId": 0, "kibitzes": list(kib), "arbiterMsg": msg}


@pytest.mark.slow  # a whole scripted game
def test_a_scripted_game_records_returns_messages_and_kibitzes_as_the_arbiter_does(tmp_path):
    agents_dir = tmp_path / "agents"
    agents_dir.mkdir()
    first = scripted(agents_dir, "a/b", {1: "1 3 0 1 2", 2: "1 3 0 1 2", 3: "1 3 2 3 4", 4: "1 3 0 1 2 0 1", 5: "1 0"},
                     {1: ["kibitz \u00a0x/y\u00a0 \t", "kibitzer no", " kibitz no", "kibitz é"]})
    second = scripted(agents_dir, "x", {1: "4 99", 2: "1 2 +3 +4", 3: "1 0", 4: "2 0", 5: "1 0"})
    deal = arbiter_deals(7, 2, 1)[0]
    config = SplendorConfig(players=2, max_rounds=5)
    result = play_game([first, second], deal, config=config, keep_inputs=True)
    rounds = [
        [turn([1, 1, 1, 1, 0, 0], kib=["\u00a0x/y\u00a0", "é"]),
         turn([1, 0, 0, 0, 0, 0], msg="Sar peste x: Valoarea 99 nu este cuprinsă între 1 și 90.")],
        [turn([1, 1, 1, 1, 0, 0]), turn([1, 0, 0, 0, 1, 1])],
        [turn([1, 0, 0, 1, 1, 1]), turn([1, 0, 0, 0, 0, 0])],
        [turn([1, 1, 1, 1, 0, 0], ["0", "1"], "a/b a returnat jetoane de culorile 0, 1."),
         turn([1, 0, 0, 0, 0, 0], msg="Sar peste x: Există doar 2 jetoane de culoarea 0.")],
        [turn([1, 0, 0, 0, 0, 0]), turn([1, 0, 0, 0, 0, 0])],
    ]
    assert record_of(result)["rounds"] == rounds
    path = save_game(result, tmp_path, 1, inputs=True)
    text = path.read_text()
    # json_encode: ASCII only, "/" escaped everywhere (names, messages, kibitzes), no spaces.
    assert '"players":["a\\/b","x"]' in text and '"kibitzes":["\\u00a0x\\/y\\u00a0","\\u00e9"]' in text
    assert '"returns":["0","1"],"nobleId":0,"kibitzes":[],"arbiterMsg":"a\\/b a returnat jetoane de culorile 0, 1."' \
        in text
    assert json.loads(text)["rounds"] == rounds
    check_file(path, tmp_path / "inputs-001", config=config)


def test_plus_signed_tokens_mean_their_number_as_the_protocol_says(tmp_path):
    """The arbiter validates "+3" as 3 but then indexes its chip arrays with the string "+3": the
    player gets a phantom seventh chip entry and the board's colour 3 never goes down (its own
    state is corrupted from there on). cardlab follows the protocol's meaning instead: "+3" is
    colour 3, the chips move, and every later stdin keeps six counts per line."""
    agents_dir = tmp_path / "agents"
    agents_dir.mkdir()
    plus = scripted(agents_dir, "plus", {r: "1 2 +3 +4" if r == 1 else "1 0" for r in range(1, 4)})
    other = scripted(agents_dir, "other", {r: "1 0" for r in range(1, 4)})
    result = play_game([plus, other], arbiter_deals(7, 2, 1)[0], config=SplendorConfig(players=2, max_rounds=2),
                       keep_inputs=True)
    assert result.turns[0].event.tokens == (1, 0, 0, 0, 1, 1) and result.turns[0].event.message == ""
    after = result.inputs[(1, 2)].split("\n")
    assert after[2] == "4 4 4 3 3 5"  # the board gave one white and one black
    assert after[7] == "0 0 0 1 1 0"  # and the player holds them: six counts, no phantom


def test_kibitz_text_loses_only_phps_trim_characters():
    stderr = "kibitz \u2003wide\u2003\x0b\0 \nkibitz\tno\nkibitz  both ends \r\n"
    assert kibitzes(stderr) == ["\u2003wide\u2003", "both ends"]


def test_kibitzes_come_from_all_of_stderr(tmp_path):
    bot = agent(tmp_path, "talker", """
        import sys
        print("kibitz first", file=sys.stderr)
        sys.stderr.write(("noise " * 100 + "\\n") * 4000)  # ~2.4 MB
        print("kibitz last", file=sys.stderr)
        print("1 0")
    """)
    assert bot.respond(EXAMPLE).kibitzes == ("first", "last")


@pytest.mark.slow  # burns CPU to the limit
def test_the_cpu_limit_kills_even_an_agent_that_catches_sigxcpu(tmp_path):
    # ulimit -t 11 sets soft = hard: the agent is killed at the limit, a SIGXCPU handler never
    # gets to print a move. (1 s here for speed; the contest's 11 s is the default.)
    bot = agent(tmp_path, "catcher", """
        import signal, sys
        def late(*_):
            print("1 0", flush=True)
            sys.exit(0)
        signal.signal(signal.SIGXCPU, late)
        print("kibitz spinning", file=sys.stderr, flush=True)
        while True:
            pass
    """, cpu_seconds=1)
    reply = bot.respond(EXAMPLE)
    assert reply.limit == "cpu" and output_tokens(reply.stdout) == [] and reply.kibitzes == ("spinning",)


@pytest.mark.slow  # sleeps past the CPU limit
def test_a_sleeper_is_not_stopped_by_the_cpu_limit(tmp_path):
    # The arbiter has no wall limit: sleeping past the CPU limit still gets the move counted.
    # cardlab's wall guard (60 s by default) is only a safety net far beyond that.
    bot = agent(tmp_path, "sleeper", """
        import time
        time.sleep(1.5)
        print("1 0")
    """, cpu_seconds=1)
    assert bot.wall_seconds == 60.0
    reply = bot.respond(EXAMPLE)
    assert reply.limit is None and output_tokens(reply.stdout) == ["1", "0"] and reply.wall_seconds > 1.5


def test_php_deals_refuse_seed_zero_which_the_arbiter_replaces_by_the_clock(tmp_path):
    agents_dir = tmp_path / "agents"
    agents_dir.mkdir()
    agents = [scripted(agents_dir, n, {}) for n in ("p", "q")]
    with pytest.raises(ValueError, match="seed 0"):
        play_match(agents, games=1, seed=0, deals="php")
    with pytest.raises(ValueError, match="deals 'mt'"):
        play_match(agents, games=1, seed=1, deals="mt")


def test_records_write_del_raw_as_phps_json_encode_does():
    """PHP escapes control characters below 0x20 but writes DEL (0x7f) as it is; a record with a
    DEL in a kibitz must be the arbiter's bytes, and a kibitz holding the text \\u007f stays text."""
    import json

    from engine.splendor.record import dumps

    record = {"kibitzes": ["a\x7fb", "x\\u007f", "\\\x7f", "tab\there/"]}
    text = dumps(record)
    assert text == '{"kibitzes":["a\x7fb","x\\\\u007f","\\\\\x7f","tab\\there\\/"]}\n'
    assert json.loads(text) == record
