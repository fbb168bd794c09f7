"""A recurrent network over a long sequence: ``lazygraph.scan`` beside
``jax.lax.scan`` and a plain numpy loop.

The cell is ``h = tanh(W h + U x_t + b)`` (hidden 64, input 32) over 10,000
steps; the loss is ``mean(hs ** 2)`` of the stacked states. Two workloads:
the forward pass (the loss) and the gradient (the loss and its gradient with
respect to ``W``, ``U`` and ``b``). Rows:

- ``lazygraph.scan`` under ``lazygraph.jit`` on the numba backend (the loop
  is one compiled kernel; kernels compile at the first call, not in the
  background) and on the jax backend (``lax.scan``);
- ``jax.lax.scan`` under ``jax.jit`` (float64);
- a Python loop over numpy (for the gradient, backpropagation through time
  written by hand).

Columns: the first call (tracing, rewriting and compiling included, with
whatever the kernel cache on disk holds: run it twice to see a warm cache) and
the median of 5 warm calls. The backends' libraries are imported before any
timing (``jax`` is, to build its rows; so is the numba backend), so no first
call pays for an import. The machine's load average is printed before and
after: the numbers mean little on a busy machine. Not part of CI.

    OPENBLAS_NUM_THREADS=1 python benchmarks/rnn_scan.py
    OPENBLAS_NUM_THREADS=1 python benchmarks/rnn_scan.py --steps 1000   # quicker
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from _common import machine

HIDDEN, INPUT = 64, 32


def _data(steps: int) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    params = {
        "W": rng.standard_normal((HIDDEN, HIDDEN)) / np.sqrt(HIDDEN),
        "U": rng.standard_normal((HIDDEN, INPUT)) / np.sqrt(INPUT),
        "b": rng.standard_normal(HIDDEN) * 0.1,
    }
    return params, rng.standard_normal((steps, INPUT)), np.zeros(HIDDEN)


# -- numpy --------------------------------------------------------------------


def numpy_loss(params: dict, xs: np.ndarray, h0: np.ndarray) -> float:
    w, u, b = params["W"], params["U"], params["b"]
    h, total = h0, 0.0
    for x in xs:
        h = np.tanh(w @ h + u @ x + b)
        total += float(h @ h)
    return total / (len(xs) * HIDDEN)


def numpy_grad(params: dict, xs: np.ndarray, h0: np.ndarray) -> tuple[float, dict]:
    w, u, b = params["W"], params["U"], params["b"]
    hs = np.empty((len(xs) + 1, HIDDEN))
    hs[0] = h0
    for t, x in enumerate(xs):
        hs[t + 1] = np.tanh(w @ hs[t] + u @ x + b)
    scale = 1.0 / (len(xs) * HIDDEN)
    loss = float(np.sum(hs[1:] ** 2)) * scale
    gw, gu, gb = np.zeros_like(w), np.zeros_like(u), np.zeros_like(b)
    dh = np.zeros(HIDDEN)
    for t in range(len(xs) - 1, -1, -1):
        dh = dh + 2.0 * scale * hs[t + 1]
        dz = dh * (1.0 - hs[t + 1] ** 2)
        gw += np.outer(dz, hs[t])
        gu += np.outer(dz, xs[t])
        gb += dz
        dh = w.T @ dz
    return loss, {"W": gw, "U": gu, "b": gb}


# -- lazygraph ----------------------------------------------------------------


def lazygraph_fns(backend: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    import lazygraph
    import lazygraph.numpy as lnp
    from lazygraph.compile.mode import Mode

    def loss(params: dict, xs: Any, h0: Any) -> Any:
        def cell(h: Any, x: Any) -> tuple[Any, Any]:
            h = lnp.tanh(params["W"] @ h + params["U"] @ x + params["b"])
            return h, h

        _, hs = lazygraph.scan(cell, h0, xs)
        return lnp.mean(hs**2)

    mode = Mode(backend=backend)
    return lazygraph.jit(loss, mode=mode), lazygraph.jit(lazygraph.value_and_grad(loss), mode=mode)


# -- jax ----------------------------------------------------------------------


def jax_fns() -> tuple[Callable[..., Any], Callable[..., Any]]:
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    def loss(params: dict, xs: Any, h0: Any) -> Any:
        def cell(h: Any, x: Any) -> tuple[Any, Any]:
            h = jnp.tanh(params["W"] @ h + params["U"] @ x + params["b"])
            return h, h

        _, hs = jax.lax.scan(cell, h0, xs)
        return jnp.mean(hs**2)

    def block(f: Callable[..., Any]) -> Callable[..., Any]:
        return lambda *a: jax.block_until_ready(f(*a))

    return block(jax.jit(loss)), block(jax.jit(jax.value_and_grad(loss)))


# -- timing -------------------------------------------------------------------


def _time(fn: Callable[..., Any], args: tuple[Any, ...], repeat: int) -> tuple[float, float, Any]:
    start = time.perf_counter()
    out = fn(*args)
    first = time.perf_counter() - start
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args)
        runs.append(time.perf_counter() - start)
    return first, statistics.median(runs), out


def _seconds(s: float) -> str:
    return f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"


def _loss_of(out: Any) -> float:
    return float(np.asarray(out[0] if isinstance(out, tuple | list) else out))


def _grad_of(out: Any) -> dict:
    return {k: np.asarray(v) for k, v in out[1].items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    import lazygraph

    params, xs, h0 = _data(args.steps)
    rows: list[tuple[str, Callable[..., Any], Callable[..., Any]]] = [
        ("numpy loop", numpy_loss, numpy_grad)
    ]
    for backend in ("numba", "jax"):
        rows.append((f"lazygraph.scan, jit on {backend}", *lazygraph_fns(backend)))
    rows.append(("jax.lax.scan, jax.jit", *jax_fns()))

    import lazygraph.backends.numba.linker  # imported as jax is: not timed

    load_before = os.getloadavg()
    results = []
    reference_loss, reference_grad = None, None
    with lazygraph.config.change(numba_background_compile=False):
        for name, forward, gradient in rows:
            f_first, f_warm, f_out = _time(forward, (params, xs, h0), args.repeat)
            g_first, g_warm, g_out = _time(gradient, (params, xs, h0), args.repeat)
            loss, grads = _loss_of(f_out), _grad_of(g_out)
            if reference_loss is None:
                reference_loss, reference_grad = loss, grads
            err = max(
                abs(loss - reference_loss) / abs(reference_loss),
                *(
                    float(np.max(np.abs(grads[k] - reference_grad[k])))  # type: ignore[index]
                    / float(np.max(np.abs(reference_grad[k])))  # type: ignore[index]
                    for k in grads
                ),
            )
            results.append((name, f_first, f_warm, g_first, g_warm, err))
    load_after = os.getloadavg()

    print(f"RNN cell tanh(W h + U x_t + b), hidden {HIDDEN}, input {INPUT}, {args.steps} steps")
    print(f"machine: {machine()}")
    print(
        f"load average (1/5/15 min): before {', '.join(f'{v:.2f}' for v in load_before)}; "
        f"after {', '.join(f'{v:.2f}' for v in load_after)}"
    )
    print()
    print(
        "| | forward, first call | forward, warm (median of "
        f"{args.repeat}) | gradient, first call | gradient, warm (median of {args.repeat}) "
        "| max rel. diff. from numpy |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name, f_first, f_warm, g_first, g_warm, err in results:
        print(
            f"| {name} | {_seconds(f_first)} | {_seconds(f_warm)} | {_seconds(g_first)} "
            f"| {_seconds(g_warm)} | {err:.1e} |"
        )


if __name__ == "__main__":
    main()
