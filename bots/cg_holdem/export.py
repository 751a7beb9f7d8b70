"""Write a single-file CodinGame submission (standard library only) for a bot config.

The file is the project's own stdlib-only modules glued together in dependency order
(card helpers, rules, protocol reader, push/fold chart, pure-Python evaluator, the bot
strategies), their project imports removed and their stdlib imports hoisted, plus a main
loop. So the submission runs the same decision code as the in-process bot; only the
Monte Carlo equity is the pure-Python one, stopped by a per-turn time budget.
"""

import ast
import json
import sys
from dataclasses import replace
from pathlib import Path

from bots.base import BotSpec
from bots.cg_holdem.ranged import RangedConfig
from bots.cg_holdem.reads import CALLERS, PLAYERS, PLAYERS_BY_LIVE, SEEN_BY_LIVE, read_prior
from engine.core.errors import BadValue

ROOT = Path(__file__).resolve().parents[2]
MODULES = (
    "engine/core/errors.py",  # the error types bots/base.py raises (stdlib only)
    "bots/base.py",  # the configs' declared ranges (stdlib only)
    "engine/core/cards.py",
    "engine/cg_holdem/rules.py",
    "engine/cg_holdem/protocol.py",
    "bots/cg_holdem/pushfold_chart.py",
    "bots/cg_holdem/pure_eval.py",
    "bots/cg_holdem/strategies.py",
    "bots/cg_holdem/hands.py",
    "bots/cg_holdem/reads.py",
    "bots/cg_holdem/ranged.py",
)
BOT_CLASSES = {"station": "CallingStation", "montecarlo": "MonteCarloBot", "pushfold": "PushFoldBot",
               "aggressive": "AggressiveBot", "ranged": "RangedBot"}
PROJECT_PACKAGES = ("engine", "bots")
CODE_LIMIT = 100_000  # characters: the longest code CodinGame's IDE accepts for a submission

MAIN = '''

# ---- submission entry point ------------------------------------------------------------
TURN_BUDGET_S = {budget!r}  # Monte Carlo stops here; CodinGame allows 50 ms a turn


class PyEquity:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def __call__(self, hole, board, opponents, samples):
        deadline = time.perf_counter() + TURN_BUDGET_S
        return equity_vs_random_py(hole, board, opponents, samples, self.rng, deadline)


def main():
    def read():
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\\n")

    setup = read_setup(read)
    config = {config!r}
    bot = {bot_class}(config, PyEquity(config.seed))
    bot.start(setup)
    while True:
        try:
            turn = read_turn(read, setup.players)
        except EOFError:
            return
        print(bot.act(turn), flush=True)


if __name__ == "__main__":
    main()
'''


def _split_imports(source: str, path: str) -> tuple[list[str], str]:
    """(stdlib import lines, the rest of the module's code without imports, docstrings or comments).
    The code is printed back from its syntax tree, so comments go and the file stays under the arena's size limit;
    what runs is the same code."""
    tree = ast.parse(source)
    stdlib, kept = [], []
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            top = (node.module if isinstance(node, ast.ImportFrom) else node.names[0].name).split(".")[0]
            if top in PROJECT_PACKAGES:
                continue
            if top not in sys.stdlib_module_names:
                raise BadValue(f"{path}: imports {top!r}, which CodinGame's Python does not have")
            stdlib.append(ast.unparse(node))
        elif not _is_docstring(node):
            kept.append(node)
    for node in ast.walk(ast.Module(body=kept, type_ignores=[])):
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and _is_docstring(node.body[0]):
            node.body = node.body[1:] or [ast.Pass()]
    return stdlib, ast.unparse(ast.Module(body=kept, type_ignores=[]))


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def prior_in_use(config) -> str:
    """``config.read_prior`` with only the parts ``config`` plays by, as RangedBot.start reads them (the export embeds
    it, and the arena caps a submission's length): the players' own tables when every seat reads them instead of the
    pooled ones (seat_prior), their phase split with seat_prior_phase, the callers for seat_prior or call_prior, the
    pooled tables otherwise. It lives here, not in reads.py, which the export inlines: the program never calls it."""
    prior = read_prior(config.read_prior)
    if prior is None:
        return config.read_prior
    per_player = bool(config.seat_prior and prior.get(PLAYERS) and prior.get(CALLERS))
    callers = per_player or bool(config.call_prior)
    used = {CALLERS: callers, PLAYERS: per_player, SEEN_BY_LIVE: callers and bool(config.seat_prior_phase),
            PLAYERS_BY_LIVE: per_player and bool(config.seat_prior_phase)}
    kept = {k: v for k, v in prior.items() if used.get(k, not per_player)}
    return json.dumps(kept, separators=(",", ":"))


def submission_source(spec: BotSpec, config, *, turn_budget_s: float = 0.015) -> str:
    if spec.name not in BOT_CLASSES:
        raise BadValue(f"bot {spec.name!r} cannot be exported; accepted: {', '.join(BOT_CLASSES)}")
    imports = ["import random", "import sys", "import time"]
    bodies = []
    for rel in MODULES:
        stdlib, body = _split_imports((ROOT / rel).read_text(), rel)
        imports += [line for line in stdlib if line not in imports]
        bodies.append(f"# ---- from {rel} " + "-" * max(4, 80 - len(rel)) + "\n" + body)
    header = (f'"""CodinGame Hold\'em submission generated by cardlab: bot {spec.name!r}.\n'
              f'Its settings: `config` in main() at the end (written once: a read_prior can be long).\n"""\n')
    if isinstance(config, RangedConfig):  # only the prior's parts its settings read: the arena caps the length
        config = replace(config, read_prior=prior_in_use(config))
    main = MAIN.format(budget=turn_budget_s, config=config, bot_class=BOT_CLASSES[spec.name])
    return header + "\n".join(sorted(set(imports))) + "\n\n\n" + "\n\n\n".join(bodies) + main


def write_submission(out: Path, spec: BotSpec, config, *, turn_budget_s: float = 0.015) -> Path:
    source = submission_source(spec, config, turn_budget_s=turn_budget_s)
    ast.parse(source)  # never write a file that does not compile
    if len(source) > CODE_LIMIT:  # the arena would refuse it: say so here, not at upload
        raise BadValue(f"the {spec.name} submission would be {len(source):,} characters; CodinGame accepts at most "
                       f"{CODE_LIMIT:,} (a smaller read_prior, e.g. fewer logged players, makes it shorter)")
    out = Path(out)
    out.write_text(source)
    return out
