"""lazygraph leaves the user's process-wide state alone.

Backends and scipy are imported on first use, in the middle of the user's
program; ``import jax`` draws numbers from numpy's global random generator, so
after the first ``compute()`` a seeded program used to get other numbers on jax
than on numba or python. Each test runs a fresh interpreter (so the imports
really happen at the first compute) and compares, before importing lazygraph
and after its first compute: numpy's and Python's random streams, warnings
filters, numpy print options and error handling, signal handlers and
thread-count environment variables.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CHILD = textwrap.dedent(
    """
    import json, os, random, signal, sys, warnings
    import numpy as np

    def snapshot():
        handlers = {}
        for s in signal.valid_signals():
            try:
                handlers[str(s)] = repr(signal.getsignal(s))
            except (OSError, ValueError):
                pass
        return {
            "warnings filters": [repr(f) for f in warnings.filters],
            "print options": {k: repr(v) for k, v in np.get_printoptions().items()},
            "float errors": np.geterr(),
            "signal handlers": handlers,
            "thread variables": {k: v for k, v in os.environ.items() if "THREADS" in k.upper()},
        }

    before = snapshot()
    np.random.seed(0)
    random.seed(0)

    import lazygraph.numpy as lnp

    x = lnp.asarray(np.arange(6.0).reshape(2, 3))
    result = lnp.sum(lnp.sin(x) @ x.T + lnp.exp(x[:, :2]))
    result.compute()

    drawn = np.random.rand(3).tolist(), random.random()
    np.random.seed(0)
    random.seed(0)
    expected = np.random.rand(3).tolist(), random.random()

    # the report's example: lazygraph.numpy.random draws from numpy's global stream
    np.random.seed(0)
    a = lnp.random.rand(2)
    (a * 2).compute()
    b = lnp.random.rand(2).compute().tolist()
    np.random.seed(0)
    np.random.rand(2)
    b_expected = np.random.rand(2).tolist()

    print(json.dumps({
        "modules": sorted(m for m in ("jax", "numba", "scipy") if m in sys.modules),
        "before": before,
        "after": snapshot(),
        "drawn": drawn,
        "expected": expected,
        "b": b,
        "b_expected": b_expected,
    }))
    """
)


def _run_child(backend: str, tmp_path: Path, script: str = CHILD) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LAZYGRAPH_")}
    env.update(
        LAZYGRAPH_BACKEND=backend,
        LAZYGRAPH_NUMBA_BACKGROUND_COMPILE="0",
        LAZYGRAPH_CACHE_DIR=str(tmp_path / "cache"),
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def _needs(library: str | None) -> None:
    # numba and jax are optional third-party libraries; lazygraph's own modules
    # are never skipped on
    if library is not None and importlib.util.find_spec(library) is None:
        pytest.skip(f"{library} is not installed")


@pytest.mark.parametrize(
    ("backend", "library"),
    [
        pytest.param("python", None, marks=pytest.mark.backend("python")),
        pytest.param("numba", "numba", marks=pytest.mark.backend("numba")),
        pytest.param("jax", "jax", marks=pytest.mark.backend("jax")),
    ],
)
def test_first_compute_leaves_global_state_alone(
    backend: str, library: str | None, tmp_path: Path
) -> None:
    _needs(library)
    report = _run_child(backend, tmp_path)
    if library is not None:
        # the point of the test: the backend's library was imported by the compute
        assert library in report["modules"]
    assert report["drawn"] == report["expected"], "the global random streams moved"
    assert report["b"] == report["b_expected"], "lazygraph.numpy.random's numbers changed"
    for what, value in report["before"].items():
        assert report["after"][what] == value, f"{what} changed by lazygraph's first compute"


NUMBA_THREADS_CHILD = textwrap.dedent(
    """
    import numba
    import numpy as np
    import lazygraph.numpy as lnp

    numba.set_num_threads(1)  # the user's choice for their own parallel code
    big = np.linspace(0.0, 1.0, 1 << 18)
    lnp.exp(lnp.asarray(big)).compute()  # large enough for lazygraph's threads
    print(numba.get_num_threads())
    """
)


@pytest.mark.backend("numba")
def test_numba_thread_count_is_restored(tmp_path: Path) -> None:
    _needs("numba")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LAZYGRAPH_")}
    env.update(
        LAZYGRAPH_BACKEND="numba",
        LAZYGRAPH_NUMBA_BACKGROUND_COMPILE="0",
        LAZYGRAPH_CACHE_DIR=str(tmp_path / "cache"),
        # two threads even on a one-core machine, so lazygraph runs multithreaded
        NUMBA_NUM_THREADS="2",
        LAZYGRAPH_NUM_THREADS="2",
    )
    result = subprocess.run(
        [sys.executable, "-c", NUMBA_THREADS_CHILD],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == "1", "numba's thread count for the user's thread changed"
