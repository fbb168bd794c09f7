"""Packing booleans into bytes and back: ``packbits`` and ``unpackbits``, as
shifts, masks and sums of the graph (lazy, any backend).

>>> import lazygraph.numpy as lnp
>>> p = lnp.packbits([1, 0, 1, 1, 0, 0, 0, 0, 1])
>>> p.compute()
array([176, 128], dtype=uint8)
>>> lnp.unpackbits(p, count=9).compute()
array([1, 0, 1, 1, 0, 0, 0, 0, 1], dtype=uint8)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import asarray
from lazygraph.numpy._ufunc import ArrayLike

__all__ = ["packbits", "unpackbits"]

_BIG = np.array([128, 64, 32, 16, 8, 4, 2, 1], dtype=np.uint8)


def _weights(bitorder: str, name: str) -> np.ndarray:
    if bitorder not in ("big", "little"):
        raise ValueError(f"{name}: 'order' must be either 'little' or 'big'")
    return _BIG if bitorder == "big" else _BIG[::-1].copy()


def _along_last(x: Array, axis: Any, name: str) -> tuple[Array, int | None]:
    """``x`` flattened (``axis=None``) or with ``axis`` moved last."""
    import lazygraph.numpy as lnp

    if axis is None:
        return x.reshape(-1), None
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"{name}: an integer is required for the axis")
    ax = int(axis)
    if not -x.ndim <= ax < x.ndim:
        raise np.exceptions.AxisError(ax, x.ndim)
    return lnp.moveaxis(x, ax, -1), ax % x.ndim


def packbits(a: ArrayLike, /, axis: int | None = None, bitorder: str = "big") -> Array:
    """The elements of ``a`` (nonzero is 1) packed eight to a ``uint8`` along
    ``axis`` (flattened when None), the last byte padded with zeros
    (``numpy.packbits``).

    >>> import lazygraph.numpy as lnp
    >>> lnp.packbits([[1, 1], [0, 1]], axis=0, bitorder="little").compute()
    array([[1, 3]], dtype=uint8)
    """
    import lazygraph.numpy as lnp

    x = asarray(a)
    if x.dtype.kind not in "biu":
        raise TypeError(
            f"packbits: Expected an input array of integer or boolean data type (got {x.dtype})"
        )
    weights = _weights(bitorder, "packbits")
    flat, ax = _along_last(x, axis, "packbits")
    n = flat.shape[-1]
    groups = -(-n // 8)
    bits = (flat != 0).astype(np.uint8)
    pad = groups * 8 - n
    if pad:
        bits = lnp.concatenate([bits, lnp.zeros((*bits.shape[:-1], pad), dtype=np.uint8)], axis=-1)
    grouped = bits.reshape(*bits.shape[:-1], groups, 8)
    packed = lnp.sum(grouped * lnp.asarray(weights), axis=-1, dtype=np.uint8)
    return packed if ax is None else lnp.moveaxis(packed, -1, ax)


def unpackbits(
    a: ArrayLike,
    /,
    axis: int | None = None,
    count: int | None = None,
    bitorder: str = "big",
) -> Array:
    """The bits of the ``uint8`` array ``a`` as a ``uint8`` array of 0s and 1s
    along ``axis`` (flattened when None); ``count`` keeps that many bits (a
    negative one drops them from the end; more than there are pads with zeros)
    (``numpy.unpackbits``).

    >>> import lazygraph.numpy as lnp
    >>> lnp.unpackbits(lnp.asarray([3], dtype="uint8"), bitorder="little").compute()
    array([1, 1, 0, 0, 0, 0, 0, 0], dtype=uint8)
    """
    import lazygraph.numpy as lnp

    x = asarray(a)
    if x.dtype != np.uint8:
        raise TypeError("unpackbits: Expected an input array of unsigned byte data type")
    weights = _weights(bitorder, "unpackbits")
    flat, ax = _along_last(x, axis, "unpackbits")
    n = flat.shape[-1] * 8
    shifts = lnp.asarray(np.log2(weights).astype(np.uint8))  # big: 7, 6, ..., 0
    bits = lnp.bitwise_and(lnp.right_shift(flat[..., None], shifts), np.uint8(1))
    bits = bits.reshape(*flat.shape[:-1], n)
    if count is not None:
        count = int(count)
        if n + count < 0:
            raise ValueError("unpackbits: -count larger than number of elements")
        keep = count if count >= 0 else n + count
        if keep <= n:
            bits = bits[..., :keep]
        else:
            extra = lnp.zeros((*bits.shape[:-1], keep - n), dtype=np.uint8)
            bits = lnp.concatenate([bits, extra], axis=-1)
    return bits if ax is None else lnp.moveaxis(bits, -1, ax)
