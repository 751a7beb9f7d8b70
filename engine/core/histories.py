"""Hand histories in PHH, the TOML format PokerKit reads and writes: what any game's reader and the
kept copies (flows.histories) agree on. A game that reads PHH declares its reader in its GameSpec."""

import hashlib

SUFFIXES = (".phh", ".phhs")  # one hand per file, or several as tables


def digest_of(data: bytes) -> str:
    """A history's identity: the hash of its bytes, so the same file kept anywhere is one source."""
    return hashlib.sha256(data).hexdigest()
