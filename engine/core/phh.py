"""What every PHH writer shares: TOML values and the multi-hand file layout.

PokerKit reads several hands from one file (``HandHistory.load_all``) only when each hand is
its own TOML table (``[1]``, ``[2]``, ...); hands simply concatenated repeat their keys and
the file is not valid TOML.
"""


def toml_text(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def toml_list(values) -> str:
    return "[" + ", ".join(toml_text(v) if isinstance(v, str) else str(v) for v in values) + "]"


def join_hands(texts) -> str:
    """Hands (each one hand's PHH text) as one multi-hand file (a ``.phhs`` file)."""
    return "\n".join(f"[{i}]\n{text}" for i, text in enumerate(texts, start=1))
