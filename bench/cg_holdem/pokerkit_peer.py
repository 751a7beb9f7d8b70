"""The peer for the CodinGame Hold'em speed benchmark and an outside oracle for the judge: PokerKit
replays our hand histories (PHH actions) on its own state machine."""

from engine.cg_holdem.phh import actions, blinds_by_position, min_bet, seat_order
from engine.core.errors import Unavailable


def require_pokerkit():
    """The pokerkit module; it comes with the test packages only (requirements-test.lock), not the runtime."""
    try:
        import pokerkit
    except ImportError:
        raise Unavailable("PokerKit, this benchmark's peer, is not installed (one of the test packages); accepted: "
                          "install them (./run.sh test, or .venv/bin/pip install -r requirements-test.lock)") from None
    return pokerkit


def pokerkit_plan(record):
    """(create_state args, operations, expected final stacks) replaying one hand in PokerKit,
    from its PHH actions. An operation is (method, argument, player expected to act or show)."""
    order = seat_order(record)
    ops = []
    for text in actions(record, order):
        parts = text.split()
        if parts[0] == "d":
            ops.append(("deal_hole" if parts[1] == "dh" else "deal_board", parts[-1], None))
            continue
        player = int(parts[0][1:]) - 1
        if parts[1] == "f":
            ops.append(("fold", None, player))
        elif parts[1] == "cc":
            ops.append(("check_or_call", None, player))
        elif parts[1] == "cbr":
            ops.append(("complete_bet_or_raise_to", int(parts[2]), player))
        else:  # "sm": the player due to show shows what it holds
            ops.append(("show_or_muck_hole_cards", True, player))
    args = (tuple(blinds_by_position(record, order)), min_bet(record),
            tuple(record.start_stacks[s] for s in order), len(order))
    return args, ops, [record.end_stacks[s] for s in order]


_POKERKIT_AUTOMATIONS = ("ANTE_POSTING", "BET_COLLECTION", "BLIND_OR_STRADDLE_POSTING", "CARD_BURNING",
                         "RUNOUT_COUNT_SELECTION", "HAND_KILLING", "CHIPS_PUSHING", "CHIPS_PULLING")


def pokerkit_replay(plans, *, check_actors: bool = False) -> int:
    """Replay every hand; returns how many ended on different stacks or were refused (and,
    with check_actors, how many had an operation applied by another player than the PHH's)."""
    import warnings

    pokerkit = require_pokerkit()
    automations = tuple(pokerkit.Automation[name] for name in _POKERKIT_AUTOMATIONS)
    mismatches = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for (blinds, min_bet, stacks, n), ops, expected in plans:
            try:
                state = pokerkit.NoLimitTexasHoldem.create_state(automations, True, 0, blinds, min_bet, stacks, n)
                for method, arg, player in ops:
                    if check_actors and player is not None and player != (
                            state.showdown_index if method == "show_or_muck_hole_cards" else state.actor_index):
                        raise ValueError("another player is due")
                    getattr(state, method)() if arg is None else getattr(state, method)(arg)
                mismatches += list(state.stacks) != expected
            except ValueError:
                mismatches += 1
    return mismatches
