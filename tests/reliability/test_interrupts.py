"""KeyboardInterrupt during a compile or a kernel run leaves lazygraph usable.

Interrupts are injected two ways: deterministically, by making a rewrite, the
backend's compile or a kernel raise ``KeyboardInterrupt`` once; and at random
points, by a ``SIGALRM`` timer whose handler raises it while a loop compiles
and computes. After each, the same graph is computed again in the same thread
(a watchdog turns a hang into a failure with a traceback) and must give
numpy's result.
"""

from __future__ import annotations

import faulthandler
import io
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import lazygraph.numpy as lnp
from lazygraph.compile import backends
from lazygraph.compile.cache import clear_cache
from lazygraph.compile.profile import compile_progress
from lazygraph.configuration import config
from lazygraph.rewriting.merge import MergeOptimizer

TIMEOUT = 120.0


@pytest.fixture(autouse=True)
def _graphs() -> Any:
    """Every array a graph to compile (small known values would run at once)."""
    with config.change(eager_max_elements=0):
        yield


def _graph(data: np.ndarray) -> Any:
    x = lnp.asarray(data)
    return lnp.sum(lnp.exp(x) * 2.0 - x, axis=0) + lnp.max(x)


def _expected(data: np.ndarray) -> np.ndarray:
    return np.sum(np.exp(data) * 2.0 - data, axis=0) + np.max(data)


def _recompute_ok(data: np.ndarray) -> None:
    """The same graph computed again, in the interrupted thread (where a user
    presses Ctrl-C and goes on). A hang kills the run with a traceback instead
    of stalling it."""
    faulthandler.dump_traceback_later(TIMEOUT, exit=True)
    try:
        got = _graph(data).compute()
    finally:
        faulthandler.cancel_dump_traceback_later()
    np.testing.assert_allclose(got, _expected(data), rtol=1e-12)


class _Once:
    """A wrapper raising ``KeyboardInterrupt`` on its first call only."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn, self.fired = fn, False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not self.fired:
            self.fired = True
            raise KeyboardInterrupt
        return self.fn(*args, **kwargs)


def test_interrupt_in_a_rewrite(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_cache()
    data = np.random.default_rng(0).standard_normal((4, 3))
    once = _Once(MergeOptimizer.apply)
    monkeypatch.setattr(MergeOptimizer, "apply", lambda self, fg: once(self, fg))
    with pytest.raises(KeyboardInterrupt):
        _graph(data).compute()
    assert once.fired
    _recompute_ok(data)


def test_interrupt_in_the_backend_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_cache()
    data = np.random.default_rng(1).standard_normal((5, 2))
    backend = backends.get_backend(config.backend)
    once = _Once(backend.compile)
    monkeypatch.setattr(backend, "compile", once)
    with pytest.raises(KeyboardInterrupt):
        _graph(data).compute()
    _recompute_ok(data)


def test_interrupt_in_a_kernel_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled function raises on its first run (as a Ctrl-C arriving in a
    kernel does once it returns to Python); its storage and the cache are
    then reused by the next compute."""
    clear_cache()
    data = np.random.default_rng(2).standard_normal((3, 3))
    backend = backends.get_backend(config.backend)
    real_compile = backend.compile

    def compile_interrupting(fgraph: Any) -> Any:
        return _Once(real_compile(fgraph))

    monkeypatch.setattr(backend, "compile", compile_interrupting)
    with pytest.raises(KeyboardInterrupt):
        _graph(data).compute()
    _recompute_ok(data)
    _recompute_ok(data + 1.0)


def _interrupt_after(seconds: float) -> None:
    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs POSIX timers")
# A signal landing in a weakref callback is reported as "unraisable" by Python.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_interrupts_at_random_points() -> None:
    """Ctrl-C at 30 different moments of compiling and computing new graphs."""
    old = signal.getsignal(signal.SIGALRM)
    rng = np.random.default_rng(3)
    hit = 0
    try:
        for trial in range(30):
            clear_cache()
            data = rng.standard_normal((3 + trial % 4, 2))
            try:
                # inside the try: the timer can fire before setitimer returns
                _interrupt_after(float(rng.uniform(0.0005, 0.02)))
                deadline = time.monotonic() + 2.0
                while time.monotonic() < deadline:
                    # New constants each time: a new structure, so compiles too.
                    x = lnp.asarray(data)
                    (lnp.tanh(x) * float(rng.integers(1, 5))).compute()
                    _graph(data).compute()
            except KeyboardInterrupt:
                hit += 1
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            _recompute_ok(data)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    # An interrupt landing in a weakref callback is swallowed by Python.
    assert hit >= 20  # the interrupts landed inside lazygraph's work


def test_interrupt_between_claim_and_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C after the cache marked the structure "being compiled" but before
    the compile began: the claim must not outlive it (the next compute would
    wait for it forever)."""
    import lazygraph.compile.cache as cache_module

    clear_cache()
    data = np.random.default_rng(4).standard_normal((2, 2))

    class _Clock:
        def __init__(self) -> None:
            self.perf_counter = _Once(time.perf_counter)

    monkeypatch.setattr(cache_module, "time", _Clock())
    with pytest.raises(KeyboardInterrupt):
        _graph(data).compute()
    _recompute_ok(data)


# -- the compile progress watcher ------------------------------------------------


class _BlockingStream(io.StringIO):
    """A stream whose writes block until ``release`` is set (a full pipe)."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.entered = threading.Event()

    def write(self, text: str) -> int:
        self.entered.set()
        self.release.wait(TIMEOUT)
        return super().write(text)


def _watch_many(count: int, stream: io.StringIO, delay: float) -> None:
    for _ in range(count):
        with compile_progress(7, stream=stream, delay=delay) as stage:
            stage("rewriting")
            stage("compiling")


def test_blocked_progress_output_does_not_block_compiles() -> None:
    """The watcher thread stuck writing a progress line (a full stderr pipe)
    must not stop other threads from starting, staging and finishing compiles:
    the compiling side takes no lock the watcher holds."""
    stream = _BlockingStream()
    slow = threading.Thread(target=_watch_many, args=(1, stream, 0.0), daemon=True)
    faulthandler.dump_traceback_later(TIMEOUT, exit=True)
    try:
        slow.start()
        assert stream.entered.wait(TIMEOUT)  # the watcher is now blocked in write()
        _watch_many(200, io.StringIO(), 0.0)
        # and real compiles, whose progress goes to stderr
        data = np.random.default_rng(5).standard_normal((3, 2))
        clear_cache()
        np.testing.assert_allclose(_graph(data).compute(), _expected(data), rtol=1e-12)
        stream.release.set()
        slow.join(TIMEOUT)
        assert not slow.is_alive()
    finally:
        stream.release.set()
        faulthandler.cancel_dump_traceback_later()


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs POSIX timers")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_interrupts_in_progress_watch_leave_other_threads_running() -> None:
    """Ctrl-C at random points of one thread's compile_progress, 100 times,
    while a second thread compiles (see _progress_watch_under_interrupts). It
    runs in a fresh interpreter: SIGALRM is also pytest-timeout's signal, and
    the watcher thread must be this test's alone."""
    root = Path(__file__).resolve().parents[2]
    code = (
        "from tests.reliability import test_interrupts as t; t._progress_watch_under_interrupts()"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=2 * TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _progress_watch_under_interrupts() -> None:
    """Ctrl-C at random points of one thread's compile_progress (its add, stage
    and finish calls included), 100 times; a second thread compiling all along
    keeps going, and goes on after the last interrupt."""
    old = signal.getsignal(signal.SIGALRM)
    rng = np.random.default_rng(6)
    done = [0]
    stop = threading.Event()

    def worker() -> None:
        sink = io.StringIO()
        while not stop.is_set():
            _watch_many(1, sink, 0.0)
            done[0] += 1

    thread = threading.Thread(target=worker, daemon=True)
    thread.start()
    hit = 0
    faulthandler.dump_traceback_later(TIMEOUT, exit=True)
    try:
        for _ in range(100):
            try:
                # inside the try: a timer of 50 us can fire before setitimer returns
                _interrupt_after(float(rng.uniform(0.00005, 0.002)))
                while True:
                    _watch_many(1, io.StringIO(), float(rng.choice([0.0, 10.0])))
            except KeyboardInterrupt:
                hit += 1
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        before = done[0]
        _watch_many(50, io.StringIO(), 0.0)  # this thread still compiles too
        while done[0] < before + 50 and thread.is_alive():
            time.sleep(0.001)
        assert done[0] >= before + 50
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        stop.set()
        thread.join(TIMEOUT)
        faulthandler.cancel_dump_traceback_later()
    assert hit == 100
    assert not thread.is_alive()
