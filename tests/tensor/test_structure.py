"""Element rearrangements against numpy: ``flip`` (``fliplr``, ``flipud``),
``roll``, ``tile``, ``repeat`` and ``pad`` (constant, edge, reflect, symmetric,
wrap), with literal and symbolic arguments.

One table of rows drawing arrays of every dtype (0-d, empty, NaN/inf) and the
op's arguments (including out-of-range axes, negative counts, mismatched
lengths: numpy's exception type must match); then eager errors,
``verify_grad`` (first and second order) and ``verify_rop``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.tensor as lt
from lazygraph.gradient import grad, verify_grad, verify_rop
from lazygraph.tensor.structure import Flip, Pad, Repeat, Roll
from tests.tensor.harness import ALL, OpCase, arrays, check_case, run, shapes, variable_for

# -- strategies --------------------------------------------------------------------


@st.composite
def one_array(draw: Any, min_dims: int = 0) -> tuple[np.ndarray]:
    return (draw(arrays(draw(st.sampled_from(ALL)), shapes(min_dims=min_dims))),)


def axes(ndim: int) -> st.SearchStrategy[Any]:
    """None, an int (sometimes out of range) or a tuple (sometimes repeating)."""
    single = st.integers(-ndim - 1, ndim)
    many = st.lists(st.integers(-ndim - 1, ndim), max_size=3).map(tuple)
    return st.one_of(st.none(), single, many)


def flip_kwargs(x: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"axis": axes(x.ndim)})


def roll_kwargs(x: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    shift = st.integers(-7, 7)
    shifts = st.one_of(shift, st.lists(shift, min_size=1, max_size=3).map(tuple))
    return st.fixed_dictionaries({"shift": shifts, "axis": axes(x.ndim)})


def tile_kwargs(x: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    rep = st.integers(0, 3) | st.just(-1)
    return st.fixed_dictionaries({"reps": st.one_of(rep, st.lists(rep, max_size=4).map(tuple))})


def repeat_kwargs(x: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    n = max(x.shape) if x.ndim else 1
    count = st.integers(0, 3)
    counts = st.lists(count, min_size=1, max_size=n + 1)
    return st.fixed_dictionaries(
        {
            "repeats": st.one_of(count, st.just(-1), counts),
            "axis": st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)),
        }
    )


def pad_kwargs(x: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    w = st.integers(0, 4)
    pair = st.tuples(w, w)
    width = st.one_of(
        w,
        pair,
        st.tuples(pair),
        st.lists(pair, min_size=x.ndim, max_size=x.ndim).map(tuple),
        st.just(-1),
    )
    mode = st.sampled_from(["constant", "edge", "reflect", "symmetric", "wrap"])
    values = st.one_of(
        st.integers(-3, 3),
        st.floats(-2.0, 2.0),
        st.lists(
            st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=x.ndim, max_size=x.ndim
        ),
    )

    def finish(kw: dict[str, Any]) -> dict[str, Any]:
        if kw["mode"] != "constant":
            kw.pop("constant_values")
        return kw

    return st.fixed_dictionaries({"pad_width": width, "mode": mode, "constant_values": values}).map(
        finish
    )


def no_kwargs(*xs: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.just({})


@st.composite
def with_int_input(
    draw: Any, arg: Callable[[np.ndarray], st.SearchStrategy[Any]]
) -> tuple[np.ndarray, np.ndarray]:
    """An array and an integer argument passed as an int64 graph input."""
    (x,) = draw(one_array())
    return x, np.asarray(draw(arg(x)), dtype=np.int64)


# -- the table ---------------------------------------------------------------------


def row(
    name: str,
    build: Callable[..., Any],
    reference: Callable[..., Any],
    inputs: st.SearchStrategy[tuple[np.ndarray, ...]],
    kwargs: Callable[..., st.SearchStrategy[dict[str, Any]]] = no_kwargs,
    static_only: bool = False,
    **options: Any,
) -> OpCase:
    extra = {"kwargs": kwargs, "static_only": static_only}
    return OpCase(name, build, reference, inputs, extra=extra, **options)


def _repeat_counts(x: np.ndarray) -> st.SearchStrategy[Any]:
    n = x.shape[0] if x.ndim else 1
    return st.integers(0, 3) | st.lists(st.integers(0, 3), min_size=n, max_size=n)


TABLE = [
    row("flip", lt.flip, np.flip, one_array(), flip_kwargs),
    row("fliplr", lt.fliplr, np.fliplr, one_array()),
    row("flipud", lt.flipud, np.flipud, one_array()),
    row("roll", lt.roll, np.roll, one_array(), roll_kwargs),
    row(
        "roll_symbolic_shift",
        lambda x, s, axis: lt.roll(x, s, axis=axis),
        lambda x, s, axis: np.roll(x, int(s), axis=axis),
        with_int_input(lambda x: st.integers(-5, 5)),
        lambda x, s: st.fixed_dictionaries({"axis": axes(x.ndim)}),
    ),
    row("tile", lt.tile, np.tile, one_array(), tile_kwargs),
    row(
        "tile_symbolic_reps",
        lambda x, r: lt.tile(x, (r, 2)),
        lambda x, r: np.tile(x, (int(r), 2)),
        with_int_input(lambda x: st.integers(0, 3)),
    ),
    row("repeat", lt.repeat, np.repeat, one_array(), repeat_kwargs),
    row(
        "repeat_symbolic_counts",
        lambda x, r: lt.repeat(x, r, axis=0 if x.ndim else None),
        lambda x, r: np.repeat(x, r, axis=0 if x.ndim else None),
        with_int_input(_repeat_counts),
        static_only=True,
    ),
    row("pad", lt.pad, np.pad, one_array(), pad_kwargs),
    row(
        "pad_symbolic_value",
        lambda x, v, pad_width: lt.pad(x, pad_width, constant_values=v),
        lambda x, v, pad_width: np.pad(x, pad_width, constant_values=v),
        with_int_input(lambda x: st.integers(-3, 3)),
        lambda x, v: st.fixed_dictionaries({"pad_width": st.integers(0, 2)}),
    ),
]


@pytest.mark.parametrize("case", TABLE, ids=lambda c: c.name)
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_matches_numpy(case: OpCase, data: st.DataObject) -> None:
    values = data.draw(case.inputs, label="inputs")
    kwargs = data.draw(case.extra["kwargs"](*values), label="kwargs")
    static = case.extra["static_only"] or data.draw(st.booleans(), label="static_shape")
    bound = dataclasses.replace(
        case,
        build=lambda *xs: case.build(*xs, **kwargs),
        reference=lambda *xs: case.reference(*xs, **kwargs),
        static_shape=static,
    )
    check_case(bound, values)


# -- static shapes and eager errors ------------------------------------------------


def test_static_shapes() -> None:
    x = lt.tensor("float32", (2, None, 3), name="x")
    assert lt.tile(x, (2, 1, 1, 2)).type == lt.TensorType("float32", (2, 2, None, 6))
    assert lt.repeat(x, 3, axis=0).type.shape == (6, None, 3)
    assert lt.repeat(x, [1, 0, 2], axis=-1).type.shape == (2, None, 3)
    assert lt.repeat(x, [4], axis=0).type.shape == (8, None, 3)
    assert lt.repeat(x, lt.lscalar(), axis=0).type.shape == (None, None, 3)
    assert lt.repeat(x, 2).type.shape == (None,)
    assert lt.pad(x, ((1, 2), (0, 0), (3, 3))).type.shape == (5, None, 9)
    assert lt.roll(x, 1).type == x.type and lt.flip(x, (0, -1)).type == x.type


@pytest.mark.parametrize(
    ("build", "error", "match"),
    [
        (lambda x: lt.flip(x, 2), np.exceptions.AxisError, "flip"),
        (lambda x: lt.flip(x, (0, -2)), ValueError, "repeated axis"),
        (lambda x: lt.fliplr(lt.dvector()), ValueError, "2-d"),
        (lambda x: lt.flipud(lt.dscalar()), ValueError, "1-d"),
        (lambda x: lt.roll(x, 1, axis=3), np.exceptions.AxisError, "roll"),
        (lambda x: lt.roll(x, (1, 2, 3), axis=(0, 1)), ValueError, "shape mismatch"),
        (lambda x: lt.roll(x, [[1]]), ValueError, "1D"),
        (lambda x: lt.roll(x, lt.dscalar()), TypeError, "integers"),
        (lambda x: lt.tile(x, -1), ValueError, "negative"),
        (lambda x: lt.tile(x, 1.5), TypeError, "integer"),
        (lambda x: lt.repeat(x, -1), ValueError, "negative"),
        (lambda x: lt.repeat(x, [1, 2], axis=1), ValueError, r"shape \(3,\) \(2,\)"),
        (lambda x: lt.repeat(x, np.array([1.5])), TypeError, "safe"),
        (lambda x: lt.repeat(x, 2, axis=2), np.exceptions.AxisError, "repeat"),
        (lambda x: lt.pad(x, -1), ValueError, "negative"),
        (lambda x: lt.pad(x, 1.5), TypeError, "integral"),
        (lambda x: lt.pad(x, ((1, 2), (3, 4), (5, 6))), ValueError, "broadcast"),
        (lambda x: lt.pad(x, 1, mode="mean"), ValueError, "not supported"),
        (lambda x: lt.pad(x, 1, mode="edge", constant_values=2), ValueError, "keyword"),
        (lambda x: lt.pad(lt.tensor("float64", (0,)), 1, mode="edge"), ValueError, "empty"),
        (lambda x: lt.pad(lt.lvector(), 1, constant_values=np.nan), ValueError, "NaN"),
    ],
)
def test_eager_errors(build: Callable[[Any], Any], error: type[Exception], match: str) -> None:
    x = lt.tensor("float64", (2, 3), name="x")
    with pytest.raises(error, match=match):
        build(x)


def test_ops_are_value_like() -> None:
    x = lt.dmatrix("x")
    assert lt.flip(x, (-1, 0)).owner.op == Flip((0, 1))
    assert lt.roll(x, (1, 2), axis=(0, 0)).owner.op == Roll((0,))
    assert lt.repeat(x, 2, axis=1).owner.op == Repeat(1)
    assert lt.pad(x, 1, mode="wrap").owner.op == Pad(((1, 1), (1, 1)), "wrap")
    assert lt.flip(lt.dscalar()).owner is None  # nothing to flip


def test_repeat_infer_shape_with_unknown_counts() -> None:
    x = lt.dvector("x")
    r = lt.lvector("r")
    y = lt.repeat(x, r)
    node = y.owner
    (inferred,) = node.op.infer_shape(None, node, [lt.shape_tuple(x), lt.shape_tuple(r)])
    fn_values = run([x, r], [lt.as_tensor_variable(s) for s in inferred], [np.ones(3), [2]])
    assert [int(v) for v in fn_values] == [6]
    fn_values = run([x, r], [lt.as_tensor_variable(s) for s in inferred], [np.ones(3), [2, 0, 1]])
    assert [int(v) for v in fn_values] == [3]


# -- gradients ---------------------------------------------------------------------


def _points(*shapes_: tuple[int, ...]) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [rng.uniform(-2, 2, s) for s in shapes_]


GRAD_TABLE: list[tuple[str, Callable[..., Any], list[np.ndarray]]] = [
    ("flip", lambda x: lt.flip(x, 1), _points((2, 3))),
    ("flip_all", lt.flip, _points((2, 3))),
    ("roll", lambda x: lt.roll(x, (1, -4), axis=(0, 1)), _points((3, 4))),
    ("roll_flat", lambda x: lt.roll(x, 5), _points((2, 3))),
    ("tile", lambda x: lt.tile(x, (2, 1, 3)), _points((2, 2))),
    ("tile_0d", lambda x: lt.tile(x, 3), _points(())),
    ("repeat", lambda x: lt.repeat(x, 3, axis=1), _points((2, 2))),
    ("repeat_counts", lambda x: lt.repeat(x, [2, 0, 3], axis=0), _points((3, 2))),
    ("repeat_flat", lambda x: lt.repeat(x, 2), _points((2, 2))),
    ("pad_constant", lambda x: lt.pad(x, ((1, 0), (2, 1))), _points((2, 3))),
    (
        "pad_constant_value",
        lambda x, v: lt.pad(x, ((1, 0), (2, 1)), constant_values=v),
        _points((2, 3), ()),
    ),
    ("pad_edge", lambda x: lt.pad(x, ((2, 1), (0, 3)), mode="edge"), _points((2, 3))),
    ("pad_reflect", lambda x: lt.pad(x, ((1, 4), (2, 0)), mode="reflect"), _points((3, 2))),
    ("pad_symmetric", lambda x: lt.pad(x, 3, mode="symmetric"), _points((2, 3))),
    ("pad_wrap", lambda x: lt.pad(x, ((4, 1),), mode="wrap"), _points((3,))),
]

SECOND_ORDER = {"flip", "roll", "tile", "repeat", "repeat_counts", "pad_constant", "pad_reflect"}


@pytest.mark.parametrize(("name", "fn", "point"), GRAD_TABLE, ids=[r[0] for r in GRAD_TABLE])
def test_verify_grad(name: str, fn: Callable[..., Any], point: list[np.ndarray]) -> None:
    verify_grad(fn, point)
    verify_grad(fn, point, static_shape=False)


def _first_order(fn: Callable[..., Any], point: list[np.ndarray]) -> Callable[..., Any]:
    vs = [variable_for(p) for p in point]
    out_shape = np.shape(run(vs, fn(*vs), point))
    weights = lt.constant(np.random.default_rng(3).uniform(0.5, 1.5, out_shape))

    def gradient(*xs: Any) -> Any:
        return grad(lt.sum(fn(*xs) * weights * fn(*xs)), xs[0])

    return gradient


@pytest.mark.parametrize(
    ("name", "fn", "point"),
    [r for r in GRAD_TABLE if r[0] in SECOND_ORDER],
    ids=[r[0] for r in GRAD_TABLE if r[0] in SECOND_ORDER],
)
def test_verify_grad_second_order(
    name: str, fn: Callable[..., Any], point: list[np.ndarray]
) -> None:
    verify_grad(_first_order(fn, point), point)


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: lt.flip(x, 0),
        lambda x: lt.roll(x, 2, axis=1),
        lambda x: lt.tile(x, (2, 1)),
        lambda x: lt.repeat(x, [1, 2, 0], axis=0),
        lambda x: lt.pad(x, 2, mode="reflect"),
        lambda x: lt.pad(x, 1, constant_values=lt.sum(x)),
    ],
    ids=["flip", "roll", "tile", "repeat", "pad_reflect", "pad_constant"],
)
def test_verify_rop(fn: Callable[[Any], Any]) -> None:
    verify_rop(fn, _points((3, 4)))
