"""ranged@REV and the prior benches' --rev play the ranged bot as committed at REV, with the modules split from
ranged.py (hands, reads) as committed there too, not the working tree's."""

import subprocess
import sys

from bench.cg_holdem import ranged_paired
from bots.cg_holdem import hands, reads

RANGED = "from bots.cg_holdem.hands import COMBOS\nfrom bots.cg_holdem.reads import BINS\n"


def _commit(repo, files: dict[str, str]) -> str:
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repo)]
    subprocess.run([*git, "add", "-A"], check=True, capture_output=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True, capture_output=True)
    return subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


def test_a_revision_plays_its_own_split_modules_and_one_without_them_the_working_tree_s(tmp_path, monkeypatch):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    before = _commit(tmp_path, {"bots/cg_holdem/ranged.py": RANGED})  # the layout before the split
    after = _commit(tmp_path, {"bots/cg_holdem/hands.py": "COMBOS = 'hands at rev'\n",
                               "bots/cg_holdem/reads.py": "BINS = 'reads at rev'\n"})
    monkeypatch.setattr(ranged_paired, "ROOT", tmp_path)
    old = ranged_paired.committed_module(before)
    assert old.COMBOS is hands.COMBOS and old.BINS == reads.BINS
    new = ranged_paired.committed_module(after)
    assert (new.COMBOS, new.BINS) == ("hands at rev", "reads at rev")
    # the working tree's modules are back for everything else
    assert sys.modules["bots.cg_holdem.hands"] is hands and sys.modules["bots.cg_holdem.reads"] is reads
