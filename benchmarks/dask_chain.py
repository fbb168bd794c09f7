"""Dask backend benchmark (issue 22): plain ``dask.array`` against lazygraph on its
dask backend, on the same input chunks.

Workloads, on a ~200 MB float64 array (5000 x 5000, chunks of 625 rows: 8 chunks
of 25 MB):

- a 20-op elementwise chain (``sin(e) * 1.25 + 0.5`` and ``exp(-abs(e)) - 0.25``
  alternating), compute-bound. dask.array fuses the 20 layers into one task per
  chunk, but each op inside it is a numpy call writing a full temporary;
  lazygraph's rewrites fuse the chain into one node, whose chunks run as
  ``config.dask_chunk_kernels`` says: ``"auto"`` (the row without a suffix)
  picks numpy's calls over cache-sized blocks for this chain; rows with
  ``numba`` / ``numpy`` force one per-chunk function, and the block sizes
  4 K, 16 K and 32 K elements are timed beside the default (64 K);
- a 20-op add/mul chain (arithmetic only, memory-bound), where ``"auto"``
  keeps the numba kernel, and the same forced to numpy blocks;
- ``std(x, axis=0)``: dask's one-pass moment tree against lazygraph's (numpy's
  two passes: the mean, then the squared deviations);
- a logistic-regression gradient step: the gradient of the mean log-loss
  ``mean(logaddexp(0, x @ w) - y * x @ w)`` with respect to ``w``, by
  ``lazygraph.gradient.grad`` on one side and written by hand in dask.array
  (``x.T @ (sigmoid(x @ w) - y) / n``) on the other.

On the current (threaded) scheduler the chain's 200 MB result is computed into
the client. On a ``distributed.LocalCluster(processes=True)`` of 1 and then 2
single-thread workers, the input is generated on the workers
(``da.random.random``) and the chain is summed there, so that neither the input
nor the result crosses between processes; the speed-up is the 1-worker time
over the 2-worker time. There the submission time is measured too: building
the dask graph (lazygraph: walking the rewritten graph; dask.array: the
operations) plus ``client.compute`` handing it to the scheduler, as a fraction
of the whole call.

Cells are medians of 5 timed runs after a warm-up call (which compiles), from
one run of this script; the load average (``os.getloadavg``) before and after
is printed with the table, since a busy machine changes the numbers. The
tables go to standard output and ``benchmarks/results/dask_chain.md``, the raw
numbers to ``benchmarks/results/dask_chain.json``. Not run by CI::

    OPENBLAS_NUM_THREADS=1 python benchmarks/dask_chain.py            # ~200 MB
    OPENBLAS_NUM_THREADS=1 python benchmarks/dask_chain.py --quick    # 1/16 size
    python benchmarks/dask_chain.py --ops  # per scalar op: numba kernel vs numpy blocks

``--ops`` prints, for each transcendental (and a few cheap) scalar ops, one
chunk's time per element through the numba kernel and through the blocked
numpy evaluation: the measurements behind ``blocked.SIMD_GAIN``, the table the
``"auto"`` rule reads.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import dask.array as da
import numpy as np
from _common import machine

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.dask import blocked
from lazygraph.gradient import grad

REPEATS = 5
RESULTS = Path(__file__).resolve().parent / "results"


def lg_chain(e: Any) -> Any:
    for k in range(10):
        e = lt.sin(e) * 1.25 + 0.5 if k % 2 else lt.exp(-lt.abs(e)) - 0.25
    return e


def da_chain(e: Any) -> Any:
    for k in range(10):
        e = da.sin(e) * 1.25 + 0.5 if k % 2 else da.exp(-da.fabs(e)) - 0.25
    return e


def cheap_chain(e: Any) -> Any:
    """20 multiplications and additions: arithmetic only (either namespace)."""
    for k in range(10):
        e = e * 0.75 + 0.5 if k % 2 else e * 1.25 - 0.25
    return e


def lg_logistic_step(e: Any, y: Any, w: Any) -> Any:
    """The gradient of the mean logistic loss with respect to ``w``."""
    z = lt.dot(e, w)
    return grad(lt.mean(lt.logaddexp(0.0, z) - y * z), w)


def da_logistic_step(e: Any, y: Any, w: Any) -> Any:
    return e.T @ (1.0 / (1.0 + da.exp(-(e @ w))) - y) / e.shape[0]


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


def lazygraph_fn(build: Callable[..., Any], *, lazy: bool = False) -> Any:
    """A dask-backend function of one float64 matrix (and, for a ``build`` of
    three arguments, a label vector and a weight vector) that takes dask arrays
    as they are (their own chunks) and returns numpy values (``lazy``: the dask
    arrays, not computed)."""
    x = lt.dmatrix("x")
    args = [x, lt.dvector("y"), lt.dvector("w")] if build.__code__.co_argcount == 3 else [x]
    options = {"dask_arrays": True} if lazy else None
    f = lazygraph.function(args, build(*args), mode="dask", compile_options=options)
    f.trust_input = True
    return f


def labels_and_weights(x: Any) -> tuple[Any, np.ndarray]:
    """0/1 labels of a linear model of ``x``'s rows (a dask array, chunked as
    ``x``'s rows), and small weights."""
    w = np.random.default_rng(1).normal(size=x.shape[1]) * 1e-2
    y = (x @ np.linspace(-1.0, 1.0, x.shape[1]) > 0).astype(np.float64)
    return y, w


def with_kernels(fn: Callable[..., Any], setting: str, block: int = 0) -> Any:
    """``fn`` called with ``config.dask_chunk_kernels = setting`` (and, unless
    ``block`` is 0, blocks of ``block`` elements for the numpy evaluation)."""

    def call(*args: Any) -> Any:
        old = blocked.BLOCK_ELEMENTS
        blocked.BLOCK_ELEMENTS = block or old
        try:
            with lazygraph.config.change(dask_chunk_kernels=setting):
                return fn(*args)
        finally:
            blocked.BLOCK_ELEMENTS = old

    return call


def threaded(rows: int, cols: int, chunk_rows: int) -> list[tuple[str, float, float]]:
    data = np.random.default_rng(0).uniform(-2.0, 2.0, size=(rows, cols))
    x = da.from_array(data, chunks=(chunk_rows, cols))
    chain, std = lazygraph_fn(lg_chain), lazygraph_fn(lambda v: lt.std(v, axis=0))
    cheap = lazygraph_fn(cheap_chain)
    step = lazygraph_fn(lg_logistic_step)
    y, w = labels_and_weights(x)
    y = y.persist()
    rows_out = []
    plain_times: dict[Any, tuple[float, Any]] = {}
    plain_chain, plain_cheap = (lambda: da_chain(x).compute()), (lambda: cheap_chain(x).compute())
    variants = [
        (
            f"20-op chain, {how}" + (f" ({block // 1024} K blocks)" if block else ""),
            plain_chain,
            lambda h=how, b=block: with_kernels(chain, h, b)(x),
        )
        for how, block in [("numba", 0), ("numpy", 0), *(("numpy", k * 1024) for k in (4, 16, 32))]
    ]
    variants += [
        ("20-op add/mul chain", plain_cheap, lambda: cheap(x)),
        ("20-op add/mul chain, numpy", plain_cheap, lambda: with_kernels(cheap, "numpy")(x)),
    ]
    for name, plain, ours in [
        ("20-op chain", plain_chain, lambda: chain(x)),
        *variants,
        ("std(x, axis=0)", lambda: da.std(x, axis=0).compute(), lambda: std(x)),
        (
            "logistic gradient step",
            lambda: da_logistic_step(x, y, w).compute(),
            lambda: step(x, y, w),
        ),
    ]:
        if plain not in plain_times:  # the same dask.array workload, timed once
            plain_times[plain] = median_time(plain)
        t_plain, want = plain_times[plain]
        t_ours, got = median_time(ours)
        np.testing.assert_allclose(got, want, rtol=1e-10)
        rows_out.append((name, t_plain, t_ours))
    return rows_out


def chunk_kernel_gains(rows: int, cols: int) -> str:
    """A table: per scalar op and float dtype, the time per element of one
    chunk of ``rows x cols`` through the numba kernel and through the blocked
    numpy evaluation (one thread, best of 3 after a warm-up), the difference
    (what ``blocked.SIMD_GAIN`` records) and what ``"auto"`` picks."""
    from lazygraph.backends.dask.blocks import detached, elemwise_block
    from lazygraph.backends.dask.elemwise import kernel_source

    unit = ("arcsin", "arccos", "arctanh", "log", "log1p", "log2", "log10", "sqrt")
    ops = [
        *("sin", "cos", "tan", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p"),
        *("tanh", "sinh", "cosh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh"),
        *("arctanh", "cbrt", "power", "arctan2", "hypot", "logaddexp", "sigmoid"),
        *("softplus", "log_sigmoid", "erf", "sqrt", "reciprocal", "abs", "add"),
    ]
    lines = [
        "| op | dtype | numba kernel | numpy blocks | gain | auto |",
        "|---|---|---|---|---|---|",
    ]
    for dtype in ("float64", "float32"):
        for name in ops:
            low, high = (0.1, 0.9) if name in unit else (1.1, 3.0) if name == "arccosh" else (-2, 2)
            data = np.random.default_rng(0).uniform(low, high, (rows, cols)).astype(dtype)
            v = lt.matrix("v", dtype=dtype)
            if name in ("arctan2", "hypot", "logaddexp", "add"):
                out = getattr(lt, name)(v, v * 0.5)
            elif name == "power":
                out = lt.power(lt.abs(v), 1.7)
            else:
                out = getattr(lt, name)(v)
            (node,) = lazygraph.function([v], out, mode="python").fgraph.toposort()[-1:]
            node = detached(node)
            source = kernel_source(node)
            ns = []
            for run in (
                partial(elemwise_block, source, node, data),
                partial(blocked.blocked_block, node, data),
            ):
                run()
                ns.append(min(timed(run) for _ in range(3)) / data.size * 1e9)
            lines.append(
                f"| {name} | {dtype} | {ns[0]:.2f} ns | {ns[1]:.2f} ns | {ns[0] - ns[1]:.2f} ns "
                f"| {blocked.chunk_kernel(node)} |"
            )
    return "\n".join(lines) + "\n"


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def submission(client: Any, build: Callable[[], list[Any]]) -> tuple[float, float]:
    """Medians over REPEATS calls (after a warm-up) of the seconds spent building
    the dask graph and handing it to the scheduler (``build`` then
    ``client.compute``), and of the whole call's seconds."""
    handed, whole = [], []
    for k in range(REPEATS + 1):
        start = time.perf_counter()
        futures = client.compute(build())
        submitted = time.perf_counter()
        client.gather(futures)
        if k:  # (the first: the warm-up)
            handed.append(submitted - start)
            whole.append(time.perf_counter() - start)
    return statistics.median(handed), statistics.median(whole)


def cluster(rows: int, cols: int, chunk_rows: int) -> list[dict[str, Any]]:
    from distributed import Client, LocalCluster

    builds = {
        "sum(20-op chain)": (lambda v: lt.sum(lg_chain(v)), lambda x, y, w: [da_chain(x).sum()]),
        "std(x, axis=0)": (lambda v: lt.std(v, axis=0), lambda x, y, w: [da.std(x, axis=0)]),
        "logistic gradient step": (
            lg_logistic_step,
            lambda x, y, w: [da_logistic_step(x, y, w)],
        ),
    }
    out = []
    for workers in (1, 2):
        with (
            LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            ) as local,
            Client(local) as client,
        ):
            # generated on the workers; persisted, so that the timings leave it out
            x = da.random.RandomState(0).uniform(-2.0, 2.0, (rows, cols), chunks=(chunk_rows, cols))
            x = x.persist()
            y, w = labels_and_weights(x)
            y = y.persist()
            for name, (lg_build, da_build) in builds.items():
                ours, lazy = lazygraph_fn(lg_build), lazygraph_fn(lg_build, lazy=True)
                data = (x, y, w)
                args = data if lg_build is lg_logistic_step else (x,)
                t_plain, want = median_time(lambda b=da_build, d=data: b(*d)[0].compute())
                t_ours, got = median_time(lambda f=ours, a=args: f(*a))
                np.testing.assert_allclose(got, want, rtol=1e-9)
                row = {"workload": name, "workers": workers, "dask": t_plain, "lazygraph": t_ours}
                if workers == 2:
                    row["submit_dask"] = submission(client, lambda b=da_build, d=data: b(*d))
                    row["submit_lazygraph"] = submission(client, lambda f=lazy, a=args: f.fn(*a))
                out.append(row)
    return out


def render(
    local: list[tuple[str, float, float]], clustered: list[dict[str, Any]], head: str
) -> str:
    lines = [head, ""]
    lines += ["| workload (threaded scheduler) | dask.array | lazygraph on dask | ratio |"]
    lines += ["|---|---|---|---|"]
    for name, t_plain, t_ours in local:
        lines.append(f"| {name} | {t_plain:.3f} s | {t_ours:.3f} s | {t_plain / t_ours:.2f}x |")
    lines += [
        "",
        "| workload (LocalCluster, processes) | workers | dask.array | lazygraph on dask | ratio |",
    ]
    lines += ["|---|---|---|---|---|"]
    for r in clustered:
        lines.append(
            f"| {r['workload']} | {r['workers']} | {r['dask']:.3f} s | {r['lazygraph']:.3f} s "
            f"| {r['dask'] / r['lazygraph']:.2f}x |"
        )
    lines += [""]
    for name in dict.fromkeys(r["workload"] for r in clustered):
        one = {r["workers"]: r for r in clustered if r["workload"] == name}
        lines.append(
            f"- {name}: 1 -> 2 workers speed-up, dask.array "
            f"{one[1]['dask'] / one[2]['dask']:.2f}x, lazygraph "
            f"{one[1]['lazygraph'] / one[2]['lazygraph']:.2f}x"
        )
    lines += [""]
    for r in clustered:
        if "submit_lazygraph" in r:
            (dh, dw), (lh, lw) = r["submit_dask"], r["submit_lazygraph"]
            lines.append(
                f"- {r['workload']}, 2 workers: graph built and submitted in "
                f"{lh * 1e3:.1f} ms of {lw:.3f} s ({lh / lw:.1%}) for lazygraph, "
                f"{dh * 1e3:.1f} ms of {dw:.3f} s ({dh / dw:.1%}) for dask.array"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1/16 of the array (1250 x 1250)")
    parser.add_argument(
        "--ops",
        action="store_true",
        help="only print each scalar op's chunk time, numba kernel against numpy blocks",
    )
    args = parser.parse_args()
    if args.ops:
        warnings.simplefilter("ignore")
        print(f"{machine()}\n\none chunk of 200 x 5000 per op, one thread\n")
        print(chunk_kernel_gains(200, 5000))
        return
    rows = cols = 1250 if args.quick else 5000
    chunk_rows = rows // 8
    warnings.simplefilter("ignore", RuntimeWarning)
    load_before = os.getloadavg()
    local = threaded(rows, cols, chunk_rows)
    clustered = cluster(rows, cols, chunk_rows)
    load_after = os.getloadavg()

    size = rows * cols * 8 / 1e6
    head = (
        f"{machine()}; {time.strftime('%Y-%m-%d %H:%M')}\n\n"
        f"array {rows}x{cols} float64 ({size:.0f} MB), {rows // chunk_rows} chunks of "
        f"{chunk_rows} rows; medians of {REPEATS} runs after a warm-up; load average "
        f"{', '.join(f'{v:.2f}' for v in load_before)} before, "
        f"{', '.join(f'{v:.2f}' for v in load_after)} after"
    )
    table = render(local, clustered, head)
    print(table)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "dask_chain.md").write_text(table)
    raw = {
        "quick": args.quick,
        "load_before": load_before,
        "load_after": load_after,
        "threaded": [{"workload": n, "dask": p, "lazygraph": o} for n, p, o in local],
        "cluster": clustered,
    }
    (RESULTS / "dask_chain.json").write_text(json.dumps(raw, indent=1))


if __name__ == "__main__":
    main()
