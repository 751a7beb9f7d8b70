"""The built-in games' judges equal their contract adapters played by the one referee loop
(engine/core/referee.py): the registered in-process bots, seated as each judge seats them, get
exactly the judge's payoffs on the same seeds and units (issue 26, item 2)."""

from engine.core.referee import play_match, play_unit
from engine.holdem_training.rules import CHECK, RAISE, Action

# -- Splendor ---------------------------------------------------------------------------------------------


class Misspeller:
    """Wraps a Splendor bot: spells its move other ways the arbiter accepts (colours and returns
    reversed, a '+' sign, spaces and newlines), and every `every`-th turn answers something the
    arbiter refuses instead, so the judge's spellings and passes are exercised."""

    def __init__(self, bot, every: int = 5):
        self.bot, self.every, self.turns = bot, every, 0

    def new_game(self, key: int) -> None:
        if hasattr(self.bot, "new_game"):
            self.bot.new_game(key)

    def act(self, obs) -> str:
        self.turns += 1
        text = self.bot.act(obs)
        if self.turns % self.every == 0:
            return ("1 2 0 0", "4 0", "2", "x", "1 1 01", "3 -1 0 0 0 0")[self.turns // self.every % 6]
        words = text.split()
        if words[0] == "1":
            count = int(words[1])
            words = words[:2] + words[2:2 + count][::-1] + words[2 + count:][::-1]
        else:
            words = words[:2] + words[2:][::-1]
        return "\n +" + "  ".join(words) + " \t"


def _splendor_lineup(players: int, make):
    from engine.splendor.game import bot_seat

    return [bot_seat(make(k)) for k in range(players)]


def _splendor_agents(players: int, make):
    from engine.splendor.agents import InProcessAgent

    return [InProcessAgent(f"a{k}", make(k)) for k in range(players)]


def _splendor_matches(players: int, make, *, seed: int, first: int, count: int):
    """The judge's chunk and the loop's match with fresh bots from `make(entrant)` (0: the candidate)."""
    from engine.splendor import judge
    from engine.splendor.game import GAME, Splendor, candidate_seating
    from engine.splendor.rules import SplendorConfig

    game = GAME if players == 2 else Splendor(SplendorConfig(players=players))
    agents = _splendor_agents(players, make)
    log = judge.play_chunk(agents[0], agents[1:], seed=seed, first=first, count=count)
    played = play_match(game, _splendor_lineup(players, make), seed=seed, first=first, count=count,
                        seating=candidate_seating(players))
    return log, played


def test_splendor_through_the_loop_returns_what_its_judge_returns():
    from bots.splendor import BOTS

    makers = {"greedy": BOTS["greedy"].make, "random": BOTS["random"].make}
    seen = set()
    for players, first, count in ((2, 0, 2), (3, 4, 2)):  # a later chunk deals the judge's later games too
        for name, spec_make in makers.items():
            def make(k, spec_make=spec_make, name=name):
                other = BOTS["random" if name == "greedy" else "greedy"]
                return spec_make() if k == 0 else other.make()

            log, played = _splendor_matches(players, make, seed=11, first=first, count=count)
            assert not played.faults and not played.ended
            assert played.log.payoffs.tolist() == log.payoffs.tolist(), (players, name)
            assert sum(log.events["games"]["passes"]) == 0
            seen |= set(log.payoffs.tolist())
    assert len(seen) > 1  # the games differ, so equal payoffs are no accident of constant results


def test_splendor_spellings_and_invalid_moves_play_as_the_arbiter_plays_them():
    from bots.splendor import BOTS
    from engine.splendor import judge
    from engine.splendor.game import GAME, bot_seat, candidate_seating
    from engine.splendor.state import TurnEvent

    def make(k):
        return Misspeller(BOTS["random" if k else "greedy"].make(), every=4 + k)

    log, played = _splendor_matches(2, make, seed=5, first=0, count=3)
    assert played.log.payoffs.tolist() == log.payoffs.tolist()
    passes = sum(log.events["games"]["passes"])  # the candidate's passes, as the judge counts them
    assert passes > 0 and sum(f.entrant == 0 for f in played.faults) == passes
    assert {f.rule for f in played.faults} == {"default_action"}
    # and the same turns, move by move, for one game
    agents = _splendor_agents(2, make)
    for seat, agent in enumerate(agents):
        agent.new_game(judge.bot_key(5, 0, seat))
    result = judge.play_game(agents, judge.game_deal(5, 0, 2))
    seats = [bot_seat(make(k)) for k in range(2)]
    unit = play_unit(GAME, [seats[k] for k in candidate_seating(2)(0)], 5, 0)
    events = [e for _, e in unit.events]
    assert all(isinstance(e, TurnEvent) for e in events)
    assert [(e.seat, e.round, e.tokens, sorted(e.returns), e.noble) for e in events] == \
        [(t.event.seat, t.event.round, t.event.tokens, sorted(t.event.returns), t.event.noble) for t in result.turns]
    assert [e.move is None for e in events] == [t.event.move is None for t in result.turns]
    assert any(e.move is None for e in events)
    assert any(list(t.event.returns) != sorted(t.event.returns) for t in result.turns)  # misspelled returns
    assert unit.returns == tuple(result.share(s) for s in range(2))


# -- Hold'em Training -------------------------------------------------------------------------------------

def test_holdem_training_through_the_loop_returns_what_its_judge_returns():
    from bots.holdem_training import BOTS
    from engine.holdem_training import judge
    from engine.holdem_training.game import GAME, AliceSeat

    seen = set()
    for name in sorted(BOTS):
        for first, count in ((0, 12), (30, 8)):  # a later chunk deals the judge's later hands too
            budget = 300 * count  # the workspace's share per hand
            log = judge.play_chunk(BOTS[name].make(), seed=11, first=first, count=count, rate_budget=budget)
            played = play_match(GAME, [AliceSeat(BOTS[name].make(), hands=count, rate_budget=budget)],
                                seed=11, first=first, count=count)
            assert not played.faults and not played.ended
            assert played.log.payoffs.tolist() == log.payoffs.tolist(), (name, first)
            seen |= set(log.payoffs.tolist())
    assert len(seen) > 3


class Rater:
    """Asks RATE t at each decision (t growing), then raises 5 chips when the answer wins often: each
    RATE moves the stream Bob's answers draw from, and the budget runs out within the match."""

    def __init__(self):
        self.t, self.calls = 0, []

    def start_match(self, hands, rate_budget):
        self.calls.append(("start", hands, rate_budget))

    def act(self, view, rate):
        self.t += 7
        win, _ = rate(self.t)
        return Action(RAISE, min(view.stack, 5)) if win > 0.5 and view.stack else Action(CHECK)

    def observe(self, view, action, response):
        self.calls.append(("observe", view, action, response))

    def end_hand(self, hand, delta):
        self.calls.append(("end", hand, delta))


def test_holdem_training_rate_hooks_and_budget_end_as_in_the_judge():
    from engine.holdem_training import judge
    from engine.holdem_training.game import GAME, AliceSeat

    alone, seated = Rater(), Rater()
    result = judge.play_match(alone, seed=3, hands=10, rate_budget=1500)
    played = play_match(GAME, [AliceSeat(seated, hands=10, rate_budget=1500)], seed=3, first=0, count=10)
    assert result.status == "aborted" and played.ended  # the budget ran out in the same hand
    assert played.log.payoffs.tolist() == result.log.payoffs.tolist() and played.log.count > 2
    assert seated.calls == alone.calls  # start_match, every OPP answer and hand result alike
    assert {c[3] for c in alone.calls if c[0] == "observe"} >= {"CALL", "CHECK"}
    assert "budget" in played.faults[-1].reason


# -- TwoCardDraw ------------------------------------------------------------------------------------------

def test_twocarddraw_through_the_loop_returns_what_its_judge_returns():
    from bots.twocarddraw import BOTS
    from engine.twocarddraw import judge
    from engine.twocarddraw.game import PlayerSeat, TwoCardDraw

    server = judge.load_server(judge.MatchOptions(steps=2_000))  # a quickly generated server
    game = TwoCardDraw(server=server)
    seen = set()
    for name in sorted(BOTS):
        for first, count in ((0, 30), (40, 20)):  # a later chunk deals the judge's later hands too
            bot = BOTS[name].make()
            result = judge.play_bot(bot, server, seed=11, first=first, count=count)
            assert result.status == judge.OK
            learns = getattr(bot, "learns_across_hands", False)  # the judge replays such a bot from hand 0
            start = 0 if learns else first
            played = play_match(game, [PlayerSeat(BOTS[name].make(), server)], seed=11, first=start,
                                count=first + count - start)
            assert not played.faults and not played.ended
            assert played.log.payoffs.tolist()[first - start:] == result.profits.tolist(), (name, first)
            seen |= set(result.profits.tolist())
    assert len(seen) > 3


class Caller:
    """A tester-shaped TwoCardDraw bot that records every call and answers from a hash of it; its
    `wrong`-th call answers 7, which the tester refuses (the match ends there)."""

    def __init__(self, wrong: int = 0):
        self.calls, self.wrong = [], wrong

    def _answer(self, *call):
        self.calls.append(call)
        if len(self.calls) == self.wrong:
            return 7
        return (sum(call[1:]) + len(self.calls)) % (2 if call[0] == "new_hand" else 3)

    def init(self, bet1, bet2):
        return self._answer("init", bet1, bet2)

    def new_hand(self, card1, card2, winnings):
        return self._answer("new_hand", card1, card2, winnings)

    def round1(self, card1, card2, bets):
        return self._answer("round1", card1, card2, bets)

    def draw(self, card1, card2, bets):
        return self._answer("draw", card1, card2, bets)

    def round2(self, card1, card2, bets1, bets2, drew):
        return self._answer("round2", card1, card2, bets1, bets2, drew)

    def showdown(self, card1, card2, opp1, opp2):
        return self._answer("showdown", card1, card2, opp1, opp2)


def test_twocarddraw_tester_calls_and_a_refused_answer_as_in_the_judge():
    from engine.twocarddraw import judge
    from engine.twocarddraw.game import PlayerSeat, TwoCardDraw

    server = judge.load_server(judge.MatchOptions(steps=2_000))
    game = TwoCardDraw(server=server)
    alone, seated = Caller(), Caller()
    result = judge.play_bot(alone, server, seed=4, first=10, count=40)
    played = play_match(game, [PlayerSeat(seated, server)], seed=4, first=10, count=40)
    assert played.log.payoffs.tolist() == result.profits.tolist() and seated.calls == alone.calls
    assert {c[0] for c in alone.calls} == {"init", "new_hand", "round1", "draw", "round2", "showdown"}
    assert len({c[3] for c in alone.calls if c[0] == "new_hand"}) > 3  # the winnings so far vary

    wrong = len(alone.calls) // 2
    alone, seated = Caller(wrong), Caller(wrong)
    result = judge.play_bot(alone, server, seed=4, first=10, count=40)
    played = play_match(game, [PlayerSeat(seated, server)], seed=4, first=10, count=40)
    assert result.status == judge.INVALID and played.ended and played.faults[-1].kind == "bad-output"
    assert played.log.payoffs.tolist() == result.profits.tolist() and 0 < played.log.count < 40
    assert seated.calls == alone.calls


# -- CodinGame Hold'em ------------------------------------------------------------------------------------

def test_cg_holdem_through_the_loop_returns_what_its_judge_returns():
    from bots.cg_holdem import BOTS
    from engine.cg_holdem import judge
    from engine.cg_holdem.game import CgHoldem, CgSeat
    from engine.cg_holdem.rules import GameConfig
    from engine.core.referee import rotation

    names = sorted(BOTS)
    seen = set()
    for players, first, count in ((2, 0, 2), (3, 5, 3), (4, 2, 2)):  # rotations and later deals too
        makers = [BOTS[names[(first + k) % len(names)]].make for k in range(players)]
        log = judge.play_chunk(makers, seed=11, first=first, count=count)
        game = CgHoldem(GameConfig(players=players))
        played = play_match(game, [CgSeat(make, k) for k, make in enumerate(makers)], seed=11, first=first,
                            count=count, seating=rotation(players))
        assert not played.faults and not played.ended
        assert played.log.payoffs.tolist() == log.payoffs.tolist(), (players, first)
        seen |= set(log.payoffs.tolist())
    assert len(seen) > 1  # the games differ, so equal scores are no accident of constant results


class Talker:
    """A CodinGame bot that records what it is shown and answers outputs the referee replaces or reads
    its own way (lower case, a BET_ spelling, a short or huge bet, CHECK facing a bet, garbage, TIMEOUT)."""

    ANSWERS = ("CALL", "check", "BET 1", "bet_7", "ALL_IN", "RAISE 5", "BET 99999999999", "FOLD;hi",
               " CALL ", "BET -3", "CHECK", "BET 40", "CALL", "ALL-IN", "TIMEOUT")

    def __init__(self, offset: int):
        self.offset, self.shown = offset, []

    def start(self, setup):
        self.shown.append(setup)

    def act(self, turn):
        self.shown.append(turn)
        return self.ANSWERS[(self.offset + len(self.shown)) % len(self.ANSWERS)]


def test_cg_holdem_inputs_and_replaced_outputs_as_in_the_judge():
    from engine.cg_holdem import judge
    from engine.cg_holdem.game import CgHoldem, CgSeat
    from engine.cg_holdem.rules import GameConfig
    from engine.core.referee import rotation

    def lineup():
        bots = [Talker(k * 4) for k in range(3)]
        return bots, [lambda b=b: b for b in bots]

    alone, makers = lineup()
    log = judge.play_chunk(makers, seed=3, first=1, count=3)
    seated, makers = lineup()
    played = play_match(CgHoldem(GameConfig(players=3)), [CgSeat(make, k) for k, make in enumerate(makers)],
                        seed=3, first=1, count=3, seating=rotation(3))
    assert played.log.payoffs.tolist() == log.payoffs.tolist()
    assert [b.shown for b in seated] == [b.shown for b in alone] and sum(len(b.shown) for b in alone) > 30
    acts = log.events["actions"]["action"]
    assert {"TIMEOUT", "FOLD", "ALL-IN"} <= set(acts) and any(a.startswith("BET_") for a in acts)
