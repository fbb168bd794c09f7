"""JAX lowerings: ``matmul``, ``einsum`` and the diagonal ops.

>>> import numpy as np
>>> import lazygraph, lazygraph.tensor as lt
>>> a = lt.dmatrix("a")
>>> f = lazygraph.function([a], lt.matmul(a, a), mode="jax")
>>> f(np.eye(2) * 2)
array([[4., 0.],
       [0., 4.]])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from lazygraph.backends.jax.dispatch import Context, register
from lazygraph.graph.basic import Apply
from lazygraph.tensor.blas import AllocDiag, Einsum, ExtractDiag, MatMul

__all__: list[str] = []

Fn = Callable[..., Any]

# float64 products stay float64 products on every device
_PRECISION = jax.lax.Precision.HIGHEST


def _compute_dtype(node: Apply) -> Any:
    dtype = np.dtype(node.outputs[0].type.dtype)  # type: ignore[attr-defined]
    # XLA has no integer/bool dot on some devices: bool is computed as int8 then cast
    return np.dtype("int8") if dtype.kind == "b" else dtype


@register(MatMul)
def _matmul(op: MatMul, node: Apply, ctx: Context) -> Fn:
    dtype = _compute_dtype(node)
    out_dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]

    def run(a: Any, b: Any) -> list[Any]:
        a, b = jnp.asarray(a).astype(dtype), jnp.asarray(b).astype(dtype)
        out = jnp.matmul(a, b, precision=_PRECISION)
        if out_dtype == "bool":
            out = out != 0
        return [out]

    return run


@register(Einsum)
def _einsum(op: Einsum, node: Apply, ctx: Context) -> Fn:
    dtype = _compute_dtype(node)
    out_dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]

    def run(*xs: Any) -> list[Any]:
        xs = tuple(jnp.asarray(x).astype(dtype) for x in xs)
        out = jnp.einsum(op.subscripts, *xs, precision=_PRECISION)
        if out_dtype == "bool":
            out = out != 0
        return [out]

    return run


@register(ExtractDiag)
def _extract_diag(op: ExtractDiag, node: Apply, ctx: Context) -> Fn:
    def run(x: Any) -> list[Any]:
        return [jnp.diagonal(jnp.asarray(x), op.offset, op.axis1, op.axis2)]

    return run


@register(AllocDiag)
def _alloc_diag(op: AllocDiag, node: Apply, ctx: Context) -> Fn:
    dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]

    def run(g: Any, x: Any) -> list[Any]:
        out = jnp.zeros(np.shape(x), dtype=dtype)
        view = jnp.moveaxis(out, (op.axis1, op.axis2), (-2, -1))
        n = np.shape(g)[-1]
        rows = np.arange(n) + max(-op.offset, 0)
        cols = np.arange(n) + max(op.offset, 0)
        view = view.at[..., rows, cols].set(jnp.asarray(g).astype(dtype))
        return [jnp.moveaxis(view, (-2, -1), (op.axis1, op.axis2))]

    return run
