"""Memory stays bounded in long-running loops.

* many ``.compute()`` calls on new data of one shape keep the resident set
  flat after warm-up (a second window of 3,000 here;
  ``benchmarks/reliability/rss_loop.py`` runs 100,000);
* the in-memory compile cache is an LRU of ``config.compile_cache_size``
  functions;
* a graph is freed once no array refers to it (the compile cache keeps its own
  rewritten copy, never the user's graph nor its data).
"""

from __future__ import annotations

import gc
import os
import sys
import weakref

import numpy as np
import pytest

import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.compile.cache import cached_function, clear_cache, stats
from lazygraph.configuration import config

MB = 1 << 20


def rss_bytes() -> int:
    """The resident set size of this process, from ``/proc/self/statm``."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def _step(rng: np.random.Generator) -> None:
    x = lnp.asarray(rng.standard_normal(256))
    y = lnp.asarray(rng.standard_normal(256))
    out = (lnp.exp(-(x * x)) + lnp.sum(y) * x).compute()
    assert out.shape == (256,)


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc (Linux)")
def test_rss_flat_over_many_computes() -> None:
    rng = np.random.default_rng(0)
    # Warm-up: compiles, allocator pools, interned objects. Kernels compile
    # synchronously here, and a first window of 3,000 computes takes the one-time
    # costs that come later: the numba backend compiles a node's kernel once it
    # has run 1,000 times, and that JIT code memory (~11 MB on CI) is not a leak.
    # Only the second window is measured: a leak grows in every window.
    with config.change(numba_background_compile=False):
        for _ in range(300):
            _step(rng)
    for _ in range(3000):
        _step(rng)
    _drain_background_compiles()  # (queued by earlier tests of this process too)
    gc.collect()
    compiles, before = stats().compiles, rss_bytes()
    for _ in range(3000):
        _step(rng)
    gc.collect()
    grown = rss_bytes() - before
    assert stats().compiles == compiles  # the loop compiled no new graph
    # 3,000 leaked graphs of this size would be tens of MB.
    assert grown < 8 * MB, f"RSS grew by {grown / MB:.1f} MB over 3,000 computes"


def _drain_background_compiles() -> None:
    background = sys.modules.get("lazygraph.backends.numba.background")
    if background is not None:
        assert background.wait(timeout=300), "background compiles still running after 300 s"


def _structure(k: int) -> tuple[lt.TensorVariable, lt.TensorVariable]:
    x = lt.dvector("x")
    return x, x * float(k) + 1.0


def test_compile_cache_is_a_bounded_lru() -> None:
    clear_cache()
    with config.change(compile_cache_size=4):
        for k in range(10):
            x, y = _structure(k)
            np.testing.assert_allclose(
                cached_function([x], [y])(np.arange(3.0))[0], np.arange(3.0) * k + 1
            )
        s = stats()
        assert s.size == 4
        assert s.compiles == 10 and s.evictions == 6
        # The most recent four are hits; the oldest was evicted and compiles again.
        x, y = _structure(9)
        cached_function([x], [y])
        assert stats().compiles == 10
        x, y = _structure(0)
        np.testing.assert_allclose(cached_function([x], [y])(np.ones(2))[0], np.ones(2))
        assert stats().compiles == 11 and stats().size == 4
    with config.change(compile_cache_size=0):  # caching off: nothing is held
        clear_cache()
        x, y = _structure(1)
        cached_function([x], [y])
        assert stats().size == 0
    clear_cache()


def test_graphs_and_data_freed_with_their_arrays() -> None:
    data = np.random.default_rng(1).standard_normal(1000)
    x = lnp.asarray(data)
    y = lnp.tanh(x) * 3.0 + x
    np.testing.assert_allclose(y.compute(), np.tanh(data) * 3.0 + data)
    z = lnp.sum(y * y)
    float(z)
    refs = [weakref.ref(v) for v in (x._var, y._var, z._var)]
    owner = weakref.ref(z._var.owner) if z._var.owner is not None else None
    del x, y, z
    gc.collect()
    alive = [r() for r in refs if r() is not None]
    assert not alive, f"graph variables still referenced after their arrays died: {alive}"
    if owner is not None:
        assert owner() is None


def test_no_growth_of_internal_tables() -> None:
    """The tables that map graph variables to values do not grow per compute."""
    from lazygraph.numpy._array import _LIVE
    from lazygraph.numpy._convert import live_bound_inputs

    rng = np.random.default_rng(2)
    for _ in range(50):
        _step(rng)
    gc.collect()
    before = (len(_LIVE), live_bound_inputs())
    for _ in range(300):
        _step(rng)
    gc.collect()
    assert (len(_LIVE), live_bound_inputs()) == before
