"""Dask backend benchmark (issue 22): plain ``dask.array`` against lazygraph on its
dask backend, on the same input chunks.

Workloads, on a ~200 MB float64 array (5000 x 5000, chunks of 625 rows: 8 chunks
of 25 MB):

- a 20-op elementwise chain (``sin(e) * 1.25 + 0.5`` and ``exp(-abs(e)) - 0.25``
  alternating), compute-bound. dask.array fuses the 20 layers into one task per
  chunk, but each op inside it is a numpy call writing a full temporary;
  lazygraph's rewrites fuse the chain into one node, one numba kernel per chunk;
- ``std(x, axis=0)``: dask's one-pass moment tree against lazygraph's (numpy's
  two passes: the mean, then the squared deviations).

On the current (threaded) scheduler the chain's 200 MB result is computed into
the client. On a ``distributed.LocalCluster(processes=True)`` of 1 and then 2
single-thread workers, the input is generated on the workers
(``da.random.random``) and the chain is summed there, so that neither the input
nor the result crosses between processes; the speed-up is the 1-worker time
over the 2-worker time.

Cells are medians of 5 timed runs after a warm-up call (which compiles), from
one run of this script; the load average (``os.getloadavg``) before and after
is printed with the table, since a busy machine changes the numbers. Not run by
CI::

    OPENBLAS_NUM_THREADS=1 python benchmarks/dask_chain.py            # ~200 MB
    OPENBLAS_NUM_THREADS=1 python benchmarks/dask_chain.py --quick    # 1/16 size
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import dask.array as da
import numpy as np
from _common import machine

import lazygraph
import lazygraph.tensor as lt

REPEATS = 5


def lg_chain(e: Any) -> Any:
    for k in range(10):
        e = lt.sin(e) * 1.25 + 0.5 if k % 2 else lt.exp(-lt.abs(e)) - 0.25
    return e


def da_chain(e: Any) -> Any:
    for k in range(10):
        e = da.sin(e) * 1.25 + 0.5 if k % 2 else da.exp(-da.fabs(e)) - 0.25
    return e


def median_time(fn: Callable[[], Any]) -> tuple[float, Any]:
    """The median of REPEATS timed calls of ``fn`` after one warm-up call, and
    the warm-up's result."""
    result = fn()
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def lazygraph_fn(build: Callable[[Any], Any]) -> Any:
    """A dask-backend function of one float64 matrix that takes dask arrays as
    they are (their own chunks) and returns numpy values."""
    x = lt.dmatrix("x")
    f = lazygraph.function([x], build(x), mode="dask")
    f.trust_input = True
    return f


def threaded(rows: int, cols: int, chunk_rows: int) -> list[tuple[str, float, float]]:
    data = np.random.default_rng(0).uniform(-2.0, 2.0, size=(rows, cols))
    x = da.from_array(data, chunks=(chunk_rows, cols))
    chain, std = lazygraph_fn(lg_chain), lazygraph_fn(lambda v: lt.std(v, axis=0))
    rows_out = []
    for name, plain, ours in [
        ("20-op chain", lambda: da_chain(x).compute(), lambda: chain(x)),
        ("std(x, axis=0)", lambda: da.std(x, axis=0).compute(), lambda: std(x)),
    ]:
        t_plain, want = median_time(plain)
        t_ours, got = median_time(ours)
        np.testing.assert_allclose(got, want, rtol=1e-10)
        rows_out.append((name, t_plain, t_ours))
    return rows_out


def cluster(rows: int, cols: int, chunk_rows: int) -> list[tuple[str, int, float, float]]:
    from distributed import Client, LocalCluster

    chain = lazygraph_fn(lambda v: lt.sum(lg_chain(v)))
    std = lazygraph_fn(lambda v: lt.std(v, axis=0))
    out = []
    for workers in (1, 2):
        with (
            LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            ) as local,
            Client(local),
        ):
            # generated on the workers; persisted, so that the timings leave it out
            x = da.random.RandomState(0).uniform(-2.0, 2.0, (rows, cols), chunks=(chunk_rows, cols))
            x = x.persist()
            for name, plain, ours in [
                ("sum(20-op chain)", lambda x=x: da_chain(x).sum().compute(), lambda x=x: chain(x)),
                ("std(x, axis=0)", lambda x=x: da.std(x, axis=0).compute(), lambda x=x: std(x)),
            ]:
                t_plain, want = median_time(plain)
                t_ours, got = median_time(ours)
                np.testing.assert_allclose(got, want, rtol=1e-9)
                out.append((name, workers, t_plain, t_ours))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1/16 of the array (1250 x 1250)")
    args = parser.parse_args()
    rows = cols = 1250 if args.quick else 5000
    chunk_rows = rows // 8
    warnings.simplefilter("ignore", RuntimeWarning)
    load_before = os.getloadavg()
    local = threaded(rows, cols, chunk_rows)
    clustered = cluster(rows, cols, chunk_rows)
    load_after = os.getloadavg()

    size = rows * cols * 8 / 1e6
    print(f"{machine()}")
    print(
        f"array {rows}x{cols} float64 ({size:.0f} MB), {rows // chunk_rows} chunks of "
        f"{chunk_rows} rows; medians of {REPEATS} runs after a warm-up; load average "
        f"{', '.join(f'{v:.2f}' for v in load_before)} before, "
        f"{', '.join(f'{v:.2f}' for v in load_after)} after\n"
    )
    print("| workload (threaded scheduler) | dask.array | lazygraph on dask | ratio |")
    print("|---|---|---|---|")
    for name, t_plain, t_ours in local:
        print(f"| {name} | {t_plain:.3f} s | {t_ours:.3f} s | {t_plain / t_ours:.2f}x |")
    print()
    print("| workload (LocalCluster, processes) | workers | dask.array | lazygraph on dask |")
    print("|---|---|---|---|")
    for name, workers, t_plain, t_ours in clustered:
        print(f"| {name} | {workers} | {t_plain:.3f} s | {t_ours:.3f} s |")
    print()
    for name in dict.fromkeys(n for n, *_ in clustered):
        one = {w: (p, o) for n, w, p, o in clustered if n == name}
        print(
            f"- {name}: 1 -> 2 workers speed-up, dask.array {one[1][0] / one[2][0]:.2f}x, "
            f"lazygraph {one[1][1] / one[2][1]:.2f}x"
        )


if __name__ == "__main__":
    main()
