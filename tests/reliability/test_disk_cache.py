"""The numba backend's disk cache under faults and attack.

* Several processes share one cache directory while one of them is killed with
  SIGKILL in the middle of writing an entry: the others, and fresh processes
  afterwards, get correct results; the torn entry is discarded with a
  ``CacheWarning`` and rebuilt, after which no warning is given.
* A truncated cache file is detected by its checksum and rebuilt.
* The directory is created 0700; an entry in a group/world-writable directory,
  or not owned by the user, is never loaded (a warning says why, and the kernel
  compiles in memory).
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import pytest

from lazygraph.configuration import config

# numba is an optional third-party library: without it these tests have nothing to
# test. Its presence is the only condition: a lazygraph.backends.numba that fails
# to import must fail here, not skip (available_backends() would hide that).
pytest.importorskip("numba")

# A child process: load three kernel modules through the disk cache and print
# their results. With "hang", the first manifest write stops half way, tells
# the parent (which then SIGKILLs it) and waits.
CHILD = textwrap.dedent(
    """
    import json, sys, time, warnings
    from pathlib import Path
    from lazygraph.backends.numba import cache

    mode, ready = sys.argv[1], sys.argv[2]
    if mode == "hang":
        real = cache._atomic_write

        def torn(path, data):
            if path.name.endswith(".manifest.json"):
                tmp = path.with_name("." + path.name + ".torn.tmp")
                tmp.write_bytes(data[: len(data) // 2])
                Path(ready).write_text("x")
                time.sleep(600)
            real(path, data)

        cache._atomic_write = torn
    out = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for k in range(3):
            src = (
                "import numba\\n@numba.njit(cache=True)\\n"
                f"def kernel(x):\\n    return x * 2 + {k}\\n"
            )
            out.append(cache.load_source(src).kernel(10 + k))
    names = [type(w.message).__name__ for w in caught]
    print(json.dumps({"out": out, "warnings": names}))
    """
)
EXPECTED = [20, 23, 26]


def _child(cache_dir: Path, mode: str, ready: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, LAZYGRAPH_CACHE_DIR=str(cache_dir))
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, mode, str(ready)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _result(proc: subprocess.Popen[str]) -> dict[str, list]:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.slow  # four fresh interpreters importing numba: ~30 s on 2 cores
def test_processes_share_the_cache_and_survive_sigkill(tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    ready = tmp_path / "ready"
    victim = _child(cache_dir, "hang", ready)
    deadline = time.monotonic() + 300
    while not ready.exists():
        assert victim.poll() is None, victim.communicate()[1]
        assert time.monotonic() < deadline, "the victim never reached its write"
        time.sleep(0.05)
    # Two processes start while the victim is stuck mid-write, then it dies.
    others = [_child(cache_dir, "normal", ready) for _ in range(2)]
    victim.send_signal(signal.SIGKILL)
    victim.wait(timeout=60)
    assert victim.returncode == -signal.SIGKILL
    for proc in others:
        assert _result(proc)["out"] == EXPECTED
    # A fresh process works (any torn entry is discarded with a CacheWarning)...
    fresh = _result(_child(cache_dir, "normal", ready))
    assert fresh["out"] == EXPECTED
    assert set(fresh["warnings"]) <= {"CacheWarning"}
    # ...and leaves the cache whole: the next one loads it without complaint.
    again = _result(_child(cache_dir, "normal", ready))
    assert again == {"out": EXPECTED, "warnings": []}


# A child process: compile one kernel module for the dtypes it is given, in that
# order, and print how many signatures it compiled and loaded, and its warnings.
# With a pause file, it stops after its first dtype until that file exists.
SIGNATURES_CHILD = textwrap.dedent(
    """
    import json, sys, time, warnings
    from pathlib import Path
    import numpy as np
    from lazygraph.backends.numba import cache

    dtypes, paused, go = sys.argv[1].split(","), Path(sys.argv[2]), Path(sys.argv[3])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kernel = cache.load_source(
            "import numba\\n@numba.njit(cache=True)\\ndef kernel(x):\\n    return x * 2 + 1\\n"
        ).kernel
        out = []
        for i, dtype in enumerate(dtypes):
            out.append(float(kernel(np.ones(3, dtype)).sum()))
            if i == 0 and sys.argv[4] == "pause":
                paused.write_text("x")
                while not go.exists():
                    time.sleep(0.05)
    print(json.dumps({
        "out": out,
        "compiled": sum(kernel._cache_misses.values()),
        "loaded": sum(kernel._cache_hits.values()),
        "warnings": [str(w.message) for w in caught],
    }))
    """
)


@pytest.mark.slow  # three fresh interpreters importing numba: ~20 s on 2 cores
def test_processes_compiling_one_module_share_its_signatures(tmp_path: Path) -> None:
    """Two live processes add signatures to one kernel module (as pytest-xdist
    or dask workers sharing a cache directory do). The second starts while the
    first has compiled its first signature and is still running: it loads that
    signature instead of taking the entry for a corrupted one, and every
    signature's code is recorded, so a third process compiles nothing."""
    env = dict(os.environ, LAZYGRAPH_CACHE_DIR=str(tmp_path / "cache"))
    paused, go = tmp_path / "paused", tmp_path / "go"

    def child(dtypes: str, pause: bool = False) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [
                sys.executable,
                "-c",
                SIGNATURES_CHILD,
                dtypes,
                str(paused),
                str(go),
                "pause" if pause else "-",
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    first = child("int64,int32", pause=True)
    try:
        deadline = time.monotonic() + 300
        while not paused.exists():
            assert first.poll() is None, first.communicate()[1]
            assert time.monotonic() < deadline, "the first process never compiled"
            time.sleep(0.05)
        second = _result(child("float64,int64"))
    finally:
        go.write_text("x")  # never leave the first process waiting, even on failure
    assert second == {"out": [9.0, 9.0], "compiled": 1, "loaded": 1, "warnings": []}
    assert _result(first) == {"out": [9.0, 9.0], "compiled": 2, "loaded": 0, "warnings": []}
    third = _result(child("int64,int32,float64"))
    assert third == {"out": [9.0] * 3, "compiled": 0, "loaded": 3, "warnings": []}


def _kernel_source(k: int) -> str:
    return f"import numba\n@numba.njit(cache=True)\ndef kernel(x):\n    return x * 3 - {k}\n"


@pytest.fixture
def numba_cache(tmp_path: Path):
    from lazygraph.backends.numba import cache

    with config.change(cache_dir=str(tmp_path / "lg")):
        cache.forget_loaded()
        yield cache
        cache.forget_loaded()


def _populate(cache, k: int) -> Path:
    assert cache.load_source(_kernel_source(k)).kernel(5) == 15 - k
    cache.forget_loaded()
    root = cache.cache_root()
    assert root is not None
    return root


def _entry(cache, root: Path, k: int) -> Path:
    """The directory of kernel ``k``'s module in the cache: its source, and
    Numba's files in its ``__pycache__``."""
    return root / f"lg_{cache.source_hash(_kernel_source(k))}"


def test_cache_dir_is_private(numba_cache) -> None:
    root = _populate(numba_cache, 1)
    entry = _entry(numba_cache, root, 1)
    assert (entry / f"{entry.name}.py").is_file()
    for d in (root.parent, root, entry, entry / "__pycache__"):
        assert stat.S_IMODE(d.stat().st_mode) == 0o700
        assert d.stat().st_uid == os.getuid()


def test_truncated_entry_is_rebuilt_with_a_warning(numba_cache) -> None:
    root = _populate(numba_cache, 2)
    pycache = _entry(numba_cache, root, 2) / "__pycache__"
    files = [p for p in pycache.iterdir() if p.suffix in (".nbi", ".nbc")]
    assert files
    victim = max(files, key=lambda p: p.stat().st_size)
    victim.write_bytes(victim.read_bytes()[: victim.stat().st_size // 2])
    with pytest.warns(numba_cache.CacheWarning, match="checksum"):
        assert numba_cache.load_source(_kernel_source(2)).kernel(5) == 13
    numba_cache.forget_loaded()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert numba_cache.load_source(_kernel_source(2)).kernel(6) == 16


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o702])
def test_writable_directory_is_refused(numba_cache, mode: int) -> None:
    root = _populate(numba_cache, 3)
    os.chmod(root, mode)
    try:
        with pytest.warns(numba_cache.CacheWarning, match="writable by group or others"):
            mod = numba_cache.load_source(_kernel_source(3))
        assert mod.kernel(5) == 12
        assert not str(getattr(mod, "__file__", "")).startswith(str(root))
    finally:
        os.chmod(root, 0o700)


def test_entry_of_another_user_is_refused(numba_cache, monkeypatch) -> None:
    _populate(numba_cache, 4)
    # Pretend to be someone else: every existing file now belongs to another uid.
    real = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: real + 1)
    with pytest.warns(numba_cache.CacheWarning, match="owned by uid"):
        assert numba_cache.load_source(_kernel_source(4)).kernel(5) == 11


def test_another_process_writing_an_entry_is_left_alone(numba_cache) -> None:
    """Numba writes ``<file>.tmp.<uuid>`` and renames it into place. Such a file
    of another process, half written, is neither vouched for by a manifest nor
    taken as corruption (deleting it would fail that process's rename), and a
    file removed while a manifest is being recorded is left out of it."""
    root = _populate(numba_cache, 5)
    pycache = _entry(numba_cache, root, 5) / "__pycache__"
    index = next(pycache.glob("*.nbi"))
    stem = index.name.split(".")[0]
    in_flight = pycache / f"{index.name[:-4]}.1.nbc.tmp.0123456789abcdef"
    in_flight.write_bytes(b"half of a")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert numba_cache.load_source(_kernel_source(5)).kernel(5) == 10
    assert in_flight.exists()
    numba_cache.record(root, stem)
    manifest = json.loads((pycache / f"{stem}.manifest.json").read_text())
    assert in_flight.name not in manifest["files"] and index.name in manifest["files"]

    real_digest = numba_cache._digest

    def vanishing(path: Path) -> str:
        if path == index:
            raise FileNotFoundError(path)
        return real_digest(path)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(numba_cache, "_digest", vanishing)
        numba_cache.record(root, stem)
    manifest = json.loads((pycache / f"{stem}.manifest.json").read_text())
    assert index.name not in manifest["files"] and manifest["files"]


def test_a_module_importing_another_modules_kernel_leaves_its_entry_alone(numba_cache) -> None:
    """A whole-graph function's module imports the kernels of other modules:
    a signature one of them compiles through it is recorded in the kernel's
    own entry, which a fresh process then loads without a warning."""
    source = _kernel_source(7)
    key = numba_cache.source_hash(source)
    numba_cache.load_source(source)
    graph = numba_cache.load_source(
        "import numba\n"
        "from lazygraph.backends.numba.cache import loaded_module\n"
        f'k = loaded_module("{key}").kernel\n'
        "@numba.njit(cache=True)\n"
        "def graph(x):\n    return k(x) + 1\n"
    )
    assert graph.graph(5) == 9
    assert graph.k(2.5) == 0.5  # a second signature of the kernel, called through the module
    numba_cache.forget_loaded()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kernel = numba_cache.load_source(source).kernel
        assert kernel(2.5) == 0.5 and kernel(5) == 8
    assert sum(kernel._cache_hits.values()) == 2
    assert sum(kernel._cache_misses.values()) == 0
