"""lazygraph.numpy's manipulation functions (reshaping, transposing, joining,
splitting, flipping, repeating, padding, take) against numpy: one table row per
function with a strategy for its arguments, including bad axes and shapes,
where numpy's exception type is expected."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import array_api_compat.numpy  # a dependency of lazygraph-numpy-api, not optional
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from tests.numpy_api.namespace_harness import ALL, array_args, check
from tests.tensor.harness import arrays, shapes


@dataclass
class Row:
    """A function (the same name in numpy and lazygraph.numpy) and a strategy for
    its ``(args, kwargs)``."""

    name: str
    args: Callable[[st.DataObject], tuple[tuple[Any, ...], dict[str, Any]]]


def _x(data: st.DataObject, **kw: Any) -> np.ndarray:
    return data.draw(array_args(ALL, **kw), label="x")


def _axis(data: st.DataObject, ndim: int, none: bool = False) -> Any:
    choices = st.integers(-ndim - 1, ndim)  # one past each end: AxisError rows
    return data.draw(st.one_of(st.none(), choices) if none else choices, label="axis")


def _same_shape_arrays(data: st.DataObject, count: int, **kw: Any) -> list[np.ndarray]:
    shape = data.draw(shapes(**kw), label="shape")
    dtypes = data.draw(st.lists(st.sampled_from(ALL), min_size=count, max_size=count))
    return [data.draw(arrays(d, shape)) for d in dtypes]


def _reshape(data: st.DataObject) -> Any:
    x = _x(data)
    shape = list(data.draw(st.permutations(x.shape))) if x.ndim else []
    if shape and data.draw(st.booleans()):
        shape[data.draw(st.integers(0, len(shape) - 1))] = -1
    if data.draw(st.booleans()):
        shape = [*shape, data.draw(st.sampled_from([1, 2]))]  # sometimes impossible
    return (x, tuple(shape)), {"order": data.draw(st.sampled_from(["C", "F"]))}


def _transpose(data: st.DataObject) -> Any:
    x = _x(data)
    axes = data.draw(st.one_of(st.none(), st.permutations(range(x.ndim)).map(tuple)))
    return (x, axes), {}


def _two_axes(data: st.DataObject) -> Any:
    x = _x(data, min_dims=1)
    return (x, _axis(data, x.ndim), _axis(data, x.ndim)), {}


def _expand(data: st.DataObject) -> Any:
    x = _x(data)
    return (x, _axis(data, x.ndim + 1)), {}


def _squeeze(data: st.DataObject) -> Any:
    x = _x(data)
    ones = [i for i, s in enumerate(x.shape) if s == 1]
    axis = data.draw(st.one_of(st.none(), st.sampled_from(ones or [None]), st.integers(0, 3)))
    return (x, axis), {}


def _broadcast_to(data: st.DataObject) -> Any:
    x = _x(data, max_dims=2)
    extra = data.draw(shapes(max_dims=2, min_side=1))
    target = extra + tuple(s if data.draw(st.booleans()) else max(s, 1) for s in x.shape)
    if data.draw(st.integers(0, 5)) == 0:
        target = (*target[:-1], 7) if target else (7,)  # incompatible
    return (x, target), {}


def _broadcast_arrays(data: st.DataObject) -> Any:
    from tests.tensor.harness import broadcast_shapes

    s1, s2 = data.draw(broadcast_shapes(2))
    return (data.draw(arrays("int16", s1)), data.draw(arrays("float32", s2))), {}


def _atleast(data: st.DataObject) -> Any:
    n = data.draw(st.integers(1, 3))
    return tuple(_x(data, max_dims=4) for _ in range(n)), {}


def _concatenate(data: st.DataObject) -> Any:
    xs = _same_shape_arrays(data, data.draw(st.integers(1, 3)), min_dims=1)
    axis = _axis(data, xs[0].ndim, none=True)
    kw: dict[str, Any] = {}
    if data.draw(st.booleans()):
        kw["dtype"] = data.draw(st.sampled_from(["float64", "int32", "complex128"]))
        kw["casting"] = data.draw(st.sampled_from(["same_kind", "unsafe"]))
    return (xs, axis), kw


def _stack(data: st.DataObject) -> Any:
    xs = _same_shape_arrays(data, data.draw(st.integers(1, 3)))
    return (xs, _axis(data, xs[0].ndim + 1)), {}


def _hvd(data: st.DataObject) -> Any:
    xs = _same_shape_arrays(data, data.draw(st.integers(1, 3)), max_dims=3)
    return (xs,), {}


def _append(data: st.DataObject) -> Any:
    a, b = _same_shape_arrays(data, 2)
    return (a, b), {"axis": _axis(data, a.ndim, none=True)}


def _split(data: st.DataObject) -> Any:
    x = _x(data, min_dims=1, min_side=1)
    axis = _axis(data, x.ndim)
    sections = data.draw(
        st.one_of(
            st.integers(1, 4),
            st.sampled_from([2.0, 2.5, 0.5, np.float32(3.0)]),  # numpy takes a float count
            st.lists(st.integers(-1, 5), max_size=3),
        ),
        label="sections",
    )
    return (x, sections, axis), {}


def _hsplit(data: st.DataObject) -> Any:
    x = _x(data, min_dims=1, min_side=1)
    return (x, data.draw(st.sampled_from([1, 2, 2.0, [1], [0, 2]]))), {}


def _unstack(data: st.DataObject) -> Any:
    x = _x(data, min_dims=1)
    return (x,), {"axis": _axis(data, x.ndim)}


def _flip(data: st.DataObject) -> Any:
    x = _x(data)
    return (x, _axis(data, x.ndim, none=True)), {}


def _one(data: st.DataObject) -> Any:
    return (_x(data),), {}


def _rot90(data: st.DataObject) -> Any:
    x = _x(data, min_dims=2)
    axes = (data.draw(st.integers(-x.ndim, x.ndim - 1)), data.draw(st.integers(0, x.ndim - 1)))
    return (x, data.draw(st.integers(-5, 5)), axes), {}


def _roll(data: st.DataObject) -> Any:
    x = _x(data)
    if x.ndim and data.draw(st.booleans()):
        return (x, data.draw(st.integers(-6, 6)), _axis(data, x.ndim)), {}
    return (x, data.draw(st.integers(-6, 6))), {}


def _repeat(data: st.DataObject) -> Any:
    x = _x(data, max_dims=2)
    axis = _axis(data, x.ndim, none=True)
    length = x.size if axis is None else (x.shape[axis] if -x.ndim <= axis < x.ndim else 1)
    reps = data.draw(
        st.one_of(st.integers(0, 3), st.lists(st.integers(0, 3), min_size=length, max_size=length))
    )
    return (x, reps, axis), {}


def _tile(data: st.DataObject) -> Any:
    x = _x(data, max_dims=2)
    reps = data.draw(st.one_of(st.integers(0, 3), st.lists(st.integers(0, 2), max_size=3)))
    return (x, reps), {}


def _pad(data: st.DataObject) -> Any:
    x = _x(data, max_dims=2, min_side=1)
    width = data.draw(
        st.one_of(
            st.integers(0, 2),
            st.tuples(st.integers(0, 2), st.integers(0, 2)),
            st.just([(1, 0)] * x.ndim),
        )
    )
    mode = data.draw(st.sampled_from(["constant", "edge", "reflect", "symmetric", "wrap"]))
    kw = {"constant_values": data.draw(st.integers(0, 5))} if mode == "constant" else {}
    return (x, width, mode), kw


def _take(data: st.DataObject) -> Any:
    x = _x(data, min_dims=1, min_side=1)
    axis = _axis(data, x.ndim, none=True)
    n = x.size if axis is None else x.shape[axis] if -x.ndim <= axis < x.ndim else 1
    idx = data.draw(arrays("int64", shapes(max_dims=2), min_value=-2 * n, max_value=2 * n - 1))
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]))
    if mode == "raise":
        idx = np.clip(idx, -n, n - 1)
    return (x, idx, axis), {"mode": mode}


def _take_along_axis(data: st.DataObject) -> Any:
    x = _x(data, min_dims=1, min_side=1)
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    return (x, np.argsort(x, axis=axis), axis), {}


def _size(data: st.DataObject) -> Any:
    x = _x(data, min_dims=1)
    return (x, data.draw(st.integers(-x.ndim, x.ndim - 1))), {}


ROWS = [
    Row("reshape", _reshape),
    Row("ravel", lambda d: ((_x(d),), {"order": d.draw(st.sampled_from(["C", "F", "K"]))})),
    Row("transpose", _transpose),
    Row("permute_dims", _transpose),
    Row("swapaxes", _two_axes),
    Row("moveaxis", _two_axes),
    Row("expand_dims", _expand),
    Row("squeeze", _squeeze),
    Row("broadcast_to", _broadcast_to),
    Row("broadcast_arrays", _broadcast_arrays),
    Row("atleast_1d", _atleast),
    Row("atleast_2d", _atleast),
    Row("atleast_3d", _atleast),
    Row("concatenate", _concatenate),
    Row("concat", lambda d: ((_same_shape_arrays(d, 2, min_dims=1),), {"axis": 0})),
    Row("stack", _stack),
    Row("vstack", _hvd),
    Row("hstack", _hvd),
    Row("dstack", _hvd),
    Row("column_stack", _hvd),
    Row("append", _append),
    Row("split", _split),
    Row("array_split", _split),
    Row("hsplit", _hsplit),
    Row("vsplit", _hsplit),
    Row("dsplit", _hsplit),
    Row("unstack", _unstack),
    Row("flip", _flip),
    Row("fliplr", _one),
    Row("flipud", _one),
    Row("rot90", _rot90),
    Row("roll", _roll),
    Row("repeat", _repeat),
    Row("tile", _tile),
    Row("pad", _pad),
    Row("take", _take),
    Row("take_along_axis", _take_along_axis),
    Row("shape", _one),
    Row("ndim", _one),
    Row("size", _size),
]


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_manipulation_matches_numpy(row: Row, data: st.DataObject) -> None:
    args, kwargs = row.args(data)
    check(getattr(lnp, row.name), getattr(np, row.name), *args, **kwargs)


def test_sequences_may_be_lazy_arrays_and_generators() -> None:
    x = np.arange(6.0).reshape(2, 3)
    check(lnp.concatenate, np.concatenate, lnp.asarray(x))
    check(lnp.stack, np.stack, (row for row in x))
    check(lnp.vstack, np.vstack, [lnp.asarray(x[0]), x[1]])


def test_errors_name_the_function() -> None:
    x = lnp.asarray(np.zeros((2, 3)))
    with pytest.raises(np.exceptions.AxisError, match="swapaxes"):
        lnp.swapaxes(x, 0, 5)
    with pytest.raises(ValueError, match="concatenate"):
        lnp.concatenate([x, np.zeros(3)])
    with pytest.raises(ValueError, match="concatenate"):
        lnp.concatenate([x, x], out=np.zeros((3, 3)))  # out= of the wrong shape
    with pytest.raises(ValueError, match="need at least one array"):
        lnp.stack([])


@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_rollaxis_diagflat(data: st.DataObject) -> None:
    x = data.draw(array_args(ALL, min_dims=1))
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim))
    start = data.draw(st.integers(-x.ndim - 1, x.ndim + 1))
    check(lnp.rollaxis, np.rollaxis, x, axis, start)
    check(lnp.diagflat, np.diagflat, x, data.draw(st.integers(-2, 2)))


@pytest.mark.parametrize("shape", [(3, 3), (5, 2), (2, 4), (2, 2, 2)])
@pytest.mark.parametrize("wrap", [False, True])
def test_fill_diagonal_rebinds_lazy_arrays(shape: tuple[int, ...], wrap: bool) -> None:
    expected = np.arange(float(np.prod(shape))).reshape(shape)
    lazy = lnp.asarray(expected.copy())
    np.fill_diagonal(expected, [-1.0, -2.0], wrap=wrap)
    lnp.fill_diagonal(lazy, [-1.0, -2.0], wrap=wrap)
    np.testing.assert_array_equal(lazy.compute(), expected)


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_broadcast_arrays_returns_a_tuple_as_numpy_2(data: st.DataObject) -> None:
    """numpy 2 returns a tuple (array_api_compat.numpy too): lazygraph follows numpy."""
    args, _ = _broadcast_arrays(data)
    got, expected = lnp.broadcast_arrays(*args), np.broadcast_arrays(*args)
    assert type(got) is type(expected) is tuple
    assert type(array_api_compat.numpy.broadcast_arrays(*args)) is tuple
    assert [g.shape for g in got] == [e.shape for e in expected]


CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]
JOIN_TARGETS = ["bool", "int32", "int64", "float32", "float64", "complex64"]


def _outcome(call: Callable[[], Any]) -> tuple[Any, type[BaseException] | None]:
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return call(), None
    except Exception as exc:
        return None, type(exc)


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_joining_casts_each_input_as_casting_allows(data: st.DataObject) -> None:
    # every input must cast to dtype= (or to the common dtype) under casting=;
    # numpy's TypeError otherwise, ValueError for an unknown rule
    name = data.draw(st.sampled_from(["concatenate", "stack", "hstack", "vstack"]))
    xs = _same_shape_arrays(data, data.draw(st.integers(1, 3)), min_dims=1, max_dims=2)
    kw: dict[str, Any] = {"casting": data.draw(st.sampled_from([*CASTINGS, "sometimes"]))}
    if data.draw(st.booleans()):
        kw["dtype"] = data.draw(st.sampled_from(JOIN_TARGETS))
    if name in ("concatenate", "stack"):
        kw["axis"] = data.draw(st.sampled_from([0, -1, None] if name == "concatenate" else [0, -1]))
    check(getattr(lnp, name), getattr(np, name), xs, **kw)


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_joining_into_out(data: st.DataObject) -> None:
    # out= takes the result (cast under casting=) only with exactly its shape, and is
    # returned; numpy's TypeError/ValueError otherwise, or with dtype= too
    name = data.draw(st.sampled_from(["concatenate", "stack"]))
    xs = _same_shape_arrays(data, data.draw(st.integers(1, 3)), min_dims=1, max_dims=2)
    axis = data.draw(st.sampled_from([0, -1, None] if name == "concatenate" else [0, -1]))
    casting = data.draw(st.sampled_from(CASTINGS))
    shape = getattr(np, name)(xs, axis=axis, casting="unsafe").shape
    shape = data.draw(st.sampled_from([shape, (1, *shape), shape[::-1], (*shape[:-1], 7)]))
    out_dtype = data.draw(st.sampled_from(JOIN_TARGETS))
    kw = {"axis": axis, "casting": casting}
    if data.draw(st.integers(0, 4)) == 0:
        kw["dtype"] = out_dtype
    expected, exc = _outcome(lambda: getattr(np, name)(xs, out=np.zeros(shape, out_dtype), **kw))
    lazy_out = (
        lnp.zeros(shape, out_dtype) if data.draw(st.booleans()) else np.zeros(shape, out_dtype)
    )
    got, got_exc = _outcome(lambda: getattr(lnp, name)(xs, out=lazy_out, **kw))
    assert got_exc is exc, f"numpy raised {exc}, lazygraph {got_exc}"
    if exc is None:
        assert got is lazy_out
        np.testing.assert_array_equal(np.asarray(got), expected, strict=True)


def test_joining_argument_errors_are_numpys() -> None:
    x = np.arange(4.0)
    with pytest.raises(TypeError, match="only takes `out` or `dtype`"):
        lnp.concatenate([x, x], out=np.zeros(8), dtype="float64")
    with pytest.raises(TypeError, match="'out' must be an array"):
        lnp.stack([x, x], out=[0.0] * 8)
    with pytest.raises(ValueError, match="casting must be one of"):
        lnp.hstack([x, x], casting="sometimes")
    with pytest.raises(TypeError, match="arrays to stack must be"):
        lnp.column_stack(row for row in [x, x])
    assert lnp.concatenate([x, x], None, np.zeros(8)).tolist() == [*x, *x]  # out positional


def test_joining_into_out_a_part_of_unknown_size() -> None:
    # a masked part's size is known only when computed: out= is checked then
    with lazygraph.config.change(eager_max_elements=0):
        v = lnp.asarray(np.array([1.0, -2.0, 3.0])) * 1.0
        part = v[v > 0]
        buf = np.zeros(4)
        assert lnp.concatenate([part, [5.0, 6.0]], out=buf) is buf
        np.testing.assert_array_equal(buf, [1.0, 3.0, 5.0, 6.0])
        with pytest.raises(ValueError, match="wrong shape"):
            lnp.stack([part, part], out=np.zeros((2, 3)))


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_concatenate_keeps_python_scalars_weak(data: st.DataObject) -> None:
    # numpy's concatenate (axis=None) promotes a Python scalar weakly, as NEP 50
    # does for ufuncs: [float32(1), 1.0] is float32, and a Python int beside uint8
    # data is converted into uint8 (-1 -> 255) rather than widening the result
    strong = data.draw(st.sampled_from(["bool", "int8", "uint8", "int64", "float32", "complex64"]))
    parts: list[Any] = []
    for _ in range(data.draw(st.integers(1, 3))):
        parts.append(
            data.draw(
                st.one_of(
                    arrays(strong, shapes(max_dims=1)),
                    st.booleans(),
                    st.integers(-300, 300),
                    st.floats(allow_nan=True, allow_infinity=True, width=32),
                    st.sampled_from([-0.0, 1j, complex(-0.0, np.inf)]),
                )
            )
        )
    check(lnp.concatenate, np.concatenate, parts, axis=None)
