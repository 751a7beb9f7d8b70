"""Code cites the rules in docs/rules/<game>.md: every cited file and #anchor must exist, and no
code cites documents a clone of the repository does not have (../shared/specs)."""

import re
from pathlib import Path

import pytest

from flows import games

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
# Each installed game's rules doc, as its spec declares it (flows.games: one declaration per game)
DOCS = {name: games.get(name).rules_path() for name in games.installed()}
GAMES = tuple(sorted(path.stem for path in DOCS.values() if path is not None))
PACKAGES = ("engine", "bots", "flows", "cardlab", "tests", "bench", "reports")
CITATION = re.compile(r"docs/rules/([A-Za-z0-9_]+)\.md(?:#([A-Za-z0-9_-]+))?")
OUTSIDE = re.compile(r"shared/specs|specs/[a-z_]+\.md|\bspecs? (section )?[0-9]", re.I)
# User-facing CLI help text (code, not a comment) that still names a spec section; to be reworded
# by whoever owns cardlab/commands/twocarddraw.py, then removed from here.
KNOWN_OUTSIDE: set[str] = set()  # files allowed to cite the shared specs (none)


def anchor(heading: str) -> str:
    """GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(doc: Path) -> set[str]:
    return {anchor(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+)$", doc.read_text(), re.M)}


def python_files():
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def citations() -> list[tuple[str, str, str | None]]:
    """(file:line, game, anchor or None) for every docs/rules citation in the code."""
    found = []
    for path in python_files():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for match in CITATION.finditer(line):
                found.append((f"{path.relative_to(ROOT)}:{number}", match.group(1), match.group(2)))
    return found


def test_anchor_follows_github():
    assert anchor("Seats and blinds") == "seats-and-blinds"
    assert anchor("Bob's rule") == "bobs-rule"
    assert anchor("Elimination, scores and the round cap") == "elimination-scores-and-the-round-cap"


def test_every_installed_game_declares_its_rules_doc():
    assert all(path is not None and path.parent == RULES for path in DOCS.values()), DOCS


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_rules_doc(game):
    doc = RULES / f"{game}.md"
    assert doc.is_file(), f"{doc} is missing"
    assert len(anchors(doc)) >= 5, f"{doc} has too few sections to cite"


def test_the_code_cites_the_rules_docs():
    cited = {game for _, game, _ in citations()}
    assert set(GAMES) <= cited, f"no code cites the rules of {sorted(set(GAMES) - cited)}"


def test_every_cited_rules_anchor_exists():
    known = {doc.stem: anchors(doc) for doc in RULES.glob("*.md")}
    broken = [f"{where}: docs/rules/{game}.md" + (f"#{name}" if name else "")
              for where, game, name in citations()
              if game not in known or (name is not None and name not in known[game])]
    assert not broken, "citations of missing rules sections:\n" + "\n".join(broken)


def test_no_code_cites_documents_outside_the_repository():
    this = Path(__file__).resolve()
    offenders = [f"{path.relative_to(ROOT)}:{number}"
                 for path in python_files()
                 if path.resolve() != this and str(path.relative_to(ROOT)) not in KNOWN_OUTSIDE
                 for number, line in enumerate(path.read_text().splitlines(), 1) if OUTSIDE.search(line)]
    assert not offenders, "cite docs/rules/<game>.md instead of ../shared/specs:\n" + "\n".join(offenders)
