"""One Hold'em Training hand: Alice's cards as she saw them, each round's board, her action
and Bob's answer with the pot and stacks, then Bob's cards at the end."""

from engine.core.cards import card_name
from engine.holdem_training.rules import BOARD_SIZE_BY_ROUND, START_POT, START_STACK
from flows.games.holdem_training_log import ht_hands
from reports.html import cards, esc, table
from reports.replay import NoReplay, Replay

ENDED = {0: "showdown", 1: "Alice folded", 2: "Bob folded"}


def replay(con, match_id: str, unit: int) -> Replay:
    found = ht_hands(con, match_id, [unit + 1])  # units count from 0, the contest's hands from 1
    if not found:
        raise NoReplay(f"match {match_id} has no hand for unit {unit}")
    hand = found[0]
    alice = [card_name(c) for c in hand.alice]
    bob = [card_name(c) for c in hand.bob]
    board = [card_name(c) for c in hand.board]
    steps = [_state("Deal", alice, ["??", "??"], [], START_POT, START_STACK, START_STACK,
                    "Alice sees her two cards; Bob's stay hidden from her.")]
    for round_, kind, amount, response, stack in hand.actions:
        shown = board[:BOARD_SIZE_BY_ROUND[round_ - 1]]
        pot = START_POT + 2 * (START_STACK - stack)
        what = f"Alice {kind}{f' {amount}' if kind == 'RAISE' else ''}" + (f", Bob {response}" if response else "")
        after_pot = pot + (2 * amount if response == "CALL" else amount if response == "FOLD" else 0)
        after_stack = stack - amount if response == "CALL" else stack
        steps.append(_state(f"Round {round_}", alice, ["??", "??"], shown, after_pot, after_stack,
                            stack - amount if response == "CALL" else stack, what))
    end = ENDED.get(hand.end_code, "?")
    steps.append(_state("End", alice, bob if hand.end_code == 0 else ["??", "??"],
                        board if hand.end_code == 0 else board[:BOARD_SIZE_BY_ROUND[len(hand.actions) - 1]],
                        None, START_STACK + hand.profit, None,
                        f"{end}: Alice's profit {hand.profit:+d} (the contest's W); Bob held {' '.join(bob)}"))
    intro = (f"<p>Match <code>{esc(match_id)}</code>, hand {hand.hand}. Alice holds {cards(alice)}; "
             f"Bob holds {cards(bob)} (hidden from Alice until a showdown); the full board is {cards(board)}. "
             f"Ended by {esc(end)}, profit <b>{hand.profit:+d}</b>.</p>")
    return Replay(f"Hold'em Training hand {hand.hand} of {match_id}", intro, tuple(steps))


def _state(title, alice, bob, board, pot, alice_stack, bob_stack, text) -> str:
    rows = [["Alice (as she saw it)", cards(alice), "" if alice_stack is None else str(alice_stack)],
            ["Bob", cards(bob), "" if bob_stack is None else str(bob_stack)]]
    return (f"<h2>{esc(title)}</h2><p>{esc(text)}</p><p>Board: {cards(board) or '(none yet)'}"
            f"{'' if pot is None else f' &nbsp; pot {pot}'}</p>" + table(["seat", "cards", "stack"], rows))
