"""Golden full-game transcripts: every input line each seat was sent and every answer.

A deterministic 'chaos' player (its answers depend only on the round and seat) exercises
the replacement table with odd outputs. Regenerate after an intended referee change with
``python -m tests.cg_holdem.golden`` and review the diff.
"""

from pathlib import Path

from engine.cg_holdem.judge import BotSeat, play_game
from engine.cg_holdem.rules import GameConfig

GOLDEN_DIR = Path(__file__).parent / "data"
GAMES = ((2, 7), (3, 2024), (4, 99))  # (players, seed)
ODD_OUTPUTS = ("CHECK", "bet_3", "RAISE 40", "BET  20", "call;hi;there", "BET 5", "BET -4", "FOLD", "")


class Chaos:
    def __init__(self, seat: int):
        self.seat = seat

    def start(self, setup):
        pass

    def act(self, turn):
        x = (turn.round * 2654435761 + self.seat * 40503) % 1000
        if x < 2:
            return ("ALL-IN", "all_in")[x]
        if x < 120:
            return ODD_OUTPUTS[x % len(ODD_OUTPUTS)]
        if x < 200:
            return f"BET {x % 70}"
        if x < 350:
            return "FOLD"
        cheap = [p for p in turn.possible if p != "ALL-IN"]
        return "CALL" if x < 900 else cheap[x % len(cheap)].replace("_", " ")


def transcript(players: int, seed: int) -> str:
    out = []

    def record(seat, turn, answer):
        out.append(f"== seat {seat}")
        out.extend(turn.lines())
        out.append(f"-> {answer}")

    seats = [BotSeat(Chaos(s)) for s in range(players)]
    result = play_game(seats, seed=seed, config=GameConfig(players=players), on_turn=record)
    out.append(f"scores {' '.join(map(str, result.scores))}")
    out.append(f"ranks {' '.join('-' if r is None else str(r) for r in result.ranks)}")
    return "\n".join(out) + "\n"


def golden_path(players: int, seed: int) -> Path:
    return GOLDEN_DIR / f"golden_{players}p_seed{seed}.txt"


if __name__ == "__main__":
    for players, seed in GAMES:
        golden_path(players, seed).write_text(transcript(players, seed))
        print("wrote", golden_path(players, seed))
