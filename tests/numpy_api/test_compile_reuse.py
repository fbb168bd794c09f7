"""Loops over arrays that are recorded (not computed at once) compile once.

A program that steps through an array with a Python ``int`` (``u[t + 1] =
f(u[t])``) or builds small arrays from scalars it read (``np.array([dS, dI])``)
records graphs that differ only in those values from one step to the next. The
positions and such data are graph inputs, so each step's graph is the same
graph and the compiled function is reused; literals written in the program and
the bounds of slices (which decide shapes) stay constants, and inside a traced
function integer positions stay constants too.
"""

from __future__ import annotations

import numpy as np
import pytest

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.compile import cache
from lazygraph.numpy._convert import is_bound


@pytest.fixture(autouse=True)
def _graph_mode():
    with lazygraph.config.change(eager_max_elements=0):
        yield


def _compiles() -> int:
    return cache.stats().compiles


def _stencil(np_, u, t):
    u[t + 1] = u[t] + 0.1 * (np_.roll(u[t], 1) - 2 * u[t] + np_.roll(u[t], -1))


def test_a_loop_indexed_by_its_step_compiles_once() -> None:
    steps, n = 24, 50
    x0 = np.sin(np.linspace(0.0, 3.0, n))
    want = np.zeros((steps, n))
    want[0] = x0
    u = lnp.zeros((steps, n))
    u[0] = x0
    for t in range(steps - 1):
        _stencil(np, want, t)
        _stencil(lnp, u, t)
        np.testing.assert_allclose(float(u[t + 1].sum()), want[t + 1].sum(), rtol=1e-12)
        if t == 3:
            before = _compiles()
    # every step after the first ones is the same graph
    assert _compiles() == before
    np.testing.assert_allclose(u.compute(), want, rtol=1e-12, atol=1e-15)


def test_reads_of_a_loop_step_compile_once() -> None:
    sir = lnp.zeros((12, 3))
    sir[0] = [999.0, 1.0, 0.0]
    want = np.zeros((12, 3))
    want[0] = [999.0, 1.0, 0.0]
    counts = []
    for t in range(11):
        for np_, a in ((np, want), (lnp, sir)):
            s, i, _ = a[t]  # numpy scalars
            new_inf = 0.4 * s * i / 1000.0
            a[t + 1] = a[t] + np_.array([-new_inf, new_inf - 0.1 * i, 0.1 * i])
        counts.append(_compiles())
    assert counts[-1] == counts[2]
    np.testing.assert_allclose(sir.compute(), want, rtol=1e-12)


def test_positions_are_checked_at_the_call() -> None:
    u = lnp.zeros((3, 4))
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        u[3]
    with pytest.raises(IndexError, match="out of bounds for axis 1 with size 4"):
        u[0, -5] = 1.0
    u[-1, -1] = 7.0
    u[..., 0, None]  # (positions after an ellipsis and with new axes)
    assert float(u[2, 3]) == 7.0 and float(u[-1][-1]) == 7.0
    assert u[..., -1, None].compute().tolist() == [[0.0], [0.0], [7.0]]


def test_numpy_scalars_are_data_and_python_numbers_literals() -> None:
    from lazygraph.numpy._convert import as_variable

    assert not is_bound(as_variable([1.0, 2.0]))
    assert is_bound(as_variable([np.float64(1.0), 2.0]))
    assert is_bound(lnp.array([np.float32(1.0), 2.0])._var)
    assert not is_bound(lnp.array([1.0, 2.0])._var)
    assert lnp.array([np.float32(1.0), 2.0]).dtype == np.array([np.float32(1.0), 2.0]).dtype


def test_a_traced_function_keeps_positions_constant() -> None:
    @lazygraph.jit
    def last_row_sum(x):
        return x[-1].sum() + x[0, 1]

    x = np.arange(12.0).reshape(3, 4)
    assert float(last_row_sum(x)) == float(x[-1].sum() + x[0, 1])
    fgraph = last_row_sum.__lazygraph_fgraph__()
    assert len(fgraph.inputs) == 1  # the argument only: no position among them


def test_a_graph_for_function_keeps_positions_constant() -> None:
    import lazygraph.tensor as lt

    x = lt.dmatrix("x")
    y = lnp.asarray(lt.tensor("float64", (3, 4), "y"))
    total = y[1].sum() + lnp.asarray(x)[0, 0]
    f = lazygraph.function([x, y._var], total._var)
    a, b = np.ones((2, 2)), np.arange(12.0).reshape(3, 4)
    assert float(f(a, b)) == 1.0 + b[1].sum()


def test_float_literals_that_change_are_inputs_and_rewritten_ones_constants() -> None:
    x = lnp.asarray(np.linspace(0.0, 1.0, 40))
    counts = []
    for t in range(1, 8):
        p = 0.013 * t  # a new float every step
        got = (lnp.sin(x) * p < p / 2).compute()
        np.testing.assert_array_equal(got, np.sin(np.linspace(0.0, 1.0, 40)) * p < p / 2)
        counts.append(_compiles())
    assert counts[-1] == counts[1]
    # log(1 + x) is still rewritten to log1p: the 1 stays a constant
    tiny = lnp.asarray(np.full(3, 1e-20))
    assert (lnp.log(1.0 + tiny)).compute().tolist() == [1e-20] * 3
