"""Compiling kernels on a background thread while the first calls run numpy.

Numba takes 0.2 to 1 s to compile a kernel, so a graph of 15 kernels (an MLP
training step with its gradient) would keep the user waiting 6 s for its first
result. With ``config.numba_background_compile`` (the default), the linker does
what tiered JITs do: a node whose kernel is not compiled yet runs its Op's numpy
``perform`` (the python backend's reference code), and once the node has run
long enough for its kernel to pay for its compile (:data:`COMPILE_AFTER_ELEMENTS`,
:data:`HOT_CALLS`, never before its :data:`COMPILE_AFTER_CALLS`-th call) the
kernel is compiled here, on one worker thread, and used from the first call
after it is ready. A graph called once never compiles anything, nor does code
on small arrays that runs a few times; a training loop gets its kernels a few
seconds in, with every step before them running at numpy's speed.

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
from collections.abc import Callable
from typing import Any

from lazygraph.configuration import config

__all__ = [
    "COMPILE_AFTER_CALLS",
    "COMPILE_AFTER_ELEMENTS",
    "HOT_CALLS",
    "Slot",
    "enabled",
    "pending",
    "submit",
    "wait",
]

#: a node runs ``perform`` at least this many times before its kernel is
#: queued: a graph called once (a one-off ``compute()``) compiles nothing
COMPILE_AFTER_CALLS = 2
#: The cost model: a kernel costs 0.2 to 1 s of compiling (on a core the
#: program may need) and saves a fraction of ``perform``'s time per call, so it
#: is queued only once the node has shown it will run long enough to repay that
#: (the ski-rental rule): when its ``perform`` calls have read this many input
#: elements in all (a few milliseconds of numpy's time; an array of a million
#: elements compiles at its second call) ...
COMPILE_AFTER_ELEMENTS = 1_000_000
#: ... or it has run this many times (a loop over small arrays, where kernels
#: and one graph function save numpy's per-call overhead). Tiny arrays in code
#: that runs a few times (scripts, notebooks, test suites) never compile.
HOT_CALLS = 1000

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
        try:
            value = self._build()
        except Exception as exc:
            self.error = exc
            self._state = _FAILED
            return
        except BaseException:
            self._state = _NEW  # interrupted: build again on a later call
            raise
        self.value = value
        self._state = _DONE
