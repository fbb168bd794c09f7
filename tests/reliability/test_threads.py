"""Eight threads computing at once, sharing the compile cache.

Each thread builds graphs that are identical across threads (one structure,
compiled once for all of them) and graphs of its own (a different constant and
shape per thread), through ``lazygraph.numpy``'s ``.compute()``, through
``lazygraph.jit`` and through ``lazygraph.function``. Every result must equal
numpy's; every join has a timeout, so a deadlock fails instead of hanging; and
the number of compiles must equal that of the same work done by one thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.compile.cache import clear_cache, stats
from lazygraph.configuration import config

N_THREADS = 8
ROUNDS = 6
JOIN_TIMEOUT = 120.0


def _check(got: np.ndarray, want: np.ndarray) -> None:
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
    assert got.dtype == want.dtype and got.shape == want.shape


def _shared(x: np.ndarray) -> None:
    """The same structure in every thread: one compile in all."""
    got = (lnp.exp(lnp.asarray(x)) * 2.0 + lnp.sum(lnp.asarray(x))).compute()
    _check(got, np.exp(x) * 2.0 + np.sum(x))


def _own(x: np.ndarray, k: int) -> None:
    """A structure of this thread's own: constant ``k`` and length ``k + 2``."""
    v = x[: k + 2]
    got = (lnp.tanh(lnp.asarray(v)) - float(k)).compute()
    _check(got, np.tanh(v) - float(k))


def _jit_body(a: lnp.Array, b: lnp.Array) -> lnp.Array:
    return lnp.maximum(a, b) * lnp.cos(a)


_jitted = lazygraph.jit(_jit_body)


def _work(k: int) -> None:
    rng = np.random.default_rng(k)
    for _ in range(ROUNDS):
        x = rng.standard_normal(12)
        y = rng.standard_normal(12)
        _shared(x)
        _own(x, k)
        _check(np.asarray(_jitted(x, y)), np.maximum(x, y) * np.cos(x))


def _run_threads(target: Callable[[int], None]) -> None:
    errors: list[BaseException] = []

    def body(k: int) -> None:
        try:
            target(k)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=body, args=(k,), daemon=True) for k in range(N_THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(JOIN_TIMEOUT)
    stuck = [t.name for t in threads if t.is_alive()]
    assert not stuck, f"threads deadlocked or too slow: {stuck}"
    if errors:
        raise errors[0]


def test_threads_share_the_cache_and_compile_each_structure_once() -> None:
    # On the session's backend (LAZYGRAPH_BACKEND): CI runs this file once per backend.
    with config.change(compile_cache_size=max(config.compile_cache_size, 64)):
        # The compiles one thread needs for all the work, done serially.
        clear_cache()
        _jitted_reset()
        for k in range(N_THREADS):
            _work(k)
        serial = stats().compiles
        assert serial >= N_THREADS + 1  # one per thread's own graph, plus shared ones
        # The same work in 8 threads at once, from an empty cache.
        clear_cache()
        _jitted_reset()
        _run_threads(_work)
        assert stats().compiles == serial


def _jitted_reset() -> None:
    # jit keeps its own per-signature table in front of the compile cache: a
    # new jitted function starts empty.
    global _jitted
    _jitted = lazygraph.jit(_jit_body)


def test_threads_with_lazygraph_function() -> None:
    """Each thread compiles and calls its own ``lazygraph.function`` of one
    graph while the others do the same."""
    x = lt.dvector("x")
    y = lt.dvector("y")

    def body(k: int) -> None:
        f = lazygraph.function([x, y], lt.exp(x) * y + lt.sum(y))
        rng = np.random.default_rng(100 + k)
        for _ in range(ROUNDS):
            a, b = rng.standard_normal(7), rng.standard_normal(7)
            _check(np.asarray(f(a, b)), np.exp(a) * b + np.sum(b))

    _run_threads(body)


def test_one_function_called_from_many_threads() -> None:
    """One compiled function (storage reused between calls) shared by 8
    threads calling it at once, through the compile cache."""
    from lazygraph.compile.cache import cached_function

    x = lt.dmatrix("x")
    f = cached_function([x], [lt.sum(lt.exp(x), axis=0) / 3.0])

    def body(k: int) -> None:
        rng = np.random.default_rng(200 + k)
        for _ in range(4 * ROUNDS):
            a = rng.standard_normal((3 + k, 4))
            _check(f(a)[0], np.sum(np.exp(a), axis=0) / 3.0)

    _run_threads(body)
