"""Compile time of a small kernel against the depth of the caller's Python stack.

CPython keeps a thread's frames in 16 KiB chunks it maps and unmaps as calls
cross a chunk's end; Numba's compiler is deep recursive Python, so its compile
time depends on where the stack stood when the compile began. lazygraph's
generated kernels compile on a thread of their own
(``lazygraph.backends.numba.compiling``); a plain ``numba.njit`` function
compiles on the caller's stack. This times both, for the same kernel text (a
new constant each time, so every call compiles), from callers 0 to 140 frames
deep, and prints the milliseconds per compile (median of ``--kernels``)::

    NUMBA_OPT=0 python benchmarks/numba_compile_depth.py
    python benchmarks/numba_compile_depth.py --kernels 5 --depths 0,90   # a smoke run

The load average is printed with the table: the numbers are only comparable on
a quiet machine.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

KERNEL = """
@njit(cache={cache}, error_model="numpy", nogil=True, no_cfunc_wrapper=True)
def kernel(x0, x1, o0):
    n = o0.shape[0]
    b0 = 0 if x0.shape[0] == 1 else 1
    b1 = 0 if x1.shape[0] == 1 else 1
    for i in range(n):
        o0[i] = np.float64(np.copysign(np.float64(x0[i * b0]), x1[i * b1]) + {constant})
"""
HEADER = "import numpy as np\nfrom numba import njit\n"
_constants = itertools.count(int(time.time() * 1000))


def plain_kernel() -> Any:
    """A new ``numba.njit`` kernel, compiled where it is first called."""
    namespace: dict[str, Any] = {"np": np, "njit": numba.njit}
    exec(KERNEL.format(cache=False, constant=f"{next(_constants)}.0"), namespace)
    return namespace["kernel"]


def lazygraph_kernel() -> Any:
    """The same kernel as a lazygraph generated module (disk cache included)."""
    from lazygraph.backends.numba import cache

    source = HEADER + KERNEL.format(cache=True, constant=f"{next(_constants)}.0")
    return cache.load_source(source).kernel


def _at_depth(depth: int, fn: Callable[[], float]) -> float:
    return fn() if depth == 0 else _at_depth(depth - 1, fn)


def time_compiles(make: Callable[[], Any], depth: int, count: int) -> float:
    """Median milliseconds of ``count`` first calls (compiles) from ``depth``
    frames down."""
    args = (np.ones(3), np.ones(3), np.empty(3))

    def one() -> float:
        kernel = make()
        start = time.perf_counter()
        kernel(*args)
        return (time.perf_counter() - start) * 1e3

    return statistics.median(_at_depth(depth, one) for _ in range(count))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", type=int, default=20, help="compiles per cell")
    parser.add_argument("--depths", default="0,30,60,80,90,100,110,140")
    args = parser.parse_args()
    os.environ.setdefault("LAZYGRAPH_CACHE_DIR", tempfile.mkdtemp(prefix="lg-depth-"))
    depths = [int(d) for d in args.depths.split(",")]
    for make in (plain_kernel, lazygraph_kernel):  # warm Numba's own overloads
        time_compiles(make, 0, 2)
    print(
        f"# compile time by caller stack depth, {datetime.date.today()}, "
        f"NUMBA_OPT={int(numba.config.OPT)}, load average {os.getloadavg()[0]:.2f}\n"
    )
    print("| depth | numba.njit (ms) | lazygraph kernel (ms) |")
    print("|---:|---:|---:|")
    for depth in depths:
        plain = time_compiles(plain_kernel, depth, args.kernels)
        ours = time_compiles(lazygraph_kernel, depth, args.kernels)
        print(f"| {depth} | {plain:.1f} | {ours:.1f} |")


if __name__ == "__main__":
    main()
