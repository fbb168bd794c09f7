"""Long graphs are compiled as several XLA programs of at most
``MAX_SEGMENT_NODES`` nodes each (one program of a 200,000-node chain took more
than 24 GB to compile); the pieces hand values to each other and give the
python backend's results."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.jax import backend, linker
from lazygraph.compile.mode import Mode
from lazygraph.graph.fg import FunctionGraph


@pytest.mark.parametrize("limit", [1, 3, 7, 10_000])
def test_long_graphs_split_into_programs_that_agree(monkeypatch, limit):
    monkeypatch.setattr(linker, "MAX_SEGMENT_NODES", limit)
    backend.clear_cache()  # programs are cached by structure, whatever the limit
    x, y = lt.dvector("x"), lt.dvector("y")
    a = x
    for k in range(6):  # the graph is not rewritten: one node per op
        a = lt.tanh(lt.sin(a) * 0.5 + y) * 0.25 + k
    outs = [a, lt.sum(a * y), lt.exp(x)]
    values = [np.linspace(-1, 1, 7), np.linspace(0, 2, 7)]
    fgraph = FunctionGraph([x, y], outs, clone=True)
    fn = backend.compile(fgraph)
    n_nodes = len(fgraph.apply_nodes)
    jitted = [seg for seg in fn.segments if seg.steps]
    if limit < n_nodes:
        assert len(jitted) >= -(-n_nodes // limit)
        assert all(len(seg.steps) <= limit for seg in jitted)
    else:
        assert len(jitted) == 1
    want = lazygraph.function([x, y], outs, mode=Mode(backend="python"))(*values)
    for got, expected in zip(fn(*values), want, strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-12)
