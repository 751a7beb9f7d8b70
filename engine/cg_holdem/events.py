"""What the CodinGame Hold'em judge reports per game (one unit): the game, each seat's result, each
hand, each seat in each hand, and each action as played (after replacement)."""

from engine.core.events import BOOL, INT, STR, EventSpec

EVENTS = EventSpec("cgh", {
    "games": {
        "unit": INT, "deal": INT,  # the shared cards: unit // players
        "rotation": INT,  # seats rotated: unit % players
        "game_seed": INT,  # the referee's Java seed (replays the game on CodinGame's referee)
        "players": INT, "primary_seat": INT, "hands": INT, "rounds": INT,
        "overflow": BOOL,  # the Java referee would have crashed (NONE round past the cap)
        "primary_position": INT,  # 1 = first
        "primary_score": INT,  # CodinGame score: stack, or rank - players when eliminated
    },
    "seats": {
        "unit": INT, "seat": INT, "bot": STR, "score": INT, "position": INT,
        "elimination_rank": INT,  # 0 = first out, -1 = survived
        "final_stack": INT,
    },
    "hands": {
        "unit": INT, "hand": INT, "big_blind": INT, "dealer": INT, "sb_seat": INT, "bb_seat": INT,
        "board": STR,  # contest spelling, X = not dealt
        "pot": INT, "showdown": BOOL,
        "cancelled": BOOL,  # refunded at the 600-round cap
        "first_round": INT, "last_round": INT,
    },
    "hand_seats": {
        "unit": INT, "hand": INT, "seat": INT,
        "cards": STR,  # e.g. AS_KD; empty when not dealt in
        "start_stack": INT, "posted": INT,
        "put_in": INT,  # chips put in the hand, blinds included
        "won": INT,  # chips received at settlement (returns included)
        "end_stack": INT, "folded": BOOL,
    },
    "actions": {
        "unit": INT, "hand": INT, "round": INT, "seat": INT,
        "action": STR,  # after replacement: FOLD, CHECK, CALL, BET_x, ALL-IN, TIMEOUT
        "chips": INT,
        "street": INT,  # 0 preflop .. 3 river
    },
})
