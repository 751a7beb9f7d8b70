"""TwoCardDraw's luck correction across independent runs: `python -m bench.twocarddraw.luck_runs HANDS RUNS [FIRST
[PAIR]]` (match seeds FIRST.., default 9000; PAIR: null or worse, default both).

A learning bot's corrected payoff is the exact value of the policy it played, hand after hand: free of card
luck, but the policies of neighbouring hands are nearly the same, so the per-hand values are strongly
correlated and the plug-in standard error of a run's mean (hands treated as independent) is far too small.
The honest factor compares the spread of a pair's mean difference across runs on independent deals
(match seeds FIRST..), raw and corrected, with that plug-in standard error printed beside it.
"""

import sys

import numpy as np

from bench.decisions import BOT, PAIRS
from bots.twocarddraw import BOTS
from engine.twocarddraw import judge
from engine.twocarddraw.exact import exact_run


def main(hands: int, runs: int, first: int = 9000, only: str | None = None) -> None:
    spec = BOTS[BOT["twocarddraw"]]
    server = judge.load_server(judge.MatchOptions())
    for pair in PAIRS["twocarddraw"]:
        if pair.name == "better" or only not in (None, pair.name):  # better is the mirror of worse
            continue
        raw, adjusted, plug_in = [], [], []
        for r in range(runs):
            a, b = (exact_run(spec.make(spec.config_from(dict(c))), server, seed=first + r, hands=hands)
                    for c in (pair.challenger, pair.baseline))
            values = a.values - b.values
            raw.append((a.profits - b.profits).mean())
            adjusted.append(values.mean())
            plug_in.append(values.std(ddof=1) / np.sqrt(hands))
        raw, adjusted = np.array(raw), np.array(adjusted)
        print(f"{pair.name}: {runs} runs (seeds {first}..{first + runs - 1}) of {hands:,} hands; raw mean "
              f"{raw.mean():+.4f}, sd across runs "
              f"{raw.std(ddof=1):.4f}; corrected mean {adjusted.mean():+.4f}, sd across runs "
              f"{adjusted.std(ddof=1):.4f} "
              f"(plug-in se within a run {np.mean(plug_in):.4f}); factor across runs "
              f"{raw.var(ddof=1) / adjusted.var(ddof=1):.1f}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), *(int(a) for a in sys.argv[3:4]), *sys.argv[4:5])
