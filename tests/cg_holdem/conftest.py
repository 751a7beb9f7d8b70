import pytest


@pytest.fixture(scope="session")
def class_matrix():
    """The sampled class-vs-class equity matrix, computed once (400 deals per pair)."""
    from bots.cg_holdem.pushfold import equity_matrix

    return equity_matrix(400, seed=2)
