"""The sweep's decision in words: what to play, and how sure the paired differences make it."""

from dataclasses import dataclass

from reports.sweep_data import SweepData


@dataclass(frozen=True)
class Recommendation:
    headline: str
    sure: bool  # the paired interval against the alternative leaves out 0
    details: tuple[str, ...]


def _diff(data: SweepData, a: str, b: str) -> str:
    p = data.pair(a, b)
    if p is None:
        return "no paired units"
    method = "" if p.interval.method == "normal" else f" {p.interval.method}"  # every unit tied: named
    return (f"{p.mean:+.4f} per {data.unit} (95% CI{method} {p.low:+.4f} .. {p.high:+.4f}, {p.units:,} paired "
            f"{data.unit}s)")


def _decided(data: SweepData) -> Recommendation:
    """A sweep run until decided: its decision and the confirmation's estimate on fresh deals, not the
    selection's (which chose the config and so flatters it)."""
    d = data.decision
    name = data.labels.get(d.best_match, d.best_match)
    head = {"switch": f"Switch to {name}", "keep": f"Keep the baseline {name}",
            "undecided": f"Undecided at the cap: keep the baseline {name} for now"}[d.decision]
    sel, conf = d.deals["selection"], d.deals["confirmation"]
    details = [f"{d.hands:,} {data.unit}s in all; selection on seed {sel['seed']}, confirmation on fresh deals "
               f"(seed {conf['seed']}, {data.unit}s {conf['units'][0] if conf['units'] else '-'}.."
               f"{conf['units'][-1] if conf['units'] else '-'})"]
    if d.confirmed_mean is not None:
        low, high = (f"{v:+.4f}" if v is not None else "nan" for v in (d.confirmed_low, d.confirmed_high))
        details.append(f"confirmed: challenger minus baseline {d.confirmed_mean:+.4f} per {data.unit} (95% {low} .. "
                       f"{high}, {d.confirmed_method})")
    if d.llr_path:
        details.append(f"SPRT log-likelihood ratio by {data.unit}s per config (accept H0 at {d.bounds[0]:+.2f}, H1 at "
                       f"{d.bounds[1]:+.2f}): " + ", ".join(f"{u:,}: {llr:+.2f}" for u, llr in d.llr_path))
    return Recommendation(head, d.decision != "undecided", tuple(details))


def recommend(data: SweepData) -> Recommendation:
    if data.decision is not None:
        return _decided(data)
    best, second, base = data.best, data.runner_up, data.baseline
    name = data.labels[best.match_id]
    details = []
    if data.short():
        details.append(f"incomplete: {len(data.short())} configs have fewer {data.unit}s than planned; "
                       "finish the sweep before deciding")
    if second is not None:
        details.append(f"{name} vs the runner-up {data.labels[second.match_id]}: "
                       f"{_diff(data, best.match_id, second.match_id)}")
    if base is None:
        details.append("this sweep has no baseline config (the bot's defaults or the submitted bundle), so it "
                       "cannot say whether anything beats what you have")
        pair = data.pair(best.match_id, second.match_id) if second else None
        sure = bool(pair and pair.low > 0)
        return Recommendation(f"Best config: {name}" + ("" if sure else " (not clearly ahead of the runner-up)"),
                              sure, tuple(details))
    worse = [c for c in data.ranked if c.match_id != base and (p := data.pair(c.match_id, base)) and p.high < 0]
    if worse:
        details.append("clearly worse than the baseline: " + "; ".join(
            f"{data.labels[c.match_id]} {_diff(data, c.match_id, base)}" for c in worse))
    if best.match_id == base:
        pair = data.pair(base, second.match_id) if second else None
        sure = bool(pair and pair.low > 0)
        head = "Keep the baseline: no config beats it" + ("" if sure else " (the runner-up is within noise)")
        return Recommendation(head, sure, tuple(details))
    pair = data.pair(best.match_id, base)
    details.insert(0, f"{name} vs the baseline {data.labels[base]}: {_diff(data, best.match_id, base)}")
    if pair is not None and pair.low > 0:
        return Recommendation(f"Switch to {name}: it beats the baseline by {pair.mean:+.4f} per {data.unit} "
                              f"(95% CI {pair.low:+.4f} .. {pair.high:+.4f})", True, tuple(details))
    return Recommendation(f"Keep the baseline for now: {name} ranks first but its paired difference to the "
                          "baseline includes 0; play more units to tell them apart", False, tuple(details))
