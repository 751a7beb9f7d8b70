"""The clone test: does a fitted model play like the opponent it was fitted to?

Each candidate plays the original and the clone on the same deals (the same seed, so the same
cards and seatings); its result against the clone should agree with its result against the
original within the 95% interval of their difference, and the candidates should rank the same way
against both. Games are heads-up where the game seats several (the candidate against one opponent);
results are compared per deal, each deal played in every seating.
"""

import dataclasses
from dataclasses import dataclass

from bots.choice import entry
from engine.core.errors import BadValue
from flows.opponents import MODEL_PREFIX, seat
from flows.stats import summarize


@dataclass(frozen=True)
class CandidateResult:
    candidate: str
    vs_original: float  # mean payoff
    vs_original_half: float  # half-width of its 95% interval
    vs_clone: float
    vs_clone_half: float
    difference_half: float  # half-width of the 95% interval of (vs_clone - vs_original), paired on the deals

    @property
    def agrees(self) -> bool:
        return abs(self.vs_clone - self.vs_original) <= self.difference_half


@dataclass(frozen=True)
class CloneTestResult:
    game: str
    original: str
    model: str
    games: int
    seed: int
    results: tuple[CandidateResult, ...]

    @property
    def ranking_original(self) -> list[str]:
        return [r.candidate for r in sorted(self.results, key=lambda r: (-r.vs_original, r.candidate))]

    @property
    def ranking_clone(self) -> list[str]:
        return [r.candidate for r in sorted(self.results, key=lambda r: (-r.vs_clone, r.candidate))]

    @property
    def same_ranking(self) -> bool:
        return self.ranking_original == self.ranking_clone

    @property
    def separated_order_kept(self) -> bool:
        """Every pair of candidates the original tells apart (disjoint 95% intervals) is in the same order
        against the clone: the part of the ranking the games can show."""
        rs = self.results
        return all((a.vs_clone - b.vs_clone) * (a.vs_original - b.vs_original) > 0
                   for i, a in enumerate(rs) for b in rs[i + 1:]
                   if abs(a.vs_original - b.vs_original) > a.vs_original_half + b.vs_original_half)

    @property
    def all_agree(self) -> bool:
        return all(r.agrees for r in self.results)

    def as_dict(self) -> dict:
        return {"original": self.original, "model": self.model, "games": self.games, "seed": self.seed,
                "same_ranking": self.same_ranking, "separated_order_kept": self.separated_order_kept,
                "all_agree": self.all_agree,
                "ranking_original": self.ranking_original, "ranking_clone": self.ranking_clone,
                "candidates": [dataclasses.asdict(r) | {"agrees": r.agrees} for r in self.results]}


def _options(spec, opponent: str):
    """The game's match options with `opponent` as the only opponent, heads-up where seats vary."""
    fields = {f.name for f in dataclasses.fields(spec.options_type)} if spec.options_type else set()
    key = "opponents" if "opponents" in fields else "opponent" if "opponent" in fields else None
    if key is None:
        raise BadValue(f"{spec.name}: the clone test needs match options naming the opponent; accepted: a game "
                       "whose --opt takes opponents")
    return spec.options({key: opponent, **({"players": "2"} if "players" in fields else {})})


def _original(spec, text: str) -> tuple[str, bool]:
    """(the original, whether it is a program): a project bot by name (or bot:NAME), else a command line."""
    name = text.strip().removeprefix("bot:")
    if name.split(":")[0] in spec.bots:
        return name, False
    if spec.play_program is None or not spec.payoff_bounds:
        raise BadValue(f"--check-against {text!r}: not a bot of {spec.name}; accepted: one of "
                       f"{', '.join(sorted(spec.bots))}")
    return text.strip(), True


def _per_deal(payoffs, players: int) -> list[float]:
    """Mean payoff per deal: the units of a deal seat the line-up in every rotation, so a candidate in
    the first seat (against bots) and in the second (against a program) is compared on the same cards."""
    return [sum(payoffs[i:i + players]) / players for i in range(0, len(payoffs) - players + 1, players)]


def play(spec, candidate: str, opponent: str, *, games: int, seed: int, program: bool = False) -> list[float]:
    """The candidate's payoff per deal against `opponent` (a bot, `model:ID`, or a program's command)."""
    from bots.program import ProgramConfig

    options = _options(spec, candidate if program else opponent)
    players = getattr(options, "players", 2)
    if program:  # the program takes the primary seat; heads-up, the candidate gets the rest of the payoff
        lo, hi = spec.payoff_bounds
        log = spec.play_program(ProgramConfig(opponent), seed=seed, first=0, count=games, options=options)
        return _per_deal([lo + hi - float(x) for x in log.payoffs], players)
    chosen = entry(spec.bots, candidate, option="candidate", game=spec.name)
    log = spec.play_chunk(chosen.spec, chosen.config, seed=seed, first=0, count=games, options=options)
    return _per_deal([float(x) for x in log.payoffs], players)


def clone_test(game: str, model_id: str, original: str, candidates: list[str], *, games: int = 100,
               seed: int = 1) -> CloneTestResult:
    """Each candidate against the original (a bot or a program) and the clone, on the same deals."""
    from flows import games as registry

    spec = registry.get(game)
    original, program = _original(spec, original)
    seat(game, model_id)  # a missing model or one of another game stops here, in one line
    clone = f"{MODEL_PREFIX}{model_id.removeprefix(MODEL_PREFIX)}"
    results = []
    for candidate in candidates:
        a = play(spec, candidate, original, games=games, seed=seed, program=program)
        b = play(spec, candidate, clone, games=games, seed=seed)
        sa, sb = summarize(a), summarize(b)
        paired = summarize([y - x for x, y in zip(a, b, strict=True)])  # the same deals: a paired difference
        results.append(CandidateResult(candidate, sa.mean, sa.half_width, sb.mean, sb.half_width, paired.half_width))
    return CloneTestResult(game, original, clone, games, seed, tuple(results))
