"""The one reader of `key=value` lists, grids and integer lists (engine.core.settings): what it accepts, and
the one-line refusal naming the option, the bad part and what is accepted."""

import pytest

from engine.core.errors import BadValue
from engine.core.settings import ConfigError, grid, integers, listed, pairs


def test_pairs_keep_order_and_strip_unless_told():
    assert pairs([" a = 1", "b=x=y", "a=2"], "--set") == (("a", "1"), ("b", "x=y"), ("a", "2"))
    assert pairs([" A= 1 "], "--env", strip=False) == ((" A", " 1 "),)
    assert pairs(["k="], "--set") == (("k", ""),)


@pytest.mark.parametrize("item", ["novalue", "=3", " =3"])
def test_a_pair_without_a_key_is_refused_naming_it(item):
    with pytest.raises(ConfigError) as refused:
        pairs(["ok=1", item], "--opt", accepted="key=value with a key of a, b")
    assert str(refused.value) == f"--opt {item!r}: not key=value; accepted: key=value with a key of a, b"
    assert isinstance(refused.value, BadValue)


def test_listed_drops_blanks():
    assert listed(" 1, ,2 ,") == ["1", "2"]
    assert listed(" , ") == []


def test_a_grid_is_keys_and_their_values():
    assert grid(["edge=0.3, 0.7", " n =1"]) == (("edge", ("0.3", "0.7")), ("n", ("1",)))
    with pytest.raises(ConfigError, match=r"^--grid 'edge': not key=value; accepted: key=v1,v2,\.\.\.$"):
        grid(["edge"])
    with pytest.raises(ConfigError, match=r"^--grid 'edge= ,': no value; accepted: key=v1,v2,\.\.\.$"):
        grid(["edge= ,"])


@pytest.mark.parametrize(("text", "kwargs", "problem"), [
    ("1,x", {}, "'x' is not an integer"),
    ("1,9", {"lo": 0, "hi": 4}, "9 is out of range"),
    ("-1", {"lo": 0}, "-1 is out of range"),
    (" , ", {}, "no value"),
    ("2", {"count": 2}, "2 expected, 1 given"),
])
def test_integers_refuse_naming_the_bad_part(text, kwargs, problem):
    with pytest.raises(ConfigError) as refused:
        integers(text, "--pair", accepted="b1,b2", **kwargs)
    assert str(refused.value) == f"--pair {text!r}: {problem}; accepted: b1,b2"


def test_integers_in_range_and_count_are_read():
    assert integers(" 2, 4 ", "--pair", accepted="", lo=2, hi=4, count=2) == [2, 4]
