"""Eight threads computing at once, sharing the compile cache.

Each thread builds graphs that are identical across threads (one structure,
compiled once for all of them) and graphs of its own (a different constant and
shape per thread), through ``lazygraph.numpy``'s ``.compute()``, through
``lazygraph.jit`` and through ``lazygraph.function``. Every result must equal
numpy's; every join has a timeout, so a deadlock fails instead of hanging; and
the number of compiles must equal that of the same work done by one thread.

One compiled function is also shared by 8 threads calling it 1000 times each
with inputs of their own (``lazygraph.function``, the compile cache and
``.compute()``), and every result must be exact: the values are small integers
(held as float64 too), so every backend computes them without rounding.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import lazygraph
import lazygraph.compile.profile as profile
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.compile.cache import clear_cache, stats
from lazygraph.compile.function import Function
from lazygraph.configuration import config
from lazygraph.graph.fg import FunctionGraph

N_THREADS = 8
ROUNDS = 6
CALLS = 1000
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
    # small arrays of known values would run at once (eager), without a compile
    with config.change(compile_cache_size=max(config.compile_cache_size, 64), eager_max_elements=0):
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


def test_one_cached_function_called_from_many_threads() -> None:
    """One function from the compile cache shared by 8 threads calling it at
    once (no lock: each call has its own storage)."""
    from lazygraph.compile.cache import cached_function

    x = lt.dmatrix("x")
    f = cached_function([x], [lt.sum(lt.exp(x), axis=0) / 3.0])

    def body(k: int) -> None:
        rng = np.random.default_rng(200 + k)
        for _ in range(4 * ROUNDS):
            a = rng.standard_normal((3 + k, 4))
            _check(f(a)[0], np.sum(np.exp(a), axis=0) / 3.0)

    _run_threads(body)


def _shared_function_inputs(k: int, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Call ``i`` of thread ``k``: inputs of their own, of one of five lengths."""
    rng = np.random.default_rng([k, i])
    n = 3 + (k + i) % 5
    a = rng.integers(-50, 50, n).astype(np.float64)
    b = rng.integers(-50, 50, n).astype(np.float64)
    return a, b, rng.integers(-1000, 1000, n)


def _shared_function_expected(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> list[np.ndarray]:
    return [a * b + np.sum(b), (a - 2.0 * b)[1:], np.maximum(a, b) * 3.0, a, c * 3 - c[::-1]]


def _exactly(got: list[np.ndarray], want: list[np.ndarray]) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape, (g, w)
        np.testing.assert_array_equal(g, w)


def test_one_shared_function_from_8_threads_1000_calls_each_is_exact() -> None:
    """Issue 16: one ``lazygraph.function`` called from 8 threads at once, with
    its first call made by all of them together, gave wrong values and
    ``TypeError``s on the python backend (one set of storage cells for every
    call). Outputs include a view of an intermediate, a graph input (copied)
    and an int64 result; every result is checked as it comes, and again after
    all threads are done (no later call may write into a result handed out)."""
    x, y = lt.dvector("x"), lt.dvector("y")
    i = lt.lvector("i")
    outputs = [x * y + lt.sum(y), (x - 2.0 * y)[1:], lt.maximum(x, y) * 3.0, x, i * 3 - i[::-1]]
    f = lazygraph.function([x, y, i], outputs)
    kept: dict[int, list[list[np.ndarray]]] = {}

    def body(k: int) -> None:
        kept[k] = []
        for n in range(CALLS):
            a, b, c = _shared_function_inputs(k, n)
            got = f(a, b, c)
            _exactly(got, _shared_function_expected(a, b, c))
            kept[k].append(got)

    _run_threads(body)
    for k in range(N_THREADS):
        for n, got in enumerate(kept[k]):
            _exactly(got, _shared_function_expected(*_shared_function_inputs(k, n)))


def test_one_shared_function_raises_each_calls_own_error_from_8_threads() -> None:
    """Runtime index checks in one function shared by 8 threads, each with its
    own array length: every valid call is exact and every bad index raises
    ``IndexError`` naming the length of that call's array. (On jax, traces for
    different shapes running at once mixed their checks:
    ``UnexpectedTracerError``; and the message came from the latest trace, so
    it could name another call's size.)"""
    x, i = lt.dvector("x"), lt.lvector("i")
    f = lazygraph.function([x, i], x[i] * 2.0)
    # one thread first: the length-6 trace came last, yet the error is the
    # length-5 call's
    f(np.arange(5.0), np.array([0]))
    f(np.arange(6.0), np.array([0]))
    with pytest.raises(IndexError, match="with size 5"):
        f(np.arange(5.0), np.array([5]))

    def body(k: int) -> None:
        for n in range(3 + k, 3 + k + 8 * 6, 8):  # lengths of this thread's own
            a = np.arange(float(n))
            good = np.array([0, n - 1, -n])
            np.testing.assert_array_equal(f(a, good), a[good] * 2.0)
            for bad in (n, -n - 1):
                try:
                    f(a, np.array([0, bad]))
                except IndexError as exc:
                    assert f"with size {n}" in str(exc), (n, str(exc))
                else:
                    raise AssertionError(f"index {bad} of a length-{n} array did not raise")

    _run_threads(body)


def test_compute_from_8_threads_shares_one_compiled_function_exactly() -> None:
    """``.compute()`` of Arrays of one structure from 8 threads at once: one
    compile serves them all, and each thread's every result is exact."""
    # small arrays of known values would run at once (eager), without a compile
    with config.change(compile_cache_size=max(config.compile_cache_size, 64), eager_max_elements=0):
        clear_cache()

        def body(k: int) -> None:
            for n in range(CALLS // 4):
                a, b, _ = _shared_function_inputs(k, n)
                a, b = a[:3], b[:3]  # one structure: one length
                got = (lnp.asarray(a) * lnp.asarray(b) - lnp.sum(lnp.asarray(b))).compute()
                want = a * b - np.sum(b)
                assert got.dtype == want.dtype
                np.testing.assert_array_equal(got, want)

        _run_threads(body)
        assert stats().compiles == 1


def test_first_call_compiles_once_while_other_threads_wait(monkeypatch: Any) -> None:
    """The first call of a compiled backend's function compiles (and reports
    progress); 8 threads making it at once used to each report and compile.
    Now one does, and the others wait for it, then run."""
    x = lt.dvector("x")
    fgraph = FunctionGraph([x], [x * 2.0])
    compiled = lazygraph.function([x], x * 2.0, mode="python").fn
    reports: list[str] = []
    real_progress = profile.compile_progress

    @contextlib.contextmanager
    def counting_progress(nodes: int) -> Iterator[Callable[[str], None]]:
        with real_progress(nodes) as stage:

            def counted(text: str) -> None:
                reports.append(text)
                stage(text)

            yield counted

    calls: list[None] = []

    def slow_first(*args: Any) -> Any:
        calls.append(None)  # (list.append is atomic)
        if len(calls) == 1:
            time.sleep(0.2)  # the compile: every other thread arrives meanwhile
        return compiled(*args)

    monkeypatch.setattr(profile, "compile_progress", counting_progress)
    # any backend but python compiles at the first call: this one takes 0.2 s
    f = Function(fgraph, slow_first, True, "compiled-test")
    barrier = threading.Barrier(N_THREADS)

    def body(k: int) -> None:
        barrier.wait(JOIN_TIMEOUT)
        v = np.arange(4.0) + k
        np.testing.assert_array_equal(f(v), v * 2.0)

    _run_threads(body)
    assert reports == ["compiling for compiled-test (first call)"]
    assert len(calls) == N_THREADS
