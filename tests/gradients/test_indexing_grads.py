"""Gradients through indexing (issue 20): basic, advanced and boolean reads
(repeated indices accumulate), item assignment and in-place updates under
``grad`` (numpy's ``x[i] = v``, ``x[i] += v``, ``np.add.at`` and the
mutation functions), first and second order against finite differences.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from tests.gradients.cases import custom, points
from tests.gradients.checks import check_grads, leaves

R, C = points(1)

A = R(5, 6, 4)
MASK = R(5, 6) > 0

READS = [
    custom("x[3, 0, 1]", lambda x: x[3, 0, 1], A, ref=lambda x: x[3, 0, 1]),
    custom("x[::-1, 2:4, :]", lambda x: x[::-1, 2:4, :], A, ref=lambda x: x[::-1, 2:4, :]),
    custom("x[-1, ..., None]", lambda x: x[-1, ..., None], A, ref=lambda x: x[-1, ..., None]),
    custom("x[[0, 1, 2], :, :]", lambda x: x[[0, 1, 2], :, :], A, ref=lambda x: x[[0, 1, 2], :, :]),
    custom("x[3, 2:, [1, 3]]", lambda x: x[3, 2:, [1, 3]], A, ref=lambda x: x[3, 2:, [1, 3]]),
    custom("x[2:4] of a vector", lambda x: x[2:4], R(5), ref=lambda x: x[2:4]),
    custom("x[[0, 0]]", lambda x: lnp.sum(x[[0, 0]]), R(3), ref=lambda x: np.sum(x[[0, 0]])),
    custom("x[[0, 1, 0]]", lambda x: x[[0, 1, 0]], R(3), ref=lambda x: x[[0, 1, 0]]),
    custom("x[[[0, 2], [2, 2]]]", lambda x: x[np.array([[0, 2], [2, 2]])], R(3, 2)),
    custom("x[[0, 2, 0], [1, 1, 1]]", lambda x: x[[0, 2, 0], [1, 1, 1]], R(3, 2)),
    custom("x[:, [1, 1], [0, 3]]", lambda x: x[:, [1, 1], [0, 3]], A),
    custom("x[[1, 1], :, [0, 3]]", lambda x: x[[1, 1], :, [0, 3]], A),
    custom("x[mask]", lambda x: x[MASK], A, ref=lambda x: x[MASK]),
    custom("x[x > 0]", lambda x: x[x > 0], R(4, 3), ref=lambda x: x[x > 0]),
    custom("x[:, mask[0]]", lambda x: x[:, MASK[0]], A, ref=lambda x: x[:, MASK[0]]),
    custom("x[-2]", lambda x: x[-2], C(3, 2)),
    custom("x[[1, 1]] complex", lambda x: x[[1, 1]], C(3)),
    custom("x[True]", lambda x: x[True], R(2)),
    custom("x[()] of 0-d", lambda x: x[()] * 2, R()),
    custom(
        "fan-out y + z",
        lambda x: x[::-1, 2:4, :] + x[::-1, 3:5, :],
        A,
        ref=lambda x: x[::-1, 2:4, :] + x[::-1, 3:5, :],
    ),
    custom("x[2:6][1:3]", lambda x: x[2:6][1:3], R(7)),
    custom("dot(x[:2], x[2:])", lambda x: lnp.dot(x[:2], x[2:]), R(4)),
    custom("x.flat[[1, 5, 5]]", lambda x: x.flat[[1, 5, 5]], R(2, 3)),
    custom("x[int(W[:, -1])]", lambda x: x[:, :-1][np.ones(5, dtype=np.int64)].sum(), R(5, 10)),
]


@pytest.mark.parametrize(("fun", "ref", "point"), READS)
def test_reads(fun: Callable[..., Any], ref: Any, point: list[Any]) -> None:
    if ref is not None:
        np.testing.assert_array_equal(np.asarray(fun(*point)), ref(*point))
    check_grads(fun, *point)


@settings(max_examples=15)
@given(data=st.data())
def test_advanced_index_with_repeats_accumulates(data: st.DataObject) -> None:
    """Any integer index (repeats, negatives) of any shape: the gradient of
    ``sum(w * x[idx])`` is ``w`` scattered with addition (``np.add.at``)."""
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4), label="shape")
    x = np.random.default_rng(0).standard_normal(shape)
    idx = data.draw(
        hnp.arrays(np.int64, hnp.array_shapes(min_dims=0, max_dims=2, max_side=4),
                   elements=st.integers(-shape[0], shape[0] - 1)),
        label="idx",
    )  # fmt: skip
    w = np.random.default_rng(1).standard_normal(x[idx].shape)
    got = lazygraph.grad(lambda x: lnp.sum(x[idx] * w))(x)
    want = np.zeros_like(x)
    np.add.at(want, idx, w)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


# -- writes: the value of x after x[...] = v (rebinding), differentiated in x and v ---------


def _set(index: Any) -> Callable[[Any, Any], Any]:
    def f(x: Any, v: Any) -> Any:
        y = x * 1.0
        y[index] = v
        return y * x

    return f


def _iadd(index: Any) -> Callable[[Any, Any], Any]:
    def f(x: Any, v: Any) -> Any:
        y = x * 1.0
        y[index] += v * v
        return y

    return f


def _add_at(x: Any, v: Any) -> Any:
    y = x * 1.0
    lnp.add.at(y, [0, 2, 0, 4], v)
    return y


def _put(x: Any, v: Any) -> Any:
    y = x * 1.0
    lnp.put(y, [1, 3], v)
    return y


def _put_along_axis(x: Any, v: Any) -> Any:
    y = x * 1.0
    lnp.put_along_axis(y, np.array([[0], [2]]), v, axis=1)
    return y


def _putmask(x: Any, v: Any) -> Any:
    y = x * 1.0
    lnp.putmask(y, np.array([True, False, True, False, True]), v)
    return y


def _place(x: Any, v: Any) -> Any:
    y = x * 1.0
    lnp.place(y, np.array([True, False, True, False, True]), v)
    return y


def _copyto(x: Any, v: Any) -> Any:
    y = x * 1.0
    lnp.copyto(y, v, where=np.array([True, False, True, False, True]))
    return y


def _fill_diagonal(x: Any, v: Any) -> Any:
    y = x * 1.0
    lnp.fill_diagonal(y, v)
    return y


def _view_write(x: Any, v: Any) -> Any:
    y = x * 1.0
    row = y[1]
    row[...] = v  # writes through the view into y
    return y


WRITES = [
    custom("x[1] = v", _set(1), R(4, 3), R(3)),
    custom("x[1:3] = v (broadcast)", _set(slice(1, 3)), R(4, 3), R(3)),
    custom("x[[0, 2]] = v", _set([0, 2]), R(4, 3), R(2, 3)),
    custom("x[mask] = v", _set(np.array([True, False, True, True])), R(4), R(3)),
    custom("x[x > 0] = scalar", lambda x, v: _set(x > 0)(x, v), R(4, 3), R()),
    custom("x[1, ::2] = v", _set((1, slice(None, None, 2))), R(3, 4), R(2)),
    custom("x[[1, 1]] += v*v", _iadd([1, 1]), R(4), R(2)),
    custom("x[1:] += v*v", _iadd(slice(1, None)), R(4, 2), R(2)),
    custom("x[1] = v complex", _set(1), C(3, 2), C(2)),
    custom("add.at repeated", _add_at, R(5), R(4)),
    custom("put", _put, R(2, 3), R(2)),
    custom("put_along_axis", _put_along_axis, R(2, 3), R(2, 1)),
    custom("putmask", _putmask, R(5), R(5)),
    custom("place", _place, R(5), R(3)),
    custom("copyto(where=)", _copyto, R(5), R(5)),
    custom("fill_diagonal", _fill_diagonal, R(3, 3), R()),
    custom("write through a view", _view_write, R(3, 2), R(2)),
]


@pytest.mark.parametrize(("fun", "ref", "point"), WRITES)
def test_writes(fun: Callable[..., Any], ref: Any, point: list[Any]) -> None:
    want = fun(*[np.array(p) for p in point])  # numpy runs the same code on plain arrays
    np.testing.assert_allclose(leaves(fun(*[lnp.asarray(p) for p in point]))[0], want)
    check_grads(fun, *point)


def test_overwritten_elements_get_no_gradient() -> None:
    def f(x: Any) -> Any:
        y = x * 2.0
        y[[0, 2]] = 0.0
        return lnp.sum(y)

    np.testing.assert_array_equal(lazygraph.grad(f)(np.ones(4)), [0.0, 2.0, 0.0, 2.0])


@settings(max_examples=15)
@given(
    idx=hnp.arrays(np.int64, st.integers(1, 6), elements=st.integers(-4, 3)),
    as_data=st.booleans(),
)
def test_set_with_repeats_differentiates_the_value_that_wins(
    idx: np.ndarray, as_data: bool
) -> None:
    """numpy's ``x[idx] = v`` keeps the last of repeated entries: only it gets a
    gradient (constant indices, and indices that arrive as data)."""
    x, w = np.arange(4.0), np.array([1.0, 10.0, 100.0, 1000.0])
    v = np.linspace(1.0, 2.0, idx.size)

    def f(x: Any, v: Any) -> Any:
        y = x * 1.0
        y[lnp.asarray(idx) if as_data else idx] = v
        return lnp.sum(y * w)

    gx, gv = lazygraph.grad(f, argnums=(0, 1))(x, v)
    last = {int(i) % 4: j for j, i in enumerate(idx)}
    want_v = np.zeros(idx.size)
    for i, j in last.items():
        want_v[j] = w[i]
    want_x = w.copy()
    want_x[list(last)] = 0.0
    np.testing.assert_array_equal(gv, want_v)
    np.testing.assert_array_equal(gx, want_x)
