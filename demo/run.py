"""The lazygraph demo: train a small classifier written as ordinary numpy code.

A two-layer tanh network learns to separate two interleaved spirals. The model
and its loss are written once against ``lazygraph.numpy`` (imported as ``np``,
so it reads as numpy); ``lazygraph.value_and_grad`` traces it on the first
call, derives the backward pass from per-Op gradient rules, rewrites the graph
and compiles it for the default backend (``lazygraph.config.backend``). Later
steps reuse the compiled function. Beside it, the same step written by hand in
plain numpy (forward *and* backward) checks the gradients and gives the timing
baseline.

``nox -s demo`` runs it (well under a minute); ``python demo/run.py --steps 50``
for a shorter run. It draws the rewritten graph as ``demo/out/step_graph.svg``
(no Graphviz needed) beside its Graphviz DOT source.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy

import lazygraph
import lazygraph.numpy as np
from lazygraph.compile.cache import cached_function
from lazygraph.graph import FunctionGraph, graph_inputs
from lazygraph.graph.basic import Constant
from lazygraph.printing import to_dot, to_svg
from lazygraph.rewriting.trace import trace_rewrites

OUT = Path(__file__).parent / "out"
NAMES = ("w1", "b1", "w2", "b2")


# -- the model, in lazygraph.numpy -------------------------------------------------


def loss(params: dict[str, Any], x: Any, y: Any) -> Any:
    """Mean cross-entropy of a tanh network: plain numpy code, run lazily."""
    h = np.tanh(x @ params["w1"] + params["b1"])
    logits = h @ params["w2"] + params["b2"]
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    return -np.mean(np.sum(y * log_probs, axis=1))


# -- the same step in plain numpy, backward pass by hand ---------------------------


def numpy_step(params: dict[str, Any], x: Any, y: Any) -> tuple[Any, dict[str, Any]]:
    """Loss and gradients, written by hand: what the user would otherwise maintain."""
    h = numpy.tanh(x @ params["w1"] + params["b1"])
    logits = h @ params["w2"] + params["b2"]
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - numpy.log(numpy.exp(shifted).sum(axis=1, keepdims=True))
    value = -numpy.mean(numpy.sum(y * log_probs, axis=1))
    dlogits = (numpy.exp(log_probs) - y) / x.shape[0]
    dh = (dlogits @ params["w2"].T) * (1 - h**2)
    grads = {
        "w1": x.T @ dh,
        "b1": dh.sum(axis=0),
        "w2": h.T @ dlogits,
        "b2": dlogits.sum(axis=0),
    }
    return value, grads


def spirals(n: int, rng: numpy.random.Generator) -> tuple[numpy.ndarray, numpy.ndarray]:
    """Two interleaved spirals: ``n`` points in 2-d and their one-hot labels."""
    t = numpy.sqrt(rng.uniform(0.05, 1.0, n)) * 3 * numpy.pi
    label = rng.integers(0, 2, n)
    sign = numpy.where(label == 0, 1.0, -1.0)
    xy = numpy.stack([sign * t * numpy.cos(t), sign * t * numpy.sin(t)], axis=1) / 10
    xy += rng.normal(scale=0.03, size=xy.shape)
    return xy, numpy.eye(2)[label]


def accuracy(params: dict[str, Any], x: numpy.ndarray, y: numpy.ndarray) -> float:
    h = numpy.tanh(x @ params["w1"] + params["b1"])
    return float(numpy.mean((h @ params["w2"] + params["b2"]).argmax(1) == y.argmax(1)))


def median_time(fn: Any, args: tuple[Any, ...], repeat: int = 30) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return float(numpy.median(times))


def wait_for_kernels(backend: str) -> float:
    """Seconds spent waiting for the numba backend's background compiles, so
    that the step timing below measures compiled kernels."""
    if backend != "numba":
        return 0.0
    from lazygraph.backends.numba import background

    start = time.perf_counter()
    background.wait()
    return time.perf_counter() - start


def graph_sizes(step: Any, params: dict[str, Any], x: Any, y: Any) -> tuple[int, Any]:
    """Nodes in the step's graph as written, and the rewritten graph.

    Called with lazy arrays, a transformed function returns the lazy graph it
    builds instead of running it; the compile cache then hands back the
    function the first (numpy) call compiled, with its rewritten graph.
    """
    lazy_params = {k: np.asarray(v) for k, v in params.items()}
    value, grads = step(lazy_params, np.asarray(x), np.asarray(y))
    outputs = [a.__lazygraph_variable__() for a in (value, *grads.values())]
    inputs = [v for v in graph_inputs(outputs) if not isinstance(v, Constant)]
    written = len(FunctionGraph(inputs, outputs, clone=True).apply_nodes)
    return written, cached_function(inputs, outputs).fgraph


def write_picture(fgraph: Any, out: Path) -> str:
    """Draw the graph as ``step_graph.svg`` (pure Python) and ``step_graph.dot``."""
    out.mkdir(parents=True, exist_ok=True)
    svg_path = out / "step_graph.svg"
    svg_path.write_text(to_svg(fgraph, title="one training step, rewritten"), encoding="utf-8")
    dot_path = out / "step_graph.dot"
    dot_path.write_text(to_dot(fgraph))
    return f"{svg_path} (DOT source for Graphviz: {dot_path})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300, help="training steps (300)")
    parser.add_argument("--points", type=int, default=1000, help="training points (1000)")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units (64)")
    parser.add_argument("--out", type=Path, default=OUT, help="where the graph picture goes")
    args = parser.parse_args(argv)

    rng = numpy.random.default_rng(0)
    x, y = spirals(args.points, rng)
    params = {
        "w1": rng.normal(scale=1.0, size=(2, args.hidden)),
        "b1": numpy.zeros(args.hidden),
        "w2": rng.normal(scale=1.0 / numpy.sqrt(args.hidden), size=(args.hidden, 2)),
        "b2": numpy.zeros(2),
    }
    backend = lazygraph.config.backend
    print(f"lazygraph demo: a {args.hidden}-unit tanh network on {args.points} spiral points")
    print(f"backend: {backend} (set LAZYGRAPH_BACKEND to change it)")

    step = lazygraph.value_and_grad(loss)
    t0 = time.perf_counter()
    with trace_rewrites() as fired:
        value, grads = step(params, x, y)  # the first call traces, rewrites, compiles
    compile_s = time.perf_counter() - t0
    written, rewritten = graph_sizes(step, params, x, y)
    if backend == "numba" and lazygraph.config.numba_background_compile:
        what = "trace + gradient + rewrite; numpy runs it while kernels compile in the background"
    else:
        what = "trace + gradient + rewrite + compile"
    print(f"first call ({what}): {compile_s:.2f} s")
    print(
        f"graph: {written} nodes as written (forward + gradients), "
        f"{len(rewritten.apply_nodes)} after rewriting"
    )
    counts = Counter(record.rewriter for record in fired)
    top = ", ".join(f"{name} x{n}" for name, n in counts.most_common(8)) or "none"
    more = f" and {len(counts) - 8} more" if len(counts) > 8 else ""
    print(f"rewrites that fired ({sum(counts.values())}): {top}{more}")

    ref_value, ref_grads = numpy_step(params, x, y)
    worst = max(float(numpy.max(numpy.abs(grads[k] - ref_grads[k]))) for k in NAMES)
    worst = max(worst, abs(float(value) - float(ref_value)))
    print(f"loss and gradients agree with the hand-written numpy step to {worst:.1e}")
    if worst > 1e-8:
        raise SystemExit("demo: lazygraph's gradients disagree with numpy's")

    # Adam, in plain numpy: the update is cheap; the graph computes loss and gradients.
    lr, beta1, beta2 = 0.03, 0.9, 0.999
    m = {k: numpy.zeros_like(p) for k, p in params.items()}
    v = {k: numpy.zeros_like(p) for k, p in params.items()}
    first_loss = last_loss = float(value)
    # jit: later calls skip tracing and go straight to the compiled function
    fast_step = lazygraph.jit(step)
    t_train = time.perf_counter()
    for i in range(1, args.steps + 1):
        value, grads = fast_step(params, x, y)
        last_loss = float(value)
        if i == 1 or i % max(1, args.steps // 10) == 0 or i == args.steps:
            print(f"  step {i:4d}  loss {last_loss:.4f}")
        for k, g in grads.items():
            m[k] = beta1 * m[k] + (1 - beta1) * g
            v[k] = beta2 * v[k] + (1 - beta2) * g * g
            m_hat, v_hat = m[k] / (1 - beta1**i), v[k] / (1 - beta2**i)
            params[k] = params[k] - lr * m_hat / (numpy.sqrt(v_hat) + 1e-8)
    train_s = time.perf_counter() - t_train
    acc = accuracy(params, x, y)
    print(f"training accuracy: {acc:.1%}")

    waited = wait_for_kernels(backend)
    if waited > 0.05:
        print(f"waited {waited:.1f} s for kernels still compiling in the background")
    t_lazy = median_time(fast_step, (params, x, y))
    t_numpy = median_time(numpy_step, (params, x, y))
    print(
        f"time per step: lazygraph ({backend}) {t_lazy * 1e3:.2f} ms, "
        f"hand-written numpy {t_numpy * 1e3:.2f} ms ({t_lazy / t_numpy:.2f}x numpy)"
    )
    picture = write_picture(rewritten, args.out)
    print(f"rewritten graph: {picture}")

    print()
    print("summary")
    print(f"  loss {first_loss:.4f} -> {last_loss:.4f} in {args.steps} steps ({train_s:.1f} s)")
    print(f"  accuracy {acc:.1%} (chance: 50%)")
    print(
        f"  graph {written} -> {len(rewritten.apply_nodes)} nodes; "
        f"{len(counts)} rewrites fired {sum(counts.values())} times"
    )
    print(f"  {t_lazy / t_numpy:.2f}x the time of hand-written numpy on the {backend} backend")


if __name__ == "__main__":
    main()
