"""An in-process bot sees what the contest shows a program, and nothing of the judge's hand."""

from engine.holdem_training import judge
from engine.holdem_training.rules import Action
from engine.holdem_training.state import HandState


def _reachable_by_attribute(obj, depth: int = 3) -> list:
    """Objects reachable from `obj` through public attributes (what a bot could read without introspection)."""
    found, frontier = [], [obj]
    for _ in range(depth):
        nxt = []
        for item in frontier:
            names = [n for n in dir(item) if not n.startswith("_")]
            for name in names:
                try:
                    value = getattr(item, name)
                except Exception:  # noqa: BLE001 - a property that refuses is no leak
                    continue
                if not callable(value) or isinstance(value, HandState):
                    found.append(value)
                    nxt.append(value)
        frontier = nxt
    return found


def test_the_rate_query_and_the_view_expose_no_hand_state():
    seen = []

    class Looking:
        def start_match(self, hands, budget):
            pass

        def act(self, view, rate):
            seen.append((view, rate))
            rate(10)
            return Action("CHECK", 0)

        def observe(self, *args):
            pass

        def end_hand(self, *args):
            pass

    result = judge.play_match(Looking(), seed=3, hands=5)
    assert result.complete and seen
    for view, rate in seen:
        assert not hasattr(rate, "state")
        leaks = [v for v in _reachable_by_attribute(rate) + _reachable_by_attribute(view) if isinstance(v, HandState)]
        assert leaks == []
