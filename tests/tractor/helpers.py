"""The tractor commands mounted the way cardlab/cli.py mounts them, for CLI tests."""

import typer

from cardlab.commands import tractor as commands


def typer_app() -> typer.Typer:
    root = typer.Typer()
    root.command("judge")(commands.judge)
    root.command("export")(commands.export)
    root.add_typer(commands.bench_app, name="bench")
    root.add_typer(commands.app, name="tractor")
    return root


def mangle(text: str, rng, alphabet: str) -> str:
    """1 to 3 random deletions, insertions or replacements of characters from `alphabet`."""
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(chars))
        kind = rng.randrange(3)
        if kind == 0:
            del chars[at]
        elif kind == 1:
            chars.insert(at, rng.choice(alphabet))
        else:
            chars[at] = rng.choice(alphabet)
    return "".join(chars)
