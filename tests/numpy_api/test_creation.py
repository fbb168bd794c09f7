"""lazygraph.numpy's creation functions against numpy: shapes (ints, tuples,
0-d, empty), dtype= (incl. numpy's own dtype objects), fill values whose dtype
decides the result, ranges with float steps and negative counts, and nested
lists holding lazy arrays."""

from __future__ import annotations

import array_api_compat.numpy  # a dependency of lazygraph-numpy-api, not optional
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from tests.numpy_api.namespace_harness import ALL, array_args, check, python_scalars
from tests.tensor.harness import FLOATS, INTS, NUMERIC, arrays, broadcast_shapes, shapes

DTYPES = st.sampled_from([None, *ALL, np.float32, np.int16, bool, float, int, complex])


@settings(max_examples=12, deadline=None)
@given(shape=st.one_of(shapes(), st.integers(0, 4)), dtype=DTYPES)
def test_zeros_ones_empty(shape: object, dtype: object) -> None:
    check(lnp.zeros, np.zeros, shape, dtype)
    check(lnp.ones, np.ones, shape, dtype=dtype)
    got, expected = lnp.empty(shape, dtype), np.empty(shape, dtype)
    assert got.shape == expected.shape and got.dtype == expected.dtype


@settings(max_examples=12, deadline=None)
@given(shape=shapes(), fill=python_scalars(), dtype=st.sampled_from([None, *NUMERIC]))
def test_full(shape: tuple[int, ...], fill: object, dtype: object) -> None:
    check(lnp.full, np.full, shape, fill, dtype)
    check(lnp.full, np.full, shape, np.float32(1.5))


@settings(max_examples=12, deadline=None)
@given(x=array_args(ALL), fill=python_scalars(), dtype=st.sampled_from([None, *NUMERIC]))
def test_like_functions(x: np.ndarray, fill: object, dtype: object) -> None:
    check(lnp.zeros_like, np.zeros_like, x, dtype)
    check(lnp.ones_like, np.ones_like, x, dtype=dtype)
    check(lnp.full_like, np.full_like, x, fill, dtype=dtype)
    check(lnp.zeros_like, np.zeros_like, x, shape=(2, 0))
    got, expected = lnp.empty_like(x), np.empty_like(x)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    check(lnp.ones_like, np.ones_like, lnp.asarray(x))  # a lazy prototype


@settings(max_examples=15, deadline=None)
@given(
    start=st.one_of(st.integers(-5, 5), st.floats(-5, 5)),
    stop=st.one_of(st.none(), st.integers(-5, 10), st.floats(-5, 10)),
    step=st.one_of(st.none(), st.sampled_from([1, 2, -1, 0.5, -0.75, 3])),
    dtype=st.sampled_from([None, "int32", "float32", "float64"]),
)
def test_arange(start: float, stop: float | None, step: float | None, dtype: str | None) -> None:
    if stop is None and step is not None:
        check(lnp.arange, np.arange, start, step=step, dtype=dtype)
    elif stop is None:
        check(lnp.arange, np.arange, start, dtype=dtype)
    else:
        check(lnp.arange, np.arange, start, stop, step, dtype)
    check(lnp.arange, np.arange, np.int8(3))


@settings(max_examples=15, deadline=None)
@given(
    start=st.one_of(st.integers(-5, 5), st.floats(-5, 5)),
    stop=st.one_of(st.integers(-5, 5), st.floats(-5, 5)),
    num=st.integers(0, 7),
    endpoint=st.booleans(),
    dtype=st.sampled_from([None, "float32", "float64", "int64"]),
)
def test_linspace_and_logspace(
    start: float, stop: float, num: int, endpoint: bool, dtype: str | None
) -> None:
    check(lnp.linspace, np.linspace, start, stop, num, endpoint, dtype=dtype)
    check(lnp.linspace, np.linspace, start, stop, num, endpoint, retstep=True)
    check(lnp.logspace, np.logspace, start / 4, stop / 4, num, endpoint, base=2.0)
    check(lnp.linspace, np.linspace, np.array([0.0, 1.0]), stop, num, axis=1)


@settings(max_examples=25, deadline=None)
@given(
    shapes3=broadcast_shapes(3, max_dims=2),
    num=st.integers(0, 4),
    endpoint=st.booleans(),
    axis=st.integers(-3, 2),
    data=st.data(),
)
def test_logspace_array_base_broadcasts_with_the_endpoints(
    shapes3: tuple[tuple[int, ...], ...], num: int, endpoint: bool, axis: int, data: st.DataObject
) -> None:
    # an array base broadcasts with start and stop, with a size-1 axis at ``axis``
    # (an axis past the result's ndim: numpy's AxisError)
    start, stop = (data.draw(arrays("float64", s, min_value=-2, max_value=2)) for s in shapes3[:2])
    base_dtype = data.draw(st.sampled_from(["int64", "float32"]))
    base = data.draw(arrays(base_dtype, shapes3[2], min_value=-3, max_value=5))
    check(lnp.logspace, np.logspace, start, stop, num, endpoint, base, axis=axis)
    check(lnp.logspace, np.logspace, 1, 2, num, endpoint, [2.0, 3.0], axis=-1)
    check(lnp.logspace, np.logspace, np.float32(1), stop.astype("float32"), num, base=2)


def test_linspace_negative_num_is_a_value_error() -> None:
    check(lnp.linspace, np.linspace, 0, 1, -1)


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(0, 4),
    m=st.one_of(st.none(), st.integers(0, 4)),
    k=st.integers(-4, 4),
    dtype=st.sampled_from([None, float, "int32", "bool", "complex64"]),
)
def test_eye_identity_tri(n: int, m: int | None, k: int, dtype: object) -> None:
    check(lnp.eye, np.eye, n, m, k, dtype)
    check(lnp.identity, np.identity, n, dtype)
    check(lnp.tri, np.tri, n, m, k, dtype)


@settings(max_examples=15, deadline=None)
@given(x=array_args(ALL, min_dims=2), k=st.integers(-3, 3))
def test_tril_triu(x: np.ndarray, k: int) -> None:
    check(lnp.tril, np.tril, x, k)
    check(lnp.triu, np.triu, x, k=k)


@settings(max_examples=15, deadline=None)
@given(x=array_args(ALL, min_dims=1, max_dims=2), k=st.integers(-3, 3))
def test_diag(x: np.ndarray, k: int) -> None:
    check(lnp.diag, np.diag, x, k)


@settings(max_examples=12, deadline=None)
@given(
    xs=st.lists(array_args(INTS + FLOATS, min_dims=1, max_dims=1), min_size=0, max_size=3),
    indexing=st.sampled_from(["xy", "ij"]),
    sparse=st.booleans(),
)
def test_meshgrid(xs: list[np.ndarray], indexing: str, sparse: bool) -> None:
    check(lnp.meshgrid, np.meshgrid, *xs, indexing=indexing, sparse=sparse)
    got = lnp.meshgrid(*xs, indexing=indexing, sparse=sparse)
    # numpy 2 returns a tuple (the array API 2024.12 says "list of arrays";
    # array_api_compat.numpy returns numpy's tuple): lazygraph follows numpy
    assert type(got) is type(np.meshgrid(*xs, indexing=indexing, sparse=sparse)) is tuple
    assert type(array_api_compat.numpy.meshgrid(*xs, indexing=indexing)) is tuple


@settings(max_examples=15, deadline=None)
@given(
    x=st.one_of(array_args(ALL), python_scalars(), st.lists(st.integers(-5, 5), max_size=4)),
    dtype=st.sampled_from([None, *NUMERIC]),
    ndmin=st.integers(0, 4),
)
def test_array_and_copy(x: object, dtype: object, ndmin: int) -> None:
    check(lnp.array, np.array, x, dtype, ndmin=ndmin)
    check(lnp.copy, np.copy, x)


def test_array_of_lazy_scalars_stacks_them() -> None:
    a = lnp.asarray(np.array([1.0, 2.0]))
    got = lnp.array([[a[0], 3.0], [a[1], a[0] * 2]])
    np.testing.assert_array_equal(got.compute(), [[1.0, 3.0], [2.0, 2.0]])
    assert lnp.array(a, ndmin=3).shape == (1, 1, 2)
    assert lnp.array([a[0], a[1]], dtype=np.float32).dtype == np.float32


def test_from_dlpack_and_lazy_sizes() -> None:
    check(lnp.from_dlpack, np.from_dlpack, np.arange(5.0))
    n = lnp.asarray(np.array(3))
    z = lnp.zeros((n, 2))  # a lazy size
    assert z.compute().shape == (3, 2)
    np.testing.assert_array_equal(lnp.arange(n).compute(), np.arange(3))


def test_bad_arguments_raise_numpy_errors() -> None:
    check(lnp.zeros, np.zeros, (2, -1))
    check(lnp.eye, np.eye, 2, order="X")
    check(lnp.zeros, np.zeros, 3, "not a dtype")
    with pytest.raises(ValueError, match="order"):
        lnp.ones(3, order="Z")
    check(lnp.vander, np.vander, [1.0, 2.0], -1)  # negative N: ValueError
    check(lnp.vander, np.vander, [1.0, 2.0], 2.0)  # a float N: TypeError


@settings(max_examples=12, deadline=None)
@given(n=st.integers(0, 4), k=st.integers(-3, 3), m=st.one_of(st.none(), st.integers(0, 4)))
def test_index_helpers(n: int, k: int, m: int | None) -> None:
    check(lnp.triu_indices, np.triu_indices, n, k, m)
    check(lnp.tril_indices, np.tril_indices, n, k, m)
    check(lnp.diag_indices, np.diag_indices, n, 3)
    check(lnp.indices, np.indices, (n, 2), sparse=k > 0)
    check(lnp.ix_, np.ix_, list(range(n)), np.arange(5) > k)


@settings(max_examples=12, deadline=None)
@given(x=st.one_of(array_args(ALL), python_scalars()))
def test_asanyarray_ascontiguousarray(x: object) -> None:
    check(lnp.asanyarray, np.asanyarray, x)
    check(lnp.ascontiguousarray, np.ascontiguousarray, x)


_GEOM_ENDS = st.one_of(
    st.sampled_from([1, -1000, 2.5, -0.5, 1j, -1 + 0j, 3 - 4j, True, 0, np.nan, np.inf]),
    st.sampled_from([np.float32(2.0), np.int16(-3), np.complex64(1 + 1j), np.float64(-0.0)]),
    st.sampled_from(["float64", "float32", "int32"]).flatmap(
        lambda d: st.tuples(st.integers(0, 2), st.integers(1, 3)).flatmap(
            lambda s: st.builds(
                lambda v, d=d, s=s: np.asarray(v, dtype=d).reshape(s),
                st.lists(
                    st.integers(-9, 9).filter(bool), min_size=s[0] * s[1], max_size=s[0] * s[1]
                ),
            )
        )
    ),
)


@settings(max_examples=40, deadline=None)
@given(
    start=_GEOM_ENDS,
    stop=_GEOM_ENDS,
    num=st.integers(-1, 6),
    endpoint=st.booleans(),
    dtype=st.sampled_from([None, "float32", "float64", "complex128", int]),
    axis=st.sampled_from([0, -1]),
)
def test_geomspace(
    start: object, stop: object, num: int, endpoint: bool, dtype: object, axis: int
) -> None:
    # negative and complex endpoints (numpy's rotation), zero (ValueError), NaN, inf
    check(lnp.geomspace, np.geomspace, start, stop, num, endpoint, dtype, axis, rtol=1e-5)


def test_geomspace_exact_endpoints_and_lazy_input() -> None:
    check(lnp.geomspace, np.geomspace, 1e-300, 1e300, 9)
    check(lnp.geomspace, np.geomspace, -1 + 0j, 1 + 0j, 5)
    check(lnp.geomspace, np.geomspace, np.float32(1), np.float32(10), 7)
    start = lnp.asarray(np.array([1.0, -2.0])) * 1.0
    got = lnp.geomspace(start, [10.0, -20.0], 4, axis=1).compute()
    np.testing.assert_array_equal(got, np.geomspace([1.0, -2.0], [10.0, -20.0], 4, axis=1))
    with pytest.raises(ValueError, match="cannot include zero"):
        lnp.geomspace(lnp.asarray(np.array([0.0, 1.0])), 2.0, 3)


def test_geomspace_grad() -> None:
    from lazygraph.gradient import verify_grad

    point = [np.array([1.5, -2.0]), np.array([7.0, -0.5])]  # (the endpoints' signs agree)
    verify_grad(lambda a, b: lnp.geomspace(a, b, 5)._var, point)
    verify_grad(lambda a, b: lnp.geomspace(a, b, 4, endpoint=False, axis=1)._var, point)


@settings(max_examples=15, deadline=None)
@given(
    x=array_args(NUMERIC, min_dims=1, max_dims=2, min_side=1),
    copy=st.sampled_from([None, False, True]),
    dtype=st.sampled_from([None, "same", "float32", "int64"]),
    ndmin=st.integers(0, 3),
)
def test_array_without_a_copy_shares_the_lazy_array(
    x: np.ndarray, copy: bool | None, dtype: str | None, ndmin: int
) -> None:
    # numpy's array(a, copy=None/False) is ``a`` itself (a view for ndmin) when no
    # copy is needed, so a later write to ``a`` shows through; copy=False when the
    # dtype changes is a ValueError
    want_dtype = x.dtype if dtype == "same" else dtype
    ref, lazy = x.copy(), lnp.asarray(x.copy())
    try:
        want = np.array(ref, dtype=want_dtype, copy=copy, ndmin=ndmin)
    except ValueError:
        with pytest.raises(ValueError):
            lnp.array(lazy, dtype=want_dtype, copy=copy, ndmin=ndmin)
        return
    got = lnp.array(lazy, dtype=want_dtype, copy=copy, ndmin=ndmin)
    ref[(0,) * ref.ndim] = 7
    lazy[(0,) * ref.ndim] = 7
    np.testing.assert_array_equal(np.asarray(got), want, strict=True)
    assert (got is lazy) == (want is ref)


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((), {"stop": 4}),
        ((1,), {"stop": 4}),
        ((), {"start": 2, "stop": 7}),
        ((), {"stop": 7.5, "step": 2, "dtype": "float32"}),
        ((), {"start": 4}),  # numpy: stop must be given
        ((), {"step": 2}),
        ((), {}),
        ((2,), {"start": 1}),  # start by name and by position
    ],
)
def test_arange_start_and_stop_by_name(args: tuple, kwargs: dict) -> None:
    check(lnp.arange, np.arange, *args, **kwargs)
