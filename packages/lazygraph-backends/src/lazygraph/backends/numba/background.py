"""Compiling kernels on a background thread while the first calls run numpy.

Numba takes 0.2 to 1 s to compile a kernel, so a graph of 15 kernels (an MLP
training step with its gradient) would keep the user waiting 6 s for its first
result. With ``config.numba_background_compile`` (the default), the linker does
what tiered JITs do: a node whose kernel is not compiled yet runs its Op's numpy
``perform`` (the python backend's reference code), and once the node has run
long enough for its kernel to pay for its compile (:func:`pays`: the ski-rental
rule on time, never before its :data:`COMPILE_AFTER_CALLS`-th call) the kernel
is compiled here, on one worker thread, and used from the first call after it
is ready. A graph called once never compiles anything, nor does code that
spends less time in a node than its compile would cost; a training loop gets
its kernels once their nodes have run for a second or so, every step before
them running at numpy's speed.

Kernels whose machine code is in the disk cache, or already compiled in this
process, are used at once: only new code is deferred. ``numba_background_compile
= False`` (``LAZYGRAPH_NUMBA_BACKGROUND_COMPILE=0``) compiles every kernel at its
node's first call, on the calling thread, as ``numba.njit`` does.

:func:`wait` blocks until the queue is empty (benchmarks call it before timing
steady-state calls). At interpreter exit the queue is dropped and the compile in
progress, if any, is allowed to finish, so the thread is never stopped inside
LLVM. A forked child starts with an empty queue and requeues what it needs.

>>> import lazygraph.backends.numba.background as background
>>> slot = background.Slot(lambda: 6 * 7)
>>> slot.get() is None or slot.get() == 42  # None until the worker has built it
True
>>> background.wait()
True
>>> slot.get()
42
"""

from __future__ import annotations

import atexit
import collections
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from lazygraph.configuration import config

__all__ = [
    "COMPILE_AFTER_CALLS",
    "COMPILE_SECONDS",
    "EXPECTED_SAVING",
    "FIRST_COMPILE_GUESS",
    "Slot",
    "compile_seconds",
    "enabled",
    "pays",
    "pending",
    "submit",
    "wait",
]

#: a node runs ``perform`` at least this many times before its kernel is
#: queued: a graph called once (a one-off ``compute()``) compiles nothing
COMPILE_AFTER_CALLS = 2
#: The cost model is the ski-rental rule on time. A kernel costs a compile (0.2
#: to 1 s, on a core and a GIL the program shares) and saves part of its node's
#: ``perform`` time on every later call; so a kernel is queued once the perform
#: time it could have saved, :data:`EXPECTED_SAVING` of the time its node's
#: ``perform`` has taken so far (all nodes with the same kernel together), is at
#: least what a compile costs (:func:`compile_seconds`). Renting until the rent
#: paid equals the price never costs more than twice the better choice made
#: with hindsight. (Counting calls or elements instead compiled ~300x too
#: early: a node on 1,000 elements takes ~5 us in numpy, on a million ~2 ms.)
#: The fraction of a node's perform time its kernel saves: most of it for small
#: arrays (numpy's per-call overhead, and later the graph function's), less for
#: large ones (the fused loop's saved memory traffic).
EXPECTED_SAVING = 0.5
#: what a compile is taken to cost, in seconds, until this process has timed
#: some (:func:`compile_seconds`)
FIRST_COMPILE_GUESS = 0.4
#: a fixed price of a compile, in seconds, instead of the measured one (tests)
COMPILE_SECONDS: float | None = None
#: seconds the worker's last builds took
_build_seconds: collections.deque[float] = collections.deque(maxlen=32)


def compile_seconds() -> float:
    """What a compile costs here: the mean of the worker's last timed builds
    (:data:`FIRST_COMPILE_GUESS` before the first; :data:`COMPILE_SECONDS` when
    set)."""
    if COMPILE_SECONDS is not None:
        return COMPILE_SECONDS
    times = _build_seconds
    return sum(times) / len(times) if times else FIRST_COMPILE_GUESS


def pays(calls: int, perform_seconds: float) -> bool:
    """Whether a kernel whose node has run ``perform`` ``calls`` times, taking
    ``perform_seconds`` in all, would now repay its compile.

    >>> pays(1, 100.0)  # a graph called once compiles nothing
    False
    >>> pays(5000, 0.001)  # 0.2 us a call: never worth a compile
    False
    >>> pays(10, 60.0)
    True
    """
    return calls >= COMPILE_AFTER_CALLS and perform_seconds * EXPECTED_SAVING >= compile_seconds()


_cond = threading.Condition()
_jobs: collections.deque[Callable[[], None]] = collections.deque()
_active = 0  # jobs queued or running
_worker: threading.Thread | None = None
_stopping = False
#: bumped in a forked child: jobs queued in the parent never run there
generation = 0


def enabled() -> bool:
    """Whether new kernels compile on the worker thread (``config.numba_background_compile``)."""
    return bool(config.numba_background_compile)


def submit(job: Callable[[], None]) -> None:
    """Run ``job`` on the worker thread (started on first use). ``job`` handles
    its own errors; one that escapes is dropped."""
    global _active, _worker
    with _cond:
        if _stopping:
            return
        _jobs.append(job)
        _active += 1
        if _worker is None or not _worker.is_alive():
            _worker = threading.Thread(target=_work, name="lazygraph-numba-compile", daemon=True)
            _worker.start()
        _cond.notify_all()


def pending() -> int:
    """Jobs queued or running."""
    return _active


def wait(timeout: float | None = None) -> bool:
    """Block until every queued compile has finished (or ``timeout`` seconds
    passed); whether the queue is empty."""
    with _cond:
        return _cond.wait_for(lambda: _active == 0, timeout)


def _work() -> None:
    global _active
    while True:
        with _cond:
            _cond.wait_for(lambda: bool(_jobs) or _stopping)
            if _stopping:
                return
            job = _jobs.popleft()
        try:
            job()
        except BaseException:
            pass  # a job records its own failure; nothing may stop the worker
        finally:
            with _cond:
                _active -= 1
                _cond.notify_all()


def _stop_at_exit() -> None:
    """Drop queued jobs and let the running one finish: a daemon thread stopped
    by interpreter shutdown inside LLVM's C++ code can abort the process."""
    global _stopping, _active
    with _cond:
        _stopping = True
        _active -= len(_jobs)
        _jobs.clear()
        _cond.notify_all()
        worker = _worker
    if worker is not None and worker is not threading.current_thread():
        worker.join()


def _after_fork_in_child() -> None:
    global _worker, _active, generation, _cond
    _cond = threading.Condition()  # the parent's may have been held by its worker
    _jobs.clear()
    _active = 0
    _worker = None
    generation += 1


atexit.register(_stop_at_exit)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


_NEW, _QUEUED, _DONE, _FAILED = range(4)


class Slot:
    """A value built once by ``build`` on the worker thread. :meth:`get` returns
    None until it is ready (queuing the build on its first call), then the value;
    a build that raised leaves :attr:`error` set and ``get()`` None for good.
    With background compilation off, :meth:`get` builds on the calling thread."""

    __slots__ = ("_build", "_generation", "_state", "error", "value")

    def __init__(self, build: Callable[[], Any]) -> None:
        self._build = build
        self._state = _NEW
        self._generation = generation
        self.value: Any = None
        self.error: BaseException | None = None

    def get(self) -> Any:
        if self._state == _DONE:
            return self.value
        if self._state == _FAILED:
            return None
        if not enabled() or threading.current_thread() is _worker:
            self._run()  # on the worker itself (a job needing another slot): now
            return self.value
        if self._state == _NEW or self._generation != generation:
            self._state = _QUEUED
            self._generation = generation
            submit(self._run)
        return None

    def _run(self) -> None:
        if self._state in (_DONE, _FAILED):
            return  # built already (queued, then needed by another job)
        start = time.perf_counter()
        try:
            value = self._build()
        except Exception as exc:
            self.error = exc
            self._state = _FAILED
            return
        except BaseException:
            self._state = _NEW  # interrupted: build again on a later call
            raise
        if threading.current_thread() is _worker:
            _build_seconds.append(time.perf_counter() - start)
        self.value = value
        self._state = _DONE
