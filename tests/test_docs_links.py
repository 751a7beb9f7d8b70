"""The README stays a ten-minute read, and every relative link in it and in docs/ leads somewhere."""

import re
from pathlib import Path

import pytest

from tests.test_rules_docs import anchors

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
README_MAX_BYTES = 20_000
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def relative_links(page: Path) -> list[str]:
    # links inside code blocks are examples, not links
    return [t for t in LINK.findall(FENCE.sub("", page.read_text())) if not re.match(r"[a-z]+:", t)]


def broken(page: Path, target: str) -> str | None:
    path, _, fragment = target.partition("#")
    dest = (page.parent / path).resolve() if path else page
    if not dest.exists():
        return f"{target}: no such file"
    if fragment and dest.suffix == ".md" and fragment not in anchors(dest):
        return f"{target}: no heading #{fragment}"
    return None


def test_readme_is_short():
    assert README.stat().st_size <= README_MAX_BYTES, f"README.md is {README.stat().st_size} bytes"


def test_broken_is_found(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Top\n\n[a](missing.md) [b](#top) [c](#nowhere) [d](https://example.org)\n")
    found = [broken(page, t) for t in relative_links(page)]
    assert found == ["missing.md: no such file", None, "#nowhere: no heading #nowhere"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page):
    problems = [p for t in relative_links(page) if (p := broken(page, t))]
    assert not problems, f"{page.relative_to(ROOT)}:\n" + "\n".join(problems)
