"""Shape ops against numpy: ``shape``, ``shape_i``, ``reshape`` (with -1, C and
F order, symbolic shapes), ``ravel``/``flatten``, ``broadcast_to``/``alloc``,
``broadcast_arrays``, ``specify_shape`` and ``make_vector``.

One table of rows, each drawing arrays of every dtype and shape (0-d, empty,
NaN/inf, integer limits) and the op's arguments (valid ones and ones numpy
rejects, whose exception type must match); then eager errors, ``infer_shape``
with unknown sizes, ``verify_grad`` (second order for reshape) and ``verify_rop``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.tensor as lt
from lazygraph.gradient import grad, verify_grad, verify_rop
from lazygraph.tensor.broadcast import Alloc, BroadcastSize
from lazygraph.tensor.shape import Reshape, Shape, Shape_i, SpecifyShape
from tests.tensor.harness import ALL, OpCase, arrays, check_case, run, shapes

# -- strategies --------------------------------------------------------------------


@st.composite
def one_array(draw: Any, min_dims: int = 0, max_dims: int = 3) -> tuple[np.ndarray]:
    dtype = draw(st.sampled_from(ALL))
    return (draw(arrays(dtype, shapes(min_dims=min_dims, max_dims=max_dims))),)


@st.composite
def reshape_target(draw: Any, shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape of the same size (a factorization), maybe with one -1; sometimes
    any shape at all (numpy then raises)."""
    n = math.prod(shape)
    if draw(st.integers(0, 9)) == 0:
        return draw(shapes(max_dims=4))
    if n == 0:
        target = list(draw(shapes(min_dims=1, max_dims=4)))
        target[draw(st.integers(0, len(target) - 1))] = 0
    else:
        target = []
        rest = n
        for _ in range(draw(st.integers(0, 3))):
            d = draw(st.sampled_from([k for k in range(1, rest + 1) if rest % k == 0]))
            target.append(d)
            rest //= d
        if rest != 1 or not target or draw(st.booleans()):
            target.append(rest)
    if draw(st.booleans()):
        target[draw(st.integers(0, len(target) - 1))] = -1
    return tuple(target)


@st.composite
def broadcast_target(draw: Any, shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape ``shape`` broadcasts to; sometimes one it does not."""
    if draw(st.integers(0, 9)) == 0:
        return draw(shapes(max_dims=4))
    lead = draw(st.lists(st.integers(0, 3), max_size=2))
    body = [draw(st.integers(0, 3)) if s == 1 else s for s in shape]
    return (*lead, *body)


def reshape_kwargs(x: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"shape": reshape_target(x.shape), "order": st.sampled_from(["C", "F"])}
    )


def broadcast_kwargs(x: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"shape": broadcast_target(x.shape)})


def axis_kwargs(x: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"i": st.integers(-x.ndim - 1, x.ndim)})


def no_kwargs(*values: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.just({})


@st.composite
def broadcastable_arrays(draw: Any, count: int = 3) -> tuple[np.ndarray, ...]:
    n = draw(st.integers(1, count))
    if draw(st.integers(0, 5)) == 0:  # any shapes: usually incompatible
        shps = [draw(shapes()) for _ in range(n)]
    else:
        from tests.tensor.harness import broadcast_shapes

        shps = list(draw(broadcast_shapes(num_shapes=n)))
    return tuple(draw(arrays(draw(st.sampled_from(ALL)), s)) for s in shps)


@st.composite
def scalars(draw: Any) -> tuple[np.ndarray, ...]:
    n = draw(st.integers(1, 4))
    return tuple(draw(arrays(draw(st.sampled_from(ALL)), ())) for _ in range(n))


@st.composite
def with_shape_vector(
    draw: Any, target: Callable[[tuple[int, ...]], st.SearchStrategy[tuple[int, ...]]]
) -> tuple[np.ndarray, np.ndarray]:
    """An array and a shape for it passed as a 1-d int64 graph input."""
    (x,) = draw(one_array())
    return x, np.array(draw(target(x.shape)), dtype=np.int64).reshape(-1)


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


def _np_shape(x: np.ndarray) -> np.ndarray:
    return np.asarray(x.shape, dtype=np.int64)


def _np_shape_i(x: np.ndarray, i: int) -> np.ndarray:
    return np.asarray(x.shape[i], dtype=np.int64)


def _np_alloc(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    return np.broadcast_to(x, shape).copy()


def _np_flatten(x: np.ndarray, ndim: int) -> np.ndarray:
    return x.reshape((*x.shape[: ndim - 1], -1))


def _np_specify(x: np.ndarray, keep: tuple[bool, ...]) -> np.ndarray:
    return x


def _specify(x: Any, keep: tuple[bool, ...]) -> Any:
    shape = tuple(s if k else None for s, k in zip(x.type.shape, keep, strict=False))
    return lt.specify_shape(x, shape)


def _specify_runtime(x: Any, keep: tuple[bool, ...]) -> Any:
    # Sizes as symbolic values: the check happens at run time.
    shape = tuple(lt.shape_i(x, i) if k else None for i, k in enumerate(keep))
    return lt.specify_shape(x, shape)


def specify_kwargs(x: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"keep": st.lists(st.booleans(), min_size=x.ndim, max_size=x.ndim).map(tuple)}
    )


def flatten_kwargs(x: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"ndim": st.integers(1, max(x.ndim, 1))})


def pick(k: int, items: Any) -> Any:
    return items[k]


def pick_kwargs(*values: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"k": st.integers(0, len(values) - 1)})


TABLE = [
    row("shape", lt.shape, _np_shape, one_array()),
    row("shape_i", lt.shape_i, _np_shape_i, one_array(), axis_kwargs),
    row("reshape", lt.reshape, np.reshape, one_array(), reshape_kwargs),
    row(
        "reshape_symbolic_shape",
        lambda x, s: lt.reshape(x, s),
        lambda x, s: np.reshape(x, tuple(s)),
        with_shape_vector(reshape_target),
        static_only=True,
    ),
    row(
        "reshape_scalar_sizes",
        lambda x, s: lt.reshape(x, [s[i] for i in range(s.type.shape[0])]),
        lambda x, s: np.reshape(x, tuple(s)),
        with_shape_vector(reshape_target),
        static_only=True,
    ),
    row("ravel", lt.ravel, np.ravel, one_array()),
    row("flatten", lt.flatten, _np_flatten, one_array(), flatten_kwargs),
    row("broadcast_to", lt.broadcast_to, np.broadcast_to, one_array(), broadcast_kwargs),
    row(
        "broadcast_to_symbolic_shape",
        lambda x, s: lt.broadcast_to(x, s),
        lambda x, s: np.broadcast_to(x, tuple(s)),
        with_shape_vector(broadcast_target),
        static_only=True,
    ),
    row("alloc", lambda x, shape: lt.alloc(x, *shape), _np_alloc, one_array(), broadcast_kwargs),
    row(
        "broadcast_arrays",
        lambda *xs, k: lt.broadcast_arrays(*xs)[k],
        lambda *xs, k: np.broadcast_arrays(*xs)[k],
        broadcastable_arrays(),
        pick_kwargs,
    ),
    row("specify_shape", _specify, _np_specify, one_array(), specify_kwargs),
    row("specify_shape_runtime", _specify_runtime, _np_specify, one_array(), specify_kwargs),
    row("make_vector", lt.make_vector, lambda *xs: np.array(xs), scalars()),
]


@pytest.mark.parametrize("case", TABLE, ids=lambda c: c.name)
@settings(max_examples=40, deadline=None)
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
    x = lt.tensor("float32", (2, 3, None), name="x")
    assert lt.reshape(x, (3, 2, -1)).type == lt.TensorType("float32", (3, 2, None))
    assert lt.reshape(lt.tensor("int8", (2, 3)), (-1, 2)).type.shape == (3, 2)
    n = lt.lscalar("n")
    # The only size that works for the one unknown entry is known.
    assert lt.reshape(lt.tensor("int8", (2, 3)), (n, 2)).type.shape == (3, 2)
    assert lt.reshape(x, (n, 6)).type.shape == (None, 6)
    assert lt.broadcast_to(x, (4, 2, 3, 5)).type.shape == (4, 2, 3, 5)
    assert lt.broadcast_to(lt.tensor("float64", (1, None)), (n, 3)).type.shape == (None, 3)
    assert lt.shape(x).type == lt.TensorType("int64", (3,))
    assert lt.shape_i(x, 1).data == 3 and lt.shape_i(x, 2).owner.op == Shape_i(2)
    assert lt.ravel(lt.tensor("bool", ())).type.shape == (1,)
    a, b = lt.broadcast_arrays(lt.tensor("float64", (None, 1)), lt.tensor("int8", (1, 4)))
    assert a.type.shape == (None, 4) and b.type.shape == (None, 4) and b.dtype == "int8"
    a, b = lt.broadcast_arrays(lt.tensor("float64", (None,)), lt.tensor("int8", (None,)))
    assert isinstance(a.owner.inputs[1].owner.op, BroadcastSize)


@pytest.mark.parametrize(
    ("build", "error", "match"),
    [
        (lambda x: lt.reshape(x, 4), ValueError, "cannot reshape array of size 6 into shape"),
        (lambda x: lt.reshape(x, (-1, 4)), ValueError, "cannot reshape array of size 6"),
        (lambda x: lt.reshape(x, (-1, -1)), ValueError, "only specify one unknown"),
        (lambda x: lt.reshape(x, (0, -1)), ValueError, "cannot reshape"),
        (lambda x: lt.reshape(x, (2.0, 3)), TypeError, "float"),
        (lambda x: lt.reshape(x, lt.dvector()), TypeError, "integer"),
        (lambda x: lt.reshape(x, lt.lvector()), ValueError, "length"),
        (lambda x: lt.broadcast_to(x, (4,)), ValueError, "input operand has more dimensions"),
        (lambda x: lt.broadcast_to(x, (2, 4)), ValueError, r"\(2, 3\).*\(2, 4\)"),
        (lambda x: lt.broadcast_to(x, (-1, 2, 3)), ValueError, "non-negative"),
        (lambda x: lt.shape_i(x, 2), np.exceptions.AxisError, "shape_i"),
        (lambda x: lt.specify_shape(x, (2, 4)), ValueError, "SpecifyShape"),
        (lambda x: lt.specify_shape(x, (2,)), ValueError, "specify_shape"),
        (
            lambda x: lt.broadcast_arrays(x, lt.tensor("int8", (4,))),
            ValueError,
            r"arg 0 with shape \(2, 3\) and arg 1 with shape \(4,\)",
        ),
        (lambda x: lt.make_vector(x, x), ValueError, "0-d"),
        (lambda x: lt.flatten(x, 3), ValueError, "flatten"),
    ],
)
def test_eager_errors(build: Callable[[Any], Any], error: type[Exception], match: str) -> None:
    x = lt.tensor("float64", (2, 3), name="x")
    with pytest.raises(error, match=match):
        build(x)


def test_runtime_errors() -> None:
    x = lt.dmatrix("x")
    n = lt.lscalar("n")
    with pytest.raises(ValueError, match="SpecifyShape"):
        run([x], lt.specify_shape(x, (None, 4)), [np.zeros((2, 3))])
    with pytest.raises(ValueError, match="SpecifyShape"):
        run([x, n], lt.specify_shape(x, (n, None)), [np.zeros((2, 3)), 3])
    with pytest.raises(ValueError, match="cannot reshape"):
        run([x, n], lt.reshape(x, (n, 4)), [np.zeros((2, 3)), 2])
    with pytest.raises(ValueError):
        run([x, n], lt.broadcast_to(x, (n, 3)), [np.zeros((2, 3)), 3])


def test_ops_are_value_like() -> None:
    x = lt.dmatrix("x")
    assert lt.reshape(x, (-1,)).owner.op == Reshape(1)
    assert lt.shape(x).owner.op == Shape()
    assert lt.alloc(1.0, 2).owner.op == Alloc()
    assert lt.specify_shape(x, (2, None)).owner.op == SpecifyShape((True, False))
    # Nothing to do: the input itself.
    y = lt.tensor("float64", (2, 3))
    assert lt.reshape(y, (2, 3)) is y and lt.broadcast_to(y, (2, 3)) is y
    assert lt.specify_shape(y, (2, None)) is y


def test_alloc_does_not_fold_big_constants() -> None:
    small = lt.alloc(1.0, 2, 3)
    big = lt.alloc(1.0, 100, 100)
    assert small.owner.op.do_constant_folding(None, small.owner)
    assert not big.owner.op.do_constant_folding(None, big.owner)
    unknown = lt.alloc(1.0, lt.lscalar())
    assert not unknown.owner.op.do_constant_folding(None, unknown.owner)


# -- infer_shape with unknown sizes ------------------------------------------------


@pytest.mark.parametrize(
    ("build", "value", "extra"),
    [
        (lambda x, n: lt.reshape(x, (n, -1)), np.zeros((2, 6)), 3),
        (lambda x, n: lt.reshape(x, (-1, n)), np.zeros((4, 3)), 6),
        (lambda x, n: lt.reshape(x, (n, 4)), np.zeros((2, 6)), -1),
        (lambda x, n: lt.reshape(x, lt.stack([n, lt.shape_i(x, 0)])), np.zeros((2, 6)), 6),
        (lambda x, n: lt.broadcast_to(x, (n, lt.shape_i(x, 0), 6)), np.zeros((3, 1)), 2),
        (lambda x, n: lt.broadcast_arrays(x, lt.alloc(1.0, n, 1, 1))[0], np.zeros((1, 5)), 2),
        (lambda x, n: lt.specify_shape(x, (n, None)), np.zeros((4, 2)), 4),
        (lambda x, n: lt.flatten(x, 2), np.zeros((3, 2)), 0),
        (lambda x, n: lt.make_vector(n, lt.shape_i(x, 1)), np.zeros((2, 7)), 3),
    ],
)
def test_infer_shape_symbolic(build: Callable[..., Any], value: np.ndarray, extra: int) -> None:
    x = lt.dmatrix("x")
    n = lt.lscalar("n")
    out = build(x, n)
    computed = run([x, n], out, [value, extra])
    shapes_out = out.owner.op.infer_shape(
        None, out.owner, [lt.shape_tuple(v) if v.ndim else () for v in out.owner.inputs]
    )[out.index]
    fn = lazygraph.function([x, n], [lt.as_tensor_variable(s) for s in shapes_out])
    got = tuple(int(s) for s in fn(value, extra)) if shapes_out else ()
    assert got == np.shape(computed)


# -- gradients ---------------------------------------------------------------------


def _points(*shapes_: tuple[int, ...]) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [rng.uniform(-2, 2, s) for s in shapes_]


GRAD_TABLE: list[tuple[str, Callable[..., Any], list[np.ndarray]]] = [
    ("reshape", lambda x: lt.reshape(x, (3, -1)), _points((2, 3))),
    ("reshape_F", lambda x: lt.reshape(x, (3, 2), order="F"), _points((2, 3))),
    ("reshape_0d", lambda x: lt.reshape(x, (1, 1)), _points(())),
    ("ravel", lt.ravel, _points((2, 2, 2))),
    ("flatten", lambda x: lt.flatten(x, 2), _points((2, 3, 2))),
    ("broadcast_to", lambda x: lt.broadcast_to(x, (4, 2, 3)), _points((1, 3))),
    ("broadcast_to_0d", lambda x: lt.broadcast_to(x, (2, 3)), _points(())),
    ("alloc", lambda x: lt.alloc(x, 2, 3, 1), _points((3, 1))),
    ("broadcast_arrays", lambda x, y: lt.broadcast_arrays(x, y)[0], _points((3, 1), (4,))),
    ("broadcast_arrays_1", lambda x, y: lt.broadcast_arrays(x, y)[1], _points((3, 1), (4,))),
    ("specify_shape", lambda x: lt.specify_shape(x, (2, None)) * 1.0, _points((2, 3))),
    ("make_vector", lambda x, y: lt.make_vector(x, y, x), _points((), ())),
]

SECOND_ORDER = {"reshape", "reshape_F", "broadcast_to", "alloc", "make_vector"}


@pytest.mark.parametrize(("name", "fn", "point"), GRAD_TABLE, ids=[r[0] for r in GRAD_TABLE])
def test_verify_grad(name: str, fn: Callable[..., Any], point: list[np.ndarray]) -> None:
    verify_grad(fn, point)
    verify_grad(fn, point, static_shape=False)


def _first_order(fn: Callable[..., Any], point: list[np.ndarray]) -> Callable[..., Any]:
    """The gradient of ``sum(fn(xs) * w)`` with respect to the first input."""
    from tests.tensor.harness import variable_for

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


def test_broadcast_gradient_with_unknown_size_that_broadcasts() -> None:
    # x's first size is unknown when the graph is built and 1 at run time.
    x = lt.tensor("float64", (None, 3), name="x")
    y = lt.broadcast_to(x, (4, 3))
    w = np.arange(12.0).reshape(4, 3)
    g = grad(lt.sum(y * lt.constant(w)), x)
    assert np.allclose(run([x], g, [np.ones((1, 3))]), w.sum(axis=0, keepdims=True))
    assert np.allclose(run([x], g, [np.ones((4, 3))]), w)


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: lt.reshape(x, (-1,)),
        lambda x: lt.broadcast_to(x, (2, 3, 4)),
        lambda x: lt.specify_shape(x, (3, None)),
        lambda x: lt.make_vector(lt.sum(x), lt.sum(x * x)),
    ],
    ids=["reshape", "broadcast_to", "specify_shape", "make_vector"],
)
def test_verify_rop(fn: Callable[[Any], Any]) -> None:
    verify_rop(fn, _points((3, 4)))
