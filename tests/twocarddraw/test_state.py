"""The hand's state machine against the statement's betting table and worked example."""

import copy

from engine.twocarddraw import rules as R
from engine.twocarddraw.state import BET1, BET2, OVER, HandState

# The statement's 13 betting sequences (YOU, OPP, YOU, ...), plus check-fold which the
# statement omits because the server never folds when calling is free.
STATEMENT_TABLE = {
    "kc", "krf", "krc", "krrf", "krrc", "krrrf", "krrrc", "bf", "bc", "brf", "brc", "brrf", "brrc",
}


def _sequences(st: HandState, phase: str) -> set[str]:
    if st.phase != phase:
        return {st.round_letters(phase)}
    out = set()
    for code in st.legal():
        child = copy.deepcopy(st)
        child.apply(code)
        out |= _sequences(child, phase)
    return out


def test_round_sequences_are_the_statements_table():
    assert _sequences(HandState(R.BetSizes(1, 2)), BET1) == STATEMENT_TABLE | {"kf"}


def test_statement_worked_example_loses_ante_plus_one_small_bet():
    st = HandState(R.BetSizes(3, 5))
    for code in (R.RAISE, R.CALL, 1, 1, R.CALL, R.CALL):  # bet, call, draw 1, draw 1, check, check
        st.apply(code)
    assert st.phase == OVER and st.folded < 0 and st.history == R.history_index(1, R.PLAYER)
    assert st.round_letters(BET1) == "bc" and st.round_letters(BET2) == "kc"
    player, server = R.hand_index(2, 4), R.hand_index(3, 4)
    assert st.profit(player, server) == -(1 + 3)


def test_fold_pots_follow_the_spec():
    st = HandState(R.BetSizes(2, 4))
    for code in (R.CALL, R.RAISE, R.RAISE, R.FOLD):  # check, server bets, player raises, server folds
        st.apply(code)
    assert st.folded == R.SERVER and st.profit(0, 14) == 1 + 2  # ante + the server's one bet
    st = HandState(R.BetSizes(2, 4))
    for code in (R.RAISE, R.CALL, 0, 0, R.RAISE, R.RAISE, R.RAISE, R.CALL):
        st.apply(code)
    assert st.profit(14, 0) == 1 + 2 + 3 * 4 and st.history == R.history_index(1, R.PLAYER)
