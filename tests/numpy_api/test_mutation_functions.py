"""The numpy functions that write into their first argument, ``put``,
``put_along_axis``, ``place``, ``putmask`` and ``copyto``, against numpy on
hypothesis-drawn inputs: the same final array (value, dtype, shape) or numpy's
exception type, with the first argument a known or pending lazy array (rebound)
or a numpy array (written by numpy), the other arguments numpy data or lazy;
writes through views; numpy's own functions on lazy arrays; what stays lazy;
and ``verify_grad`` through the rebound value."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.gradient import verify_grad
from tests.numpy_api.test_editing import DTYPES, HOWS, as_how, pending
from tests.tensor.harness import arrays, assert_numpy_equal, public_exception_type, shapes

EXAMPLES = 40


def _outcome(fn: Callable[[], Any]) -> tuple[Any, type[BaseException] | None]:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as exc:
            return None, public_exception_type(type(exc))


def check_writes(
    name: str, how: str, a: np.ndarray, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    """``lnp.<name>`` leaves its first argument (given ``how``: ``numpy`` is a
    numpy array written by numpy's function) as numpy's leaves a copy of ``a``,
    or raises numpy's exception type; it returns None."""
    expected = a.copy()
    ref, ref_exc = _outcome(lambda: getattr(np, name)(expected, *args, **kwargs))
    target = a.copy() if how == "numpy" else as_how(a, how)
    lazy_args = tuple(as_how(v, "pending" if how == "pending" else "known") for v in args)
    lazy_kwargs = {k: as_how(v, "known") for k, v in kwargs.items()}
    got, exc = _outcome(lambda: getattr(lnp, name)(target, *lazy_args, **lazy_kwargs))
    if exc is None and how != "numpy":  # (an error when it is computed counts too)
        _, exc = _outcome(lambda: target.compute())
    if ref_exc is not None:
        assert exc is not None and issubclass(exc, ref_exc), (
            f"numpy raised {ref_exc}, lazygraph {exc}"
        )
        return
    assert exc is None, f"lazygraph raised {exc}"
    assert got is None and ref is None
    value = target if how == "numpy" else target.compute()
    assert_numpy_equal(value, expected, check_dtype=True)


def _target(data: st.DataObject, min_dims: int = 0) -> np.ndarray:
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    return data.draw(arrays(dtype, shapes(min_dims=min_dims, max_dims=3)), label="a")


def _values(data: st.DataObject, size_max: int = 4) -> Any:
    """Values to write: numpy arrays of any dtype (finite, small: no undefined
    float-to-int casts), lists, scalars."""
    return data.draw(
        st.one_of(
            st.sampled_from(DTYPES).flatmap(
                lambda d: arrays(
                    d, shapes(max_dims=2, max_side=size_max), min_value=-100, max_value=100
                )
            ),
            st.lists(st.integers(-100, 100), max_size=size_max),
            st.integers(-100, 100),
            st.floats(-100, 100),
            st.booleans(),
        ),
        label="values",
    )


def _put(data: st.DataObject) -> Any:
    a = _target(data)
    n = a.size
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]), label="mode")
    ind = data.draw(
        st.one_of(
            st.lists(st.integers(-2 * n - 1, 2 * n + 1), max_size=5),
            arrays(
                "int64", shapes(max_dims=2, max_side=3), min_value=-2 * n - 1, max_value=2 * n + 1
            ),
            st.just(np.array([0.0])),
            st.just(np.array([1], np.uint64)),
            st.just([1.7]),
        ),
        label="ind",
    )
    if mode == "raise" and data.draw(st.booleans()) and n:
        ind = np.clip(np.asarray(ind, dtype=np.int64), -n, n - 1)
    return a, (ind, _values(data)), {"mode": mode}


def _put_along_axis(data: st.DataObject) -> Any:
    a = _target(data, min_dims=1)
    axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim - 1, a.ndim)), label="axis")
    if axis is None:
        n, shape = a.size, (data.draw(st.integers(0, 4)),)
    else:
        ax = axis % a.ndim if -a.ndim <= axis < a.ndim else 0
        n = a.shape[ax]
        shape = tuple(
            data.draw(st.integers(0, 3)) if k == ax else data.draw(st.sampled_from([1, s]))
            for k, s in enumerate(a.shape)
        )
    dtype = data.draw(st.sampled_from(["int64", "int8", "uint8", "float64"]))
    indices = data.draw(arrays(dtype, shape, min_value=-n, max_value=max(n - 1, 0)))
    if n == 0 and indices.size:
        indices = indices[..., :0] if indices.ndim else indices
    values = data.draw(
        st.one_of(
            st.integers(-100, 100),
            st.floats(-100, 100),
            arrays("float64", shape, min_value=-100, max_value=100),
        )
    )
    return a, (indices, values, axis), {}


def _mask_and_values(data: st.DataObject) -> Any:
    a = _target(data)
    size = data.draw(st.sampled_from([a.size, a.size, a.size + 1]), label="mask_size")
    mask = data.draw(
        st.one_of(
            arrays("bool", (size,)),
            arrays("bool", a.shape).filter(lambda m: m.size == size),
            arrays("float64", (size,), min_value=-1, max_value=1),
        ),
        label="mask",
    )
    return a, (mask, _values(data)), {}


def _copyto(data: st.DataObject) -> Any:
    a = _target(data)
    src_shape = data.draw(
        st.sampled_from([a.shape, a.shape[1:], (1, *a.shape), (2,), ()]), label="src_shape"
    )
    src = data.draw(
        st.one_of(
            st.sampled_from(DTYPES).flatmap(
                lambda d: arrays(d, src_shape, min_value=-100, max_value=100)
            ),
            st.integers(-300, 300),
            st.floats(-100, 100),
            st.booleans(),
            st.builds(complex, st.floats(-2, 2), st.floats(-2, 2)),
        ),
        label="src",
    )
    kwargs: dict[str, Any] = {
        "casting": data.draw(st.sampled_from(["same_kind", "unsafe", "safe", "no", "equiv"]))
    }
    if data.draw(st.booleans()):
        kwargs["where"] = data.draw(
            st.one_of(
                st.booleans(),
                arrays("bool", data.draw(st.sampled_from([a.shape, a.shape[-1:], (3,)]))),
            )
        )
    return a, (src,), kwargs


ROWS = {
    "put": _put,
    "put_along_axis": _put_along_axis,
    "place": _mask_and_values,
    "putmask": _mask_and_values,
    "copyto": _copyto,
}


@pytest.mark.parametrize("name", list(ROWS))
@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_writes_match_numpy(name: str, data: st.DataObject) -> None:
    a, args, kwargs = ROWS[name](data)
    how = data.draw(st.sampled_from((*HOWS, "view")), label="how")
    if how == "view":  # the first argument a view of a larger lazy array: written through
        base_np = np.stack([a, a])
        base = lnp.asarray(base_np.copy())  # (lazygraph makes an empty array it binds read-only)
        _, ref_exc = _outcome(lambda: getattr(np, name)(base_np[1, ...], *args, **kwargs))
        _, exc = _outcome(lambda: getattr(lnp, name)(base[1, ...], *args, **kwargs))
        if exc is None:
            _, exc = _outcome(lambda: base.compute())
        assert (exc is None) == (ref_exc is None), (ref_exc, exc)
        if exc is None:
            assert_numpy_equal(base.compute(), base_np, check_dtype=True)
        return
    check_writes(name, how, a, args, kwargs)


def test_examples_and_errors() -> None:
    a = np.zeros(3)
    for name, args, kwargs in [
        ("put", ([1.0], [1]), {}),
        ("put", (np.array([1.0]), [1]), {}),  # TypeError: float indices (an array)
        ("put", ([3], [1]), {}),  # IndexError
        ("put", ([-1, 5], [1, 2]), {"mode": "clip"}),
        ("put", ([0, 0], [5, 6]), {}),  # the last write wins
        ("put", ([0], [1]), {"mode": "foo"}),
        ("put", ([0], [1j]), {}),
        ("putmask", ([True] * 2, [1]), {}),  # ValueError: sizes differ
        ("putmask", ([True] * 3, np.array([1j])), {}),  # TypeError: not safe
        ("place", ([True] * 3, []), {}),  # ValueError: nothing to place
        ("place", ([False] * 3, []), {}),
        ("copyto", (np.ones(2),), {}),  # ValueError: broadcast
        ("copyto", (1,), {"where": [True, False]}),
        ("copyto", (5,), {"casting": "foo"}),
        ("put_along_axis", (np.array([[0]]), 1.0, 1), {}),
        ("put_along_axis", (np.array([0.5]), 1.0, 0), {}),  # IndexError: not integers
        ("put_along_axis", (np.array([[0, 1]]), 1.0, None), {}),
    ]:
        check_writes(name, "known", a, args, kwargs)
        check_writes(name, "numpy", a, args, kwargs)
    for first in ([1.0, 2.0], (1, 2)):  # numpy's TypeError for a first argument not an array
        for name, args in [
            ("put", ([0], [1])),
            ("place", ([True, False], [1])),
            ("putmask", ([True, False], [1])),
            ("copyto", (1,)),
        ]:
            with pytest.raises(TypeError):
                getattr(lnp, name)(first, *args)


def test_numpy_functions_write_lazy_arrays_lazily() -> None:
    x = lnp.asarray(np.zeros(6))
    with lazygraph.config.change(on_numpy_fallback="raise"):
        np.put(x, [0, 5], [1.0, 2.0])
        np.putmask(x, np.arange(6) == 2, 3.0)
        np.place(x, np.arange(6) == 3, [4.0])
        np.put_along_axis(x, np.array([4]), 5.0, axis=0)
        np.copyto(x, 9.0, where=np.arange(6) == 1)
    assert isinstance(x, lnp.Array)
    np.testing.assert_array_equal(x.compute(), [1.0, 9.0, 3.0, 4.0, 5.0, 2.0])


def test_numpy_arrays_are_written_with_computed_lazy_arguments() -> None:
    a = np.zeros(4)
    lnp.put(a, lnp.asarray([1, 2]), lnp.asarray([7.0, 8.0]) * 2)
    lnp.copyto(a, lnp.asarray(1.0), where=lnp.asarray([True, False, False, False]))
    np.testing.assert_array_equal(a, [1.0, 14.0, 16.0, 0.0])


def test_writes_stay_lazy() -> None:
    with lazygraph.config.change(eager_max_elements=0):
        x = pending(np.arange(6.0))
        idx = pending(np.array([0, 3]))
        mask = pending(np.arange(6) % 2 == 0)
        lnp.put(x, idx, [10.0, 30.0])
        lnp.place(x, mask, pending(np.array([-1.0, -2.0])))
        lnp.putmask(x, mask, x * 2)
        lnp.put_along_axis(x, idx, 0.5, axis=0)
        lnp.copyto(x, x + 1, where=mask)
        assert x._cur.owner is not None  # nothing was computed
    expected = np.arange(6.0)
    np.put(expected, [0, 3], [10.0, 30.0])
    np.place(expected, np.arange(6) % 2 == 0, [-1.0, -2.0])
    np.putmask(expected, np.arange(6) % 2 == 0, expected * 2)
    np.put_along_axis(expected, np.array([0, 3]), 0.5, axis=0)
    np.copyto(expected, expected + 1, where=np.arange(6) % 2 == 0)
    np.testing.assert_array_equal(x.compute(), expected)


def test_pending_out_of_bounds_index_raises_when_computed() -> None:
    x = lnp.asarray(np.zeros(3))
    with lazygraph.config.change(eager_max_elements=0):
        lnp.put(x, pending(np.array([5])), 1.0)  # as ``x[index] = v``: checked when computed
    with pytest.raises(IndexError):
        x.compute()
    with pytest.raises(ValueError, match="place: Cannot insert from an empty array"):
        lnp.place(lnp.asarray(np.zeros(3)), pending(np.array([False, True, False])), [])


# -- gradients ------------------------------------------------------------------------------------

RNG = np.random.default_rng(2)
M = RNG.normal(size=(3, 4))


def _written(fn: Callable[..., None]) -> Callable[..., Any]:
    """A function of (a, v) giving ``a`` after ``fn(a, v)`` wrote ``v`` into it."""

    def run(a: Any, v: Any) -> Any:
        arr = lnp.asarray(a)
        fn(arr, v)
        return arr._var

    return run


GRAD_CASES = [
    (
        "put_along_axis",
        _written(lambda a, v: lnp.put_along_axis(a, [[1], [0], [3]], v, axis=1)),
        [M, RNG.normal(size=(3, 1))],
    ),
    (
        "put_along_axis_none",
        _written(lambda a, v: lnp.put_along_axis(a, [0, 5, 7], v, axis=None)),
        [M, RNG.normal(size=3)],
    ),
    ("put", _written(lambda a, v: lnp.put(a, [1, -1, 6], v)), [M, RNG.normal(size=2)]),
    ("place", _written(lambda a, v: lnp.place(a, (M > 0).tolist(), v)), [M, RNG.normal(size=3)]),
    (
        "putmask",
        _written(lambda a, v: lnp.putmask(a, (M > 0).tolist(), v)),
        [M, RNG.normal(size=5)],
    ),
    (
        "copyto",
        _written(lambda a, v: lnp.copyto(a, v, where=(M > 0).tolist())),
        [M, RNG.normal(size=4)],
    ),
]


@pytest.mark.parametrize(("name", "fn", "point"), GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_verify_grad(name: str, fn: Callable[..., Any], point: list[np.ndarray]) -> None:
    verify_grad(fn, point)


def test_putmask_takes_its_array_by_position_only() -> None:
    # numpy's putmask(a, /, mask, values): mask and values by name, a never
    ref, lazy = np.zeros(3), lnp.zeros(3)
    np.putmask(ref, values=[5.0, 6.0], mask=[True, False, True])
    lnp.putmask(lazy, values=[5.0, 6.0], mask=[True, False, True])
    np.testing.assert_array_equal(lazy.compute(), ref)
    with pytest.raises(TypeError):
        np.putmask(a=ref, mask=[True] * 3, values=[1.0])
    with pytest.raises(TypeError):
        lnp.putmask(a=lazy, mask=[True] * 3, values=[1.0])
