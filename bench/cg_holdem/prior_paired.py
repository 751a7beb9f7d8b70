"""Does a read prior help? The ranged bot as committed at REV, without and with `read_prior`, paired in
process on the same games (issue 32; ranged_paired's format and summary).

    CARDLAB_DB=PRIOR_LOG python -m bench.cg_holdem.prior_paired --rev REV --against aggressive --seed 32 \\
        base agg=model:ID lag=model:ID field=model:ID+ID agg20=model:ID@20

A candidate is `base` (no prior) or NAME=PRIOR[@WEIGHT]: PRIOR as `cardlab export --set read_prior=` takes it
(flows/opponents/cg_holdem_prior.py; model ids and `log:` read the hand log CARDLAB_DB points at), WEIGHT the
`read_prior_weight`. The prior's games must be others than the ones measured (another league seed).
"""

import argparse

import numpy as np

from bench.cg_holdem.prior_tables import configured
from bench.cg_holdem.ranged_paired import committed_module, maker, one_line_errors, report
from engine.cg_holdem import judge


def candidate(module, entry: str):
    """(name, a maker of the committed bot with this entry's prior): NAME=PRIOR[@WEIGHT] as the settings
    read_prior=PRIOR and read_prior_weight=WEIGHT."""
    name, _, value = entry.partition("=")
    if not value:  # base: no prior
        return configured(module, name, [])
    value, _, weight = value.partition("@")
    return configured(module, name, [f"read_prior={value}"] + ([f"read_prior_weight={weight}"] if weight else []))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidates", nargs="+", help="base or NAME=PRIOR[@WEIGHT]; the first is the baseline")
    ap.add_argument("--rev", required=True, help="the git revision of the ranged bot (ranged.py, RANGED_PARTS)")
    ap.add_argument("--against", required=True, help="opponents separated by '/': bots or style:NAME")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=32)
    args = ap.parse_args(argv)
    with one_line_errors(ap):  # every name and prior checked before the first game
        module = committed_module(args.rev)
        against = [maker(a) for a in args.against.split("/") if a]
        entries = [candidate(module, entry) for entry in args.candidates]
    scores = {}
    for name, make in entries:
        scores[name] = np.asarray(judge.play_chunk([make, *against], seed=args.seed, first=0,
                                                   count=args.games).payoffs)
    print(f"ranged@{args.rev} against {args.against}, seed {args.seed}:")
    print("\n".join(report(scores)))


if __name__ == "__main__":
    main()
