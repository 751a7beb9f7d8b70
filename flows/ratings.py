"""The one rating model every comparison of entrants uses (leagues, tournaments): openskill's
Plackett-Luce over games in order, each game a list of names and their finishing ranks."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: what a leaderboard ranks by


def rate(games: Iterable[tuple[Sequence[str], Sequence[float]]]) -> dict[str, Rating]:
    """name -> its rating after every game in order; a game is (names, ranks), 1 = first, equal ranks tie."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    table = {}
    for names, ranks in games:
        teams = [[table.setdefault(n, model.rating(name=n))] for n in names]
        for name, (rating,) in zip(names, model.rate(teams, ranks=[float(r) for r in ranks]), strict=True):
            table[name] = rating
    return {n: Rating(r.mu, r.sigma, r.ordinal()) for n, r in table.items()}
