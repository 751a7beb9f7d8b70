"""What the TwoCardDraw judge reports: one event per hand, enough to replay it (dealt cards, draws,
final cards, each round's actions, how it ended, profit). -1 marks what the hand never reached."""

from engine.core.events import INT, STR, EventSpec

EVENTS = EventSpec("tcd", {
    "hands": {
        "hand": INT, "bet1": INT, "bet2": INT,
        "p_card1": INT, "p_card2": INT,  # the player's dealt cards, card1 <= card2
        "s_card1": INT, "s_card2": INT,  # the server's (the player never sees these)
        "p_drew": INT, "s_drew": INT,  # cards exchanged, -1 if round 1 ended in a fold
        "p_final1": INT, "p_final2": INT, "s_final1": INT, "s_final2": INT,  # after the draw
        "round1": STR, "round2": STR,  # action letters, player first
        "bets1": INT, "bets2": INT,
        "first": INT,  # who bet first in round 1 (0 player or nobody, 1 server)
        "ended": STR,  # showdown, player_fold, server_fold
        "profit": INT,
    },
})
