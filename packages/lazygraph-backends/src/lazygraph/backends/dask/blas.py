"""Lowerings of ``MatMul`` and ``Einsum``: dask's own blocked products, which
contract chunk pairs and sum the partial products in a tree.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> node = lt.matmul(lt.dmatrix(), lt.dmatrix()).owner
>>> a = da.from_array(np.eye(4), chunks=2)
>>> (out,) = _lower_matmul(node, [a, a * 3.0])
>>> out.compute()[1]
array([0., 3., 0., 0.])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dask.array as da

from lazygraph.backends.dask.dispatch import register
from lazygraph.backends.dask.linker import known_shape, to_dask
from lazygraph.graph.basic import Apply
from lazygraph.tensor.blas import Einsum, MatMul

__all__: list[str] = []


@register(MatMul)
def _lower_matmul(node: Apply, values: Sequence[Any]) -> list[Any]:
    a, b = (known_shape(to_dask(v)) for v in values)
    return [da.matmul(a, b)]


@register(Einsum)
def _lower_einsum(node: Apply, values: Sequence[Any]) -> list[Any]:
    arrays = [known_shape(to_dask(v)) for v in values]
    dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    return [da.einsum(node.op.subscripts, *arrays, dtype=dtype)]  # type: ignore[attr-defined]
