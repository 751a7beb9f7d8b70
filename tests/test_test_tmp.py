"""The test suite's stores live in a temporary folder per process (tests/conftest.py); it must not outlive the
process, or every run leaves a few MB in /tmp (686 folders, 2.6 GB, had piled up before it was removed)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _import_conftest(tmp: Path, **env: str) -> str:
    """Import the suite's conftest in a fresh process whose temp root is ``tmp``; the folder it made."""
    out = subprocess.run([sys.executable, "-c", "import tests.conftest as c; print(c._TMP)"], cwd=ROOT,
                         env={**os.environ, "TMPDIR": str(tmp), **env}, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_the_suite_temp_folder_is_removed_at_exit(tmp_path):
    made = _import_conftest(tmp_path, CARDLAB_KEEP_TEST_TMP="")
    assert Path(made).parent == tmp_path
    assert list(tmp_path.glob("cardlab-tests-*")) == []


def test_the_suite_temp_folder_is_kept_when_asked(tmp_path):
    made = _import_conftest(tmp_path, CARDLAB_KEEP_TEST_TMP="1")
    assert list(tmp_path.glob("cardlab-tests-*")) == [Path(made)]
