"""Large graphs: deep chains and wide graphs build, rewrite, compile and run.

A chain tens of thousands of nodes deep is far beyond Python's recursion limit
(1,000 frames), so any recursive walk in graph building, the structural key,
rewriting, fusion or a backend shows up as ``RecursionError`` here. The
``slow`` tests take the sizes the issue names (200,000 nodes; 10,000 inputs
and 10,000 outputs); ``benchmarks/reliability/scale.py`` runs 1,000,000 nodes
and prints the time per node at each size to show it is linear.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

import lazygraph
import lazygraph.tensor as lt
from lazygraph.compile.cache import cached_function


def deep_chain(n_nodes: int) -> tuple[lt.TensorVariable, lt.TensorVariable, int]:
    """``x``, a chain of about ``n_nodes`` ops on it and its number of steps:
    each step is four elementwise ops (fused by the rewrites) and a ``cumsum``
    (which is not)."""
    x = lt.dvector("x")
    half, quarter = lt.as_tensor_variable(0.5), lt.as_tensor_variable(0.25)
    y = x
    steps = n_nodes // 5
    for _ in range(steps):
        y = lt.cumsum(lt.sin(y) * half + quarter) * quarter
    return x, y, steps


def deep_chain_numpy(x: np.ndarray, steps: int) -> np.ndarray:
    for _ in range(steps):
        x = np.cumsum(np.sin(x) * 0.5 + 0.25) * 0.25
    return x


def _check_deep(n_nodes: int) -> None:
    assert sys.getrecursionlimit() < n_nodes
    x, y, steps = deep_chain(n_nodes)
    data = np.linspace(-1.0, 1.0, 5)
    want = deep_chain_numpy(data, steps)
    f = lazygraph.function([x], y)
    np.testing.assert_allclose(f(data), want, rtol=1e-10)
    # The compile cache's structural key walks the whole graph too.
    g = cached_function([x], [y])
    np.testing.assert_allclose(g(data)[0], want, rtol=1e-10)


def test_deep_chain_compiles_without_recursion() -> None:
    _check_deep(5_000)


@pytest.mark.slow
def test_deep_chain_200k() -> None:
    _check_deep(200_000)


def _check_wide(n: int) -> None:
    xs = [lt.dscalar(f"x{i}") for i in range(n)]
    outs = [xs[i] * 2.0 + xs[(i + 1) % n] for i in range(n)]
    f = lazygraph.function(xs, outs)
    vals = np.random.default_rng(n).standard_normal(n)
    got = np.array([float(v) for v in f(*vals)])
    np.testing.assert_allclose(got, vals * 2.0 + np.roll(vals, -1), rtol=1e-15)


def test_many_inputs_and_outputs() -> None:
    _check_wide(2_000)


@pytest.mark.slow
def test_10k_inputs_and_10k_outputs() -> None:
    _check_wide(10_000)


def test_wide_reduction_of_many_inputs() -> None:
    """One output depending on thousands of inputs (a long ``add`` chain)."""
    n = 2_000
    xs = [lt.dscalar(f"x{i}") for i in range(n)]
    total = xs[0]
    for v in xs[1:]:
        total = total + v
    vals = np.random.default_rng(3).standard_normal(n)
    f = lazygraph.function(xs, total)
    np.testing.assert_allclose(float(f(*vals)), np.sum(vals), rtol=1e-9)
