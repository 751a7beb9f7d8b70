"""Full-game transcripts regenerated and diffed against the checked-in goldens."""

import difflib

import pytest

from tests.cg_holdem.golden import GAMES, golden_path, transcript


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_transcript_matches_golden(players, seed):
    expected = golden_path(players, seed).read_text()
    got = transcript(players, seed)
    if got != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), got.splitlines(True)))[:60])
        pytest.fail(f"transcript drifted from {golden_path(players, seed).name}:\n{diff}")
