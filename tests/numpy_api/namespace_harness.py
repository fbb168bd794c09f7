"""Differential checks of ``lazygraph.numpy`` functions against numpy (the oracle).

:func:`check` calls a numpy function and its lazygraph counterpart on the same
arguments (numpy arrays, numpy scalars, Python scalars, lists) and asserts the
same values (NaN-aware), dtype and shape, or the same exception type when numpy
raises. The one intended difference: numpy's float16 results (float functions
of bool/int8/uint8) are float32 in lazygraph, so the reference recomputes those
with float32 inputs.

The strategies build argument tuples with the edge cases of
:mod:`tests.tensor.harness` (NaN, ±inf, -0.0, integer limits, 0-d and empty
arrays, broadcasting) plus Python and numpy scalar operands for promotion.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from tests.tensor.harness import (
    ALL,
    BACKEND,
    arrays,
    assert_numpy_equal,
    broadcast_shapes,
    elements,
    flush_subnormals,
    public_exception_type,
    shapes,
)

__all__ = [
    "ALL",
    "array_args",
    "binary_args",
    "check",
    "materialize",
    "python_scalars",
    "unary_args",
]


def materialize(result: Any) -> Any:
    """A lazygraph result as numpy values: arrays computed, containers recursed."""
    if isinstance(result, lnp.Array):
        return result.compute()
    if isinstance(result, tuple | list):
        return type(result)(materialize(r) for r in result)
    return result


def _float32_inputs(args: Sequence[Any]) -> tuple[Any, ...]:
    def widen(a: Any) -> Any:
        if isinstance(a, np.ndarray | np.generic) and a.dtype.kind in "biu":
            return a.astype(np.float32)
        if isinstance(a, bool):  # numpy treats a Python bool as a bool array
            return np.float32(a)
        return a

    return tuple(widen(a) for a in args)


def _has_float16(value: Any) -> bool:
    if isinstance(value, tuple | list):
        return any(_has_float16(v) for v in value)
    return isinstance(value, np.ndarray | np.generic) and value.dtype == np.float16


def numpy_reference(fn: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any]) -> Any:
    """``fn(*args, **kwargs)``, or the public exception type numpy raised;
    float16 results recomputed from float32 inputs."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            out = fn(*args, **kwargs)
            if _has_float16(out):
                out = fn(*_float32_inputs(args), **kwargs)
            return out, None
        except Exception as exc:
            return None, public_exception_type(type(exc))


def _compare(
    got: Any,
    expected: Any,
    rtol: float | None,
    check_dtype: bool,
    signed_zeros: bool = True,
    atol: float = 0.0,
) -> None:
    if isinstance(expected, tuple | list):
        assert isinstance(got, tuple | list), f"expected a sequence, got {type(got)}"
        assert len(got) == len(expected), f"{len(got)} results, numpy has {len(expected)}"
        for g, e in zip(got, expected, strict=True):
            _compare(g, e, rtol, check_dtype, signed_zeros, atol)
        return
    python_scalar = isinstance(expected, bool | int | float | complex)
    if python_scalar and not isinstance(expected, np.generic):
        # numpy gave a Python scalar (real(True), allclose(...)): so must we.
        assert type(got) is type(expected), f"{type(got)} != numpy's {type(expected)}"
        assert got == expected or (got != got and expected != expected), (got, expected)
        return
    assert_numpy_equal(
        got, expected, rtol=rtol, atol=atol, check_dtype=check_dtype, signed_zeros=signed_zeros
    )


def check(
    lazy_fn: Callable[..., Any],
    numpy_fn: Callable[..., Any],
    *args: Any,
    rtol: float | None = None,
    check_dtype: bool = True,
    signed_zeros: bool = True,
    atol: float = 0.0,
    **kwargs: Any,
) -> None:
    """``lazy_fn(*args, **kwargs)`` computes numpy's values, dtype and shape, or
    raises numpy's exception type (when building the graph or when computing).
    ``signed_zeros`` also compares the sign of zero results. On the jax backend
    subnormal array arguments become zeros first (XLA reads them as zeros)."""
    if BACKEND == "jax":
        args = tuple(flush_subnormals(args))
    expected, exc_type = numpy_reference(numpy_fn, args, kwargs)
    if exc_type is not None:
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                materialize(lazy_fn(*args, **kwargs))
        except exc_type:
            return
        except Exception as exc:
            raise AssertionError(
                f"numpy raised {exc_type.__name__}, lazygraph {type(exc).__name__}: {exc}"
            ) from exc
        raise AssertionError(f"numpy raised {exc_type.__name__}, lazygraph did not")
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        result = lazy_fn(*args, **kwargs)
        got = materialize(result)
    _compare(got, expected, rtol, check_dtype, signed_zeros, atol)


# -- strategies ---------------------------------------------------------------------


def python_scalars() -> st.SearchStrategy[Any]:
    """Python scalars (weak in promotion), including values that overflow small ints."""
    return st.one_of(
        st.booleans(),
        st.integers(-300, 300),
        st.floats(allow_nan=True, allow_infinity=True, width=64),
        st.builds(complex, st.floats(-4, 4), st.floats(-4, 4)),
    )


def numpy_scalars(dtypes: Sequence[str] = ALL) -> st.SearchStrategy[Any]:
    """numpy scalars (strong in promotion)."""
    return st.sampled_from(dtypes).flatmap(
        lambda d: elements(d).map(lambda v, d=d: np.asarray(v, dtype=d)[()])
    )


def array_args(
    dtypes: Sequence[str] = ALL,
    min_dims: int = 0,
    max_dims: int = 3,
    min_side: int = 0,
    **kw: Any,
) -> st.SearchStrategy[np.ndarray]:
    """One array of a dtype from ``dtypes`` and a shape including 0-d and empty."""
    return st.tuples(
        st.sampled_from(dtypes), shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side)
    ).flatmap(lambda ds: arrays(ds[0], ds[1], **kw))


def unary_args(dtypes: Sequence[str] = ALL, scalars: bool = True) -> st.SearchStrategy[tuple]:
    """``(x,)``: an array, sometimes a Python or numpy scalar."""
    options = [array_args(dtypes)]
    if scalars:
        options += [python_scalars(), numpy_scalars(dtypes)]
    return st.one_of(*options).map(lambda x: (x,))


def binary_args(
    dtypes: Sequence[str] = ALL, dtypes2: Sequence[str] | None = None, scalars: bool = True
) -> st.SearchStrategy[tuple]:
    """``(x1, x2)``: arrays of broadcastable shapes and independent dtypes; one
    of them is sometimes a Python or numpy scalar."""
    dtypes2 = dtypes if dtypes2 is None else dtypes2

    def build(draw: Any) -> tuple[Any, Any]:
        s1, s2 = draw(broadcast_shapes(2))
        a = draw(st.sampled_from(dtypes).flatmap(lambda d: arrays(d, s1)))
        b = draw(st.sampled_from(dtypes2).flatmap(lambda d: arrays(d, s2)))
        if scalars:
            kind = draw(st.sampled_from(["arrays", "arrays", "py_left", "py_right", "np_right"]))
            if kind == "py_left":
                a = draw(python_scalars())
            elif kind == "py_right":
                b = draw(python_scalars())
            elif kind == "np_right":
                b = draw(numpy_scalars(dtypes2))
        return a, b

    return st.composite(lambda draw: build(draw))()
