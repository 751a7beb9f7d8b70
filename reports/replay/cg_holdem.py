"""One CodinGame Hold'em game: every hand step by step (blinds, each action with the stacks and
pot after it), each seat's cards as that seat saw them, and the cards shown at a showdown."""

from engine.core.cards import card_name
from flows.games.cg_holdem_log import cg_games
from reports.html import cards, esc, table
from reports.replay import NoReplay, Replay

STREETS = ("preflop", "flop", "turn", "river")
BOARD_AT = (0, 3, 4, 5)


def replay(con, match_id: str, unit: int) -> Replay:
    games = cg_games(con, match_id, [unit])
    if unit not in games:
        raise NoReplay(f"match {match_id} has no game for unit {unit}")
    names, hands = games[unit]
    steps = []
    for h in hands:
        stacks = [s - p for s, p in zip(h.start_stacks, h.posted, strict=True)]
        bets = list(h.posted)
        own = [None if c is None else [card_name(x) for x in c] for c in h.cards]
        board = [card_name(c) for c in h.board]
        head = f"Hand {h.hand}" + (" (cancelled at the round cap: refunded)" if h.cancelled else "")
        folded: set[int] = set()
        steps.append(f'<span id="{anchor(h.hand)}"></span>'  # the hand index at the top jumps here
                     + _table(head, "blinds posted", names, own, stacks, bets, [], sum(bets), h, folded))
        for _, seat, action, chips, street in h.actions:
            stacks[seat] -= chips
            bets[seat] += chips
            if action in ("FOLD", "TIMEOUT"):
                folded.add(seat)
            steps.append(_table(f"{head}, {STREETS[street]}", f"{names[seat]} (seat {seat + 1}): {action}"
                                + (f" {chips}" if chips else ""), names, own, stacks, bets,
                                board[:BOARD_AT[street]], sum(bets), h, folded))
        result = ", ".join(f"{names[s]} {h.won[s] - h.totals[s]:+d}" for s in range(len(names)) if own[s])
        steps.append(_table(f"{head}, end", ("showdown: " if h.showdown else "no showdown: ") + result, names, own,
                            list(h.end_stacks), [0] * len(names), board, 0, h, folded, shown=h.showdown))
    intro = (f"<p>Match <code>{esc(match_id)}</code>, game {unit}: {len(hands)} hands, seats "
             f"{esc(', '.join(names))}. Each seat sees only its own cards; the 'shown' column is what the others "
             "saw (cards shown at a showdown).</p>" + _index(hands, names))
    return Replay(f"CodinGame Hold'em game {unit} of {match_id}", intro, tuple(steps))


def anchor(hand: int) -> str:
    return f"hand-{hand}"


def _index(hands, names) -> str:
    """Links to each hand's first step (a game has some hundreds of steps), with what the hand did to the stacks."""
    links = []
    for h in hands:
        moved = max(range(len(names)), key=lambda s: abs(h.won[s] - h.totals[s]))
        title = f"{names[moved]} {h.won[moved] - h.totals[moved]:+d}" + (", cancelled" if h.cancelled else "")
        links.append(f'<a href="#{anchor(h.hand)}" title="{esc(title)}">{h.hand}</a>')
    return f'<p id="hands">Jump to hand: {" ".join(links)}</p>'


def _table(title, text, names, own, stacks, bets, board, pot, h, folded: set, *, shown: bool = False) -> str:
    rows = []
    for s, name in enumerate(names):
        if own[s] is None:
            rows.append([f"{s + 1}. {esc(name)}", "(out)", "", "", "", ""])
            continue
        role = "D" if s == h.dealer else "SB" if s == h.sb_seat else "BB" if s == h.bb_seat else ""
        show = cards(own[s]) if shown and s not in folded else "??"
        rows.append([f"{s + 1}. {esc(name)} {role}", cards(own[s]), show, str(stacks[s]), str(bets[s]),
                     "folded" if s in folded else ""])
    return (f"<h2>{esc(title)}</h2><p>{esc(text)}</p><p>Board: {cards(board) or '(none yet)'} &nbsp; pot {pot}</p>"
            + table(["seat", "own cards", "shown", "stack", "in pot", ""], rows))
