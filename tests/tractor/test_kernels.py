"""The numba simulator (engine/tractor/fast.py + _kernels.py) against its slow pure-Python twin
(engine/tractor/simulate.py, the oracle): same bytes out, same error, at any chunk size."""

import io
import random
from pathlib import Path

import pytest

from engine.tractor.fast import run_fast
from engine.tractor.simulate import run
from tests.tractor.helpers import mangle

DATA = Path(__file__).parent / "data"
CASES = sorted(DATA.glob("*/*.in"))  # the statement's cases, copied into the clone (test_simulate checks all 29)


def slow(text: str) -> tuple[str, str | None]:
    out = io.StringIO()
    error = run(text, out)
    return out.getvalue(), None if error is None else str(error)


def fast(text: str, chunk: int = 1 << 20) -> tuple[str, str | None]:
    out = io.BytesIO()
    error = run_fast(io.BytesIO(text.encode()), out, chunk=chunk)
    return out.getvalue().decode(), None if error is None else str(error)


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.stem}")
def test_shared_cases_byte_exact_at_any_chunk_size(case):
    text = case.read_bytes().decode()
    expected = case.with_suffix(".out").read_bytes().decode()
    for chunk in (1 << 20, 100, 7):
        assert fast(text, chunk) == (expected, None)


def test_bot_played_rounds_match_the_twin():
    from bots.tractor import BOTS
    from engine.tractor.judge import contest_input, play_rounds

    played = play_rounds(BOTS["random"].make(), BOTS["rule"].make(), seed=19, first=0, count=150)
    text = contest_input(played)
    want = slow(text)
    assert want[1] is None and want[0].count("Case #") == 150
    assert fast(text) == want
    assert fast(text, 997) == want


def test_mangled_inputs_give_the_same_output_and_error():
    rng = random.Random(19)
    base = (DATA / "core" / "21_multi_case_4cases.in").read_text()
    alphabet = "HSCDOBRJ23456789TJQKA10 \n\r\t\x0c"
    errors = 0
    for _ in range(500):
        text = mangle(base, rng, alphabet)
        want = slow(text)
        errors += want[1] is not None
        assert fast(text, rng.choice([64, 300, 1 << 20])) == want, text
    assert errors > 100


@pytest.mark.parametrize("text", ["", "0\n", "0", "2", " 1\n\nO Bob 2 2\n", "١\n", "1\nO Bob 2 2\nH10 S2 S3 S4\n",
                                  "1\r\rO Bob 2 2\rS2 S3 S4\r", "1\n\nO Bob 2 2\nS9D3 H3S9 C3DT SAD3\n"])
def test_odd_inputs_agree(text):
    assert fast(text) == slow(text)
    assert fast(text, 3) == slow(text)
