"""PHH import (issue 27): cardlab's own logged games, exported as PHH and read back, give the decisions
(situations, classes, sizes, legal moves) of the hand log's replay, and so the same fitted model;
PokerKit reads the files the reader accepts and agrees with its stacks; a malformed file is refused
in one line naming the file, the hand and the fault."""

import collections
import json

import pytest

from bots.cg_holdem.clone import ALLIN, CLASSES, PASSIVE, RAISE, UNSHOWN
from engine.cg_holdem.phh_read import BadHistory, read_bytes, read_file, replay
from flows.match import MatchPlan, run_match
from flows.opponents import cg_holdem as cg
from flows.phh_export import export_match
from flows.store import HandLog, read_only
from tests.cli.test_cli import cardlab as run_cli
from tests.scratch import scratch_home

EXACT = ("station", "montecarlo", 23)  # a match whose every hand PHH states exactly (no raise nobody could answer)
MIXED = ("montecarlo", "aggressive", 26)  # one with raises over an all-in, which PHH can only write as calls

# A hand from elsewhere: 3 players, blinds 50/100 with a 10 ante, p1's cards never shown, p2's shown at
# the end, a comment; the same hand in currency units (0.5/1) must read the same.
ELSEWHERE = """variant = "NT"
antes = [10, 10, 10]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 8000, 3000]
players = ["ann", "bob", "cy"]
actions = [
  "d dh p1 ????", "d dh p2 ????", "d dh p3 AhKh",
  "p3 cbr 300", "p1 f", "p2 cc",
  "d db 2c7dJh", "p2 cc", "p3 cbr 400  # a continuation bet", "p2 cbr 1600", "p3 cbr 2690", "p2 cc",
  "d db Qs", "d db 3c",
  "p2 sm QdJd", "p3 sm AhKh",
]
"""


def _currency(text: str) -> str:
    swaps = {"[10, 10, 10]": "[0.1, 0.1, 0.1]", "[50, 100, 0]": "[0.5, 1, 0]", "min_bet = 100": "min_bet = 1",
             "[10000, 8000, 3000]": "[100, 80, 30]", "cbr 300": "cbr 3", "cbr 400": "cbr 4", "cbr 1600": "cbr 16",
             "cbr 2690": "cbr 26.9"}
    for old, new in swaps.items():
        text = text.replace(old, new)
    return text


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """Two logged heads-up matches of 10 games, each exported as PHH files with the existing exporter."""
    with scratch_home(tmp_path_factory, "phh_import") as home:
        with HandLog() as store:
            ids = [run_match(MatchPlan(game="cg-holdem", bot=bot, options=(("opponents", opp), ("players", "2")),
                                       seed=seed, units=10, chunk_size=10), store).match_id
                   for bot, opp, seed in (EXACT, MIXED)]
        con = read_only()
        try:
            files = {m: export_match(con, m, home / "phh" / m).files for m in ids}
            yield {"home": home, "exact": ids[0], "mixed": ids[1], "files": files, "con": con}
        finally:
            con.close()


def _both(logged, which: str, player: str):
    match = logged[which]
    from_log, _ = cg.decisions(logged["con"], player, [match], holdout=0.0)
    from_phh, _ = cg.file_decisions(player, logged["files"][match], holdout=0.0)
    return collections.Counter(from_log), collections.Counter(from_phh)


@pytest.mark.parametrize("player", [EXACT[0], EXACT[1]])
def test_exported_games_read_back_to_the_hand_logs_decisions(logged, player):
    from_log, from_phh = _both(logged, "exact", player)
    assert from_phh == from_log
    mine = [d for d in from_log.elements() if d.player]
    assert len(mine) > 300 and {d.cls for d in from_log} >= {CLASSES.index(PASSIVE), CLASSES.index(RAISE)}
    assert any(d.size is not None for d in mine) or player == "station"  # sizes came through too


def test_fit_from_phh_is_the_fit_from_the_hand_log(logged):
    match, files = logged["exact"], logged["files"][logged["exact"]]
    from_log = cg.fit(logged["con"], "montecarlo", matches=[match], holdout=0.0)
    from_phh = cg.fit(None, "montecarlo", files=files, holdout=0.0)
    assert from_phh.decisions == from_log.decisions > 300
    assert from_phh.params == from_log.params
    # held out by hand, deterministically: the same split twice, another one for another seed
    split = cg.fit(None, "montecarlo", files=files, seed=3)
    assert 0 < split.heldout_decisions < split.decisions
    assert cg.fit(None, "montecarlo", files=files, seed=3) == split
    # (the digest of the decisions fitted: two splits can hold out as many decisions, not the same ones)
    assert cg.fit(None, "montecarlo", files=files, seed=4).data != split.data
    assert split.heldout_logloss < split.uniform_logloss
    assert all(s.startswith("phh:") for s in split.sources) and len(split.sources) == len(files)
    # histories and the hand log together: the decisions of both, the match and the files as sources
    other = logged["files"][logged["mixed"]]
    both = cg.fit(logged["con"], "montecarlo", matches=[match], files=other, holdout=0.0)
    assert both.decisions == from_log.decisions + cg.fit(None, "montecarlo", files=other, holdout=0.0).decisions
    assert both.sources[0] == match and len(both.sources) == 1 + len(other)


def test_the_only_differences_are_raises_nobody_could_answer(logged):
    """PokerKit refuses a raise no live seat can answer, so the exporter writes it as a call: the one
    loss of the round trip. Every difference must be such a raise read back as a call, and rare."""
    from_log, from_phh = _both(logged, "mixed", "montecarlo")
    lost, gained = from_log - from_phh, from_phh - from_log
    assert 0 < sum(lost.values()) == sum(gained.values()) <= 0.01 * sum(from_log.values())  # the case is met
    as_calls = collections.Counter(d.__class__(**{**d.__dict__, "cls": CLASSES.index(PASSIVE), "size": None})
                                   for d in lost.elements())
    assert as_calls == gained
    assert all(CLASSES[d.cls] in (RAISE, ALLIN) for d in lost)


def _pokerkit_stacks(text: str, scale: int = 1) -> list[list[list[int]]]:
    """Per hand, PokerKit's stacks just before each betting action (f, cc, cbr), times `scale`."""
    pokerkit = pytest.importorskip("pokerkit")  # a test dependency (requirements-test.lock)
    hands = []
    for history in pokerkit.HandHistory.loads_all(text) if text.lstrip().startswith("[") else \
            [pokerkit.HandHistory.loads(text)]:
        before, found = None, []
        for state, action in history.state_actions:
            if action is not None and action.split("#")[0].split()[1] in ("f", "cc", "cbr"):
                found.append(before)
            before = [round(x * scale) for x in state.stacks]
        hands.append(found)
    return hands


def test_pokerkit_reads_what_the_reader_accepts_and_agrees_on_the_stacks(logged):
    files = [f for m in (logged["exact"], logged["mixed"]) for f in logged["files"][m]]
    compared = 0
    for path in files:
        text = path.read_text()
        ours = [[list(step.turn.stacks) for step in replay(hand)] for hand in read_file(path)]
        theirs = _pokerkit_stacks(text)
        assert len(theirs) == len(ours)
        assert theirs == ours, path.name
        compared += len(ours)
    assert compared > 400
    for text in (ELSEWHERE, _currency(ELSEWHERE)):
        (hand,) = read_bytes(text.encode(), "elsewhere.phh")
        expected = _pokerkit_stacks(text, 10 if "min_bet = 1\n" in text else 1)[0]  # 0.1 is the smallest unit
        assert len(expected) == 8 and [list(step.turn.stacks) for step in replay(hand)] == expected


def test_what_pokerkit_writes_is_read_with_its_stacks():
    """A heads-up hand written by PokerKit itself (its quoting, a big-blind ante posted swapped)."""
    pokerkit = pytest.importorskip("pokerkit")
    game = pokerkit.NoLimitTexasHoldem((pokerkit.Automation.ANTE_POSTING, pokerkit.Automation.BET_COLLECTION,
                                        pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
                                        pokerkit.Automation.CARD_BURNING, pokerkit.Automation.CHIPS_PUSHING,
                                        pokerkit.Automation.CHIPS_PULLING), False, {1: 200}, (100, 200), 200)
    state = game((5000, 3000), 2)
    state.deal_hole("AsKs")
    state.deal_hole("7c7d")
    for act in ("complete_bet_or_raise_to:600", "check_or_call", "deal_board:Jc3d5c", "check_or_call",
                "complete_bet_or_raise_to:900", "complete_bet_or_raise_to:2200", "fold"):
        name, _, arg = act.partition(":")
        getattr(state, name)(*([int(arg)] if arg.isdigit() else [arg] if arg else []))
    history = pokerkit.HandHistory.from_game_state(game, state)
    history.players = ["bb", "button"]
    text = history.dumps()
    (hand,) = read_bytes(text.encode(), "pokerkit.phh")
    assert "antes = [0, 200]" in text.replace("'", "")
    assert hand.antes == (200, 0) and hand.blinds == (200, 100)  # swapped heads-up: p1, the big blind, posts both
    assert [list(step.turn.stacks) for step in replay(hand)] == _pokerkit_stacks(text)[0]
    steps = [step.text for step in replay(hand)]
    assert steps == ["BET_500", "CALL", "CHECK", "BET_900", "BET_2200", "FOLD"]  # BET_x: the chips added


def test_a_hand_from_elsewhere_reads_the_same_in_chips_or_currency(tmp_path):
    (tmp_path / "chips.phh").write_text(ELSEWHERE)
    (tmp_path / "money.phh").write_text(_currency(ELSEWHERE))
    for player, strength_known in (("cy", True), ("bob", True), ("ann", False)):
        chips, _ = cg.file_decisions(player, [tmp_path / "chips.phh"], holdout=0.0)
        money, _ = cg.file_decisions(player, [tmp_path / "money.phh"], holdout=0.0)
        assert [d.key for d in chips] == [d.key for d in money]
        mine = [d for d in chips if d.player]
        assert mine and all((d.key.split("|")[2] != UNSHOWN) == strength_known for d in mine)
    cy = [d for d in cg.file_decisions("cy", [tmp_path / "chips.phh"], holdout=0.0)[0] if d.player]
    # cy raises preflop, bets the flop as the last raiser (lead, line: no raise faced, raised preflop), then
    # goes all-in (the 2690 left) facing a raise over its bet
    assert [CLASSES[d.cls] for d in cy] == [RAISE, RAISE, ALLIN]
    assert [d.key.split("|")[0] for d in cy] == ["0", "1", "1"] and cy[1].key.split("|")[6:] == ["1", "01"]
    assert cy[2].key.split("|")[6:] == ["0", "21"] and cy[0].key.split("|")[7] == "0"


MALFORMED = [
    ("variant = [", "not TOML"),
    ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nstarting_stacks = [100, 100]\nactions = []\n',
     "no min_bet"),
    ('variant = "FT"\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nmin_bet = 10\nstarting_stacks = [100, 100]\n'
     "actions = []\n", "variant 'FT'"),
    ('variant = "NT"\nantes = [0, 0, 0]\nblinds_or_straddles = [5, 10]\nmin_bet = 10\nstarting_stacks = [100, 100]\n'
     "actions = []\n", "antes has 3 values for 2 players"),
    ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nmin_bet = 10\nstarting_stacks = [100, 100]\n'
     'actions = ["p3 cc"]\n', "player 'p3'; accepted: p1 to p2"),
    ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nmin_bet = 10\nstarting_stacks = [100, 100]\n'
     'actions = ["d dh p1 AsXs"]\n', "cards 'AsXs'"),
    ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nmin_bet = 10\nstarting_stacks = [100, 100]\n'
     'actions = ["p2 cbr 8"]\n', "p2 cbr 8 is not above the street's top bet 10"),
    ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nmin_bet = 10\nstarting_stacks = [100, 100]\n'
     'actions = ["p2 cbr 500"]\n', "more than the 95 chips p2 has"),
    ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nmin_bet = 10\nstarting_stacks = [100, 100]\n'
     'actions = ["p2 f", "p2 cc"]\n', "p2 acts (cc) but has folded"),
    ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nmin_bet = 10\nstarting_stacks = [100, 100]\n'
     'players = ["a"]\nactions = []\n', "players = ['a']; accepted: 2 names"),
    ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nmin_bet = 10\nstarting_stacks = [100, 100]\n'
     'actions = ["p2 cc", "p1 cc", "d db 2c3c"]\n', "a board of 2 cards"),
    ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nmin_bet = 10\nstarting_stacks = [100, 100]\n'
     'actions = ["p1 bet 20"]\n', "action 'p1 bet 20'; accepted:"),
    ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nmin_bet = 10\nstarting_stacks = [100, 100]\n'
     'actions = ["p2 cbr inf"]\n', "amount 'inf'; accepted: a number"),
    ("[1]\nvariant = 3\n[2]\nx = 1\n", "hand 1: no antes"),
]


@pytest.mark.parametrize(("text", "fault"), MALFORMED)
def test_a_malformed_history_is_one_line_naming_file_hand_and_fault(text, fault):
    with pytest.raises(BadHistory) as caught:
        read_bytes(text.encode(), "bad.phh")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("bad.phh") and fault in message
    assert message.startswith("bad.phh: not TOML") or message.startswith("bad.phh hand 1:")


def test_a_second_section_is_named_in_the_message():
    good = ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nmin_bet = 10\n'
            'starting_stacks = [100, 100]\nactions = ["p2 cc", "p1 cc"]\n')
    text = f"[1]\n{good}[g7]\n{good.replace('p1 cc', 'p1 cbr 5')}"
    with pytest.raises(BadHistory, match=r"^two\.phhs hand g7: p1 cbr 5 is not above"):
        read_bytes(text.encode(), "two.phhs")


def _cli(monkeypatch, *args):
    return run_cli(None, monkeypatch, *args)


@pytest.mark.slow  # two fits, each a new MLflow run: about 60 s on the shared machine
def test_import_then_fit_imported_is_the_fit_of_the_files(logged, tmp_path, monkeypatch):
    monkeypatch.setenv("CARDLAB_HOME", str(tmp_path))
    monkeypatch.setenv("CARDLAB_DB", str(tmp_path / "handlog.duckdb"))
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path / 'mlflow.db'}")
    monkeypatch.setenv("CARDLAB_ARTIFACT_ROOT", str(tmp_path / "artifacts"))
    folder = logged["home"] / "phh" / logged["exact"]
    code, out, err = _cli(monkeypatch, "phh", "import", str(folder), "--json")
    assert code == 0, err
    imported = json.loads(out.strip().splitlines()[-1])
    assert imported["players"] == ["montecarlo", "station"] and imported["hands"] > 100
    assert len(imported["files"]) == 10 and all(f["new"] for f in imported["files"])
    code, out, err = _cli(monkeypatch, "phh", "import", str(folder), "--json")  # the same content: kept once
    assert code == 0 and not any(f["new"] for f in json.loads(out.strip().splitlines()[-1])["files"])
    fits = []
    for source in ("imported", str(folder)):
        code, out, err = _cli(monkeypatch, "fit", "cg-holdem", "--player", "station", "--phh", source, "--json")
        assert code == 0, err
        fits.append(json.loads(out.strip().splitlines()[-1]))
    assert fits[0]["model"] == fits[1]["model"] and fits[0]["decisions"] > 100
    assert fits[0]["heldout_logloss"] < fits[0]["uniform_logloss"]
    code, out, _ = _cli(monkeypatch, "phh", "list")
    assert code == 0 and "10 file(s)" in out


def test_import_of_a_malformed_file_is_one_line_and_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDLAB_HOME", str(tmp_path))
    monkeypatch.setenv("CARDLAB_DB", str(tmp_path / "handlog.duckdb"))
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a_good.phh").write_text(ELSEWHERE)  # checked first, yet not kept either
    (tmp_path / "in" / "broken.phh").write_text(MALFORMED[6][0])
    code, out, err = _cli(monkeypatch, "phh", "import", str(tmp_path / "in"))
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and "broken.phh hand 1: p2 cbr 8" in err
    assert not (tmp_path / "histories").exists() or not any((tmp_path / "histories").iterdir())
    code, _, err = _cli(monkeypatch, "fit", "cg-holdem", "--player", "x", "--phh", "imported")
    assert code == 2 and "no histories imported" in err and err.strip().count("\n") == 0
