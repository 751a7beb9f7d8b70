"""In-process bot factories from `name:key=value:...` entries, for the benchmarks."""

from bots import choice
from bots.cg_holdem import BOTS


def makers(entries: list[str]):
    return [choice.entry(BOTS, entry).make for entry in entries]
