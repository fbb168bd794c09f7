"""Numba-backend benchmark: the workloads of issue 6, lazygraph (numba backend)
side by side with numpy, and JAX when it can be imported.

Workloads: ``a + a**10`` and an ``exp``/``sin``/``log1p`` chain on 10M float64;
softmax and logsumexp over the last axis of a 2000x5000 float64 array (written
naively); a 10-element expression called in a loop (per-call overhead); one
forward+grad step of a 784-512-10 tanh MLP (batch 256, float32); compile time
of chains of 1,000 / 10,000 elementwise ops; first call of a fresh process
with a cold and a warm disk cache; and a stream triad (the memory-bandwidth
limit) measured in the same run. Each cell is the median of several runs;
ratios are to numpy. Prints a Markdown table.

    OPENBLAS_NUM_THREADS=1 python benchmarks/numba_workloads.py           # full sizes
    OPENBLAS_NUM_THREADS=1 python benchmarks/numba_workloads.py --quick   # 1/10 sizes
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def median_time(fn: Callable[[], Any], repeat: int = 7, number: int = 1) -> float:
    """Median seconds of ``number`` calls of ``fn`` over ``repeat`` runs (one warm-up)."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def _jax() -> Any:
    try:
        import jax

        jax.config.update("jax_enable_x64", True)
        return jax
    except ImportError:
        return None


def _compile(inputs: list[Any], outputs: Any) -> Any:
    import lazygraph
    from lazygraph.compile.mode import Mode

    fn = lazygraph.function(inputs, outputs, mode=Mode(backend="numba"))
    fn.trust_input = True
    return fn


def elementwise_rows(n: int) -> list[tuple[str, float, float | None, float | None]]:
    import lazygraph.tensor as lt

    rng = np.random.default_rng(0)
    a = rng.random(n)
    x = lt.tensor("float64", (None,))
    jax = _jax()
    rows = []

    f = _compile([x], x + x**10)
    jf = jax.jit(lambda v: v + v**10) if jax else None
    ja = jax.numpy.asarray(a) if jax else None
    rows.append(
        (
            f"a + a**10, {n:,} float64",
            median_time(lambda: a + a**10),
            median_time(lambda: f(a)),
            median_time(lambda: jf(ja).block_until_ready()) if jax else None,
        )
    )
    f = _compile([x], lt.log1p(lt.sin(lt.exp(x))))
    jf = jax.jit(lambda v: jax.numpy.log1p(jax.numpy.sin(jax.numpy.exp(v)))) if jax else None
    rows.append(
        (
            f"exp/sin/log1p chain, {n:,} float64",
            median_time(lambda: np.log1p(np.sin(np.exp(a)))),
            median_time(lambda: f(a)),
            median_time(lambda: jf(ja).block_until_ready()) if jax else None,
        )
    )
    return rows


def softmax_rows(shape: tuple[int, int]) -> list[tuple[str, float, float | None, float | None]]:
    import lazygraph.tensor as lt

    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape)
    x = lt.tensor("float64", (None, None))

    def np_softmax(v: np.ndarray) -> np.ndarray:
        e = np.exp(v - v.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    def np_lse(v: np.ndarray) -> np.ndarray:
        m = v.max(axis=-1, keepdims=True)
        return np.log(np.exp(v - m).sum(axis=-1)) + m[:, 0]

    e = lt.exp(x - lt.max(x, axis=-1, keepdims=True))
    soft = _compile([x], e / lt.sum(e, axis=-1, keepdims=True))
    m = lt.max(x, axis=-1, keepdims=True)
    lse = _compile([x], lt.log(lt.sum(lt.exp(x - m), axis=-1)) + lt.squeeze(m, -1))
    label = f"{shape[0]}x{shape[1]} float64"
    return [
        (f"softmax over last axis, {label}", median_time(lambda: np_softmax(a)),
         median_time(lambda: soft(a)), None),
        (f"logsumexp over last axis, {label}", median_time(lambda: np_lse(a)),
         median_time(lambda: lse(a)), None),
    ]  # fmt: skip


def per_call_row() -> tuple[str, float, float | None, float | None]:
    import lazygraph.tensor as lt

    a, b = np.ones(10), np.full(10, 2.0)
    x, y = lt.tensor("float64", (10,)), lt.tensor("float64", (10,))
    f = _compile([x, y], (x * y + 1.0) * (x - y) / 3.0)
    return (
        "10-element expression, per call",
        median_time(lambda: (a * b + 1.0) * (a - b) / 3.0, number=2000),
        median_time(lambda: f(a, b), number=2000),
        None,
    )


def mlp_row(batch: int = 256) -> tuple[str, float, float | None, float | None]:
    import lazygraph.tensor as lt
    from lazygraph.gradient import grad

    rng = np.random.default_rng(0)
    xs = rng.standard_normal((batch, 784)).astype("float32")
    ys = rng.standard_normal((batch, 10)).astype("float32")
    w1 = (rng.standard_normal((784, 512)) * 0.05).astype("float32")
    w2 = (rng.standard_normal((512, 10)) * 0.05).astype("float32")
    X, Y = lt.tensor("float32", (None, 784)), lt.tensor("float32", (None, 10))
    W1, W2 = lt.tensor("float32", (784, 512)), lt.tensor("float32", (512, 10))
    h = lt.tanh(lt.matmul(X, W1))
    loss = lt.mean((lt.matmul(h, W2) - Y) ** 2)
    g1, g2 = grad(loss, [W1, W2])
    start = time.perf_counter()
    f = _compile([X, Y, W1, W2], [loss, g1, g2])
    f(xs, ys, w1, w2)
    first = time.perf_counter() - start

    def numpy_step() -> Any:
        hh = np.tanh(xs @ w1)
        out = hh @ w2 - ys
        loss_ = np.mean(out**2)
        go = 2 * out / out.size
        gw2 = hh.T @ go
        gh = (go @ w2.T) * (1 - hh * hh)
        return loss_, xs.T @ gh, gw2

    print(f"  MLP first call (compile + run, this process's caches): {first:.2f} s")
    return (
        f"MLP 784-512-10 tanh, batch {batch} float32, forward+grad",
        median_time(numpy_step),
        median_time(lambda: f(xs, ys, w1, w2)),
        None,
    )


def chain_compile_seconds(n: int) -> float:
    import lazygraph.tensor as lt

    x = lt.tensor("float64", (100,))
    y = x
    for i in range(n):
        y = lt.sin(y) if i % 3 == 0 else (y * 1.0001 if i % 3 == 1 else y + x)
    start = time.perf_counter()
    f = _compile([x], y)
    f(np.ones(100))
    return time.perf_counter() - start


def first_call_seconds(cache_dir: str) -> float:
    code = textwrap.dedent(
        """
        import time, numpy as np
        start = time.perf_counter()
        import lazygraph, lazygraph.tensor as lt
        from lazygraph.compile.mode import Mode
        x = lt.tensor("float32", (None, None))
        y = lt.tanh(lt.matmul(x, lt.transpose(x))) * 2.0 + lt.sum(x, axis=1, keepdims=True)
        f = lazygraph.function([x], y, mode=Mode(backend="numba"))
        f(np.ones((4, 3), "float32"))
        print(time.perf_counter() - start)
        """
    )
    env = dict(os.environ, LAZYGRAPH_CACHE_DIR=cache_dir)
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip().splitlines()[-1])


def triad_seconds(n: int) -> tuple[float, float]:
    """Seconds of ``a = b + s*c`` (numpy, in place) and the bandwidth it implies."""
    b, c, a = np.ones(n), np.ones(n), np.empty(n)

    def triad() -> None:
        np.multiply(c, 3.0, out=a)
        np.add(a, b, out=a)

    t = median_time(triad)
    # numpy's two passes move 5 arrays' worth of bytes
    return t, 5 * 8 * n / t / 1e9


def fmt(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1/10 sizes, 1k-op chain only")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    rows = []
    rows += elementwise_rows(10_000_000 // scale)
    rows += softmax_rows((2000 // scale, 5000))
    rows.append(per_call_row())
    rows.append(mlp_row())
    print("| workload | numpy | lazygraph numba | ratio to numpy | jax.jit |")
    print("|---|---|---|---|---|")
    for name, np_t, lg_t, jax_t in rows:
        ratio = f"{lg_t / np_t:.2f}×" if lg_t else "–"
        print(f"| {name} | {fmt(np_t)} | {fmt(lg_t)} | {ratio} | {fmt(jax_t)} |")
    t, gbs = triad_seconds(10_000_000 // scale)
    print(f"\nstream triad ({10_000_000 // scale:,} float64): {fmt(t)}, {gbs:.1f} GB/s")
    for n in (1000,) if args.quick else (1000, 10_000):
        seconds = chain_compile_seconds(n)
        print(f"compile + first call of a {n:,}-op elementwise chain: {seconds:.2f} s")
    with tempfile.TemporaryDirectory() as d:
        cold = first_call_seconds(d)
        warm = first_call_seconds(d)
    print(f"first call in a fresh process: cold cache {cold:.2f} s, warm disk cache {warm:.2f} s")


if __name__ == "__main__":
    main()
