"""lazygraph.numpy's index tricks against numpy: ``r_`` and ``c_`` (slices,
complex-step counts, scalars, sequences, lazy arrays, the string directives),
``mgrid`` and ``ogrid`` (steps, complex steps, one slice or several),
``fromfunction``, ``diag_indices_from``, ``tril_indices_from``,
``triu_indices_from``, ``mask_indices`` and ``ravel_multi_index`` (every mode
and order, out-of-range and negative coordinates, broadcasting, numpy's error
types), on hypothesis-drawn inputs given as numpy data, known and pending lazy
arrays; and ``verify_grad`` through ``r_``/``c_`` concatenation."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.gradient import verify_grad
from lazygraph.numpy._errors import UnsupportedArgumentsError
from tests.numpy_api.namespace_harness import check
from tests.numpy_api.test_editing import DTYPES, HOWS, as_how, pending
from tests.tensor.harness import arrays, shapes

EXAMPLES = 40


class Getter:
    """``obj[key]`` as a function of ``key`` (for :func:`check`)."""

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __call__(self, key: Any) -> Any:
        return self.obj[key]


def _bound(data: st.DataObject) -> Any:
    return data.draw(
        st.one_of(
            st.none(),
            st.integers(-6, 6),
            st.floats(-3, 3, allow_subnormal=False).map(lambda v: round(v, 2)),
            st.sampled_from([np.float32(0.5), np.int8(2), np.float64(-1.5)]),
        )
    )


def _step(data: st.DataObject) -> Any:
    return data.draw(
        st.one_of(
            st.none(),
            st.sampled_from([1, 2, -1, 3, 0.5, 0.25, -0.5, np.float32(0.5)]),
            st.integers(0, 6).map(lambda n: complex(0, n)),
        )
    )


def _slice(data: st.DataObject, stop_required: bool = True) -> slice:
    start, stop, step = _bound(data), _bound(data), _step(data)
    if stop is None and stop_required:
        stop = data.draw(st.integers(-4, 4))
    return slice(start, stop, step)


# -- r_ and c_ ----------------------------------------------------------------------------


def _entry(data: st.DataObject, how: str) -> tuple[Any, Any]:
    """One entry of an ``r_`` / ``c_`` key: (numpy's, lazygraph's)."""
    kind = data.draw(st.sampled_from(["slice", "scalar", "list", "array", "array"]))
    if kind == "slice":
        s = _slice(data, stop_required=False)
        return s, s
    if kind == "scalar":
        v = data.draw(
            st.one_of(st.integers(-5, 5), st.floats(-3, 3), st.booleans(), st.just(np.float32(1.5)))
        )
        return v, v
    if kind == "list":
        v = data.draw(st.lists(st.integers(-5, 5), max_size=3))
        return v, v
    dtype = data.draw(st.sampled_from(DTYPES))
    x = data.draw(arrays(dtype, shapes(max_dims=2, max_side=3)))
    return x, as_how(x, how)


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_r_c_match_numpy(data: st.DataObject) -> None:
    how = data.draw(st.sampled_from(HOWS), label="how")
    entries = [_entry(data, how) for _ in range(data.draw(st.integers(1, 3)))]
    expected_key = tuple(e[0] for e in entries)
    lazy_key = tuple(e[1] for e in entries)
    directive = data.draw(
        st.sampled_from([None, None, "0", "-1", "1", "0,2", "1,2", "0,2,0", "0,3,-1", "1,3,1", "x"])
    )
    if directive is not None:
        expected_key, lazy_key = (directive, *expected_key), (directive, *lazy_key)
    for name in ("r_", "c_"):
        lazy_obj = getattr(lnp, name)
        check(lambda *_, obj=lazy_obj: obj[lazy_key], Getter(getattr(np, name)), expected_key)


def test_r_c_examples_and_errors() -> None:
    a, b = np.array([1, 2, 3]), np.array([[4, 5, 6]])
    for key in [
        (slice(1, 4), 0, [5, 6]),
        slice(-1, 1, 5j),
        ("0,2", [1, 2], [3, 4]),
        (np.array([1], np.int8), 300),  # OverflowError, as numpy converts 300
        (),
        ("a", [1]),
        ("0,a", [1]),
        ([1, 2], "0"),
        (a, b),
        ("-1", np.ones((2, 2)), np.zeros((2, 1))),
    ]:
        check(Getter(lnp.r_), Getter(np.r_), key)
    for key in [(a, a), (1, 2), (slice(0, 3), slice(0, 3)), (np.ones((2, 2)), [1, 2]), (b.T, a)]:
        check(Getter(lnp.c_), Getter(np.c_), key)
    assert len(lnp.r_) == len(np.r_) == 0
    with pytest.raises(UnsupportedArgumentsError, match="matrix"):
        lnp.r_["r", [1, 2], [3, 4]]
    with pytest.raises(UnsupportedArgumentsError, match="matrix"):
        lnp.c_["1 2; 3 4"]


def test_r_stays_lazy() -> None:
    x = pending(np.arange(3.0))
    with lazygraph.config.change(eager_max_elements=0):
        joined = lnp.r_[x, 0:2, -1.0]
    assert joined._cur.owner is not None
    np.testing.assert_array_equal(joined.compute(), [0.0, 1.0, 2.0, 0.0, 1.0, -1.0])


# -- mgrid and ogrid ------------------------------------------------------------------------


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_grids_match_numpy(data: st.DataObject) -> None:
    n = data.draw(st.integers(0, 3), label="n")
    key: Any = tuple(_slice(data) for _ in range(n))
    if n == 1 and data.draw(st.booleans()):
        key = key[0]  # one slice: a range
    for name in ("mgrid", "ogrid"):
        check(Getter(getattr(lnp, name)), Getter(getattr(np, name)), key)


def test_grid_examples() -> None:
    for key in [
        (slice(0, 2), slice(0, 3)),
        (slice(0, 1, 3j), slice(0, 3, 1j)),
        slice(0, 5, 3j),
        (slice(5, 0), slice(0, 2)),  # mgrid: ValueError; ogrid: an empty range
        (),
        (slice(np.float32(0), 1, 0.25), slice(0, 2)),
        slice(3, None),
        (slice(0, None), slice(0, 2)),  # AttributeError, as numpy
        (1, 2),
    ]:
        check(Getter(lnp.mgrid), Getter(np.mgrid), key)
        check(Getter(lnp.ogrid), Getter(np.ogrid), key)
    check(Getter(lnp.mgrid), Getter(np.mgrid), slice(lnp.asarray(1), 4))  # a lazy bound


# -- functions ----------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(2, 3), (3,), (), (0, 2), (2, 2, 2)])
@pytest.mark.parametrize("dtype", [float, int, np.float32])
def test_fromfunction_matches_numpy(shape: tuple[int, ...], dtype: Any) -> None:
    def f(*idx: Any, k: int = 1) -> Any:
        out = k
        for n, i in enumerate(idx):
            out = out + i * (n + 2)
        return out

    check(lnp.fromfunction, np.fromfunction, f, shape, dtype=dtype)
    check(lnp.fromfunction, np.fromfunction, f, shape, dtype=dtype, k=5)


def test_fromfunction_passes_lazy_arrays() -> None:
    seen = []
    lnp.fromfunction(lambda i, j: seen.append((type(i), i.shape)) or i, (2, 3))
    assert seen == [(lnp.Array, (2, 3))]


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_triangle_and_diagonal_indices_from(data: st.DataObject) -> None:
    x = data.draw(arrays("float64", shapes(max_dims=3, max_side=4)), label="x")
    how = data.draw(st.sampled_from(HOWS), label="how")
    k = data.draw(st.integers(-3, 3), label="k")
    lazy_x = as_how(x, how)
    check(lambda *_: lnp.diag_indices_from(lazy_x), np.diag_indices_from, x)
    check(lambda *_: lnp.tril_indices_from(lazy_x, k), np.tril_indices_from, x, k)
    check(lambda *_, **__: lnp.triu_indices_from(lazy_x, k=k), np.triu_indices_from, x, k=k)


@pytest.mark.parametrize("n", [0, 1, 3, 4])
@pytest.mark.parametrize("k", [-1, 0, 2])
def test_mask_indices(n: int, k: int) -> None:
    check(lnp.mask_indices, np.mask_indices, n, np.triu, k)
    check(lnp.mask_indices, np.mask_indices, n, np.tril, k)
    check(lambda *a: lnp.mask_indices(n, lnp.triu, k), np.mask_indices, n, np.triu, k)


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_ravel_multi_index_matches_numpy(data: st.DataObject) -> None:
    dims = tuple(data.draw(st.lists(st.integers(0, 4), min_size=0, max_size=3), label="dims"))
    how = data.draw(st.sampled_from(HOWS), label="how")
    shape = data.draw(shapes(max_dims=2, max_side=3), label="shape")
    coords = []
    for d in dims:
        dtype = data.draw(st.sampled_from(["int64", "int8", "uint8", "bool", "float64"]))
        if dtype == "bool":
            coords.append(data.draw(arrays(dtype, shape)))
        else:
            coords.append(data.draw(arrays(dtype, shape, min_value=-2, max_value=d + 1)))
    if data.draw(st.booleans()):
        coords = [
            np.clip(c, 0, max(d - 1, 0)).astype(c.dtype) for c, d in zip(coords, dims, strict=True)
        ]
    if coords and data.draw(st.integers(0, 5)) == 0:
        coords = coords[:-1]  # the wrong length
    modes = st.sampled_from(["raise", "wrap", "clip"])
    mode = data.draw(
        st.one_of(modes, st.lists(modes, min_size=len(dims), max_size=len(dims)).map(tuple))
    )
    order = data.draw(st.sampled_from(["C", "F"]))
    lazy_coords = tuple(as_how(c, how) for c in coords)
    check(
        lambda *_, **__: lnp.ravel_multi_index(lazy_coords, dims, mode=mode, order=order),
        np.ravel_multi_index,
        tuple(coords),
        dims,
        mode=mode,
        order=order,
    )


def test_ravel_multi_index_examples_and_errors() -> None:
    for args, kw in [
        ((([0, 1], [2, 0]), (2, 3)), {}),
        (((1, 2), (2, 3)), {}),
        ((([0, 2], [2, 0]), (2, 3)), {}),
        ((([0, -1], [5, 0]), (2, 3)), {"mode": ("clip", "wrap")}),
        ((([0, -1], [5, 0]), (2, 3)), {"mode": ("clip",)}),
        ((([0], [1]), (2, 3)), {"mode": "foo"}),
        ((([0, 1], [2, 0]), (2, 3)), {"order": "K"}),
        ((([[0], [1]], [0, 1, 2]), (2, 3)), {}),
        ((([0, 1], [0, 1, 2]), (2, 3)), {}),
        (((), ()), {}),
        ((([1],), 3), {}),
        ((([0],), (0,)), {"mode": "wrap"}),
        ((([0], [0]), (2**40, 2**40)), {}),
        ((([0], [0]), (2.0, 3)), {}),
        ((np.array([[0, 1], [2, 0]]), (2, 3)), {}),
        ((([], []), (2, 3)), {}),
    ]:
        check(lnp.ravel_multi_index, np.ravel_multi_index, *args, **kw)


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_unravel_index_errors_match_numpy(data: st.DataObject) -> None:
    # known indices out of range (negative, past the size, any for an empty shape),
    # non-integer indices and a 0-d shape: numpy's errors; pending ones in range
    dims = tuple(data.draw(st.lists(st.integers(0, 4), max_size=3), label="dims"))
    size = int(np.prod(dims))
    dtype = data.draw(st.sampled_from(["int64", "uint8", "bool", "float64"]))
    shape = data.draw(shapes(max_dims=2, max_side=3), label="shape")
    idx = data.draw(arrays(dtype, shape, min_value=-2, max_value=size + 1), label="idx")
    how = data.draw(st.sampled_from(["numpy", "known"]))
    order = data.draw(st.sampled_from(["C", "F"]))
    lazy_idx = as_how(idx, how)
    check(lambda *_: lnp.unravel_index(lazy_idx, dims, order), np.unravel_index, idx, dims, order)
    if size and dtype == "int64":
        inside = np.clip(idx, 0, size - 1) if dims else np.zeros((), "int64")
        lazy_inside = pending(inside)
        unravel = lnp.unravel_index
        check(lambda *_: unravel(lazy_inside, dims, order), np.unravel_index, inside, dims, order)


def test_unravel_index_examples_and_errors() -> None:
    for args in [
        (4, (2, 2)),
        (-1, (2, 2)),
        ([], (10, 3)),
        ((), (10, 3)),
        (np.array([], dtype=np.int64), (2, 1, 0)),
        ([1], (2, 1, 0)),
        (0, ()),
        ([0], ()),
        (1, ()),
        (1, (2**32 - 1, 2**31 + 1)),
        (0.5, (2, 2)),
        (1, (2.0, 2)),
        (5, 6),
    ]:
        check(lnp.unravel_index, np.unravel_index, *args)
    check(lnp.ravel_multi_index, np.ravel_multi_index, ([], [1]), (10, 3))  # empty list: TypeError


def test_ravel_multi_index_raise_computes_the_check_only() -> None:
    with lazygraph.config.change(eager_max_elements=0):
        rows, cols = pending(np.array([0, 1])), pending(np.array([2, 0]))
        flat = lnp.ravel_multi_index((rows, cols), (2, 3))
        assert flat._cur.owner is not None
        with pytest.raises(ValueError, match="ravel_multi_index: invalid entry"):
            lnp.ravel_multi_index((rows, cols + 5), (2, 3))
    np.testing.assert_array_equal(flat.compute(), [2, 3])


def test_ravel_multi_index_in_a_traced_function() -> None:
    def f(i: Any) -> Any:
        return lnp.ravel_multi_index((i, i), (3, 3), mode="clip")

    np.testing.assert_array_equal(lazygraph.jit(f)(np.array([0, 5])), [0, 8])
    with pytest.raises(TypeError, match="needs the value of an argument while it is traced"):
        lazygraph.jit(lambda i: lnp.ravel_multi_index((i, i), (3, 3)))(np.array([0, 1]))


# -- gradients ------------------------------------------------------------------------------------

RNG = np.random.default_rng(1)


@pytest.mark.parametrize(
    ("name", "fn", "point"),
    [
        ("r_", lambda a, b: lnp.r_[a, b, 5.0]._var, [RNG.normal(size=3), RNG.normal(size=2)]),
        ("c_", lambda a, b: lnp.c_[a, b]._var, [RNG.normal(size=3), RNG.normal(size=(3, 2))]),
        ("r_2d", lambda a, b: lnp.r_["0,2", a, b]._var, [RNG.normal(size=3), RNG.normal(size=3)]),
    ],
    ids=["r_", "c_", "r_2d"],
)
def test_verify_grad(name: str, fn: Any, point: list[np.ndarray]) -> None:
    verify_grad(fn, point)


def test_grad_through_r_with_a_range() -> None:
    """(A range is computed at once, a graph input verify_grad's own graph lacks:
    lazygraph.grad, which takes such inputs, checks it.)"""
    grad = lazygraph.grad(lambda a: lnp.sum(lnp.r_[a, 0:2, -1:1:3j] ** 2))
    np.testing.assert_allclose(grad(np.array([1.0, -2.0])), [2.0, -4.0])
