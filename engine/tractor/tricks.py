"""Who wins a trick, and what a round is worth: the judge's rules
(docs/rules/tractor.md#lead-structure, docs/rules/tractor.md#trick-winner, docs/rules/tractor.md#round-result).

Plays are sequences of card identities (ints in the engine, two-letter tokens in the
simulator) plus a `code_of` lookup from identity to order code (rules.Ordering). A pair is
two identical cards; a tractor is pairs at consecutive codes of one group.
"""

from dataclasses import dataclass

from engine.tractor.rules import (
    DOWN_THRESHOLD,
    LEVEL_STEP,
    TRUMP_GROUP,
    team_of,
)

MIXED = -1  # group of a play that spans trumps and/or several suits


@dataclass(frozen=True)
class Shape:
    """The structure of a lead: blocks of pairs (longest first, higher first), then singles."""

    group: int
    blocks: tuple[tuple[int, int], ...]  # (pairs in the block, top code)
    singles: int
    honour: int  # top code of the first block, or the highest card when there is no pair

    @property
    def parts(self) -> int:
        return len(self.blocks) + self.singles

    @property
    def is_throw(self) -> bool:
        return self.parts > 1

    @property
    def width(self) -> int:
        """w of the hidden-card multiplier: cards in the first (longest) component."""
        return 2 * self.blocks[0][0] if self.blocks else 1

    def describe(self) -> str:
        """'tractor2+pair+single' as in the shared traces."""
        names = [f"tractor{n}" if n > 1 else "pair" for n, _ in self.blocks]
        return "+".join(names + ["single"] * self.singles)


def play_group(codes) -> int:
    group = codes[0] >> 4
    for code in codes:
        if code >> 4 != group:
            return MIXED
    return group


def pair_counts(cards, code_of) -> dict[int, int]:
    """Order code -> number of pairs at that code (several only for off-suit CR cards)."""
    seen = set()
    counts: dict[int, int] = {}
    for card in cards:
        if card in seen:
            code = code_of[card]
            counts[code] = counts.get(code, 0) + 1
            seen.discard(card)
        else:
            seen.add(card)
    return counts


def _longest_run(counts: dict[int, int]) -> tuple[int, int]:
    """(length, top) of the longest run of consecutive codes holding pairs; higher wins ties."""
    best_len, best_top = 0, -1
    run, prev = 0, None
    for code in sorted(counts):
        run = run + 1 if prev is not None and code == prev + 1 else 1
        prev = code
        if run >= best_len:
            best_len, best_top = run, code
    return best_len, best_top


def decompose(counts: dict[int, int]) -> list[tuple[int, int]]:
    """Blocks of the lead, longest first: every maximal run of pairs becomes one tractor."""
    counts = {code: n for code, n in counts.items() if n > 0}
    blocks = []
    while counts:
        length, top = _longest_run(counts)
        blocks.append((length, top))
        for code in range(top - length + 1, top + 1):
            counts[code] -= 1
            if not counts[code]:
                del counts[code]
    return blocks


def lead_shape(cards, code_of) -> Shape:
    codes = [code_of[c] for c in cards]
    counts = pair_counts(cards, code_of)
    blocks = tuple(decompose(counts)) if counts else ()
    pairs = sum(n for n, _ in blocks)
    honour = blocks[0][1] if blocks else max(codes)
    return Shape(group=play_group(codes), blocks=blocks, singles=len(codes) - 2 * pairs, honour=honour)


def _block_fits(counts: dict[int, int], length: int, top: int) -> bool:
    return all(counts.get(top - i, 0) > 0 for i in range(length))


def _take(counts: dict[int, int], length: int, top: int, delta: int) -> None:
    for i in range(length):
        counts[top - i] += delta


def _fits(counts: dict[int, int], lengths: tuple[int, ...]) -> bool:
    """Can the blocks of these lengths be cut from the follower's pairs, disjointly?"""
    if not lengths:
        return True
    if lengths[0] == 1:  # only single pairs left: any pairs will do
        return sum(counts.values()) >= len(lengths)
    length = lengths[0]
    for top in sorted(counts, reverse=True):
        if _block_fits(counts, length, top):
            _take(counts, length, top, -1)
            ok = _fits(counts, lengths[1:])
            _take(counts, length, top, +1)
            if ok:
                return True
    return False


def matched_honour(counts: dict[int, int], lengths: tuple[int, ...]) -> int | None:
    """Highest top the follower's block for the lead's first component can have, or None."""
    counts = dict(counts)
    first, rest = lengths[0], lengths[1:]
    for top in sorted(counts, reverse=True):
        if _block_fits(counts, first, top):
            _take(counts, first, top, -1)
            ok = _fits(counts, rest)
            _take(counts, first, top, +1)
            if ok:
                return top
    return None


def follower_honour(cards, lead: Shape, code_of) -> int | None:
    """The follower's honour card code, or None when this play cannot win the trick."""
    codes = [code_of[c] for c in cards]
    group = play_group(codes)
    if group == MIXED or lead.group == MIXED:
        return None
    if lead.is_throw:
        # A trump throw is unbeatable; a non-trump throw falls only to trumps.
        if lead.group == TRUMP_GROUP or group != TRUMP_GROUP:
            return None
    elif group != lead.group and group != TRUMP_GROUP:
        return None
    if not lead.blocks:
        return max(codes)
    counts = pair_counts(cards, code_of)
    if not counts:
        return None
    return matched_honour(counts, tuple(n for n, _ in lead.blocks))


def trick_winner(plays, code_of) -> tuple[int, Shape]:
    """(position in play order of the winner, lead shape); ties go to the earlier play."""
    lead = lead_shape(plays[0], code_of)
    best, winner = lead.honour, 0
    for pos in range(1, len(plays)):
        honour = follower_honour(plays[pos], lead, code_of)
        if honour is not None and honour > best:
            best, winner = honour, pos
    return winner, lead


@dataclass(frozen=True)
class RoundOutcome:
    """The end of a round: FT points, the new ranks and the next dealer (or a winner)."""

    ft_points: int
    trick_points: int  # FT's points from tricks alone
    hidden_points: int
    multiplier: int  # 2**w if FT took the last trick, else 0
    cr1: int  # new CRs; may pass A (12) when a team wins
    cr2: int
    next_dealer: int
    winner_team: int  # 0 while nobody has passed A

    @property
    def down(self) -> bool:
        return self.ft_points >= DOWN_THRESHOLD


def level_change(ft_points: int) -> tuple[int, int]:
    """(levels for the declarers, levels for the defenders) for a round's FT points."""
    if ft_points == 0:
        return 3, 0
    if ft_points < LEVEL_STEP:
        return 2, 0
    if ft_points < DOWN_THRESHOLD:
        return 1, 0
    return 0, (ft_points - DOWN_THRESHOLD) // LEVEL_STEP


def settle(*, dealer: int, cr1: int, cr2: int, trick_points: int, hidden_points: int,
           last_width: int, last_winner: int) -> RoundOutcome:
    """Apply the hidden-card multiplier, the CR update and the next-dealer rule."""
    ct_team = team_of(dealer)
    multiplier = 2**last_width if team_of(last_winner) != ct_team else 0
    ft_points = trick_points + hidden_points * multiplier
    ct_gain, ft_gain = level_change(ft_points)
    gains = (ct_gain, ft_gain) if ct_team == 1 else (ft_gain, ct_gain)
    new1, new2 = cr1 + gains[0], cr2 + gains[1]
    winner = 1 if new1 > 12 else 2 if new2 > 12 else 0
    next_dealer = (dealer + 1) % 4 if ft_points >= DOWN_THRESHOLD else (dealer + 2) % 4
    return RoundOutcome(
        ft_points=ft_points, trick_points=trick_points, hidden_points=hidden_points,
        multiplier=multiplier, cr1=new1, cr2=new2, next_dealer=next_dealer, winner_team=winner,
    )
