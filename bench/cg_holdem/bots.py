"""In-process bot factories from `name:key=value:...` entries, for the benchmarks."""

from bots.cg_holdem import BOTS


def makers(entries: list[str]):
    found = []
    for entry in entries:
        name, *pairs = entry.split(":")
        config = BOTS[name].config_from(pairs)
        found.append(lambda name=name, config=config: BOTS[name].make(config))
    return found
