"""Fixed bots: the statement's sample and best responses to a known or averaged strategy."""

from bots.twocarddraw.prior import BankUser, load_bank
from bots.twocarddraw.tracker import PolicyBot, TrackingBot
from engine.core.errors import BadValue
from engine.twocarddraw import rules as R
from engine.twocarddraw.best_response import best_response
from engine.twocarddraw.protocol import read_strategy
from engine.twocarddraw.strategy import Strategy


class SampleBot(TrackingBot):
    """Bet/raise with 4-4, otherwise check/call; never draws (as the statement's sample)."""

    def choose_round1(self, hand: int, bets: int) -> int:
        return R.RAISE if hand == R.BEST_HAND and bets < R.MAX_BETS else R.CALL

    def choose_draw(self, hand: int, history: int) -> int:
        return 0

    def choose_round2(self, hand: int, history: int, player_drew: int, server_drew: int, bets2: int) -> int:
        return self.choose_round1(hand, bets2)


class OracleBot(PolicyBot):
    """Best response to the true strategy file: the ceiling, not a contest entry."""

    def __init__(self, config):
        super().__init__()
        self.strategy = read_strategy(config.strategy).strategy if config.strategy else None

    def reveal_strategy(self, strategy: Strategy) -> None:
        """The judge hands a ceiling bot the truth when no strategy file was configured."""
        if self.strategy is None:
            self.strategy = strategy

    def on_init(self) -> None:
        if self.strategy is None:
            raise BadValue("oracle needs strategy=FILE or a judge that reveals the server's strategy")
        if self.strategy.bets != self.bets:
            raise BadValue(f"oracle file is for {self.strategy.bets}, the test uses {self.bets}")
        self.policy = best_response(self.strategy).policy


class PriorBestResponseBot(BankUser, PolicyBot):
    """Best response to the mean of a bank of strategies generated for the test's bet sizes."""

    def __init__(self, config):
        super().__init__()
        self.config = config

    def on_init(self) -> None:
        bank = load_bank(self.bets, count=self.config.prior_count, seed=self.config.prior_seed)
        self.policy = best_response(Strategy(self.bets, bank.mean)).policy
