"""Type promotion with numpy 2's rules (NEP 50): arrays and numpy scalars are
strong, Python ``bool``/``int``/``float``/``complex`` are weak and take the other
operand's dtype when its kind can hold them.

>>> import numpy as np
>>> from lazygraph.tensor.type import fvector
>>> result_type(fvector(), 1.0), result_type(fvector(), np.float64(1.0))
('float32', 'float64')
>>> result_type(1, 2.0)
'float64'
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from lazygraph.graph.basic import Variable
from lazygraph.tensor.type import normalize_dtype

__all__ = ["array_dtype", "is_weak_scalar", "result_type", "upcast_to_float"]

PY_SCALARS = (bool, int, float, complex)


def is_weak_scalar(x: Any) -> bool:
    """A Python scalar (not a numpy scalar): weak in promotion."""
    return isinstance(x, PY_SCALARS) and not isinstance(x, np.generic)


def _promotion_operand(x: Any) -> Any:
    if isinstance(x, Variable):
        return x.type.numpy_dtype  # type: ignore[attr-defined]
    if is_weak_scalar(x):
        return x  # numpy treats Python scalars as weak
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype
    if isinstance(x, (np.dtype, type, str)):
        return np.dtype(x)
    return np.asarray(x).dtype


def result_type(*operands: Any) -> str:
    """The dtype numpy 2 gives an operation on ``operands`` (variables, arrays,
    dtypes or Python scalars), as a dtype name."""
    if not operands:
        raise TypeError("result_type() needs at least one operand")
    dtype = np.result_type(*(_promotion_operand(x) for x in operands))
    return normalize_dtype(dtype)


def array_dtype(*entries: Any) -> str:
    """The dtype ``numpy.array`` gives a sequence of ``entries`` (variables,
    arrays, dtypes or Python scalars), as a dtype name: its discovery promotes
    pairwise from left to right, and a Python scalar counts as its own default
    dtype (not weak), so ``[int8, uint16, float32]`` is float64 (int32, then
    float64) where :func:`result_type` gives float32.

    >>> array_dtype("int8", "uint16", "float32"), result_type("int8", "uint16", "float32")
    ('float64', 'float32')
    """
    if not entries:
        raise TypeError("array_dtype() needs at least one entry")
    dtypes = [np.asarray(x).dtype if is_weak_scalar(x) else _promotion_operand(x) for x in entries]
    return normalize_dtype(functools.reduce(np.promote_types, dtypes))


def upcast_to_float(dtype: Any) -> str:
    """The floating dtype numpy computes in for float-valued functions (``exp``,
    ``sqrt``, ``mean``...) of ``dtype``.

    numpy gives float16 for bool, int8 and uint8; lazygraph has no float16, so
    those become float32 (the one intended difference from numpy).
    """
    name = np.dtype(dtype).name
    if name in ("bool", "int8", "uint8"):
        return "float32"
    if name in ("int16", "uint16"):
        return "float32"
    if np.dtype(dtype).kind in "iu":
        return "float64"
    return name
