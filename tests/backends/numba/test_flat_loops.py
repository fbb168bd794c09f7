"""The numba backend's flat elementwise loops (lazygraph.backends.numba.flat)
against numpy and against the exact kernels: every rank, broadcast pattern,
layout and writability through one compiled loop per (op, dtypes)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

pytest.importorskip("numba")

from tests.tensor.harness import arrays, assert_numpy_equal

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.numba import flat
from lazygraph.compile.mode import NO_REWRITES, Mode
from lazygraph.configuration import config
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.scalar.basic import scalar_op

pytestmark = pytest.mark.backend("numba")

NUMBA = Mode(backend="numba")
RAW = Mode(backend="numba", query=NO_REWRITES.query)


def _layout(value: np.ndarray, how: int) -> np.ndarray:
    """``value`` in another memory layout, same contents: C, Fortran, reversed
    last axis, a strided slice of a larger array, read-only."""
    if how == 1:
        return np.asfortranarray(value)
    if how == 2 and value.ndim:
        return np.flip(np.flip(value, -1).copy(), -1)
    if how == 3 and value.ndim:
        big = np.zeros((*value.shape[:-1], 2 * value.shape[-1]), value.dtype)
        big[..., ::2] = value
        return big[..., ::2]
    if how == 4:
        ro = value.copy()
        ro.flags.writeable = False
        return ro
    return value


@st.composite
def operands(draw):
    shapes = draw(
        hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=5, max_side=3)
    )
    x = draw(arrays("float64", shapes.input_shapes[0]))
    y = draw(arrays("int16", shapes.input_shapes[1]))
    how = draw(st.tuples(st.integers(0, 4), st.integers(0, 4)))
    return _layout(x, how[0]), _layout(y, how[1])


@settings(max_examples=60, deadline=None)
@given(values=operands())
def test_every_rank_layout_and_broadcast_matches_numpy_with_one_compiled_loop(values):
    x = lt.tensor("float64", (None,) * values[0].ndim)
    y = lt.tensor("int16", (None,) * values[1].ndim)
    outs = [x * y - 1.5, lt.maximum(x, y) / (y + 2)]
    with np.errstate(all="ignore"):
        got = lazygraph.function([x, y], outs, mode=NUMBA)(*values)
        want = [values[0] * values[1] - 1.5, np.maximum(*values) / (values[1] + 2)]
    for g, w in zip(got, want, strict=True):
        assert_numpy_equal(g, w)
    assert any(key[1] == ("float64", "int16") for key in flat._loops), "no flat loop ran"
    _only_declared_signatures()


def _only_declared_signatures() -> None:
    """Every flat loop's dispatcher holds code for the signatures its loops
    declare and nothing else: no rank, layout or writability reached Numba.
    (Loops with the same source text share a dispatcher: a bool and an int8
    sum into int64 read the same.)"""
    declared: dict[int, tuple[object, set[object]]] = {}
    for loop in flat._loops.values():
        declared.setdefault(id(loop.fn), (loop.fn, set()))[1].add(loop.sig)
    for fn, sigs in declared.values():
        assert set(fn.overloads) <= sigs, (set(fn.overloads), sigs)


@pytest.mark.parametrize("limit", [0, 1 << 20], ids=["exact", "flat"])
def test_flat_loops_and_exact_kernels_agree(limit):
    x, y = lt.tensor("float64", (None, None, None)), lt.tensor("float32", (None, 1))
    outs = [lt.exp(x) * y + lt.sqrt(lt.abs(x)), lt.where(x > y, x, -y)]
    rng = np.random.default_rng(3)
    a = rng.normal(size=(2, 3, 4))
    a[0, 0, :2] = [np.nan, -0.0]
    b = rng.normal(size=(3, 1)).astype("float32")
    with config.change(numba_flat_max_elements=limit):
        got = lazygraph.function([x, y], outs, mode=NUMBA)(a, b)
    want = lazygraph.function([x, y], outs, mode=Mode(backend="python"))(a, b)
    for g, w in zip(got, want, strict=True):
        assert_numpy_equal(g, w)


def test_broadcast_mismatch_names_the_op_and_shapes():
    x, y = lt.tensor("float64", (None, None)), lt.tensor("float64", (None,))
    fn = lazygraph.function([x, y], x + y, mode=NUMBA)
    with pytest.raises(ValueError, match=r"add.*broadcast.*\(2, 3\) \(4,\)"):
        fn(np.zeros((2, 3)), np.zeros(4))


def test_inplace_output_writes_into_its_input_buffer():
    x, y = lt.tensor("float64", (None, None)), lt.tensor("float64", (None,))
    out = Elemwise(scalar_op("add"), {0: 0})(x, y)
    fn = lazygraph.function([x, y], out, mode=RAW)
    a, b = np.arange(6.0).reshape(2, 3), np.ones(3)
    result = fn.fn(a, b)[0]  # the backend callable, without input copies
    assert result is a
    assert_numpy_equal(a, np.arange(6.0).reshape(2, 3) + 1)
    # a read-only or non-contiguous target takes the exact kernel
    ro = np.arange(6.0).reshape(3, 2).T
    assert_numpy_equal(fn.fn(ro, b)[0], np.arange(6.0).reshape(3, 2).T + 1)


def test_large_inputs_take_the_exact_kernel(monkeypatch):
    sizes = []
    run = flat.FlatLoop.run

    def counted(self, values, limit):
        outs = run(self, values, limit)
        if outs is not None:
            sizes.append(values[0].size)
        return outs

    monkeypatch.setattr(flat.FlatLoop, "run", counted)
    x = lt.tensor("float64", (None,))
    fn = lazygraph.function([x], x * 3.0 - 1.0, mode=NUMBA)
    for size in (10, config.numba_flat_max_elements):
        v = np.arange(float(size))
        assert_numpy_equal(fn(v), v * 3.0 - 1.0)
    assert sizes == [10]


# -- reductions ---------------------------------------------------------------------


def _reduction_input(dtype: str) -> np.ndarray:
    rng = np.random.default_rng(5)
    if dtype == "bool":
        return rng.random((3, 4, 5)) < 0.5
    values = (rng.normal(size=(3, 4, 5)) * 50).astype(dtype)
    if dtype == "complex128":
        values = values + 1j * values[::-1]
    if dtype.startswith("float"):
        values[0, 1, 2], values[1, 2, 3], values[2, 0, 0] = np.nan, -0.0, np.inf
    return values


@pytest.mark.parametrize("dtype", ["float64", "int8", "complex128", "bool"])
@pytest.mark.parametrize("kind", ["sum", "max", "mean", "any"])
@pytest.mark.parametrize(("axis", "keepdims"), [((1,), False), ((0, 2), True), (None, False)])
def test_flat_reductions_agree_with_exact_kernels_to_the_bit(dtype, kind, axis, keepdims):
    """Same folding order as the exact kernel: sums agree to the bit, NaN and
    signed zeros as the exact kernel gives them, integer sums wrap alike."""
    x = lt.tensor(dtype, (None, None, None))
    out = getattr(lt, kind)(x, axis=axis, keepdims=keepdims)
    value = _reduction_input(dtype)
    results = []
    for limit in (0, 1 << 20):
        with config.change(numba_flat_max_elements=limit), np.errstate(all="ignore"):
            results.append(lazygraph.function([x], out, mode=NUMBA)(value))
    exact, flat_result = results
    assert flat_result.shape == exact.shape and flat_result.dtype == exact.dtype
    np.testing.assert_array_equal(flat_result, exact, strict=True)
    assert np.array_equal(np.signbit(flat_result.real), np.signbit(exact.real))


@settings(max_examples=40, deadline=None)
@given(
    value=arrays("float64", hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=3)),
    data=st.data(),
)
def test_flat_reductions_of_every_rank_and_axis_set_match_the_reference(value, data):
    axis = tuple(
        data.draw(
            st.lists(st.integers(0, max(value.ndim - 1, 0)), unique=True, max_size=value.ndim)
        )
    )
    kind = data.draw(st.sampled_from(["sum", "prod", "max", "min", "all", "mean"]))
    keepdims = data.draw(st.booleans())
    x = lt.tensor("float64", (None,) * value.ndim)
    out = getattr(lt, kind)(x, axis=axis, keepdims=keepdims)
    results = []
    for mode in (NUMBA, Mode(backend="python")):
        try:
            with np.errstate(all="ignore"):
                results.append(lazygraph.function([x], out, mode=mode)(value))
        except ValueError as exc:
            results.append(type(exc))
    got, want = results
    if isinstance(want, type):
        assert got is want
    else:
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-300, equal_nan=True, strict=True)
    _only_declared_signatures()
