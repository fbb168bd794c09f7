"""lazygraph on its JAX backend beside ``jax.jit`` of the same numpy-style function.

Each workload is written twice, once with ``lazygraph.tensor`` (compiled by
``lazygraph.function(..., mode="jax")``) and once with ``jax.numpy`` under
``jax.jit``; both run in float64 (x64 enabled for the jax.jit side, as the
lazygraph backend does for its own calls) and both return numpy arrays.

Columns: steady-state runtime (median of ``--repeat`` calls after a warm-up)
and first-call time of a fresh graph (build + rewrite + trace + XLA compile
for lazygraph; trace + compile for jax.jit). Goals (issue 7): runtime within
10% of jax.jit, compile time within 1.5x.

A second table keeps the data on the device: inputs placed once with
``jax.device_put``, results left there (``device_arrays=True``, as
``lazygraph.numpy.jit`` with shardings does), each call waiting for its results
with ``block_until_ready``. On a GPU the first table is mostly the PCIe
transfers both sides pay; the second is the computation and the per-call cost
of lazygraph's program around XLA's.

    OPENBLAS_NUM_THREADS=1 python benchmarks/jax_workloads.py           # 10M elements
    OPENBLAS_NUM_THREADS=1 python benchmarks/jax_workloads.py --quick   # 100k, for CI
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def _workloads(n: int, rows: int, cols: int) -> list[tuple[str, list[np.ndarray], Any, Any]]:
    import jax
    import jax.numpy as jnp

    import lazygraph.tensor as lt

    rng = np.random.default_rng(0)
    a = rng.random(n)
    m = rng.standard_normal((rows, cols))

    def lg_pow(x: Any) -> Any:
        return x + x**10

    def jx_pow(x: Any) -> Any:
        return x + x**10

    def lg_chain(x: Any) -> Any:
        return lt.log1p(lt.sin(lt.exp(x)))

    def jx_chain(x: Any) -> Any:
        return jnp.log1p(jnp.sin(jnp.exp(x)))

    def lg_softmax(x: Any) -> Any:
        e = lt.exp(x - lt.max(x, axis=-1, keepdims=True))
        return e / lt.sum(e, axis=-1, keepdims=True)

    def jx_softmax(x: Any) -> Any:
        e = jnp.exp(x - jnp.max(x, axis=-1, keepdims=True))
        return e / jnp.sum(e, axis=-1, keepdims=True)

    def lg_lse(x: Any) -> Any:
        mx = lt.max(x, axis=-1, keepdims=True)
        return lt.log(lt.sum(lt.exp(x - mx), axis=-1)) + lt.squeeze(mx, axis=-1)

    def jx_lse(x: Any) -> Any:
        mx = jnp.max(x, axis=-1, keepdims=True)
        return jnp.log(jnp.sum(jnp.exp(x - mx), axis=-1)) + jnp.squeeze(mx, axis=-1)

    del jax
    return [
        (f"a + a**10, {n:,} float64", [a], lg_pow, jx_pow),
        (f"exp/sin/log1p chain, {n:,} float64", [a], lg_chain, jx_chain),
        (f"softmax last axis, {rows}x{cols} float64", [m], lg_softmax, jx_softmax),
        (f"logsumexp last axis, {rows}x{cols} float64", [m], lg_lse, jx_lse),
    ]


def _lazygraph_device_fn(build: Any, values: list[np.ndarray]) -> Callable[..., Any]:
    """``build`` rewritten for the jax backend and compiled to take and return
    ``jax.Array`` values (no host round trip)."""
    import lazygraph.tensor as lt
    from lazygraph.backends.jax import backend
    from lazygraph.compile.function import rewrite_graph
    from lazygraph.compile.mode import get_mode
    from lazygraph.graph.fg import FunctionGraph

    xs = [lt.TensorType(v.dtype, v.shape)(f"x{i}") for i, v in enumerate(values)]
    fgraph = FunctionGraph(xs, [build(*xs)], clone=True)
    rewrite_graph(fgraph, get_mode("jax").excluding(*backend.excluded_tags))
    program = backend.compile(fgraph, device_arrays=True)

    def run(*arrays: Any) -> Any:
        (out,) = program(*arrays)
        return out.block_until_ready()

    return run


def _jax_device_fn(build: Any) -> Callable[..., Any]:
    import jax

    jitted = jax.jit(build)

    def run(*arrays: Any) -> Any:
        with jax.enable_x64(True):
            return jitted(*arrays).block_until_ready()

    return run


def _median_time(fn: Callable[[], Any], repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _paired_medians(
    first: Callable[[], Any], second: Callable[[], Any], repeat: int
) -> tuple[float, float]:
    """Median times of two functions timed in alternation (the order swapped
    every round), so a clock that ramps up or a neighbour's load falls on both:
    timed one after the other on a GPU, the side that went first ran at a lower
    clock and measured up to 1.6x slower."""
    first()
    second()
    times: tuple[list[float], list[float]] = ([], [])
    for k in range(repeat):
        order = ((0, first), (1, second)) if k % 2 == 0 else ((1, second), (0, first))
        for side, fn in order:
            t = time.perf_counter()
            fn()
            times[side].append(time.perf_counter() - t)
    return statistics.median(times[0]), statistics.median(times[1])


def _lazygraph_fn(build: Any, values: list[np.ndarray]) -> Callable[..., Any]:
    import lazygraph
    import lazygraph.tensor as lt

    xs = [lt.TensorType(v.dtype, v.shape)(f"x{i}") for i, v in enumerate(values)]
    return lazygraph.function(xs, build(*xs), mode="jax")


def _jax_fn(build: Any) -> Callable[..., Any]:
    import jax

    jitted = jax.jit(build)

    def run(*values: np.ndarray) -> np.ndarray:
        with jax.enable_x64(True):
            return np.asarray(jitted(*values))

    return run


def run(quick: bool = False, repeat: int = 7) -> list[dict[str, Any]]:
    """Time every workload; a list of rows (name, runtimes, compile times)."""
    import jax

    from lazygraph.backends.jax import backend

    n, rows, cols = (100_000, 200, 500) if quick else (10_000_000, 2000, 5000)
    # pay the one-time imports (rewrite database, jax's lowering rules) up front
    warm = [np.zeros(3)]
    _lazygraph_fn(lambda x: x * 2.0, warm)(*warm)
    _jax_fn(lambda x: x * 2.0)(*warm)
    out = []
    for name, values, lg_build, jx_build in _workloads(n, rows, cols):
        # Whichever side compiles a workload first pays jax's one-time costs for
        # its primitives (lowering rules, the first large allocation): the first
        # call of `a + a**10` measured 0.49 s for the side that went first and
        # 0.09 s for the other. Both sides first run the workload on a 3-element
        # slice (another shape: nothing of it is reused by the timed compiles).
        small = [np.ascontiguousarray(v[tuple(slice(0, 3) for _ in v.shape)]) for v in values]
        _lazygraph_fn(lg_build, small)(*small)
        _jax_fn(jx_build)(*small)
        t = time.perf_counter()
        lg = _lazygraph_fn(lg_build, values)
        lg(*values)
        lg_compile = time.perf_counter() - t
        # jax.jit's first call takes inputs one row longer: XLA on a GPU keeps the
        # machine code of kernels it compiled (keyed by their text, sizes
        # included) for the process, so with equal shapes the side compiled
        # second reused the first side's kernels (logsumexp's first call measured
        # 444 ms for lazygraph, compiled first, against 221 ms for jax.jit).
        longer = [np.concatenate([v, v[:1]]) for v in values]
        t = time.perf_counter()
        jx = _jax_fn(jx_build)
        jx(*longer)
        jx_compile = time.perf_counter() - t
        with jax.enable_x64(True):
            np.testing.assert_allclose(lg(*values), jx(*values), rtol=1e-9)
        lg_run, jx_run = _paired_medians(
            lambda lg=lg, v=values: lg(*v), lambda jx=jx, v=values: jx(*v), repeat
        )
        backend.writable_outputs = False  # XLA's read-only buffers, no copy
        try:
            lg_nocopy = _lazygraph_fn(lg_build, values)
            lg_nocopy_run = _median_time(lambda f=lg_nocopy, v=values: f(*v), repeat)
        finally:
            backend.writable_outputs = True
        out.append(
            {
                "name": name,
                "lazygraph_run": lg_run,
                "lazygraph_nocopy_run": lg_nocopy_run,
                "jax_run": jx_run,
                "lazygraph_compile": lg_compile,
                "jax_compile": jx_compile,
            }
        )
    return out


def run_on_device(quick: bool = False, repeat: int = 21) -> list[dict[str, Any]]:
    """Time every workload with inputs and results on the default device."""
    import jax

    n, rows, cols = (100_000, 200, 500) if quick else (10_000_000, 2000, 5000)
    out = []
    for name, values, lg_build, jx_build in _workloads(n, rows, cols):
        with jax.enable_x64(True):
            arrays = [jax.device_put(v) for v in values]
        lg = _lazygraph_device_fn(lg_build, values)
        jx = _jax_device_fn(jx_build)
        with jax.enable_x64(True):
            np.testing.assert_allclose(np.asarray(lg(*arrays)), np.asarray(jx(*arrays)), rtol=1e-9)
        lg_run, jx_run = _paired_medians(
            lambda f=lg, a=arrays: f(*a), lambda f=jx, a=arrays: f(*a), repeat
        )
        out.append({"name": name, "lazygraph_run": lg_run, "jax_run": jx_run})
    return out


def copy_costs(n: int, repeat: int = 7) -> dict[str, float]:
    """What handing results back to numpy costs on one workload (the exp/sin/log1p
    chain on ``n`` float64): ``lazygraph.function`` and ``lazygraph.numpy``'s
    ``compute()`` with writable and with read-only backend outputs, and one copy
    of the result alone."""
    import lazygraph
    import lazygraph.numpy as lnp
    import lazygraph.tensor as lt
    from lazygraph.backends.jax import backend

    a = np.random.default_rng(0).random(n)
    x = lt.dvector("x")
    out: dict[str, float] = {}
    with lazygraph.config.change(backend="jax"):
        for writable in (True, False):
            backend.writable_outputs = writable
            backend.clear_cache()
            try:
                fn = lazygraph.function([x], lt.log1p(lt.sin(lt.exp(x))), mode="jax")
                out[f"function, writable={writable}"] = _median_time(lambda fn=fn: fn(a), repeat)
                xa = lnp.asarray(a)
                out[f"lnp compute(), writable={writable}"] = _median_time(
                    lambda xa=xa: lnp.log1p(lnp.sin(lnp.exp(xa))).compute(), repeat
                )
            finally:
                backend.writable_outputs = True
                backend.clear_cache()
    out["one copy of the result"] = _median_time(a.copy, repeat)
    return out


def _fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def table(rows: list[dict[str, Any]]) -> str:
    """The markdown table of :func:`run`'s rows."""
    lines = [
        "| workload | lazygraph (jax) | read-only outputs | jax.jit | overhead | "
        "first call lazygraph | first call jax.jit | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        over = r["lazygraph_run"] / r["jax_run"] - 1
        over_nc = r["lazygraph_nocopy_run"] / r["jax_run"] - 1
        ratio = r["lazygraph_compile"] / r["jax_compile"]
        lines.append(
            f"| {r['name']} | {_fmt(r['lazygraph_run'])} | {_fmt(r['lazygraph_nocopy_run'])} | "
            f"{_fmt(r['jax_run'])} | {over:+.0%} / {over_nc:+.0%} | "
            f"{_fmt(r['lazygraph_compile'])} | {_fmt(r['jax_compile'])} | {ratio:.2f}x |"
        )
    return "\n".join(lines)


def device_table(rows: list[dict[str, Any]]) -> str:
    """The markdown table of :func:`run_on_device`'s rows."""
    lines = [
        "| workload (data on the device) | lazygraph (jax) | jax.jit | overhead |",
        "|---|---:|---:|---:|",
    ]
    for r in rows:
        over = r["lazygraph_run"] / r["jax_run"] - 1
        lines.append(
            f"| {r['name']} | {_fmt(r['lazygraph_run'])} | {_fmt(r['jax_run'])} | {over:+.0%} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes, for CI")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    import jax

    print(table(run(args.quick, args.repeat)))
    print()
    print(device_table(run_on_device(args.quick, 3 * args.repeat)))
    n = 100_000 if args.quick else 10_000_000
    print(f"\nhanding results to numpy ({n:,} float64, exp/sin/log1p chain):")
    for name, seconds in copy_costs(n, args.repeat).items():
        print(f"- {name}: {_fmt(seconds)}")
    print(f"\ndevice: {jax.devices()[0].device_kind}, jax {jax.__version__}")


if __name__ == "__main__":
    main()
