"""The dask lowerings of indexing with several arrays, advanced updates
(``x[idx] = y``, ``x[idx] += y``, ``np.add.at``), ``take``,
``take_along_axis``, ``sort`` / ``argsort``, ``roll``, ``flip`` and ``pad``,
against the python backend (numpy): chunks that do not divide the arrays,
negative, repeated and empty indices, 0-d arrays, NaN ties, gradients. Every
check runs with ``on_unsupported="raise"`` and asserts that each node of the
compiled graph lowers (no whole-array ``perform`` step)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("dask")
pytest.importorskip("numba")

import dask.array as da

import lazygraph
import lazygraph.tensor as lt
from lazygraph.compile.backends import lowering_of
from lazygraph.compile.mode import Mode
from lazygraph.tensor.advanced_subtensor import IncAlongAxis

pytestmark = [
    pytest.mark.filterwarnings("error::lazygraph.backends.dask.dispatch.DaskFallbackWarning"),
    pytest.mark.filterwarnings("ignore:Cannot cache compiled function"),
]

DASK = Mode(backend="dask")
PYTHON = Mode(backend="python")
RNG = np.random.default_rng(7)


def _dask_fn(inputs, outputs):
    f = lazygraph.function(inputs, outputs, mode=DASK)
    unlowered = {str(n.op): lowering_of(n, "dask") for n in f.fgraph.toposort()}
    assert not {op: why for op, why in unlowered.items() if why is not None}
    return f


def check(inputs, outputs, values, chunk_size=64):
    """The dask backend's results are the python backend's, exactly (these ops
    move elements, or add them in numpy's order), with every node lowered."""
    outputs = outputs if isinstance(outputs, list) else [outputs]
    want = lazygraph.function(inputs, outputs, mode=PYTHON)(*values)
    with lazygraph.config.change(dask_chunk_size=chunk_size, on_unsupported="raise"):
        got = _dask_fn(inputs, outputs)(*values)
    for g, w in zip(got, want, strict=True):
        assert isinstance(g, np.ndarray) and g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)
    return got


def raises_like_python(inputs, output, values, error):
    with pytest.raises(error):
        lazygraph.function(inputs, output, mode=PYTHON)(*values)
    with (
        lazygraph.config.change(dask_chunk_size=64, on_unsupported="raise"),
        pytest.raises(error),
    ):
        _dask_fn(inputs, output)(*values)


X3 = lt.dtensor3("x3")
XV3 = RNG.normal(size=(5, 6, 7))
M = lt.dmatrix("m")
MV = RNG.normal(size=(9, 7))
I, J = lt.lvector("i"), lt.lvector("j")
IV = np.array([0, -1, 3, 3, 1])  # negative and repeated
JV = np.array([5, 2, 2, -5, 2])  # (3, 2) twice in X3[I, :, J]
EMPTY = np.zeros(0, np.int64)

READS = {
    "two arrays": (lambda: X3[I, J], [IV, JV]),
    "arrays apart: dimensions first": (lambda: X3[I, :, J], [IV, JV]),
    "arrays together after a slice": (lambda: X3[:, I, J], [IV, JV]),
    "stepped slice and int": (lambda: X3[::-2, I, 4], [IV, JV]),
    "int apart from the array": (lambda: X3[-2, 1:5, J], [IV, JV]),
    "2-d broadcast with 1-d": (lambda: X3[lt.reshape(I, (5, 1)), J[:3]], [IV, JV]),
    "None between arrays": (lambda: X3[I, None, J], [IV, JV]),
    "ellipsis": (lambda: X3[..., I, J], [IV, JV]),
    "mask and array": (lambda: X3[np.arange(30).reshape(5, 6) % 6 == 1, J], [IV, JV]),
    "empty arrays": (lambda: X3[I, :, J], [EMPTY, EMPTY]),
    "0-d booleans": (lambda: [X3[np.True_, I], X3[..., np.False_]], [IV, JV]),
}


@pytest.mark.parametrize("name", READS)
def test_indexing_with_several_arrays_matches_numpy(name):
    build, idx = READS[name]
    out = build()
    check([X3, I, J], out if isinstance(out, list) else [out], [XV3, *idx])


def test_index_arrays_computed_from_the_data_and_unknown_sizes():
    # the rows kept by a mask have unknown sizes; the indices come from argsort
    kept = M[M[:, 0] > -0.5]
    order = lt.argsort(M[:, 1])[:3]
    check([M], [kept[order, lt.constant(np.array([1, -1, 1]))]], [MV])


def test_indexing_with_several_arrays_out_of_bounds_raises_index_error():
    raises_like_python([X3, I, J], X3[I, J], [XV3, np.array([0, 5]), np.array([0, 1])], IndexError)


UPDATES = {
    "set: last write wins": (lambda y: lt.set_subtensor(X3[I, :, J], y), (5, 6)),
    "inc like +=: last write wins": (
        lambda y: lt.inc_subtensor(X3[I, :, J], y, ignore_duplicates=True),
        (5, 6),
    ),
    "add.at: repeats accumulate": (lambda y: lt.inc_subtensor(X3[I, :, J], y), (5, 6)),
    "arrays together after a slice": (lambda y: lt.inc_subtensor(X3[1:4, I, J], y), (3, 5)),
    "negative step slice": (lambda y: lt.set_subtensor(X3[I, ::-2, J], y), (5, 3)),
    "one array among slices": (lambda y: lt.inc_subtensor(X3[:, I], y), (5, 5, 7)),
    "broadcast y with a leading 1": (lambda y: lt.set_subtensor(X3[I, 2, J], y), (1, 5)),
    "broadcast y": (lambda y: lt.inc_subtensor(X3[I, 2:, J], y), (1, 4)),
    "mask": (lambda y: lt.set_subtensor(X3[X3 > 0.5], y), ()),
    "None": (lambda y: lt.inc_subtensor(X3[None, I, J], y), (1, 5, 7)),
}


@pytest.mark.parametrize("name", UPDATES)
def test_advanced_updates_match_numpy(name):
    build, y_shape = UPDATES[name]
    y = lt.tensor("float64", (None,) * len(y_shape), "y")
    check([X3, y, I, J], [build(y)], [XV3, RNG.normal(size=y_shape), IV, JV])


def test_add_at_accumulates_in_numpys_order_across_chunks():
    # many repeats of few elements, y spread over several chunks: each element's
    # sum is added in the index's order, so it is numpy's to the last bit
    v, y = lt.dvector("v"), lt.dvector("y")
    idx = RNG.integers(-10, 10, size=200)
    values = RNG.normal(size=200) * 10.0 ** RNG.integers(-8, 8, size=200)
    (got,) = check([v, y, I], [lt.inc_subtensor(v[I], y)], [np.zeros(10), values, idx])
    want = np.zeros(10)
    np.add.at(want, idx, values)
    np.testing.assert_array_equal(got, want)


def test_updates_with_empty_indices_and_integer_arrays():
    y = lt.dvector("y")
    check([X3, y, I, J], [lt.inc_subtensor(X3[I, 1, J], y)], [XV3, np.zeros(0), EMPTY, EMPTY])
    k, ky = lt.lmatrix("k"), lt.lvector("ky")
    kv = np.arange(20).reshape(4, 5)
    got = check([k, ky, I], [lt.set_subtensor(k[I, I], ky)], [kv, np.array([7, 8]), IV[:2]])
    assert got[0][0, 0] == 7 and got[0][3, 4] == 8


def test_update_shape_mismatch_raises_like_numpy():
    y = lt.dvector("y")
    bad = [XV3, np.zeros(4), IV, JV]
    raises_like_python([X3, y, I, J], lt.set_subtensor(X3[I, 0, J], y), bad, ValueError)


def test_explicit_chunks_of_a_dask_input():
    y = lt.dmatrix("y")
    out = lt.inc_subtensor(X3[I, :, J], y)
    f = _dask_fn([X3, y, I, J], [out, X3[I, 1:, J]])
    f.trust_input = True
    yv = RNG.normal(size=(5, 6))
    with lazygraph.config.change(on_unsupported="raise"):
        got, read = f(da.from_array(XV3, chunks=(2, 4, 3)), da.from_array(yv, chunks=3), IV, JV)
    want = XV3.copy()
    np.add.at(want, (IV, slice(None), JV), yv)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(read, XV3[IV, 1:, JV])


def test_gradients_through_advanced_indexing_and_take():
    w = lt.dvector("w")
    loss = lt.sum(lt.sin(X3[I, :, J]) * lt.take(w, I)[:, None])
    grads = lazygraph.gradient.grad(loss, [X3, w])
    check([X3, w, I, J], grads, [XV3, RNG.normal(size=4), IV, JV])
    with lazygraph.config.change(dask_chunk_size=64, on_unsupported="raise"):
        lazygraph.gradient.verify_grad(
            lambda a: lt.take(a, np.array([[0, -1], [2, 2]]), axis=1) ** 2,
            [RNG.normal(size=(3, 4))],
            mode=DASK,
        )


TAKES = {
    "2-d indices, axis 1": (lambda: lt.take(X3, I2, axis=1), np.array([[0, -1], [5, 5]])),
    "flattened": (lambda: lt.take(X3, I2), np.array([[209, -210], [3, 3]])),
    "0-d index": (lambda: lt.take(X3, I2[0, 0], axis=2), np.array([[-1]])),
    "empty indices": (lambda: lt.take(X3, I2, axis=0), np.zeros((0, 2), np.int64)),
}
I2 = lt.lmatrix("i2")


@pytest.mark.parametrize("name", TAKES)
def test_take_matches_numpy(name):
    build, idx = TAKES[name]
    check([X3, I2], [build()], [XV3, idx])


def test_take_checks_bounds_as_numpy():
    raises_like_python([X3, I2], lt.take(X3, I2, axis=1), [XV3, np.array([[6]])], IndexError)
    # nothing taken before the axis: numpy checks nothing
    check([X3, I2], [lt.take(X3, I2, axis=1)], [np.zeros((0, 3, 2)), np.array([[9]])])


def test_take_along_axis_with_lazy_and_broadcast_indices():
    order = lt.argsort(M, axis=0)  # a dask array: stays lazy
    check([M], [lt.take_along_axis(M, order, axis=0), lt.take_along_axis(M, order[:2], 0)], [MV])
    check([M, I2], [lt.take_along_axis(M, I2, axis=1)], [MV, np.array([[0, -1, 3, 3]])])
    check([M, I], [lt.take_along_axis(M, I, axis=None)], [MV, IV * 7])
    g = lazygraph.gradient.grad(lt.sum(lt.take_along_axis(M, I2, axis=1) ** 2), M)
    check([M, I2], [g], [MV, RNG.integers(-7, 7, size=(9, 4))])


SORT_DATA = np.array(
    [[3.0, np.nan, 1.0, 3.0, -0.0, 0.0, np.nan, 1.0, 2.0]] * 2 + [[np.inf, 1.0] * 4 + [-np.inf]]
)
SORTS = {
    "sort axis -1": lambda: lt.sort(M),
    "sort axis 0": lambda: lt.sort(M, axis=0),
    "sort flattened": lambda: lt.sort(M, axis=None),
    "sort descending": lambda: lt.sort(M, descending=True),
    "argsort stable ties and NaNs": lambda: lt.argsort(M),
    "argsort descending": lambda: lt.argsort(M, axis=-1, descending=True),
    "argsort axis 0": lambda: lt.argsort(M, axis=0),
    "argsort flattened": lambda: lt.argsort(M, axis=None),
}


@pytest.mark.parametrize("name", SORTS)
def test_sort_and_argsort_match_numpy(name):
    check([M], [SORTS[name]()], [SORT_DATA], chunk_size=24)


def test_sort_of_0d_empty_integer_and_explicit_chunks():
    s, e, k = lt.dscalar("s"), lt.dmatrix("e"), lt.lmatrix("k")
    check([s], [lt.argsort(s), lt.sort(s, axis=None)], [np.array(2.5)])
    check([e], [lt.sort(e, axis=0), lt.argsort(e)], [np.zeros((0, 3))])
    check([k], [lt.sort(k, axis=0), lt.argsort(k, axis=0)], [RNG.integers(0, 3, size=(40, 3))])
    f = _dask_fn([M], [lt.argsort(M, axis=1)])
    f.trust_input = True
    data = RNG.integers(0, 4, size=(6, 50)).astype(float)
    with lazygraph.config.change(on_unsupported="raise"):
        (got,) = f(da.from_array(data, chunks=(4, 7)))
    np.testing.assert_array_equal(got, np.argsort(data, axis=1, kind="stable"))


def test_roll_and_flip_match_numpy():
    n = lt.lscalar("n")
    check(
        [X3, n],
        [
            lt.roll(X3, n, axis=1),
            lt.roll(X3, (9, -3), axis=(0, 2)),
            lt.roll(X3, 100),
            lt.flip(X3, 2),
        ],
        [XV3, np.array(-7)],
    )
    check([M, n], [lt.roll(M, n, axis=0)], [np.zeros((0, 2)), np.array(3)])


PADS = {
    "constant per-axis values": lambda: lt.pad(
        M, ((2, 1), (0, 3)), constant_values=[[1, 2], [3, 4]]
    ),
    "constant symbolic value": lambda: lt.pad(M, 2, constant_values=S),
    "edge": lambda: lt.pad(M, ((3, 0), (1, 2)), mode="edge"),
    "reflect wider than the axis": lambda: lt.pad(M, ((20, 11), (1, 15)), mode="reflect"),
    "symmetric wider than the axis": lambda: lt.pad(M, ((19, 2), (16, 0)), mode="symmetric"),
    "wrap wider than the axis": lambda: lt.pad(M, ((30, 10), (8, 7)), mode="wrap"),
}
S = lt.dscalar("s")
PER_AXIS = [[1, 2], [3, 4]]


@pytest.mark.parametrize("name", PADS)
def test_pad_matches_numpy_in_every_mode(name):
    check([M, S], [PADS[name]()], [MV, np.array(np.nan)])


def test_pad_casts_the_constant_as_numpy_and_pads_0d_and_empty():
    k, e, s = lt.lmatrix("k"), lt.dmatrix("e"), lt.dscalar("s")
    check([k, S], [lt.pad(k, 1, constant_values=S)], [np.ones((3, 4), np.int64), np.array(-2.7)])
    check(
        [s, e], [lt.pad(s, 2), lt.pad(e, 2, constant_values=5.0)], [np.array(1.0), np.zeros((0, 2))]
    )
    raises_like_python([e], lt.pad(e, 1, mode="wrap"), [np.zeros((0, 2))], ValueError)


def test_take_along_axis_gradient_over_broadcast_axes_accumulates_in_numpys_order():
    # the indices run over size-1 axes of the array: their entries add onto
    # one element, in the C order of the indices (numpy's np.add.at)
    row = lt.dmatrix("row")
    g = lazygraph.gradient.grad(lt.sum(lt.take_along_axis(row, I2, axis=1) ** 2), row)
    check([row, I2], [g], [RNG.normal(size=(1, 5)), np.array([[0, 4], [4, 4], [1, -1]])])
    i3, y3 = lt.ltensor3("i3"), lt.dtensor3("y3")
    spread = 10.0 ** RNG.integers(-8, 8, size=(4, 6, 3))  # sums that depend on the order
    for x_shape, axis in [((1, 5, 1), 1), ((4, 1, 3), 2), ((1, 1, 3), 0)]:
        x = lt.tensor("float64", (None,) * 3, "x")
        n = x_shape[axis]
        shape = list(spread.shape)
        shape[axis] = 7
        idx = RNG.integers(-n, n, size=shape)
        y = RNG.normal(size=idx.shape) * np.resize(spread, idx.shape)
        out = IncAlongAxis(axis)(x, i3, y3)
        check([x, i3, y3], [out], [RNG.normal(size=x_shape), idx, y], chunk_size=48)


@pytest.mark.parametrize(
    "key",
    [
        (0, Ellipsis, slice(-2, None, -2), 0),  # start before the axis, step < 0: empty
        (slice(-9, None, -1),),
        (slice(None), slice(9, -9, -2)),
        (Ellipsis, slice(-3, None, -3)),
        (slice(None, None, -2), None, slice(1, None, 3)),
        (slice(4, 0, -1), 2, slice(-1, -8, -2)),
    ],
)
def test_basic_slices_with_negative_steps(key):
    """Slices are resolved against their axis before dask reads them (dask
    takes ``[-2::-2]`` of a one-element axis as that element; numpy, nothing)."""
    values = [np.arange(6.0).reshape(3, 1, 2) if key[0] == 0 else XV3]
    check([X3], [X3[key]], values, chunk_size=8)
    check([X3], [X3[key] * 2.0], values, chunk_size=16)
