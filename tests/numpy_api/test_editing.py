"""lazygraph.numpy's editing functions (``delete``, ``insert``, ``resize``,
``choose``, ``compress``, ``trim_zeros``, ``ediff1d``, ``piecewise``,
``apply_along_axis``, ``apply_over_axes``, ``block``) and the layout and value
checks (``require``, ``asfortranarray``, ``isfortran``, ``may_share_memory``,
``shares_memory``, ``asarray_chkfinite``, ``real_if_close``) against numpy on
hypothesis-drawn inputs: 0-d and empty arrays, negative and out-of-bounds
indices, every mode and axis, bool/int/float/complex dtypes, numpy's error
types; the array arguments given as numpy data, known lazy arrays and pending
lazy arrays (graph nodes); what stays lazy; and ``verify_grad`` through the
differentiable ones."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.gradient import verify_grad
from lazygraph.numpy._convert import as_variable, wrap
from tests.numpy_api.namespace_harness import check
from tests.tensor.harness import arrays, shapes

DTYPES = ("bool", "int8", "int64", "uint8", "float32", "float64", "complex128")
HOWS = ("numpy", "known", "pending")
EXAMPLES = 40


def pending(value: Any) -> lnp.Array:
    """``value`` as a lazy array whose value is not known yet (a graph node)."""
    with lazygraph.config.change(eager_max_elements=0):
        return wrap(lt.copy(as_variable(np.asarray(value))))


def as_how(value: Any, how: str) -> Any:
    """A numpy array argument as the lazy call gets it: as is, known, or pending."""
    if not isinstance(value, np.ndarray) or how == "numpy":
        return value
    return lnp.asarray(value) if how == "known" else pending(value)


def check_as(name: str, how: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """``check`` of ``lnp.<name>`` (array arguments given ``how``) against numpy."""
    lazy_args = tuple(as_how(a, how) for a in args)
    lazy_kwargs = {k: as_how(v, how) for k, v in kwargs.items()}
    check(
        lambda *_, **__: getattr(lnp, name)(*lazy_args, **lazy_kwargs),
        getattr(np, name),
        *args,
        **kwargs,
    )


def _x(
    data: st.DataObject, min_dims: int = 0, max_dims: int = 3, dtypes: Any = DTYPES
) -> np.ndarray:
    dtype = data.draw(st.sampled_from(dtypes), label="dtype")
    shape = data.draw(shapes(min_dims=min_dims, max_dims=max_dims), label="shape")
    return data.draw(arrays(dtype, shape), label="x")


def _axis(data: st.DataObject, ndim: int) -> Any:
    return data.draw(st.one_of(st.none(), st.integers(-ndim - 1, ndim)), label="axis")


def _axis_len(x: np.ndarray, axis: Any) -> int:
    if axis is None:
        return x.size
    return x.shape[axis] if -x.ndim <= axis < x.ndim else 1


def _index_obj(data: st.DataObject, n: int, extra: int = 0) -> Any:
    """An index argument of ``delete``/``insert`` along an axis of size ``n``."""
    ints = st.integers(-n - 1, n + extra)
    return data.draw(
        st.one_of(
            ints,
            st.lists(ints, max_size=4),
            st.builds(
                slice,
                st.none() | st.integers(-5, 5),
                st.none() | st.integers(-5, 5),
                st.sampled_from([None, 1, 2, -1, -2]),
            ),
            st.lists(st.booleans(), min_size=n, max_size=n).map(lambda b: np.array(b, dtype=bool)),
            st.lists(ints, min_size=1, max_size=3).map(lambda v: np.array(v, dtype=np.int64)),
            st.just(np.array([1.0])),
            st.just(np.array([True, False])),
        ),
        label="obj",
    )


# -- the table ----------------------------------------------------------------------------


def _delete(data: st.DataObject) -> Any:
    x = _x(data)
    axis = _axis(data, x.ndim)
    return (x, _index_obj(data, _axis_len(x, axis)), axis), {}


def _insert(data: st.DataObject) -> Any:
    x = _x(data, max_dims=2)
    axis = _axis(data, x.ndim)
    n = _axis_len(x, axis)
    obj = _index_obj(data, n, extra=1)
    values = data.draw(
        st.one_of(
            st.integers(-3, 3),
            st.floats(-3, 3),
            st.lists(st.integers(-3, 3), max_size=3),
            st.sampled_from(DTYPES).flatmap(
                lambda d: arrays(d, shapes(max_dims=2, max_side=3), min_value=-100, max_value=100)
            ),
        ),
        label="values",
    )
    return (x, obj, values, axis), {}


def _resize(data: st.DataObject) -> Any:
    x = _x(data)
    shape = data.draw(
        st.one_of(st.integers(-1, 7), st.lists(st.integers(0, 4), max_size=3).map(tuple)),
        label="new",
    )
    return (x, shape), {}


def _choose(data: st.DataObject) -> Any:
    n = data.draw(st.integers(0, 3), label="n")
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]), label="mode")
    shape = data.draw(shapes(max_dims=2, max_side=3), label="shape")
    dtype = data.draw(
        st.sampled_from(["int64", "int8", "uint8", "bool", "float64"]), label="idx_dtype"
    )
    low = -1 if dtype in ("int64", "int8") else 0
    a = data.draw(
        arrays(dtype, shape, min_value=low, max_value=n + 1)
        if dtype != "bool"
        else arrays(dtype, shape)
    )
    if mode == "raise" and data.draw(st.booleans()):
        a = np.clip(a, 0, max(n - 1, 0)).astype(a.dtype)  # mostly valid
    choices = []
    for _ in range(n):
        d = data.draw(st.sampled_from(DTYPES))
        choices.append(data.draw(st.one_of(arrays(d, shape), st.integers(-5, 5), st.floats(-5, 5))))
    return (a, choices), {"mode": mode}


def _compress(data: st.DataObject) -> Any:
    x = _x(data)
    axis = _axis(data, x.ndim)
    n = _axis_len(x, axis)
    cond = data.draw(
        st.one_of(
            st.lists(st.booleans(), max_size=n + 2).map(lambda b: np.array(b, dtype=bool)),
            st.lists(st.integers(-1, 2), max_size=n),
            st.just([[True]]),
        ),
        label="condition",
    )
    return (cond, x, axis), {}


def _trim_zeros(data: st.DataObject) -> Any:
    dtype = data.draw(st.sampled_from(DTYPES))
    shape = data.draw(shapes(max_dims=3))
    x = data.draw(arrays(dtype, shape)) * data.draw(arrays("bool", shape))  # many zeros
    x = x.astype(dtype)
    trim = data.draw(st.sampled_from(["fb", "f", "b", "BF", "x"]))
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim), st.just((0, -1))))
    return (x, trim), {"axis": axis}


def _ediff1d(data: st.DataObject) -> Any:
    x = _x(data, dtypes=DTYPES)
    extras = st.one_of(
        st.none(),
        st.integers(-5, 5),
        st.floats(-5, 5),
        st.lists(st.integers(-5, 5), max_size=2),
        st.just(np.array([1 + 1j])),
    )
    return (x,), {"to_end": data.draw(extras), "to_begin": data.draw(extras)}


def _apply_over_axes(data: st.DataObject) -> Any:
    x = _x(data, min_dims=1, dtypes=("int64", "float64"))
    axes = data.draw(
        st.one_of(
            st.integers(-x.ndim, x.ndim - 1), st.lists(st.integers(-x.ndim, x.ndim - 1), max_size=3)
        )
    )
    func = data.draw(st.sampled_from([np.sum, np.max, np.cumsum]))
    return (func, x, axes), {}


@dataclass
class Row:
    name: str
    args: Callable[[st.DataObject], tuple[tuple[Any, ...], dict[str, Any]]]


ROWS = [
    Row("delete", _delete),
    Row("insert", _insert),
    Row("resize", _resize),
    Row("choose", _choose),
    Row("compress", _compress),
    Row("trim_zeros", _trim_zeros),
    Row("ediff1d", _ediff1d),
    Row("apply_over_axes", _apply_over_axes),
]


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_editing_matches_numpy(row: Row, data: st.DataObject) -> None:
    args, kwargs = row.args(data)
    how = data.draw(st.sampled_from(HOWS), label="how")
    check_as(row.name, how, args, kwargs)


# -- piecewise, apply_along_axis, block ---------------------------------------------------------

PIECES: list[Any] = [
    lambda v: v * 2,
    lambda v: -v,
    lambda v: v * v - 1,
    1.5,
    -2,
    True,
]


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_piecewise_matches_numpy(data: st.DataObject) -> None:
    x = _x(data, dtypes=("int64", "float32", "float64", "complex128"))
    n = data.draw(st.integers(1, 3), label="n")
    thresholds = data.draw(st.lists(st.integers(-50, 50), min_size=n, max_size=n), label="at")
    conds = (
        [np.real(x) > t for t in thresholds]
        if x.ndim
        else [bool(np.real(x) > t) for t in thresholds]
    )
    funcs = data.draw(st.lists(st.sampled_from(PIECES), min_size=n, max_size=n + 1), label="funcs")
    lone = n == 1 and data.draw(st.booleans())
    condlist: Any = conds[0] if lone and x.ndim else conds
    how = data.draw(st.sampled_from(HOWS), label="how")
    lazy_conds = (
        as_how(condlist, how)
        if isinstance(condlist, np.ndarray)
        else [as_how(c, how) for c in condlist]
    )
    lazy_x = as_how(x, how)
    check(lambda *_: lnp.piecewise(lazy_x, lazy_conds, funcs), np.piecewise, x, condlist, funcs)


def test_piecewise_extra_arguments_and_errors() -> None:
    x = np.linspace(-2.0, 2.0, 7)
    check(lnp.piecewise, np.piecewise, x, [x < 0], [lambda v, k: v * k, lambda v, k: k], 3.0)
    check(lnp.piecewise, np.piecewise, x, [x < 0], [lambda v, k=1: v + k], k=5)
    check(lnp.piecewise, np.piecewise, x, [x < 0, x > 1], [1.0])  # ValueError: 1 function for 2
    check(lnp.piecewise, np.piecewise, x, [x[:3] < 0], [1.0])  # IndexError: the shapes differ
    check(lnp.piecewise, np.piecewise, x, [], [1.0])  # IndexError: no condition
    check(lnp.piecewise, np.piecewise, 3.0, [True, False], [1.0, 2.0])
    check(lnp.piecewise, np.piecewise, x.astype(int), [x < 0], [1.5, 2.5])  # cast to x's dtype
    check(lnp.piecewise, np.piecewise, x, [x < 0], [1j])  # TypeError: complex into float


ROW_FUNCS: list[Callable[[Any], Any]] = [
    lambda v: v * 2,
    lambda v: v[::-1],
    lambda v: v.sum(),
    lambda v: v[:1],
    lambda v: v[:, None] * v[None, :],
    lambda v: v.max() > 0,
]


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_apply_along_axis_matches_numpy(data: st.DataObject) -> None:
    x = _x(data, min_dims=1, dtypes=("int8", "int64", "float32", "float64"))
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim), label="axis")
    func = data.draw(st.sampled_from(ROW_FUNCS), label="func")
    how = data.draw(st.sampled_from(HOWS), label="how")
    lazy_x = as_how(x, how)
    check(lambda *_: lnp.apply_along_axis(func, axis, lazy_x), np.apply_along_axis, func, axis, x)


def test_apply_along_axis_casts_to_the_first_result() -> None:
    x = np.array([[1, 2], [-3, 4]])
    check(lnp.apply_along_axis, np.apply_along_axis, lambda v: v.sum() / 2 if v[0] > 0 else 7, 1, x)
    check(lnp.apply_along_axis, np.apply_along_axis, lambda v, k: v * k, 0, x, 2.5)
    check(lnp.apply_along_axis, np.apply_along_axis, lambda v: v, 1, np.zeros((0, 3)))
    check(lnp.apply_along_axis, np.apply_along_axis, lambda v: v, 0, np.array(5))


@st.composite
def block_grids(draw: st.DrawFn) -> Any:
    """A 2-level ``block`` grid of compatible blocks (sometimes a 1-level list,
    a scalar, or a broken grid)."""
    rows = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
    cols = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
    dtype = st.sampled_from(DTYPES)
    grid = [
        [draw(dtype.flatmap(lambda d, r=r, c=c: arrays(d, (r, c)))) for c in cols] for r in rows
    ]
    kind = draw(st.sampled_from(["grid", "grid", "row", "scalar", "ragged", "tuple", "empty"]))
    if kind == "row":
        return [draw(arrays("float64", (c,))) for c in cols]
    if kind == "scalar":
        return draw(st.integers(-3, 3))
    if kind == "ragged":
        grid[0] = grid[0][0]
    if kind == "tuple":
        grid[0] = tuple(grid[0])
    if kind == "empty":
        grid[-1] = []
    return grid


@settings(max_examples=EXAMPLES, deadline=None)
@given(grid=block_grids(), how=st.sampled_from(HOWS))
def test_block_matches_numpy(grid: Any, how: str) -> None:
    def lazy(g: Any) -> Any:
        if isinstance(g, list):
            return [lazy(v) for v in g]
        if isinstance(g, tuple):
            return tuple(lazy(v) for v in g)
        return as_how(g, how)

    lazy_grid = lazy(grid)
    check(lambda *_: lnp.block(lazy_grid), np.block, grid)


def test_block_errors_are_numpys() -> None:
    a = np.ones((2, 2))
    for bad in ([[a], a], [a, [a]], [[a, a], []], [], (a,), [[]], [[a], [[a]]]):
        check(lnp.block, np.block, bad)
    with pytest.raises(ValueError, match=r"block: List depths are mismatched.*arrays\[1\]"):
        lnp.block([[a], a])
    with pytest.raises(ValueError, match=r"List at arrays\[1\] cannot be empty"):
        lnp.block([[a], []])
    with pytest.raises(TypeError, match=r"arrays\[0\] is a tuple"):
        lnp.block([(a,)])


# -- what is computed ---------------------------------------------------------------------------


def test_results_stay_lazy_and_only_the_deciding_value_is_computed() -> None:
    with lazygraph.config.change(eager_max_elements=0):
        x = pending(np.arange(12.0).reshape(3, 4))
        obj = pending(np.array([0, 2]))
        cond = pending(np.array([True, False, True]))
        results = [
            lnp.delete(x, obj, axis=1),
            lnp.insert(x, obj, 9.0, axis=1),
            lnp.compress(cond, x, axis=0),
            lnp.choose(pending(np.array([0, 1])), [x[0, :2], x[1, :2]]),
            lnp.trim_zeros(x),
            lnp.resize(x, (5, 5)),
            lnp.ediff1d(x, to_begin=[1.0]),
            lnp.piecewise(x, [x > 3], [lambda v: v * 2, 0.0]),
        ]
        for r in results:
            assert r._cur.owner is not None, r  # a node over x: x itself was not computed
    np.testing.assert_array_equal(
        results[0].compute(), np.delete(np.arange(12.0).reshape(3, 4), [0, 2], 1)
    )


def test_errors_name_the_function() -> None:
    with pytest.raises(IndexError, match="delete: index 5 is out of bounds"):
        lnp.delete(np.arange(3), 5)
    with pytest.raises(ValueError, match="choose: invalid entry in choice array"):
        lnp.choose(pending(np.array([0, 2])), [1, 2])
    with pytest.raises(ValueError, match="trim_zeros: unexpected character"):
        lnp.trim_zeros(lnp.zeros(3), trim="q")


def test_numpy_functions_on_lazy_arrays_stay_lazy() -> None:
    x = lnp.asarray(np.arange(6.0))
    with lazygraph.config.change(on_numpy_fallback="raise"):
        for got, expected in (
            (np.delete(x, 1), np.delete(np.arange(6.0), 1)),
            (np.insert(x, 1, 5.0), np.insert(np.arange(6.0), 1, 5.0)),
            (np.resize(x, 8), np.resize(np.arange(6.0), 8)),
            (np.compress([1, 0, 1], x), np.compress([1, 0, 1], np.arange(6.0))),
            (np.ediff1d(x), np.ediff1d(np.arange(6.0))),
            (np.trim_zeros(x), np.trim_zeros(np.arange(6.0))),
        ):
            assert isinstance(got, lnp.Array)
            np.testing.assert_array_equal(got.compute(), expected)


# -- layout and value checks ----------------------------------------------------------------------

VIEWS: list[Callable[[Any], Any]] = [
    lambda a: a,
    lambda a: a.T,
    lambda a: a[0],
    lambda a: a[:, 1],
    lambda a: a[..., ::2],
    lambda a: a[..., 1::2],
    lambda a: a[::-1],
    lambda a: a.swapaxes(0, 2),
    lambda a: a.reshape(6, 4),
    lambda a: a.reshape(-1)[3:9],
    lambda a: a[1:, 1:2, :3],
    lambda a: a.T[1],
    lambda a: a[:, :, 2:2],
    lambda a: a.T[:, ::2].T,
    lambda a: a.transpose(1, 0, 2)[:, 1],
]


@settings(max_examples=EXAMPLES, deadline=None)
@given(f=st.sampled_from(VIEWS), g=st.sampled_from(VIEWS))
def test_memory_sharing_follows_numpys_views(f: Any, g: Any) -> None:
    base = np.arange(24.0).reshape(2, 3, 4).copy()
    lazy = lnp.asarray(base)
    for name in ("may_share_memory", "shares_memory"):
        assert getattr(lnp, name)(f(lazy), g(lazy)) == getattr(np, name)(f(base), g(base)), name
    assert lnp.isfortran(f(lazy)) == np.isfortran(f(base))
    for req in (None, "C", "F", "O", ["F", "O"], ["A", "W", "E"]):
        got, expected = (
            lnp.require(f(lazy), requirements=req),
            np.require(f(base), requirements=req),
        )
        assert lnp.isfortran(got) == np.isfortran(expected), req
        assert lnp.shares_memory(got, lazy) == np.shares_memory(expected, base), req
        np.testing.assert_array_equal(got.compute(), expected)
    fortran, expected = lnp.asfortranarray(f(lazy)), np.asfortranarray(f(base))
    assert lnp.isfortran(fortran) == np.isfortran(expected)
    np.testing.assert_array_equal(fortran.ravel(order="A").compute(), expected.ravel(order="A"))


def test_memory_sharing_with_numpy_arrays() -> None:
    base = np.arange(6.0)
    assert not lnp.shares_memory(lnp.asarray(base), base)  # a snapshot
    shared = lnp.asarray(base, copy=False)  # the caller's buffer itself
    assert lnp.shares_memory(shared[:3], base[2:]) and not lnp.shares_memory(shared[:3], base[3:])
    assert lnp.may_share_memory(base, shared)
    x = lnp.asarray(base)
    assert not lnp.shares_memory(x, x + 1) and not lnp.shares_memory(x, x.copy())
    assert lnp.shares_memory(base, base) and not lnp.shares_memory([1], [1])


def test_require_errors_and_dtype() -> None:
    with pytest.raises(ValueError, match="Cannot specify both"):
        lnp.require(lnp.zeros(3), requirements="CF")
    with pytest.raises(KeyError):
        lnp.require(lnp.zeros(3), requirements="Q")
    assert lnp.require([1, 2], dtype="float32").dtype == np.float32
    assert lnp.asfortranarray(5.0).shape == (1,)
    assert not lnp.isfortran(pending(np.zeros((2, 3))))


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_value_checks_match_numpy(data: st.DataObject) -> None:
    x = _x(data, dtypes=("int64", "float32", "float64", "complex64", "complex128"))
    how = data.draw(st.sampled_from(HOWS), label="how")
    check_as("asarray_chkfinite", how, (x,), {})
    if x.dtype.kind == "c":
        small = np.real(x).astype(x.dtype) + 1j * data.draw(
            st.sampled_from([0.0, 1e-16, 1e-13, 1e-6])
        )
        x = np.where(np.isfinite(small), small, 0).astype(x.dtype)
    tol = data.draw(st.sampled_from([100, 1000, 1e-5, 0.5]), label="tol")
    check_as("real_if_close", how, (x, tol), {})


# -- gradients ------------------------------------------------------------------------------------

RNG = np.random.default_rng(0)
M = RNG.normal(size=(3, 4))
V = RNG.normal(size=5)

GRAD_CASES: list[tuple[str, Callable[..., Any], list[np.ndarray]]] = [
    ("delete", lambda a: lnp.delete(a, [0, 2], axis=1)._var, [M]),
    ("delete_slice", lambda a: lnp.delete(a, np.s_[::2])._var, [M]),
    ("insert", lambda a, v: lnp.insert(a, [1, 1, 4], v, axis=1)._var, [M, RNG.normal(size=(3, 3))]),
    ("insert_one", lambda a, v: lnp.insert(a, 2, v)._var, [V, RNG.normal(size=2)]),
    ("choose", lambda a, b: lnp.choose([[0, 1, 1, 0]], [a, b])._var, [M, M[0]]),
    ("compress", lambda a: lnp.compress([True, False, True], a, axis=0)._var, [M]),
    ("resize", lambda a: lnp.resize(a, (4, 4))._var, [V]),
    ("ediff1d", lambda a, b: lnp.ediff1d(a, to_begin=b)._var, [V, RNG.normal(size=2)]),
    (
        "piecewise",
        lambda a: lnp.piecewise(a, [a < 0, a > 1], [lambda v: v * v, lnp.sin, 0.5])._var,
        [np.array([-1.5, -0.2, 0.3, 0.7, 1.4, 2.0])],
    ),
    ("apply_along_axis", lambda a: lnp.apply_along_axis(lambda v: v * v.sum(), 1, a)._var, [M]),
    ("block", lambda a, b: lnp.block([[a, b], [b, a]])._var, [M[:2, :2], M[1:, 2:]]),
]


@pytest.mark.parametrize(("name", "fn", "point"), GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_verify_grad(name: str, fn: Callable[..., Any], point: list[np.ndarray]) -> None:
    verify_grad(fn, point)


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((), {}),  # no new shape: nothing changes
        ((None,), {}),
        ((2, 5), {}),
        (((4,),), {}),
        ((np.int64(2),), {}),
        (((),), {}),
        (("hi",), {}),  # numpy's TypeError, not int()'s ValueError
        ((-1,), {}),
        ((3,), {"refcheck": "hi"}),
    ],
)
def test_array_resize_method_arguments(args: tuple, kwargs: dict) -> None:
    # ndarray.resize changes the array in place (new elements are zeros)
    ref, lazy = np.eye(3), lnp.asarray(np.eye(3))
    try:
        ref.resize(*args, **kwargs)
    except (TypeError, ValueError) as exc:
        with pytest.raises(type(exc)):
            lazy.resize(*args, **kwargs)
        return
    lazy.resize(*args, **kwargs)
    np.testing.assert_array_equal(lazy.compute(), ref, strict=True)
