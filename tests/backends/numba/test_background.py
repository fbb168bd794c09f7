"""Background compilation (``config.numba_background_compile``): nodes run their
numpy ``perform`` until their kernels are compiled on the worker thread; no
kernel compiles on the calling thread; every call equals the python backend's
result, before, during and after the switch."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import warnings

import numpy as np
import pytest

pytest.importorskip("numba")

from numba.core import event
from numba.core.errors import TypingError
from tests.backends.numba.test_numba_tiers import _check, _values

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.numba import background, graph_function, linker
from lazygraph.backends.numba import cache as disk
from lazygraph.compile.mode import Mode
from lazygraph.configuration import config

pytestmark = pytest.mark.backend("numba")

NUMBA = Mode(backend="numba")
PYTHON = Mode(backend="python")


class _CompileLog(event.Listener):
    """Which threads compiled which Numba functions."""

    def __init__(self) -> None:
        self.threads: list[str] = []

    def on_start(self, ev: event.Event) -> None:
        pass

    def on_end(self, ev: event.Event) -> None:
        self.threads.append(threading.current_thread().name)


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """Background compilation on, an empty disk cache, no kernel loaded, and a
    cost model that queues a kernel at its node's second call (compiles free;
    the tests of the cost model itself use :func:`costed`)."""
    monkeypatch.setattr(background, "COMPILE_SECONDS", 0.0)
    monkeypatch.setattr(linker, "_costs", {})
    background.wait()
    log = _CompileLog()
    event.register("numba:compile", log)
    with config.change(cache_dir=str(tmp_path), numba_background_compile=True):
        disk.forget_loaded()
        try:
            yield log
        finally:
            background.wait()
            event.unregister("numba:compile", log)
            disk.forget_loaded()


def _graph(scale):
    x = lt.tensor("float64", (None, None))
    y = lt.tensor("float64", (None,))
    e = lt.exp(x * scale - lt.max(x, axis=1, keepdims=True)) * y
    return [x, y], [e / lt.sum(e, axis=1, keepdims=True), lt.sum(lt.tanh(x), axis=1)]


def _loop(f):
    """The kernel-by-kernel runner behind a compiled function."""
    fn = f.fn
    return fn._loop if isinstance(fn, graph_function.Tiered) else fn


def test_calls_run_perform_until_the_worker_has_compiled(fresh):
    inputs, outputs = _graph(1.25)
    f = lazygraph.function(inputs, outputs, mode=NUMBA)
    want = lazygraph.function(inputs, outputs, mode=PYTHON)
    rng = np.random.default_rng(0)
    main = threading.current_thread().name

    vals = _values(rng)
    _check(f(*vals), want(*vals))
    assert background.pending() == 0, "a graph called once queues nothing"
    assert fresh.threads == []

    for rows in (1, 0, 9):  # the second call queues the kernels; sizes never matter
        vals = _values(rng, rows=max(rows, 1))
        _check(f(*vals), want(*vals))
    assert background.wait(120)
    assert fresh.threads and main not in fresh.threads

    compiled = len(fresh.threads)
    for rows in (3, 1):
        vals = _values(rng, rows=rows)
        _check(f(*vals), want(*vals))
    assert _loop(f).checking == [False], "every kernel is in use"
    assert len(fresh.threads) == compiled, "nothing compiles once the kernels are ready"
    assert main not in fresh.threads


@pytest.fixture
def costed(fresh, monkeypatch):
    """``fresh`` with a compile priced at :data:`PRICE` seconds (a fixed price:
    the measured one depends on the machine)."""
    monkeypatch.setattr(background, "COMPILE_SECONDS", PRICE)
    return fresh


PRICE = 0.4


def test_small_arrays_called_a_few_times_never_compile(costed):
    # a script, a notebook cell, a test suite: every call is numpy's perform
    inputs, outputs = _graph(1.1)
    f = lazygraph.function(inputs, outputs, mode=NUMBA)
    want = lazygraph.function(inputs, outputs, mode=PYTHON)
    rng = np.random.default_rng(5)
    for _ in range(50):
        vals = _values(rng)
        _check(f(*vals), want(*vals))
    assert background.pending() == 0
    assert costed.threads == [], "nothing compiled"
    spent = sum(seconds for _, seconds in linker._costs.values())
    assert 0 < spent * background.EXPECTED_SAVING < PRICE


@pytest.mark.parametrize("elements", [3, 1_000_000])
def test_a_kernel_compiles_once_its_nodes_perform_time_repays_it(costed, monkeypatch, elements):
    # the ski-rental rule on time: many calls on small arrays, or a few on
    # large ones, until what the kernel could have saved reaches the price
    price = 0.01
    monkeypatch.setattr(background, "COMPILE_SECONDS", price)
    x = lt.tensor("float64", (None,))
    f = lazygraph.function([x], lt.exp(x) * 2.0 + 1.0, mode=NUMBA)
    values = np.linspace(0.0, 1.0, elements)
    want = np.exp(values) * 2.0 + 1.0

    def charged():  # perform seconds charged to the kernel's account so far
        return sum(seconds for _, seconds in linker._costs.values())

    for calls in range(1, 100_000):  # noqa: B007 (read after the loop)
        before = charged()
        np.testing.assert_allclose(f(values), want, rtol=1e-12)
        if background.pending() or costed.threads:
            break
        assert before * background.EXPECTED_SAVING < price, "not queued, though it repaid"
    assert calls > 1, "a graph called once compiles nothing"
    assert before * background.EXPECTED_SAVING >= price, "queued before it repaid"
    assert background.wait(120)
    assert costed.threads
    np.testing.assert_allclose(f(values), want, rtol=1e-12)


def test_many_graphs_sharing_a_kernel_repay_it_together(costed, monkeypatch):
    # graphs each called a few times (new shapes, new constants around the same
    # node) charge one account: the kernel they share compiles when their
    # perform time together repays it
    monkeypatch.setattr(background, "COMPILE_SECONDS", 0.002)
    functions = set()
    for k in range(200):
        values = np.linspace(0.0, 1.0, 100_000 + k)
        x = lt.tensor("float64", values.shape)  # a new function each time
        f = lazygraph.function([x], lt.exp(x), mode=NUMBA)
        functions.add(id(f.fn))
        np.testing.assert_allclose(f(values), np.exp(values), rtol=1e-12)
        if background.pending() or costed.threads:
            break
    assert len(functions) > 1, "the graphs shared the account"
    assert len([c for c in linker._costs.values() if c[0]]) == 1, "one kernel"
    assert background.wait(120)
    assert costed.threads, "the shared kernel compiled"


def test_a_warm_disk_cache_is_used_at_the_first_call(fresh):
    inputs, outputs = _graph(1.5)
    rng = np.random.default_rng(1)
    vals = _values(rng)
    with config.change(numba_background_compile=False):
        lazygraph.function(inputs, outputs, mode=NUMBA)(*vals)  # fills the disk cache
    disk.forget_loaded()  # as a new process would start
    fresh.threads.clear()

    f = lazygraph.function(inputs, outputs, mode=NUMBA)
    want = lazygraph.function(inputs, outputs, mode=PYTHON)
    _check(f(*vals), want(*vals))
    assert background.pending() == 0
    assert fresh.threads == [], "cached code loads; nothing compiles"


def test_the_graph_function_is_built_in_the_background(fresh, monkeypatch):
    monkeypatch.setattr(graph_function, "PROMOTE_GAIN", 0.0)
    inputs, outputs = _graph(1.75)
    rng = np.random.default_rng(2)
    with config.change(numba_graph_after=0):
        f = lazygraph.function(inputs, outputs, mode=NUMBA)
        want = lazygraph.function(inputs, outputs, mode=PYTHON)
        before = linker.compile_stats.graph_functions
        # perform; perform and queue the kernels; kernels; queue the graph function
        for _ in range(4):
            vals = _values(rng)
            _check(f(*vals), want(*vals))
            assert background.wait(120)
        assert linker.compile_stats.graph_functions == before + 1
        assert f.fn._run is f.fn._loop  # until the next call adopts it
        vals = _values(rng)
        _check(f(*vals), want(*vals))
        assert f.fn._run is not f.fn._loop
    assert threading.current_thread().name not in fresh.threads


def test_multithreaded_kernels_are_built_in_the_background(fresh):
    x = lt.tensor("float64", (None,))
    f = lazygraph.function([x], [lt.sin(x) * 3.0 + x], mode=NUMBA)
    want = lazygraph.function([x], [lt.sin(x) * 3.0 + x], mode=PYTHON)
    big = np.linspace(-50, 50, linker.PARALLEL_MIN_SIZE + 3)
    before = linker.compile_stats.parallel_kernels
    with config.change(num_threads=2):
        for _ in range(4):
            _check(f(big), want(big))
            assert background.wait(120)
    assert linker.compile_stats.parallel_kernels == before + 1
    assert threading.current_thread().name not in fresh.threads


def test_a_kernel_that_fails_to_compile_falls_back_with_a_warning(fresh, monkeypatch):
    def broken(self, sig):
        raise TypingError("no typing for this test")

    monkeypatch.setattr(linker.Kernel, "_compile", broken)
    inputs, outputs = _graph(2.0)
    f = lazygraph.function(inputs, outputs, mode=NUMBA)
    want = lazygraph.function(inputs, outputs, mode=PYTHON)
    rng = np.random.default_rng(3)
    linker._warned.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(4):
            vals = _values(rng)
            _check(f(*vals), want(*vals))
            background.wait(120)
    messages = [str(w.message) for w in caught if w.category is linker.NumbaFallbackWarning]
    assert any("TypingError" in m for m in messages), messages


def test_the_price_of_a_compile_is_the_workers_measured_mean(monkeypatch):
    import collections
    import time

    monkeypatch.setattr(background, "COMPILE_SECONDS", None)
    monkeypatch.setattr(background, "_build_seconds", collections.deque(maxlen=32))
    assert background.compile_seconds() == background.FIRST_COMPILE_GUESS  # none timed yet
    with config.change(numba_background_compile=True):
        slots = [background.Slot(lambda: time.sleep(0.05) or "built") for _ in range(2)]
        for slot in slots:
            slot.get()
        assert background.wait(60)
        assert [slot.get() for slot in slots] == ["built", "built"]
    assert len(background._build_seconds) == 2
    assert 0.05 <= background.compile_seconds() < background.FIRST_COMPILE_GUESS


def test_slots_build_once_and_record_errors():
    calls = []
    with config.change(numba_background_compile=True):
        ok = background.Slot(lambda: calls.append(1) or "built")
        bad = background.Slot(lambda: 1 / 0)
        assert ok.get() in (None, "built") and bad.get() is None
        assert background.wait(60)
        assert ok.get() == ok.get() == "built" and calls == [1]
        assert bad.get() is None and isinstance(bad.error, ZeroDivisionError)
    with config.change(numba_background_compile=False):
        now = background.Slot(lambda: "now")
        assert now.get() == "now"  # built on the calling thread


_EXIT_SCRIPT = """
import os, sys, numpy as np
import lazygraph, lazygraph.tensor as lt
from lazygraph.compile.mode import Mode
from lazygraph.backends.numba import background
background.COMPILE_SECONDS = 0.0  # queue at the second call, whatever the time
x = lt.tensor("float64", (None,))
f = lazygraph.function([x], [lt.cosh(x) * 0.37 - lt.arctan(x)], mode=Mode(backend="numba"))
want = np.cosh(np.arange(5.0)) * 0.37 - np.arctan(np.arange(5.0))
for _ in range(3):
    np.testing.assert_allclose(f(np.arange(5.0))[0], want, rtol=1e-12)
assert background.pending() > 0, "compiles are queued"
if sys.argv[1] == "fork":
    pid = os.fork()
    if pid == 0:  # the child: the parent's queue is gone; its calls still work
        for _ in range(3):
            np.testing.assert_allclose(f(np.arange(5.0))[0], want, rtol=1e-12)
        ok = background.wait(120)
        os._exit(0 if ok else 3)
    _, status = os.waitpid(pid, 0)
    sys.exit(os.waitstatus_to_exitcode(status))
print("exiting with compiles queued")
"""


@pytest.mark.parametrize("how", ["exit", "fork"])
def test_exit_and_fork_with_compiles_queued(tmp_path, how):
    if how == "fork" and not hasattr(__import__("os"), "fork"):
        pytest.skip("no fork here")
    env = {
        **__import__("os").environ,
        "LAZYGRAPH_NUMBA_BACKGROUND_COMPILE": "1",
        "LAZYGRAPH_CACHE_DIR": str(tmp_path),
    }
    script = textwrap.dedent(_EXIT_SCRIPT)
    done = subprocess.run(
        [sys.executable, "-c", script, how], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Fatal" not in done.stderr
