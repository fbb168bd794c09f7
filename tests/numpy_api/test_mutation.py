"""Mutation and view semantics: ``a[idx] = v``, in-place operators, and numpy's
view aliasing (writes through a view are seen by its base and every other view
of it, and the other way round), checked against numpy running the same program.
"""

from __future__ import annotations

import warnings
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from lazygraph.compile.cache import stats
from tests.tensor.harness import ALL, BACKEND, arrays, assert_numpy_equal, numpy_result


def _assert_same(lazy: lnp.Array, expected: np.ndarray) -> None:
    assert lazy.shape == expected.shape
    assert lazy.dtype == expected.dtype
    assert_numpy_equal(lazy.compute(), expected, signed_zeros=True)


# -- the examples ---------------------------------------------------------


def test_write_through_row_view_changes_base() -> None:
    a_np = np.zeros((3, 4))
    a = lnp.asarray(a_np)
    b, b_np = a[0], a_np[0]
    b[:] = 1
    b_np[:] = 1
    _assert_same(a, a_np)
    _assert_same(a.T, a_np.T)


def test_transpose_of_modified_base_sees_change() -> None:
    a_np = np.arange(6.0).reshape(2, 3)
    a = lnp.asarray(a_np)
    t, t_np = a.T, a_np.T
    a[1, 2] = -5
    a_np[1, 2] = -5
    _assert_same(t, t_np)
    t[0] = 9  # and back through the transpose
    t_np[0] = 9
    _assert_same(a, a_np)


def test_views_of_views_and_siblings() -> None:
    a_np = np.arange(24.0).reshape(2, 3, 4)
    a = lnp.asarray(a_np)
    v1, v1_np = a[1], a_np[1]
    v2, v2_np = v1[:, 1:3], v1_np[:, 1:3]
    sib, sib_np = a[:, 0], a_np[:, 0]
    v2 += 100
    v2_np += 100
    sib[...] = -1
    sib_np[...] = -1
    for lazy, ref in ((a, a_np), (v1, v1_np), (v2, v2_np), (sib, sib_np)):
        _assert_same(lazy, ref)


def test_reshape_view_and_copy_follow_numpy() -> None:
    a_np = np.zeros((2, 6))
    a = lnp.asarray(a_np)
    r, r_np = a.reshape(3, 4), a_np.reshape(3, 4)  # contiguous: a view
    r[0] = 1
    r_np[0] = 1
    _assert_same(a, a_np)
    s, s_np = a[:, :2], a_np[:, :2]
    flat, flat_np = s.reshape(-1), s_np.reshape(-1)  # not evenly strided: numpy copies
    assert not np.shares_memory(flat_np, a_np)
    flat[:] = 7
    flat_np[:] = 7
    _assert_same(a, a_np)
    _assert_same(flat, flat_np)
    rav, rav_np = a.ravel(), a_np.ravel()
    rav[-1] = 3
    rav_np[-1] = 3
    _assert_same(a, a_np)
    with pytest.raises(ValueError):
        s.reshape(-1, copy=False)


def test_flatten_and_copy_are_independent() -> None:
    a_np = np.zeros((2, 2))
    a = lnp.asarray(a_np)
    f, c = a.flatten(), a.copy()
    f[0] = 1
    c[0, 0] = 2
    _assert_same(a, a_np)
    assert f.compute()[0] == 1 and c.compute()[0, 0] == 2


def test_rebinding_is_seen_by_every_name() -> None:
    a = lnp.asarray(np.zeros(3))
    alias = a
    a += 1
    a[0] = 5
    np.testing.assert_array_equal(alias.compute(), [5.0, 1.0, 1.0])
    b = a + 0  # a new array, not a view
    a[1] = 9
    np.testing.assert_array_equal(b.compute(), [5.0, 1.0, 1.0])


def test_setitem_value_reads_old_state() -> None:
    """numpy's overlapping assignment behaves as if the value were copied first."""
    a_np = np.arange(5.0)
    a = lnp.asarray(a_np)
    a[1:] = a[:-1]
    a_np[1:] = a_np[:-1]
    _assert_same(a, a_np)


def test_getitem_advanced_then_augmented_assign() -> None:
    """``a[idx] += v`` with repeated indices adds once (numpy's buffered semantics)."""
    a_np = np.zeros(4)
    a = lnp.asarray(a_np)
    a[[0, 0, 2]] += 1
    a_np[[0, 0, 2]] += 1
    _assert_same(a, a_np)
    a[a > 0] *= 10
    a_np[a_np > 0] *= 10
    _assert_same(a, a_np)


def test_boolean_mask_assign_with_lazy_mask_and_values() -> None:
    x_np = np.array([-1.0, 2.0, -3.0, 4.0])
    x = lnp.asarray(x_np)
    x[x < 0] = x[x < 0] * -2
    x_np[x_np < 0] = x_np[x_np < 0] * -2
    _assert_same(x, x_np)


def test_fill_and_sort_in_place() -> None:
    a_np = np.array([3.0, 1.0, 2.0])
    a = lnp.asarray(a_np)
    view = a[:2]
    a.sort()
    a_np.sort()
    _assert_same(a, a_np)
    _assert_same(view, a_np[:2])
    view.fill(0)
    a_np[:2].fill(0)
    _assert_same(a, a_np)


def test_read_only_views() -> None:
    a = lnp.asarray(np.arange(9.0).reshape(3, 3))
    d = a.diagonal()
    with pytest.raises(ValueError, match="read-only"):
        d[0] = 1
    z = lnp.asarray(np.array([1 + 2j, 3 - 1j]))
    np.testing.assert_array_equal(z.imag.compute(), [2.0, -1.0])
    with pytest.raises(NotImplementedError):
        z.real[0] = 5
    r = lnp.asarray(np.arange(3.0))
    r.real[0] = 7  # a real array's .real is the array itself
    np.testing.assert_array_equal(r.compute(), [7.0, 1.0, 2.0])


def test_setitem_casting_and_errors_are_numpys() -> None:
    a = lnp.asarray(np.zeros(3, dtype=np.int8))
    a[0] = 2.9  # unsafe cast, as numpy
    a[1] = True
    np.testing.assert_array_equal(a.compute(), np.array([2, 1, 0], dtype=np.int8))
    with pytest.raises(OverflowError):
        a[0] = 300
    with pytest.raises(ValueError):
        a[:2] = [1, 2, 3]
    with pytest.raises(IndexError):
        a[5] = 1


def test_numpy_data_is_snapshotted_at_entry() -> None:
    """Later writes to the numpy buffer do not leak into lazy results (numpy computed
    them eagerly); ``copy=False`` opts into sharing."""
    data = np.arange(3.0)
    x = lnp.asarray(data)
    y = x * 2
    data[0] = 100.0
    np.testing.assert_array_equal(y.compute(), [0.0, 2.0, 4.0])
    shared = lnp.asarray(data, copy=False)
    z = shared + 0
    data[1] = -1.0
    np.testing.assert_array_equal(z.compute(), [100.0, -1.0, 2.0])


def test_computed_results_are_writeable_and_private() -> None:
    x = lnp.asarray(np.arange(3.0))
    out = x.compute()
    out[0] = 42.0
    np.testing.assert_array_equal(x.compute(), [0.0, 1.0, 2.0])
    y = x + 1
    first = y.compute()
    first[:] = 0
    np.testing.assert_array_equal(y.compute(), [1.0, 2.0, 3.0])


def test_materializing_in_a_loop_reuses_one_compiled_function() -> None:
    """Pinning live intermediates keeps each iteration's graph the same size."""
    x = lnp.asarray(np.ones(4))
    x_np = np.ones(4)
    x = x * 1.5
    float(x[0])
    before = stats().compiles
    for _ in range(6):
        x = x * 1.5
        x_np = x_np * 1.5
        assert float(x[0]) == x_np[0] * 1.5
    assert stats().compiles - before <= 2  # the steady-state graph compiles once
    np.testing.assert_allclose(x.compute(), x_np * 1.5)


def test_loops_do_not_keep_old_values_alive() -> None:
    """Rebinding and pinning drop the old graph: bound values do not pile up."""
    import gc

    from lazygraph.numpy._convert import live_bound_inputs

    a = lnp.asarray(np.ones((50, 4)))
    row = a[0]
    gc.collect()
    before = live_bound_inputs()
    for _ in range(20):
        a += 1
        float(row[0])
    gc.collect()
    assert live_bound_inputs() <= before + 2
    assert float(row[0]) == 21.0


# -- a random program on numpy and lazy arrays side by side -------------------------


@st.composite
def _programs(draw: Any) -> tuple[np.ndarray, list[tuple[Any, ...]]]:
    dtype = draw(st.sampled_from(["float64", "int32", "complex64", "bool", "uint8"]))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    base = draw(arrays(dtype, shape, finite=True))
    kinds = ["index", "T", "reshape", "swap", "write", "iadd", "copy", "read"]
    kinds += ["element", "hand_out", "arith", "write", "arith"]
    steps = []
    for _ in range(draw(st.integers(1, 10))):
        kind = draw(st.sampled_from(kinds))
        steps.append((kind, draw(st.integers(0, 100)), draw(st.randoms(use_true_random=False))))
    return base, steps


def _write_value(ref: np.ndarray, rnd: Any) -> tuple[Any, Any]:
    """A value to assign, for numpy and for lazygraph: a numpy scalar of the
    array's dtype, a Python int, or a known 0-d lazy array."""
    number = rnd.randint(0, 9)
    value = ref.dtype.type(number)
    form = rnd.choice(["numpy scalar", "python int", "lazy 0-d"])
    if form == "python int" and ref.dtype != np.bool_:
        return number, number
    if form == "lazy 0-d":
        return value, lnp.asarray(np.asarray(value))
    return value, value


@settings(max_examples=80, deadline=None)
@given(program=_programs(), eager_max_elements=st.sampled_from([None, 1]))
def test_random_view_programs_match_numpy(
    program: tuple[np.ndarray, list[Any]], eager_max_elements: int | None
) -> None:
    """Views, writes (element, slice, in-place operators), element reads,
    hand-outs (``numpy.asarray``: a snapshot, numpy's ``ref.copy()``) and
    results of arithmetic, interleaved at random: every one keeps numpy's value
    to the end. Item assignment writes into a buffer the array alone can see
    (copy on write); nothing computed from the array before may follow those
    writes. ``eager_max_elements=1``: arithmetic stays lazy, reading the
    array's value when computed."""
    from lazygraph.configuration import config

    limit = config.eager_max_elements if eager_max_elements is None else eager_max_elements
    with config.change(eager_max_elements=limit):
        _run_program(*program)


def _run_program(base: np.ndarray, steps: list[Any]) -> None:
    if BACKEND == "jax" and base.dtype.kind in "fc":
        # XLA on the CPU flushes subnormal values to zero, results included (by
        # design): keep the doublings of "arith" away from them
        tiny = np.finfo(base.dtype).tiny * 2.0**20
        base = np.where(np.abs(base) < tiny, np.zeros_like(base), base)
    pairs: list[tuple[np.ndarray, lnp.Array]] = [(base.copy(), lnp.asarray(base))]
    kept: list[tuple[Any, Any]] = []  # hand-outs and elements: compared at the end
    for kind, pick, rnd in steps:
        ref, lazy = pairs[pick % len(pairs)]
        if kind == "index" and ref.ndim:
            idx = tuple(
                rnd.choice([slice(None), slice(None, None, -1), slice(1, None, 2), 0, -1, None])
                for _ in range(rnd.randint(1, ref.ndim))
            )
            expected, exc = numpy_result(lambda: ref[idx])  # noqa: B023
            if exc is None:
                if isinstance(expected, np.ndarray):
                    pairs.append((expected, lazy[idx]))
                else:  # a full integer index gives numpy a scalar: a copy, not a view
                    kept.append((expected, lazy[idx]))
        elif kind == "element" and ref.size:
            idx = tuple(rnd.randrange(-s, s) for s in ref.shape)
            got = lazy[idx]
            _assert_same_element(got, ref[idx])
            kept.append((ref[idx], got))
        elif kind == "hand_out":
            kept.append((ref.copy(), np.asarray(lazy)))
        elif kind == "arith" and ref.dtype != np.bool_:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pairs.append((ref * ref.dtype.type(2), lazy * ref.dtype.type(2)))
        elif kind == "T":
            pairs.append((ref.T, lazy.T))
        elif kind == "swap" and ref.ndim >= 2:
            pairs.append((ref.swapaxes(0, -1), lazy.swapaxes(0, -1)))
        elif kind == "reshape" and ref.size:
            pairs.append((ref.reshape(-1), lazy.reshape(-1)))
        elif kind == "copy":
            pairs.append((ref.copy(), lazy.copy()))
        elif kind == "write" and ref.size:
            idx = tuple(
                rnd.randrange(-s, s) if s else 0 for s in ref.shape[: rnd.randint(0, ref.ndim)]
            )
            value, lazy_value = _write_value(ref, rnd)
            ref[idx] = value
            lazy[idx] = lazy_value
        elif kind == "read":
            # Materializing mid-program pins live arrays; views must stay in step.
            _assert_same(lazy, ref)
        elif kind == "iadd" and ref.dtype != np.bool_:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ref += ref.dtype.type(3)
                lazy += ref.dtype.type(3)
    for ref, lazy in pairs:
        _assert_same(lazy, ref)
    for expected, got in kept:
        _assert_same_element(got, expected)


def _assert_same_element(got: Any, expected: Any) -> None:
    """numpy's scalar (or hand-out) for a known array; an element of an array
    still to be computed is a lazy 0-d array of the same dtype."""
    if isinstance(got, lnp.Array):
        assert got.shape == () and got.dtype == expected.dtype
    else:
        assert type(got) is type(expected)
    assert_numpy_equal(np.asarray(got), np.asarray(expected), signed_zeros=True)


def _check_setitem(a: np.ndarray, idx: Any, value: Any) -> None:
    expected = a.copy()

    def assign() -> None:
        expected[idx] = value

    _, exc = numpy_result(assign)
    lazy = lnp.asarray(a)
    if exc is not None:
        with pytest.raises(exc):
            lazy[idx] = value
            lazy.compute()
        return
    lazy[idx] = value
    _assert_same(lazy, expected)


@settings(max_examples=50, deadline=None)
@given(dtype=st.sampled_from(ALL), data=st.data())
def test_setitem_basic_index_matches_numpy(dtype: str, data: Any) -> None:
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
    a = data.draw(arrays(dtype, shape))
    idx = data.draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    target_shape = a[idx].shape
    value = data.draw(arrays(dtype, hnp.broadcastable_shapes(target_shape, max_dims=2, min_side=0)))
    _check_setitem(a, idx, value)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_setitem_advanced_and_mask_match_numpy(data: Any) -> None:
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    a = data.draw(arrays("float64", shape))
    if data.draw(st.booleans()):
        idx: Any = data.draw(hnp.integer_array_indices(shape))
    else:
        idx = data.draw(arrays("bool", shape))
    target = a[idx].shape
    value = data.draw(arrays("float64", hnp.broadcastable_shapes(target, max_dims=1, min_side=0)))
    _check_setitem(a, idx, value)


#: numpy functions that return a view of their array argument
VIEW_FUNCTIONS: list[tuple[str, Any]] = [
    ("transpose", lambda m, a: m.transpose(a)),
    ("transpose_axes", lambda m, a: m.transpose(a, (1, 2, 0))),
    ("permute_dims", lambda m, a: m.permute_dims(a, (2, 0, 1))),
    ("matrix_transpose", lambda m, a: m.matrix_transpose(a)),
    ("linalg.matrix_transpose", lambda m, a: m.linalg.matrix_transpose(a)),
    ("swapaxes", lambda m, a: m.swapaxes(a, 0, -1)),
    ("moveaxis", lambda m, a: m.moveaxis(a, 0, -1)),
    ("rollaxis", lambda m, a: m.rollaxis(a, 2)),
    ("expand_dims", lambda m, a: m.expand_dims(a, (0, 2))),
    ("squeeze", lambda m, a: m.squeeze(a)),
    ("squeeze_axis", lambda m, a: m.squeeze(a, axis=1)),
    ("atleast_3d", lambda m, a: m.atleast_3d(a[:, 0, :])),
    ("flip", lambda m, a: m.flip(a)),
    ("flip_axis", lambda m, a: m.flip(a, axis=(0, -1))),
    ("fliplr", lambda m, a: m.fliplr(a)),
    ("flipud", lambda m, a: m.flipud(a)),
]


@pytest.mark.parametrize("name, make", VIEW_FUNCTIONS, ids=[n for n, _ in VIEW_FUNCTIONS])
def test_functions_numpy_returns_views_of_return_views(name: str, make: Any) -> None:
    """A write to the base shows in the view, and a write to the view in the
    base, as numpy's views do (not a snapshot taken at the call)."""
    a_np = np.arange(6.0).reshape(2, 1, 3)
    a = lnp.asarray(a_np)
    v, v_np = make(lnp, a), make(np, a_np)
    a[1, 0, 2] = a_np[1, 0, 2] = -5.0
    _assert_same(v, v_np)
    v[(0,) * v.ndim] = v_np[(0,) * v_np.ndim] = 9.0
    _assert_same(a, a_np)
    _assert_same(v, v_np)


_SHAPES_OF_12 = [(12,), (3, 4), (4, 3), (2, 2, 3), (1, 12, 1), (-1, 6), (2, -1, 2), 12]


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_assigning_a_shape_reshapes_in_place_and_keeps_views_aliased(data: Any) -> None:
    # ``a.shape = s`` is a reshape of the same data: views taken before and after
    # (and the array itself) keep seeing each other's writes, as in numpy; a shape
    # needing a copy (of a transpose) is numpy's AttributeError, a wrong size its
    # ValueError
    start = data.draw(st.sampled_from(_SHAPES_OF_12[:5]))
    ref, lazy = np.arange(12.0).reshape(start), lnp.asarray(np.arange(12.0)).reshape(start)
    if data.draw(st.booleans()):  # a Fortran-ordered view: some shapes need a copy
        ref, lazy = ref.T, lazy.T
    before_ref, before_lazy = ref[..., :1], lazy[..., :1]
    for step in range(data.draw(st.integers(1, 3))):
        shape = data.draw(st.sampled_from([*_SHAPES_OF_12, (5,), (2, 5)]))
        try:
            ref.shape = shape
        except (AttributeError, ValueError) as exc:
            with pytest.raises(type(exc)):
                lazy.shape = shape
            continue
        lazy.shape = shape
        assert lazy.shape == ref.shape
        index = tuple(data.draw(st.integers(0, n - 1)) for n in ref.shape)
        ref[index] = lazy[index] = -1.0 - step
        after_ref, after_lazy = ref[:1], lazy[:1]
        after_ref[...] = after_lazy[...] = 100.0 + step
    before_ref[...] += 0.5
    before_lazy[...] += 0.5
    for got, want in [(lazy, ref), (before_lazy, before_ref)]:
        np.testing.assert_array_equal(np.asarray(got), want, strict=True)
