"""Generated functions compile on a shallow stack of their own and keep a slim
result (lazygraph.backends.numba.compiling): the same code wherever the call
came from, errors raised where the call was made, and callers compiled later
still able to call a slimmed kernel."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

import numba
from numba.core import errors, event

from lazygraph.backends.numba import cache as disk

pytestmark = pytest.mark.backend("numba")

HEADER = "import numpy as np\nfrom numba import njit\n\n"


def _module(body: str) -> Any:
    """A freshly generated module (in memory: no disk cache involved)."""
    return disk.load_source(HEADER + body, persist=False)


def _at_depth(depth: int, fn: Callable[[], Any]) -> Any:
    return fn() if depth == 0 else _at_depth(depth - 1, fn)


class _CompileThreads(event.Listener):
    """Records the thread each compile ran on."""

    def __init__(self) -> None:
        self.threads: list[str] = []

    def on_start(self, evt: event.Event) -> None:
        self.threads.append(threading.current_thread().name)

    def on_end(self, evt: event.Event) -> None:
        pass


@pytest.mark.parametrize("depth", [0, 90])
def test_a_kernel_compiles_on_a_thread_of_its_own(depth: int) -> None:
    kernel = _module(f"@njit\ndef kernel(x):\n    return x * {depth + 3}\n").kernel
    listener = _CompileThreads()
    with event.install_listener("numba:compile", listener):
        out = _at_depth(depth, lambda: kernel(np.arange(3.0)))
    np.testing.assert_array_equal(out, np.arange(3.0) * (depth + 3))
    # the kernel, and the Numba internals it needs compiled for the first time
    assert listener.threads and set(listener.threads) == {"lazygraph-numba-compile-now"}


def test_a_compiled_signature_keeps_no_typed_ir() -> None:
    kernel = _module("@njit\ndef kernel(x):\n    return x + 0.5\n").kernel
    assert kernel(1.0) == 1.5
    (cres,) = kernel.overloads.values()
    assert cres.type_annotation is None and cres.metadata is None
    assert cres.fndesc.typemap is None and cres.fndesc.calltypes is None
    assert "fadd" in kernel.inspect_llvm(cres.signature.args)
    assert kernel(2.0) == 2.5  # the slim result runs


def test_a_caller_compiled_later_calls_a_slimmed_kernel() -> None:
    """A graph function's module imports kernels already compiled (slimmed) and
    compiles new signatures of them while it is typed (a nested compile, on
    the caller's compile thread)."""
    module = _module("@njit\ndef kernel(x):\n    return x * 2\n")
    assert module.kernel(3.0) == 6.0  # float64, compiled and slimmed
    key = disk.source_hash(HEADER + "@njit\ndef kernel(x):\n    return x * 2\n")
    caller = _module(
        "from lazygraph.backends.numba.cache import loaded_module\n"
        f'kernel = loaded_module("{key}").kernel\n\n'
        "@njit\ndef caller(x, n):\n    return kernel(x) + kernel(n)\n"
    )
    listener = _CompileThreads()
    with event.install_listener("numba:compile", listener):
        assert caller.caller(1.5, 4) == 11.0  # kernel(int64) is new: nested compile
    assert listener.threads == ["lazygraph-numba-compile-now"] * 2
    assert len(module.kernel.overloads) == 2
    for fn in (module.kernel, caller.caller):
        assert all(c.type_annotation is None for c in fn.overloads.values())


def test_a_compile_error_reaches_the_caller() -> None:
    kernel = _module("@njit\ndef kernel(x):\n    return x.no_such_attribute\n").kernel
    with pytest.raises(errors.TypingError, match="no_such_attribute"):
        kernel(np.zeros(2))
    assert not kernel.overloads


def test_concurrent_first_calls_compile_once() -> None:
    kernel = _module("@njit\ndef kernel(x):\n    return x - 1\n").kernel
    results: list[Any] = []
    threads = [threading.Thread(target=lambda: results.append(kernel(5))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [4] * 4
    assert len(kernel.overloads) == 1
    assert sum(kernel._cache_misses.values()) == 1  # compiled once, not four times


def test_a_users_own_numba_functions_are_left_alone() -> None:
    @numba.njit
    def mine(x: float) -> float:
        return x + 1

    assert mine(1.0) == 2.0
    (cres,) = mine.overloads.values()
    assert cres.type_annotation is not None  # only generated modules are slimmed
