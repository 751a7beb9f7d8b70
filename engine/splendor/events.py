"""What the Splendor judge reports, seen from the candidate: each turn of each game and each game's
result."""

from engine.core.events import BOOL, FLOAT, INT, STR, EventSpec

EVENTS = EventSpec("spl", {
    "turns": {
        "game": INT,
        "round": INT,  # 1-based, as the agents see it
        "seat": INT,  # 0-based seat of the mover
        "is_candidate": BOOL,
        "action": INT,  # 1 take different, 2 take two, 3 reserve, 4 buy, 0 pass (invalid move)
        "card": INT,  # reserve: id or -level; buy: id; else 0
        "tokens": STR,  # the record's tokens, space-separated
        "returned": INT,  # chips given back
        "noble": INT,  # noble received this turn, 0 if none
        "chips": INT,  # the mover's chips after the turn, gold included
        "gold": INT,
        "points": INT,  # the mover's score after the turn
        "message": STR,  # the arbiter's message (returns, noble, or why it passed)
        "cpu_ms": FLOAT,
    },
    "games": {
        "game": INT, "players": INT, "cand_seat": INT,
        "rounds": INT,  # 100 = hit the cap
        "winners": INT,  # 0 when nobody reached 15
        "cand_share": FLOAT, "cand_points": INT, "cand_cards": INT, "opp_best_points": INT,
        "passes": INT,  # the candidate's invalid moves
    },
})
