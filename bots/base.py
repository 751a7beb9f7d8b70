"""What every bot shares: a registry entry with a frozen, typed config.

A bot's config is what MLflow logs and what a sweep varies, so configs are plain frozen
dataclasses of int/float/bool/str fields, built from ``k=v`` strings with clear errors.
Each game's bot *interface* (the methods a judge calls) lives with that game.
"""

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, get_type_hints


class ConfigError(ValueError):
    """A bad ``--set``/``--grid`` key or value; the message says what is accepted."""


@dataclass(frozen=True)
class BotSpec:
    name: str
    config_type: type
    factory: Callable[[Any], Any]  # config -> bot instance
    summary: str

    def default_config(self):
        return self.config_type()

    def make(self, config=None):
        return self.factory(config if config is not None else self.config_type())

    def config_from(self, overrides: Mapping[str, str] | Iterable[str] = ()):
        return build_config(self.config_type, overrides, owner=f"bot {self.name!r}")


def config_fields(config_type: type) -> dict[str, type]:
    hints = get_type_hints(config_type)
    return {f.name: hints[f.name] for f in dataclasses.fields(config_type)}


def parse_value(kind: type, key: str, text: str, owner: str):
    try:
        if kind is bool:
            lowered = text.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise ValueError
        if kind in (int, float, str):
            return kind(text)
        if getattr(kind, "__origin__", None) is tuple:  # tuple[int, ...] written as 1/2/3
            inner = kind.__args__[0]
            return tuple(inner(part) for part in text.split("/") if part)
    except ValueError:
        pass
    else:
        raise ConfigError(f"{owner}: key {key!r} has unsupported type {kind}")
    shape = {bool: "true/false", int: "an integer", float: "a number", str: "text"}.get(kind, "a/b/c")
    raise ConfigError(f"{owner}: {key}={text!r} is not {shape}")


def split_pairs(overrides: Mapping[str, str] | Iterable[str]) -> dict[str, str]:
    if isinstance(overrides, Mapping):
        return {str(k): str(v) for k, v in overrides.items()}
    pairs = {}
    for item in overrides:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"expected key=value, got {item!r}")
        pairs[key.strip()] = value.strip()
    return pairs


def build_config(config_type: type, overrides: Mapping[str, str] | Iterable[str] = (), *, owner: str = ""):
    """A config from its defaults plus ``k=v`` overrides; unknown keys name the accepted ones."""
    fields = config_fields(config_type)
    values = {}
    for key, text in split_pairs(overrides).items():
        if key not in fields:
            accepted = ", ".join(sorted(fields)) or "(none)"
            raise ConfigError(f"{owner}: unknown key {key!r}; accepted keys: {accepted}")
        values[key] = parse_value(fields[key], key, text, owner)
    try:
        return config_type(**values)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{owner}: {exc}") from exc


def config_as_dict(config) -> dict[str, Any]:
    return dataclasses.asdict(config)
