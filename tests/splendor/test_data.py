"""Card and noble data against their invariants (docs/rules/splendor.md#constants) and the shared copy."""

import filecmp
from collections import Counter
from pathlib import Path

from engine.splendor import rules

HERE = Path(__file__).parent / "data"


def test_project_data_matches_the_shared_copy_kept_with_the_tests():
    for name in ("cards.csv", "nobles.csv"):
        assert filecmp.cmp(rules.DATA_DIR / name, HERE / name, shallow=False)


def test_bonus_colour_cycles_with_the_id():
    assert all(rules.CARDS[i].bonus == (i - 1) % 5 for i in range(1, 91))


def test_levels_follow_id_ranges_and_colours_are_balanced():
    for level, (lo, hi) in enumerate(rules.LEVEL_RANGES, start=1):
        assert all(rules.CARDS[i].level == level for i in range(lo, hi + 1))
        colours = Counter(rules.CARDS[i].bonus for i in range(lo, hi + 1))
        assert set(colours.values()) == {(8, 6, 4)[level - 1]}


def test_points_by_level():
    points = [Counter(c.points for c in rules.CARDS[1:] if c.level == lv) for lv in (1, 2, 3)]
    assert points[0] == {0: 35, 1: 5}
    assert points[1] == {1: 10, 2: 15, 3: 5}
    assert points[2] == {3: 5, 4: 10, 5: 5}
    assert sum(c.points for c in rules.CARDS[1:]) == 140


def test_nobles_are_the_standard_set():
    reqs = sorted(tuple(sorted(n.requires)) for n in rules.NOBLES[1:])
    assert reqs == sorted([(0, 0, 0, 4, 4)] * 5 + [(0, 0, 3, 3, 3)] * 5)
    assert all(n.points == 3 for n in rules.NOBLES[1:])
    assert rules.NOBLES[1].requires == (4, 4, 0, 0, 0) and rules.NOBLES[10].requires == (3, 3, 0, 0, 3)
