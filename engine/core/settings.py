"""Settings as users write them, read once for every layer: `key=value` lists (--set, --opt, --env,
--grid, --program, a generator reading) and comma-separated lists such as `1,2,3`.

Pure functions over strings, stdlib only so the engine can use them; bad input raises ConfigError
with the one style `OPTION 'what was given': what was wrong; accepted: ...`. (Bots chosen by name:
bots/choice.py.)"""

from collections.abc import Iterable

from engine.core.errors import BadValue

KEY_VALUE = "key=value"


class ConfigError(BadValue):
    """A bad ``--set``/``--grid`` key or value; the message says what is accepted."""


def pairs(items: Iterable[str], option: str, *, accepted: str = KEY_VALUE,
          strip: bool = True) -> tuple[tuple[str, str], ...]:
    """`key=value` strings -> ((key, value), ...), in order (a repeated key: the last one counts where
    they become a dict). `strip=False` keeps the value as typed (environment variables)."""
    found = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{option} {item!r}: not key=value; accepted: {accepted}")
        found.append((key.strip(), value.strip()) if strip else (key, value))
    return tuple(found)


def listed(text: str) -> list[str]:
    """The non-blank parts of a comma-separated list, stripped."""
    return [part.strip() for part in text.split(",") if part.strip()]


def grid(items: Iterable[str], option: str = "--grid") -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`k=v1,v2` strings -> ((k, (v1, v2)), ...); the values are checked later against the config."""
    accepted = "key=v1,v2,..."
    found: dict[str, tuple[str, ...]] = {}
    for item in items:
        ((key, values),) = pairs([item], option, accepted=accepted)
        parts = listed(values)
        if not parts:
            raise ConfigError(f"{option} {item!r}: no value; accepted: {accepted}")
        if key in found:  # a dict would keep the last silently
            raise ConfigError(f"{option} {item!r}: key {key!r} is given twice; accepted: each key once, with all "
                              f"its values ({key}={','.join(found[key] + tuple(parts))})")
        repeated = next((part for i, part in enumerate(parts) if part in parts[:i]), None)
        if repeated is not None:  # the same config would be played twice
            raise ConfigError(f"{option} {item!r}: value {repeated!r} is given twice; accepted: each value once")
        found[key] = tuple(parts)
    return tuple(found.items())


def number(text: str, kind: type = float):
    """An int or float as users type it. Python's int() and float() also read other scripts' digits
    (a full-width '１' as 1); a setting takes ASCII only. ValueError otherwise."""
    if not text.isascii():
        raise ValueError(f"{text!r} is not ASCII")
    return kind(text)


def integers(text: str, option: str, *, accepted: str, lo: int | None = None, hi: int | None = None,
             count: int | None = None) -> list[int]:
    """Comma-separated integers such as `1,2,3`, each in [lo, hi], and `count` of them if given."""
    parts = listed(text)
    problem = _integers_problem(parts, lo=lo, hi=hi, count=count)
    if problem:
        raise ConfigError(f"{option} {text!r}: {problem}; accepted: {accepted}")
    return [int(part) for part in parts]


def _integers_problem(parts: list[str], *, lo: int | None, hi: int | None, count: int | None) -> str | None:
    for part in parts:
        try:
            value = number(part, int)
        except ValueError:
            return f"{part!r} is not an integer"
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            return f"{value} is out of range"
    if not parts:
        return "no value"
    if count is not None and len(parts) != count:
        return f"{count} expected, {len(parts)} given"
    return None
