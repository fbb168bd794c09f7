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


@pytest.mark.parametrize("same_constants", [True, False])
def test_segments_of_the_same_structure_share_one_program(monkeypatch, same_constants):
    # an unrolled loop cut into segments of one iteration each: jax traces and
    # XLA compiles one program for all of them, unless their constants differ
    monkeypatch.setattr(linker, "MAX_SEGMENT_NODES", 5)
    backend.clear_cache()
    x, y = lt.dvector("x"), lt.dvector("y")
    a = x
    steps = 8
    for k in range(steps):  # five nodes per iteration, not rewritten
        a = lt.tanh(lt.sin(a) * 0.5 + y) * (0.25 if same_constants else 0.25 + k)
    values = [np.linspace(-1, 1, 7), np.linspace(0, 2, 7)]
    fgraph = FunctionGraph([x, y], [a], clone=True)
    fn = backend.compile(fgraph)
    jitted = [seg for seg in fn.segments if seg.steps]
    assert len(jitted) == steps
    programs = {id(seg.jitted) for seg in jitted}
    assert len(programs) == (1 if same_constants else steps)
    want = lazygraph.function([x, y], [a], mode=Mode(backend="python"))(*values)
    np.testing.assert_allclose(fn(*values)[0], want[0], rtol=1e-12)
