"""Hold'em Training hands read back from the hand log: for PHH export and the replay page."""

from pathlib import Path

from engine.holdem_training.phh import LoggedHand, hand_histories


def ht_hands(con, match_id: str, hands: list[int] | None = None) -> list[LoggedHand]:
    """The match's hands (all, or those numbered in `hands`) in hand order."""
    where, params = ("AND hand IN (SELECT unnest(?::INTEGER[]))", [match_id, hands]) if hands else ("", [match_id])
    rows = con.execute(
        "SELECT hand, alice_c0, alice_c1, bob_c0, bob_c1, board_c0, board_c1, board_c2, board_c3, board_c4, "
        f"end_code, profit FROM ht_hand_rows WHERE match_id = ? {where} ORDER BY hand", params).fetchall()
    acts: dict[int, list] = {}
    for hand, round_, action, amount, response, stack in con.execute(
            "SELECT hand, round, action, amount, response, stack_before FROM ht_action_rows "
            f"WHERE match_id = ? {where} ORDER BY hand, round", params).fetchall():
        acts.setdefault(hand, []).append((round_, action, amount, response, stack))
    return [LoggedHand(hand=r[0], alice=(r[1], r[2]), bob=(r[3], r[4]), board=tuple(r[5:10]),
                       actions=tuple(acts.get(r[0], ())), end_code=r[10], profit=r[11]) for r in rows]


def export_phh(con, match_id: str, out_dir: Path) -> tuple[tuple[Path, ...], int]:
    """The whole match as one .phhs file (PokerKit's HandHistory.load_all reads it)."""
    hands = ht_hands(con, match_id)
    path = out_dir / f"{match_id}.phhs"
    path.write_text(hand_histories(hands, event=f"holdem-training match {match_id}"))
    return (path,), len(hands)
