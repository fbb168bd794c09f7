"""The lazygraph demo: train a small classifier with a graph built by lazygraph.

A two-layer tanh network learns to separate two interleaved spirals. The
forward pass is written once with ``lazygraph.tensor``; ``lazygraph.gradient.grad``
derives the backward pass from per-Op gradient rules; ``lazygraph.function``
rewrites the graph and compiles it for the default backend. Beside it, the same
step written by hand in numpy checks the gradients and gives the timing baseline.

``nox -s demo`` runs it (about ten seconds); ``python demo/run.py --steps 50``
for a shorter run. It writes the rewritten graph as Graphviz DOT (and PNG when
the ``dot`` program is installed) under ``demo/out/``.
"""

from __future__ import annotations

import argparse
import shutil
import time
from collections import Counter
from pathlib import Path

import numpy as np

import lazygraph
import lazygraph.tensor as lt
from lazygraph.compile.mode import Mode
from lazygraph.gradient import grad
from lazygraph.graph import FunctionGraph
from lazygraph.printing import render, to_dot
from lazygraph.rewriting import trace_rewrites

OUT = Path(__file__).parent / "out"


def spirals(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Two interleaved spirals: ``n`` points in 2-d and their one-hot labels."""
    t = np.sqrt(rng.uniform(0.05, 1.0, n)) * 3 * np.pi
    label = rng.integers(0, 2, n)
    sign = np.where(label == 0, 1.0, -1.0)
    xy = np.stack([sign * t * np.cos(t), sign * t * np.sin(t)], axis=1) / 10
    xy += rng.normal(scale=0.03, size=xy.shape)
    return xy, np.eye(2)[label]


def build_step(hidden: int) -> tuple[list, list]:
    """The graph of one training step: loss and gradients of the four parameters."""
    x, y = lt.dmatrix("x"), lt.dmatrix("y")
    w1, b1 = lt.dmatrix("w1"), lt.dvector("b1")
    w2, b2 = lt.dmatrix("w2"), lt.dvector("b2")
    h = lt.tanh(x @ w1 + b1)
    logits = h @ w2 + b2
    log_probs = logits - lt.logsumexp(logits, axis=1, keepdims=True)
    loss = -lt.mean(lt.sum(y * log_probs, axis=1))
    params = [w1, b1, w2, b2]
    return [x, y, *params], [loss, *grad(loss, params)]


def numpy_step(x, y, w1, b1, w2, b2):
    """The same step written by hand: what the user would otherwise maintain."""
    h = np.tanh(x @ w1 + b1)
    logits = h @ w2 + b2
    m = logits.max(axis=1, keepdims=True)
    lse = m + np.log(np.exp(logits - m).sum(axis=1, keepdims=True))
    log_probs = logits - lse
    n = x.shape[0]
    loss = -np.mean(np.sum(y * log_probs, axis=1))
    dlogits = (np.exp(log_probs) - y) / n
    dw2, db2 = h.T @ dlogits, dlogits.sum(axis=0)
    dh = (dlogits @ w2.T) * (1 - h**2)
    dw1, db1 = x.T @ dh, dh.sum(axis=0)
    return [loss, dw1, db1, dw2, db2]


def median_time(fn, args, repeat: int = 30) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--points", type=int, default=1000)
    parser.add_argument("--hidden", type=int, default=64)
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    x, y = spirals(args.points, rng)
    params = [
        rng.normal(scale=1.0, size=(2, args.hidden)),
        np.zeros(args.hidden),
        rng.normal(scale=1.0 / np.sqrt(args.hidden), size=(args.hidden, 2)),
        np.zeros(2),
    ]

    inputs, outputs = build_step(args.hidden)
    before = FunctionGraph(inputs, outputs)
    mode = Mode()
    backend = mode.backend or lazygraph.config.backend
    t0 = time.perf_counter()
    with trace_rewrites() as fired:
        step = lazygraph.function(inputs, outputs, mode=mode)
    compile_s = time.perf_counter() - t0

    print(f"lazygraph demo: a {args.hidden}-unit tanh network on {args.points} spiral points")
    print(f"backend: {backend}; compiled in {compile_s:.2f} s")
    print(
        f"graph: {len(before.apply_nodes)} nodes as written (forward + gradients), "
        f"{len(step.fgraph.apply_nodes)} after rewriting"
    )
    counts = Counter(record.rewriter for record in fired)
    summary = ", ".join(f"{name} ×{n}" for name, n in counts.most_common()) or "none"
    print(f"rewrites that fired: {summary}")

    ours = step(x, y, *params)
    theirs = numpy_step(x, y, *params)
    worst = max(float(np.max(np.abs(a - b))) for a, b in zip(ours, theirs, strict=True))
    print(f"gradients agree with the hand-written numpy step to {worst:.1e}")
    if worst > 1e-8:
        raise SystemExit("demo: lazygraph's gradients disagree with numpy's")

    # Adam, in numpy: the update is cheap; the graph computes loss and gradients.
    lr, beta1, beta2 = 0.03, 0.9, 0.999
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    for i in range(1, args.steps + 1):
        loss, *grads = step(x, y, *params)
        if i == 1 or i % max(1, args.steps // 10) == 0:
            print(f"  step {i:4d}  loss {float(loss):.4f}")
        for j, g in enumerate(grads):
            m[j] = beta1 * m[j] + (1 - beta1) * g
            v[j] = beta2 * v[j] + (1 - beta2) * g * g
            m_hat, v_hat = m[j] / (1 - beta1**i), v[j] / (1 - beta2**i)
            params[j] = params[j] - lr * m_hat / (np.sqrt(v_hat) + 1e-8)

    h = np.tanh(x @ params[0] + params[1])
    accuracy = float(np.mean((h @ params[2] + params[3]).argmax(1) == y.argmax(1)))
    print(f"training accuracy: {accuracy:.1%}")

    t_lazy = median_time(step, (x, y, *params))
    t_numpy = median_time(numpy_step, (x, y, *params))
    print(
        f"time per step: lazygraph ({backend}) {t_lazy * 1e3:.2f} ms, "
        f"hand-written numpy {t_numpy * 1e3:.2f} ms ({t_lazy / t_numpy:.2f}× numpy)"
    )

    OUT.mkdir(exist_ok=True)
    dot_path = OUT / "step_graph.dot"
    dot_path.write_text(to_dot(step))
    print(f"rewritten graph written to {dot_path}")
    if shutil.which("dot"):
        print(f"  and rendered to {render(step, OUT / 'step_graph.png')}")
    else:
        print("  (install Graphviz for a PNG: the `dot` program was not found)")


if __name__ == "__main__":
    main()
