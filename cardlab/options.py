"""Command-line settings as every command reads them: `key=value` lists (--set, --opt, --env) and a
bot chosen by name plus its `k=v` settings, or by one entry such as `montecarlo:samples=40`.

Bad input stops the command with one line naming the bad part and what is accepted (cardlab.errors.fail);
a bad config value is the bot's own ConfigError message, which names the key and its range."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bots.base import BotSpec, ConfigError, config_fields
from cardlab.errors import fail

KEY_VALUE = "key=value"


def pairs(items: Iterable[str], option: str, *, accepted: str = KEY_VALUE,
          strip: bool = True) -> tuple[tuple[str, str], ...]:
    """`key=value` strings -> ((key, value), ...), in order (a repeated key: the last one counts where
    they become a dict). `strip=False` keeps the value as typed (environment variables)."""
    found = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            fail(f"{option} {item!r}: not key=value; accepted: {accepted}")
        found.append((key.strip(), value.strip()) if strip else (key, value))
    return tuple(found)


@dataclass(frozen=True)
class BotChoice:
    """A registered bot and the config its settings make; `label` is the bot as the user wrote it."""

    label: str
    spec: BotSpec
    config: Any
    settings: tuple[tuple[str, str], ...] = ()

    def make(self):
        return self.spec.make(self.config)


def bot(bots: Mapping[str, BotSpec], name: str, settings: Iterable[str] = (), *, option: str = "--bot",
        settings_option: str = "--set", game: str | None = None, label: str | None = None) -> BotChoice:
    """The bot called `name` in `bots`, configured by its defaults plus the `k=v` settings."""
    if name not in bots:
        known = ", ".join(sorted(bots)) or "(none)"
        fail(f"{option} {name!r}: unknown bot{' for ' + game if game else ''}; accepted: {known}")
    spec = bots[name]
    keys = ", ".join(sorted(config_fields(spec.config_type))) or "(none: the bot takes no settings)"
    given = pairs(settings, settings_option, accepted=f"key=value with a key of {keys}")
    try:
        config = spec.config_from(dict(given))
    except ConfigError as exc:
        fail(str(exc))
    return BotChoice(label=name if label is None else label, spec=spec, config=config, settings=given)


def entry(bots: Mapping[str, BotSpec], text: str, *, option: str = "--bot", sep: str | None = ":",
          settings_sep: str | None = ":") -> BotChoice:
    """One bot written as a single entry: its name, then `k=v` settings. `sep` ends the name and
    `settings_sep` parts the settings (None: blanks), e.g. `montecarlo:samples=40:bet_fraction=0.5`
    (":", ":"), `mcts:time_ms=50,nodes=900` (":", ",") or `learner prior_scale=2` (None, None)."""
    name, *rest = text.strip().split(sep, 1) or [""]
    settings = [s for s in (rest[0].split(settings_sep) if rest else []) if s.strip()]
    shown = f"NAME or NAME{sep or ' '}k=v{settings_sep or ' '}k=v..."
    if not name.strip():
        fail(f"{option} {text!r}: no bot name; accepted: {shown} with NAME one of {', '.join(sorted(bots))}")
    return bot(bots, name.strip(), settings, option=option, settings_option=f"{option} {text!r} setting",
               label=text)


def settings_of(config: Mapping[str, Any]) -> list[str]:
    """A stored config as the `k=v` settings that make it again (tuples written a/b/c)."""
    from flows.submissions import config_text

    return [f"{key}={config_text(value)}" for key, value in config.items()]



def integers(text: str, option: str, *, accepted: str, lo: int | None = None, hi: int | None = None,
             count: int | None = None) -> list[int]:
    """Comma-separated integers such as `1,2,3`, each in [lo, hi], and `count` of them if given."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    problem = _integers_problem(parts, lo=lo, hi=hi, count=count)
    if problem:
        fail(f"{option} {text!r}: {problem}; accepted: {accepted}")
    return [int(part) for part in parts]


def _integers_problem(parts: list[str], *, lo: int | None, hi: int | None, count: int | None) -> str | None:
    for part in parts:
        try:
            value = int(part)
        except ValueError:
            return f"{part!r} is not an integer"
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            return f"{value} is out of range"
    if not parts:
        return "no value"
    if count is not None and len(parts) != count:
        return f"{count} expected, {len(parts)} given"
    return None
