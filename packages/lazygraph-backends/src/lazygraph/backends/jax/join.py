"""JAX lowerings: ``Join`` (concatenate/stack) and ``Split``.

>>> import numpy as np
>>> import lazygraph, lazygraph.tensor as lt
>>> x = lt.dvector("x")
>>> f = lazygraph.function([x], lt.concatenate([x, x]), mode="jax")
>>> f(np.arange(2.0))
array([0., 1., 0., 1.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
import numpy as np

from lazygraph.backends.jax.dispatch import Context, register
from lazygraph.graph.basic import Apply
from lazygraph.tensor.join import Join, Split

__all__: list[str] = []

Fn = Callable[..., Any]


@register(Join)
def _join(op: Join, node: Apply, ctx: Context) -> Fn:
    dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]

    def run(*xs: Any) -> list[Any]:
        return [jnp.concatenate([jnp.asarray(x).astype(dtype) for x in xs], axis=op.axis)]

    return run


@register(Split, static=(1,))
def _split(op: Split, node: Apply, ctx: Context) -> Fn:
    def run(x: Any, sizes: Any) -> list[Any]:
        sizes = np.asarray(sizes)
        n = np.shape(x)[op.axis]
        if (sizes < 0).any() or sizes.sum() != n:
            equal = len(set(sizes.tolist())) == 1
            raise ValueError(
                "array split does not result in an equal division"
                if equal
                else f"Split: sizes {sizes.tolist()} do not split axis {op.axis} of length {n}"
            )
        return list(jnp.split(jnp.asarray(x), np.cumsum(sizes)[:-1].tolist(), axis=op.axis))

    return run
