"""A sweep's bad command is refused before Prefect and MLflow are imported (seconds of the user's time):
the spec and its checks live in flows.sweep_spec, the running flow in flows.sweep."""

import json
import os
import subprocess
import sys
import textwrap

from flows.store import HandLog

BAD = [  # a command, and what its one error line must say
    (["sweep", "cg-holdem", "--opt", "nope=1"], "unknown key 'nope'"),
    (["sweep", "holdem-training", "--bot", "exploit", "--grid", "nope=1,2"], "unknown key 'nope'"),
    (["sweep", "holdem-training", "--bot", "exploit", "--grid", "future_flop=0.4,.4"],
     "two of the configs are the same"),
    (["sweep", "holdem-training", "--resume", "s-nope"], "s-nope"),
    # another bot than the game's default without --grid: the default grid is of the default bot's keys
    (["sweep", "holdem-training", "--bot", "exploit"], "the game's default grid is for rate_equity; accepted: "
                                                       "--grid key=v1,v2 with exploit's keys (cpu_budget,"),
    (["sweep", "holdem-training", "--bot", "checker"], "with checker's keys (none: nothing to sweep)"),
]

# Every command in one process (one start-up): its exit code and error lines, then the heavy modules loaded
PROBE = textwrap.dedent("""
    import contextlib, io, json, sys
    from cardlab.cli import main
    answers = []
    for args in json.loads(sys.argv[1]):
        sys.argv, err = ["cardlab", *args], io.StringIO()
        with contextlib.redirect_stderr(err):
            try:
                main()
                code = 0
            except SystemExit as exc:
                code = exc.code
        answers.append([code, [line for line in err.getvalue().splitlines() if line.startswith("error: ")]])
    print(json.dumps({"answers": answers, "heavy": sorted(m for m in ("prefect", "mlflow") if m in sys.modules)}))
""")


def test_bad_sweeps_are_refused_in_one_line_without_the_flow_stack(tmp_path):
    HandLog(tmp_path / "log")  # a hand log without the sweep to resume
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "CARDLAB_HOME": str(tmp_path),
           "CARDLAB_DB": str(tmp_path / "log"), "MLFLOW_TRACKING_URI": f"sqlite:///{tmp_path / 'm.db'}",
           # the project's compiled kernels and hand tables: an empty cache spent 10-20 s rebuilding them
           "NUMBA_CACHE_DIR": os.environ["NUMBA_CACHE_DIR"]}
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps([args for args, _ in BAD])], env=env,
                          capture_output=True, text=True, timeout=300)
    got = json.loads(done.stdout.strip().splitlines()[-1])
    for (args, says), (code, errors) in zip(BAD, got["answers"], strict=True):
        assert code == 2 and len(errors) == 1 and says in errors[0], (args, errors)
    assert got["heavy"] == []  # none of the refusals waited for Prefect or MLflow
