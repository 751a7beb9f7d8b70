"""One Hold'em Training hand: Alice's cards as she saw them, each round's board, the RATE answers
she got, her action and Bob's answer with the pot and stacks, then Bob's cards at the end.

The hand log keeps how many RATE rollouts Alice asked before each action and the hand's opponent
stream, not the answers: the hand is played again from its cards, stream and moves, which gives
the same answers (and Bob's), checked against the logged ones."""

import json

from engine.core.cards import card_name
from engine.holdem_training.judge import replay_hand
from engine.holdem_training.rules import BOARD_SIZE_BY_ROUND, START_POT, START_STACK, Action
from flows import games
from flows.games.holdem_training_log import ht_hands
from reports.html import cards, esc, table
from reports.replay import NoReplay, Replay

ENDED = {0: "showdown", 1: "Alice folded", 2: "Bob folded"}


def replay(con, match_id: str, unit: int) -> Replay:
    found = ht_hands(con, match_id, [unit + 1])  # units count from 0, the contest's hands from 1
    if not found:
        raise NoReplay(f"match {match_id} has no hand for unit {unit}")
    hand = found[0]
    rates, why = _rates(con, match_id, hand)
    alice = [card_name(c) for c in hand.alice]
    bob = [card_name(c) for c in hand.bob]
    board = [card_name(c) for c in hand.board]
    steps = [_state("Deal", alice, ["??", "??"], [], START_POT, START_STACK, START_STACK,
                    "Alice sees her two cards; Bob's stay hidden from her.")]
    for k, (round_, kind, amount, response, stack) in enumerate(hand.actions):
        shown = board[:BOARD_SIZE_BY_ROUND[round_ - 1]]
        pot = START_POT + 2 * (START_STACK - stack)
        what = (_rate_text(rates.get(k)) + f"Alice {kind}{f' {amount}' if kind == 'RAISE' else ''}"
                + (f", Bob {response}" if response else ""))
        after_pot = pot + (2 * amount if response == "CALL" else amount if response == "FOLD" else 0)
        after_stack = stack - amount if response == "CALL" else stack
        steps.append(_state(f"Round {round_}", alice, ["??", "??"], shown, after_pot, after_stack,
                            stack - amount if response == "CALL" else stack, what))
    end = ENDED.get(hand.end_code, "?")
    steps.append(_state("End", alice, bob if hand.end_code == 0 else ["??", "??"],
                        board if hand.end_code == 0 else board[:BOARD_SIZE_BY_ROUND[len(hand.actions) - 1]],
                        None, START_STACK + hand.profit, None,
                        f"{end}: Alice's profit {hand.profit:+d} (the contest's W); Bob held {' '.join(bob)}"))
    intro = (f"<p>Match <code>{esc(match_id)}</code>, unit {unit} (the contest's hand {hand.hand}: it numbers "
             f"hands from 1). Alice holds {cards(alice)}; Bob holds {cards(bob)} (hidden from Alice until a "
             f"showdown); the full board is {cards(board)}. Ended by {esc(end)}, profit <b>{hand.profit:+d}</b>.</p>"
             + _rates_html(rates, why))
    return Replay(f"Hold'em Training unit {unit} of {match_id}", intro, tuple(steps))


def _rates(con, match_id: str, hand) -> tuple[dict[int, tuple[int, int, int]], str | None]:
    """Action index -> (rollouts, wins, ties) of the RATE answers Alice got before it, or ({}, why not)."""
    key, = con.execute("SELECT opponent_key FROM ht_hand_rows WHERE match_id = ? AND hand = ?",
                       [match_id, hand.hand]).fetchone()
    asked = [n for (n,) in con.execute("SELECT rate_rollouts FROM ht_action_rows WHERE match_id = ? AND hand = ? "
                                       "ORDER BY round", [match_id, hand.hand]).fetchall()]
    if not any(asked):
        return {}, None
    options, = con.execute("SELECT options FROM matches WHERE match_id = ?", [match_id]).fetchone()
    try:
        bob = games.get("holdem-training").options({k: str(v) for k, v in json.loads(options or "{}").items()
                                                    if k == "bob_rollouts"}).bob_rollouts
    except Exception as exc:  # noqa: BLE001 - options this version no longer reads: say so, show the rest
        return {}, f"the match's options cannot be read here ({type(exc).__name__}: {exc})"
    moves = [(n, Action(kind, amount)) for n, (_, kind, amount, _, _) in zip(asked, hand.actions, strict=True)]
    answers: list = []
    events = replay_hand(hand=hand.hand, cards=[*hand.alice, *hand.bob, *hand.board], opponent_key=int(key),
                         moves=moves, bob_rollouts=bob, rates=answers)
    if [e.response for e in events] != [a[3] for a in hand.actions]:
        return {}, "the hand played again answered differently from the log"
    return dict(zip((k for k, n in enumerate(asked) if n), answers, strict=True)), None


def _rate_text(rate) -> str:
    if rate is None:
        return ""
    n, wins, ties = rate
    return f"RATE {n:,}: win {wins / n:.6f}, tie {ties / n:.6f}. "


def _rates_html(rates: dict, why: str | None) -> str:
    if why:
        return f"<p class=note>RATE answers not shown: {esc(why)}.</p>"
    if not rates:
        return "<p class=note>Alice asked no RATE in this hand.</p>"
    return ("<p class=note>RATE answers are shown before the action they preceded, as the contest prints them "
            "(6 decimals); several queries before one action show as one, over their rollouts together (the "
            "hand log keeps their total; the stream is drawn per rollout, so the counts are the same). They come "
            "from playing the hand again, which gave Bob's logged answers.</p>")


def _state(title, alice, bob, board, pot, alice_stack, bob_stack, text) -> str:
    rows = [["Alice (as she saw it)", cards(alice), "" if alice_stack is None else str(alice_stack)],
            ["Bob", cards(bob), "" if bob_stack is None else str(bob_stack)]]
    return (f"<h2>{esc(title)}</h2><p>{esc(text)}</p><p>Board: {cards(board) or '(none yet)'}"
            f"{'' if pot is None else f' &nbsp; pot {pot}'}</p>" + table(["seat", "cards", "stack"], rows))
