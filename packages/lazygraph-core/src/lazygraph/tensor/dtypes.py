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

from typing import Any

import numpy as np

from lazygraph.graph.basic import Variable
from lazygraph.tensor.type import normalize_dtype

__all__ = ["is_weak_scalar", "result_type", "upcast_to_float"]

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
