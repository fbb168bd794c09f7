"""The shared test harness for tensor ops: hypothesis strategies for numpy data
with the edge cases numpy users hit, and the checks every op row goes through.

An op family's test module declares rows of :class:`OpCase` and runs them through
:func:`check_case`; the same rows drive numpy-equivalence, ``infer_shape``,
``verify_grad`` and (with ``LAZYGRAPH_BACKEND``) backend comparisons.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
from hypothesis import strategies as st

import lazygraph
import lazygraph.tensor as lt
from lazygraph.compile.mode import Mode
from lazygraph.graph.basic import Apply, Op
from lazygraph.tensor.type import TensorType

BACKEND = os.environ.get("LAZYGRAPH_BACKEND", "python")

FLOATS = ("float32", "float64")
COMPLEX = ("complex64", "complex128")
SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
INTS = SIGNED + UNSIGNED
NUMERIC = INTS + FLOATS
ALL = ("bool", *INTS, *FLOATS, *COMPLEX)


def elements(
    dtype: str,
    finite: bool = False,
    min_value: Any = None,
    max_value: Any = None,
    nonzero: bool = False,
) -> st.SearchStrategy[Any]:
    """Values of ``dtype`` including its edges: NaN, ±inf, -0.0, the integer limits."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return st.booleans()
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo = info.min if min_value is None else max(int(min_value), int(info.min))
        hi = info.max if max_value is None else min(int(max_value), int(info.max))
        s = st.integers(lo, hi)
        return s.filter(lambda v: v != 0) if nonzero else s
    width = 32 if dt in (np.float32, np.complex64) else 64
    f = st.floats(
        min_value=min_value,
        max_value=max_value,
        allow_nan=not finite and min_value is None and max_value is None,
        allow_infinity=not finite and min_value is None and max_value is None,
        width=width,
        allow_subnormal=True,
    )
    if nonzero:
        f = f.filter(lambda v: v != 0)
    if dt.kind == "c":
        return st.builds(complex, f, f)
    return f


def arrays(
    dtype: str, shape: Sequence[int] | st.SearchStrategy[tuple[int, ...]], **kw: Any
) -> st.SearchStrategy[np.ndarray]:
    """Arrays of ``dtype`` and ``shape`` with edge values (see :func:`elements`)."""
    return hnp.arrays(np.dtype(dtype), shape, elements=elements(dtype, **kw))


def shapes(
    min_dims: int = 0, max_dims: int = 3, min_side: int = 0, max_side: int = 4
) -> st.SearchStrategy[tuple[int, ...]]:
    """Array shapes including 0-d and empty ones."""
    return hnp.array_shapes(
        min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
    )


def broadcast_shapes(
    num_shapes: int = 2, min_dims: int = 0, max_dims: int = 3
) -> st.SearchStrategy[tuple[tuple[int, ...], ...]]:
    """``num_shapes`` shapes that broadcast together."""
    return hnp.mutually_broadcastable_shapes(
        num_shapes=num_shapes, min_dims=min_dims, max_dims=max_dims, min_side=0, max_side=4
    ).map(lambda bs: bs.input_shapes)


def variable_for(value: np.ndarray, static_shape: bool = True, name: str | None = None) -> Any:
    """A graph input matching ``value``: its dtype, and its shape (static) or
    ``None`` sizes (``static_shape=False``) with size-1 dims kept static."""
    shape = value.shape if static_shape else tuple(1 if s == 1 else None for s in value.shape)
    return TensorType(value.dtype, shape)(name)


def run(
    inputs: Sequence[Any], outputs: Any, values: Sequence[Any], backend: str | None = None
) -> Any:
    """Compile ``inputs -> outputs`` (default backend of this test run) and call it."""
    fn = lazygraph.function(list(inputs), outputs, mode=Mode(backend=backend or BACKEND))
    return fn(*values)


def assert_numpy_equal(
    got: Any,
    expected: Any,
    rtol: float | None = None,
    atol: float = 0.0,
    check_dtype: bool = True,
    signed_zeros: bool = False,
    complex_infinities: bool = False,
) -> None:
    """``got`` equals numpy's ``expected``: same shape, dtype and values, NaN where
    numpy has NaN; floats compared with ``rtol`` (default exact for ints/bools,
    1e-5 for float32/complex64, 1e-12 for float64/complex128).

    ``complex_infinities``: where numpy's complex result is infinite, ``got``
    must be infinite too, its other part not compared. A complex product sum
    that overflows is ``inf+nan j`` in one summation order and ``inf+0j`` in
    another, and numpy's own matmul picks BLAS or its loop by shape and
    layout, so that part is not numpy's to define (C99 Annex G: any complex
    with an infinite part is an infinity)."""
    got = np.asarray(got)
    expected = np.asarray(expected)
    if complex_infinities and expected.dtype.kind == "c" and got.shape == expected.shape:
        infinite = np.isinf(expected.real) | np.isinf(expected.imag)
        if infinite.any():
            got_inf = np.isinf(got.real) | np.isinf(got.imag)
            assert got_inf[infinite].all(), f"numpy's infinite products are finite here: {got}"
            got, expected = got.copy(), expected.copy()
            got[infinite] = expected[infinite] = 0
    assert got.shape == expected.shape, f"shape {got.shape} != numpy's {expected.shape}"
    if check_dtype:
        assert got.dtype == expected.dtype, f"dtype {got.dtype} != numpy's {expected.dtype}"
    if expected.dtype.kind in "fc":
        if BACKEND == "jax":  # XLA on the CPU flushes subnormal results to zero
            atol = max(atol, float(np.finfo(expected.dtype).tiny))
        if rtol is None:
            rtol = 1e-5 if expected.dtype in (np.float32, np.complex64) else 1e-12
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True)
        if signed_zeros and expected.dtype.kind == "f":
            zeros = expected == 0
            np.testing.assert_array_equal(np.signbit(got[zeros]), np.signbit(expected[zeros]))
    else:
        np.testing.assert_array_equal(got, expected)


def numpy_result(fn: Callable[..., Any], *values: Any) -> tuple[Any, type[BaseException] | None]:
    """numpy's answer, or the exception type numpy raised; numpy's warnings silenced."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return fn(*values), None
        except Exception as exc:
            return None, public_exception_type(type(exc))


def public_exception_type(exc_type: type[BaseException]) -> type[BaseException]:
    """The first public class in ``exc_type``'s MRO: numpy raises private
    subclasses (``UFuncTypeError`` for a missing ufunc loop is a ``TypeError``)."""
    for cls in exc_type.__mro__:
        private = cls.__name__.startswith("_") or any(
            part.startswith("_") for part in cls.__module__.split(".")
        )
        if not private:
            return cls
    return exc_type


def check_infer_shape(
    output: Any, input_values: Sequence[Any], inputs: Sequence[Any], computed: Any
) -> None:
    """The output node's ``infer_shape`` agrees with the computed shape."""
    node = output.owner
    if node is None:
        return
    in_shapes = []
    value_of = dict(zip(inputs, input_values, strict=True))
    for v in node.inputs:
        if v in value_of:
            in_shapes.append(tuple(np.shape(value_of[v])))
        elif hasattr(v, "data"):
            in_shapes.append(tuple(np.shape(v.data)))
        else:
            return  # an inner node: its shape is checked by its own row
    shapes_out = node.op.infer_shape(None, node, in_shapes)
    got = shapes_out[output.index]

    def concrete_size(s: Any) -> int:
        if isinstance(s, (int, np.integer)):
            return int(s)
        # A symbolic size may read the inputs' values (a boolean mask's count).
        fn = lazygraph.function(list(inputs), s, mode=Mode(backend=BACKEND))
        return int(fn(*input_values))

    concrete = tuple(concrete_size(s) for s in got)
    assert concrete == tuple(np.shape(computed)), (
        f"infer_shape {concrete} != computed {np.shape(computed)}"
    )


@dataclass
class OpCase:
    """One row of an op family's table.

    ``build(*vars)`` makes the lazygraph output from input variables and
    ``reference(*arrays)`` is numpy's; ``inputs`` is a hypothesis strategy for the
    tuple of input arrays; ``grad`` says whether to run ``verify_grad``.
    """

    name: str
    build: Callable[..., Any]
    reference: Callable[..., Any]
    inputs: st.SearchStrategy[tuple[np.ndarray, ...]]
    grad: bool = False
    rtol: float | None = None
    atol: float = 0.0
    check_dtype: bool = True
    signed_zeros: bool = False
    static_shape: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


def flush_subnormals(values: Sequence[Any]) -> list[Any]:
    """``values`` with subnormal floats replaced by zeros of the same sign, as XLA
    on the CPU reads them (used for the jax backend). Arrays are flushed, also
    inside lists and tuples; other values are kept."""
    out: list[Any] = []
    for v in values:
        if isinstance(v, list | tuple):
            out.append(type(v)(flush_subnormals(v)))
            continue
        a = np.asarray(v)
        if a.dtype.kind == "f":
            a = np.where(np.abs(a) < np.finfo(a.dtype).tiny, np.copysign(0, a), a).astype(a.dtype)
        elif a.dtype.kind == "c":
            re, im = flush_subnormals([a.real, a.imag])
            a = np.array(a, copy=True)
            a.real, a.imag = re, im
        out.append(a if isinstance(v, np.ndarray) else v)
    return out


#: the float range whose casts to each unsigned dtype C defines the same way
#: on every path numpy takes (outside it, numpy's answer depends on the loop)
_DEFINED_UNSIGNED = {"uint32": (-(2.0**31), 2.0**32), "uint64": (-(2.0**63), 2.0**64)}


def defined_unsigned_casts(values: Sequence[Any], dtype: str) -> list[Any]:
    """``values`` with floats outside the range that casts to the unsigned
    ``dtype`` portably (NaN and inf included) replaced by 0, for compiled
    backends: C leaves those casts undefined and numpy's answer depends on the
    array's size and layout (contiguous runs of 4+ take a SIMD loop giving 0 or
    2**31 for uint32; shorter or strided arrays wrap through int64), which one
    compiled loop cannot follow."""
    if dtype not in _DEFINED_UNSIGNED:
        return list(values)
    lo, hi = _DEFINED_UNSIGNED[dtype]
    out = []
    for v in values:
        a = np.asarray(v)
        if a.dtype.kind in "fc":
            re = a.real
            bad = ~((re >= lo) & (re < hi))
            a = np.where(bad, np.zeros_like(a), a)
        out.append(a if isinstance(v, np.ndarray) else v)
    return out


def check_case(case: OpCase, values: Sequence[np.ndarray]) -> None:
    """numpy equivalence (value, dtype, shape, NaN positions; and the same
    exception type when numpy raises) and ``infer_shape`` for one input tuple."""
    if BACKEND == "jax":
        values = flush_subnormals(values)
    if BACKEND != "python" and case.name.startswith("cast-uint"):
        values = defined_unsigned_casts(values, case.name.removeprefix("cast-"))
    if BACKEND != "python" and case.name.startswith(("set_subtensor", "inc_subtensor")):
        # the update values are cast to x's dtype: the same undefined casts
        x = np.asarray(values[0])
        values = [values[0], *defined_unsigned_casts(values[1:], x.dtype.name)]
    expected, exc_type = numpy_result(case.reference, *values)
    variables = [variable_for(v, case.static_shape, f"x{i}") for i, v in enumerate(values)]
    if exc_type is not None:
        try:
            out = case.build(*variables)
            run(variables, out, values)
        except exc_type:
            return
        except Exception as exc:
            raise AssertionError(
                f"{case.name}: numpy raised {exc_type.__name__}, "
                f"lazygraph {type(exc).__name__}: {exc}"
            ) from exc
        raise AssertionError(f"{case.name}: numpy raised {exc_type.__name__}, lazygraph did not")
    out = case.build(*variables)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        got = run(variables, out, values)
    assert_numpy_equal(
        got,
        expected,
        rtol=case.rtol,
        atol=case.atol,
        check_dtype=case.check_dtype,
        signed_zeros=case.signed_zeros,
        complex_infinities=case.extra.get("complex_infinities", False),
    )
    check_infer_shape(out, values, variables, got)


def check_symbolic_infer_shape(out: Any, x: Any, value: np.ndarray) -> None:
    """``infer_shape`` given symbolic input sizes (as the shape feature calls it)
    computes the output's shape."""
    import lazygraph.tensor as lt

    node = out.owner
    sizes = [tuple(lt.shape(v)[i] for i in range(v.ndim)) for v in node.inputs]
    shape = node.op.infer_shape(None, node, sizes)[out.index]
    got = run([x], [lt.as_tensor_variable(s) for s in shape] + [out], [value])
    assert tuple(int(s) for s in got[:-1]) == got[-1].shape


class CountedAddOne(Op):
    """``x + 1``, counting its runs (``CountedAddOne.calls``): an op of no
    lazygraph module, for tests of what runs (a branch not taken, a node a loop
    rewrite must not move)."""

    __props__ = ()
    calls = 0

    def make_node(self, x: object) -> Apply:
        x = lt.as_tensor_variable(x)
        return Apply(self, [x], [x.type()])

    def perform(self, node: Apply, inputs: list, output_storage: list) -> None:
        type(self).calls += 1
        output_storage[0][0] = inputs[0] + 1
