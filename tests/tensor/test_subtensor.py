"""Basic indexing (Subtensor) and its updates (IncSubtensor) against numpy.

The table rows draw an array of any dtype and a random basic index for its
shape (ints incl. negative, slices with out-of-range bounds and negative steps,
``None``, ``...``), and compare ``x[idx]``, ``x[idx] = y`` and ``x[idx] += y``
with numpy: values, dtype, shape, errors and ``infer_shape``.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.tensor as lt
from lazygraph.tensor.subtensor import IncSubtensor, Subtensor
from tests.tensor.harness import ALL, OpCase, arrays, check_case, numpy_result, run, shapes

# -- strategies --------------------------------------------------------------------


@st.composite
def any_array(
    draw: Any, dtypes: tuple[str, ...] = ALL, min_dims: int = 0, **kw: Any
) -> tuple[np.ndarray]:
    """One array of any of ``dtypes`` and shape (``kw`` go to ``arrays``)."""
    dtype = draw(st.sampled_from(dtypes))
    shape = draw(shapes(min_dims=min_dims, max_dims=4, max_side=4))
    return (draw(arrays(dtype, shape, **kw)),)


def slices(n: int) -> st.SearchStrategy[slice]:
    """Slices for an axis of size ``n``: bounds past either end, negative steps."""
    bound = st.none() | st.integers(-n - 3, n + 3)
    step = st.none() | st.integers(-3, 3).filter(lambda s: s != 0)
    return st.builds(slice, bound, bound, step)


@st.composite
def basic_indices(draw: Any, shape: tuple[int, ...]) -> Any:
    """A valid basic index for ``shape``: ints in range, slices, None, at most one ``...``."""
    ndim = len(shape)
    k = draw(st.integers(0, ndim))
    ellipsis_at = draw(st.none() | st.integers(0, k))
    if ellipsis_at is None:
        dims = list(range(k))
    else:
        dims = list(range(ellipsis_at)) + list(range(ndim - (k - ellipsis_at), ndim))
    items: list[Any] = []
    for d in dims:
        n = shape[d]
        options = [slices(n)]
        if n > 0:
            options.append(st.integers(-n, n - 1))
            options.append(st.integers(-n, n - 1).map(np.int64))
        items.append(draw(st.one_of(options)))
    if ellipsis_at is not None:
        items.insert(ellipsis_at, Ellipsis)
    for _ in range(draw(st.integers(0, 2))):
        items.insert(draw(st.integers(0, len(items))), None)
    if len(items) == 1 and draw(st.booleans()):
        return items[0]
    return tuple(items)


@st.composite
def bad_indices(draw: Any, shape: tuple[int, ...]) -> Any:
    """An index numpy rejects: an out-of-range int, or one index too many."""
    ndim = len(shape)
    if ndim == 0 or draw(st.booleans()):
        return tuple(draw(st.integers(-1, 0) | slices(1)) for _ in range(ndim + 1))
    d = draw(st.integers(0, ndim - 1))
    n = shape[d]
    bad = draw(st.integers(n, n + 5) | st.integers(-n - 5, -n - 1))
    return (slice(None),) * d + (bad,)


def target_shape(x: np.ndarray, index: Any) -> tuple[int, ...]:
    """The shape of ``x[index]`` (``()`` when numpy rejects the index: the row
    then checks that lazygraph rejects it too)."""
    try:
        return np.empty(x.shape, dtype=np.int8)[index].shape
    except IndexError:
        return ()


@st.composite
def update_values(
    draw: Any, x: np.ndarray, index: Any, dtypes: tuple[str, ...] | None, lead: bool = True
) -> Any:
    """A value for ``x[index] = y``: broadcastable to the target, with ``lead``
    sometimes an extra leading 1 (numpy's assignment accepts it, ``+=`` does not;
    ``np.add.at`` gives garbage or crashes, so its rows pass ``lead=False``)."""
    target = target_shape(x, index)
    options = [target, target[1:], tuple(1 for _ in target)]
    shape = draw(st.sampled_from([*options, (1, *target)] if lead else options))
    dtype = x.dtype.name if dtypes is None else draw(st.sampled_from(dtypes))
    return draw(arrays(dtype, shape))


def python_scalars() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.booleans(),
        st.integers(-300, 300),
        st.floats(allow_nan=True, allow_infinity=True),
        st.complex_numbers(max_magnitude=10),
    )


# -- numpy references ------------------------------------------------------------


def np_getitem(x: np.ndarray, *, index: Any) -> Any:
    return x[index]


def np_set(x: np.ndarray, y: Any = None, *, index: Any, scalar: Any = None) -> np.ndarray:
    x[index]  # set_subtensor(x[index], y) reads x[index] first: its errors come first
    out = x.copy()
    out[index] = scalar if y is None else y
    return out


def np_inc(x: np.ndarray, y: Any = None, *, index: Any, scalar: Any = None) -> np.ndarray:
    x[index]  # set_subtensor(x[index], y) reads x[index] first: its errors come first
    out = x.copy()
    out[index] += scalar if y is None else y
    return out


def np_add_at(x: np.ndarray, y: Any = None, *, index: Any, scalar: Any = None) -> np.ndarray:
    x[index]  # set_subtensor(x[index], y) reads x[index] first: its errors come first
    out = x.copy()
    np.add.at(out, index, scalar if y is None else y)
    return out


def lg_getitem(x: Any, *, index: Any) -> Any:
    return x[index]


def lg_set(x: Any, y: Any = None, *, index: Any, scalar: Any = None) -> Any:
    return lt.set_subtensor(x[index], scalar if y is None else y)


def lg_inc(x: Any, y: Any = None, *, index: Any, scalar: Any = None) -> Any:
    return lt.inc_subtensor(x[index], scalar if y is None else y, ignore_duplicates=True)


def lg_add_at(x: Any, y: Any = None, *, index: Any, scalar: Any = None) -> Any:
    return lt.inc_subtensor(x[index], scalar if y is None else y)


# -- the table -------------------------------------------------------------------------
#
# ``extra["index"](values)`` draws the index for the drawn arrays; ``extra["more"]``
# (optional) draws further input arrays (the update value) given the index, and
# ``extra["scalar"]`` a Python scalar update value.

FLOATS = ("float32", "float64")

TABLE = [
    OpCase(
        "getitem",
        lg_getitem,
        np_getitem,
        any_array(),
        extra={"index": lambda v: basic_indices(v[0].shape)},
    ),
    OpCase(
        "getitem_unknown_shape",
        lg_getitem,
        np_getitem,
        any_array(FLOATS),
        static_shape=False,
        extra={"index": lambda v: basic_indices(v[0].shape)},
    ),
    OpCase(
        "getitem_bad_index",
        lg_getitem,
        np_getitem,
        any_array(FLOATS),
        extra={"index": lambda v: bad_indices(v[0].shape)},
    ),
    OpCase(
        "getitem_bad_index_unknown_shape",
        lg_getitem,
        np_getitem,
        any_array(FLOATS),
        static_shape=False,
        extra={"index": lambda v: bad_indices(v[0].shape)},
    ),
    OpCase(
        "set_subtensor",
        lg_set,
        np_set,
        any_array(),
        signed_zeros=True,
        extra={
            "index": lambda v: basic_indices(v[0].shape),
            "more": lambda v, i: update_values(v[0], i, None),
        },
    ),
    OpCase(
        "set_subtensor_cast",
        lg_set,
        np_set,
        any_array(),
        extra={
            "index": lambda v: basic_indices(v[0].shape),
            "more": lambda v, i: update_values(v[0], i, ALL),
        },
    ),
    OpCase(
        "set_subtensor_unknown_shape",
        lg_set,
        np_set,
        any_array(FLOATS),
        static_shape=False,
        extra={
            "index": lambda v: basic_indices(v[0].shape),
            "more": lambda v, i: update_values(v[0], i, None),
        },
    ),
    OpCase(
        "set_subtensor_python_scalar",
        lg_set,
        np_set,
        any_array(),
        extra={"index": lambda v: basic_indices(v[0].shape), "scalar": python_scalars()},
    ),
    OpCase(
        "inc_subtensor",
        lg_inc,
        np_inc,
        any_array(),
        extra={
            "index": lambda v: basic_indices(v[0].shape),
            "more": lambda v, i: update_values(v[0], i, None),
        },
    ),
    OpCase(
        "inc_subtensor_cast",
        lg_inc,
        np_inc,
        any_array(),
        extra={
            "index": lambda v: basic_indices(v[0].shape),
            "more": lambda v, i: update_values(v[0], i, ALL),
        },
    ),
    OpCase(
        "inc_subtensor_python_scalar",
        lg_inc,
        np_inc,
        any_array(),
        extra={"index": lambda v: basic_indices(v[0].shape), "scalar": python_scalars()},
    ),
    OpCase(
        "inc_subtensor_add_at",
        lg_add_at,
        np_add_at,
        any_array(),
        extra={
            "index": lambda v: basic_indices(v[0].shape),
            "more": lambda v, i: update_values(v[0], i, ALL, lead=False),
        },
    ),
    OpCase(
        "inc_subtensor_add_at_python_scalar",
        lg_add_at,
        np_add_at,
        any_array(),
        extra={"index": lambda v: basic_indices(v[0].shape), "scalar": python_scalars()},
    ),
]


def bind_case(case: OpCase, data: st.DataObject) -> tuple[OpCase, tuple[np.ndarray, ...]]:
    """Draw a row's arrays and index; return the row with the index bound in."""
    values = data.draw(case.inputs, label="arrays")
    index = data.draw(case.extra["index"](values), label="index")
    kwargs: dict[str, Any] = {"index": index}
    if "more" in case.extra:
        values = (*values, data.draw(case.extra["more"](values, index), label="more"))
    if "scalar" in case.extra:
        kwargs["scalar"] = data.draw(case.extra["scalar"], label="scalar")
    bound = dataclasses.replace(
        case,
        build=functools.partial(case.build, **kwargs),
        reference=functools.partial(case.reference, **kwargs),
    )
    return bound, values


@pytest.mark.parametrize("case", TABLE, ids=[c.name for c in TABLE])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_numpy_equivalence(case: OpCase, data: st.DataObject) -> None:
    bound, values = bind_case(case, data)
    check_case(bound, values)


# -- symbolic indices --------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    x=any_array(FLOATS, min_dims=1),
    start=st.none() | st.integers(-6, 6),
    stop=st.none() | st.integers(-6, 6),
    step=st.none() | st.integers(-3, 3).filter(lambda s: s != 0),
    static=st.booleans(),
)
def test_symbolic_slice_bounds(x: tuple, start: Any, stop: Any, step: Any, static: bool) -> None:
    """Slice bounds that are graph inputs: values and infer_shape (SliceLength)."""
    (x,) = x
    xv = lt.tensor(x.dtype, x.shape if static else (None,) * x.ndim, "x")
    bound_vars = {
        name: lt.lscalar(name)
        for name, v in (("start", start), ("stop", stop), ("step", step))
        if v is not None
    }
    s = slice(*(bound_vars.get(n) for n in ("start", "stop", "step")))
    out = xv[:, s] if x.ndim > 1 else xv[s]
    values = [x, *(np.int64(v) for v in (start, stop, step) if v is not None)]
    inputs = [xv, *bound_vars.values()]
    expected = x[:, slice(start, stop, step)] if x.ndim > 1 else x[slice(start, stop, step)]
    got = run(inputs, out, values)
    np.testing.assert_array_equal(got, expected)
    # infer_shape, evaluated with the same inputs (x's sizes as scalar inputs)
    sizes = [lt.lscalar(f"n{i}") for i in range(x.ndim)]
    shape = out.owner.op.infer_shape(None, out.owner, [tuple(sizes), *[() for _ in bound_vars]])[0]
    shape = [lt.as_tensor_variable(s) for s in shape]
    fn = lazygraph.function([*sizes, *bound_vars.values()], shape)
    assert tuple(int(v) for v in fn(*x.shape, *values[1:])) == expected.shape


@settings(max_examples=30, deadline=None)
@given(x=any_array(FLOATS, min_dims=1), data=st.data())
def test_symbolic_int_index(x: tuple, data: st.DataObject) -> None:
    """A 0-d integer variable as an index, in range or out of bounds (IndexError at run time)."""
    (x,) = x
    n = x.shape[0]
    i = data.draw(st.integers(-n - 2, n + 1))
    dtype = data.draw(st.sampled_from(["int8", "int32", "int64", "uint8"]))
    if dtype == "uint8" and i < 0:
        i = -i
    iv = lt.tensor(dtype, (), "i")
    xv = lt.tensor(x.dtype, (None,) * x.ndim, "x")
    out = xv[iv, ...]
    assert isinstance(out.owner.op, Subtensor)
    if -n <= i < n:
        np.testing.assert_array_equal(run([xv, iv], out, [x, np.asarray(i, dtype)]), x[i, ...])
    else:
        with pytest.raises(IndexError):
            x[i]
        with pytest.raises(IndexError, match="out of bounds"):
            run([xv, iv], out, [x, np.asarray(i, dtype)])


def test_set_with_symbolic_index() -> None:
    x = lt.dmatrix("x")
    i, j = lt.lscalar("i"), lt.lscalar("j")
    z = lt.set_subtensor(x[i, j:], 7.0)
    xv = np.arange(12.0).reshape(3, 4)
    expected = xv.copy()
    expected[1, 2:] = 7.0
    np.testing.assert_array_equal(run([x, i, j], z, [xv, 1, 2]), expected)
    w = lt.inc_subtensor(x[i, j:], np.array([1.0, 2.0]))
    expected = xv.copy()
    expected[-1, 2:] += [1.0, 2.0]
    np.testing.assert_array_equal(run([x, i, j], w, [xv, -1, 2]), expected)


# -- build-time errors (numpy's exception types) --------------------------------------


def test_eager_errors() -> None:
    x = lt.tensor("float64", (3, 4), "x")
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 3"):
        x[5]
    with pytest.raises(IndexError, match="index -5 is out of bounds for axis 1 with size 4"):
        x[:, -5]
    with pytest.raises(IndexError, match="too many indices for array"):
        x[0, 0, 0]
    with pytest.raises(IndexError, match="too many indices for array"):
        x[..., 0, 0, None, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        x[..., ...]
    with pytest.raises(IndexError, match="only integers, slices"):
        x[1.0]
    with pytest.raises(IndexError, match="only integers, slices"):
        x["a"]
    with pytest.raises(IndexError, match="integer"):
        x[lt.dscalar("f")]
    with pytest.raises(TypeError, match="slice indices must be integers"):
        x[1.5:]
    with pytest.raises(TypeError, match="slice indices must be integers"):
        x[: lt.dscalar("f")]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        x[::0]
    with pytest.raises(ValueError, match=r"could not broadcast input array from shape \(2,\)"):
        lt.set_subtensor(x[0], np.ones(2))
    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        lt.inc_subtensor(x[0], np.ones((1, 4)), ignore_duplicates=True)
    with pytest.raises(ValueError, match="not broadcastable"):
        lt.inc_subtensor(x[0], np.ones((1, 4)))
    with pytest.raises(ValueError, match="setting an array element with a sequence"):
        lt.set_subtensor(x[0, 0], np.ones(1))
    with pytest.raises(TypeError, match="same_kind"):
        lt.inc_subtensor(lt.lmatrix("m")[0], 1.5, ignore_duplicates=True)
    with pytest.raises(OverflowError):
        lt.set_subtensor(lt.bmatrix("m")[0], 300)
    with pytest.raises(TypeError, match="result of indexing"):
        lt.set_subtensor(x, 1.0)


@pytest.mark.parametrize(
    ("dtype", "value"),
    [("int8", [300, 1]), ("int8", [1.5, -1.5]), ("int8", [np.nan, 1.0]), ("float64", [1j, 1])],
)
def test_set_from_a_list(dtype: str, value: list[Any]) -> None:
    """numpy converts a sequence straight to the array's dtype, with its errors."""
    x = lt.tensor(dtype, (2,), "x")
    xv = np.zeros(2, dtype)
    for index in (slice(None), [1, 0]):
        try:
            expected = np_set(xv, index=index, scalar=value)
        except Exception as exc:
            with pytest.raises(type(exc)):
                lt.set_subtensor(x[index], value)
            continue
        np.testing.assert_array_equal(run([x], lt.set_subtensor(x[index], value), [xv]), expected)


def test_unknown_sizes_are_not_checked_eagerly() -> None:
    x = lt.dmatrix("x")
    out = x[5]  # size unknown: numpy's IndexError comes at run time
    with pytest.raises(IndexError, match="out of bounds"):
        run([x], out, [np.zeros((3, 4))])


# -- graph structure ------------------------------------------------------------------


def test_equal_indices_give_equal_ops() -> None:
    x = lt.tensor("float64", (3, 4, 5), "x")
    assert x[0].owner.op == x[0, ...].owner.op == x[0, :, :].owner.op == x[np.int64(0)].owner.op
    assert x[1:].owner.op == x[1:, ...].owner.op
    assert hash(x[::-1, None].owner.op) == hash(x[::-1, None].owner.op)
    assert x[0].owner.op != x[1].owner.op
    # x[0, 0, 0] is scalar access, x[0, 0, 0, ...] a 0-d view: assignment differs.
    assert x[0, 0, 0].owner.op != x[0, 0, 0, ...].owner.op
    i = lt.lscalar("i")
    assert x[i:].owner.op == x[lt.lscalar("j") :].owner.op
    assert x[i:].owner.inputs[1] is i
    # A constant 0-d index folds into the op.
    assert x[lt.constant(2)].owner.op == x[2].owner.op


def test_views_and_inplace_flags() -> None:
    x = lt.dmatrix("x")
    assert x[0].owner.op.view_map == {0: [0]}
    assert lt.set_subtensor(x[0], 1.0).owner.op.destroy_map == {}
    op = IncSubtensor((0,), set_instead_of_inc=True, inplace=True)
    assert op.destroy_map == {0: [0]}
    xv = np.zeros((2, 2))
    out = run([x], op(x, 1.0, *()), [xv])
    np.testing.assert_array_equal(out, [[1.0, 1.0], [0.0, 0.0]])


def test_static_shapes() -> None:
    x = lt.tensor("float64", (5, None, 3), "x")
    assert x[1:4, ::2, None].type.shape == (3, None, 1, 3)
    assert x[::-1].type.shape == (5, None, 3)
    assert x[10:].type.shape == (0, None, 3)
    assert x[..., -1].type.shape == (5, None)
    assert x[None, ..., None].type.shape == (1, 5, None, 3, 1)
    assert lt.tensor("int8", ())[()].type.shape == ()


def test_slice_length() -> None:
    n, a, b = lt.lscalar("n"), lt.lscalar("a"), lt.lscalar("b")
    out = lt.slice_length(n, a, b, -2)
    fn = lazygraph.function([n, a, b], out)
    for nv, av, bv in [(10, 8, 1), (0, 0, 0), (5, -10, 10), (7, 100, -100), (7, -1, None or -8)]:
        assert int(fn(nv, av, bv)) == len(range(nv)[av:bv:-2])
    assert lt.slice_length(10, None, None, 3) == 4
    with pytest.raises(ValueError, match="step cannot be zero"):
        lt.slice_length(n, None, None, 0)


# -- gradients ------------------------------------------------------------------------


def _float_case(data: st.DataObject) -> tuple[np.ndarray, Any]:
    shape = data.draw(shapes(min_dims=1, max_dims=3, min_side=1, max_side=4), label="shape")
    x = data.draw(arrays("float64", shape, finite=True, min_value=-10, max_value=10))
    index = data.draw(basic_indices(shape), label="index")
    return x, index


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_subtensor_grad(data: st.DataObject) -> None:
    from lazygraph.gradient import verify_grad, verify_rop

    x, index = _float_case(data)
    verify_grad(lambda v: v[index], [x])
    verify_rop(lambda v: v[index], [x])


@settings(max_examples=15, deadline=None)
@given(data=st.data(), set_=st.booleans())
def test_update_grads(data: st.DataObject, set_: bool) -> None:
    from lazygraph.gradient import verify_grad, verify_rop

    x, index = _float_case(data)
    target = target_shape(x, index)
    yshape = data.draw(st.sampled_from([target, target[1:], tuple(1 for _ in target)]))
    y = data.draw(arrays("float64", yshape, finite=True, min_value=-10, max_value=10))
    update = lt.set_subtensor if set_ else lt.inc_subtensor

    def fn(a: Any, b: Any) -> Any:
        return update(a[index], b)

    verify_grad(fn, [x, y])
    verify_rop(fn, [x, y])


def test_update_grad_leading_one() -> None:
    """numpy's assignment drops y's leading size-1 dims; the gradient restores them."""
    from lazygraph.gradient import verify_grad

    x = np.arange(12.0).reshape(3, 4)
    verify_grad(lambda a, b: lt.set_subtensor(a[1:], b), [x, np.ones((1, 1, 4))])


def test_update_grad_runtime_broadcast() -> None:
    """A value of unknown size that is 1 at run time broadcasts; its gradient sums."""
    from lazygraph.gradient import grad

    x, y = lt.dvector("x"), lt.dvector("y")
    for update in (lt.set_subtensor, lt.inc_subtensor):
        gy = grad(lt.sum(update(x[1:], y) * np.arange(4.0)), y)
        np.testing.assert_array_equal(run([x, y], gy, [np.ones(4), np.ones(1)]), [6.0])
        np.testing.assert_array_equal(run([x, y], gy, [np.ones(4), np.ones(3)]), [1, 2, 3])


def test_integer_inputs_have_no_gradient() -> None:
    from lazygraph.gradient import grad

    x = lt.dvector("x")
    i = lt.lscalar("i")
    g = grad(lt.sum(x[i:]), [x, i], disconnected_inputs="ignore")
    gv = run([x, i], g[0], [np.ones(4), 1])
    np.testing.assert_array_equal(gv, [0.0, 1.0, 1.0, 1.0])
    m = lt.lvector("m")
    gy = grad(lt.sum(lt.set_subtensor(m[1:], lt.cast(x[1:], "int64"))), x)
    np.testing.assert_array_equal(run([x, m], gy, [np.ones(4), np.ones(4, "int64")]), np.zeros(4))


@pytest.mark.parametrize(
    ("dtype", "value"),
    [
        ("int8", 128.0),
        ("int8", -129.5),
        ("int8", 127.9),
        ("int8", float("nan")),
        ("int16", float("-inf")),
        ("int64", 2.0**63),
        ("int32", np.int64(2**40)),
        ("uint8", 300.0),
        ("uint8", -1.0),
    ],
)
@pytest.mark.parametrize("index", [(), (1,)])
def test_one_element_increment_stores_through_a_python_int(
    dtype: str, value: Any, index: tuple[int, ...]
) -> None:
    """``x[i] += y`` on one element of a signed integer array with a wider sum:
    numpy stores the sum through a Python int (OverflowError out of range,
    ValueError for NaN); unsigned targets wrap."""
    shape = (3,) * len(index)
    x = lt.TensorType(dtype, shape)("x")
    y = lt.as_tensor_variable(np.asarray(value))
    want, exc_type = numpy_result(
        lambda a: _np_increment(a, index, np.asarray(value)), np.zeros(shape, dtype)
    )
    out = lt.inc_subtensor(x[index], y, ignore_duplicates=True)
    if exc_type is None:
        np.testing.assert_array_equal(run([x], out, [np.zeros(shape, dtype)]), want)
    else:
        with pytest.raises(exc_type):
            run([x], out, [np.zeros(shape, dtype)])


def _np_increment(a: np.ndarray, index: tuple[int, ...], value: np.ndarray) -> np.ndarray:
    a[index] += value
    return a


@settings(max_examples=10, deadline=None)
@given(data=st.data(), set_=st.booleans())
def test_second_order(data: st.DataObject, set_: bool) -> None:
    """The gradient of a gradient through Subtensor and Set/IncSubtensor."""
    from lazygraph.gradient import grad, verify_grad

    x, index = _float_case(data)
    y = data.draw(arrays("float64", target_shape(x, index), min_value=-3, max_value=3))
    update = lt.set_subtensor if set_ else lt.inc_subtensor

    def first(a: Any, b: Any) -> Any:
        z = update(a[index], b * b)
        sub = z[index]
        return grad(lt.sum(sub * sub * z[index]) + lt.sum(z * z), a)

    verify_grad(first, [x, y])
