"""Joining and splitting against numpy: ``concatenate`` (dtype promotion across
inputs, ``axis=None``, out-of-range axes, mismatched shapes), ``join``,
``stack``, ``hstack``, ``vstack``, ``split`` and ``array_split`` (sections and
index lists with negative, out-of-range and backwards indices).

One table of rows drawing arrays of every dtype (0-d, empty, NaN/inf); then
eager errors, static shapes, ``verify_grad`` (second order for concatenate)
and ``verify_rop``.
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
from lazygraph.tensor.join import Join, Split
from tests.tensor.harness import ALL, OpCase, arrays, check_case, run, shapes, variable_for

# -- strategies --------------------------------------------------------------------


@st.composite
def joinable(draw: Any, same_shape: bool = False) -> tuple[np.ndarray, ...]:
    """1-3 arrays of independent dtypes that agree except along one axis;
    sometimes arrays of unrelated shapes."""
    n = draw(st.integers(1, 3))
    if draw(st.integers(0, 7)) == 0:
        shps = [draw(shapes()) for _ in range(n)]
    else:
        base = list(draw(shapes(min_dims=0 if same_shape else 1)))
        axis = draw(st.integers(0, max(len(base) - 1, 0)))
        shps = []
        for _ in range(n):
            s = list(base)
            if s and not same_shape:
                s[axis] = draw(st.integers(0, 3))
            shps.append(tuple(s))
    return tuple(draw(arrays(draw(st.sampled_from(ALL)), s)) for s in shps)


@st.composite
def one_array(draw: Any, min_dims: int = 0) -> tuple[np.ndarray]:
    return (draw(arrays(draw(st.sampled_from(ALL)), shapes(min_dims=min_dims))),)


def axis_of(ndim: int, none: bool = True) -> st.SearchStrategy[Any]:
    axis = st.integers(-ndim - 1, ndim)
    return st.one_of(st.none(), axis) if none else axis


def concat_kwargs(*xs: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"axis": axis_of(xs[0].ndim)})


def concat_dtype_kwargs(*xs: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"axis": axis_of(xs[0].ndim), "dtype": st.sampled_from(["float64", "int16", "bool"])}
    )


def stack_kwargs(*xs: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"axis": st.integers(-xs[0].ndim - 2, xs[0].ndim + 1)})


def split_kwargs(x: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    n = x.shape[0] if x.ndim else 3
    indices = st.lists(st.integers(-n - 2, n + 2), max_size=4)
    return st.fixed_dictionaries(
        {
            "indices_or_sections": st.one_of(st.integers(-1, 4), indices),
            "axis": st.integers(-x.ndim - 1, x.ndim),
            "k": st.integers(0, 4),
        }
    )


def no_kwargs(*xs: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.just({})


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


def _piece(split: Callable[..., Any]) -> Callable[..., Any]:
    """One piece of a split (the ``k``-th, counting around)."""

    def build(x: Any, indices_or_sections: Any, axis: int, k: int) -> Any:
        pieces = split(x, indices_or_sections, axis=axis)
        return pieces[k % len(pieces)]

    return build


def _join(*xs: Any, axis: Any) -> Any:
    # Theano's spelling: the axis first; a single input is returned as is.
    return lt.join(0 if axis is None else axis, *xs)


def _np_join(*xs: np.ndarray, axis: Any) -> np.ndarray:
    return np.concatenate(xs, axis=0 if axis is None else axis)


TABLE = [
    row(
        "concatenate",
        lambda *xs, **kw: lt.concatenate(xs, **kw),
        lambda *xs, **kw: np.concatenate(xs, **kw),
        joinable(),
        concat_kwargs,
    ),
    row(
        "concatenate_dtype",
        lambda *xs, **kw: lt.concatenate(xs, **kw),
        lambda *xs, **kw: np.concatenate(xs, **kw),
        joinable(),
        concat_dtype_kwargs,
        # numpy checks shapes before casts: with sizes known only at run time the
        # cast error comes first, so shape and dtype errors are not both drawn.
        static_only=True,
    ),
    row("join", _join, _np_join, joinable(), concat_kwargs),
    row(
        "stack",
        lambda *xs, axis: lt.stack(xs, axis=axis),
        lambda *xs, axis: np.stack(xs, axis=axis),
        joinable(same_shape=True),
        stack_kwargs,
    ),
    row("hstack", lambda *xs: lt.hstack(xs), lambda *xs: np.hstack(xs), joinable()),
    row("vstack", lambda *xs: lt.vstack(xs), lambda *xs: np.vstack(xs), joinable()),
    row("split", _piece(lt.split), _piece(np.split), one_array(), split_kwargs),
    row("array_split", _piece(lt.array_split), _piece(np.array_split), one_array(), split_kwargs),
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


@settings(max_examples=30, deadline=None)
@given(x=one_array(min_dims=1), data=st.data())
def test_split_pieces_match_numpy(x: tuple[np.ndarray], data: st.DataObject) -> None:
    # Every piece at once, from one graph: the list structure matches numpy's.
    (value,) = x
    n = value.shape[0]
    spec = data.draw(st.one_of(st.integers(1, 4), st.lists(st.integers(-n - 2, n + 2))))
    static = data.draw(st.booleans())
    try:
        expected = np.array_split(value, spec)
    except Exception as exc:  # numpy rejects the split: so must we
        with pytest.raises(type(exc)):
            lt.array_split(variable_for(value, static), spec)
        return
    v = variable_for(value, static)
    pieces = lt.array_split(v, spec)
    assert len(pieces) == len(expected)
    got = run([v], pieces, [value])
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_array_equal(g, e)
        assert g.dtype == e.dtype


# -- static shapes and eager errors ------------------------------------------------


def test_static_shapes_and_dtypes() -> None:
    a = lt.tensor("int8", (2, None), name="a")
    b = lt.tensor("uint8", (3, 4), name="b")
    assert lt.concatenate([a, b]).type == lt.TensorType("int16", (5, 4))
    assert lt.concatenate([a, b], axis=None).type == lt.TensorType("int16", (None,))
    assert lt.concatenate([a, lt.dmatrix()], dtype="float32").type.dtype == "float32"
    assert lt.stack([b, b], axis=-1).type.shape == (3, 4, 2)
    assert lt.vstack([lt.tensor("float64", (4,)), b]).type.shape == (4, 4)
    assert [p.type.shape for p in lt.split(b, [1, -1], axis=1)] == [(3, 1), (3, 2), (3, 1)]
    assert [p.type.shape for p in lt.array_split(lt.dvector(), 2)] == [(None,), (None,)]
    assert [p.type.shape for p in lt.split(a, [1, 5])] == [(1, None), (1, None), (0, None)]


@pytest.mark.parametrize(
    ("build", "error", "match"),
    [
        (lambda x: lt.concatenate([x, lt.dvector()]), ValueError, "same number of dimensions"),
        (
            lambda x: lt.concatenate([x, lt.tensor("float64", (2, 4))]),
            ValueError,
            r"along dimension 1.*\(2, 3\) and \(2, 4\)",
        ),
        (lambda x: lt.concatenate([x, x], axis=2), np.exceptions.AxisError, "concatenate"),
        (lambda x: lt.concatenate([]), ValueError, "at least one array"),
        (lambda x: lt.concatenate([lt.dscalar(), lt.dscalar()]), ValueError, "zero-dim"),
        (lambda x: lt.concatenate([x, x], dtype="int8"), TypeError, "same_kind"),
        (lambda x: lt.stack([x, lt.tensor("float64", (3, 2))]), ValueError, "same shape"),
        (lambda x: lt.stack([x, x], axis=3), np.exceptions.AxisError, "stack"),
        (lambda x: lt.stack([]), ValueError, "at least one array"),
        (lambda x: lt.split(x, 2, axis=1), ValueError, "equal division"),
        (lambda x: lt.split(x, 0), ZeroDivisionError, "zero"),
        (lambda x: lt.array_split(x, -1), ValueError, "larger than 0"),
        (lambda x: lt.split(x, 2, axis=2), np.exceptions.AxisError, "split"),
        (lambda x: lt.split(lt.dscalar(), 1), IndexError, "split"),
        (lambda x: lt.split(x, lt.lscalar()), TypeError, "known"),
    ],
)
def test_eager_errors(build: Callable[[Any], Any], error: type[Exception], match: str) -> None:
    x = lt.tensor("float64", (2, 3), name="x")
    with pytest.raises(error, match=match):
        build(x)


def test_runtime_errors() -> None:
    x, y = lt.dmatrix("x"), lt.dmatrix("y")
    with pytest.raises(ValueError):
        run([x, y], lt.concatenate([x, y]), [np.zeros((2, 3)), np.zeros((2, 4))])
    with pytest.raises(ValueError):
        run([x], lt.split(x, 2)[0], [np.zeros((3, 2))])


def test_ops_are_value_like() -> None:
    x = lt.dmatrix("x")
    assert lt.concatenate([x, x], axis=-1).owner.op == Join(1)
    assert lt.split(x, 2)[0].owner.op == Split(2, 0)
    assert lt.join(0, x) is x


def test_split_infer_shape_with_unknown_sizes() -> None:
    x = lt.dmatrix("x")
    pieces = lt.array_split(x, 3, axis=1)
    value = np.zeros((2, 7))
    node = pieces[0].owner
    inferred = node.op.infer_shape(None, node, [lt.shape_tuple(x), (3,)])
    fn = run([x], [lt.as_tensor_variable(s) for shp in inferred for s in shp], [value])
    expected = [s for p in np.array_split(value, 3, axis=1) for s in p.shape]
    assert [int(v) for v in fn] == expected


# -- gradients ---------------------------------------------------------------------


def _points(*shapes_: tuple[int, ...]) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [rng.uniform(-2, 2, s) for s in shapes_]


GRAD_TABLE: list[tuple[str, Callable[..., Any], list[np.ndarray]]] = [
    ("concatenate", lambda x, y: lt.concatenate([x, y, x], axis=1), _points((2, 3), (2, 1))),
    ("concatenate_none", lambda x, y: lt.concatenate([x, y], axis=None), _points((2, 2), (3,))),
    ("concatenate_empty", lambda x, y: lt.concatenate([x, y]), _points((0, 2), (3, 2))),
    ("join", lambda x: lt.join(0, x, x * 2.0), _points((2, 3))),
    ("stack", lambda x, y: lt.stack([x, y], axis=1), _points((2, 3), (2, 3))),
    ("hstack", lambda x, y: lt.hstack([x, y]), _points((3,), (2,))),
    ("vstack", lambda x, y: lt.vstack([x, y]), _points((3,), (2, 3))),
    ("split", lambda x: lt.split(x, [1, 3], axis=1)[1], _points((2, 4))),
    ("split_all", lambda x: lt.concatenate(lt.split(x, 2)[::-1]), _points((4, 2))),
    ("split_overlap", lambda x: lt.split(x, [3, 1])[2], _points((5,))),
    ("array_split", lambda x: lt.array_split(x, 3)[0] * 3.0, _points((7, 2))),
]

SECOND_ORDER = {"concatenate", "concatenate_none", "stack", "split", "split_all"}


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


def test_gradient_of_mixed_dtypes() -> None:
    # float32 and int inputs joined into float64: each gradient has its input's dtype.
    f = lt.tensor("float32", (2,), name="f")
    i = lt.tensor("int32", (3,), name="i")
    y = lt.concatenate([f, i])
    assert y.dtype == "float64"
    gf = grad(lt.sum(y * lt.constant(np.arange(5.0))), f)
    assert gf.dtype == "float32"
    np.testing.assert_array_equal(
        run([f, i], gf, [np.ones(2, "float32"), np.ones(3, "int32")]), [0.0, 1.0]
    )


@pytest.mark.parametrize(
    ("fn", "n_inputs"),
    [
        (lambda x, y: lt.concatenate([x, y], axis=1), 2),
        (lambda x, y: lt.stack([x, y]), 2),
        (lambda x: lt.split(x, [1], axis=1)[1], 1),
    ],
    ids=["concatenate", "stack", "split"],
)
def test_verify_rop(fn: Callable[..., Any], n_inputs: int) -> None:
    verify_rop(fn, _points(*[(3, 4)] * n_inputs))
