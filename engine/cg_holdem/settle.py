"""Pot settlement in layers (docs/rules/cg_holdem.md#settlement), with the referee's odd-chip rule.

Kept apart from the state so it can be checked on its own against PokerKit.
"""


def pay_layers(totals, folded, values, dealer: int) -> list[int]:
    """Chips each seat receives. totals: chips put in this hand; values: hand strength of
    the non-folded seats (higher is better). Each layer is the smallest remaining stake of a
    non-folded seat, taken from every seat (folded ones too), split among the best hands in
    it; the layer's odd chips all go to the first winner clockwise from dealer + 1. Whatever a
    folded seat has left once no contender is left goes back to it."""
    n = len(totals)
    contenders = [s for s in range(n) if not folded[s]]
    if len(contenders) == 1:  # uncontested: everyone pays up to the winner's stake, the rest returns
        w = contenders[0]
        won = [max(0, t - totals[w]) for t in totals]
        won[w] = sum(min(t, totals[w]) for t in totals)
        return won
    remaining = list(totals)
    won = [0] * n
    while True:
        live = [s for s in contenders if remaining[s] > 0]
        if not live:
            break
        m = min(remaining[s] for s in live)
        layer = 0
        for s in range(n):
            take = min(remaining[s], m)
            remaining[s] -= take
            layer += take
        best = max(values[s] for s in live)
        winners = [s for s in live if values[s] == best]
        share, odd = divmod(layer, len(winners))
        for s in winners:
            won[s] += share
        if odd:
            first = next(s for s in ((dealer + k) % n for k in range(1, n + 1)) if s in winners)
            won[first] += odd
    for s in range(n):
        won[s] += remaining[s]
    return won
