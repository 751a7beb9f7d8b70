"""The help of commands that serve every game (hand histories, replays, sweeps, leagues, opponent models, the
workspace's benchmarks) names no game: nothing above the engine names one (ARCHITECTURE.md); a game is named only
by its declaration (GameSpec)."""

import re

import pytest
from typer.testing import CliRunner

from cardlab import cli
from flows import games


def _spelled() -> set[str]:
    """Every way the help could name a game: its CLI name, its engine package's name, its title's head."""
    found = set()
    for spec in games.specs():
        found |= {spec.name, spec.name.replace("-", "_"), re.split(r" \(|:", spec.title)[0]}
    return {name.lower() for name in found}


@pytest.mark.parametrize("command", [["phh", "import"], ["phh", "export"], ["phh", "list"], ["phh"], ["replay"],
                                     ["sweep"], ["league"], ["fit"], ["bench", "store"], ["bench", "sweep"]])
def test_the_help_names_no_game(command):
    done = CliRunner().invoke(cli.app, [*command, "--help"], env={"COLUMNS": "100"})
    assert done.exit_code == 0, done.output
    text = " ".join(re.sub(r"[│╭╮╰╯─]", " ", done.output).split()).lower()  # rich's wrapping and boxes undone
    assert len(text) > 40  # the help itself, not an empty page
    assert sorted(name for name in _spelled() if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)) == []
