"""JAX lowerings: ``arange``, ``linspace``, ``eye`` and ``tri``.

Their sizes must be known when tracing; small results fold to constants
through the ops' numpy ``perform``, larger ones are built by XLA.

>>> import numpy as np
>>> import lazygraph, lazygraph.tensor as lt
>>> x = lt.dvector("x")
>>> f = lazygraph.function([x], x + lt.arange(3.0), mode="jax")
>>> f(np.zeros(3))
array([0., 1., 2.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
import numpy as np

from lazygraph.backends.jax.dispatch import Context, register
from lazygraph.graph.basic import Apply
from lazygraph.tensor.creation import (
    ARange,
    ARangeLength,
    Eye,
    Linspace,
    Tri,
    arange_args,
    arange_length,
)

__all__: list[str] = []

Fn = Callable[..., Any]

#: results up to this size are numpy constants (the op's own ``perform``)
SMALL = 4096


def _all(node: Apply) -> tuple[int, ...]:
    return tuple(range(len(node.inputs)))


def _perform(op: Any, node: Apply, values: Any) -> Any:
    cells: list[list[Any]] = [[None] for _ in node.outputs]
    op.perform(node, [np.asarray(v) for v in values], cells)
    return cells[0][0]


@register(ARange, static=_all)
def _arange(op: ARange, node: Apply, ctx: Context) -> Fn:
    def run(*values: Any) -> list[Any]:
        start, stop, step = arange_args([np.asarray(v) for v in values], op.weak)
        n = arange_length(start, stop, step)
        if n <= SMALL:
            return [_perform(op, node, values)]
        if np.dtype(op.dtype).kind in "iu":
            return [(jnp.arange(n, dtype=op.dtype) * step + start).astype(op.dtype)]
        dtype = np.result_type(op.dtype, "float64") if np.dtype(op.dtype).kind == "f" else op.dtype
        return [(jnp.arange(n, dtype=dtype) * step + start).astype(op.dtype)]

    return run


@register(ARangeLength, static=_all)
def _arange_len(op: ARangeLength, node: Apply, ctx: Context) -> Fn:
    def run(*values: Any) -> list[Any]:
        return [_perform(op, node, values)]

    return run


@register(Linspace)
def _linspace(op: Linspace, node: Apply, ctx: Context) -> Fn:
    # numpy's own algorithm (not jnp.linspace), so inf/NaN ends and num=1 agree
    def run(start: Any, stop: Any) -> list[Any]:
        start, stop = jnp.asarray(start), jnp.asarray(stop)
        dt = jnp.result_type(start, stop, float)
        start, stop = start.astype(dt), stop.astype(dt)
        num = op.num
        div = (num - 1) if op.endpoint else num
        delta = stop - start
        y = jnp.arange(num, dtype=dt).reshape((-1,) + (1,) * delta.ndim)
        if div > 0:
            step = delta / div
            y = jnp.where(jnp.any(step == 0), y / div * delta, y * step)
        else:
            y = y * delta
        y = y + start
        if op.endpoint and num > 1:
            y = y.at[-1].set(stop)
        if op.axis != 0:
            y = jnp.moveaxis(y, 0, op.axis)
        if np.dtype(op.dtype).kind in "iu":
            y = jnp.floor(y)
        return [y.astype(op.dtype)]

    return run


@register(Eye, Tri, static=_all)
def _matrix_mask(op: Any, node: Apply, ctx: Context) -> Fn:
    fn = jnp.eye if isinstance(op, Eye) else jnp.tri

    def run(n: Any, m: Any, k: Any) -> list[Any]:
        n, m, k = int(n), int(m), int(k)
        if max(n, 0) * max(m, 0) <= SMALL or n < 0 or m < 0:
            return [_perform(op, node, (n, m, k))]
        return [fn(n, m, k, dtype=op.dtype)]

    return run
