"""What the Hold'em Training judge reports per hand: the hand (deal, how it ended) and each of
Alice's actions with Bob's response. Cards are engine ints (suit * 13 + rank); a hand replays
from its opponent_key, cards and actions (judge.replay_hand)."""

from engine.core.events import INT, STR, UINT, EventSpec

CARDS = ("alice_c0", "alice_c1", "bob_c0", "bob_c1", "board_c0", "board_c1", "board_c2", "board_c3", "board_c4")

EVENTS = EventSpec("ht", {
    "hands": {
        "hand": INT,  # 1-based, as the contest numbers hands
        "deal_key": UINT,  # derived from (match seed, hand - 1)
        "opponent_key": UINT,  # the one stream serving RATE answers and Bob's rollouts
        **dict.fromkeys(CARDS, INT),  # in deal order: Alice 2, Bob 2, board 5
        "showdown": INT,  # +1 Alice's 7 cards beat Bob's, 0 tie, -1 lose (played out or not)
        "end_code": INT,  # 0 showdown, 1 Alice folded, 2 Bob folded
        "rounds_played": INT,  # the round (1..4) in which the hand ended
        "final_pot": INT,  # when Bob folds, the pot before the raise
        "profit": INT,  # Alice's ending stack - 100
        "rate_rollouts": INT,  # RATE rollouts Alice spent on the hand
    },
    "actions": {  # Alice acts once per round
        "hand": INT,
        "round": INT,  # 1 preflop .. 4 river
        "action": STR,  # CHECK, FOLD or RAISE
        "amount": INT,  # chips raised, 0 otherwise
        "response": STR,  # Bob's: CHECK, CALL, FOLD, or "" after Alice folds
        "pot_before": INT,
        "stack_before": INT,
        "rate_rollouts": INT,  # asked just before this action
    },
})
