"""Issue 27's TwoCardDraw check, measured exactly: is the fitted server worth more than the prior?

For each server: a bot plays one logged test (its hands are what a fit reads); at each count of
hands the server is fitted from the first hands only (flows/opponents/twocarddraw_fit.py fit_server), and the
fit and the prior (the fit with no hands) are scored against the true strategy (engine
analysis.fit_quality): value lost per hand by best-responding to the estimate instead of the truth,
and the reach-weighted per-situation error. `--em` adds the older batch-EM fit from the bank
prior (`cardlab twocarddraw fit`) and that prior. Paired over servers.

python -m bench.twocarddraw.fit_value --set heldout --servers 16 [--bot mixture] [--em] [--json]
"""

import argparse
import json

import numpy as np

from bench.twocarddraw.strength import SERVER_SETS
from bots.twocarddraw import BOTS
from engine.core.stats import summarize
from engine.twocarddraw import judge as J
from engine.twocarddraw.analysis import fit_quality
from flows.opponents import twocarddraw_fit as F

COUNTS = (300, 1_000, 3_000, 10_000)


def fit_rows(servers, *, server_set: str = "heldout", bot: str = "mixture", counts=COUNTS, deal_seed: int = 1,
             shrinks=(F.SHRINK_HANDS,), em: bool = False, progress=None) -> list[dict]:
    """Per server: value lost and error of the prior and of the fit at each count (one key per
    shrink_hands value: fit@SHRINK|N)."""
    rows = []
    for index in servers:
        server = SERVER_SETS[server_set](index)
        truth = server.strategy()
        played = J.play_match(BOTS[bot].make(), truth, seed=deal_seed, hands=max(counts), cpu_limit=1e9)
        obs = F.observations({k: np.asarray(v) for k, v in played.record.columns.items()})
        prior = F.fit_posterior([], truth.bets)
        row = {"server": index, "bets": [truth.bets.bet1, truth.bets.bet2], "steps": server.steps,
               "step_law": server.step_law, "prior": _quality(prior, truth)}
        if em:
            bank = F.prior_counts(truth.bets)
            row["bank"] = _quality(F.fit_observed([], truth.bets, bank), truth)
        for n in counts:
            posterior = F.fit_posterior(obs[:n], truth.bets)
            for shrink in shrinks:
                row[f"fit@{shrink:g}|{n}"] = _quality(F.shrunk(posterior, prior, n, shrink_hands=shrink), truth)
            if em:
                row[f"em|{n}"] = _quality(F.fit_observed(obs[:n], truth.bets, bank), truth)
        rows.append(row)
        if progress:
            progress(f"server {index} ({truth.bets.bet1},{truth.bets.bet2}) {server.steps} steps: prior lost "
                     f"{row['prior']['value_lost']:.4f}; fit lost " + " ".join(
                         f"{n}:{row[f'fit@{shrinks[0]:g}|{n}']['value_lost']:.4f}" for n in counts))
    return rows


def _quality(fit, truth) -> dict:
    q = fit_quality(fit, truth)
    return {"value_lost": q.value_lost, "weighted_error": q.weighted_error}


def summarise_fit(rows: list[dict]) -> dict:
    """Per method and count: mean value lost and error; minus the prior, paired over servers (95%)."""
    prior = np.array([r["prior"]["value_lost"] for r in rows])
    out = {}
    for key in [k for k in rows[0] if k in ("prior", "bank") or "|" in k]:
        lost = np.array([r[key]["value_lost"] for r in rows])
        d = summarize(lost - prior)
        out[key] = {"value_lost": float(lost.mean()),
                    "weighted_error": float(np.mean([r[key]["weighted_error"] for r in rows])),
                    "minus_prior": [d.mean, d.ci_low, d.ci_high], "servers_worse": int((lost > prior + 1e-12).sum())}
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="heldout", choices=sorted(SERVER_SETS))
    parser.add_argument("--servers", type=int, default=16)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--bot", default="mixture", choices=sorted(BOTS))
    parser.add_argument("--shrink", default=f"{F.SHRINK_HANDS:g}", help="shrink_hands values, comma-separated")
    parser.add_argument("--em", action="store_true", help="also the batch-EM fit from the bank prior")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    shrinks = tuple(float(x) for x in args.shrink.split(","))
    rows = fit_rows(range(args.first, args.first + args.servers), server_set=args.set, bot=args.bot,
                    shrinks=shrinks, em=args.em, progress=None if args.json else print)
    summary = summarise_fit(rows)
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}))
        return
    print(f"{'':>14} {'value lost':>11} {'error':>7}  minus prior (95%)          servers worse")
    for key, s in summary.items():
        m, lo, hi = s["minus_prior"]
        print(f"{key:>14} {s['value_lost']:11.4f} {s['weighted_error']:7.4f}  {m:+.4f} [{lo:+.4f}, {hi:+.4f}]"
              f"  {s['servers_worse']}/{len(rows)}")


if __name__ == "__main__":
    main()
