"""CodinGame refuses a submission longer than 100,000 characters: the export keeps every bot well under it (the code
printed back from its syntax tree, without comments or docstrings) and refuses, in one line, to write one over it."""

import json

import pytest

from bots.cg_holdem import BOTS
from bots.cg_holdem.export import CODE_LIMIT, submission_source, write_submission
from bots.cg_holdem.reads import BINS, CALLERS, PLAYERS, SITUATIONS
from engine.core.errors import BadValue
from tests.cg_holdem.test_ranged_call_prior import WIDE


@pytest.mark.parametrize("name", ["station", "montecarlo", "pushfold", "aggressive", "ranged"])
def test_every_default_export_fits_the_arena_with_room_for_a_prior(name):
    source = submission_source(BOTS[name], BOTS[name].default_config())
    assert len(source) < 0.8 * CODE_LIMIT
    assert '"""' not in source.split("\n", 3)[3]  # only the header keeps a docstring
    modules = source.split("\n# ---- submission entry point")[0]  # the main loop, the export's own, keeps its notes
    assert "\n#" not in modules.replace("\n# ---- from ", "")  # the modules' own comments are gone


def test_an_export_over_the_limit_is_refused_in_one_line(tmp_path):
    tables = {s: [[1234.5] * BINS for _ in range(3)] for s in SITUATIONS}
    players = {f"player{i}": tables for i in range(40)}  # a prior of 40 logged players: far too long
    prior = json.dumps({**tables, CALLERS: {p: WIDE for p in players}, PLAYERS: players})
    spec = BOTS["ranged"]
    with pytest.raises(BadValue) as refused:
        write_submission(tmp_path / "bot.py", spec, spec.config_from([f"read_prior={prior}"]))
    why = str(refused.value)
    assert "\n" not in why and "100,000" in why and "read_prior" in why
    assert not (tmp_path / "bot.py").exists()
