"""Lowerings of the linear algebra dask has blocked algorithms for.

- ``solve`` and ``inv`` (a solve against the identity): dask's blocked LU, which
  needs equal square blocks: the matrix is rechunked to blocks of the largest
  size dividing its own that is at most its row chunk size (one block if no
  divisor comes near and it fits in ``config.dask_chunk_size``; else it runs
  through ``perform``, the warning saying why).
- ``cholesky``: dask's blocked Cholesky, square blocks likewise.
- ``qr`` (reduced) and ``svd`` (reduced, or values only): dask's tall-and-skinny
  algorithms (TSQR), which need the matrix in one chunk across its columns: it is
  rechunked so when those row blocks stay under ``config.dask_chunk_size``.

Stacks of matrices (batched inputs), and the decompositions dask has no blocked
algorithm for (``eigh``, ``det``, ``slogdet``, ``pinv``, ``lstsq``), run through
their ``perform`` on one chunk holding the whole matrix, with a
``DaskFallbackWarning`` naming the Op and why. The signs of QR's and SVD's
vectors are TSQR's, which may differ from LAPACK's on the whole matrix (``Q @ R``
and ``U * s @ Vh`` are the same).

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> import lazygraph.tensor.linalg as la
>>> node = la.solve(lt.dmatrix(), lt.dvector()).owner
>>> a = da.from_array(np.diag([2.0, 4.0, 8.0]), chunks=(2, 3))
>>> _lower_solve(node, [a, da.ones(3, chunks=3)])[0].compute()
array([0.5  , 0.25 , 0.125])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dask.array as da
import numpy as np

from lazygraph.backends.dask.dispatch import Unsupported, register
from lazygraph.backends.dask.linker import known_shape, to_dask
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply
from lazygraph.tensor.linalg.decomp import QR, SVD, Cholesky
from lazygraph.tensor.linalg.solve import Inv, Solve

__all__: list[str] = []


def _square_blocks(a: Any, op: Any) -> Any:
    """``a`` (one matrix) rechunked to equal square blocks, as dask's LU and
    Cholesky need: of the largest size dividing the matrix's that is at most its
    row chunk size, or one block when no divisor comes near and the whole
    matrix fits in ``config.dask_chunk_size``."""
    if a.ndim != 2:
        raise Unsupported(f"{op} of a stack of matrices (dask's blocked {op} takes one matrix)")
    a = known_shape(a)
    n = a.shape[0]
    target = max(1, a.chunks[0][0] if a.chunks[0] else 1)
    size = max(d for d in range(1, min(n, target) + 1) if n % d == 0) if n else 1
    if 4 * size < min(n, target):
        if n * n * a.dtype.itemsize > int(config.dask_chunk_size):
            raise Unsupported(
                f"{op} of a {a.shape} matrix: dask's blocked algorithm needs equal square "
                f"blocks, and {n} has no divisor near the chunk size {target}; pad the "
                "matrix, or pass a dask array rechunked to equal square blocks"
            )
        size = n
    return a.rechunk((size, size))


def _one_column_block(a: Any, op: Any) -> Any:
    """``a`` (one tall matrix) in one chunk across its columns, as TSQR needs."""
    if a.ndim != 2:
        raise Unsupported(f"{op} of a stack of matrices (dask's TSQR takes one matrix)")
    a = known_shape(a)
    m, n = a.shape
    if m < n:
        raise Unsupported(
            f"{op} of a wide matrix {a.shape} (dask's TSQR takes tall-and-skinny matrices; "
            "factor its transpose)"
        )
    rows = max(1, min(m, int(config.dask_chunk_size) // max(1, n * a.dtype.itemsize)))
    if rows < n:
        raise Unsupported(
            f"{op} of {a.shape}: a block of the whole width and at least {n} rows is "
            f"larger than config.dask_chunk_size ({config.dask_chunk_size} bytes); "
            f"raise it to at least {n * n * a.dtype.itemsize}"
        )
    if len(a.chunks[1]) == 1 and max(a.chunks[0]) >= n:
        return a
    return a.rechunk((max(n, min(rows, max(a.chunks[0]))), n))


@register(Solve)
def _lower_solve(node: Apply, values: Sequence[Any]) -> list[Any]:
    a, b = (to_dask(v) for v in values)
    a = _square_blocks(a, node.op)
    if b.ndim > 2:
        raise Unsupported("solve with a stack of right-hand sides")
    b = known_shape(b).rechunk({0: a.chunks[0]})
    return [da.linalg.solve(a, b)]


@register(Inv)
def _lower_inv(node: Apply, values: Sequence[Any]) -> list[Any]:
    a = _square_blocks(to_dask(values[0]), node.op)
    eye = da.eye(a.shape[0], chunks=a.chunks[0][0], dtype=np.result_type(a.dtype, np.float64))
    return [da.linalg.solve(a, eye)]


@register(Cholesky)
def _lower_cholesky(node: Apply, values: Sequence[Any]) -> list[Any]:
    a = _square_blocks(to_dask(values[0]), node.op)
    return [da.linalg.cholesky(a, lower=not node.op.upper)]  # type: ignore[attr-defined]


@register(QR)
def _lower_qr(node: Apply, values: Sequence[Any]) -> list[Any]:
    op: QR = node.op  # type: ignore[assignment]
    if op.mode not in ("reduced", "r"):
        raise Unsupported(f"qr mode {op.mode!r} (dask's TSQR gives the reduced factors)")
    q, r = da.linalg.qr(_one_column_block(to_dask(values[0]), op))
    return [r] if op.mode == "r" else [q, r]


@register(SVD)
def _lower_svd(node: Apply, values: Sequence[Any]) -> list[Any]:
    op: SVD = node.op  # type: ignore[assignment]
    if op.compute_uv and op.full_matrices:
        raise Unsupported("svd with full_matrices=True (dask's TSQR gives the reduced factors)")
    u, s, vh = da.linalg.svd(_one_column_block(to_dask(values[0]), op))
    return [u, s, vh] if op.compute_uv else [s]
