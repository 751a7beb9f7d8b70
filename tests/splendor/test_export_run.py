"""An exported Splendor agent (DIR/run) answers from any current folder, by any path to it: the arbiter runs
it in its own folder (tests/splendor/test_workspace.py), a user by hand from anywhere; run changes no folder."""

import os
import subprocess

import typer
from typer.testing import CliRunner

from cardlab.commands import splendor as cli
from engine.splendor import state as st
from engine.splendor.protocol import output_tokens

from .test_protocol import EXAMPLE, example_state


def test_the_exported_run_answers_legally_from_any_folder(tmp_path):
    app = typer.Typer()
    app.command("export")(cli.export)
    app.command("judge")(cli.judge)
    bundle = tmp_path / "my bundle"  # a space in the path too
    made = CliRunner().invoke(app, ["export", "--out", str(bundle), "--bot", "greedy"])
    assert made.exit_code == 0, made.output
    run = bundle / "run"
    assert "chdir" not in run.read_text()  # the agent keeps the folder it was started in
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "link").symlink_to(run)
    for folder, argv in ((elsewhere, [str(run)]), (tmp_path, [os.path.join("my bundle", "run")]),
                         (elsewhere, ["./link"]), (bundle, ["./run"])):
        done = subprocess.run(argv, cwd=folder, input=EXAMPLE, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (folder, argv, done.stderr)
        st.validate(example_state(), output_tokens(done.stdout))  # raises if the arbiter would pass it
