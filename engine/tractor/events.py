"""What the Tractor judge reports: one event per round and one per trick. Ranks are indices 0..12
(2..A); a new CR above 12 means that team won the game."""

from engine.core.events import INT, STR, EventSpec

EVENTS = EventSpec("tr", {
    "rounds": {
        "round": INT,
        "main": STR,  # H S C D, or O for no main suit
        "dealer": STR,  # Alice Bob Charles David
        "cr1": INT, "cr2": INT,
        "primary_team": INT,  # team (1 = Alice+Charles) the primary bot played
        "ft_points": INT,  # defenders' points incl. the hidden cards x 2^w
        "trick_points": INT, "hidden_points": INT,
        "multiplier": INT,  # 2^w when the defenders took the last trick, else 0
        "new_cr1": INT, "new_cr2": INT, "next_dealer": STR,
        "winner_team": INT,  # 0 while no CR passed A
        "tricks": INT,
        "faults": INT,  # illegal bot answers the judge replaced
        "payoff": INT,
    },
    "tricks": {
        "round": INT,
        "trick": INT,  # 1-based
        "leader": STR,
        "play1": STR, "play2": STR, "play3": STR, "play4": STR,  # in play order, the leader's first
        "structure": STR,  # e.g. tractor2+pair+single
        "winner": STR, "points": INT,
    },
})
