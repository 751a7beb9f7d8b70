"""A bot chosen by name plus its `k=v` settings, or by one entry such as `montecarlo:samples=40`,
`mcts:time_ms=50,nodes=900` or `learner prior_scale=2`: read the same way by the CLI, the flows and
the benchmarks. Bad input raises the project's errors (UnknownName, ConfigError) in the one style
`OPTION 'what was given': what was wrong; accepted: ...`; a bad config value is the bot's own
ConfigError message, which names the key and its range."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bots.base import BotSpec, config_fields
from engine.core.errors import UnknownName
from engine.core.settings import ConfigError, pairs


@dataclass(frozen=True)
class BotChoice:
    """A registered bot and the config its settings make; `label` is the bot as the user wrote it."""

    label: str
    spec: BotSpec
    config: Any
    settings: tuple[tuple[str, str], ...] = ()

    def make(self):
        return self.spec.make(self.config)


def choose(bots: Mapping[str, BotSpec], name: str, settings: Iterable[str] = (), *, option: str = "--bot",
           settings_option: str = "--set", game: str | None = None, label: str | None = None) -> BotChoice:
    """The bot called `name` in `bots`, configured by its defaults plus the `k=v` settings."""
    if name not in bots:
        known = ", ".join(sorted(bots)) or "(none)"
        raise UnknownName(f"{option} {name!r}: unknown bot{' for ' + game if game else ''}; accepted: {known}")
    spec = bots[name]
    keys = ", ".join(sorted(config_fields(spec.config_type))) or "(none: the bot takes no settings)"
    given = pairs(settings, settings_option, accepted=f"key=value with a key of {keys}")
    return BotChoice(label=name if label is None else label, spec=spec, config=spec.config_from(dict(given)),
                     settings=given)


def entry(bots: Mapping[str, BotSpec], text: str, *, option: str = "--bot", sep: str | None = ":",
          settings_sep: str | None = ":", game: str | None = None) -> BotChoice:
    """One bot written as a single entry: its name, then `k=v` settings. `sep` ends the name and
    `settings_sep` parts the settings (None: blanks), e.g. `montecarlo:samples=40:bet_fraction=0.5`
    (":", ":"), `mcts:time_ms=50,nodes=900` (":", ",") or `learner prior_scale=2` (None, None).
    The label is the entry as written (blank-separated entries: single blanks)."""
    name, *rest = text.strip().split(sep, 1) or [""]
    settings = [s for s in (rest[0].split(settings_sep) if rest else []) if s.strip()]
    if not name.strip():
        shown = f"NAME or NAME{sep or ' '}k=v{settings_sep or ' '}k=v..."
        raise ConfigError(f"{option} {text!r}: no bot name; accepted: {shown} with NAME one of "
                          f"{', '.join(sorted(bots))}")
    return choose(bots, name.strip(), settings, option=option, settings_option=f"{option} {text!r} setting",
                  game=game, label=" ".join(text.split()) if sep is None else text)
