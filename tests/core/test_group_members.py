"""A program's pids control group lists its whole tree: the judge reads the tree's members from it in
one file rather than walking every process of the machine in /proc on each poll (issue 30 item 7)."""

import sys
import uuid

import pytest

from engine.core.pids import Tree
from engine.core.process import LineProcess

from .test_contestant import survivors
from .test_tree_limits import SLEEPERS, script


def test_a_pids_group_lists_the_same_processes_as_the_tree_walk(tmp_path):
    marker = f"group-{uuid.uuid4().hex}"
    few = script(tmp_path, "few.py", SLEEPERS)
    with LineProcess([sys.executable, few, marker, "3"]) as proc:
        assert proc.read_line(timeout=20) == "made 3"
        if proc._group is None or proc._group.pids_folder is None:
            pytest.skip("this machine gives the judge no pids control group")
        members = proc._group.members()
        assert len(members) == 4 and proc.pid in members
        assert sorted(members) == sorted(Tree(proc.proc.pid).members())
    assert survivors(marker) == []
