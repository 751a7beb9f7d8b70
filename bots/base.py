"""What every bot shares: a registry entry with a frozen, typed config.

A bot's config is what MLflow logs and what a sweep varies, so configs are plain frozen
dataclasses of int/float/bool/str fields, built from ``k=v`` strings with clear errors.
Every field declares what it accepts next to its default (``ranged``, ``one_of``,
``validated``); the ``Ranged`` mixin refuses anything else however the config is made, so
NaN, infinities and out-of-range values never reach a bot.
Each game's bot *interface* (the methods a judge calls) lives with that game.
"""

import dataclasses
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from numbers import Real
from pathlib import Path
from typing import Any, get_type_hints

# ConfigError lives with the parser; callers import it here too
from engine.core.settings import ConfigError, number, pairs

SEED_MAX = 2**63 - 1  # seeds are logged as DuckDB BIGINT and fed to 64-bit streams


@dataclass(frozen=True)
class Accepts:
    """What one config field accepts: numbers in [lo, hi] (ends optionally open), a name out
    of ``choices``, or whatever ``check`` passes (it returns why a value is refused, else None).
    Tuple fields hold one or more elements, each checked."""

    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    hi_open: bool = False
    choices: tuple[str, ...] = ()
    check: Callable[[Any], str | None] | None = None
    text: str = ""  # what ``check`` accepts, in words

    def describe(self) -> str:
        if self.check is not None:
            return self.text
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        return f"{'(' if self.lo_open else '['}{_num(self.lo)}, {_num(self.hi)}{')' if self.hi_open else ']'}"

    def refusal(self, value) -> str | None:
        """None when the value is accepted, else why not, naming what is accepted."""
        if isinstance(value, (tuple, list)):
            if not value:
                return f"is empty; accepted: one or more values, each in {self.describe()}"
            bad = next((v for v in value if self.refusal(v)), None)
            return None if bad is None else f"has a value ({bad}) that {self.refusal(bad)}"
        if self.check is not None:
            reason = self.check(value)
            return f"is refused ({reason}); accepted: {self.text}" if reason else None
        if self.choices:
            return None if value in self.choices else f"is not {self.describe()}"
        if isinstance(value, bool) or not isinstance(value, Real):
            return f"is not a number; accepted: {self.describe()}"
        x = float(value)
        inside = (math.isfinite(x) and (x > self.lo if self.lo_open else x >= self.lo)
                  and (x < self.hi if self.hi_open else x <= self.hi))
        return None if inside else f"is outside the accepted range {self.describe()}"


def _num(x: float) -> str:
    if x == SEED_MAX:
        return "2^63 - 1"
    if float(x).is_integer() and abs(x) >= 10_000:
        return f"{int(x):_}".replace("_", ",") if abs(x) < 2**53 else str(int(x))
    return f"{x:g}"


ACCEPTS = "accepts"  # the dataclass field metadata key


def ranged(default, lo: float, hi: float, *, lo_open: bool = False, hi_open: bool = False):
    """A numeric field (or tuple of numbers) accepting [lo, hi]; say which ends are open."""
    return dataclasses.field(default=default, metadata={ACCEPTS: Accepts(lo, hi, lo_open, hi_open)})


def one_of(default: str, choices: Iterable[str]):
    return dataclasses.field(default=default, metadata={ACCEPTS: Accepts(choices=tuple(choices))})


def validated(default, check: Callable[[Any], str | None], text: str):
    """A field whose values ``check`` vets (returns why a value is refused, else None)."""
    return dataclasses.field(default=default, metadata={ACCEPTS: Accepts(check=check, text=text)})


def seed_field(default: int = 0):
    return ranged(default, 0, SEED_MAX)


def empty_or_file(value) -> str | None:
    """For path fields: '' (use the default) or an existing file."""
    if value == "" or Path(value).is_file():
        return None
    return "no such file"


_declared: dict[type, dict[str, Accepts]] = {}


def declare(config_type: type, **accepts: Accepts) -> None:
    """Ranges for a config type that cannot import this module (engine options)."""
    _declared.setdefault(config_type, {}).update(accepts)


def accepts_of(config_type: type) -> dict[str, Accepts | None]:
    """Each field's declaration (None when it has none; bool fields need none)."""
    extra = _declared.get(config_type, {})
    return {f.name: f.metadata.get(ACCEPTS) or extra.get(f.name) for f in dataclasses.fields(config_type)}


def undeclared_fields(config_type: type) -> list[str]:
    """Fields that accept more than they should: no declaration, or numbers without bounds."""
    kinds = config_fields(config_type)
    missing = []
    for name, accepts in accepts_of(config_type).items():
        kind = kinds[name]
        if kind is bool:
            continue
        numeric = kind in (int, float) or (getattr(kind, "__origin__", None) is tuple
                                          and kind.__args__[0] in (int, float))
        if accepts is None or (numeric and accepts.check is None and not (
                accepts.lo is not None and accepts.hi is not None
                and math.isfinite(accepts.lo) and math.isfinite(accepts.hi))):
            missing.append(name)
    return missing


def check_values(config_type: type, values: Mapping[str, Any]) -> None:
    """ConfigError naming the first value outside its field's declared range, and the range."""
    declared = accepts_of(config_type)
    for key, value in values.items():
        accepts = declared.get(key)
        reason = accepts.refusal(value) if accepts is not None else None
        if reason:
            shown = "/".join(map(str, value)) if isinstance(value, (tuple, list)) else value
            raise ConfigError(f"{key}={shown!r} {reason}" if isinstance(shown, str) else f"{key}={shown} {reason}")


class Ranged:
    """Mixin for config dataclasses: construction refuses values outside the declared ranges.
    A subclass with its own ``__post_init__`` calls ``super().__post_init__()`` first."""

    def __post_init__(self):
        check_values(type(self), {f.name: getattr(self, f.name) for f in dataclasses.fields(self)})


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
        if kind in (int, float):
            return number(text, kind)
        if kind is str:
            return text
        if getattr(kind, "__origin__", None) is tuple:  # tuple[int, ...] written as 1/2/3
            inner = kind.__args__[0]
            return tuple(number(part, inner) if inner in (int, float) else inner(part)
                         for part in text.split("/") if part)
    except ValueError:
        pass
    else:
        raise ConfigError(f"{owner}: key {key!r} has unsupported type {kind}")
    shape = {bool: "true/false", int: "an integer", float: "a number", str: "text"}.get(kind, "a/b/c")
    raise ConfigError(f"{owner}: {key}={text!r} is not {shape}" + ("" if text.isascii() else " in ASCII digits"))


def split_pairs(overrides: Mapping[str, str] | Iterable[str], option: str = "setting") -> dict[str, str]:
    if isinstance(overrides, Mapping):
        return {str(k): str(v) for k, v in overrides.items()}
    return dict(pairs(overrides, option))


def build_config(config_type: type, overrides: Mapping[str, str] | Iterable[str] = (), *, owner: str = ""):
    """A config from its defaults plus ``k=v`` overrides; unknown keys name the accepted ones."""
    fields = config_fields(config_type)
    values = {}
    for key, text in split_pairs(overrides, f"{owner} setting" if owner else "setting").items():
        if key not in fields:
            accepted = ", ".join(sorted(fields)) or "(none)"
            raise ConfigError(f"{owner}: unknown key {key!r}; accepted keys: {accepted}")
        values[key] = parse_value(fields[key], key, text, owner)
    try:
        check_values(config_type, values)  # also for types without the Ranged mixin
        return config_type(**values)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{owner}: {exc}") from exc


def config_as_dict(config) -> dict[str, Any]:
    return dataclasses.asdict(config)
