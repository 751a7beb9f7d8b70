"""Lazily built caches under concurrent builders: threads and processes starting cold together."""

import multiprocessing
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from engine.core import cache_file


def _read(path: Path) -> np.ndarray:
    with np.load(path) as data:
        return data["x"].copy()


def _slow_build(marker: Path | None = None) -> dict[str, np.ndarray]:
    if marker is not None:  # count builds across processes
        with open(marker, "a") as f:
            f.write("built\n")
    time.sleep(0.2)  # long enough that every racer arrives while the first builds
    return {"x": np.arange(100_000, dtype=np.int64)}


def _load_in_process(path: str, marker: str) -> int:
    got = cache_file.load_or_build(Path(path), load=_read, build=lambda: _slow_build(Path(marker)),
                                   convert=lambda a: a["x"])
    return int(got.sum())


def test_threads_racing_build_once_and_all_get_the_data(tmp_path):
    path = tmp_path / "cache" / "table.npz"
    builds = []
    barrier = threading.Barrier(8)

    def racer(_):
        barrier.wait()
        return cache_file.load_or_build(path, load=_read, build=lambda: builds.append(1) or _slow_build(),
                                        convert=lambda a: a["x"])

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(racer, range(8)))
    assert len(builds) == 1
    for got in results:
        np.testing.assert_array_equal(got, np.arange(100_000))
    assert sorted(p.name for p in path.parent.iterdir()) == ["table.npz", "table.npz.lock"]


def test_processes_racing_build_once(tmp_path):
    path, marker = tmp_path / "table.npz", tmp_path / "builds.txt"
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        sums = pool.starmap(_load_in_process, [(str(path), str(marker))] * 4)
    assert sums == [int(np.arange(100_000).sum())] * 4
    assert marker.read_text().count("built") == 1


def test_a_corrupt_file_is_rebuilt(tmp_path):
    path = tmp_path / "table.npz"
    path.write_bytes(b"not an npz file")
    got = cache_file.load_or_build(path, load=_read, build=_slow_build, convert=lambda a: a["x"])
    np.testing.assert_array_equal(got, np.arange(100_000))
    np.testing.assert_array_equal(_read(path), np.arange(100_000))


def test_a_read_only_folder_still_builds(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        got = cache_file.load_or_build(folder / "sub" / "t.npz", load=_read, build=_slow_build,
                                       convert=lambda a: a["x"])
    finally:
        folder.chmod(0o700)
    assert got.shape == (100_000,)


def test_exploit_tables_load_from_two_threads_on_a_cold_cache(tmp_path, monkeypatch):
    """The main job's first-run failure: two sweep threads built the bot tables at once."""
    from bots.holdem_training import tables

    monkeypatch.setenv("CARDLAB_HOME", str(tmp_path))
    monkeypatch.setattr(tables, "_LOADED", {})
    monkeypatch.setattr(tables, "PREFLOP_BOARDS", 20)  # the race, not the table quality, is under test
    built = []
    real_build = tables.build
    monkeypatch.setattr(tables, "build", lambda: built.append(1) or real_build(boards=20))
    barrier = threading.Barrier(2)

    def racer(_):
        barrier.wait()
        return tables.load()

    with ThreadPoolExecutor(2) as pool:
        first, second = pool.map(racer, range(2))
    assert len(built) == 1
    np.testing.assert_array_equal(first.pre_win, second.pre_win)
