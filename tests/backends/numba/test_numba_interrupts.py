"""Ctrl-C inside Numba's compiler is held until the compile ends
(``lazygraph.backends.numba.interrupts``): the ``KeyboardInterrupt`` still
reaches the caller, the kernel is compiled, and Numba keeps working."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator

import numpy as np
import pytest

pytest.importorskip("numba")

import numba
from numba.core import event
from numba.core.compiler_lock import global_compiler_lock

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.numba import cache as disk
from lazygraph.backends.numba import interrupts, linker  # noqa: F401 - installs the hook
from lazygraph.compile.mode import Mode

pytestmark = pytest.mark.backend("numba")


class _SignalDuringCompile(event.Listener):
    """Sends ``signum`` to this process once, in the middle of the next compile
    on the main thread (on any thread with ``any_thread``)."""

    def __init__(self, signum: int, any_thread: bool = False) -> None:
        self.signum, self.sent, self.any_thread = signum, False, any_thread

    def on_start(self, evt: event.Event) -> None:
        on_main = threading.current_thread() is threading.main_thread()
        if not self.sent and (on_main or self.any_thread):
            self.sent = True
            signal.raise_signal(self.signum)

    def on_end(self, evt: event.Event) -> None:
        pass


class _Handler:
    """A signal handler noting whether Numba's compiler lock was held when it ran."""

    def __init__(self, raises: bool) -> None:
        self.raises = raises
        self.lock_held: list[bool] = []

    def __call__(self, signum: int, frame: object) -> None:
        self.lock_held.append(global_compiler_lock.is_locked())
        if self.raises:
            raise KeyboardInterrupt


@pytest.fixture
def sigint() -> Iterator[_Handler]:
    handler = _Handler(raises=True)
    old = signal.signal(signal.SIGINT, handler)
    try:
        yield handler
    finally:
        signal.signal(signal.SIGINT, old)


def test_ctrl_c_in_a_compile_arrives_after_it(sigint: _Handler) -> None:
    @numba.njit(cache=False)
    def plus_one(x: np.ndarray) -> np.ndarray:
        return x + 1

    listener = _SignalDuringCompile(signal.SIGINT)
    with event.install_listener("numba:compile", listener), pytest.raises(KeyboardInterrupt):
        plus_one(np.zeros(3))
    assert listener.sent
    assert sigint.lock_held == [False]  # it ran once, after Numba let go
    assert len(plus_one.overloads) == 1  # the compile finished
    np.testing.assert_array_equal(plus_one(np.zeros(3)), np.ones(3))
    assert signal.getsignal(signal.SIGINT) is sigint


def test_ctrl_c_in_a_kernel_compile_of_a_graph(sigint: _Handler) -> None:
    """Through lazygraph, as a fresh process meets it: the kernel compiles on a
    thread of its own (lazygraph.backends.numba.compiling), so Ctrl-C reaches
    the caller at once, without Numba's lock held; the compile finishes on its
    thread, and the next call computes without compiling again."""
    disk.forget_loaded()
    x = lt.dvector("x")
    f = lazygraph.function([x], lt.tanh(x) * 7.0 - x, mode=Mode(backend="numba"))
    data = np.linspace(-2.0, 2.0, 5)
    listener = _SignalDuringCompile(signal.SIGINT, any_thread=True)
    with event.install_listener("numba:compile", listener), pytest.raises(KeyboardInterrupt):
        f(data)
    assert listener.sent and sigint.lock_held == [False]
    for thread in threading.enumerate():
        if thread.name == "lazygraph-numba-compile-now":
            thread.join()
    with event.install_recorder("numba:compile") as recorder:
        np.testing.assert_allclose(f(data), np.tanh(data) * 7.0 - data, rtol=1e-13)
    assert recorder.buffer == []  # the interrupted call's compile had finished


def test_a_users_handler_is_held_and_put_back() -> None:
    handler = _Handler(raises=False)
    old = signal.signal(signal.SIGUSR1, handler)
    try:

        @numba.njit(cache=False)
        def twice(x: np.ndarray) -> np.ndarray:
            return x * 2

        with event.install_listener("numba:compile", _SignalDuringCompile(signal.SIGUSR1)):
            got = twice(np.ones(2))
        assert handler.lock_held == [False]  # delivered once, after the compile
        np.testing.assert_array_equal(got, np.full(2, 2.0))
        assert signal.getsignal(signal.SIGUSR1) is handler
    finally:
        signal.signal(signal.SIGUSR1, old)


def test_compiles_on_other_threads_leave_handlers_alone() -> None:
    before = signal.getsignal(signal.SIGINT)
    seen: list[object] = []

    def compile_here() -> None:
        fn = numba.njit(cache=False)(lambda x: x - 1)
        fn(np.ones(2))
        seen.append(signal.getsignal(signal.SIGINT))

    worker = threading.Thread(target=compile_here)
    worker.start()
    worker.join()
    assert seen == [before]
    assert signal.getsignal(signal.SIGINT) is before
