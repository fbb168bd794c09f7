"""JAX lowerings: reductions (``Reduce``, ``FusedReduce``) and cumulative scans.

>>> import numpy as np
>>> from lazygraph.backends.jax.reduction import reduce_function
>>> from lazygraph.tensor.reduction import Reduce
>>> round(float(reduce_function(Reduce("logsumexp", (0,)), "float64")(np.zeros(4))), 6)
1.386294
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from lazygraph.backends.jax.dispatch import Context, register
from lazygraph.backends.jax.elemwise import _cast, elemwise_function
from lazygraph.graph.basic import Apply
from lazygraph.tensor.cumulative import CumOp
from lazygraph.tensor.fused import FusedReduce
from lazygraph.tensor.reduction import KINDS, Reduce

__all__ = ["reduce_function"]

Fn = Callable[..., Any]


def _float_of(x: Any, out_dtype: str) -> Any:
    # var/std/mean/logsumexp of integers compute in the output float
    if x.dtype.kind in "biu":
        return x.astype(out_dtype)
    return x


_lowering = threading.local()


@contextlib.contextmanager
def sharded_lowering(sharded: bool) -> Iterator[None]:
    """Lowerings made in the block are for a program compiled with shardings
    (see the max / min of :func:`reduce_function`)."""
    before = getattr(_lowering, "sharded", False)
    _lowering.sharded = sharded
    try:
        yield
    finally:
        _lowering.sharded = before


def reduce_function(op: Reduce, out_dtype: str) -> Fn:
    """The jax function of reduction ``op`` whose result has ``out_dtype``."""
    axis, keepdims, kind = op.axis, op.keepdims, op.kind
    row = KINDS[kind]

    def empty_check(x: Any) -> None:
        if not row.identity and any(x.shape[a] == 0 for a in axis):
            raise ValueError(op._empty_message(x.shape))

    if kind in ("sum", "prod"):
        fn = jnp.sum if kind == "sum" else jnp.prod
        dtype = np.dtype(op.dtype or out_dtype)

        def run(x: Any) -> Any:
            # numpy casts the input first, with its own (unsafe) cast
            x = _cast(x, dtype.name) if x.dtype != dtype else x
            result = fn(x, axis=axis, dtype=dtype, keepdims=keepdims)
            return _from_identity(result) if kind == "sum" else result
    elif kind in ("max", "min"):
        fn = jnp.max if kind == "max" else jnp.min
        guard_nan = getattr(_lowering, "sharded", False)

        def run(x: Any) -> Any:
            empty_check(x)
            if not axis:
                return x
            if x.dtype.kind == "c":
                return _complex_extreme(x, axis, keepdims, kind == "max")
            result = fn(x, axis=axis, keepdims=keepdims)
            if guard_nan and x.dtype.kind == "f":
                # NaN wins, as in numpy: XLA's cross-device max of a sharded axis
                # takes the larger number instead (the CPU's all-reduce). Only in
                # a sharded program: on one device XLA's max propagates NaN, and
                # the extra reduction does not fuse (3x a row max on the CPU)
                nan = jnp.any(jnp.isnan(x), axis=axis, keepdims=keepdims)
                result = jnp.where(nan, jnp.asarray(np.nan, x.dtype), result)
            return result
    elif kind in ("all", "any"):
        fn = jnp.all if kind == "all" else jnp.any

        def run(x: Any) -> Any:
            return fn(x != 0, axis=axis, keepdims=keepdims)
    elif kind == "mean":

        def run(x: Any) -> Any:
            if op.dtype and np.dtype(op.dtype).kind in "iu":
                # numpy: the sum in that integer type, divided in float64, cast back
                x = _cast(x, op.dtype) if x.dtype != np.dtype(op.dtype) else x
                total = jnp.sum(x, axis=axis, dtype=op.dtype, keepdims=keepdims)
                count = int(np.prod([x.shape[a] for a in axis], dtype=np.int64))
                return _cast(total.astype(jnp.float64) / count, op.dtype)
            x = _cast(x, op.dtype) if op.dtype and x.dtype != np.dtype(op.dtype) else x
            return _from_identity(jnp.mean(x, axis=axis, keepdims=keepdims))
    elif kind in ("var", "std"):
        fn = jnp.var if kind == "var" else jnp.std

        def run(x: Any) -> Any:
            if op.dtype is not None and x.dtype.kind != "c":
                x = x.astype(op.dtype)
            x = _float_of(x, out_dtype)
            count = int(np.prod([x.shape[a] for a in axis], dtype=np.int64))
            if count - op.correction > 0:
                return fn(x, axis=axis, ddof=op.correction, keepdims=keepdims)
            # numpy divides by max(count - correction, 0): inf, or NaN where the
            # sum of squares is 0 (jax divides by the negative count instead)
            var = jnp.var(x, axis=axis, keepdims=keepdims) * count / 0.0
            return var if kind == "var" else jnp.sqrt(var)
    elif kind == "logsumexp":

        def run(x: Any) -> Any:
            x = _float_of(x, out_dtype)
            if not axis:
                return x
            return jax.scipy.special.logsumexp(x, axis=axis, keepdims=keepdims)
    elif kind == "count_nonzero":

        def run(x: Any) -> Any:
            return jnp.sum(x != 0, axis=axis, keepdims=keepdims, dtype=out_dtype)
    else:  # argmax / argmin
        fn = jnp.argmax if kind == "argmax" else jnp.argmin

        def run(x: Any) -> Any:
            empty_check(x)
            one = axis[0] if len(axis) == 1 else None
            if one is None and x.ndim == 0:
                return jnp.zeros((1,) * 0, out_dtype)
            if x.dtype.kind == "c":
                return _complex_arg_extreme(x, one, keepdims, kind == "argmax")
            return fn(x, axis=one, keepdims=keepdims)

    return run


def _from_identity(total: Any) -> Any:
    """``total + 0.0``, as numpy's sums start from their identity: a sum of -0.0
    (or over one element, or none of the axes) is +0.0 there, where XLA drops
    the identity and keeps -0.0. Written as a select, which XLA's simplifier
    does not fold away (it folds ``x + 0.0`` into ``x``)."""
    if total.dtype.kind == "f":
        return jnp.where(total == 0, jnp.zeros_like(total), total)
    if total.dtype.kind == "c":
        re, im = jnp.real(total), jnp.imag(total)
        zero = jnp.zeros_like(re)
        return jax.lax.complex(jnp.where(re == 0, zero, re), jnp.where(im == 0, zero, im))
    return total


def _complex_extreme(x: Any, axis: tuple[int, ...], keepdims: bool, is_max: bool) -> Any:
    """numpy's max / min of complex values: by real part, then imaginary part
    (XLA's own compares wrongly where the real parts are infinite), NaN (in
    either part) anywhere in the slice giving NaN; the result is built from its
    parts (``lax.complex``: no ``inf * 1j``)."""
    best = jnp.max if is_max else jnp.min
    far = -jnp.inf if is_max else jnp.inf
    re, im = jnp.real(x), jnp.imag(x)
    best_re = best(re, axis=axis, keepdims=True)
    best_im = best(jnp.where(re == best_re, im, far), axis=axis, keepdims=True)
    result = jax.lax.complex(best_re, best_im)
    nan = jnp.any(jnp.isnan(x), axis=axis, keepdims=True)
    result = jnp.where(nan, jnp.asarray(complex(np.nan, np.nan), x.dtype), result)
    return result if keepdims else jnp.squeeze(result, axis=axis)


def _complex_arg_extreme(x: Any, axis: int | None, keepdims: bool, is_max: bool) -> Any:
    """numpy's argmax / argmin of complex values: ordered by real part, then
    imaginary part; the first NaN (in either part) wins."""
    if axis is None:
        flat = _complex_arg_extreme(jnp.reshape(x, (-1,)), 0, False, is_max)
        return jnp.reshape(flat, (1,) * x.ndim) if keepdims else flat
    re, im = jnp.real(x), jnp.imag(x)
    best = jnp.max if is_max else jnp.min
    far = -jnp.inf if is_max else jnp.inf
    top_re = best(re, axis=axis, keepdims=True)
    on_top = re == top_re
    top_im = best(jnp.where(on_top, im, far), axis=axis, keepdims=True)
    nan = jnp.isnan(re) | jnp.isnan(im)
    pick = jnp.where(jnp.any(nan, axis=axis, keepdims=True), nan, on_top & (im == top_im))
    return jnp.argmax(pick, axis=axis, keepdims=keepdims)


@register(Reduce)
def _reduce(op: Reduce, node: Apply, ctx: Context) -> Fn:
    fn = reduce_function(op, node.outputs[0].type.dtype)  # type: ignore[attr-defined]

    def run(x: Any) -> list[Any]:
        return [fn(x)]

    return run


@register(FusedReduce)
def _fused_reduce(op: FusedReduce, node: Apply, ctx: Context) -> Fn:
    # XLA fuses the elementwise expression into the reduction itself.
    inner = op.elemwise.make_node(*node.inputs)
    elem = elemwise_function(op.scalar_op, inner, ctx)
    red = reduce_function(op.reduce, node.outputs[0].type.dtype)  # type: ignore[attr-defined]
    shape = inner.outputs[0].type.shape  # type: ignore[attr-defined]

    def run(*xs: Any) -> list[Any]:
        (values,) = elem(*xs)
        target = jnp.broadcast_shapes(*[jnp.shape(x) for x in xs]) if xs else shape
        if values.shape != target:
            values = jnp.broadcast_to(values, target)
        return [red(values)]

    return run


def _cumsum(x: Any, axis: int, dtype: np.dtype[Any]) -> Any:
    """numpy's running sum. numpy's ``add.accumulate`` starts from the first
    element, so a sum stays -0.0 while every element so far is -0.0; XLA's
    cumsum (and ``associative_scan``, which pads with zeros) starts from +0.0.
    The sign is put back where that is the case, part by part for complex."""
    out = jnp.cumsum(x, axis=axis, dtype=dtype)
    if dtype.kind not in "fc" or x.size == 0:
        return out

    def signed(part: Any, summed: Any) -> Any:
        negative_zero = (part == 0) & jnp.signbit(part)
        so_far = jax.lax.cummin(negative_zero.astype(jnp.int8), axis=axis).astype(bool)
        return jnp.where(so_far, -jnp.zeros_like(summed), summed)

    if dtype.kind == "f":
        return signed(x, out)
    return jax.lax.complex(signed(x.real, out.real), signed(x.imag, out.imag))


@register(CumOp)
def _cumop(op: CumOp, node: Apply, ctx: Context) -> Fn:
    scan = _cumsum if op.kind == "sum" else jnp.cumprod
    neutral = 0 if op.kind == "sum" else 1

    def run(x: Any) -> list[Any]:
        axis = op.axis
        if axis is None or x.ndim == 0:
            x, axis = jnp.reshape(x, (-1,)), 0
        if op.reverse:
            x = jnp.flip(x, axis)
        dtype = np.dtype(op.dtype)
        x = _cast(x, dtype.name) if x.dtype != dtype else x  # numpy's cast, not XLA's
        out = scan(x, axis=axis, dtype=dtype)
        if op.exclusive and out.shape[axis]:
            pad = [(0, 0)] * out.ndim
            pad[axis] = (1, 0)
            body = jax.lax.slice_in_dim(out, 0, out.shape[axis] - 1, axis=axis)
            out = jnp.pad(body, pad, constant_values=neutral)
        if op.reverse:
            out = jnp.flip(out, axis)
        return [out]

    return run
