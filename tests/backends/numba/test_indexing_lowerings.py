"""The Numba lowerings of the indexing and search ops against the python
backend (the reference): basic and advanced get / set / increment, ``take``,
``take_along_axis`` and its gradient, ``nonzero``, ``searchsorted`` and
``SliceLength``, on random data and indices, including out-of-bounds indices
(``IndexError`` on both backends), repeated indices, NaN and empty arrays.
Graph structures are fixed per test, so each compiles its kernels once."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.numba import cache as disk
from lazygraph.backends.numba.dispatch import kernel_module_source
from lazygraph.compile.mode import Mode
from lazygraph.tensor.advanced_subtensor import AdvancedIncSubtensor, IncAlongAxis
from lazygraph.tensor.subtensor import IncSubtensor

pytestmark = pytest.mark.backend("numba")

NUMBA = Mode(backend="numba")
PYTHON = Mode(backend="python")
FEW = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same(got: Any, want: Any) -> None:
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


def check(inputs: list[Any], outputs: Any, values: list[Any]) -> None:
    """Numba's result equals python's, or both raise the same exception type."""
    results = []
    for mode in (NUMBA, PYTHON):
        fn = lazygraph.function(inputs, outputs, mode=mode)
        try:
            result = fn(*[np.copy(v) for v in values])
            results.append(("ok", result if isinstance(outputs, list) else [result]))
        except (IndexError, ValueError) as exc:
            results.append(("error", type(exc)))
    (kind_n, got), (kind_p, want) = results
    assert kind_n == kind_p, (got, want)
    if kind_n == "ok":
        same(got, want)
    else:
        assert got is want


def matrix(dtype: str, max_side: int = 4) -> st.SearchStrategy[np.ndarray]:
    shape = st.tuples(st.integers(0, max_side), st.integers(0, max_side))
    if dtype.startswith("float"):
        elems = st.floats(allow_nan=True, allow_infinity=True, width=32)
    else:
        info = np.iinfo(dtype)
        elems = st.integers(int(info.min), int(info.max))
    return shape.flatmap(
        lambda s: st.lists(elems, min_size=s[0] * s[1], max_size=s[0] * s[1]).map(
            lambda v: np.array(v, dtype=dtype).reshape(s)
        )
    )


def index_array(n: int, size: int, dtype: str = "int64") -> st.SearchStrategy[np.ndarray]:
    """Index values reaching one past each end of an axis of size ``n``."""
    info = np.iinfo(dtype)
    lo, hi = max(-n - 1, int(info.min)), min(n, int(info.max))
    return st.lists(st.integers(lo, hi), min_size=size, max_size=size).map(
        lambda v: np.array(v, dtype=dtype)
    )


# -- basic indexing ---------------------------------------------------------------


@FEW
@given(x=matrix("float64"), i=st.integers(-5, 5), j=st.integers(-5, 5), data=st.data())
def test_subtensor_and_updates(x: np.ndarray, i: int, j: int, data: Any) -> None:
    xv = lt.dmatrix("x")
    iv, jv = lt.lscalar("i"), lt.lscalar("j")
    y = data.draw(st.sampled_from([np.float64(2.5), np.array([1.0, -0.0, np.nan, np.inf])]))
    yv = lt.tensor("float64", (None,) * y.ndim, "y")
    if y.ndim and x.shape[1] != 4:
        y = np.full(x.shape[1:], -1.5)
    outs = [
        xv[iv, jv:],
        xv[jv::-2, iv],
        lt.set_subtensor(xv[iv, :], yv),
        lt.inc_subtensor(xv[iv], yv),
        lt.inc_subtensor(xv[1:, None, :][:, 0], yv),
        lt.set_subtensor(xv[iv, jv], 7.0),
    ]
    for out in outs:
        check([xv, iv, jv, yv], out, [x, np.int64(i), np.int64(j), y])


@FEW
@given(x=matrix("int8"), y=st.floats(allow_nan=True, width=64), i=st.integers(-3, 3))
def test_set_subtensor_casts_like_numpy(x: np.ndarray, y: float, i: int) -> None:
    xv, yv, iv = lt.bmatrix("x"), lt.dscalar("y"), lt.lscalar("i")
    outs = [lt.set_subtensor(xv[iv:], yv), lt.inc_subtensor(xv[:, iv:], xv[:, iv:])]
    for out in outs:
        check([xv, yv, iv], out, [x, np.float64(y), np.int64(i)])


def _kernel(node: Any) -> Any:
    return disk.load_source(kernel_module_source(node)).kernel


@pytest.mark.parametrize("inplace", [False, True])
def test_inc_subtensor_honours_inplace(inplace: bool) -> None:
    x, y = lt.dmatrix("x"), lt.dvector("y")
    node = IncSubtensor(x[0].owner.op.idx_list, inplace=inplace).make_node(x, y)
    xv = np.zeros((2, 3))
    (out,) = _kernel(node)(xv, np.ones(3))
    assert np.shares_memory(out, xv) is inplace
    assert xv[0, 0] == (1.0 if inplace else 0.0)
    node = AdvancedIncSubtensor(x[[0, 0]].owner.op.idx_list, inplace=inplace).make_node(
        x, y, np.array([1, 1])
    )
    xv = np.zeros((2, 3))
    (out,) = _kernel(node)(xv, np.ones(3), np.array([1, 1]))
    assert np.shares_memory(out, xv) is inplace
    np.testing.assert_array_equal(out[1], [1.0, 1.0, 1.0])  # x[idx] += y: one increment


def test_subtensor_error_names_index_and_size() -> None:
    x, i = lt.dvector("x"), lt.lscalar("i")
    fn = lazygraph.function([x, i], x[i], mode=NUMBA)
    with pytest.raises(IndexError, match="index -4 is out of bounds for axis 0 with size 3"):
        fn(np.zeros(3), np.int64(-4))
    assert fn(np.arange(3.0), np.int64(-3)) == 0.0


@FEW
@given(n=st.integers(0, 6), a=st.integers(-8, 8), b=st.integers(-8, 8), c=st.integers(-3, 3))
def test_slice_length(n: int, a: int, b: int, c: int) -> None:
    nv, av, bv, cv = (lt.lscalar(s) for s in "nabc")
    out = lt.slice_length(nv, av, bv, cv)
    vals = [np.int64(n), np.int64(a), np.int64(b), np.int64(c or 1)]
    check([nv, av, bv, cv], out, vals)


# -- advanced indexing ------------------------------------------------------------


@FEW
@given(x=matrix("float64"), data=st.data())
def test_advanced_subtensor(x: np.ndarray, data: Any) -> None:
    xv = lt.dmatrix("x")
    iv, jv = lt.lvector("i"), lt.tensor("int32", (None,), "j")
    mv = lt.tensor("bool", (None,), "m")
    i = data.draw(index_array(x.shape[0], data.draw(st.integers(0, 3))))
    j = data.draw(index_array(x.shape[1], data.draw(st.sampled_from([1, len(i)])), "int32"))
    m = data.draw(st.lists(st.booleans(), min_size=x.shape[1], max_size=x.shape[1]))
    m = np.array(m, dtype=bool)
    outs = [xv[iv], xv[iv, jv], xv[iv, 1:], xv[1:, jv], xv[:, mv], xv[None, iv, ::-1]]
    for out in outs:
        check([xv, iv, jv, mv], out, [x, i, j, m])


@FEW
@given(x=matrix("float32"), data=st.data())
def test_advanced_updates(x: np.ndarray, data: Any) -> None:
    xv, iv, yv = lt.fmatrix("x"), lt.lvector("i"), lt.dvector("y")
    i = data.draw(index_array(x.shape[0], data.draw(st.integers(0, 4))))
    y = np.array(data.draw(st.lists(st.floats(-4, 4), min_size=1, max_size=1)) * x.shape[1])
    outs = [
        lt.set_subtensor(xv[iv], yv),
        lt.inc_subtensor(xv[iv], yv),
        lt.inc_subtensor(xv[iv], yv, ignore_duplicates=True),
        lt.inc_subtensor(xv[iv, ::2], 1.0),
    ]
    for out in outs:
        check([xv, iv, yv], out, [x, i, y])


@FEW
@given(x=matrix("int16"), data=st.data())
def test_take_and_along_axis(x: np.ndarray, data: Any) -> None:
    xv, iv = lt.tensor("int16", (None, None), "x"), lt.tensor("uint8", (None, None), "i")
    rows = data.draw(st.sampled_from([1, x.shape[0]]))
    n = x.shape[1]
    flat = data.draw(index_array(n + 1, rows * 2, "uint8")).reshape(rows, 2)
    y = lt.dmatrix("y")
    yval = np.full((max(rows, x.shape[0]), 2), 0.5) if rows == x.shape[0] else np.ones((1, 2))
    outs = [
        lt.take(xv, iv, axis=1),
        lt.take(xv, iv),
        lt.take_along_axis(xv, iv, axis=1),
        IncAlongAxis(1)(lt.cast(xv, "float64"), iv, y),
    ]
    for out in outs:
        check([xv, iv, y], out, [x, flat, yval])


# -- search -----------------------------------------------------------------------


@FEW
@given(x=matrix("float64"))
def test_nonzero(x: np.ndarray) -> None:
    xv = lt.dmatrix("x")
    check([xv], list(lt.nonzero(xv)), [x])
    check([xv], list(lt.nonzero(lt.cast(xv, "complex128") * 1j)), [x])


@FEW
@given(
    a=st.lists(st.floats(allow_nan=True, width=32), max_size=6),
    v=st.lists(st.floats(allow_nan=True, width=32), max_size=4),
    side=st.sampled_from(["left", "right"]),
)
def test_searchsorted(a: list[float], v: list[float], side: str) -> None:
    av, vv, sv = lt.dvector("a"), lt.fvector("v"), lt.lvector("s")
    a_arr = np.array(a, dtype=np.float64)
    sorter = np.argsort(a_arr)
    check([av, vv], lt.searchsorted(av, vv, side=side), [np.sort(a_arr), np.array(v, np.float32)])
    check(
        [av, vv, sv],
        lt.searchsorted(av, vv, side=side, sorter=sv),
        [a_arr, np.array(v, np.float32), sorter],
    )


def test_searchsorted_bad_sorter_raises() -> None:
    av, vv, sv = lt.dvector("a"), lt.dvector("v"), lt.lvector("s")
    fn = lazygraph.function([av, vv, sv], lt.searchsorted(av, vv, sorter=sv), mode=NUMBA)
    with pytest.raises(ValueError, match="sorter"):
        fn(np.zeros(3), np.zeros(2), np.array([0, 1, 5]))
