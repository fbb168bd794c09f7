"""Norms and matrix functions written with other ops (their gradients come from
those ops): ``vector_norm``, ``matrix_norm``, ``matrix_power``, ``matrix_rank``.
Each follows numpy.linalg's own formula, so dtypes and edge cases (empty
inputs, integer inputs computed in float64) match."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from lazygraph.tensor.linalg._common import as_matrix_stack, eye_like, lt
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

__all__ = ["matrix_norm", "matrix_power", "matrix_rank", "vector_norm"]


def _as_float(x: Any) -> TensorVariable:
    x = as_tensor_variable(x)
    if x.type.numpy_dtype.kind not in "fc":
        return lt().cast(x, "float64")  # type: ignore[no-any-return]
    return x


def _abs2(x: Any) -> Any:
    """``(conj(x) * x).real``: ``x**2`` for real ``x``."""
    t = lt()
    if x.type.numpy_dtype.kind == "c":
        return t.real(t.multiply(t.conj(x), x))
    return t.multiply(x, x)


def _max_or_zero(x: Any, axis: int, keepdims: bool = False) -> Any:
    """``x.max(axis, initial=0)`` for ``x >= 0``: an empty axis gives 0 (numpy's
    ``initial=0``); a zero is padded on when the size may be 0."""
    t = lt()
    if x.type.shape[axis] in (None, 0):
        widths = [(0, 0)] * x.ndim
        widths[axis] = (0, 1)
        x = t.pad(x, widths)
    return t.max(x, axis=axis, keepdims=keepdims)


def _normalize_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    axes = tuple(range(ndim)) if axis is None else axis
    if not isinstance(axes, tuple):
        axes = (operator.index(axes),)
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise np.exceptions.AxisError(a, ndim)
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise ValueError("repeated axis")
    return tuple(out)


def vector_norm(
    x: Any, axis: int | Sequence[int] | None = None, keepdims: bool = False, ord: Any = 2
) -> TensorVariable:
    """``numpy.linalg.vector_norm``: the ``ord``-norm over ``axis`` (all axes by
    default); integer and bool inputs are computed in float64.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> float(lt.linalg.vector_norm(np.array([3.0, -4.0])).eval())
    5.0
    """
    t = lt()
    x = _as_float(x)
    axes = _normalize_axes(tuple(axis) if isinstance(axis, list) else axis, x.ndim)
    if x.ndim == 0:
        x, axes = t.reshape(x, (1,)), (0,)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    real_dt = "float32" if x.type.dtype in ("float32", "complex64") else "float64"
    absx = t.abs(x)
    if ord == np.inf or ord == -np.inf:
        # Several axes: flatten them into one first, as numpy does.
        if len(axes) != 1:
            rest = [i for i in range(x.ndim) if i not in axes]
            moved = t.permute_dims(absx, [*axes, *rest])
            rest_sizes = [t.shape_i(absx, i) for i in rest]
            # The product, not -1: -1 is ambiguous when another size is 0.
            size = t.shape_i(absx, axes[0])
            for i in axes[1:]:
                size = t.multiply(size, t.shape_i(absx, i))
            flat = t.reshape(moved, (size, *rest_sizes))
            out = _max_or_zero(flat, 0) if ord == np.inf else t.min(flat, axis=0)
            if keepdims:
                out = t.expand_dims(out, axes)
            return out  # type: ignore[no-any-return]
        if ord == np.inf:
            return _max_or_zero(absx, axes[0], keepdims)  # type: ignore[no-any-return]
        return t.min(absx, axis=axes, keepdims=keepdims)  # type: ignore[no-any-return]
    if ord == 0:
        nz = t.cast(t.not_equal(x, 0), real_dt)
        return t.sum(nz, axis=axes, keepdims=keepdims)  # type: ignore[no-any-return]
    if ord == 1:
        return t.sum(absx, axis=axes, keepdims=keepdims)  # type: ignore[no-any-return]
    if ord is None or ord == 2:
        return t.sqrt(t.sum(_abs2(x), axis=axes, keepdims=keepdims))  # type: ignore[no-any-return]
    p = float(ord)
    total = t.sum(t.power(absx, p), axis=axes, keepdims=keepdims)
    return t.power(total, 1.0 / p)  # type: ignore[no-any-return]


def matrix_norm(x: Any, keepdims: bool = False, ord: Any = "fro") -> TensorVariable:
    """``numpy.linalg.matrix_norm``: the ``ord``-norm (``"fro"``, ``"nuc"``,
    ``1``, ``-1``, ``2``, ``-2``, ``inf``, ``-inf``) of each matrix in the last two axes.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> float(lt.linalg.matrix_norm(np.array([[3.0, 0.0], [0.0, 4.0]])).eval())
    5.0
    """
    t = lt()
    x = _as_float(x)
    if x.ndim < 2:
        raise np.exceptions.AxisError(-2, x.ndim)
    absx = t.abs(x)
    if ord in ("fro", "f", None):
        out = t.sqrt(t.sum(_abs2(x), axis=(-2, -1)))
    elif ord == "nuc" or ord == 2 or ord == -2:
        from lazygraph.tensor.linalg.decomp import svdvals

        s = svdvals(x)
        if ord == "nuc":
            out = t.sum(s, axis=-1)
        elif ord == 2:
            out = _max_or_zero(s, -1)
        else:
            out = t.min(s, axis=-1)
    elif ord == 1:
        out = _max_or_zero(t.sum(absx, axis=-2), -1)
    elif ord == -1:
        out = t.min(t.sum(absx, axis=-2), axis=-1)
    elif ord == np.inf:
        out = _max_or_zero(t.sum(absx, axis=-1), -1)
    elif ord == -np.inf:
        out = t.min(t.sum(absx, axis=-1), axis=-1)
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        out = t.expand_dims(out, (-2, -1))
    return out  # type: ignore[no-any-return]


def matrix_power(x: Any, n: int) -> TensorVariable:
    """``numpy.linalg.matrix_power``: ``x`` multiplied by itself ``n`` times (the
    inverse's powers for negative ``n``, the identity for 0), with numpy's
    sequence of products.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.linalg.matrix_power(np.array([[1, 1], [0, 1]]), 3).eval()
    array([[1, 3],
           [0, 1]])
    """
    t = lt()
    a = as_matrix_stack(x, "matrix_power")
    try:
        n = operator.index(n)
    except TypeError as exc:
        raise TypeError("exponent must be an integer") from exc
    if n == 0:
        return t.broadcast_to(eye_like(a), t.shape(a))  # type: ignore[no-any-return]
    if n < 0:
        from lazygraph.tensor.linalg.solve import inv

        a, n = inv(a), -n
    if n == 1:
        return a
    if n == 2:
        return t.matmul(a, a)  # type: ignore[no-any-return]
    if n == 3:
        return t.matmul(t.matmul(a, a), a)  # type: ignore[no-any-return]
    z = result = None
    while n > 0:
        z = a if z is None else t.matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else t.matmul(result, z)
    return result  # type: ignore[return-value]


def matrix_rank(x: Any, rtol: Any = None) -> TensorVariable:
    """``numpy.linalg.matrix_rank``: the number of singular values above
    ``rtol`` times the largest (default ``max(M, N) * eps``).

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> int(lt.linalg.matrix_rank(np.array([[1.0, 2.0], [2.0, 4.0]])).eval())
    1
    """
    t = lt()
    a = as_tensor_variable(x)
    if a.ndim < 2:
        return t.cast(t.any(t.not_equal(a, 0)), "int64")  # type: ignore[no-any-return]
    from lazygraph.tensor.linalg.decomp import svdvals

    s = svdvals(a)
    if rtol is None:
        eps = float(np.finfo(s.type.dtype).eps)
        m, n = a.type.shape[-2:]
        if m is not None and n is not None:
            rtol = max(m, n) * eps
        else:
            size = t.maximum(t.shape_i(a, a.ndim - 2), t.shape_i(a, a.ndim - 1))
            rtol = t.multiply(t.cast(size, s.type.dtype), eps)
    else:
        rtol = t.expand_dims(as_tensor_variable(rtol), -1)
    tol = t.multiply(_max_or_zero(s, -1, keepdims=True), rtol)
    return t.count_nonzero(t.greater(s, tol), axis=-1)  # type: ignore[no-any-return]
