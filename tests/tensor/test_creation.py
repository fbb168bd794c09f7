"""Array creation against numpy: ``zeros``/``ones``/``full``/``empty`` (and the
``_like`` forms), ``arange`` (numpy's dtype and length rules), ``linspace``,
``eye``/``identity``/``tri``, ``tril``/``triu`` and ``meshgrid``, with literal
and symbolic (graph input) arguments.

One table of rows; then eager errors, static shapes, constant folding policy,
``verify_grad`` (tril/triu to second order, arange, linspace) and ``verify_rop``.
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
from lazygraph.tensor.creation import ARange, Eye
from tests.tensor.harness import ALL, OpCase, arrays, check_case, run, shapes, variable_for

NUMERIC_SCALAR_DTYPES = ("bool", "int8", "uint8", "int32", "int64", "float32", "float64")

# -- strategies --------------------------------------------------------------------


def nothing() -> st.SearchStrategy[tuple[()]]:
    return st.just(())


def shape_arg() -> st.SearchStrategy[Any]:
    size = st.integers(0, 3)
    return st.one_of(size, st.lists(size, max_size=3).map(tuple), st.just((2, -1)))


def dtype_arg() -> st.SearchStrategy[Any]:
    return st.sampled_from([None, *ALL])


def creation_kwargs(*_: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"shape": shape_arg(), "dtype": dtype_arg()})


def fill_values() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.booleans(),
        st.integers(-5, 5),
        st.floats(-3, 3),
        st.sampled_from([np.int8(-3), np.float32(1.5), np.uint8(7), complex(1, 2)]),
        st.lists(st.integers(-3, 3), min_size=1, max_size=3),
    )


def full_kwargs(*_: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"shape": shape_arg(), "fill_value": fill_values(), "dtype": dtype_arg()}
    )


def like_kwargs(x: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"dtype": dtype_arg(), "shape": st.none() | shape_arg()})


def full_like_kwargs(x: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"fill_value": fill_values(), "dtype": dtype_arg(), "shape": st.none() | shape_arg()}
    )


@st.composite
def number(draw: Any, lo: float = -6, hi: float = 6) -> Any:
    """A Python int/float/bool or a numpy scalar of some dtype, in [lo, hi]."""
    kind = draw(st.sampled_from(["int", "float", "numpy"]))
    if kind == "int":
        return draw(st.integers(int(lo), int(hi)))
    if kind == "float":
        return draw(st.floats(lo, hi).map(lambda v: round(v, 2)))
    dtype = draw(st.sampled_from(NUMERIC_SCALAR_DTYPES))
    if dtype == "bool":
        return np.bool_(draw(st.booleans()))
    lo_ = 0 if dtype == "uint8" else lo
    return np.dtype(dtype).type(draw(st.floats(lo_, hi)))


def nonzero_step() -> st.SearchStrategy[Any]:
    return number(-3, 3).filter(lambda v: abs(float(v)) >= 0.25)


def arange_kwargs(*_: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    odd = st.sampled_from([0, np.nan, np.inf])  # a zero step, or no length
    return st.fixed_dictionaries(
        {
            "start": number(),
            "stop": number() | st.none(),
            "step": nonzero_step() | odd,
            "dtype": st.sampled_from([None, "int64", "float32", "float64", "int8"]),
        }
    )


def _np_arange(start: Any, stop: Any, step: Any, dtype: Any) -> np.ndarray:
    if stop is None:
        return np.arange(start, step=step, dtype=dtype)
    return np.arange(start, stop, step, dtype=dtype)


def _lt_arange(start: Any, stop: Any, step: Any, dtype: Any) -> Any:
    return lt.arange(start, stop, step, dtype=dtype)


@st.composite
def arange_inputs(draw: Any) -> tuple[np.ndarray, ...]:
    def scalar(lo: float, hi: float) -> np.ndarray:
        dtype = draw(st.sampled_from(("int8", "int32", "int64", "float32", "float64")))
        return np.asarray(draw(st.floats(lo, hi)), dtype=dtype)

    start, stop = scalar(-6, 6), scalar(-6, 6)
    step = scalar(0.5, 3) * draw(st.sampled_from([1, -1]))
    return (start, stop, step.astype(step.dtype))


def linspace_kwargs(*_: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    ends = st.one_of(number(), st.lists(st.floats(-3, 3), min_size=1, max_size=3).map(np.array))
    return st.fixed_dictionaries(
        {
            "start": ends,
            "stop": ends,
            "num": st.integers(0, 6) | st.just(-1),
            "endpoint": st.booleans(),
            "dtype": st.sampled_from([None, "float32", "int64", "complex128"]),
            "axis": st.integers(-2, 1),
        }
    )


def eye_kwargs(*_: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            "N": st.integers(0, 4) | st.just(-1),
            "M": st.none() | st.integers(0, 4),
            "k": st.integers(-4, 4),
            "dtype": st.sampled_from([float, "int8", "bool", "complex64"]),
        }
    )


def tri_kwargs(x: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"k": st.integers(-4, 4)})


@st.composite
def one_array(draw: Any, min_dims: int = 0) -> tuple[np.ndarray]:
    return (draw(arrays(draw(st.sampled_from(ALL)), shapes(min_dims=min_dims))),)


@st.composite
def vectors(draw: Any) -> tuple[np.ndarray, ...]:
    n = draw(st.integers(1, 3))
    return tuple(draw(arrays(draw(st.sampled_from(ALL)), shapes(max_dims=2))) for _ in range(n))


def meshgrid_kwargs(*xs: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            "indexing": st.sampled_from(["xy", "ij"]),
            "sparse": st.booleans(),
            "k": st.integers(0, len(xs) - 1),
        }
    )


@st.composite
def sizes(draw: Any) -> tuple[np.ndarray, ...]:
    n = draw(st.integers(0, 3))
    return tuple(np.asarray(draw(st.integers(-1, 3)), dtype="int64") for _ in range(n))


def no_kwargs(*_: np.ndarray) -> st.SearchStrategy[dict[str, Any]]:
    return st.just({})


# -- the table ---------------------------------------------------------------------


def row(
    name: str,
    build: Callable[..., Any],
    reference: Callable[..., Any],
    inputs: st.SearchStrategy[tuple[np.ndarray, ...]],
    kwargs: Callable[..., st.SearchStrategy[dict[str, Any]]] = no_kwargs,
    **options: Any,
) -> OpCase:
    return OpCase(name, build, reference, inputs, extra={"kwargs": kwargs}, **options)


def _np_empty(shape: Any, dtype: Any) -> np.ndarray:
    # numpy's values are garbage; lazygraph's are zeros: compare shape and dtype.
    return np.zeros(shape, dtype=dtype)


def _np_empty_like(x: np.ndarray, dtype: Any, shape: Any) -> np.ndarray:
    return np.zeros_like(x, dtype=dtype, shape=shape)


def _meshgrid_piece(fn: Callable[..., Any]) -> Callable[..., Any]:
    def build(*xs: Any, indexing: str, sparse: bool, k: int) -> Any:
        return fn(*xs, indexing=indexing, sparse=sparse)[k]

    return build


TABLE = [
    row("zeros", lt.zeros, np.zeros, nothing(), creation_kwargs),
    row("ones", lt.ones, np.ones, nothing(), creation_kwargs),
    row("empty", lt.empty, _np_empty, nothing(), creation_kwargs),
    row("full", lt.full, np.full, nothing(), full_kwargs),
    row(
        "zeros_symbolic_shape",
        lambda *s: lt.zeros(s, dtype="int8"),
        lambda *s: np.zeros(tuple(int(v) for v in s), dtype="int8"),
        sizes(),
    ),
    row(
        "full_symbolic_fill",
        lambda v: lt.full((2, *lt.shape_tuple(v)), v),
        lambda v: np.full((2, *v.shape), v),
        one_array(),
    ),
    row("zeros_like", lt.zeros_like, np.zeros_like, one_array(), like_kwargs),
    row("ones_like", lt.ones_like, np.ones_like, one_array(), like_kwargs),
    row("empty_like", lt.empty_like, _np_empty_like, one_array(), like_kwargs),
    row("full_like", lt.full_like, np.full_like, one_array(), full_like_kwargs),
    row("arange", _lt_arange, _np_arange, nothing(), arange_kwargs),
    row(
        "arange_symbolic",
        lambda a, b, c: lt.arange(a, b, c),
        lambda a, b, c: np.arange(a[()], b[()], c[()]),
        arange_inputs(),
    ),
    row("linspace", lt.linspace, np.linspace, nothing(), linspace_kwargs, rtol=1e-6),
    row(
        "linspace_symbolic",
        lambda a, b, num: lt.linspace(a, b, num),
        lambda a, b, num: np.linspace(a, b, num),
        st.tuples(arrays("float64", shapes(max_dims=1)), arrays("float64", shapes(max_dims=1))),
        lambda a, b: st.fixed_dictionaries({"num": st.integers(0, 5)}),
        rtol=1e-6,
    ),
    row("eye", lt.eye, np.eye, nothing(), eye_kwargs),
    row("tri", lt.tri, np.tri, nothing(), eye_kwargs),
    row(
        "eye_symbolic",
        lambda n, m, k: lt.eye(n, m, k),
        lambda n, m, k: np.eye(n, m, k),
        st.tuples(*[st.integers(-2, 4).map(np.int64)] * 3),
    ),
    row("identity", lambda n: lt.identity(n), np.identity, st.tuples(st.integers(0, 3))),
    row("tril", lt.tril, np.tril, one_array(), tri_kwargs),
    row("triu", lt.triu, np.triu, one_array(), tri_kwargs),
    row(
        "tril_symbolic_k",
        lambda x, k: lt.tril(x, k),
        lambda x, k: np.tril(x, int(k)),
        st.tuples(arrays("float64", shapes(min_dims=1)), st.integers(-3, 3).map(np.int64)),
    ),
    row(
        "meshgrid",
        _meshgrid_piece(lt.meshgrid),
        _meshgrid_piece(np.meshgrid),
        vectors(),
        meshgrid_kwargs,
    ),
]


@pytest.mark.parametrize("case", TABLE, ids=lambda c: c.name)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_matches_numpy(case: OpCase, data: st.DataObject) -> None:
    values = tuple(np.asarray(v) for v in data.draw(case.inputs, label="inputs"))
    kwargs = data.draw(case.extra["kwargs"](*values), label="kwargs")
    static = data.draw(st.booleans(), label="static_shape")
    bound = dataclasses.replace(
        case,
        build=lambda *xs: case.build(*xs, **kwargs),
        reference=lambda *xs: case.reference(*xs, **kwargs),
        static_shape=static,
    )
    check_case(bound, values)


# -- static shapes, errors, folding ------------------------------------------------


def test_static_shapes_and_dtypes() -> None:
    n = lt.lscalar("n")
    assert lt.zeros((n, 3)).type == lt.TensorType("float64", (None, 3))
    assert lt.full(2, np.float32(1)).type == lt.TensorType("float32", (2,))
    assert lt.full((2, 3), [1, 2, 3]).type == lt.TensorType("int64", (2, 3))
    assert lt.ones_like(lt.tensor("int8", (None, 2)), dtype=float).type.shape == (None, 2)
    assert lt.arange(np.int8(3)).type == lt.TensorType("int64", (3,))
    assert lt.arange(np.float32(0), 1.1, np.float32(0.1)).type.dtype == "float64"
    assert lt.arange(n).type == lt.TensorType("int64", (None,))
    assert lt.arange(0.0, n).type.dtype == "float64"
    assert lt.linspace(np.float32(0), 1, 5).type == lt.TensorType("float32", (5,))
    assert lt.linspace([0.0, 1.0], 2.0, 4, axis=-1).type.shape == (2, 4)
    assert lt.eye(n, 3).type.shape == (None, 3)
    assert lt.tril(lt.tensor("int8", (3,))).type == lt.TensorType("int8", (3, 3))
    xs, ys = lt.meshgrid(lt.tensor("float64", (3,)), lt.dvector(), indexing="ij")
    assert xs.type.shape == (3, None) and ys.type.shape == (3, None)


@pytest.mark.parametrize(
    ("build", "error", "match"),
    [
        (lambda: lt.zeros(-1), ValueError, "negative dimensions"),
        (lambda: lt.zeros(2.0), TypeError, "integer"),
        (lambda: lt.zeros((2,), dtype="float16"), TypeError, "float16"),
        (lambda: lt.full((2, 3), [1, 2]), ValueError, "broadcast"),
        (lambda: lt.arange(0, 5, 0), ZeroDivisionError, "division"),
        (lambda: lt.arange(0, np.nan), ValueError, "cannot compute length"),
        (lambda: lt.arange(0, np.inf), ValueError, "Maximum allowed size"),
        (lambda: lt.arange(lt.dvector()), ValueError, "0-d"),
        (lambda: lt.linspace(0, 1, -1), ValueError, "non-negative"),
        (lambda: lt.linspace(0, 1, 2.0), TypeError, "integer"),
        (lambda: lt.linspace([0, 1], [0, 1, 2]), ValueError, "shape mismatch"),
        (lambda: lt.linspace(0, 1, 3, axis=2), np.exceptions.AxisError, "linspace"),
        (lambda: lt.eye(-1), ValueError, "negative"),
        (lambda: lt.eye(2, 1.5), TypeError, "integer"),
        (lambda: lt.tril(lt.dscalar()), TypeError, "tril"),
        (lambda: lt.meshgrid(lt.dvector(), indexing="yx"), ValueError, "indexing"),
    ],
)
def test_eager_errors(build: Callable[[], Any], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        build()


def test_runtime_errors() -> None:
    n = lt.lscalar("n")
    with pytest.raises(ValueError):
        run([n], lt.zeros((n, 2)), [-1])
    with pytest.raises(ValueError):
        run([n], lt.eye(n), [-2])
    # A zero step that is an array (not a Python number) has no length, as in numpy.
    with pytest.raises(ValueError, match="Maximum allowed size"):
        run([n], lt.arange(0, 5, n), [0])


def test_constant_folding_policy() -> None:
    # Small results may become constants; big ones stay nodes (cheap to keep,
    # expensive to store and hash as constants).
    small, big = lt.arange(10), lt.arange(10_000)
    assert small.owner.op.do_constant_folding(None, small.owner)
    assert not big.owner.op.do_constant_folding(None, big.owner)
    big_eye = lt.eye(100)
    assert not big_eye.owner.op.do_constant_folding(None, big_eye.owner)
    assert not lt.zeros((100, 100)).owner.op.do_constant_folding(None, lt.zeros((100, 100)).owner)


def test_ops_are_value_like() -> None:
    assert lt.arange(3).owner.op == ARange("int64", (True, True, True))
    assert lt.eye(3, dtype="int8").owner.op == Eye("int8")
    # One op for all fills: zeros is an Alloc of a constant zero.
    assert lt.zeros(3).owner.op == lt.ones(3).owner.op == lt.Alloc()


def test_arange_infer_shape_symbolic() -> None:
    a, b, c = lt.dscalar("a"), lt.lscalar("b"), lt.dscalar("c")
    y = lt.arange(a, b, c)
    (inferred,) = y.owner.op.infer_shape(None, y.owner, [(), (), ()])
    for values in [(0.5, 7, 1.5), (3.0, -2, -0.75), (1.0, 0, 1.0)]:
        got = run([a, b, c], lt.as_tensor_variable(inferred[0]), list(values))
        assert int(got) == len(np.arange(*values))


# -- gradients ---------------------------------------------------------------------


def _points(*shapes_: tuple[int, ...]) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [rng.uniform(-2, 2, s) for s in shapes_]


GRAD_TABLE: list[tuple[str, Callable[..., Any], list[np.ndarray]]] = [
    ("tril", lambda x: lt.tril(x, -1), _points((3, 4))),
    ("triu", lambda x: lt.triu(x, 1), _points((2, 3, 3))),
    ("tril_1d", lambda x: lt.tril(x), _points((3,))),
    ("full", lambda v: lt.full((2, 3), v), _points(())),
    ("full_like", lambda x, v: lt.full_like(x, v) * x, _points((2, 2), ())),
    ("arange", lambda a, c: lt.arange(a, 4.0, c), [np.array(0.3), np.array(0.7)]),
    ("linspace", lambda a, b: lt.linspace(a, b, 5), _points((), ())),
    ("linspace_arrays", lambda a, b: lt.linspace(a, b, 4, axis=1), _points((2,), (3, 1))),
    ("linspace_open", lambda a, b: lt.linspace(a, b, 3, endpoint=False), _points((), ())),
    ("meshgrid", lambda x, y: lt.meshgrid(x, y)[1] * lt.meshgrid(x, y)[0], _points((3,), (2,))),
]

SECOND_ORDER = {"tril", "triu", "linspace"}


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


def test_integer_inputs_have_no_gradient() -> None:
    n = lt.lscalar("n")
    x = lt.dscalar("x")
    cost = lt.sum(lt.eye(n) * x) + lt.sum(lt.arange(n) * x)
    assert float(run([n, x], grad(cost, x), [3, 2.0])) == 3.0 + 3.0


@pytest.mark.parametrize(
    ("fn", "point"),
    [
        (lambda x: lt.tril(x), _points((3, 3))),
        (lambda a, b: lt.linspace(a, b, 4), _points((2,), (2,))),
        (lambda a: lt.full((2, 2), a), _points(())),
    ],
    ids=["tril", "linspace", "full"],
)
def test_verify_rop(fn: Callable[..., Any], point: list[np.ndarray]) -> None:
    verify_rop(fn, point)
