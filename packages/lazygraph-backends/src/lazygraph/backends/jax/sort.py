"""JAX lowerings: ``sort``, ``argsort`` and ``searchsorted``; ``unique_*`` and
``nonzero`` have data-dependent output sizes and run on the host, as does an
unstable ``argsort`` (numpy's introsort orders ties its own way).

>>> import numpy as np
>>> import lazygraph, lazygraph.tensor as lt
>>> x = lt.dvector("x")
>>> f = lazygraph.function([x], lt.sort(x), mode="jax")
>>> f(np.array([3.0, 1.0, 2.0]))
array([1., 2., 3.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax.numpy as jnp

from lazygraph.backends.jax.dispatch import Context, Unsupported, register
from lazygraph.graph.basic import Apply
from lazygraph.tensor.search import SearchSorted
from lazygraph.tensor.sort import ArgSort, Sort

__all__: list[str] = []

Fn = Callable[..., Any]


def _axis_for(op: Any, x: Any) -> tuple[Any, int]:
    if op.axis is None or x.ndim == 0:
        return jnp.reshape(x, (-1,)), 0
    return x, op.axis % x.ndim


def _key(x: Any) -> Any:
    """Sort keys in numpy's order: XLA's float order puts -0.0 before 0.0 and a
    negative NaN first; numpy ties the zeros and puts every NaN last."""
    if x.dtype.kind != "f":
        return x
    x = jnp.where(x == 0, jnp.zeros((), x.dtype), x)
    return jnp.where(jnp.isnan(x), jnp.full((), jnp.nan, x.dtype), x)


def _numpy_argsort(op: Any, x: Any, axis: int) -> Any:
    key = _key(x)
    if not op.descending:
        return jnp.argsort(key, axis=axis, stable=True)
    # numpy's descending order keeps equal elements last-first: sort the
    # reversed array and map back, as the reference does
    rev = jnp.flip(jnp.argsort(jnp.flip(key, axis), axis=axis, stable=True), axis)
    return (x.shape[axis] - 1) - rev


@register(Sort)
def _sort(op: Sort, node: Apply, ctx: Context) -> Fn:
    def run(x: Any) -> list[Any]:
        x, axis = _axis_for(op, jnp.asarray(x))
        if x.dtype.kind != "f":
            if op.descending:
                return [jnp.flip(jnp.sort(jnp.flip(x, axis), axis=axis, stable=True), axis)]
            return [jnp.sort(x, axis=axis, stable=True)]
        return [jnp.take_along_axis(x, _numpy_argsort(op, x, axis), axis=axis)]

    return run


@register(ArgSort)
def _argsort(op: ArgSort, node: Apply, ctx: Context) -> Fn:
    if not op.stable:
        # numpy's default (introsort) orders ties its own way: only numpy matches it
        raise Unsupported("argsort with stable=False runs through numpy", "unstable argsort")

    def run(x: Any) -> list[Any]:
        x, axis = _axis_for(op, jnp.asarray(x))
        return [_numpy_argsort(op, x, axis)]

    return run


@register(SearchSorted)
def _searchsorted(op: SearchSorted, node: Apply, ctx: Context) -> Fn:
    def run(a: Any, v: Any, *sorter: Any) -> list[Any]:
        a = jnp.asarray(a)
        if sorter:
            a = a[jnp.asarray(sorter[0])]
        return [
            jnp.searchsorted(
                a, jnp.asarray(v), side=op.side, method="compare_all" if a.size < 64 else "scan"
            )
        ]

    return run
