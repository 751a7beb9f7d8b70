"""Imported hand histories (`cardlab phh import`): PHH files kept beside the hand log, so a later
fit reads them without the originals (`cardlab fit cg-holdem --phh imported`).

The folder is `histories/` beside the hand log (`$CARDLAB_DB`'s folder). Each file is checked (by
the reader its game declares, GameSpec.read_phh) and copied under its content's hash, `HASH.phh` or
`HASH.phhs`, with a sidecar `HASH.json` listing its original name, hands and players. No shared index and no hand-log
lock: a file and its sidecar are each written whole (a temporary file renamed), so readers and
other imports never see half of one; the same content imported twice is one copy.
"""

import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.core.cache_file import publish
from engine.core.errors import BadValue, MissingFile
from engine.core.histories import SUFFIXES, digest_of
from flows.settings import Paths

IMPORTED = "imported"  # `--phh imported`: every imported history
KEPT_DIGITS = 16  # hex digits of the hash naming a kept file


@dataclass(frozen=True)
class Kept:
    """One imported file, as its sidecar lists it."""

    digest: str
    name: str  # the file's name when imported
    path: str  # the kept copy
    hands: int
    players: tuple[str, ...]
    imported_at: str
    new: bool = False  # imported by this call (not already kept)


def histories_dir() -> Path:
    return Paths.from_env().db.parent / "histories"


def reader():
    """The PHH reader of the game that declares one (GameSpec.read_phh): the hold'em game whose rules
    the imported hands are replayed under."""
    from flows import games

    declared = [spec for spec in games.specs() if spec.read_phh is not None]
    if len(declared) != 1:  # a second hold'em reader would need the game named: not needed yet
        raise BadValue(f"games that read PHH: {', '.join(s.name for s in declared) or 'none'}; accepted: exactly one")
    return declared[0].read_phh


def import_files(paths) -> list[Kept]:
    """Check every PHH file named (files, folders) and then keep a copy of each: a bad one (BadHistory,
    MissingFile, one line) stops the import before anything is kept."""
    read = reader()
    checked = []
    for path in expand(paths):
        data = path.read_bytes()
        checked.append((path, data, read(data, path.name)))
    return [_keep(path, data, hands) for path, data, hands in checked]


def _keep(path: Path, data: bytes, hands) -> Kept:
    digest = digest_of(data)
    folder = histories_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stem = digest[:KEPT_DIGITS]
    kept = folder / f"{stem}{'.phhs' if len(hands) > 1 or path.suffix == '.phhs' else '.phh'}"
    sidecar = folder / f"{stem}.json"
    if sidecar.is_file() and kept.is_file():
        return Kept(**json.loads(sidecar.read_text()))
    players = tuple(sorted({name for hand in hands for name in hand.names or ()}))
    entry = Kept(digest, path.name, str(kept), len(hands), players,
                 datetime.now(UTC).replace(microsecond=0).isoformat(), new=True)
    publish(kept, lambda out: out.write(data))
    listed = json.dumps({**asdict(entry), "players": list(players), "new": False}).encode()
    publish(sidecar, lambda out: out.write(listed))
    return entry


def listing() -> list[Kept]:
    """Every imported file, oldest first (a sidecar whose copy is gone is skipped)."""
    found = []
    for sidecar in sorted(histories_dir().glob("*.json")):
        entry = json.loads(sidecar.read_text())
        entry["players"] = tuple(entry["players"])
        if Path(entry["path"]).is_file():
            found.append(Kept(**entry))
    return sorted(found, key=lambda k: (k.imported_at, k.digest))


def phh_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in SUFFIXES)


def expand(paths) -> list[Path]:
    """PHH files named: files, folders (their .phh/.phhs files, recursively) and `imported`."""
    out: list[Path] = []
    for given in paths:
        if str(given) == IMPORTED:
            kept = listing()
            if not kept:
                raise MissingFile(f"--phh imported: no histories imported in {histories_dir()}; accepted: files "
                                  "or folders, or `cardlab phh import FILES` first")
            out += [Path(k.path) for k in kept]
            continue
        path = Path(given)
        if path.is_dir():
            found = phh_files(path)
            if not found:
                raise MissingFile(f"{path}: no .phh or .phhs files in this folder; accepted: PHH files or folders "
                                  "of them")
            out += found
        elif path.is_file():
            out.append(path)
        else:
            raise MissingFile(f"{path}: no such file or folder; accepted: PHH files (.phh, .phhs), folders of them, "
                              f"or {IMPORTED}")
    return list(dict.fromkeys(out))
