"""Sorting, set and searching functions against numpy (and, for the descending
order numpy lacks, against Python's stable ``sorted``): one table of rows run on
hypothesis inputs, then gradients and the stability/NaN properties."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.tensor as lt
from lazygraph.gradient import (
    DisconnectedInputError,
    NullTypeGradError,
    grad,
    verify_grad,
    verify_rop,
)
from tests.tensor.harness import (
    ALL,
    FLOATS,
    INTS,
    OpCase,
    arrays,
    assert_numpy_equal,
    check_case,
    check_symbolic_infer_shape,
    run,
    shapes,
)

REAL = ("bool", *INTS, *FLOATS)


def inputs(dtypes: tuple[str, ...], min_dims: int = 0) -> st.SearchStrategy[Any]:
    return st.sampled_from(dtypes).flatmap(
        lambda dt: st.tuples(arrays(dt, shapes(min_dims=min_dims)))
    )


def _key(value: Any) -> tuple[Any, ...]:
    """numpy's sort order as a Python key: NaNs last; complex numbers in the groups
    [R + Rj, R + nanj, nan + Rj, nan + nanj], each by real then imaginary part."""
    c = complex(value)
    re_nan, im_nan = np.isnan(c.real), np.isnan(c.imag)
    return (re_nan, im_nan, 0.0 if re_nan else c.real, 0.0 if im_nan else c.imag)


def oracle_argsort(x: np.ndarray, axis: int | None = -1, descending: bool = False) -> np.ndarray:
    """A stable argsort by Python's ``sorted`` (which stays stable with ``reverse``)."""
    if axis is None:
        x, axis = x.reshape(-1), 0
    else:
        np.sort(x, axis=axis)  # numpy's AxisError
    if x.size == 0:
        return np.zeros(x.shape, dtype="int64")

    def one(v: np.ndarray) -> np.ndarray:
        order = sorted(range(v.size), key=lambda i: _key(v[i]), reverse=descending)
        return np.array(order, dtype="int64")

    return np.apply_along_axis(one, axis, x).astype("int64")


def oracle_sort(x: np.ndarray, axis: int | None = -1, descending: bool = False) -> np.ndarray:
    idx = oracle_argsort(x, axis, descending)
    return np.take_along_axis(x.reshape(-1) if axis is None else x, idx, axis=axis or 0)


def sort_kwargs(ndim: int) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            "axis": st.one_of(st.none(), st.integers(-ndim - 1, max(ndim, 1))),
            "descending": st.booleans(),
            "stable": st.booleans(),
        }
    )


def sort_reference(x: np.ndarray, axis: Any, descending: bool, stable: bool) -> np.ndarray:
    if not descending:
        return np.sort(x, axis=axis, kind="stable" if stable else None)
    return oracle_sort(x, axis, descending=True)


def argsort_reference(x: np.ndarray, axis: Any, descending: bool, stable: bool) -> np.ndarray:
    if not descending:
        return np.argsort(x, axis=axis, kind="stable" if stable else None)
    if x.ndim == 0 and axis is not None:
        np.argsort(x, axis=axis)  # numpy's AxisError for axis not in (0, -1)
        axis = None  # numpy's argsort treats a 0-d array as 1-d
    return oracle_argsort(x, axis, descending=True)


def no_kwargs(ndim: int) -> st.SearchStrategy[dict[str, Any]]:
    return st.just({})


def searchsorted_kwargs(ndim: int) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"side": st.sampled_from(["left", "right"])})


def searchsorted_inputs(with_sorter: bool) -> st.SearchStrategy[Any]:
    def build(dtypes: tuple[str, str]) -> st.SearchStrategy[Any]:
        a = arrays(dtypes[0], shapes(1, 1, max_side=6))
        v = arrays(dtypes[1], shapes(0, 2))
        if with_sorter:
            return st.tuples(a, v).map(lambda av: (av[0], av[1], np.argsort(av[0])))
        return st.tuples(a.map(np.sort), v)

    return st.tuples(st.sampled_from(REAL), st.sampled_from(REAL)).flatmap(build)


def row(
    name: str,
    build: Callable[..., Any],
    reference: Callable[..., Any],
    strategy: st.SearchStrategy[Any],
    kwargs: Callable[[int], st.SearchStrategy[dict[str, Any]]] = no_kwargs,
    **options: Any,
) -> OpCase:
    return OpCase(name, build, reference, strategy, extra={"kwargs": kwargs}, **options)


def _field(fn: Callable[[Any], Any], name: str) -> Callable[[Any], Any]:
    return lambda x: getattr(fn(x), name)


UNIQUE_ROWS = [
    row(
        f"unique_{kind}.{field}",
        _field(getattr(lt, f"unique_{kind}"), field),
        _field(getattr(np, f"unique_{kind}"), field),
        inputs(ALL),
    )
    for kind, fields in [
        ("all", ("values", "indices", "inverse_indices", "counts")),
        ("counts", ("values", "counts")),
        ("inverse", ("values", "inverse_indices")),
    ]
    for field in fields
]

TABLE = [
    row("sort", lt.sort, sort_reference, inputs(ALL), sort_kwargs, signed_zeros=True),
    row("argsort", lt.argsort, argsort_reference, inputs(ALL), sort_kwargs),
    *UNIQUE_ROWS,
    # numpy 2.3+ no longer sorts unique_values: compare as sets (sorted).
    row(
        "unique_values",
        lambda x: lt.sort(lt.unique_values(x)),
        lambda x: np.sort(np.unique_values(x)),
        inputs(ALL),
    ),
    row("nonzero.first", lambda x: lt.nonzero(x)[0], lambda x: np.nonzero(x)[0], inputs(ALL)),
    row("nonzero.last", lambda x: lt.nonzero(x)[-1], lambda x: np.nonzero(x)[-1], inputs(ALL)),
    row(
        "searchsorted",
        lt.searchsorted,
        np.searchsorted,
        searchsorted_inputs(False),
        searchsorted_kwargs,
    ),
    row(
        "searchsorted_sorter",
        lambda a, v, s, **kw: lt.searchsorted(a, v, sorter=s, **kw),
        lambda a, v, s, **kw: np.searchsorted(a, v, sorter=s, **kw),
        searchsorted_inputs(True),
        searchsorted_kwargs,
    ),
]


@pytest.mark.parametrize("case", TABLE, ids=lambda c: c.name)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_matches_numpy(case: OpCase, data: st.DataObject) -> None:
    values = data.draw(case.inputs, label="inputs")
    kwargs = data.draw(case.extra["kwargs"](values[0].ndim), label="kwargs")
    static = data.draw(st.booleans(), label="static_shape")
    # An unstable sort may order equal elements (-0.0 and 0.0 too) either way:
    # numpy's own order depends on the machine's SIMD sort.
    unstable = "stable" in kwargs and not kwargs["stable"]
    bound = dataclasses.replace(
        case,
        build=lambda *xs: case.build(*xs, **kwargs),
        reference=lambda *xs: case.reference(*xs, **kwargs),
        static_shape=static,
        signed_zeros=case.signed_zeros and not unstable,
    )
    if case.name == "argsort" and unstable:
        check_unstable_argsort(values[0], kwargs["axis"], kwargs["descending"])
        return
    check_case(bound, values)


def check_unstable_argsort(x: np.ndarray, axis: Any, descending: bool) -> None:
    """Any order of equal elements is right: the indices are a permutation that
    puts ``x`` in (NaN-last, or NaN-first descending) order."""
    try:
        expected = oracle_sort(x, axis, descending=descending)
    except np.exceptions.AxisError:
        return
    v = lt.TensorType(x.dtype, x.shape)("x")
    idx = run([v], lt.argsort(v, axis=axis, descending=descending, stable=False), [x])
    flat = x.reshape(-1) if axis is None else x
    ax = 0 if axis is None else axis
    np.testing.assert_array_equal(np.sort(idx, axis=ax), np.sort(oracle_argsort(flat, ax), axis=ax))
    np.testing.assert_array_equal(np.take_along_axis(flat, idx, axis=ax), expected)


# -- properties numpy has no direct oracle for --------------------------------------


def test_descending_is_stable_with_nans_first() -> None:
    x = lt.dvector("x")
    value = np.array([1.0, np.nan, 0.0, 3.0, -0.0, np.nan, 3.0])
    idx = run([x], lt.argsort(x, descending=True), [value])
    np.testing.assert_array_equal(idx, [1, 5, 3, 6, 0, 2, 4])
    values = run([x], lt.sort(x, descending=True), [value])
    np.testing.assert_array_equal(np.signbit(values), np.signbit(value[[1, 5, 3, 6, 0, 2, 4]]))
    np.testing.assert_array_equal(run([x], lt.argsort(x), [value]), [2, 4, 0, 3, 6, 1, 5])


def test_static_shapes() -> None:
    x = lt.tensor("float32", (3, None), name="x")
    assert lt.sort(x, axis=0).type == x.type
    assert lt.sort(x, axis=None).type == lt.TensorType("float32", (None,))
    assert lt.argsort(lt.tensor("int8", (2, 3)), axis=None).type == lt.TensorType("int64", (6,))
    assert lt.argsort(lt.dscalar()).type == lt.TensorType("int64", (1,))
    u = lt.unique_all(x)
    assert u.values.type == lt.TensorType("float32", (None,))
    assert u.inverse_indices.type == lt.TensorType("int64", (3, None))
    assert lt.unique_values(lt.tensor("int8", (0, 2))).type.shape == (0,)
    rows, cols = lt.nonzero(x)
    assert rows.type == cols.type == lt.TensorType("int64", (None,))
    assert lt.nonzero(lt.tensor("int8", (0, 2)))[0].type.shape == (0,)
    assert lt.searchsorted(lt.dvector(), x).type == lt.TensorType("int64", (3, None))


@pytest.mark.parametrize(
    ("build", "error"),
    [
        (lambda: lt.sort(lt.dmatrix(), axis=2), np.exceptions.AxisError),
        (lambda: lt.sort(lt.dscalar()), np.exceptions.AxisError),
        (lambda: lt.argsort(lt.dscalar(), axis=1), np.exceptions.AxisError),
        (lambda: lt.argsort(lt.dmatrix(), axis=-3), np.exceptions.AxisError),
        (lambda: lt.nonzero(lt.dscalar()), ValueError),
        (lambda: lt.searchsorted(lt.dmatrix(), 1.0), ValueError),
        (lambda: lt.searchsorted(lt.dvector(), 1.0, side="middle"), ValueError),
        (lambda: lt.searchsorted(lt.dvector(), 1.0, sorter=lt.dvector()), TypeError),
        (
            lambda: lt.searchsorted(lt.tensor("float64", (3,)), 1.0, sorter=lt.lvector(shape=(2,))),
            ValueError,
        ),
    ],
)
def test_eager_errors(build: Callable[[], Any], error: type[Exception]) -> None:
    with pytest.raises(error, match=r"sort|nonzero"):
        build()


# -- gradients ----------------------------------------------------------------------


def _distinct(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    return (rng.permutation(n) * 0.37 - n * 0.15 + rng.uniform(-0.05, 0.05, n)).reshape(shape)


SORT_GRADS = [
    ("last_axis", lambda x: lt.sort(x), (3, 4)),
    ("axis0_3d", lambda x: lt.sort(x, axis=0), (3, 2, 2)),
    ("flat", lambda x: lt.sort(x, axis=None), (2, 3)),
    ("descending", lambda x: lt.sort(x, axis=1, descending=True), (2, 5)),
]


@pytest.mark.parametrize(("name", "fn", "shape"), SORT_GRADS, ids=[r[0] for r in SORT_GRADS])
def test_sort_verify_grad(name: str, fn: Callable[[Any], Any], shape: tuple[int, ...]) -> None:
    verify_grad(fn, [_distinct(shape)])
    verify_grad(fn, [_distinct(shape)], static_shape=False)
    verify_rop(fn, [_distinct(shape)])


def test_sort_second_order() -> None:
    w = lt.constant(np.arange(1.0, 7.0))
    verify_grad(lambda x: grad(lt.sum(lt.sort(x * x) * w), x), [_distinct((6,))])


def test_sort_gradient_routes_back() -> None:
    x = lt.dvector("x")
    value = np.array([3.0, 1.0, 2.0])
    g = run([x], grad(lt.sum(lt.sort(x) * np.array([10.0, 20.0, 30.0])), x), [value])
    np.testing.assert_array_equal(g, [30.0, 10.0, 20.0])


@pytest.mark.parametrize(
    "build",
    [
        lambda x: lt.argsort(x),
        lambda x: lt.nonzero(x)[0],
        lambda x: lt.searchsorted(x, 0.5),
        lambda x: lt.searchsorted(lt.dvector("a"), x),
        lambda x: lt.unique_all(x).counts,
        lambda x: lt.unique_inverse(x).inverse_indices,
    ],
)
def test_index_outputs_are_disconnected(build: Callable[[Any], Any]) -> None:
    x = lt.dvector("x")
    with pytest.raises(DisconnectedInputError):
        grad(lt.sum(lt.cast(build(x), "float64")), x)


def test_unique_values_gradient_is_undefined() -> None:
    x = lt.dvector("x")
    with pytest.raises(NullTypeGradError, match="Unique"):
        grad(lt.sum(lt.unique_values(x)), x)


@pytest.mark.parametrize(
    "build",
    [
        lambda x: lt.sort(x, axis=None),
        lambda x: lt.argsort(x, axis=0, descending=True),
        lambda x: lt.unique_all(x).counts,
        lambda x: lt.unique_inverse(x).inverse_indices,
        lambda x: lt.nonzero(x)[1],
        lambda x: lt.searchsorted(lt.constant(np.array([0.2, 0.5, 0.7])), x),
    ],
)
def test_infer_shape_with_symbolic_sizes(build: Callable[[Any], Any]) -> None:
    x = lt.dtensor3("x")
    value = np.random.default_rng(0).uniform(size=(2, 3, 4)).round(1)
    check_symbolic_infer_shape(build(x), x, value)


@pytest.mark.parametrize(
    ("build", "reference"),
    [
        (lambda x: lt.sort(x, axis=0), lambda x: np.sort(x, axis=0, kind="stable")),
        (lambda x: lt.argsort(x, descending=True), lambda x: oracle_argsort(x, -1, True)),
        (lambda x: lt.unique_inverse(x).inverse_indices, lambda x: np.unique_inverse(x)[1]),
        (lambda x: lt.nonzero(x > 0.5)[1], lambda x: np.nonzero(x > 0.5)[1]),
    ],
)
def test_non_contiguous_inputs(build: Callable[[Any], Any], reference: Callable[..., Any]) -> None:
    base = np.random.default_rng(0).uniform(size=(6, 8)).round(1)
    view = base[::2, ::-3].T  # strided, reversed and transposed
    x = lt.dmatrix("x")
    assert_numpy_equal(run([x], build(x), [view]), reference(view.copy()))
